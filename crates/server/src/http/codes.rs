//! The limits on one-time codes tried (docs/security.md#accounts): per address, per target
//! and on the whole server. The 40-bit codes (link codes, relay and co-director invites)
//! are short to be typed; what keeps them from being guessed is their short life, their
//! one use and these bounds, which do not depend on the address (an attacker has many):
//! wrong codes at one target (a tournament's invitations, a board table's relay invite)
//! and wrong codes on the whole server, each an hour. A right code counts for nothing, and
//! a director's new code starts its target afresh.

use crate::address::AddressKey;
use crate::http::edge_state::EdgeState;
use crate::http::error::ApiError;
use crate::http::failures::Attempt;
pub use crate::http::limits::CodeTarget;
use crate::metrics::Limit;
use omweso_protocol::ErrorCode;

/// One code's try, counted: [`CodeTry::answered`] with the answer tells whether it was a
/// wrong code (kept in the counts) or not (given back).
#[derive(Debug)]
#[must_use = "a try is counted as a wrong code unless it is told how it was answered"]
pub struct CodeTry {
    target: Option<Attempt<CodeTarget>>,
    anywhere: Attempt<()>,
}

impl CodeTry {
    /// The try was answered `answer`: only a `bad_code` refusal stays counted (a refusal
    /// for something else, such as a round's time being up, says nothing of the code).
    pub fn answered<T>(self, answer: &Result<T, ApiError>) {
        let wrong = matches!(answer, Err(refusal) if refusal.code == ErrorCode::BadCode);
        if !wrong {
            if let Some(target) = self.target {
                target.succeeded();
            }
            self.anywhere.succeeded();
        }
    }
}

/// Takes one try of a 40-bit code from `ip` at `target` (if the request names one), or
/// refuses it, saying which bound.
pub fn try_code(
    state: &impl EdgeState,
    ip: std::net::IpAddr,
    target: Option<CodeTarget>,
) -> Result<CodeTry, ApiError> {
    may_try_code(state, ip)?;
    let limiters = state.limiters();
    let target = match target {
        None => None,
        Some(target) => Some(
            limiters
                .code_failures_per_target
                .try_take(target)
                .ok_or_else(|| held_at(state, target))?,
        ),
    };
    let Some(anywhere) = limiters.code_failures.try_take(()) else {
        if let Some(target) = target {
            target.succeeded();
        }
        return Err(ApiError::limited(
            Limit::CodeFailures,
            format!(
                "{} wrong codes were tried on this server in the last hour: wait a few minutes and try again",
                limiters.code_failures.per_hour()
            ),
        ));
    };
    Ok(CodeTry { target, anywhere })
}

/// The refusal of a target whose wrong codes reached the bound.
fn held_at(state: &impl EdgeState, target: CodeTarget) -> ApiError {
    let n = state.limiters().code_failures_per_target.per_hour();
    let what = match target {
        CodeTarget::Invitations(_) => "this tournament's invitation codes were",
        CodeTarget::Table(..) => "this table's relay code was",
    };
    ApiError::limited(
        Limit::CodeFailuresPerTarget,
        format!("{what} tried wrongly {n} times in the last hour: ask the director for a new code"),
    )
}

/// A director made a new code for `target`: its wrong tries so far no longer hold it.
pub fn new_code_for(state: &impl EdgeState, target: CodeTarget) {
    state.limiters().code_failures_per_target.forget(&target);
}

/// Takes one try of a code from `ip`, or refuses it (the e-mail links' 80-bit codes are
/// bounded per address only: docs/security.md#accounts says why that is enough).
pub fn may_try_code(state: &impl EdgeState, ip: std::net::IpAddr) -> Result<(), ApiError> {
    if state.limiters().codes_per_ip.allow(AddressKey::of(ip)) {
        Ok(())
    } else {
        Err(ApiError::limited(
            Limit::CodesPerIp,
            format!(
                "this address tried {} codes in the last minute; wait a minute",
                state.config().limits.codes_per_ip_per_minute
            ),
        ))
    }
}
