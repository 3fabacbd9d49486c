//! A watcher: a tournament socket without a session, as a spectator's browser holds one.
//! It reads every frame, checks that the versioned events follow one another, and notes
//! when each board (of a `board`, or each of a `boards`) that raised a game's version
//! arrived; once a round is over and its
//! moves are known, it matches them against those boards (see [`super::latency`]).

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use tokio::sync::watch;
use tokio_tungstenite::tungstenite::Message;
use tokio_util::sync::CancellationToken;

use super::latency::{Arrivals, Epoch, Histogram, RoundMoves};
use super::socket::{board, boards, close, head, Lite, LiteData, Ws};
use crate::harness::socket::Counted;

/// How long a watcher still reads once the run is over, for the last round's end to reach
/// it (it matches a round only after its own socket said the round finished).
const CATCH_UP: Duration = Duration::from_secs(10);

/// The rounds whose moves are all known, in order; each watcher matches them as it gets
/// to them. The director appends, watchers only read: a watch channel holds one value, so
/// it holds the whole list.
pub(crate) type Settled = watch::Receiver<Vec<Arc<RoundMoves>>>;

/// What every watcher adds to.
#[derive(Default)]
pub(crate) struct WatcherStats {
    pub(crate) boards: Histogram,
    /// Boards received (a `boards` message's each), summed over the watchers.
    pub(crate) boards_received: AtomicU64,
    /// Text frames received, of every type, summed over the watchers: what the server
    /// queued and wrote for them.
    pub(crate) frames_received: AtomicU64,
    /// `boards` messages among them.
    pub(crate) boards_frames: AtomicU64,
    pub(crate) events_received: AtomicU64,
    /// Bytes of text frames received, summed over the watchers (what a big tournament
    /// costs each watcher's line).
    pub(crate) bytes_received: AtomicU64,
    pub(crate) pairs: AtomicU64,
    pub(crate) uncovered: AtomicU64,
    pub(crate) before_ack: AtomicU64,
    /// Sockets the server closed (or that failed) before the run was over.
    pub(crate) dropped: AtomicU64,
    pub(crate) version_gaps: AtomicU64,
    /// `error` frames and unreadable messages.
    pub(crate) errors: AtomicU64,
    /// Watchers that had not seen a settled round finish [`CATCH_UP`] after the run.
    pub(crate) behind: AtomicU64,
    /// Rounds matched, summed over the watchers.
    pub(crate) rounds_matched: AtomicU64,
}

struct Watcher {
    epoch: Epoch,
    stats: Arc<WatcherStats>,
    version: u64,
    arrivals: Arrivals,
    /// Rounds this socket has said are finished.
    finished: BTreeSet<u32>,
    /// How many of the settled rounds are matched.
    matched: usize,
}

/// Reads one watcher's socket until the run is over and every settled round is matched.
pub(crate) async fn watch(
    mut ws: Ws,
    counted: Counted,
    version: u64,
    epoch: Epoch,
    stats: Arc<WatcherStats>,
    mut settled: Settled,
    stop: CancellationToken,
) {
    let _counted = counted;
    let mut w = Watcher {
        epoch,
        stats,
        version,
        arrivals: Arrivals::default(),
        finished: BTreeSet::new(),
        matched: 0,
    };
    let mut catch_up: Option<tokio::time::Instant> = None;
    let mut clean = true;
    // The director's end of the channel is gone once the run is over: `changed` would
    // then answer at once, every time.
    let mut settling = true;
    loop {
        if catch_up.is_some() && w.all_matched(&settled) {
            break;
        }
        let frame = tokio::select! {
            changed = settled.changed(), if settling => {
                match changed {
                    Ok(()) => w.match_ready(&mut settled),
                    Err(_) => settling = false,
                }
                continue;
            }
            () = stop.cancelled(), if catch_up.is_none() => {
                catch_up = Some(tokio::time::Instant::now() + CATCH_UP);
                continue;
            }
            () = sleep_until(catch_up) => {
                w.stats.behind.fetch_add(1, Ordering::Relaxed);
                break;
            }
            frame = ws.next() => frame,
        };
        match frame {
            Some(Ok(Message::Text(text))) => {
                let received = Instant::now();
                w.stats
                    .bytes_received
                    .fetch_add(text.len() as u64, Ordering::Relaxed);
                w.stats.frames_received.fetch_add(1, Ordering::Relaxed);
                w.on_text(text.as_str(), received);
                w.match_ready(&mut settled);
            }
            Some(Ok(Message::Close(_)) | Err(_)) | None => {
                if catch_up.is_none() {
                    w.stats.dropped.fetch_add(1, Ordering::Relaxed);
                }
                clean = false;
                break;
            }
            Some(Ok(_)) => {}
        }
    }
    // Whatever is left is matched as it stands: a move no board showed is uncovered.
    let rounds: Vec<Arc<RoundMoves>> = settled.borrow()[w.matched..].to_vec();
    for moves in rounds {
        w.settle(&moves);
    }
    if clean {
        close(&mut ws).await;
    }
}

