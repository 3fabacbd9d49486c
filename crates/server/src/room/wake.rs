//! The timers of a room's task: its loop sleeps until the earliest thing it has to do, or
//! forever when it has nothing (only a command or a message wakes it then).

use std::time::Duration;

use tokio::time::Instant;

/// Sleeps until `at`; never returns when there is nothing to wake for (`None`), so that a
/// `select!` arm on it only ever fires for a real deadline.
pub async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

/// The earlier of a wake time so far (if any) and `at`.
#[must_use]
pub fn earliest(wake: Option<Instant>, at: Instant) -> Option<Instant> {
    Some(wake.map_or(at, |w| w.min(at)))
}

/// The instant of `at_ms` (wall-clock ms since the epoch), `now_ms` being now; a time
/// already past is now.
#[must_use]
pub fn instant_of(at_ms: u64, now_ms: u64) -> Instant {
    Instant::now() + Duration::from_millis(at_ms.saturating_sub(now_ms))
}
