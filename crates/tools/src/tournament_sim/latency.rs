//! The latency of the tournament socket's `board` messages: from the moment a mover got
//! the `ack` of an action (so the version of the `played` event it made is known) to the
//! moment a watcher receives a `board` of that game showing that version or a later one.
//!
//! Boards are coalesced (a table's latest every 200 ms), so one board answers every move
//! made since the last: each (move, watcher) pair is one sample. The pairs are matched
//! after the fact, once a round is over: the movers log their acks here ([`MoveLog`]),
//! each watcher keeps the boards that raised a game's version ([`Arrivals`]), and when the
//! round's moves are all in they are handed to every watcher ([`RoundMoves`]), which adds
//! its samples to one shared [`Histogram`]. Matching as the boards come would race the
//! movers: a board can be read before the mover has read its own `ack`.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use uuid::Uuid;

/// Microseconds since the run's start, the clock every record uses.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Epoch(Instant);

impl Epoch {
    pub(crate) fn now() -> Epoch {
        Epoch(Instant::now())
    }

    pub(crate) fn micros(self, at: Instant) -> u64 {
        u64::try_from(at.saturating_duration_since(self.0).as_micros()).unwrap_or(u64::MAX)
    }
}

/// Every acknowledged action of the games being played: (version, ack µs) per game.
pub(crate) struct MoveLog {
    epoch: Epoch,
    games: Mutex<HashMap<Uuid, Vec<(u64, u64)>>>,
}

impl MoveLog {
    pub(crate) fn new(epoch: Epoch) -> MoveLog {
        MoveLog {
            epoch,
            games: Mutex::new(HashMap::new()),
        }
    }

    /// A player of `game` got the `ack` of the action whose event has `version` at `acked`.
    pub(crate) fn record(&self, game: &str, version: u64, acked: Instant) {
        let Ok(game) = game.parse::<Uuid>() else {
            return;
        };
        let at = self.epoch.micros(acked);
        if let Ok(mut games) = self.games.lock() {
            games.entry(game).or_default().push((version, at));
        }
    }

    /// Takes the moves of `games` (a round's, all played out) out of the log.
    pub(crate) fn take(&self, round: u32, games: &[Uuid]) -> RoundMoves {
        let mut taken = HashMap::with_capacity(games.len());
        if let Ok(mut log) = self.games.lock() {
            for game in games {
                let mut moves = log.remove(game).unwrap_or_default();
                moves.sort_unstable();
                taken.insert(*game, moves);
            }
        }
        RoundMoves {
            round,
            games: taken,
        }
    }
}

/// A finished round's moves, by game, in version order.
#[derive(Debug, Default)]
pub(crate) struct RoundMoves {
    pub(crate) round: u32,
    pub(crate) games: HashMap<Uuid, Vec<(u64, u64)>>,
}

impl RoundMoves {
    pub(crate) fn moves(&self) -> usize {
        self.games.values().map(Vec::len).sum()
    }
}

/// What one watcher saw of each game: every board that showed a higher version than the
/// one before, as (version, µs received). Both rise together, so a search by version finds
/// the first board that answers a move.
#[derive(Default)]
pub(crate) struct Arrivals {
    games: HashMap<Uuid, GameArrivals>,
}

struct GameArrivals {
    round: u32,
    seen: Vec<(u64, u64)>,
}

/// What matching a round's moves against one watcher's boards found, besides the samples.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Matched {
    pub(crate) pairs: u64,
    /// Moves no board of this watcher ever showed (a board missing: a failure).
    pub(crate) uncovered: u64,
    /// Boards read before the mover had read its `ack` (counted as 0 µs).
    pub(crate) before_ack: u64,
}

impl Arrivals {
    /// A board of `game` (of `round`) showing `version`, received at `at` µs.
    pub(crate) fn board(&mut self, game: Uuid, round: u32, version: u64, at: u64) {
        let entry = self.games.entry(game).or_insert_with(|| GameArrivals {
            round,
            seen: Vec::new(),
        });
        if entry.seen.last().is_none_or(|&(v, _)| version > v) {
            entry.seen.push((version, at));
        }
    }

