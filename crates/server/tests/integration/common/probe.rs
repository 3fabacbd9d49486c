//! A normal game played beside an attack: two players moving as soon as they may. The
//! hardening tests run one while they attack the server and check its functional outcome:
//! the probe plays [`PROBE_MOVES`] moves, each acknowledged to its mover and seen by the
//! opponent within [`MOVE_PATIENCE`]. A server the attack stalls or breaks fails that.
//!
//! Speed is not asserted here (issue 26: a wall-clock bound on a debug build sharing a
//! loaded machine with the other suites fails for reasons that are not the server's). The
//! latency players would feel, from sending a move to the opponent's socket receiving its
//! `played`, is measured and printed as information.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use omweso_rules::{Position, Rules, Side};
use serde_json::{json, Value};
use tokio::sync::watch;
use tokio::task::JoinHandle;

use super::{Client, Remote};

/// How long a probe move may take to be acknowledged and seen by the opponent before the
/// probe fails: generous, so that only a stalled server (not a loaded machine) reaches it.
pub const MOVE_PATIENCE: Duration = Duration::from_secs(30);

/// Moves a probe plays at least while an attack runs.
pub const PROBE_MOVES: usize = 200;

/// Moves played first and not measured: the first game's set-up (connections, the
/// server's first allocations) is not what a player of a running server sees.
const WARM_UP_MOVES: usize = 10;

pub struct LatencyProbe {
    stop: watch::Sender<bool>,
    task: JoinHandle<Result<Vec<Duration>, String>>,
    measured: Arc<AtomicUsize>,
}

impl LatencyProbe {
    /// Starts playing games on `server` until [`LatencyProbe::finish`].
    pub async fn start(server: &Remote) -> LatencyProbe {
        let (stop, stopped) = watch::channel(false);
        let server = crate::common::Remote::new(server.addr);
        let (south, _) = server.session("Probe South").await;
        let (north, _) = server.session("Probe North").await;
        let measured = Arc::new(AtomicUsize::new(0));
        let count = measured.clone();
        let task = tokio::spawn(async move {
            let mut latencies = Vec::new();
            let mut seed = 1;
            while !*stopped.borrow() {
                play_one_game(&server, [&south, &north], &stopped, &mut latencies, seed).await?;
                count.store(
                    latencies.len().saturating_sub(WARM_UP_MOVES),
                    Ordering::Relaxed,
                );
                seed += 1;
            }
            latencies.drain(..WARM_UP_MOVES.min(latencies.len()));
            Ok(latencies)
        });
        LatencyProbe {
            stop,
            task,
            measured,
        }
    }

    /// Has the probe played [`PROBE_MOVES`] moves yet (counted game by game), or stopped
    /// on a failure (which [`LatencyProbe::finish`] then reports)? A test that attacks
    /// until this holds therefore never waits on a probe that died.
    #[must_use]
    pub fn has_enough(&self) -> bool {
        self.measured.load(Ordering::Relaxed) >= PROBE_MOVES || self.task.is_finished()
    }

