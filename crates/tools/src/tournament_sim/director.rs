//! The director's side of a simulated tournament: it pairs and starts each round over
//! HTTP, seats a task per table that plays the game through the players' own game
//! sockets, follows the round on the tournament socket (a replayed game, the round's end),
//! and hands each finished round's moves to the watchers.

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::rngs::SmallRng;
use rand::SeedableRng;
use serde_json::{json, Value};
use tokio::sync::{mpsc, watch};
use tokio::task::JoinSet;
use uuid::Uuid;

use super::latency::{MoveLog, RoundMoves};
use super::socket::Feed;
use super::watcher::WatcherStats;
use crate::harness::client::play_seated;
use crate::harness::socket::{http, Exit};
use crate::harness::stats::Ctx;
use omweso_protocol::clock::now_ms;
use omweso_protocol::tournament::{RoundStatus, RoundView, TournamentEvent};

/// How long past a round's deadline its end may take: the server adjudicates the games
/// still going at the deadline, each by its own task, and records their sheets.
const ROUND_SLACK: Duration = Duration::from_secs(60);
/// How long the table tasks may take to stop once their round is over (a player that saw
/// its game end waits up to 5 s for the `end` event itself).
const TABLES_STOP: Duration = Duration::from_secs(30);
/// How long the director waits for the watchers to match a finished round.
const MATCHING_WAIT: Duration = Duration::from_secs(5);

/// A tournament being played.
pub(crate) struct Director {
    pub(crate) ctx: Arc<Ctx>,
    pub(crate) tournament: Uuid,
    pub(crate) token: String,
    /// Each player's session token.
    pub(crate) tokens: HashMap<Uuid, String>,
    pub(crate) moves: Arc<MoveLog>,
    pub(crate) seed: u64,
    pub(crate) watchers: Arc<WatcherStats>,
    pub(crate) watcher_count: usize,
}

/// What one round took.
#[derive(Clone, Debug, Default)]
pub(crate) struct RoundFigures {
    /// Games played (a replay counts again).
    pub(crate) games: usize,
    pub(crate) replays: usize,
    /// The round's time ran out: its unfinished games were adjudicated.
    pub(crate) timed_out: bool,
    pub(crate) seconds: f64,
    pub(crate) moves: usize,
    /// How long `POST /rounds` (the pairing) took, over HTTP.
    pub(crate) pair_ms: f64,
}

impl Director {
    fn path(&self, rest: &str) -> String {
        format!("/api/tournaments/{}{rest}", self.tournament)
    }

    async fn post(&self, rest: &str) -> Result<Value, String> {
        http(
            &self.ctx,
            "POST",
            &self.path(rest),
            Some(&self.token),
            Some(json!({})),
        )
        .await
    }

    /// The tournament's snapshot as the director sees it.
    pub(crate) async fn snapshot(&self) -> Result<Value, String> {
        http(&self.ctx, "GET", &self.path(""), Some(&self.token), None).await
    }

    /// Plays round after round until every round planned is played; each finished round's
    /// moves go to `settled`. A protocol fault that does not stop the run is added to
    /// `faults`; one that does (a round that does not finish, the director's socket
    /// closing) is the error.
    pub(crate) async fn play(
        &self,
        feed: &mut mpsc::Receiver<Feed>,
        settled: &watch::Sender<Vec<Arc<RoundMoves>>>,
        faults: &mut Vec<String>,
    ) -> Result<Vec<RoundFigures>, String> {
        let mut rounds = Vec::new();
        let mut planned = None;
        loop {
            let asked = Instant::now();
            let paired: RoundView = parse(self.post("/rounds").await?, "the paired round")?;
            let pair_ms = asked.elapsed().as_secs_f64() * 1000.0;
            let number = paired.number;
            if planned.is_none() {
                // A round-robin's number of rounds is known once its field is paired.
                let snapshot = self.snapshot().await?;
                planned = snapshot["rounds_planned"]
                    .as_u64()
                    .and_then(|n| u32::try_from(n).ok());
                eprintln!(
                    "{} rounds to play",
                    planned.map_or("?".into(), |n| n.to_string())
                );
            }
            let mut figures = self.round(number, feed, settled, faults).await?;
            figures.pair_ms = pair_ms;
            eprintln!(
                "round {number}: paired in {pair_ms:.1} ms; {} games played ({} replayed) in {:.1} s{}",
                figures.games,
                figures.replays,
                figures.seconds,
                if figures.timed_out {
                    "; its time ran out"
                } else {
                    ""
                }
            );
            rounds.push(figures);
            if planned.is_none_or(|planned| number >= planned) {
                return Ok(rounds);
            }
        }
    }

