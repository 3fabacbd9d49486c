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

/// A new guest person ([`SessionRow`](super::SessionRow)): `$1` id, `$2` name, `$3` when.
pub(crate) const INSERT_PERSON: &str =
    "INSERT INTO persons (id, name, created_at_ms, used) VALUES ($1, $2, $3, 0)";
/// A person without a device, used from the start (a player a director added by name):
/// `$1` id, `$2` name, `$3` when.
pub(crate) const INSERT_PERSON_WITHOUT_DEVICE: &str =
    "INSERT INTO persons (id, name, created_at_ms, used) VALUES ($1, $2, $3, 1)";
/// A device: `$1` id, `$2` token hash, `$3` person, `$4` label, `$5` created, `$6` last
/// seen, `$7` used, `$8` the only tournament it is the person in (NULL: everywhere).
pub(crate) const INSERT_DEVICE: &str = "INSERT INTO devices (id, token_hash, person_id, label, \
     created_at_ms, last_seen_ms, used, tournament_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)";

/// A device's session with its person's name and username; not for a disabled account.
pub(crate) const SESSION_BY_TOKEN_HASH: &str = "SELECT d.id, d.person_id, d.token_hash, \
     p.name, p.username, d.label, d.created_at_ms, d.last_seen_ms, d.tournament_id, \
     CAST(CASE WHEN d.used = 1 OR p.used = 1 THEN 1 ELSE 0 END AS BIGINT) AS used \
     FROM devices d JOIN persons p ON p.id = d.person_id \
     WHERE d.token_hash = $1 AND p.disabled_at_ms IS NULL";

/// `$1` the device, `$2` when it was seen.
pub(crate) const DEVICE_SEEN: &str = "UPDATE devices SET last_seen_ms = $2 WHERE id = $1";
/// `$1` the device, `$2` when it was used.
pub(crate) const DEVICE_USED: &str = "UPDATE devices SET used = 1, last_seen_ms = $2 WHERE id = $1";
/// `$1` the person.
pub(crate) const PERSON_USED: &str = "UPDATE persons SET used = 1 WHERE id = $1";
pub(crate) const DELETE_DEVICE: &str = "DELETE FROM devices WHERE id = $1";
/// Every device of person `$1` but `$2` (an empty string keeps none).
pub(crate) const DELETE_DEVICES_OF: &str = "DELETE FROM devices WHERE person_id = $1 AND id <> $2";
/// Devices last seen before `$1` (any), or before `$2` when neither they nor their person
/// were ever used.
pub(crate) const EXPIRE_DEVICES: &str = "DELETE FROM devices WHERE last_seen_ms < $1 \
     OR (used = 0 AND last_seen_ms < $2 AND NOT EXISTS \
     (SELECT 1 FROM persons p WHERE p.id = devices.person_id AND p.used = 1))";
/// Devices carried over from sessions with no last use (migration 5 gives them -1) count
/// as seen now (`$1`), when the server first sweeps.
pub(crate) const DEVICES_SEEN_AT_START: &str =
    "UPDATE devices SET last_seen_ms = $1 WHERE last_seen_ms = -1";
/// Link codes expired at `$1`.
pub(crate) const EXPIRE_LINK_CODES: &str = "DELETE FROM link_codes WHERE expires_at_ms <= $1";
/// Guests who never created, joined or played anything and have no device left: nothing
/// names them.
pub(crate) const EXPIRE_GUESTS: &str = "DELETE FROM persons WHERE used = 0 \
     AND username IS NULL \
     AND NOT EXISTS (SELECT 1 FROM devices d WHERE d.person_id = persons.id) \
     AND NOT EXISTS (SELECT 1 FROM link_codes c WHERE c.person_id = persons.id)";
