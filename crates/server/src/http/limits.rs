//! The building blocks of the server's limits (docs/security.md): counters of things held
//! open (connections, sockets) per key, and rates of things created (sessions, games) per
//! key. Each is one map behind a lock held only for a lookup, never across an `.await`.
//! Whatever counts per client address keys on [`AddressKey`] (`address.rs`: an IPv6
//! client by its /64).

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use crate::http::address::AddressKey;

/// How many of something each key holds open, with a ceiling per key.
#[derive(Debug)]
pub struct Holdings<K: Hash + Eq + Copy> {
    held: Arc<Mutex<HashMap<K, usize>>>,
}

impl<K: Hash + Eq + Copy> Clone for Holdings<K> {
    fn clone(&self) -> Self {
        Holdings {
            held: self.held.clone(),
        }
    }
}

impl<K: Hash + Eq + Copy> Default for Holdings<K> {
    fn default() -> Self {
        Holdings {
            held: Arc::default(),
        }
    }
}

/// One thing held; dropping it gives its place back.
#[derive(Debug)]
pub struct Held<K: Hash + Eq + Copy> {
    key: K,
    held: Arc<Mutex<HashMap<K, usize>>>,
}

impl<K: Hash + Eq + Copy> Holdings<K> {
    /// Takes a place for `key` if it holds fewer than `max`.
    #[must_use]
    pub fn try_hold(&self, key: K, max: usize) -> Option<Held<K>> {
        let mut held = self.held.lock().ok()?;
        let count = held.entry(key).or_insert(0);
        if *count >= max {
            if *count == 0 {
                held.remove(&key);
            }
            return None;
        }
        *count += 1;
        Some(Held {
            key,
            held: self.held.clone(),
        })
    }

    /// How many `key` holds now.
    #[must_use]
    pub fn count(&self, key: K) -> usize {
        self.held
            .lock()
            .map_or(0, |held| held.get(&key).copied().unwrap_or(0))
    }
}

impl<K: Hash + Eq + Copy> Drop for Held<K> {
    fn drop(&mut self) {
        if let Ok(mut held) = self.held.lock() {
            if let Some(count) = held.get_mut(&self.key) {
                *count -= 1;
                if *count == 0 {
                    held.remove(&self.key);
                }
            }
        }
    }
}

/// A rate per key: `per_minute` a minute, in bursts of as many (a token bucket per key).
/// Keys whose bucket is full again are forgotten, so the map holds only recent keys.
#[derive(Debug)]
pub struct Rates<K: Hash + Eq + Copy> {
    per_minute: f64,
    buckets: Mutex<HashMap<K, (f64, Instant)>>,
}

/// Buckets kept before the full ones are swept out.
const SWEEP_AT: usize = 4096;

impl<K: Hash + Eq + Copy> Rates<K> {
    #[must_use]
    pub fn new(per_minute: u32) -> Rates<K> {
        Rates {
            per_minute: f64::from(per_minute),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one for `key`; `false` when its rate is spent.
    pub fn allow(&self, key: K) -> bool {
        self.allow_at(key, Instant::now())
    }

    fn allow_at(&self, key: K, now: Instant) -> bool {
        let Ok(mut buckets) = self.buckets.lock() else {
            return false;
        };
        let capacity = self.per_minute;
        let refill = |(tokens, since): (f64, Instant)| {
            let elapsed = now.saturating_duration_since(since).as_secs_f64();
            (tokens + elapsed * capacity / 60.0).min(capacity)
        };
        if buckets.len() >= SWEEP_AT {
            buckets.retain(|_, bucket| refill(*bucket) < capacity);
        }
        let tokens = buckets.get(&key).map_or(capacity, |bucket| refill(*bucket));
        if tokens >= 1.0 {
            buckets.insert(key, (tokens - 1.0, now));
            true
        } else {
            buckets.insert(key, (tokens, now));
            false
        }
    }
}

/// Every limit on what clients create or hold, built from the configuration.
#[derive(Debug)]
pub struct Limiters {
    pub sessions_per_ip: Rates<AddressKey>,
    /// Sessions created on the whole server ([`Rates`] of one key).
    pub sessions: Rates<()>,
    pub games_per_session: Rates<uuid::Uuid>,
    pub games_per_ip: Rates<AddressKey>,
    pub tournaments_per_session: Rates<uuid::Uuid>,
    pub tournaments_per_ip: Rates<AddressKey>,
    /// Pairings (the next round, or a director's edit) a session asks for.
    pub pairings_per_session: Rates<uuid::Uuid>,
    pub sockets_per_session: Holdings<uuid::Uuid>,
    pub sockets_per_ip: Holdings<AddressKey>,
}

impl Limiters {
    #[must_use]
    pub fn new(limits: &crate::config::Limits) -> Limiters {
        Limiters {
            sessions_per_ip: Rates::new(limits.sessions_per_ip_per_minute),
            sessions: Rates::new(limits.sessions_per_minute),
            games_per_session: Rates::new(limits.games_per_session_per_minute),
            games_per_ip: Rates::new(limits.games_per_ip_per_minute),
            tournaments_per_session: Rates::new(limits.tournaments_per_session_per_minute),
            tournaments_per_ip: Rates::new(limits.tournaments_per_ip_per_minute),
            pairings_per_session: Rates::new(limits.pairings_per_session_per_minute),
            sockets_per_session: Holdings::default(),
            sockets_per_ip: Holdings::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn holdings_stop_at_the_ceiling_and_free_on_drop() {
        let holdings = Holdings::default();
        let a = holdings.try_hold(1, 2).expect("first");
        let b = holdings.try_hold(1, 2).expect("second");
        assert!(holdings.try_hold(1, 2).is_none());
        assert!(
            holdings.try_hold(2, 2).is_some(),
            "another key has its own places"
        );
        drop(a);
        assert_eq!(holdings.count(1), 1);
        let _c = holdings.try_hold(1, 2).expect("a place came back");
        drop(b);
        assert_eq!(holdings.count(1), 1);
        assert!(holdings.try_hold(3, 0).is_none());
        assert_eq!(holdings.held.lock().unwrap().get(&3), None);
    }

    #[test]
    fn rates_allow_a_burst_then_refill_over_the_minute() {
        let rates = Rates::new(6);
        let start = Instant::now();
        for _ in 0..6 {
            assert!(rates.allow_at("ip", start));
        }
        assert!(!rates.allow_at("ip", start), "the burst of 6 is spent");
        assert!(
            rates.allow_at("other", start),
            "each key has its own bucket"
        );
        // 6 a minute: one more every 10 s.
        assert!(!rates.allow_at("ip", start + Duration::from_secs(9)));
        assert!(rates.allow_at("ip", start + Duration::from_secs(11)));
        assert!(!rates.allow_at("ip", start + Duration::from_secs(11)));
    }
}
