//! Every SQL statement of the store, as text shared by both backends.
//!
//! Placeholders are `$1, $2, ...`: PostgreSQL's native form, which SQLite also accepts
//! (`$NNN` is bound by number by sqlx's SQLite driver). Queries are checked at run time,
//! by the tests against both databases; no compile-time macros, no DATABASE_URL at build.

/// The columns of `sessions`, in [`SessionRow`](super::SessionRow) order.
pub(crate) const INSERT_SESSION: &str =
    "INSERT INTO sessions (player_id, token_hash, name, created_at_ms) VALUES ($1, $2, $3, $4)";

pub(crate) const SESSION_BY_TOKEN_HASH: &str =
    "SELECT player_id, token_hash, name, created_at_ms FROM sessions WHERE token_hash = $1";

const GAME_COLUMNS: &str = "id, ruleset, setup, config_json, south, north, creator, status, \
     outcome_json, created_at_ms, updated_at_ms";

pub(crate) const INSERT_GAME: &str = "INSERT INTO games (id, ruleset, setup, config_json, south, \
     north, creator, status, outcome_json, created_at_ms, updated_at_ms) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)";

/// Every column but the immutable ones (`id`, `creator`, `created_at_ms`).
pub(crate) const UPDATE_GAME: &str = "UPDATE games SET ruleset = $2, setup = $3, \
     config_json = $4, south = $5, north = $6, status = $7, outcome_json = $8, \
     updated_at_ms = $9 WHERE id = $1";

pub(crate) fn game_by_id() -> String {
    format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1")
}

/// The WHERE clause matches the partial index `games_unfinished` in the migration.
pub(crate) fn unfinished_games() -> String {
    format!(
        "SELECT {GAME_COLUMNS} FROM games WHERE status NOT IN ('finished', 'annulled') \
         ORDER BY created_at_ms ASC, id ASC"
    )
}

/// `n_statuses` placeholders `$1..$n` for the statuses, then `$n+1` for the limit.
pub(crate) fn recent_games(n_statuses: usize) -> String {
    let placeholders = (1..=n_statuses)
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(", ");
    let limit = n_statuses + 1;
    format!(
        "SELECT {GAME_COLUMNS} FROM games WHERE status IN ({placeholders}) \
         ORDER BY created_at_ms DESC, id DESC LIMIT ${limit}"
    )
}

pub(crate) const ACTIONS_OF_GAME: &str = "SELECT game_id, seq, at_ms, side, kind, payload_json \
     FROM actions WHERE game_id = $1 ORDER BY seq ASC";

/// Columns bound per action row.
pub(crate) const ACTION_PARAMS: usize = 6;

/// A multi-row insert of `rows` actions (`rows * 6` placeholders).
pub(crate) fn insert_actions(rows: usize) -> String {
    let mut sql = String::with_capacity(80 + rows * 32);
    sql.push_str("INSERT INTO actions (game_id, seq, at_ms, side, kind, payload_json) VALUES ");
    for r in 0..rows {
        if r > 0 {
            sql.push_str(", ");
        }
        let b = r * ACTION_PARAMS;
        sql.push_str(&format!(
            "(${}, ${}, ${}, ${}, ${}, ${})",
            b + 1,
            b + 2,
            b + 3,
            b + 4,
            b + 5,
            b + 6
        ));
    }
    sql
}

pub(crate) const PING: &str = "SELECT 1";

/// Whether sqlx's migration table exists (SQLite).
pub(crate) const SQLITE_HAS_MIGRATIONS_TABLE: &str =
    "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = '_sqlx_migrations'";

/// Whether sqlx's migration table exists (PostgreSQL; resolved through the search path,
/// as sqlx itself creates and finds it).
pub(crate) const PG_HAS_MIGRATIONS_TABLE: &str = "SELECT COUNT(*) FROM pg_catalog.pg_class c \
     WHERE c.oid = to_regclass('_sqlx_migrations')";

pub(crate) const NEWEST_APPLIED_MIGRATION: &str = "SELECT MAX(version) FROM _sqlx_migrations";