    /// Matches a finished round's moves against the boards seen, adds a sample per move to
    /// `histogram`, and forgets that round's games.
    pub(crate) fn settle(&mut self, moves: &RoundMoves, histogram: &Histogram) -> Matched {
        let mut matched = Matched::default();
        let mut samples = Vec::with_capacity(moves.moves());
        for (game, game_moves) in &moves.games {
            let seen = self.games.remove(game).map(|g| g.seen).unwrap_or_default();
            for &(version, acked) in game_moves {
                let first = seen.partition_point(|&(v, _)| v < version);
                match seen.get(first) {
                    Some(&(_, at)) => {
                        if at < acked {
                            matched.before_ack += 1;
                        }
                        samples.push(at.saturating_sub(acked));
                        matched.pairs += 1;
                    }
                    None => matched.uncovered += 1,
                }
            }
        }
        histogram.record_all(&mut samples);
        // Games of the round without a logged move (ended before either player moved).
        self.games.retain(|_, g| g.round > moves.round);
        matched
    }
}

/// Sub-buckets per power of two: a value is known within 1/64 (1.6%).
const SUB_BITS: u32 = 6;
const BUCKETS: usize = ((64 - SUB_BITS as usize) + 1) << SUB_BITS;

/// A histogram of microseconds, shared by every watcher (atomic buckets, log-linear like
/// HdrHistogram's: exact below 128 µs, then 64 buckets per power of two). A sample per
/// (move, watcher) pair is tens of millions in a large run: too many to keep.
pub(crate) struct Histogram {
    buckets: Vec<AtomicU64>,
    count: AtomicU64,
    max: AtomicU64,
}

impl Default for Histogram {
    fn default() -> Histogram {
        Histogram {
            buckets: (0..BUCKETS).map(|_| AtomicU64::new(0)).collect(),
            count: AtomicU64::new(0),
            max: AtomicU64::new(0),
        }
    }
}

fn bucket(us: u64) -> usize {
    if us < (1 << (SUB_BITS + 1)) {
        return us as usize;
    }
    let shift = 63 - us.leading_zeros() - SUB_BITS;
    ((shift as usize) << SUB_BITS) + (us >> shift) as usize
}

/// The largest value of bucket `i`.
fn bucket_top(i: usize) -> u64 {
    if i < (1 << (SUB_BITS + 1)) {
        return i as u64;
    }
    let shift = (i >> SUB_BITS) - 1;
    let sub = (i - (shift << SUB_BITS)) as u64;
    // The last bucket's top is 2^64 - 1: its shift overflows to 0, and 0 - 1 wraps to it.
    ((sub + 1) << shift).wrapping_sub(1)
}

impl Histogram {
    /// One sample (the tests' reference for [`Histogram::record_all`]).
    #[cfg(test)]
    fn record(&self, us: u64) {
        self.buckets[bucket(us).min(BUCKETS - 1)].fetch_add(1, Ordering::Relaxed);
        self.count.fetch_add(1, Ordering::Relaxed);
        self.max.fetch_max(us, Ordering::Relaxed);
    }

    /// Records many samples with one atomic add per bucket they fall in: a thousand
    /// watchers match a round's moves at the same moment, and a sample at a time they
    /// fought over the same few buckets' cache lines.
    pub(crate) fn record_all(&self, samples: &mut [u64]) {
        samples.sort_unstable();
        let mut rest = &samples[..];
        while let Some(&first) = rest.first() {
            let b = bucket(first).min(BUCKETS - 1);
            let n = rest.partition_point(|&us| bucket(us).min(BUCKETS - 1) == b);
            self.buckets[b].fetch_add(n as u64, Ordering::Relaxed);
            rest = &rest[n..];
        }
        if let Some(&max) = samples.last() {
            self.count
                .fetch_add(samples.len() as u64, Ordering::Relaxed);
            self.max.fetch_max(max, Ordering::Relaxed);
        }
    }

    pub(crate) fn count(&self) -> u64 {
        self.count.load(Ordering::Relaxed)
    }

    pub(crate) fn max(&self) -> Option<u64> {
        (self.count() > 0).then(|| self.max.load(Ordering::Relaxed))
    }

