//! A turn at checking a password (argon2id, or zxcvbn for a new one), taken before any
//! call that checks one: given out by address, then by session
//! ([`FairTurns`](crate::pools::fair_turns)), so that a flood of log-ins from many
//! addresses, each within its own limits, does not keep a person's own log-in waiting
//! (docs/security.md#accounts).

use std::time::Duration;

use uuid::Uuid;

use crate::address::AddressKey;
use crate::http::error::ApiError;
use crate::metrics::Limit;
use crate::people::password::TURNS_WAITING_PER_ADDRESS as WAITING_PER_ADDRESS;
use crate::pools::fair_turns::Turn;
use crate::pools::fair_work::WorkRefused;
use crate::state::AppState;
use omweso_protocol::ErrorCode;

/// How long a request waits for its turn before it is told the server is busy.
pub const PATIENCE: Duration = Duration::from_secs(5);

/// A turn for `member` (the signed-in person, or nobody) at `ip`, or why there is none.
pub async fn password_turn(
    state: &AppState,
    ip: std::net::IpAddr,
    member: Option<Uuid>,
) -> Result<Turn, ApiError> {
    state
        .password_turns
        .take(AddressKey::of(ip), member.unwrap_or_default(), PATIENCE)
        .await
        .map_err(|refused| match refused {
            WorkRefused::AddressBusy => ApiError::limited(
                Limit::PasswordTurnsPerIp,
                format!(
                    "this address has {WAITING_PER_ADDRESS} password checks waiting already; wait for them"
                ),
            ),
            WorkRefused::Busy | WorkRefused::TooLate => ApiError::new(
                ErrorCode::Unavailable,
                "the server is busy checking passwords; try again in a few seconds",
            ),
            WorkRefused::Gone => ApiError::internal(&refused),
        })
}
