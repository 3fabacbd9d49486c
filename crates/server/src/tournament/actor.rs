//! The task that owns one tournament (Alice Ryhl's actor pattern), as a game's task owns
//! its table. HTTP handlers and sockets reach it through a bounded channel; it owns the
//! [`Tournament`], its log's next number, the round clock, the sockets' outgoing queues,
//! and the latest board of every table, so nothing is shared and no lock is held across
//! an `.await`.
//!
//! Every change is an [`Entry`]: applied to the state, saved (with the games a round's
//! start or a replay creates, in the same transaction), and only then answered and
//! published, each event encoded once for every watcher. The games are watched: their
//! news comes back on a bounded channel; moves become `board` messages, coalesced to
//! [`BOARD_EVERY`] per table; an end becomes a `GameEnd` entry. Who of the tournament is
//! here (its sockets, and the players at their games) is sent as `presence`, in the same
//! batches as the boards.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::Utf8Bytes;
use omweso_rules::{Outcome, Ruleset, Side, Victory};
use tokio::sync::{mpsc, oneshot, watch};
use tokio::time::Instant;
use uuid::Uuid;

use super::log::{Entry, LoggedPairing, SheetAction};
use super::sheet::GameFigures;
use super::state::{PlannedGame, Refusal, Tournament};
use crate::game::actor::{ConnId, Outgoing};
use crate::game::news::TableNews;
use crate::game::registry::{Registry, SeatedGame};
use crate::store::{TournamentEntryRow, TournamentRow, Write, Writer};
use omweso_protocol::clock::now_ms;
use omweso_protocol::config::GameConfig;
use omweso_protocol::tournament::{
    BoardView, RoundView, SheetView, TournamentEvent, TournamentFrame, TournamentSnapshot,
    TournamentStatus,
};
use omweso_protocol::ErrorCode;

/// Commands a tournament's channel holds; senders wait when it is full.
pub const COMMAND_QUEUE: usize = 256;
/// Game news the tournament's channel holds. Move news is dropped when it is full (the
/// next one carries the board anyway); a game's end is never dropped.
pub const NEWS_QUEUE: usize = 4096;
/// Recent events kept for `?v=` resumption.
pub const RECENT_EVENTS: usize = 512;
/// How often the boards that changed are sent: every table's at once, so that a watcher
/// gets one batch (one flush) per period, whatever the number of tables; so a table's
/// board is sent at most five times a second, at most this long after its move.
pub const BOARD_EVERY: Duration = Duration::from_millis(200);
/// A tournament socket's outgoing queue: a period's boards of every table (one per table
/// at most) and the events, so that a watcher keeping up is never dropped for the number
/// of tables.
pub const TOURNAMENT_OUTGOING_QUEUE: usize = 1024;
/// How long a finished tournament without sockets stays loaded after its last command.
const IDLE_UNLOAD: Duration = Duration::from_secs(60);
/// The standings are sent at most this often while games end (each game's end changes
/// them; at a thousand players they are 150 KB, and a round's 500 ends sent every watcher
/// 100 MB of them).
pub const STANDINGS_EVERY: Duration = Duration::from_secs(2);
/// How long after a game's end its standings wait for others ending at the same moment.
const STANDINGS_GATHER: Duration = Duration::from_millis(250);
/// How long after a failed save a deadline is tried again.
const RETRY_MS: u64 = 1000;

pub enum Command {
    Snapshot {
        viewer: Option<Uuid>,
        reply: oneshot::Sender<TournamentSnapshot>,
    },
    /// The whole state (for the exports).
    State {
        reply: oneshot::Sender<Box<Tournament>>,
    },
    Join {
        player: Uuid,
        name: String,
        reply: oneshot::Sender<Result<(), Refusal>>,
    },
    Withdraw {
        player: Uuid,
        by: Uuid,
        reply: oneshot::Sender<Result<(), Refusal>>,
    },
    PairNext {
        by: Uuid,
        reply: oneshot::Sender<Result<RoundView, Refusal>>,
    },
    EditRound {
        by: Uuid,
        round: u32,
        pairings: Vec<LoggedPairing>,
        confirm_breach: bool,
        reply: oneshot::Sender<Result<RoundView, Refusal>>,
    },
    StartRound {
        by: Uuid,
        round: u32,
        reply: oneshot::Sender<Result<RoundView, Refusal>>,
    },
    EndRound {
        by: Uuid,
        round: u32,
        reply: oneshot::Sender<Result<RoundView, Refusal>>,
    },
    /// The director's new list of forbidden pairs; answers the list as kept.
    ForbiddenPairs {
        by: Uuid,
        pairs: Vec<[Uuid; 2]>,
        reply: oneshot::Sender<Result<Vec<[Uuid; 2]>, Refusal>>,
    },
    Sheet {
        by: Uuid,
        game_id: Uuid,
        action: SheetAction,
        reply: oneshot::Sender<Result<SheetView, Refusal>>,
    },
    Connect {
        player: Option<Uuid>,
        resume_after: Option<u64>,
        tx: mpsc::Sender<Outgoing>,
        reply: oneshot::Sender<ConnId>,
    },
    Disconnect {
        conn: ConnId,
    },
}

/// What the rest of the server holds to reach a tournament.
#[derive(Clone, Debug)]
pub struct TournamentHandle {
    id: Uuid,
    tx: mpsc::Sender<Command>,
}

/// The tournament's task has ended (the server is stopping).
#[derive(Debug, thiserror::Error)]
#[error("the tournament is not loaded")]
pub struct Gone;

impl TournamentHandle {
    #[must_use]
    pub fn id(&self) -> Uuid {
        self.id
    }

    #[must_use]
    pub fn is_closed(&self) -> bool {
        self.tx.is_closed()
    }