    /// The `p`th percentile in µs: the top of the bucket holding that rank (at most 1.6%
    /// above the true value), never above the largest sample.
    pub(crate) fn percentile(&self, p: f64) -> Option<u64> {
        let count = self.count();
        if count == 0 {
            return None;
        }
        let rank = ((p / 100.0) * count as f64).ceil().clamp(1.0, count as f64) as u64;
        let mut seen = 0;
        for (i, b) in self.buckets.iter().enumerate() {
            seen += b.load(Ordering::Relaxed);
            if seen >= rank {
                return Some(bucket_top(i).min(self.max.load(Ordering::Relaxed)));
            }
        }
        self.max()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_are_contiguous_and_within_their_precision() {
        let mut last = 0;
        for us in [
            0u64,
            1,
            127,
            128,
            129,
            255,
            256,
            1000,
            123_456,
            9_999_999,
            u64::MAX,
        ] {
            let i = bucket(us);
            assert!(i >= last && i < BUCKETS, "{us} -> {i}");
            last = i;
            assert!(bucket_top(i) >= us, "{us} above its bucket's top");
            assert!(
                (bucket_top(i) - us) as f64 <= us as f64 / 64.0,
                "{us}: top {}",
                bucket_top(i)
            );
        }
        for i in 1..BUCKETS - 1 {
            assert_eq!(bucket(bucket_top(i - 1) + 1), i, "bucket {i}");
        }
    }

    #[test]
    fn many_samples_at_once_count_as_one_at_a_time() {
        let (one, all) = (Histogram::default(), Histogram::default());
        let mut samples: Vec<u64> = (0..5000u64).map(|i| (i * 7919) % 300_000).collect();
        for &us in &samples {
            one.record(us);
        }
        all.record_all(&mut samples);
        all.record_all(&mut []);
        assert_eq!(all.count(), one.count());
        assert_eq!(all.max(), one.max());
        for p in [1.0, 50.0, 90.0, 99.0, 99.9, 100.0] {
            assert_eq!(all.percentile(p), one.percentile(p), "p{p}");
        }
    }

    #[test]
    fn percentiles_of_the_samples() {
        let h = Histogram::default();
        assert_eq!(h.percentile(50.0), None);
        for us in 1..=1000 {
            h.record(us * 100);
        }
        assert_eq!(h.count(), 1000);
        assert_eq!(h.max(), Some(100_000));
        let p50 = h.percentile(50.0).unwrap();
        assert!((50_000..=50_000 + 50_000 / 64).contains(&p50), "{p50}");
        let p99 = h.percentile(99.0).unwrap();
        assert!((99_000..=99_000 + 99_000 / 64).contains(&p99), "{p99}");
        assert_eq!(h.percentile(100.0), Some(100_000));
    }

    #[test]
    fn each_move_is_answered_by_the_first_board_at_its_version_or_later() {
        let game = Uuid::now_v7();
        let mut arrivals = Arrivals::default();
        // Boards at versions 2 (t=1000), 5 (t=2000), then a repeat of 5 (ignored), 9.
        arrivals.board(game, 1, 2, 1_000);
        arrivals.board(game, 1, 5, 2_000);
        arrivals.board(game, 1, 5, 2_500);
        arrivals.board(game, 1, 9, 4_000);
        let moves = RoundMoves {
            round: 1,
            // Acked at: v1 900, v3 1_500, v4 1_800, v7 3_000, v10 5_000 (no board).
            games: HashMap::from([(
                game,
                vec![(1, 900), (3, 1_500), (4, 1_800), (7, 3_000), (10, 5_000)],
            )]),
        };
        let h = Histogram::default();
        let matched = arrivals.settle(&moves, &h);
        assert_eq!(
            matched,
            Matched {
                pairs: 4,
                uncovered: 1,
                before_ack: 0
            }
        );
        // 100, 500, 200, 1000 µs (200 is in the bucket 200..=201).
        assert_eq!(h.max(), Some(1_000));
        assert_eq!(h.percentile(50.0), Some(201));
        // The game is forgotten once settled.
        assert!(arrivals.games.is_empty());
    }

    #[test]
    fn a_board_read_before_the_ack_counts_as_zero() {
        let game = Uuid::now_v7();
        let mut arrivals = Arrivals::default();
        arrivals.board(game, 1, 3, 1_000);
        let moves = RoundMoves {
            round: 1,
            games: HashMap::from([(game, vec![(3, 1_200)])]),
        };
        let h = Histogram::default();
        let matched = arrivals.settle(&moves, &h);
        assert_eq!(matched.before_ack, 1);
        assert_eq!(h.max(), Some(0));
    }

    #[test]
    fn the_log_hands_out_a_rounds_games_in_version_order() {
        let epoch = Epoch::now();
        let log = MoveLog::new(epoch);
        let (a, b) = (Uuid::now_v7(), Uuid::now_v7());
        let now = Instant::now();
        log.record(&a.to_string(), 4, now);
        log.record(&a.to_string(), 2, now);
        log.record(&b.to_string(), 3, now);
        log.record("not a game", 1, now);
        let taken = log.take(1, &[a]);
        assert_eq!(taken.moves(), 2);
        assert_eq!(taken.games[&a][0].0, 2);
        assert_eq!(log.take(2, &[b]).moves(), 1);
        assert_eq!(log.take(3, &[a, b]).moves(), 0);
    }
}
