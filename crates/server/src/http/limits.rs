//! The building blocks of the server's limits (docs/security.md): counters of things held
//! open (connections, sockets) per key, and rates of things created (sessions, games) per
//! key. The rates are `governor`'s keyed limits; the counters of things held are ours (a
//! rate limiter counts what arrives in time, not what is still open), one map behind a
//! lock held only for a lookup, never across an `.await`.
//! Whatever counts per client address keys on [`AddressKey`] (`address.rs`: an IPv6
//! client by its /64).

use std::collections::HashMap;
use std::hash::Hash;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};

use governor::clock::{Clock, DefaultClock};
use governor::middleware::NoOpMiddleware;
use governor::state::keyed::DashMapStateStore;
use governor::{Quota, RateLimiter};

use crate::address::AddressKey;
use crate::http::failures::Failures;

/// The largest request body the API reads (413 past it), but for a game file read for the
/// analysis board (its route's own limit). A request forwarded to the node holding its game
/// or tournament is held to it too, before any of its body is read (`cluster::forwards`).
pub const BODY_LIMIT: usize = 64 * 1024;

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

/// A rate per key: `per_minute` a minute, in bursts of as many. `governor`'s keyed GCRA,
/// which gives the same budget as a token bucket of `per_minute` refilled evenly over the
/// minute. Keys whose budget is whole again are forgotten once [`SWEEP_AT`] are kept, so
/// the map holds only recent keys. A rate of 0 refuses everything.
pub struct Rates<K: Hash + Eq + Clone, C: Clock = DefaultClock> {
    limiter: Option<KeyedLimiter<K, C>>,
}

impl<K: Hash + Eq + Clone, C: Clock> std::fmt::Debug for Rates<K, C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rates")
            .field("keys", &self.limiter.as_ref().map_or(0, RateLimiter::len))
            .finish()
    }
}

/// `governor`'s limiter with one state per key, in a concurrent map, on clock `C`.
type KeyedLimiter<K, C> =
    RateLimiter<K, DashMapStateStore<K>, C, NoOpMiddleware<<C as Clock>::Instant>>;

/// Keys kept before those whose budget is whole again are swept out.
const SWEEP_AT: usize = 4096;

impl<K: Hash + Eq + Clone> Rates<K> {
    #[must_use]
    pub fn new(per_minute: u32) -> Rates<K> {
        Rates::with_clock(per_minute, DefaultClock::default())
    }

    /// `per_hour` an hour, in bursts of as many.
    #[must_use]
    pub fn hourly(per_hour: u32) -> Rates<K> {
        Rates {
            limiter: NonZeroU32::new(per_hour).map(|n| {
                RateLimiter::dashmap_with_clock(Quota::per_hour(n), DefaultClock::default())
            }),
        }
    }
}

impl<K: Hash + Eq + Clone, C: Clock> Rates<K, C> {
    fn with_clock(per_minute: u32, clock: C) -> Rates<K, C> {
        Rates {
            limiter: NonZeroU32::new(per_minute)
                .map(|n| RateLimiter::dashmap_with_clock(Quota::per_minute(n), clock)),
        }
    }

    /// Takes one for `key`; `false` when its rate is spent.
    pub fn allow(&self, key: K) -> bool {
        let Some(limiter) = &self.limiter else {
            return false;
        };
        if limiter.len() >= SWEEP_AT {
            limiter.retain_recent();
        }
        limiter.check_key(&key).is_ok()
    }
}

