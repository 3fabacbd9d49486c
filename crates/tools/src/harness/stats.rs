//! What a load run counts while it runs: [`Stats`] (latencies, moves, games, errors, shared
//! by every task), [`Ctx`] (what every slot shares) and [`Cpu`] (CPU seconds of the server,
//! this process and the machine at one instant). The tournament simulator counts with the
//! same pieces.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;

/// Counters shared by every task.
#[derive(Default)]
pub(crate) struct Stats {
    /// Inside the measurement window.
    pub(crate) measuring: AtomicBool,
    pub(crate) window_start: OnceLock<Instant>,
    /// Microseconds from an action sent to the opponent receiving its `played`, with the
    /// whole second of the window it was sent in.
    pub(crate) latencies_us: Mutex<Vec<(u32, u32)>>,
    /// Microseconds from an action sent to its `ack` (the server has committed it).
    pub(crate) acks_us: Mutex<Vec<u32>>,
    /// Whole moves (`played` with `pending:false`) seen by the opponent in the window.
    pub(crate) moves: AtomicU64,
    /// `played` events (whole moves and parts up to a decision) in the window.
    pub(crate) plays: AtomicU64,
    pub(crate) moves_total: AtomicU64,
    pub(crate) games_started: AtomicU64,
    pub(crate) games_started_in_window: AtomicU64,
    pub(crate) games_finished: AtomicU64,
    pub(crate) games_finished_in_window: AtomicU64,
    pub(crate) games_abandoned: AtomicU64,
    /// Protocol `error` messages and failed HTTP calls, by code.
    pub(crate) errors: Mutex<BTreeMap<String, u64>>,
    /// Sockets the server closed (or that failed) while their game went on.
    pub(crate) dropped: AtomicU64,
    /// Games where nothing came for 20 s although a move was due.
    pub(crate) stalled: AtomicU64,
    /// Versioned events that did not follow the previous one by exactly 1.
    pub(crate) version_gaps: AtomicU64,
    /// Opponent `played` events with no matching send time (after a resync, say).
    pub(crate) unmatched: AtomicU64,
    pub(crate) open_conns: AtomicUsize,
    pub(crate) peak_conns: AtomicUsize,
    pub(crate) active_games: AtomicUsize,
    /// Problems worth showing verbatim (the first few).
    pub(crate) notes: Mutex<Vec<String>>,
    /// Games against the computer: the computer's moves received in the window, its games
    /// that ended, and the time from the player's action to the computer's answer (its
    /// `played` received in the window), in microseconds.
    pub(crate) bot_moves: AtomicU64,
    pub(crate) bot_games_finished: AtomicU64,
    pub(crate) bot_answers_us: Mutex<Vec<u32>>,
}

impl Stats {
    pub(crate) fn error(&self, code: &str) {
        if let Ok(mut errors) = self.errors.lock() {
            *errors.entry(code.to_owned()).or_default() += 1;
        }
    }

    pub(crate) fn note(&self, note: String) {
        if let Ok(mut notes) = self.notes.lock() {
            if notes.len() < 5 {
                notes.push(note);
            }
        }
    }

    pub(crate) fn measuring(&self) -> bool {
        self.measuring.load(Ordering::Relaxed)
    }

    /// Records the latency of an action sent at `sent`, received now.
    pub(crate) fn latency(&self, sent: Instant, now: Instant) {
        let second = self
            .window_start
            .get()
            .and_then(|start| sent.checked_duration_since(*start))
            .map(|since| u32::try_from(since.as_secs()).unwrap_or(u32::MAX));
        if let Some(second) = second.filter(|_| self.measuring()) {
            let us = u32::try_from(now.duration_since(sent).as_micros()).unwrap_or(u32::MAX);
            if let Ok(mut l) = self.latencies_us.lock() {
                l.push((second, us));
            }
        }
    }

    /// Records the computer's answer, received now, to an action sent at `sent` (a game
    /// against the computer). Every answer received in the window counts, whenever its
    /// action was sent: with many games, an answer waits longer than the window.
    pub(crate) fn bot_answer(&self, sent: Instant, now: Instant) {
        if self.measuring() {
            self.bot_moves.fetch_add(1, Ordering::Relaxed);
            let us = u32::try_from(now.duration_since(sent).as_micros()).unwrap_or(u32::MAX);
            if let Ok(mut l) = self.bot_answers_us.lock() {
                l.push(us);
            }
        }
    }

    /// Records the time from an action sent at `sent` to its `ack`, received now.
    pub(crate) fn ack_latency(&self, sent: Instant, now: Instant) {
        let in_window = self.measuring() && self.window_start.get().is_some_and(|s| sent >= *s);
        if in_window {
            let us = u32::try_from(now.duration_since(sent).as_micros()).unwrap_or(u32::MAX);
            if let Ok(mut l) = self.acks_us.lock() {
                l.push(us);
            }
        }
    }

    pub(crate) fn conn_opened(&self) {
        let now = self.open_conns.fetch_add(1, Ordering::Relaxed) + 1;
        self.peak_conns.fetch_max(now, Ordering::Relaxed);
    }

    pub(crate) fn conn_closed(&self) {
        self.open_conns.fetch_sub(1, Ordering::Relaxed);
    }
}

/// What every slot shares.
pub(crate) struct Ctx {
    pub(crate) base: String,
    pub(crate) http: reqwest::Client,
    pub(crate) ruleset: String,
    pub(crate) spectators: usize,
    pub(crate) seed: u64,
    pub(crate) stats: Stats,
    /// Set when the run is over: players stop and close their sockets.
    pub(crate) stop: CancellationToken,
    pub(crate) setups: Semaphore,
    /// Slots whose first game has started.
    pub(crate) started: AtomicUsize,
    pub(crate) all_started: tokio::sync::Notify,
    /// Slots in all (human games and games against the computer).
    pub(crate) games: usize,
    /// The computer's level in the games against it.
    pub(crate) bot_level: u8,
    pub(crate) quickack: bool,
    pub(crate) think: Duration,
    /// Told of every action once acknowledged (the tournament simulator times its boards
    /// from there); `None` in a load run.
    pub(crate) on_acked: Option<OnAcked>,
}

/// Called with the game's id, the version of the `played` event an action made, and when
/// its `ack` arrived. The ack comes before that event on the mover's socket (durable,
/// then acknowledged, then shown), so the version is the event's, read from the event.
pub(crate) type OnAcked = Arc<dyn Fn(&str, u64, Instant) + Send + Sync>;
