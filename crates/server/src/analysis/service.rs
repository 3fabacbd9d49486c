//! What bounds the analysis calls (docs/security.md): a rate of calls per session, and for
//! the engine's searches a rate per session, one search at a time per session, and a few
//! threads of their own (at nice 5, like the games' engine pool) with a bounded number of
//! searches admitted at once, so analysis never takes the threads that list the games'
//! legal moves.

use std::sync::Arc;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use uuid::Uuid;

use crate::config::Limits;
use crate::engine_pool::{EnginePool, PoolGone};
use crate::error::ApiError;
use crate::limits::{Held, Holdings, Rates};
use crate::metrics::Limit;
use crate::protocol::ErrorCode;

/// Searches admitted at once for each analysis thread: one running, one waiting for it.
const ADMITTED_PER_THREAD: usize = 2;

/// The analysis board's engine threads and limits; shared by every request.
#[derive(Debug)]
pub struct Analysis {
    threads: EnginePool,
    admitted: Arc<Semaphore>,
    calls: Rates<Uuid>,
    calls_per_minute: u32,
    searches: Rates<Uuid>,
    searches_per_minute: u32,
    searching: Holdings<Uuid>,
}

/// A search's places: in the server's admitted searches and as its session's one search.
/// Dropped when the search is done, on its thread.
#[derive(Debug)]
pub struct SearchPermit {
    _admitted: OwnedSemaphorePermit,
    _session: Held<Uuid>,
}

impl Analysis {
    /// Starts the analysis threads.
    pub fn start(limits: &Limits) -> std::io::Result<Analysis> {
        let threads = limits.analysis_threads.max(1);
        Ok(Analysis {
            threads: EnginePool::start_named("omweso-analysis", threads)?,
            admitted: Arc::new(Semaphore::new(threads * ADMITTED_PER_THREAD)),
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
    /// (`rate_limited`), past its searches a minute (`rate_limited`), or when the
    /// server's analysis threads are all taken (`unavailable`).
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
        let admitted = Arc::clone(&self.admitted).try_acquire_owned().map_err(|_| {
            ApiError::new(
                ErrorCode::Unavailable,
                "the analysis engine is busy with other players' questions; try again in a few seconds",
            )
        })?;
        Ok(SearchPermit {
            _admitted: admitted,
            _session: held,
        })
    }

    /// Runs a search on the analysis threads.
    pub async fn run<T, F>(&self, job: F) -> Result<T, PoolGone>
    where
        T: Send + 'static,
        F: FnOnce() -> T + Send + 'static,
    {
        self.threads.run(job).await
    }
}
