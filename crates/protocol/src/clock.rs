//! Wall-clock time in milliseconds since the Unix epoch: what the protocol's deadlines and
//! the action log speak.

use std::time::{SystemTime, UNIX_EPOCH};

#[must_use]
pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
        .unwrap_or(0)
}
