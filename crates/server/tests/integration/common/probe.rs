//! A normal game played beside an attack: two players moving as soon as they may, each
//! move's latency measured from sending it to the opponent's socket receiving its
//! `played` (the latency players feel). The hardening tests run one while they attack the
//! server and check its p99.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use omweso_rules::{Position, Rules, Side};
use serde_json::{json, Value};
use tokio::sync::watch;
use tokio::task::JoinHandle;

use super::{Client, Remote};

pub struct LatencyProbe {
    stop: watch::Sender<bool>,
    task: JoinHandle<Vec<Duration>>,
    measured: Arc<AtomicUsize>,
}

/// Moves a probe measures at least before its p99 means anything.
pub const PROBE_MOVES: usize = 200;

/// Moves played first and not measured: the first game's set-up (connections, the
/// server's first allocations) is not what a player of a running server sees.
const WARM_UP_MOVES: usize = 10;

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
                play_one_game(&server, [&south, &north], &stopped, &mut latencies, seed).await;
                count.store(
                    latencies.len().saturating_sub(WARM_UP_MOVES),
                    Ordering::Relaxed,
                );
                seed += 1;
            }
            latencies.drain(..WARM_UP_MOVES.min(latencies.len()));
            latencies
        });
        LatencyProbe {
            stop,
            task,
            measured,
        }
    }

    /// Has the probe measured [`PROBE_MOVES`] moves yet (counted game by game)?
    #[must_use]
    pub fn has_enough(&self) -> bool {
        self.measured.load(Ordering::Relaxed) >= PROBE_MOVES
    }

    /// Waits until the probe has measured enough moves, stops it, and asserts its p99
    /// (for attacks that are over, or that run by themselves meanwhile).
    pub async fn assert_p99_when_enough(self, what: &str, bound: Duration) {
        while !self.has_enough() {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert_p99_under(what, &self.finish().await, bound);
    }

    /// Stops the probe; returns every move's latency, sorted.
    pub async fn finish(self) -> Vec<Duration> {
        let _ = self.stop.send(true);
        let mut latencies = self.task.await.expect("the probe ran");
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

/// Asserts the probe's moves kept a p99 under `bound`, and prints the figures.
pub fn assert_p99_under(what: &str, sorted: &[Duration], bound: Duration) {
    let p50 = quantile(sorted, 0.5);
    let p99 = quantile(sorted, 0.99);
    println!(
        "{what}: {} probe moves, p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        sorted.len(),
        p50.as_secs_f64() * 1e3,
        p99.as_secs_f64() * 1e3,
        sorted[sorted.len() - 1].as_secs_f64() * 1e3
    );
    assert!(
        sorted.len() >= PROBE_MOVES,
        "{what}: only {} probe moves",
        sorted.len()
    );
    assert!(
        p99 < bound,
        "{what}: probe p99 {p99:?} is not under {bound:?}"
    );
}

async fn play_one_game(
    server: &Remote,
    tokens: [&str; 2],
    stopped: &watch::Receiver<bool>,
    latencies: &mut Vec<Duration>,
    seed: u64,
) {
    let game = server.create(tokens[0], json!({"ruleset": "omweso"})).await;
    server.join(tokens[1], &game).await;
    let mut sockets = [
        server.socket(&game, Some(tokens[0]), None).await,
        server.socket(&game, Some(tokens[1]), None).await,
    ];
    let mut position = match sockets[0].recv_type("state").await["d"]["position"].as_str() {
        Some(text) => Position::parse(text, Rules::OMWESO).expect("the server's position"),
        None => return,
    };
    sockets[1].recv_type("state").await;
    let mut pick = seed;
    for ply in 0..400 {
        if *stopped.borrow() {
            return;
        }
        let Some(side) = position.to_move().single() else {
            return;
        };
        let moves = position.legal_moves(side, Some(720));
        if moves.is_empty() || position.outcome().is_some() {
            return;
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
        let played = played_event(&mut sockets[opponent]).await;
        latencies.push(sent.elapsed());
        // The mover's own copy, so that neither socket's queue backs up.
        played_event(&mut sockets[mover]).await;
        if !played["d"]["outcome"].is_null() {
            return;
        }
        let text = played["d"]["position"].as_str().unwrap_or_default();
        position = Position::parse(text, Rules::OMWESO).expect("the server's position");
    }
}

async fn played_event(client: &mut Client) -> Value {
    loop {
        let m = client.recv().await;
        if m["t"] == "played" && m["d"]["pending"] == false {
            return m;
        }
    }
}
