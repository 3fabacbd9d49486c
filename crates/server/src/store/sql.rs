//! Every SQL statement of the store, as text shared by both backends.
//!
//! Placeholders are `$1, $2, ...`: PostgreSQL's native form, which SQLite also accepts
//! (`$NNN` is bound by number by sqlx's SQLite driver), except in the multi-row insert of
//! actions, which has a plain `?` form for SQLite. Queries are checked at run time,
//! by the tests against both databases; no compile-time macros, no DATABASE_URL at build.

use std::sync::LazyLock;

/// The largest multi-row INSERT for actions (768 bound parameters, under every SQLite's
/// limit). A batch is cut into statements of 128, 64, ..., 1 rows, so that only 8 distinct
/// statements exist and all stay in each connection's prepared-statement cache.
pub(crate) const MAX_ROWS_PER_INSERT: usize = 128;

/// The columns of `sessions`, in [`SessionRow`](super::SessionRow) order.
pub(crate) const INSERT_SESSION: &str = "INSERT INTO sessions (player_id, token_hash, name, \
     created_at_ms, last_seen_ms, used) VALUES ($1, $2, $3, $4, $5, $6)";

/// A session made before its last use was stored counts as seen at its creation (the
/// server fills them in at start: [`SESSIONS_SEEN_AT_START`]).
pub(crate) const SESSION_BY_TOKEN_HASH: &str = "SELECT player_id, token_hash, name, \
     created_at_ms, COALESCE(last_seen_ms, created_at_ms) AS last_seen_ms, used \
     FROM sessions WHERE token_hash = $1";

/// `$1` the player id, `$2` when it was seen.
pub(crate) const SESSION_SEEN: &str = "UPDATE sessions SET last_seen_ms = $2 WHERE player_id = $1";
/// `$1` the player id, `$2` when it was used.
pub(crate) const SESSION_USED: &str =
    "UPDATE sessions SET used = 1, last_seen_ms = $2 WHERE player_id = $1";
pub(crate) const DELETE_SESSION: &str = "DELETE FROM sessions WHERE player_id = $1";
/// Sessions from before their last use was stored count as seen now (`$1`).
pub(crate) const SESSIONS_SEEN_AT_START: &str =
    "UPDATE sessions SET last_seen_ms = $1 WHERE last_seen_ms IS NULL";
/// Sessions last seen before `$1` (any), or before `$2` and never used.
pub(crate) const EXPIRE_SESSIONS: &str =
    "DELETE FROM sessions WHERE last_seen_ms < $1 OR (used = 0 AND last_seen_ms < $2)";

const GAME_COLUMNS: &str = "id, ruleset, setup, config_json, south, north, creator, status, \
     outcome_json, created_at_ms, updated_at_ms, final_json";

pub(crate) const INSERT_GAME: &str = "INSERT INTO games (id, ruleset, setup, config_json, south, \
     north, creator, status, outcome_json, created_at_ms, updated_at_ms) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)";

/// Every column but the immutable ones (`id`, `creator`, `created_at_ms`).
pub(crate) const UPDATE_GAME: &str = "UPDATE games SET ruleset = $2, setup = $3, \
     config_json = $4, south = $5, north = $6, status = $7, outcome_json = $8, \
     updated_at_ms = $9, final_json = $10 WHERE id = $1";

/// A game that never started, and its log (its actions first, for the foreign key).
pub(crate) const DELETE_GAME_ACTIONS: &str = "DELETE FROM actions WHERE game_id = $1";
pub(crate) const DELETE_GAME: &str = "DELETE FROM games WHERE id = $1";
pub(crate) const DELETE_TOURNAMENT_LOG: &str =
    "DELETE FROM tournament_log WHERE tournament_id = $1";
pub(crate) const DELETE_TOURNAMENT: &str = "DELETE FROM tournaments WHERE id = $1";

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