/// Every link code of person `$1`: a sign-out everywhere, a new password or a guest made
/// an account voids the codes made before (else one kept back would let its holder in
/// again).
pub(crate) const DELETE_LINK_CODES_OF: &str = "DELETE FROM link_codes WHERE person_id = $1";
/// `$1` the device, `$2` its new token's hash.
pub(crate) const ROTATE_DEVICE: &str = "UPDATE devices SET token_hash = $2 WHERE id = $1";
/// `$1` the person, `$2` the name.
pub(crate) const RENAME_PERSON: &str = "UPDATE persons SET name = $2 WHERE id = $1";
/// A guest (`$1`) becomes an account: `$2` username, `$3` its key, `$4` password hash.
pub(crate) const MAKE_ACCOUNT: &str = "UPDATE persons SET username = $2, username_key = $3, \
     password_hash = $4, used = 1 WHERE id = $1 AND username IS NULL";
/// Account `$1` is now `$2`, key `$3`.
pub(crate) const CHANGE_USERNAME: &str = "UPDATE persons SET username = $2, username_key = $3 \
     WHERE id = $1 AND username IS NOT NULL";
/// `$1` the account, `$2` the password hash.
pub(crate) const SET_PASSWORD: &str =
    "UPDATE persons SET password_hash = $2 WHERE id = $1 AND username IS NOT NULL";
pub(crate) const DELETE_RECOVERY_CODES: &str = "DELETE FROM recovery_codes WHERE person_id = $1";
pub(crate) const INSERT_RECOVERY_CODE: &str =
    "INSERT INTO recovery_codes (person_id, code_hash) VALUES ($1, $2)";
pub(crate) const USE_RECOVERY_CODE: &str =
    "DELETE FROM recovery_codes WHERE person_id = $1 AND code_hash = $2";
/// `$1` hash, `$2` person, `$3` made by, `$4` expires at, `$5` the tournament a
/// director's code limits its device to (NULL: none).
pub(crate) const INSERT_LINK_CODE: &str = "INSERT INTO link_codes (code_hash, person_id, \
     made_by, expires_at_ms, tournament_id) VALUES ($1, $2, $3, $4, $5)";
/// `$1` hash, `$2` tournament, `$3` round, `$4` table, `$5` expires at.
pub(crate) const INSERT_RELAY_CODE: &str = "INSERT INTO relay_codes (code_hash, tournament_id, \
     round_no, table_no, expires_at_ms) VALUES ($1, $2, $3, $4, $5)";
/// The relay code `$1`, claimed.
pub(crate) const DELETE_RELAY_CODE: &str = "DELETE FROM relay_codes WHERE code_hash = $1";
/// Relay codes expired at `$1`.
pub(crate) const EXPIRE_RELAY_CODES: &str = "DELETE FROM relay_codes WHERE expires_at_ms <= $1";
/// The relay code `$1` unless it expired at `$2`.
pub(crate) const RELAY_CODE: &str = "SELECT code_hash, tournament_id, round_no, table_no, \
     expires_at_ms FROM relay_codes WHERE code_hash = $1 AND expires_at_ms > $2";
/// `$1` key hash, `$2` person, `$3` when.
pub(crate) const INSERT_KNOWN_DEVICE: &str = "INSERT INTO known_devices (key_hash, person_id, \
     created_at_ms) VALUES ($1, $2, $3)";
/// Person `$1`'s marks but the newest `$2`.
pub(crate) const TRIM_KNOWN_DEVICES: &str = "DELETE FROM known_devices WHERE person_id = $1 \
     AND key_hash NOT IN (SELECT key_hash FROM known_devices WHERE person_id = $1 \
     ORDER BY created_at_ms DESC, key_hash LIMIT $2)";
/// Marks made before `$1`.
pub(crate) const EXPIRE_KNOWN_DEVICES: &str = "DELETE FROM known_devices WHERE created_at_ms < $1";
/// The person whose device's mark hashes to `$1`.
pub(crate) const KNOWN_DEVICE: &str = "SELECT person_id FROM known_devices WHERE key_hash = $1";
/// The code `$1`, unless it expired at `$2`.
pub(crate) const TAKE_LINK_CODE: &str =
    "DELETE FROM link_codes WHERE code_hash = $1 AND expires_at_ms > $2";
/// Account `$1`'s address is `$2` (NULL: none), not verified.
pub(crate) const SET_EMAIL: &str = "UPDATE persons SET email = $2, email_verified_at_ms = NULL \
     WHERE id = $1 AND username IS NOT NULL";