impl Watcher {
    fn on_text(&mut self, text: &str, received: Instant) {
        let at = self.epoch.micros(received);
        if let Some((game, round, version)) = board(text) {
            self.stats.boards_received.fetch_add(1, Ordering::Relaxed);
            self.arrivals.board(game, round, version, at);
            return;
        }
        if let Some(list) = boards(text) {
            self.stats.boards_frames.fetch_add(1, Ordering::Relaxed);
            self.stats
                .boards_received
                .fetch_add(list.len() as u64, Ordering::Relaxed);
            for (game, round, version) in list {
                self.arrivals.board(game, round, version, at);
            }
            return;
        }
        match head(text) {
            // A resync: only after a reconnection, which watchers do not make.
            Some(head) if head.t == "state" => {
                self.version = head.v;
                return;
            }
            Some(head) => {
                self.on_event(head.v, head.round);
                return;
            }
            None => {}
        }
        let Ok(frame) = serde_json::from_str::<Lite>(text) else {
            self.stats.errors.fetch_add(1, Ordering::Relaxed);
            return;
        };
        match frame.t {
            "board" => self.on_board(&frame.d, at),
            "boards" => {
                self.stats.boards_frames.fetch_add(1, Ordering::Relaxed);
                for d in &frame.d.boards {
                    self.on_board(d, at);
                }
            }
            "pong" | "presence" => {}
            "error" => {
                self.stats.errors.fetch_add(1, Ordering::Relaxed);
            }
            "state" => {
                // A resync: only after a reconnection, which watchers do not make.
                self.version = frame.v.unwrap_or(self.version);
            }
            t => match frame.v {
                Some(v) => {
                    let round = frame.d.number.zip(frame.d.status).filter(|_| t == "round");
                    self.on_event(v, round);
                }
                None => {
                    self.stats.errors.fetch_add(1, Ordering::Relaxed);
                }
            },
        }
    }

    /// A board read by the full parse, received at `at` µs.
    fn on_board(&mut self, d: &LiteData, at: u64) {
        self.stats.boards_received.fetch_add(1, Ordering::Relaxed);
        match (d.game_id, d.round, d.version) {
            (Some(game), Some(round), Some(version)) => {
                self.arrivals.board(game, round, version, at);
            }
            _ => {
                self.stats.errors.fetch_add(1, Ordering::Relaxed);
            }
        }
    }

    /// A versioned event; for a round, its number and status.
    fn on_event(&mut self, v: u64, round: Option<(u32, &str)>) {
        self.stats.events_received.fetch_add(1, Ordering::Relaxed);
        if v != self.version + 1 {
            self.stats.version_gaps.fetch_add(1, Ordering::Relaxed);
        }
        self.version = v;
        if let Some((number, "finished")) = round {
            self.finished.insert(number);
        }
    }

    /// Matches, in order, each settled round that this socket has seen finish (its last
    /// boards came before that event).
    fn match_ready(&mut self, settled: &mut Settled) {
        let ready: Vec<Arc<RoundMoves>> = {
            let rounds = settled.borrow_and_update();
            rounds[self.matched.min(rounds.len())..]
                .iter()
                .take_while(|r| self.finished.contains(&r.round))
                .cloned()
                .collect()
        };
        for moves in ready {
            self.settle(&moves);
        }
    }

    fn settle(&mut self, moves: &RoundMoves) {
        let m = self.arrivals.settle(moves, &self.stats.boards);
        self.stats.pairs.fetch_add(m.pairs, Ordering::Relaxed);
        self.stats
            .uncovered
            .fetch_add(m.uncovered, Ordering::Relaxed);
        self.stats
            .before_ack
            .fetch_add(m.before_ack, Ordering::Relaxed);
        self.matched += 1;
        self.stats.rounds_matched.fetch_add(1, Ordering::Relaxed);
    }

    fn all_matched(&self, settled: &Settled) -> bool {
        self.matched >= settled.borrow().len()
    }
}

async fn sleep_until(at: Option<tokio::time::Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}