/// `$1, $2, ..., $n`: the placeholders of a list of `n` statuses.
fn numbered_placeholders(n: usize) -> String {
    (1..=n)
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `n_statuses` placeholders `$1..$n` for the statuses, then `$n+1` for the limit.
pub(crate) fn recent_games(n_statuses: usize) -> String {
    let placeholders = numbered_placeholders(n_statuses);
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

/// The multi-row insert of `rows` actions (`rows * 6` placeholders), `rows` a power of two
/// up to [`MAX_ROWS_PER_INSERT`]: numbered placeholders (`$1, $2, ...`) for PostgreSQL,
/// plain `?` for SQLite. (sqlx's SQLite driver looks up the name of every numbered
/// placeholder, and SQLite finds a name by a linear search, so binding a 768-parameter
/// statement cost 3% of the server's CPU under load.) Built once, as they are used for
/// every batch.
pub(crate) fn insert_actions(rows: usize, numbered: bool) -> &'static str {
    static NUMBERED: LazyLock<Vec<String>> = LazyLock::new(|| build_inserts(true));
    static PLAIN: LazyLock<Vec<String>> = LazyLock::new(|| build_inserts(false));
    let all = if numbered { &NUMBERED } else { &PLAIN };
    // rows is 1, 2, 4, ... MAX_ROWS_PER_INSERT: index by its power.
    let index = (rows.max(1).ilog2() as usize).min(all.len() - 1);
    all[index].as_str()
}

fn build_inserts(numbered: bool) -> Vec<String> {
    (0..=MAX_ROWS_PER_INSERT.ilog2())
        .map(|power| insert_actions_text(1 << power, numbered))
        .collect()
}

fn insert_actions_text(rows: usize, numbered: bool) -> String {
    let mut sql = String::with_capacity(80 + rows * 32);
    sql.push_str("INSERT INTO actions (game_id, seq, at_ms, side, kind, payload_json) VALUES ");
    for r in 0..rows {
        if r > 0 {
            sql.push_str(", ");
        }
        sql.push('(');
        for c in 0..ACTION_PARAMS {
            if c > 0 {
                sql.push_str(", ");
            }
            if numbered {
                sql.push_str(&format!("${}", r * ACTION_PARAMS + c + 1));
            } else {
                sql.push('?');
            }
        }
        sql.push(')');
    }
    sql
}

const TOURNAMENT_COLUMNS: &str = "id, name, ruleset, system, director, status, players, \
     round, created_at_ms, updated_at_ms";

pub(crate) const INSERT_TOURNAMENT: &str = "INSERT INTO tournaments (id, name, ruleset, system, \
     director, status, players, round, created_at_ms, updated_at_ms) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)";

/// Every column but the immutable ones (`id`, `director`, `created_at_ms`).
pub(crate) const UPDATE_TOURNAMENT: &str = "UPDATE tournaments SET name = $2, ruleset = $3, \
     system = $4, status = $5, players = $6, round = $7, updated_at_ms = $8 WHERE id = $1";

/// One entry a statement: a tournament's log grows by a few entries a round, not by the
/// hundreds a second that games' logs do, so there is no batching to gain.
pub(crate) const INSERT_TOURNAMENT_ENTRY: &str = "INSERT INTO tournament_log (tournament_id, \
     seq, at_ms, kind, payload_json) VALUES ($1, $2, $3, $4, $5)";

pub(crate) fn tournament_by_id() -> String {
    format!("SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id = $1")
}

/// `n_statuses` placeholders `$1..$n` for the statuses, then `$n+1` for the limit (as
/// [`recent_games`]).
pub(crate) fn recent_tournaments(n_statuses: usize) -> String {
    let placeholders = numbered_placeholders(n_statuses);
    let limit = n_statuses + 1;
    format!(
        "SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE status IN ({placeholders}) \
         ORDER BY created_at_ms DESC, id DESC LIMIT ${limit}"
    )
}

/// The tournaments to bring back after a restart, oldest first (ties broken by id, so the
/// order is the same on every backend).
pub(crate) fn unfinished_tournaments() -> String {
    format!(
        "SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE status <> 'finished' \
         ORDER BY created_at_ms ASC, id ASC"
    )
}

/// Unfinished tournaments: in all, and those of the director `$1`.
pub(crate) const UNFINISHED_TOURNAMENT_COUNTS: &str = "SELECT COUNT(*), \
     COALESCE(SUM(CASE WHEN director = $1 THEN 1 ELSE 0 END), 0) \
     FROM tournaments WHERE status <> 'finished'";

pub(crate) const TOURNAMENT_LOG: &str = "SELECT tournament_id, seq, at_ms, kind, payload_json \
     FROM tournament_log WHERE tournament_id = $1 ORDER BY seq ASC";

pub(crate) const PING: &str = "SELECT 1";

/// Whether sqlx's migration table exists (SQLite).
pub(crate) const SQLITE_HAS_MIGRATIONS_TABLE: &str =
    "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = '_sqlx_migrations'";

/// Whether sqlx's migration table exists (PostgreSQL; resolved through the search path,
/// as sqlx itself creates and finds it).
pub(crate) const PG_HAS_MIGRATIONS_TABLE: &str = "SELECT COUNT(*) FROM pg_catalog.pg_class c \
     WHERE c.oid = to_regclass('_sqlx_migrations')";

pub(crate) const NEWEST_APPLIED_MIGRATION: &str = "SELECT MAX(version) FROM _sqlx_migrations";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn action_inserts_have_the_right_placeholders() {
        assert_eq!(
            insert_actions(2, true),
            "INSERT INTO actions (game_id, seq, at_ms, side, kind, payload_json) VALUES \
             ($1, $2, $3, $4, $5, $6), ($7, $8, $9, $10, $11, $12)"
        );
        assert_eq!(
            insert_actions(1, false),
            "INSERT INTO actions (game_id, seq, at_ms, side, kind, payload_json) VALUES \
             (?, ?, ?, ?, ?, ?)"
        );
        for power in 0..=MAX_ROWS_PER_INSERT.ilog2() {
            let rows = 1 << power;
            assert_eq!(insert_actions(rows, false).matches('?').count(), rows * 6);
            let last = format!("${})", rows * 6);
            assert!(insert_actions(rows, true).ends_with(&last));
        }
    }
}