    /// Waits until the probe has played enough moves, stops it, and asserts that every
    /// move went through (for attacks that are over, or that run by themselves meanwhile).
    pub async fn finish_when_enough(self, what: &str) {
        while !self.has_enough() {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert_every_move_went_through(what, &self.finish().await);
    }

    /// Stops the probe; every measured move's latency, sorted. Panics with what went wrong
    /// if a probe move was refused, or not acknowledged or seen within [`MOVE_PATIENCE`].
    pub async fn finish(self) -> Vec<Duration> {
        let _ = self.stop.send(true);
        let mut latencies = match self.task.await.expect("the probe's task ran") {
            Ok(latencies) => latencies,
            Err(failure) => panic!("the probe game failed: {failure}"),
        };
        latencies.sort();
        latencies
    }
}

/// The `q` quantile (0..1) of sorted durations.
pub fn quantile(sorted: &[Duration], q: f64) -> Duration {
    assert!(!sorted.is_empty(), "no move was measured");
    let rank = ((sorted.len() as f64 * q).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

/// Prints the figures of sorted durations (information, not a bound).
pub fn print_figures(what: &str, sorted: &[Duration]) {
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "{what}: {} measured, p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        sorted.len(),
        ms(quantile(sorted, 0.5)),
        ms(quantile(sorted, 0.99)),
        ms(sorted[sorted.len() - 1])
    );
}

/// Asserts the probe played at least [`PROBE_MOVES`] measured moves, every one of them
/// acknowledged and seen by the opponent within [`MOVE_PATIENCE`] (the probe fails
/// otherwise); prints their latencies.
pub fn assert_every_move_went_through(what: &str, sorted: &[Duration]) {
    assert!(
        sorted.len() >= PROBE_MOVES,
        "{what}: only {} probe moves went through",
        sorted.len()
    );
    print_figures(what, sorted);
    let slowest = sorted[sorted.len() - 1];
    assert!(
        slowest <= MOVE_PATIENCE,
        "{what}: a probe move took {slowest:?}"
    );
}

async fn play_one_game(
    server: &Remote,
    tokens: [&str; 2],
    stopped: &watch::Receiver<bool>,
    latencies: &mut Vec<Duration>,
    seed: u64,
) -> Result<(), String> {
    let game = server.create(tokens[0], json!({"ruleset": "omweso"})).await;
    server.join(tokens[1], &game).await;
    let mut sockets = [
        server.socket(&game, Some(tokens[0]), None).await,
        server.socket(&game, Some(tokens[1]), None).await,
    ];
    let state = next_matching(&mut sockets[0], "South's state", |m| m["t"] == "state").await?;
    let Some(text) = state["d"]["position"].as_str() else {
        return Err(format!(
            "game {game}: no position in South's state: {state}"
        ));
    };
    let mut position = Position::parse(text, Rules::OMWESO)
        .map_err(|e| format!("game {game}: the server's position {text:?}: {e:?}"))?;
    next_matching(&mut sockets[1], "North's state", |m| m["t"] == "state").await?;
    let mut pick = seed;
    for ply in 0..400u32 {
        if *stopped.borrow() {
            return Ok(());
        }
        let Some(side) = position.to_move().single() else {
            return Ok(());
        };
        let moves = position.legal_moves(side, Some(720));
        if moves.is_empty() || position.outcome().is_some() {
            return Ok(());
        }
        pick = pick
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let mv = moves[(pick >> 33) as usize % moves.len()].to_string();
        let (mover, opponent) = match side {
            Side::South => (0, 1),
            Side::North => (1, 0),
        };
        let sent = Instant::now();
        sockets[mover]
            .send(json!({"t": "move", "id": ply, "d": {"move": mv}}))
            .await;
        let what = format!("game {game}, ply {ply} ({mv}): the opponent's played");
        let played = next_matching(&mut sockets[opponent], &what, is_played).await?;
        latencies.push(sent.elapsed());
        // The mover's ack and own copy (in either order), so that the move is known
        // accepted and neither socket's queue backs up.
        let what = format!("game {game}, ply {ply} ({mv}): the mover's ack and played");
        let (mut acked, mut seen) = (false, false);
        while !(acked && seen) {
            let m = next_matching(&mut sockets[mover], &what, |m| {
                is_played(m) || ((m["t"] == "ack" || m["t"] == "error") && m["d"]["id"] == ply)
            })
            .await?;
            if m["t"] == "error" {
                return Err(format!("game {game}, ply {ply} ({mv}) refused: {m}"));
            }
            acked |= m["t"] == "ack";
            seen |= m["t"] == "played";
        }
        if !played["d"]["outcome"].is_null() {
            return Ok(());
        }
        let text = played["d"]["position"].as_str().unwrap_or_default();
        position = Position::parse(text, Rules::OMWESO)
            .map_err(|e| format!("game {game}: the server's position {text:?}: {e:?}"))?;
    }
    Ok(())
}

fn is_played(m: &Value) -> bool {
    m["t"] == "played" && m["d"]["pending"] == false
}

/// The next message on `client` that `wanted` accepts, within [`MOVE_PATIENCE`].
async fn next_matching(
    client: &mut Client,
    what: &str,
    wanted: impl Fn(&Value) -> bool,
) -> Result<Value, String> {
    let deadline = Instant::now() + MOVE_PATIENCE;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match client.try_recv(left).await {
            Some(m) if wanted(&m) => return Ok(m),
            Some(_) => continue,
            None => return Err(format!("{what}: nothing within {MOVE_PATIENCE:?}")),
        }
    }
}