/// Every e-mail code of person `$1`.
pub(crate) const DELETE_EMAIL_CODES: &str = "DELETE FROM email_codes WHERE person_id = $1";
/// Person `$1`'s e-mail codes for purpose `$2`.
pub(crate) const DELETE_EMAIL_CODES_FOR: &str =
    "DELETE FROM email_codes WHERE person_id = $1 AND purpose = $2";
/// `$1` hash, `$2` person, `$3` purpose, `$4` address, `$5` expires at.
pub(crate) const INSERT_EMAIL_CODE: &str = "INSERT INTO email_codes (code_hash, person_id, \
     purpose, email, expires_at_ms) VALUES ($1, $2, $3, $4, $5)";
/// The code `$1` for purpose `$2`, unless it expired at `$3`.
pub(crate) const TAKE_EMAIL_CODE: &str = "DELETE FROM email_codes WHERE code_hash = $1 \
     AND purpose = $2 AND expires_at_ms > $3";
/// Person `$1`'s address verified at `$3` if it is `$2`.
pub(crate) const EMAIL_VERIFIED: &str =
    "UPDATE persons SET email_verified_at_ms = $3 WHERE id = $1 AND email = $2";
/// E-mail codes expired at `$1`.
pub(crate) const EXPIRE_EMAIL_CODES: &str = "DELETE FROM email_codes WHERE expires_at_ms <= $1";
/// The e-mail code `$1` unless it expired at `$2`.
pub(crate) const EMAIL_CODE: &str = "SELECT code_hash, person_id, purpose, email, expires_at_ms \
     FROM email_codes WHERE code_hash = $1 AND expires_at_ms > $2";
/// `$1` the person, `$2` when disabled (NULL: enabled).
pub(crate) const DISABLE_PERSON: &str = "UPDATE persons SET disabled_at_ms = $2 WHERE id = $1";
/// `$1` person, `$2` tournament, `$3` role, `$4` when; of two roles the stronger stays
/// (director, then co-director, then player: a director who also plays is listed as the
/// director).
pub(crate) const IN_TOURNAMENT: &str = "INSERT INTO tournament_people (person_id, \
     tournament_id, role, at_ms) VALUES ($1, $2, $3, $4) \
     ON CONFLICT (person_id, tournament_id) DO UPDATE SET role = CASE \
     WHEN tournament_people.role = 'director' THEN tournament_people.role \
     WHEN tournament_people.role = 'co-director' AND excluded.role = 'player' \
     THEN tournament_people.role ELSE excluded.role END";

pub(crate) const PERSON_COLUMNS: &str = "id, name, username, password_hash, created_at_ms, \
     disabled_at_ms, email, email_verified_at_ms";
pub(crate) static PERSON_BY_ID: LazyLock<String> =
    LazyLock::new(|| format!("SELECT {PERSON_COLUMNS} FROM persons WHERE id = $1"));
pub(crate) static PERSON_BY_USERNAME_KEY: LazyLock<String> =
    LazyLock::new(|| format!("SELECT {PERSON_COLUMNS} FROM persons WHERE username_key = $1"));
pub(crate) const DEVICES_OF: &str = "SELECT id, person_id, label, created_at_ms, last_seen_ms, \
     tournament_id FROM devices WHERE person_id = $1 ORDER BY last_seen_ms DESC, id";
/// The link code `$1` unless it expired at `$2`.
pub(crate) const LINK_CODE: &str = "SELECT code_hash, person_id, made_by, expires_at_ms, \
     tournament_id FROM link_codes WHERE code_hash = $1 AND expires_at_ms > $2";