    pub async fn send(&self, command: Command) -> Result<(), Gone> {
        self.tx.send(command).await.map_err(|_| Gone)
    }

    pub async fn ask<T>(
        &self,
        make: impl FnOnce(oneshot::Sender<T>) -> Command,
    ) -> Result<T, Gone> {
        let (reply, answer) = oneshot::channel();
        self.send(make(reply)).await?;
        answer.await.map_err(|_| Gone)
    }
}

/// What every tournament's task shares with the rest of the server.
#[derive(Clone)]
pub struct Services {
    pub writer: Writer,
    pub games: Arc<Registry>,
    pub shutdown: watch::Receiver<bool>,
    /// Told when a tournament's lobby line (its summary) changes.
    pub lobby: Arc<crate::lobby::changes::LobbyChanges>,
    /// Games the server keeps in memory at most: a round that would pass it is refused
    /// whole, before any of its games is created (docs/security.md).
    pub live_games: usize,
    /// How long a tournament that never starts its first round is kept, ms.
    pub open_tournament_ms: u64,
    /// The thread every tournament's pairing runs on.
    pub pairing: super::pairing_worker::PairingWorker,
    /// To rebuild a tournament from its log after a change could not be saved.
    pub store: crate::store::Store,
}

/// A pairing a director asks for.
#[derive(Clone, Debug, PartialEq)]
enum PairingAsk {
    /// The next round, by the rules.
    Next,
    /// Round `round` as the director wrote it.
    Edit {
        round: u32,
        pairings: Vec<LoggedPairing>,
        confirm_breach: bool,
    },
}

/// Spawns the task owning `tournament`, whose log holds `next_seq` entries, and has it
/// watch its games in play (after a restart: and record those that ended meanwhile).
pub fn spawn(tournament: Tournament, next_seq: i64, services: Services) -> TournamentHandle {
    let (tx, rx) = mpsc::channel(COMMAND_QUEUE);
    let (news_tx, news_rx) = mpsc::channel(NEWS_QUEUE);
    let (adjudications_tx, adjudications_rx) = mpsc::channel(ADJUDICATIONS_QUEUE);
    let id = tournament.id();
    let shutdown = services.shutdown.clone();
    let actor = Actor {
        t: tournament,
        rx,
        news_tx,
        news_rx,
        services,
        next_seq,
        conns: HashMap::new(),
        socket_players: HashMap::new(),
        presence_sent: Vec::new(),
        presence_dirty: false,
        next_conn: 1,
        recent: VecDeque::new(),
        recent_bytes: 0,
        boards: HashMap::new(),
        news: HashMap::new(),
        dirty: HashSet::new(),
        boards_sent: Instant::now(),
        standings_due: None,
        standings_sent: Instant::now() - STANDINGS_EVERY,
        state_frame: None,
        adjudicating: HashSet::new(),
        adjudications_tx,
        adjudications_rx,
        adjudicate_retry_at: 0,
        watching: HashSet::new(),
        rewatch_at: 0,
        held_until: 0,
        expiry_retry_at: 0,
        last_pairing_refusal: None,
        stale_until: None,
        last_command: Instant::now(),
        to_watch: Vec::new(),
    };
    tokio::spawn(actor.run(shutdown));
    TournamentHandle { id, tx }
}

struct Conn {
    tx: mpsc::Sender<Outgoing>,
    /// The session's player (counted in `socket_players`).
    player: Option<Uuid>,
}

/// Events kept for `?v=` resumption hold at most this many bytes in all (a standings
/// event of a large field is large).
const RECENT_BYTES: usize = 4 << 20;

struct Actor {
    t: Tournament,
    rx: mpsc::Receiver<Command>,
    news_tx: mpsc::Sender<TableNews>,
    news_rx: mpsc::Receiver<TableNews>,
    services: Services,
    next_seq: i64,
    conns: HashMap<ConnId, Conn>,
    /// Open sockets by the session's player: the players and the director among them
    /// are present.
    socket_players: HashMap<Uuid, usize>,
    /// The last `presence` sent to every socket (sorted).
    presence_sent: Vec<Uuid>,
    /// Something presence depends on changed since it was last sent: it is looked at
    /// again with the next batch of boards.
    presence_dirty: bool,
    next_conn: ConnId,
    recent: VecDeque<(u64, Utf8Bytes)>,
    recent_bytes: usize,
    /// Each game's latest board (encoded when it is sent).
    boards: HashMap<Uuid, BoardView>,
    /// Each game's latest news (the facts an adjudication falls back on).
    news: HashMap<Uuid, TableNews>,
    /// Games whose board changed since the last send.
    dirty: HashSet<Uuid>,
    boards_sent: Instant,
    /// When the standings changed by games' ends are next sent (`None`: none waiting).
    standings_due: Option<Instant>,
    /// When they were last sent.
    standings_sent: Instant,
    /// The `state` frame of the current version as a spectator sees it (`you` null), so
    /// that every socket connecting does not build and encode the whole snapshot again.
    state_frame: Option<(u64, String)>,
    /// Games asked to stop at the round's deadline, their answer not yet in.
    adjudicating: HashSet<Uuid>,
    /// The answers of the games asked to stop (each asked by a task of its own, so that
    /// every game of a round stops at once and this task goes on serving).
    adjudications_tx: mpsc::Sender<Adjudication>,
    adjudications_rx: mpsc::Receiver<Adjudication>,
    /// Not before this are games whose stop failed asked again (ms since the epoch).
    adjudicate_retry_at: u64,
    /// The games in play this task watches (a failed watch is tried again).
    watching: HashSet<Uuid>,
    /// Not before this are games in play that are not watched asked again.
    rewatch_at: u64,
    /// The round clock is not fired before this (ms): its last change could not be saved.
    held_until: u64,
    /// After the store refused to remove an expired tournament: not before then again.
    expiry_retry_at: u64,
    /// A change could not be saved and the state could not be rebuilt from the log yet:
    /// when to try again. Meanwhile every change is refused.
    stale_until: Option<u64>,
    /// The last pairing refused, the question and the version it was asked at.
    last_pairing_refusal: Option<(u64, PairingAsk, Refusal)>,
    last_command: Instant,
    /// Replays created since the loop last looked: to watch.
    to_watch: Vec<Uuid>,
}

