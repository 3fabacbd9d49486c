//! The lobby's tournament lines: the newest tournaments in a status, read from the store
//! as the lobby lists them (the pushed lobby's `feed`, and `GET /api/tournaments?list=`
//! through the tournaments' registry). Only the store's rows and the protocol's summary:
//! the lobby lists tournaments without naming the tournaments' tasks.

use crate::store::{Store, StoreError, TournamentRow};
use omweso_protocol::tournament::{TournamentStatus, TournamentSummary};

/// The newest [`LIST_MAX`] tournaments in `status` (`GET /api/tournaments?list=` and the
/// pushed lobby).
pub async fn list(
    store: &Store,
    status: TournamentStatus,
) -> Result<Vec<TournamentSummary>, StoreError> {
    let rows = store.tournaments(&[status.name()], LIST_MAX).await?;
    Ok(rows.iter().filter_map(summary).collect())
}

/// The most tournaments one lobby list shows.
pub const LIST_MAX: i64 = 50;

/// A stored row as the lobby lists it (a row this server cannot read is left out).
fn summary(row: &TournamentRow) -> Option<TournamentSummary> {
    let quoted = |text: &str| serde_json::Value::String(text.to_owned());
    Some(TournamentSummary {
        tournament_id: row.id,
        name: row.name.clone(),
        ruleset: serde_json::from_value(quoted(&row.ruleset)).ok()?,
        system: serde_json::from_value(quoted(&row.system)).ok()?,
        status: serde_json::from_value(quoted(&row.status)).ok()?,
        players: u32::try_from(row.players).ok()?,
        round: u32::try_from(row.round).ok()?,
    })
}
