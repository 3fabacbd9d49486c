//! What bounds the analysis calls (docs/security.md): a rate of calls per session, and for
//! the engine's searches a rate per session, one search at a time per session, and a few
//! threads of their own (at nice 5, like the games' engine pool), so analysis never takes
//! the threads that list the games' legal moves. The searches waiting for a thread wait
//! in a fair queue ([`crate::pools::fair_queue`]): by address (an IPv6 /64), then by session, so
//! two players looping long searches cannot shut everyone else out; bounded in all and
//! per address. A search starts only with the time its request has left: it thinks for
//! what is left (less a margin for the answer), never past the request's time limit, and
//! is refused when too little is left to think at all.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::oneshot;
use uuid::Uuid;

use super::search::{self, Checked};
use super::Refused;
use crate::address::AddressKey;
use crate::config::Limits;
use crate::http::error::ApiError;
use crate::http::limits::{Held, Holdings, Rates};
use crate::metrics::Limit;
use crate::pools::fair::{FairPool, Full, PoolSettings};
use omweso_protocol::analysis::SearchAnswer;
use omweso_protocol::ErrorCode;

/// Searches waiting for each analysis thread at most (besides the one it runs).
const WAITING_PER_THREAD: usize = 3;
/// Searches one address may have waiting at most.
pub const WAITING_PER_ADDRESS: usize = 2;
/// What a search leaves of its request's time for building and sending its answer.
pub const ANSWER_MARGIN: Duration = Duration::from_secs(1);
/// The least thinking time worth starting: with less left, the search is refused.
pub const LEAST_MILLIS: u64 = 100;

/// The analysis board's engine threads and limits; shared by every request.
#[derive(Debug)]
pub struct Analysis {
    threads: FairPool<AddressKey>,
    calls: Rates<Uuid>,
    calls_per_minute: u32,
    searches: Rates<Uuid>,
    searches_per_minute: u32,
    searching: Holdings<Uuid>,
}

/// A search's place as its session's one search. Dropped when the search is done, on its
/// thread.
#[derive(Debug)]
pub struct SearchPermit {
    _session: Held<Uuid>,
}

impl Analysis {
    /// Starts the analysis threads.
    pub fn start(limits: &Limits) -> std::io::Result<Analysis> {
        let threads = limits.analysis_threads.max(1);
        Ok(Analysis {
            threads: FairPool::start(PoolSettings {
                threads,
                name: "omweso-analysis",
                nice: 5,
                queue: threads * WAITING_PER_THREAD,
                per_group: WAITING_PER_ADDRESS,
            })?,
            calls: Rates::new(limits.analyses_per_session_per_minute),
            calls_per_minute: limits.analyses_per_session_per_minute,
            searches: Rates::new(limits.searches_per_session_per_minute),
            searches_per_minute: limits.searches_per_session_per_minute,
            searching: Holdings::default(),
        })
    }

    /// Takes one of the session's analysis calls a minute.
    pub fn may_analyse(&self, session: Uuid) -> Result<(), ApiError> {
        if self.calls.allow(session) {
            return Ok(());
        }
        Err(ApiError::limited(
            Limit::AnalysesPerSession,
            format!(
                "you made {} analysis calls in the last minute; wait a little",
                self.calls_per_minute
            ),
        ))
    }

    /// Admits a search for the session: refused while it has one running
    /// (`rate_limited`) or past its searches a minute (`rate_limited`).
    pub fn may_search(&self, session: Uuid) -> Result<SearchPermit, ApiError> {
        let Some(held) = self.searching.try_hold(session, 1) else {
            return Err(ApiError::limited(
                Limit::SearchesPerSession,
                "the engine is already thinking for you; wait for its answer",
            ));
        };
        if !self.searches.allow(session) {
            return Err(ApiError::limited(
                Limit::SearchesPerSession,
                format!(
                    "you asked the engine {} times in the last minute; wait a little",
                    self.searches_per_minute
                ),
            ));
        }
        Ok(SearchPermit { _session: held })
    }

    /// Searches `checked` on the analysis threads, in the turn of `session` at `address`,
    /// for a request that must be answered by `deadline`: it thinks for the time asked,
    /// or for what is left before the deadline less [`ANSWER_MARGIN`] when its turn came
    /// late, and is refused (`unavailable`) when less than [`LEAST_MILLIS`] is left, or
    /// at once when the queue or the address's share of it is full. `stop` ends it early
    /// (the request was dropped).
    pub async fn search(
        &self,
        address: AddressKey,
        session: Uuid,
        permit: SearchPermit,
        checked: Checked,
        deadline: Instant,
        stop: Arc<AtomicBool>,
    ) -> Result<SearchAnswer, ApiError> {
        let (reply, answer) = oneshot::channel();
        let job = move || {
            if stop.load(Ordering::Relaxed) {
                return;
            }
            let answered = match given_millis(checked.millis, deadline, Instant::now()) {
                Some(millis) => search::search(&Checked { millis, ..checked }, &stop),
                None => Err(Refused::new(
                    ErrorCode::Unavailable,
                    format!(
                        "the engine was busy with other players' searches until too late: less than {LEAST_MILLIS} ms of this request's time was left to think; ask again"
                    ),
                )),
            };
            // The session may ask again as soon as it has its answer.
            drop(permit);
            let _ = reply.send(answered);
        };
        self.threads
            .try_push(address, session, job)
            .map_err(|full| match full {
                Full::Group => ApiError::new(
                    ErrorCode::Unavailable,
                    format!(
                        "this address has {WAITING_PER_ADDRESS} searches waiting for the engine already; try again when they are answered"
                    ),
                ),
                Full::Queue => ApiError::new(
                    ErrorCode::Unavailable,
                    "the analysis engine is busy with other players' questions; try again in a few seconds",
                ),
            })?;
        match answer.await {
            Ok(answered) => answered.map_err(ApiError::from),
            Err(_) => Err(ApiError::new(
                ErrorCode::Unavailable,
                "the search ended without an answer; try again",
            )),
        }
    }
}

/// The thinking time a search asked for `asked` ms is given when it starts at `now`, for
/// a request due at `deadline`: all of it if it fits before the deadline less the
/// answer's margin, else what is left; `None` when that is less than [`LEAST_MILLIS`].
#[must_use]
pub fn given_millis(asked: u64, deadline: Instant, now: Instant) -> Option<u64> {
    let left = deadline
        .saturating_duration_since(now)
        .saturating_sub(ANSWER_MARGIN);
    let left = u64::try_from(left.as_millis()).unwrap_or(u64::MAX);
    let given = asked.min(left);
    (given >= LEAST_MILLIS.min(asked)).then_some(given)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_search_is_given_what_its_request_has_left_or_refused() {
        let now = Instant::now();
        let at = |ms: u64| now + Duration::from_millis(ms);
        // 15 s left: a 10 s search is given all of it.
        assert_eq!(given_millis(10_000, at(15_000), now), Some(10_000));
        // It waited 10 s for its turn: 5 s left, less the second's margin.
        assert_eq!(given_millis(10_000, at(5_000), now), Some(4_000));
        assert_eq!(given_millis(10_000, at(1_100), now), Some(100));
        assert_eq!(given_millis(10_000, at(1_099), now), None);
        assert_eq!(given_millis(10_000, now, now), None);
        // A short search asked for less than the least is given it while it fits.
        assert_eq!(given_millis(50, at(1_050), now), Some(50));
        assert_eq!(given_millis(50, at(1_049), now), None);
    }
}
