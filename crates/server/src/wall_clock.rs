//! The wall clock the server reads the times it stores from (a session's last use, a
//! code's expiry). The system's clock, which a test may move forward: a session that
//! expires after days is then checked in an instant, not by sleeping through its life.

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

/// Milliseconds since the Unix epoch, as the system's clock says, plus however far a test
/// moved this clock (and its clones) forward.
#[derive(Clone, Debug, Default)]
pub struct WallClock {
    ahead_ms: Arc<AtomicI64>,
}

impl WallClock {
    /// Now, in milliseconds since the Unix epoch.
    #[must_use]
    pub fn now_ms(&self) -> i64 {
        let system = i64::try_from(omweso_protocol::clock::now_ms()).unwrap_or(i64::MAX);
        system.saturating_add(self.ahead_ms.load(Ordering::Relaxed))
    }

    /// Moves this clock and every clone of it `ms` forward.
    pub fn advance(&self, ms: i64) {
        self.ahead_ms.fetch_add(ms, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::WallClock;

    #[test]
    fn a_clock_moved_forward_moves_its_clones() {
        let clock = WallClock::default();
        let clone = clock.clone();
        let before = clone.now_ms();
        clock.advance(86_400_000);
        let after = clone.now_ms();
        assert!(after - before >= 86_400_000, "{before} {after}");
        assert!(after - before < 86_400_000 + 60_000, "{before} {after}");
    }
}
