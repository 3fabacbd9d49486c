//! The statements of the ratings' tables (`migrations/0007_ratings.sql`), portable between
//! SQLite and PostgreSQL like those of `sql.rs`. In every one, `$1`, `$2`, ... appear in
//! order, so either driver may bind them by position.

/// Takes the next number of the record, and with it (on PostgreSQL) the lock that makes
/// two rating transactions run one after the other.
pub(crate) const TAKE_SEQ: &str =
    "UPDATE rating_record SET results = results + 1 WHERE id = 1 RETURNING results";

const RESULT_COLUMNS: &str = "result_key, seq, ruleset, south, north, score, at_ms, uncounted";

pub(crate) static FIND_RESULT: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!("SELECT {RESULT_COLUMNS} FROM rated_results WHERE result_key = $1")
});

/// The results of ruleset `$1` from the place `$2` on, in order, at most `$3`.
pub(crate) static RESULTS_FROM: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "SELECT {RESULT_COLUMNS} FROM rated_results WHERE ruleset = $1 AND seq >= $2 \
         ORDER BY seq LIMIT $3"
    )
});

/// The re-rating under way in ruleset `$1`, if any: where it has got to, and whom else.
pub(crate) const PENDING: &str =
    "SELECT from_seq, also_json FROM rerate_pending WHERE ruleset = $1";

/// The rulesets with a re-rating under way, and where each has got to.
pub(crate) const PENDING_RULESETS: &str =
    "SELECT ruleset, from_seq FROM rerate_pending ORDER BY ruleset";

/// A re-rating of ruleset `$1` under way from the place `$2`, with the persons `$3`.
pub(crate) const SET_PENDING: &str = "INSERT INTO rerate_pending (ruleset, from_seq, also_json) \
     VALUES ($1, $2, $3) ON CONFLICT (ruleset) DO UPDATE SET from_seq = excluded.from_seq, \
     also_json = excluded.also_json";

/// Ruleset `$1`'s re-rating done.
pub(crate) const CLEAR_PENDING: &str = "DELETE FROM rerate_pending WHERE ruleset = $1";

/// The whole record, by ruleset then place (`omweso admin rerate --check`).
pub(crate) static ALL_RESULTS: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!("SELECT {RESULT_COLUMNS} FROM rated_results ORDER BY ruleset, seq")
});

/// The most values one statement binds: SQLite's default SQLITE_MAX_VARIABLE_NUMBER
/// (32766 since 3.32; the bundled SQLite is newer), below PostgreSQL's 65535.
pub(crate) const MAX_PARAMS: usize = 32_766;

/// Persons' ratings before a place in the record: each one's last history line before it.
/// `$1` the ruleset, `$2` the place, then `n` person ids.
pub(crate) fn states_before(n: usize, anonymous: bool) -> String {
    // All `?` or all `$N`: sqlx counts a `?` after a `$N` from the first value again.
    format!(
        "SELECT h.person, h.rating, h.deviation, h.volatility, h.games, h.last_played_ms \
         FROM rating_history h JOIN (SELECT person, MAX(seq) AS seq FROM rating_history \
         WHERE ruleset = {} AND seq < {} AND person IN ({}) GROUP BY person) last \
         ON h.person = last.person AND h.seq = last.seq",
        placeholders(1, 1, 1, anonymous),
        placeholders(2, 1, 1, anonymous),
        placeholders(3, n, 1, anonymous)
    )
}

/// `rows` groups of `width` placeholders, numbered from `$first` in order:
/// `($1, $2), ($3, $4)` (or, `width` 1, `$1, $2`); `anonymous`: `?` each, for SQLite,
/// whose parser looks every `$N` up in a list of those before it (quadratic in a
/// statement of thousands), where a `?` is only counted.
fn placeholders(first: usize, rows: usize, width: usize, anonymous: bool) -> String {
    let group = |row: usize| {
        let names: Vec<String> = (0..width)
            .map(|i| {
                if anonymous {
                    "?".to_owned()
                } else {
                    format!("${}", first + row * width + i)
                }
            })
            .collect();
        names.join(", ")
    };
    let groups: Vec<String> = (0..rows)
        .map(|row| {
            if width == 1 {
                group(row)
            } else {
                format!("({})", group(row))
            }
        })
        .collect();
    groups.join(", ")
}

/// Everyone rated in a ruleset (so that a recomputation from the start forgets nobody).
pub(crate) const RATED_PERSONS: &str = "SELECT person FROM ratings WHERE ruleset = $1";

pub(crate) const INSERT_RESULT: &str = "INSERT INTO rated_results \
     (result_key, seq, ruleset, south, north, score, at_ms, uncounted) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)";

/// The results of ruleset `$1` between two players, `$2` South and `$3` North or `$4`
/// South and `$5` North, that count, played after `$6` and up to `$7` (ms): how many a
/// new one between them follows in a day.
pub(crate) const PAIR_COUNTED_SINCE: &str = "SELECT COUNT(*) AS n FROM rated_results \
     WHERE ruleset = $1 AND ((south = $2 AND north = $3) OR (south = $4 AND north = $5)) \
     AND at_ms > $6 AND at_ms <= $7 AND score IS NOT NULL AND uncounted IS NULL";

pub(crate) const UPDATE_RESULT: &str = "UPDATE rated_results \
     SET south = $2, north = $3, score = $4, at_ms = $5 WHERE result_key = $1";