/// Person `$1`'s games, newest first, at most `$2`, with the seats' names as they are now;
/// without their final snapshot (`final_json` read as NULL), which a list never shows.
///
/// The newest `$2` of each seat, each read from its own index (`games_south`,
/// `games_north`: the person's games by creation), then merged: `south = $1 OR north = $1`
/// could use neither, and sorted every game the person ever played (87-235 ms for 5,000
/// games, issue 41 finding 6). `UNION` keeps a game once should one person hold both
/// seats.
pub(crate) static GAMES_OF: LazyLock<String> = LazyLock::new(|| {
    let columns = GAME_COLUMNS
        .split(", ")
        .map(|c| match c {
            "final_json" => "CAST(NULL AS TEXT) AS final_json".to_owned(),
            c => format!("g.{c}"),
        })
        .collect::<Vec<_>>()
        .join(", ");
    format!(
        "SELECT {columns}, ps.name AS south_name, pn.name AS north_name FROM ( \
         SELECT id FROM (SELECT id FROM games WHERE south = $1 \
           ORDER BY created_at_ms DESC LIMIT $2) AS by_south \
         UNION \
         SELECT id FROM (SELECT id FROM games WHERE north = $1 \
           ORDER BY created_at_ms DESC LIMIT $2) AS by_north \
         ) AS newest JOIN games g ON g.id = newest.id \
         LEFT JOIN persons ps ON ps.id = g.south LEFT JOIN persons pn ON pn.id = g.north \
         ORDER BY g.created_at_ms DESC, g.id LIMIT $2"
    )
});
/// Person `$1`'s tournaments, newest first, at most `$2`, with the person's role.
pub(crate) const TOURNAMENTS_OF: &str = "SELECT t.id, t.name, t.ruleset, t.system, t.director, \
     t.status, t.players, t.round, t.created_at_ms, t.updated_at_ms, tp.role \
     FROM tournament_people tp JOIN tournaments t ON t.id = tp.tournament_id \
     WHERE tp.person_id = $1 ORDER BY t.created_at_ms DESC LIMIT $2";
/// Of the devices `$1...`, those still signed in, of persons not disabled.
pub(crate) fn live_devices(n: usize) -> String {
    let placeholders = numbered_placeholders(n);
    format!(
        "SELECT d.id FROM devices d JOIN persons p ON p.id = d.person_id \
         WHERE d.id IN ({placeholders}) AND p.disabled_at_ms IS NULL"
    )
}

/// Of the persons `$1...`, each that exists, with its username (NULL: a guest).
pub(crate) fn persons_among(n: usize) -> String {
    let placeholders = numbered_placeholders(n);
    format!("SELECT id, username FROM persons WHERE id IN ({placeholders})")
}

/// Whether person `$1` holds the recovery code hashing to `$2` (1 or 0).
pub(crate) const RECOVERY_CODE_COUNT: &str =
    "SELECT COUNT(*) AS n FROM recovery_codes WHERE person_id = $1 AND code_hash = $2";
pub(crate) const TOURNAMENT_PEOPLE_COUNT: &str = "SELECT COUNT(*) AS n FROM tournament_people";
/// Who joined or directs which tournament, from the logs (filling `tournament_people`).
pub(crate) const TOURNAMENT_PEOPLE_FROM_LOGS: &str = "SELECT tournament_id, seq, at_ms, kind, \
     payload_json FROM tournament_log WHERE kind IN ('create', 'join') \
     ORDER BY tournament_id, seq";
pub(crate) const DELETE_TOURNAMENT_PEOPLE: &str =
    "DELETE FROM tournament_people WHERE tournament_id = $1";

pub(crate) const GAME_COLUMNS: &str = "id, ruleset, setup, config_json, south, north, creator, \
     status, outcome_json, created_at_ms, updated_at_ms, final_json, rated, tournament_id, \
     result, victory, finished_at_ms, move_count";

pub(crate) const INSERT_GAME: &str = "INSERT INTO games (id, ruleset, setup, config_json, south, \
     north, creator, status, outcome_json, created_at_ms, updated_at_ms, rated, tournament_id, \
     result, victory, finished_at_ms, move_count) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)";

/// Every column but the immutable ones (`id`, `creator`, `created_at_ms`).
pub(crate) const UPDATE_GAME: &str = "UPDATE games SET ruleset = $2, setup = $3, \
     config_json = $4, south = $5, north = $6, status = $7, outcome_json = $8, \
     updated_at_ms = $9, final_json = $10, rated = $11, tournament_id = $12, result = $13, \
     victory = $14, finished_at_ms = $15, move_count = $16 WHERE id = $1";

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