/// What a game asked to stop answered.
enum Adjudication {
    /// Stopped (or over already): its news, with its outcome.
    Ended(Box<TableNews>),
    /// It could not be asked or could not save its stop: ask again later.
    Retry(Uuid),
    /// No such game in the store: adjudicated here, from its last news.
    Missing(Uuid),
}

/// At most this many games' answers wait for the task (their tasks wait beyond).
const ADJUDICATIONS_QUEUE: usize = 1024;

impl Actor {
    async fn run(mut self, mut shutdown: watch::Receiver<bool>) {
        let id = self.t.id();
        self.to_watch.extend(
            self.t
                .games_in_play()
                .into_iter()
                .map(|(game_id, _, _)| game_id),
        );
        loop {
            // Replays created (and, after a restart, every game in play) are watched
            // here, not where they are made: watching may itself record an end.
            while let Some(game_id) = self.to_watch.pop() {
                self.watch(game_id).await;
            }
            self.adjudicate_due();
            // A finished tournament nobody has watched or asked for a while is unloaded;
            // it is rebuilt from its log when asked for again.
            if self.idle_until().is_some_and(|at| at <= Instant::now()) {
                break;
            }
            if self.stale_until.is_some_and(|at| at <= now_ms()) {
                self.rebuild().await;
            }
            // One that never started a round in its time is removed, log and all.
            if self.expiry().is_some_and(|at| at <= now_ms()) && self.expire().await {
                break;
            }
            let wake = self.next_wake();
            tokio::select! {
                command = self.rx.recv() => match command {
                    Some(command) => {
                        self.last_command = Instant::now();
                        self.handle(command).await;
                    }
                    None => break,
                },
                Some(news) = self.news_rx.recv() => self.on_news(news).await,
                Some(answer) = self.adjudications_rx.recv() => self.on_adjudication(answer).await,
                () = sleep_until(wake) => self.on_timer().await,
                _ = shutdown.changed() => {
                    self.close_all(1001, "the server is restarting; reconnect in a moment");
                    break;
                }
            }
        }
        tracing::debug!(tournament = %id, "tournament unloaded");
    }

    /// When this task unloads, if it is idle: a finished tournament without sockets,
    /// [`IDLE_UNLOAD`] after the last command.
    fn idle_until(&self) -> Option<Instant> {
        (self.t.status() == TournamentStatus::Finished && self.conns.is_empty())
            .then(|| self.last_command + IDLE_UNLOAD)
    }

    /// When this tournament is removed if it has not started a round by then (or when to
    /// try again, after the store refused the removal).
    fn expiry(&self) -> Option<u64> {
        (self.t.status() == TournamentStatus::Open).then(|| {
            let due = self.t.created_at_ms() + self.services.open_tournament_ms;
            due.max(self.expiry_retry_at)
        })
    }

    /// Removes a tournament that never started (docs/security.md): its row and log go, its
    /// watchers are told, the lobby forgets it. Whether it was removed; if the store
    /// refused, it is tried again later.
    async fn expire(&mut self) -> bool {
        let id = self.t.id();
        if let Err(error) = self
            .services
            .writer
            .write(vec![Write::DeleteTournament(id)])
            .await
        {
            tracing::error!(tournament = %id, %error, "could not remove an expired tournament");
            self.expiry_retry_at = now_ms() + RETRY_MS;
            return false;
        }
        tracing::info!(tournament = %id, "a tournament that never started was removed");
        self.services.lobby.tournaments_changed();
        self.close_all(1000, "this tournament never started and has been removed");
        true
    }

    fn next_wake(&self) -> Option<Instant> {
        let now = now_ms();
        let deadline = self.t.next_deadline().map(|at| at.max(self.held_until));
        let mut wake =
            deadline.map(|at| Instant::now() + Duration::from_millis(at.saturating_sub(now)));
        if !self.dirty.is_empty() || self.presence_dirty {
            let boards = self.boards_sent + BOARD_EVERY;
            wake = Some(wake.map_or(boards, |w| w.min(boards)));
        }
        let unwatched = self
            .t
            .games_in_play()
            .iter()
            .any(|(id, _, _)| !self.watching.contains(id));
        let stop_again = self
            .t
            .games_to_adjudicate()
            .iter()
            .any(|id| !self.adjudicating.contains(id));
        if let Some(idle) = self.idle_until() {
            wake = Some(wake.map_or(idle, |w| w.min(idle)));
        }
        if let Some(due) = self.standings_due {
            wake = Some(wake.map_or(due, |w| w.min(due)));
        }
        if let Some(at) = self.stale_until {
            let at = Instant::now() + Duration::from_millis(at.saturating_sub(now));
            wake = Some(wake.map_or(at, |w| w.min(at)));
        }
        if let Some(expiry) = self.expiry() {
            let at = Instant::now() + Duration::from_millis(expiry.saturating_sub(now));
            wake = Some(wake.map_or(at, |w| w.min(at)));
        }
        for (retry, at) in [
            (unwatched, self.rewatch_at),
            (stop_again, self.adjudicate_retry_at),
        ] {
            if retry {
                let at = Instant::now() + Duration::from_millis(at.saturating_sub(now));
                wake = Some(wake.map_or(at, |w| w.min(at)));
            }
        }
        wake
    }

