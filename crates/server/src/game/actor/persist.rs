//! The game's log entries and row as the store keeps them.

use omweso_rules::Side;
use tokio::time::Instant;

use super::ratings::rated_result;
use super::Services;
use crate::game::archive_columns::archive_columns;
use crate::game::log::Entry;
use crate::game::table::{Refusal, Table};
use crate::metrics::METRICS;
use crate::store::{ActionRow, GameRow, Write};
use omweso_protocol::clock::now_ms;
use omweso_protocol::{ErrorCode, Legal};

/// Appends `entry`, the log's entry number `seq`, to the game's log, with the game's row
/// when `row_changed` (its seats, status or outcome), in one transaction; returns once it
/// is committed. When the entry ends a game to rate here, its rated result goes in the
/// same transaction (docs/ratings.md#what-is-rated): the game's end and the players' new
/// ratings are committed together or not at all.
pub(super) async fn persist(
    services: &Services,
    table: &Table,
    seq: i64,
    entry: Entry,
    now: u64,
    (row_changed, ends): (bool, bool),
) -> Result<(), Refusal> {
    let id = table.id();
    // Never a silent default on the save path: an action that cannot be encoded is
    // refused (and logged), not stored empty and acknowledged.
    let payload_json = serde_json::to_string(&entry).map_err(|error| {
        tracing::error!(game = %id, %error, "could not encode an action");
        unavailable()
    })?;
    let row = ActionRow {
        game_id: id,
        seq,
        at_ms: i64::try_from(now).unwrap_or(i64::MAX),
        side: None,
        kind: entry.kind().to_owned(),
        payload_json,
    };
    let mut writes = vec![Write::AppendAction(row)];
    if row_changed {
        writes.push(Write::UpdateGame(row_with_final_snapshot(table)?));
    }
    if ends {
        writes.extend(rated_result(table).map(Write::Rate));
    }
    let started = Instant::now();
    let appended = services.writer.write(writes).await;
    METRICS.database_latency.observe(started.elapsed());
    appended.map_err(|error| {
        tracing::error!(game = %id, %error, "could not save an action");
        unavailable()
    })
}

/// The game's row, with its final snapshot once it is over (reads of a finished game
/// answer from it instead of replaying the log).
fn row_with_final_snapshot(table: &Table) -> Result<GameRow, Refusal> {
    let final_json = if table.status().is_over() {
        let last = table.snapshot(None, [false; 2], 0, &Legal::default());
        Some(serde_json::to_string(&last).map_err(|error| {
            tracing::error!(game = %table.id(), %error, "could not encode the final snapshot");
            unavailable()
        })?)
    } else {
        None
    };
    game_row(table, final_json).map_err(|error| {
        tracing::error!(game = %table.id(), %error, "could not encode the game's row");
        unavailable()
    })
}

/// The store's row for a table, with its final snapshot (JSON) once it is over.
pub fn game_row(table: &Table, final_json: Option<String>) -> Result<GameRow, serde_json::Error> {
    let now = i64::try_from(now_ms()).unwrap_or(i64::MAX);
    let setup = match table.config().setup {
        omweso_protocol::config::SetupKind::Outer => "outer",
        omweso_protocol::config::SetupKind::Even => "even",
        omweso_protocol::config::SetupKind::Free => "free",
    };
    let outcome_json = match table.outcome() {
        Some(outcome) => Some(serde_json::to_string(&outcome)?),
        None => None,
    };
    // Once over, the archive finds the game by how and when it ended.
    let end = match table.outcome() {
        Some(outcome) if table.status().is_over() => {
            let ended = table
                .facts()
                .ended_at_ms
                .map_or(now, |ms| i64::try_from(ms).unwrap_or(i64::MAX));
            let moves = i64::try_from(table.moves_played()).unwrap_or(i64::MAX);
            Some((outcome, ended, Some(moves)))
        }
        _ => None,
    };
    Ok(GameRow {
        id: table.id(),
        ruleset: table.config().ruleset.to_string(),
        setup: setup.to_owned(),
        config_json: serde_json::to_string(table.config())?,
        south: table.seat(Side::South).map(|s| s.player),
        north: table.seat(Side::North).map(|s| s.player),
        creator: table.creator(),
        status: table.status().name().to_owned(),
        outcome_json,
        created_at_ms: i64::try_from(table.created_at_ms()).unwrap_or(i64::MAX),
        updated_at_ms: now,
        final_json,
        archive: archive_columns(table.config(), end),
    })
}

/// The refusal when the server could not save or compute something.
pub(super) fn unavailable() -> Refusal {
    Refusal::new(
        ErrorCode::Unavailable,
        "the server could not save this; nothing was played, try again",
    )
}