/// What a one-time code is tried at, when the request names it (`http::codes`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CodeTarget {
    /// A tournament's co-director invitations.
    Invitations(uuid::Uuid),
    /// A board table's relay invite: the tournament, round and table.
    Table(uuid::Uuid, u32, u32),
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
    /// Log-in, recovery and password-change attempts per address.
    pub logins_per_ip: Rates<AddressKey>,
    /// Wrong passwords per account (its username's key) from devices that never logged
    /// in to it; per such device's mark (its key's hash); per signed-in device checking
    /// its password (docs/security.md#accounts).
    pub login_failures_per_account: Failures<String>,
    pub login_failures_per_known_device: Failures<String>,
    pub password_failures_per_device: Failures<uuid::Uuid>,
    pub accounts_per_ip: Rates<AddressKey>,
    /// One-time codes tried per address; wrong ones per target and on the whole server
    /// (`http::codes`); link codes made per person.
    pub codes_per_ip: Rates<AddressKey>,
    pub code_failures_per_target: Failures<CodeTarget>,
    pub code_failures: Failures<()>,
    pub link_codes_per_session: Rates<uuid::Uuid>,
    pub renames_per_session: Rates<uuid::Uuid>,
    /// Game-file exports per address.
    pub exports_per_ip: Rates<AddressKey>,
    /// Over-the-board changes, and a relay's entries, per person.
    pub board_changes_per_session: Rates<uuid::Uuid>,
    pub relay_entries_per_session: Rates<uuid::Uuid>,
    /// E-mail calls per address, and mails asked for per account (its username's key).
    pub mails_per_ip: Rates<AddressKey>,
    pub mails_per_account: Rates<String>,
    /// Archive searches and archived games' entries read per address.
    pub archive_searches_per_ip: Rates<AddressKey>,
    /// Player pages read per address.
    pub player_pages_per_ip: Rates<AddressKey>,
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
            logins_per_ip: Rates::new(limits.logins_per_ip_per_minute),
            login_failures_per_account: Failures::hourly(limits.logins_per_account_per_hour),
            login_failures_per_known_device: Failures::hourly(limits.logins_per_account_per_hour),
            password_failures_per_device: Failures::hourly(limits.logins_per_account_per_hour),
            accounts_per_ip: Rates::hourly(limits.accounts_per_ip_per_hour),
            codes_per_ip: Rates::new(limits.codes_per_ip_per_minute),
            code_failures_per_target: Failures::hourly(limits.code_failures_per_target_per_hour),
            code_failures: Failures::hourly(limits.code_failures_per_hour),
            link_codes_per_session: Rates::new(limits.link_codes_per_session_per_minute),
            renames_per_session: Rates::new(limits.renames_per_session_per_minute),
            exports_per_ip: Rates::new(limits.exports_per_ip_per_minute),
            board_changes_per_session: Rates::new(limits.board_changes_per_session_per_minute),
            relay_entries_per_session: Rates::new(limits.relay_entries_per_session_per_minute),
            mails_per_ip: Rates::hourly(limits.mails_per_ip_per_hour),
            mails_per_account: Rates::hourly(limits.mails_per_account_per_hour),
            archive_searches_per_ip: Rates::new(limits.archive_searches_per_ip_per_minute),
            player_pages_per_ip: Rates::new(limits.player_pages_per_ip_per_minute),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use governor::clock::FakeRelativeClock;
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
        let clock = FakeRelativeClock::default();
        let rates = Rates::with_clock(6, clock.clone());
        for _ in 0..6 {
            assert!(rates.allow("ip"));
        }
        assert!(!rates.allow("ip"), "the burst of 6 is spent");
        assert!(rates.allow("other"), "each key has its own bucket");
        // 6 a minute: one more every 10 s.
        clock.advance(Duration::from_secs(9));
        assert!(!rates.allow("ip"));
        clock.advance(Duration::from_secs(2));
        assert!(rates.allow("ip"));
        assert!(!rates.allow("ip"));
        // A minute idle makes the burst whole again.
        clock.advance(Duration::from_secs(60));
        for _ in 0..6 {
            assert!(rates.allow("ip"));
        }
        assert!(!rates.allow("ip"));
    }

    #[test]
    fn a_rate_of_zero_refuses_everything() {
        let rates = Rates::new(0);
        assert!(!rates.allow(()));
    }

    #[test]
    fn keys_whose_budget_is_whole_again_are_swept() {
        let clock = FakeRelativeClock::default();
        let rates = Rates::with_clock(60, clock.clone());
        for key in 0..SWEEP_AT {
            assert!(rates.allow(key));
        }
        clock.advance(Duration::from_secs(2));
        assert!(rates.allow(SWEEP_AT), "a new key after the sweep");
        let kept = rates.limiter.as_ref().map_or(0, RateLimiter::len);
        assert_eq!(kept, 1, "only the key just used is kept");
    }
}