    async fn handle(&mut self, command: Command) {
        match command {
            Command::Snapshot { viewer, reply } => {
                let _ = reply.send(self.t.snapshot(viewer));
            }
            Command::State { reply } => {
                let _ = reply.send(Box::new(self.t.clone()));
            }
            Command::Join {
                player,
                name,
                reply,
            } => {
                if let Err(refusal) = super::admission::may_join(&self.t, player, &name) {
                    let _ = reply.send(Err(refusal));
                    return;
                }
                let result = self
                    .commit(Entry::Join { player, name }, Vec::new())
                    .await
                    .map(|_| ());
                let _ = reply.send(result);
            }
            Command::Withdraw { player, by, reply } => {
                let result = self
                    .commit(Entry::Withdraw { player, by }, Vec::new())
                    .await
                    .map(|_| ());
                let _ = reply.send(result);
            }
            Command::PairNext { by, reply } => {
                let result = match self.director_only(by, "pair a round") {
                    Ok(()) => match self.paired(PairingAsk::Next).await {
                        Ok(entry) => self.commit_round(entry).await,
                        Err(refusal) => Err(refusal),
                    },
                    Err(refusal) => Err(refusal),
                };
                let _ = reply.send(result);
            }
            Command::EditRound {
                by,
                round,
                pairings,
                confirm_breach,
                reply,
            } => {
                let result = match self.director_only(by, "edit a pairing") {
                    Ok(()) => {
                        let ask = PairingAsk::Edit {
                            round,
                            pairings,
                            confirm_breach,
                        };
                        match self.paired(ask).await {
                            Ok(entry) => self.commit_round(entry).await,
                            Err(refusal) => Err(refusal),
                        }
                    }
                    Err(refusal) => Err(refusal),
                };
                let _ = reply.send(result);
            }
            Command::StartRound { by, round, reply } => {
                let result = match self.director_only(by, "start a round") {
                    Ok(()) => self.start_round(round).await,
                    Err(refusal) => Err(refusal),
                };
                let _ = reply.send(result);
            }
            Command::EndRound { by, round, reply } => {
                let result = self
                    .commit(Entry::EndRound { round, by }, Vec::new())
                    .await
                    .and_then(|_| self.round_view(round));
                let _ = reply.send(result);
            }
            Command::ForbiddenPairs { by, pairs, reply } => {
                let result = self
                    .commit(Entry::ForbiddenPairs { pairs, by }, Vec::new())
                    .await
                    .map(|_| self.t.settings().forbidden_pairs.clone());
                let _ = reply.send(result);
            }
            Command::Sheet {
                by,
                game_id,
                action,
                reply,
            } => {
                // Checked here, not in the state machine: a log written before the check
                // must still replay.
                let action = match super::admission::clean_reason(action) {
                    Ok(action) => action,
                    Err(refusal) => {
                        let _ = reply.send(Err(refusal));
                        return;
                    }
                };
                if let SheetAction::Correct { outcome, .. } = &action {
                    if let Err(refusal) = super::admission::may_correct(&self.t, game_id) {
                        let _ = reply.send(Err(refusal));
                        return;
                    }
                    if let Some(why) = self.t.settings().impossible_victory(outcome) {
                        let _ = reply.send(Err(Refusal {
                            code: ErrorCode::BadRequest,
                            message: why,
                        }));
                        return;
                    }
                }
                let result = self
                    .commit(
                        Entry::Sheet {
                            game_id,
                            by,
                            action,
                        },
                        Vec::new(),
                    )
                    .await
                    .and_then(|_| self.sheet_view(game_id));
                let _ = reply.send(result);
            }
            Command::Connect {
                player,
                resume_after,
                tx,
                reply,
            } => {
                let conn = self.next_conn;
                self.next_conn += 1;
                if let Some(player) = player {
                    *self.socket_players.entry(player).or_default() += 1;
                    self.presence_dirty = true;
                }
                self.catch_up(&tx, player, resume_after);
                self.conns.insert(conn, Conn { tx, player });
                let _ = reply.send(conn);
            }
            Command::Disconnect { conn } => self.remove_conn(conn),
        }
    }

    fn director_only(&self, by: Uuid, what: &str) -> Result<(), Refusal> {
        if by == self.t.director() {
            Ok(())
        } else {
            Err(Refusal {
                code: ErrorCode::NotDirector,
                message: format!("only the director may {what}"),
            })
        }
    }

    fn round_view(&self, number: u32) -> Result<RoundView, Refusal> {
        let index = self
            .t
            .rounds()
            .iter()
            .position(|r| r.number == number)
            .ok_or_else(|| Refusal {
                code: ErrorCode::NotFound,
                message: format!("round {number} is not paired"),
            })?;
        Ok(self.t.round_view(index))
    }

    fn sheet_view(&self, game_id: Uuid) -> Result<SheetView, Refusal> {
        let snapshot = self.t.snapshot(None);
        snapshot
            .rounds
            .into_iter()
            .flat_map(|r| r.pairings)
            .find(|p| p.game_id == Some(game_id))
            .and_then(|p| p.sheet)
            .ok_or_else(|| Refusal {
                code: ErrorCode::NotFound,
                message: "no sheet for that game".into(),
            })
    }

