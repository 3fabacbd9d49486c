//! A tournament rebuilt from its stored log: every entry applied again, in order, at the
//! time it was first applied. Pure (the rows are read by the caller), so the registry that
//! loads a tournament and the task that rebuilds one after a failed save share it.

use uuid::Uuid;

use super::{Refusal, Tournament};
use crate::log::Entry;

/// One entry of a tournament's log as it was kept: its number, when it was applied (ms
/// since the epoch, as stored: a negative one is refused) and its JSON. Whoever reads the
/// log (the store's rows) makes these; the state knows no store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Logged {
    pub seq: i64,
    pub at_ms: i64,
    pub json: String,
}

/// Why a log could not be replayed: the entry (its `seq`) and what was wrong with it.
#[derive(Debug, thiserror::Error)]
#[error("entry {seq}: {source}")]
pub struct ReplayError {
    pub seq: i64,
    pub source: RebuildError,
}

/// What was wrong with one entry of a tournament's stored log.
#[derive(Debug, thiserror::Error)]
pub enum RebuildError {
    #[error("the log is empty")]
    Empty,
    #[error(transparent)]
    Undecodable(#[from] serde_json::Error),
    #[error("a negative time {0}")]
    NegativeTime(i64),
    /// The tournament refused the entry on replay.
    #[error(transparent)]
    Refused(#[from] Refusal),
}

/// Rebuilds tournament `id` from its log.
pub fn replay(id: Uuid, log: impl IntoIterator<Item = Logged>) -> Result<Tournament, ReplayError> {
    let fail = |seq: i64| move |source: RebuildError| ReplayError { seq, source };
    // A time or an entry that cannot be read fails the replay: a default would move the
    // deadlines.
    let mut entries = log.into_iter().map(|logged| {
        let at = u64::try_from(logged.at_ms).map_err(|_| RebuildError::NegativeTime(logged.at_ms));
        let read = at.and_then(|at| {
            let entry = serde_json::from_str::<Entry>(&logged.json)?;
            Ok((at, entry))
        });
        (logged.seq, read)
    });
    let Some((seq, first)) = entries.next() else {
        return Err(fail(0)(RebuildError::Empty));
    };
    let (at, first) = first.map_err(fail(seq))?;
    let mut t = Tournament::create(id, &first, at).map_err(|r| fail(seq)(r.into()))?;
    for (seq, entry) in entries {
        let (at, entry) = entry.map_err(fail(seq))?;
        t.apply(&entry, at).map_err(|r| fail(seq)(r.into()))?;
    }
    Ok(t)
}
