//! How long a device's session lasts without being used (docs/security.md#sessions).

/// A session's last use is stored again once the stored one is this old (5 minutes): a
/// write per session every few minutes at most, not one per request.
pub const SEEN_EVERY_MS: i64 = 5 * 60 * 1000;

/// How long sessions last without being used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Expiry {
    /// A session that never created, joined or played anything.
    pub unused_ms: i64,
    /// A session that did.
    pub idle_ms: i64,
}

impl Expiry {
    /// From `--unused-session-minutes` and `--session-idle-days`.
    #[must_use]
    pub fn new(unused_minutes: f64, idle_days: f64) -> Expiry {
        let ms = |value: f64| {
            let ms = (value * 1000.0).round();
            if ms.is_finite() && ms < 9.0e15 {
                ms.max(1.0) as i64
            } else {
                i64::MAX / 2
            }
        };
        Expiry {
            unused_ms: ms(unused_minutes * 60.0),
            idle_ms: ms(idle_days * 86_400.0),
        }
    }

    /// How old the stored last use may grow before it is written again:
    /// [`SEEN_EVERY_MS`], or a quarter of an unused session's life if that is shorter (so
    /// that a session in use never looks unused for long enough to expire).
    #[must_use]
    pub fn seen_every_ms(&self) -> i64 {
        SEEN_EVERY_MS.min(self.unused_ms / 4).max(1)
    }

    /// Has a session last seen at `last_seen_ms` expired at `now_ms`?
    #[must_use]
    pub fn expired(&self, used: bool, last_seen_ms: i64, now_ms: i64) -> bool {
        let allowed = if used { self.idle_ms } else { self.unused_ms };
        now_ms.saturating_sub(last_seen_ms) > allowed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sessions_expire_by_their_last_use_and_whether_they_were_used() {
        let expiry = Expiry::new(60.0, 30.0);
        assert_eq!(expiry.unused_ms, 3_600_000);
        assert_eq!(expiry.idle_ms, 2_592_000_000);
        assert_eq!(expiry.seen_every_ms(), 300_000);
        let seen = 1_000_000;
        assert!(!expiry.expired(false, seen, seen + 3_600_000));
        assert!(expiry.expired(false, seen, seen + 3_600_001));
        assert!(!expiry.expired(true, seen, seen + 3_600_001));
        assert!(!expiry.expired(true, seen, seen + 2_592_000_000));
        assert!(expiry.expired(true, seen, seen + 2_592_000_001));
        // A short life is written more often than every 5 minutes: a quarter of it.
        let short = Expiry::new(2.0 / 60.0, 1.0);
        assert_eq!((short.unused_ms, short.seen_every_ms()), (2_000, 500));
    }
}