    /// The pairing asked for, computed on the pairing thread from a copy of the state
    /// (this task waits; the async workers, and so the games, do not). A refusal is kept
    /// with the version it was given at: the same question asked again of an unchanged
    /// tournament gets it at once, without the matching run again.
    async fn paired(&mut self, ask: PairingAsk) -> Result<Entry, Refusal> {
        let version = self.t.version();
        if let Some((at, asked, refusal)) = &self.last_pairing_refusal {
            if *at == version && *asked == ask {
                return Err(refusal.clone());
            }
        }
        let t = self.t.clone();
        let question = ask.clone();
        let answer = self
            .services
            .pairing
            .run(move || match &question {
                PairingAsk::Next => t.pair_next(),
                PairingAsk::Edit {
                    round,
                    pairings,
                    confirm_breach,
                } => t.manual_pairing(*round, pairings, *confirm_breach),
            })
            .await
            .map_err(|busy| Refusal {
                code: ErrorCode::Unavailable,
                message: busy.to_string(),
            })?;
        if let Err(refusal) = &answer {
            self.last_pairing_refusal = Some((version, ask, refusal.clone()));
        }
        answer
    }

    async fn commit_round(&mut self, entry: Entry) -> Result<RoundView, Refusal> {
        let Entry::Pair { round, .. } = &entry else {
            return Err(unavailable());
        };
        let round = *round;
        self.commit(entry, Vec::new()).await?;
        self.round_view(round)
    }

    /// Starts round `round`: its games are created, seated, in the same transaction as
    /// the entry, then watched.
    async fn start_round(&mut self, round: u32) -> Result<RoundView, Refusal> {
        let plan = self.t.start_plan(round)?;
        // Counted against the server's games like any other: refused whole, saying so,
        // rather than some tables started and others not.
        let new_games = plan.iter().flatten().count();
        let places = match self
            .services
            .games
            .reserve_live(new_games, self.services.live_games)
        {
            Ok(places) => places,
            Err(live) => {
                crate::metrics::Limit::LiveGames.refused();
                return Err(Refusal {
                    code: ErrorCode::RateLimited,
                    message: format!(
                        "the server is running {live} games and allows {}: this round's {new_games} games would pass it; start the round when games have finished",
                        self.services.live_games
                    ),
                });
            }
        };
        let now = now_ms();
        let deadline_ms = now + self.t.settings().round_ms();
        // Each game stops itself at the round's deadline (its own referee, logged in its
        // own log), to the millisecond; the tournament checks it did.
        let config = GameConfig {
            stop_at_ms: Some(deadline_ms),
            ..self.t.settings().game.clone()
        };
        let mut games = Vec::with_capacity(plan.len());
        let mut seated = Vec::new();
        for planned in plan {
            match planned {
                Some(PlannedGame { first, second, .. }) => {
                    let id = Uuid::now_v7();
                    games.push(Some(id));
                    seated.push(SeatedGame {
                        id,
                        config: config.clone(),
                        first,
                        second,
                    });
                }
                None => games.push(None),
            }
        }
        let entry = Entry::Start {
            round,
            games,
            deadline_ms,
        };
        let ids: Vec<Uuid> = seated.iter().map(|g| g.id).collect();
        self.commit_at(entry, now, seated).await?;
        for id in ids {
            self.watch(id).await;
        }
        // Loaded: the games count for themselves now.
        drop(places);
        self.round_view(round)
    }

    /// Applies `entry` now and saves it; see [`Actor::commit_at`].
    async fn commit(
        &mut self,
        entry: Entry,
        games: Vec<SeatedGame>,
    ) -> Result<Vec<(u64, TournamentEvent)>, Refusal> {
        self.commit_at(entry, now_ms(), games).await
    }

    /// Applies `entry` at `now`, saves it (with `games`, created and seated in the same
    /// transaction) and publishes its events; refused or unsaved, nothing changed.
    async fn commit_at(
        &mut self,
        entry: Entry,
        now: u64,
        games: Vec<SeatedGame>,
    ) -> Result<Vec<(u64, TournamentEvent)>, Refusal> {
        // Not a copy of the whole state for every change (at a thousand players it is
        // megabytes): a save that fails, which is rare, rebuilds the state from the log.
        if self.stale_until.is_some() {
            return Err(unavailable());
        }
        let summary_before = self.t.summary();
        let events = self.t.apply(&entry, now)?;
        let saved = self.save(&entry, now, games).await;
        if let Err(refusal) = saved {
            self.rebuild().await;
            return Err(refusal);
        }
        self.next_seq += 1;
        // Saved first: the lobby reads its lists from the store.
        if summary_before != self.t.summary() {
            self.services.lobby.tournaments_changed();
        }
        if matches!(entry, Entry::GameEnd { .. }) && self.standings_due.is_none() {
            let due =
                (Instant::now() + STANDINGS_GATHER).max(self.standings_sent + STANDINGS_EVERY);
            self.standings_due = Some(due);
        }
        self.publish(&events);
        Ok(events)
    }

    /// After a change was applied but could not be saved: the state as the log has it.
    /// If even the log cannot be read, the task ends (its sockets close, clients come
    /// back), and the tournament is rebuilt from its log when next asked for.
    async fn rebuild(&mut self) {
        let id = self.t.id();
        let rebuilt = match self.services.store.tournament_log(id).await {
            Ok(rows) => super::state::replay(id, &rows).map_err(|e| e.to_string()),
            Err(error) => Err(error.to_string()),
        };
        match rebuilt {
            Ok(t) => {
                self.t = t;
                self.state_frame = None;
                self.stale_until = None;
            }
            Err(error) => {
                // The store is likely down: every change is refused (503) until the state
                // is rebuilt, tried again every few seconds; nothing unsaved was published.
                tracing::error!(tournament = %id, %error, "could not rebuild a tournament after a failed save; trying again");
                self.stale_until = Some(now_ms() + RETRY_MS);
            }
        }
    }

