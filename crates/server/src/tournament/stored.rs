//! A tournament's log as the store keeps it, read back as the state replays it: the one
//! place the store's rows meet the pure state ([`crate::tournament::state::replay`]).

use crate::store::TournamentEntryRow;
use crate::tournament::state::Logged;

/// The store's rows as the log's entries, in the same order, without copying their JSON.
pub fn logged(rows: Vec<TournamentEntryRow>) -> impl Iterator<Item = Logged> {
    rows.into_iter().map(|row| Logged {
        seq: row.seq,
        at_ms: row.at_ms,
        json: row.payload_json,
    })
}
