//! Failures counted per key, for the limits that must not punish whoever proves themselves
//! (docs/security.md#accounts): a wrong password or a wrong code counts, a right one does
//! not. A try takes its place before it is checked, so that tries sent at once cannot pass
//! the bound together, and gives it back when it succeeds; a failure keeps it. The count
//! drains evenly over the hour (a leaky bucket of `per_hour`), and a key whose count has
//! drained is forgotten once [`SWEEP_AT`] keys are kept.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Keys kept before those whose count has drained are swept out.
const SWEEP_AT: usize = 4096;
const HOUR: Duration = Duration::from_secs(3600);

/// Failures per key: at most `per_hour` counted at once, draining over the hour.
#[derive(Debug)]
pub struct Failures<K: Hash + Eq + Clone> {
    per_hour: u32,
    counts: Arc<Mutex<HashMap<K, Count>>>,
}

/// A key's count as of `at`.
#[derive(Clone, Copy, Debug)]
struct Count {
    level: f64,
    at: Instant,
}

impl Count {
    /// The count at `now`, drained by `per_hour` an hour since `at`.
    fn drained(self, per_hour: u32, now: Instant) -> f64 {
        let hours = now.saturating_duration_since(self.at).as_secs_f64() / HOUR.as_secs_f64();
        (self.level - hours * f64::from(per_hour)).max(0.0)
    }
}

/// One try's place in its key's count: dropped, it stays counted (a failure);
/// [`Attempt::succeeded`] gives it back.
#[derive(Debug)]
#[must_use = "a try is counted as a failure unless it is told it succeeded"]
pub struct Attempt<K: Hash + Eq + Clone> {
    key: K,
    per_hour: u32,
    counts: Arc<Mutex<HashMap<K, Count>>>,
}

impl<K: Hash + Eq + Clone> Failures<K> {
    /// `per_hour` failures an hour per key (0 refuses every try).
    #[must_use]
    pub fn hourly(per_hour: u32) -> Failures<K> {
        Failures {
            per_hour,
            counts: Arc::default(),
        }
    }

    /// The bound, for the refusal's words.
    #[must_use]
    pub fn per_hour(&self) -> u32 {
        self.per_hour
    }

    /// Takes a place for a try of `key`, unless its failures (and tries under way) have
    /// reached the bound.
    pub fn try_take(&self, key: K) -> Option<Attempt<K>> {
        self.try_take_at(key, Instant::now())
    }

    fn try_take_at(&self, key: K, now: Instant) -> Option<Attempt<K>> {
        let mut counts = self.counts.lock().ok()?;
        if counts.len() >= SWEEP_AT {
            let per_hour = self.per_hour;
            counts.retain(|_, count| count.drained(per_hour, now) > 0.0);
        }
        let level = counts
            .get(&key)
            .map_or(0.0, |count| count.drained(self.per_hour, now));
        if level + 1.0 > f64::from(self.per_hour) {
            return None;
        }
        counts.insert(
            key.clone(),
            Count {
                level: level + 1.0,
                at: now,
            },
        );
        Some(Attempt {
            key,
            per_hour: self.per_hour,
            counts: self.counts.clone(),
        })
    }

    /// Forgets `key`'s failures (a director made a new code for that target: it starts
    /// afresh).
    pub fn forget(&self, key: &K) {
        if let Ok(mut counts) = self.counts.lock() {
            counts.remove(key);
        }
    }

    /// Keys kept now.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.counts.lock().map_or(0, |counts| counts.len())
    }
}

impl<K: Hash + Eq + Clone> Attempt<K> {
    /// The try succeeded: its place is given back.
    pub fn succeeded(self) {
        self.give_back(Instant::now());
    }

    fn give_back(self, now: Instant) {
        if let Ok(mut counts) = self.counts.lock() {
            if let Some(count) = counts.get_mut(&self.key) {
                let level = count.drained(self.per_hour, now) - 1.0;
                *count = Count {
                    level: level.max(0.0),
                    at: now,
                };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failures_count_and_successes_give_their_place_back() {
        let failures = Failures::hourly(3);
        let now = Instant::now();
        let first = failures.try_take_at("kato", now).expect("a first try");
        first.give_back(now);
        for _ in 0..3 {
            drop(failures.try_take_at("kato", now).expect("three failures"));
        }
        assert!(
            failures.try_take_at("kato", now).is_none(),
            "three failures, none more"
        );
        assert!(
            failures.try_take_at("nakato", now).is_some(),
            "each key has its own count"
        );
    }

    #[test]
    fn tries_under_way_hold_their_places_until_they_end() {
        let failures = Failures::hourly(2);
        let now = Instant::now();
        let a = failures.try_take_at(1, now).expect("one");
        let b = failures.try_take_at(1, now).expect("two");
        assert!(
            failures.try_take_at(1, now).is_none(),
            "two tries at once fill it"
        );
        a.give_back(now);
        let c = failures.try_take_at(1, now).expect("a place came back");
        drop(b);
        drop(c);
        assert!(failures.try_take_at(1, now).is_none());
    }

    #[test]
    fn the_count_drains_over_the_hour_and_drained_keys_are_swept() {
        let failures = Failures::hourly(6);
        let now = Instant::now();
        for _ in 0..6 {
            drop(failures.try_take_at("ip", now).unwrap());
        }
        assert!(failures.try_take_at("ip", now).is_none());
        // Six an hour: one more every ten minutes.
        let later = now + Duration::from_secs(9 * 60);
        assert!(failures.try_take_at("ip", later).is_none());
        let later = now + Duration::from_secs(10 * 60 + 1);
        drop(failures.try_take_at("ip", later).expect("ten minutes on"));
        assert!(failures.try_take_at("ip", later).is_none());
        // Forgotten by a new code.
        failures.forget(&"ip");
        assert!(failures.try_take_at("ip", later).is_some());

        let many = Failures::hourly(60);
        for key in 0..SWEEP_AT {
            drop(many.try_take_at(key, now).unwrap());
        }
        let hour_on = now + HOUR;
        drop(many.try_take_at(SWEEP_AT, hour_on).unwrap());
        assert_eq!(many.len(), 1, "only the key just counted is kept");
    }

    #[test]
    fn a_bound_of_zero_refuses_every_try() {
        let failures: Failures<u8> = Failures::hourly(0);
        assert!(failures.try_take(1).is_none());
    }
}