    async fn save(&self, entry: &Entry, now: u64, games: Vec<SeatedGame>) -> Result<(), Refusal> {
        let id = self.t.id();
        let payload_json = serde_json::to_string(entry).map_err(|error| {
            tracing::error!(tournament = %id, %error, "could not encode an entry");
            unavailable()
        })?;
        let writes = vec![
            Write::AppendTournamentEntry(TournamentEntryRow {
                tournament_id: id,
                seq: self.next_seq,
                at_ms: i64::try_from(now).unwrap_or(i64::MAX),
                kind: entry.kind().to_owned(),
                payload_json,
            }),
            Write::UpdateTournament(row(&self.t)),
        ];
        let saved = if games.is_empty() {
            self.services
                .writer
                .write(writes)
                .await
                .map_err(|e| e.to_string())
        } else {
            self.services
                .games
                .create_seated(games, writes)
                .await
                .map(|_| ())
                .map_err(|e| e.to_string())
        };
        saved.map_err(|error| {
            tracing::error!(tournament = %id, %error, "could not save a tournament's change");
            unavailable()
        })
    }

    /// Watches a game of the tournament: its news comes to this task from now on, and
    /// its news as it stands now is taken at once (a game that ended while nobody
    /// listened is recorded).
    async fn watch(&mut self, game_id: Uuid) {
        if self.watching.contains(&game_id) || !self.t.in_play(game_id) {
            return;
        }
        let handle = match self.services.games.get(game_id).await {
            Ok(Some(handle)) => handle,
            Ok(None) => {
                // Its round's deadline adjudicates it (from its last news, if any).
                tracing::error!(tournament = %self.t.id(), game = %game_id, "a game of the tournament is missing");
                return;
            }
            Err(error) => {
                tracing::error!(tournament = %self.t.id(), game = %game_id, %error, "a game of the tournament could not be loaded; trying again");
                self.rewatch_at = now_ms() + RETRY_MS;
                return;
            }
        };
        match handle.watch(self.news_tx.clone()).await {
            Ok(news) => {
                self.watching.insert(game_id);
                self.on_news(news).await;
            }
            Err(_) => self.rewatch_at = now_ms() + RETRY_MS,
        }
    }

    async fn on_news(&mut self, news: TableNews) {
        let Some((round, table)) = self.t.game_table(news.game_id) else {
            return;
        };
        if !self.t.in_play(news.game_id) {
            return;
        }
        if self
            .news
            .get(&news.game_id)
            .is_some_and(|seen| seen.version > news.version)
        {
            // Older than what this task has (a watch's answer overtaken by the news).
            return;
        }
        let board = BoardView {
            table,
            game_id: news.game_id,
            position: news.position.clone(),
            to_move: news.to_move,
            last_move: news.last_move.clone(),
            clock: news.clock,
            outcome: news.outcome,
            round,
            version: news.version,
            status: news.status,
        };
        // News of a player coming or going repeats the board: it is not sent again.
        if self.boards.get(&news.game_id) != Some(&board) {
            self.boards.insert(news.game_id, board);
            self.dirty.insert(news.game_id);
        }
        if self.news.get(&news.game_id).map(|seen| seen.present) != Some(news.present) {
            self.presence_dirty = true;
        }
        let ended = news.outcome.filter(|_| news.status.is_over());
        self.news.insert(news.game_id, news.clone());
        if let Some(outcome) = ended {
            self.flush_boards();
            self.record_end(&news, outcome).await;
        }
    }

    /// A game ended: its sheet is filled in, and an annulled game with time left is
    /// replayed at once (the new game created with the entry).
    async fn record_end(&mut self, news: &TableNews, outcome: Outcome) {
        let now = now_ms();
        let facts = &news.facts;
        let figures = GameFigures {
            captured: facts.captured,
            turns: facts.turns[0] + facts.turns[1],
            duration_ms: match (facts.started_at_ms, facts.ended_at_ms) {
                (Some(start), Some(end)) => end.saturating_sub(start),
                _ => 0,
            },
            arrangements: match facts.arrangements {
                [Some(south), Some(north)] => Some([south, north]),
                _ => None,
            },
            late_arranged: facts.late_arranged,
        };
        let ended = facts.ended_at_ms.map_or(now, |end| end.min(now));
        let replay = matches!(outcome, Outcome::Annulled { .. })
            .then(|| self.t.replay_for(news.game_id, ended))
            .flatten();
        let mut games = Vec::new();
        let config = GameConfig {
            stop_at_ms: self.t.deadline_of(news.game_id),
            ..self.t.settings().game.clone()
        };
        let replay_id = replay.map(|(first, second)| {
            let id = Uuid::now_v7();
            games.push(SeatedGame {
                id,
                config,
                first,
                second,
            });
            id
        });
        let entry = Entry::GameEnd {
            game_id: news.game_id,
            outcome,
            moves: facts.turns,
            figures,
            replay: replay_id,
            ended_at_ms: facts.ended_at_ms,
            adjudicated: facts.adjudicated,
        };
        match self.commit_at(entry, now, games).await {
            Ok(_) => {
                self.adjudicating.remove(&news.game_id);
                // Watched from the task's loop (a watch may itself record an end).
                self.to_watch.extend(replay_id);
            }
            Err(refusal) if refusal.code == ErrorCode::Unavailable => {
                // Not lost: the game is asked for its news again (it may have unloaded
                // meanwhile; it is then reloaded, ended, from the store).
                tracing::error!(game = %news.game_id, "a game's end could not be recorded; retrying");
                self.news.remove(&news.game_id);
                self.watching.remove(&news.game_id);
                self.adjudicating.remove(&news.game_id);
                self.rewatch_at = now + RETRY_MS;
            }
            Err(refusal) => {
                tracing::warn!(game = %news.game_id, "a game's end was not recorded: {}", refusal.message);
            }
        }
    }