    /// Starts round `number`, has its games played, and waits for its end.
    async fn round(
        &self,
        number: u32,
        feed: &mut mpsc::Receiver<Feed>,
        settled: &watch::Sender<Vec<Arc<RoundMoves>>>,
        faults: &mut Vec<String>,
    ) -> Result<RoundFigures, String> {
        let started = Instant::now();
        let round: RoundView = parse(
            self.post(&format!("/rounds/{number}/start")).await?,
            "the started round",
        )?;
        // The server's own deadline, plus the time its adjudication may take.
        let deadline = round.deadline.map_or(ROUND_SLACK * 60, |at| {
            Duration::from_millis(at.saturating_sub(now_ms())) + ROUND_SLACK
        });
        let deadline = tokio::time::Instant::now() + deadline;
        let mut tables = JoinSet::new();
        let mut games: Vec<Uuid> = Vec::new();
        let mut figures = RoundFigures::default();
        self.seat(&round, &mut tables, &mut games, deadline)?;
        let mut view = round;
        while view.status != RoundStatus::Finished {
            tokio::select! {
                item = feed.recv() => match item {
                    Some(Feed::Event(event)) => {
                        if let TournamentEvent::Round(r) = *event {
                            if r.number == number {
                                figures.timed_out |= r.closing;
                                view = r;
                                // A game annulled with time left is replayed at once.
                                self.seat(&view, &mut tables, &mut games, deadline)?;
                            }
                        }
                    }
                    Some(Feed::Fault(fault)) => faults.push(fault),
                    Some(Feed::Closed(why)) => return Err(format!("round {number}: {why}")),
                    None => return Err(format!("round {number}: the director's socket closed")),
                },
                Some(done) = tables.join_next() => table_done(done, faults),
                () = tokio::time::sleep_until(deadline) => {
                    return Err(format!(
                        "round {number} did not finish: {} of {} tables have no sheet {} s after its deadline",
                        view.pairings.iter().filter(|p| p.sheet.is_none()).count(),
                        view.pairings.len(),
                        ROUND_SLACK.as_secs()
                    ));
                }
            }
        }
        let stop_by = tokio::time::Instant::now() + TABLES_STOP;
        while !tables.is_empty() {
            match tokio::time::timeout_at(stop_by, tables.join_next()).await {
                Ok(Some(done)) => table_done(done, faults),
                Ok(None) => break,
                Err(_) => {
                    faults.push(format!(
                        "round {number}: {} games still being played {} s after the round finished",
                        tables.len(),
                        TABLES_STOP.as_secs()
                    ));
                    tables.abort_all();
                    break;
                }
            }
        }
        figures.games = games.len();
        figures.replays = games
            .len()
            .saturating_sub(view.pairings.iter().filter(|p| p.second.is_some()).count());
        figures.seconds = started.elapsed().as_secs_f64();
        let moves = self.moves.take(number, &games);
        figures.moves = moves.moves();
        settled.send_modify(|rounds| rounds.push(Arc::new(moves)));
        self.await_matching(number).await;
        Ok(figures)
    }

    /// Waits (a few seconds at most) for every watcher to have matched round `number`'s
    /// moves, so that this simulator's own burst of work does not delay the next round's
    /// pairing, which is timed, nor its first moves. A watcher still behind is counted at
    /// the end.
    async fn await_matching(&self, number: u32) {
        let want = self.watcher_count as u64 * u64::from(number);
        let until = tokio::time::Instant::now() + MATCHING_WAIT;
        while self.watchers.rounds_matched.load(Ordering::Relaxed) < want
            && tokio::time::Instant::now() < until
        {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    /// Starts a task for each game of `round` not being played yet.
    fn seat(
        &self,
        round: &RoundView,
        tables: &mut JoinSet<Result<Exit, String>>,
        games: &mut Vec<Uuid>,
        deadline: tokio::time::Instant,
    ) -> Result<(), String> {
        for pairing in &round.pairings {
            let (Some(game), Some(second), None) =
                (pairing.game_id, pairing.second, &pairing.sheet)
            else {
                continue;
            };
            if games.contains(&game) {
                continue;
            }
            let token = |player: &Uuid| {
                self.tokens
                    .get(player)
                    .cloned()
                    .ok_or_else(|| format!("table {}: {player} is not a player", pairing.table))
            };
            let tokens = [token(&pairing.first)?, token(&second)?];
            games.push(game);
            let ctx = self.ctx.clone();
            // Each game its own stream of choices, the same for the same seed. The game's
            // number is spread over the bits before the seed goes in: `seed ^ n` alone
            // gives seeds 1 and 2 the same set of streams, dealt to other tables.
            let game_number = (u64::from(round.number) << 32) | games.len() as u64;
            let mut rng = SmallRng::seed_from_u64(
                self.seed ^ game_number.wrapping_mul(0x9E37_79B9_7F4A_7C15),
            );
            tables.spawn(async move {
                let game = game.to_string();
                tokio::time::timeout_at(deadline, play_seated(&ctx, &game, tokens, &mut rng))
                    .await
                    .map_err(|_| format!("game {game} still going past its round's deadline"))?
                    .map_err(|e| format!("game {game}: {e}"))
            });
        }
        Ok(())
    }
}

fn table_done(
    done: Result<Result<Exit, String>, tokio::task::JoinError>,
    faults: &mut Vec<String>,
) {
    match done {
        Ok(Ok(Exit::Ended)) => {}
        Ok(Ok(exit)) => faults.push(format!("a game's player stopped: {exit:?}")),
        Ok(Err(e)) => faults.push(e),
        Err(e) => faults.push(format!("a table's task failed: {e}")),
    }
}

fn parse<T: serde::de::DeserializeOwned>(value: Value, what: &str) -> Result<T, String> {
    serde_json::from_value(value).map_err(|e| format!("{what} is unreadable: {e}"))
}