pub(crate) const DELETE_HISTORY_FROM: &str =
    "DELETE FROM rating_history WHERE ruleset = $1 AND seq >= $2";

/// Ruleset `$1`'s history from the place `$2` up to (not including) `$3`: a step of a
/// re-rating, whose later lines stay until their own step.
pub(crate) const DELETE_HISTORY_BETWEEN: &str =
    "DELETE FROM rating_history WHERE ruleset = $1 AND seq >= $2 AND seq < $3";

/// The values of one history line (`insert_history`).
pub(crate) const HISTORY_WIDTH: usize = 13;

/// `rows` history lines in one statement, `HISTORY_WIDTH` values each.
pub(crate) fn insert_history(rows: usize, anonymous: bool) -> String {
    format!(
        "INSERT INTO rating_history ({HISTORY_COLUMNS}) VALUES {}",
        placeholders(1, rows, HISTORY_WIDTH, anonymous)
    )
}

/// The values of one rating (`upsert_ratings`).
pub(crate) const RATING_WIDTH: usize = 7;

/// `rows` players' ratings in one statement, `RATING_WIDTH` values each (distinct
/// persons: PostgreSQL refuses to change one row twice in a statement).
pub(crate) fn upsert_ratings(rows: usize, anonymous: bool) -> String {
    format!(
        "INSERT INTO ratings ({RATING_COLUMNS}) VALUES {} \
         ON CONFLICT (person, ruleset) DO UPDATE SET rating = excluded.rating, \
         deviation = excluded.deviation, volatility = excluded.volatility, \
         games = excluded.games, last_played_ms = excluded.last_played_ms",
        placeholders(1, rows, RATING_WIDTH, anonymous)
    )
}

/// The ratings of `n` persons in one ruleset deleted: `$1` the ruleset, then the ids.
pub(crate) fn delete_ratings(n: usize, anonymous: bool) -> String {
    format!(
        "DELETE FROM ratings WHERE ruleset = {} AND person IN ({})",
        placeholders(1, 1, 1, anonymous),
        placeholders(2, n, 1, anonymous)
    )
}

const RATING_COLUMNS: &str =
    "person, ruleset, rating, deviation, volatility, games, last_played_ms";

/// Chunks of persons' ratings in one ruleset: `$1` the ruleset, then `n` person ids.
pub(crate) fn ratings_of(n: usize) -> String {
    format!(
        "SELECT {RATING_COLUMNS} FROM ratings WHERE ruleset = $1 AND person IN ({})",
        placeholders(2, n, 1, false)
    )
}

pub(crate) static ALL_RATINGS: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!("SELECT {RATING_COLUMNS} FROM ratings ORDER BY ruleset, person")
});

const HISTORY_COLUMNS: &str = "seq, person, ruleset, result_key, at_ms, rating, deviation, \
     volatility, games, before_rating, before_deviation, before_volatility, last_played_ms";

pub(crate) static ALL_HISTORY: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!("SELECT {HISTORY_COLUMNS} FROM rating_history ORDER BY ruleset, seq, person")
});

/// A person's history in one ruleset, newest first (the chart), at most `$3` lines.
pub(crate) static HISTORY_OF: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "SELECT {HISTORY_COLUMNS} FROM rating_history WHERE person = $1 AND ruleset = $2 \
         ORDER BY seq DESC LIMIT $3"
    )
});

/// The lines of one rated result (a game's rating changes).
pub(crate) static HISTORY_OF_RESULT: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!("SELECT {HISTORY_COLUMNS} FROM rating_history WHERE result_key = $1")
});

/// The leaderboard: `$1` the ruleset, then only ratings not provisional at `$2` (now,
/// ms): the deviation grown by the inactivity, sqrt(d^2 + t v^2 * 173.7178^2) with t in
/// rating periods (`$3` periods a millisecond times 173.7178^2), below `$4` (110^2);
/// accounts not disabled; the best `$5`. The server checks each line again in Rust
/// (`Rating::at`), so the last bit of the arithmetic here never shows a provisional one.
pub(crate) const LEADERBOARD: &str = "SELECT r.person, r.ruleset, r.rating, r.deviation, \
     r.volatility, r.games, r.last_played_ms, p.username, p.name \
     FROM ratings r JOIN persons p ON p.id = r.person \
     WHERE r.ruleset = $1 AND p.username IS NOT NULL AND p.disabled_at_ms IS NULL \
     AND r.deviation * r.deviation + ($2 - r.last_played_ms) * $3 * r.volatility * r.volatility < $4 \
     ORDER BY r.rating DESC, r.last_played_ms ASC LIMIT $5";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_come_in_order() {
        assert_eq!(placeholders(1, 2, 2, false), "($1, $2), ($3, $4)");
        assert_eq!(placeholders(2, 3, 1, false), "$2, $3, $4");
        assert_eq!(placeholders(2, 2, 2, true), "(?, ?), (?, ?)");
        assert!(!states_before(3, true).contains('$'));
        assert!(!delete_ratings(3, true).contains('$'));
        assert!(insert_history(2, false)
            .ends_with("($14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26)"));
        assert_eq!(HISTORY_COLUMNS.split(',').count(), HISTORY_WIDTH);
        assert_eq!(RATING_COLUMNS.split(',').count(), RATING_WIDTH);
    }
}