    /// Stops every game of a round whose time is up, all at once: each is asked by a task
    /// of its own (the game logs its stop), and answers on `adjudications`.
    fn adjudicate_due(&mut self) {
        if now_ms() < self.adjudicate_retry_at {
            return;
        }
        for game_id in self.t.games_to_adjudicate() {
            if !self.adjudicating.insert(game_id) {
                continue;
            }
            let games = Arc::clone(&self.services.games);
            let answers = self.adjudications_tx.clone();
            tokio::spawn(async move {
                let answer = match games.get(game_id).await {
                    Ok(None) => Adjudication::Missing(game_id),
                    Ok(Some(handle)) => match handle.adjudicate().await {
                        Ok(Ok(news)) => Adjudication::Ended(Box::new(news)),
                        // Over already: its end is recorded, or on its way, or was
                        // missed; its news says which.
                        Ok(Err(refusal)) if refusal.code == ErrorCode::GameOver => {
                            match handle.news().await {
                                Ok(news) => Adjudication::Ended(Box::new(news)),
                                Err(_) => Adjudication::Retry(game_id),
                            }
                        }
                        Ok(Err(_)) | Err(_) => Adjudication::Retry(game_id),
                    },
                    Err(_) => Adjudication::Retry(game_id),
                };
                let _ = answers.send(answer).await;
            });
        }
    }

    async fn on_adjudication(&mut self, answer: Adjudication) {
        match answer {
            Adjudication::Ended(news) => {
                self.adjudicating.remove(&news.game_id);
                self.on_news(*news).await;
            }
            Adjudication::Retry(game_id) => {
                self.adjudicating.remove(&game_id);
                self.adjudicate_retry_at = now_ms() + RETRY_MS;
            }
            Adjudication::Missing(game_id) => {
                let news = self.news.get(&game_id).cloned();
                let outcome = fallback_adjudication(self.t.settings().game.ruleset, news.as_ref());
                tracing::warn!(game = %game_id, %outcome, "a game of the tournament is missing; adjudicated from its last news");
                let mut news = news.unwrap_or_else(|| unseen(game_id));
                news.facts.adjudicated = true;
                self.record_end(&news, outcome).await;
                self.adjudicating.remove(&game_id);
            }
        }
    }

    async fn on_timer(&mut self) {
        let now = now_ms();
        if self.t.next_deadline().is_some_and(|at| now >= at) && now >= self.held_until {
            if let Err(refusal) = self.commit_at(Entry::Tick, now, Vec::new()).await {
                if refusal.code == ErrorCode::Unavailable {
                    self.held_until = now + RETRY_MS;
                }
            }
        }
        if (!self.dirty.is_empty() || self.presence_dirty)
            && self.boards_sent + BOARD_EVERY <= Instant::now()
        {
            self.flush_boards();
        }
        if self.standings_due.is_some_and(|due| due <= Instant::now()) {
            self.standings_due = None;
            self.standings_sent = Instant::now();
            if self.commit(Entry::Standings, Vec::new()).await.is_err() {
                // Not saved: tried again with the next period.
                self.standings_due = Some(Instant::now() + STANDINGS_EVERY);
            }
        }
        if now >= self.rewatch_at {
            self.to_watch.extend(
                self.t
                    .games_in_play()
                    .into_iter()
                    .map(|(game_id, _, _)| game_id)
                    .filter(|game_id| !self.watching.contains(game_id)),
            );
        }
    }

    /// Sends every table whose board changed since the last send: its latest board only;
    /// and who is here, if that changed.
    fn flush_boards(&mut self) {
        self.boards_sent = Instant::now();
        let dirty: Vec<Uuid> = self.dirty.drain().collect();
        for game_id in dirty {
            if let Some(board) = self.boards.get(&game_id) {
                // Encoded once, whatever the number of watchers.
                let text: Utf8Bytes = TournamentFrame::board(board.clone()).to_text().into();
                self.broadcast(&text);
            }
        }
        if std::mem::take(&mut self.presence_dirty) {
            let presence = self.presence();
            if presence != self.presence_sent {
                let text: Utf8Bytes = TournamentFrame::presence(presence.clone()).to_text().into();
                self.presence_sent = presence;
                self.broadcast(&text);
            }
        }
    }

    /// Who of the tournament is here, sorted: the director and the players with the
    /// tournament's socket open, and the players connected to their game in play (as
    /// that game last told: see `game::news`).
    fn presence(&self) -> Vec<Uuid> {
        let mut here: Vec<Uuid> = self
            .socket_players
            .keys()
            .copied()
            .filter(|&player| self.t.is_member(player))
            .collect();
        for news in self.news.values() {
            let Some(seated) = self.t.seated_in(news.game_id) else {
                continue;
            };
            for (player, present) in seated.into_iter().zip(news.present) {
                if present {
                    here.push(player);
                }
            }
        }
        here.sort_unstable();
        here.dedup();
        here
    }

    fn publish(&mut self, events: &[(u64, TournamentEvent)]) {
        for (v, event) in events {
            let message: Utf8Bytes = TournamentFrame::event(*v, event.clone()).to_text().into();
            self.recent_bytes += message.len();
            self.recent.push_back((*v, message.clone()));
            while self.recent.len() > RECENT_EVENTS || self.recent_bytes > RECENT_BYTES {
                match self.recent.pop_front() {
                    Some((_, old)) => self.recent_bytes -= old.len(),
                    None => break,
                }
            }
            self.broadcast(&message);
        }
        // Boards of games no longer in play are not sent to newcomers.
        let in_play: HashSet<Uuid> = self.t.games_in_play().iter().map(|g| g.0).collect();
        self.boards.retain(|id, _| in_play.contains(id));
        self.news.retain(|id, _| in_play.contains(id));
        self.watching.retain(|id| in_play.contains(id));
        // A player who joins may have the socket open already; a player whose game ended
        // is no longer at it.
        self.presence_dirty = true;
    }

