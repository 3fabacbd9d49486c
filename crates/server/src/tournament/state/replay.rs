//! A tournament rebuilt from its stored log: every entry applied again, in order, at the
//! time it was first applied. Pure (the rows are read by the caller), so the registry that
//! loads a tournament and the task that rebuilds one after a failed save share it.

use std::fmt;

use uuid::Uuid;

use super::Tournament;
use crate::store::TournamentEntryRow;
use crate::tournament::log::Entry;

/// Why a log could not be replayed: the entry (its `seq`) and what was wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    pub seq: i64,
    pub error: String,
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "entry {}: {}", self.seq, self.error)
    }
}

impl std::error::Error for ReplayError {}

/// Rebuilds tournament `id` from its log.
pub fn replay(id: Uuid, rows: &[TournamentEntryRow]) -> Result<Tournament, ReplayError> {
    let fail = |seq: i64, error: String| ReplayError { seq, error };
    // A time or an entry that cannot be read fails the replay: a default would move the
    // deadlines.
    let mut entries = rows.iter().map(|row| {
        let entry = serde_json::from_str::<Entry>(&row.payload_json).map_err(|e| e.to_string());
        let at = u64::try_from(row.at_ms).map_err(|_| format!("a negative time {}", row.at_ms));
        (row.seq, at.and_then(|at| entry.map(|entry| (at, entry))))
    });
    let Some((seq, first)) = entries.next() else {
        return Err(fail(0, "the log is empty".into()));
    };
    let (at, first) = first.map_err(|e| fail(seq, e))?;
    let mut t = Tournament::create(id, &first, at).map_err(|r| fail(seq, r.message))?;
    for (seq, entry) in entries {
        let (at, entry) = entry.map_err(|e| fail(seq, e))?;
        t.apply(&entry, at).map_err(|r| fail(seq, r.message))?;
    }
    Ok(t)
}