    /// What a (re)connecting client gets first: the events it missed, or the state; then
    /// the board of every table in play.
    fn catch_up(&mut self, tx: &mpsc::Sender<Outgoing>, player: Option<Uuid>, after: Option<u64>) {
        let version = self.t.version();
        let missed: Option<Vec<Utf8Bytes>> = after.and_then(|after| {
            if after > version {
                return None;
            }
            if after == version {
                return Some(Vec::new());
            }
            let oldest = self.recent.front().map(|(v, _)| *v)?;
            let fits = (version - after) < (TOURNAMENT_OUTGOING_QUEUE / 2) as u64;
            (oldest <= after + 1 && fits).then(|| {
                self.recent
                    .iter()
                    .filter(|(v, _)| *v > after)
                    .map(|(_, m)| m.clone())
                    .collect()
            })
        });
        match missed {
            Some(messages) => {
                for message in messages {
                    let _ = tx.try_send(Outgoing::Text(message));
                }
            }
            None => {
                let _ = tx.try_send(Outgoing::Text(self.state_text(player).into()));
            }
        }
        // Who is here now, this connection counted (the others hear of it with the next
        // batch).
        let presence = TournamentFrame::presence(self.presence()).to_text();
        let _ = tx.try_send(Outgoing::Text(presence.into()));
        for board in self.boards.values() {
            let text = TournamentFrame::board(board.clone()).to_text();
            if tx.try_send(Outgoing::Text(text.into())).is_err() {
                break;
            }
        }
    }

    /// The `state` frame for `viewer`: built and encoded once per version (as a spectator
    /// sees it) and shared, with the viewer's own id put in its one top-level `"you"`.
    fn state_text(&mut self, viewer: Option<Uuid>) -> String {
        let version = self.t.version();
        if self.state_frame.as_ref().is_none_or(|(v, _)| *v != version) {
            let text = TournamentFrame::state(self.t.snapshot(None)).to_text();
            self.state_frame = Some((version, text));
        }
        let shared = self
            .state_frame
            .as_ref()
            .map_or("", |(_, text)| text.as_str());
        match viewer.filter(|v| self.t.player_index(*v).is_some()) {
            // Field names are written unescaped and every string's quotes are escaped, so
            // the first `"you":null` is the snapshot's own field.
            Some(viewer) => shared.replacen("\"you\":null", &format!("\"you\":\"{viewer}\""), 1),
            None => shared.to_owned(),
        }
    }

    fn broadcast(&mut self, message: &Utf8Bytes) {
        let mut slow = Vec::new();
        for (&id, conn) in &self.conns {
            if conn.tx.try_send(Outgoing::Text(message.clone())).is_err() {
                slow.push(id);
            }
        }
        for id in slow {
            // Dropping its queue ends the socket's writer, which closes the socket; the
            // client resyncs when it reconnects.
            crate::metrics::count(&crate::metrics::METRICS.dropped_slow_clients);
            self.remove_conn(id);
        }
    }

    fn remove_conn(&mut self, id: ConnId) {
        let Some(Conn {
            player: Some(player),
            ..
        }) = self.conns.remove(&id)
        else {
            return;
        };
        if let Some(open) = self.socket_players.get_mut(&player) {
            *open -= 1;
            if *open == 0 {
                self.socket_players.remove(&player);
            }
        }
        self.presence_dirty = true;
    }

    fn close_all(&mut self, code: u16, reason: &'static str) {
        for conn in self.conns.values() {
            let _ = conn.tx.try_send(Outgoing::Close(code, reason));
        }
        self.conns.clear();
        self.socket_players.clear();
    }
}

/// A game's adjudication from its last news, when the game itself cannot be asked
/// (RULES.md 5.3: Oware on seeds captured, Omweso and Mweiso on seeds on each side; no
/// news at all: a draw).
fn fallback_adjudication(ruleset: Ruleset, news: Option<&TableNews>) -> Outcome {
    let Some(news) = news else {
        return Outcome::Draw;
    };
    let measure = if ruleset == Ruleset::Oware {
        news.facts.captured
    } else {
        news.facts.seeds_on_side
    };
    match measure[0].cmp(&measure[1]) {
        std::cmp::Ordering::Greater => Outcome::Win {
            winner: Side::South,
            victory: Victory::Adjudicated,
        },
        std::cmp::Ordering::Less => Outcome::Win {
            winner: Side::North,
            victory: Victory::Adjudicated,
        },
        std::cmp::Ordering::Equal => Outcome::Draw,
    }
}

/// The news of a game never heard from (it could not be loaded).
fn unseen(game_id: Uuid) -> TableNews {
    TableNews {
        game_id,
        version: 0,
        status: omweso_protocol::Status::Playing,
        position: None,
        to_move: None,
        last_move: None,
        clock: omweso_protocol::ClockView::default(),
        outcome: None,
        facts: crate::game::table::GameFacts::default(),
        present: [false; 2],
    }
}

/// The store's row for a tournament (what the lobby lists).
#[must_use]
pub fn row(t: &Tournament) -> TournamentRow {
    let summary = t.summary();
    TournamentRow {
        id: t.id(),
        name: summary.name,
        ruleset: summary.ruleset.to_string(),
        system: summary.system.name().to_owned(),
        director: t.director(),
        status: summary.status.name().to_owned(),
        players: i64::from(summary.players),
        round: i64::from(summary.round),
        created_at_ms: i64::try_from(t.created_at_ms()).unwrap_or(i64::MAX),
        updated_at_ms: i64::try_from(now_ms()).unwrap_or(i64::MAX),
    }
}

fn unavailable() -> Refusal {
    Refusal {
        code: ErrorCode::Unavailable,
        message: "the server could not save this; nothing changed, try again".into(),
    }
}

async fn sleep_until(wake: Option<Instant>) {
    match wake {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}
