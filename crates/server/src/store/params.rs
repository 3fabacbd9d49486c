//! The values each write binds, listed once for both drivers: sqlx (PostgreSQL, and SQLite
//! in memory) and rusqlite (the SQLite file's writer thread). A row type says what its
//! statement's `$1`, `$2`, ... are here; each driver only knows how to bind a [`Param`].

use super::rows::{
    ActionRow, GameRow, SessionChange, SessionRow, TournamentEntryRow, TournamentRow,
};
use super::sql;

/// One bound value: text (borrowed from the row, or made for it, such as a UUID's
/// spelling), possibly NULL; or a BIGINT.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Param<'a> {
    Str(Option<&'a str>),
    Text(Option<String>),
    Int(i64),
}

fn uuid(id: uuid::Uuid) -> Param<'static> {
    Param::Text(Some(id.to_string()))
}

fn opt_uuid(id: Option<uuid::Uuid>) -> Param<'static> {
    Param::Text(id.map(|id| id.to_string()))
}

impl SessionRow {
    /// `INSERT_SESSION`'s `$1..$6`.
    pub(crate) fn insert_params(&self) -> [Param<'_>; 6] {
        [
            uuid(self.player_id),
            Param::Str(Some(&self.token_hash)),
            Param::Str(Some(&self.name)),
            Param::Int(self.created_at_ms),
            Param::Int(self.last_seen_ms),
            Param::Int(i64::from(self.used)),
        ]
    }
}

impl SessionChange {
    /// The statements that make the change, each with its `$1, $2, ...`, in order. None
    /// fails for want of its row: a session revoked or expired meanwhile is no error.
    pub(crate) fn statements(&self) -> Vec<(&'static str, Vec<Param<'static>>)> {
        match *self {
            SessionChange::Seen { player_id, at_ms } => {
                vec![(sql::SESSION_SEEN, vec![uuid(player_id), Param::Int(at_ms)])]
            }
            SessionChange::Used { player_id, at_ms } => {
                vec![(sql::SESSION_USED, vec![uuid(player_id), Param::Int(at_ms)])]
            }
            SessionChange::Revoke(player_id) => vec![(sql::DELETE_SESSION, vec![uuid(player_id)])],
            SessionChange::Expire {
                now_ms,
                before_ms,
                unused_before_ms,
            } => vec![
                (sql::SESSIONS_SEEN_AT_START, vec![Param::Int(now_ms)]),
                (
                    sql::EXPIRE_SESSIONS,
                    vec![Param::Int(before_ms), Param::Int(unused_before_ms)],
                ),
            ],
        }
    }
}

impl GameRow {
    /// `INSERT_GAME`'s `$1..$11`.
    pub(crate) fn insert_params(&self) -> [Param<'_>; 11] {
        [
            uuid(self.id),
            Param::Str(Some(&self.ruleset)),
            Param::Str(Some(&self.setup)),
            Param::Str(Some(&self.config_json)),
            opt_uuid(self.south),
            opt_uuid(self.north),
            uuid(self.creator),
            Param::Str(Some(&self.status)),
            Param::Str(self.outcome_json.as_deref()),
            Param::Int(self.created_at_ms),
            Param::Int(self.updated_at_ms),
        ]
    }

    /// `UPDATE_GAME`'s `$1..$10`.
    pub(crate) fn update_params(&self) -> [Param<'_>; 10] {
        [
            uuid(self.id),
            Param::Str(Some(&self.ruleset)),
            Param::Str(Some(&self.setup)),
            Param::Str(Some(&self.config_json)),
            opt_uuid(self.south),
            opt_uuid(self.north),
            Param::Str(Some(&self.status)),
            Param::Str(self.outcome_json.as_deref()),
            Param::Int(self.updated_at_ms),
            Param::Str(self.final_json.as_deref()),
        ]
    }
}

impl ActionRow {
    /// One row of `insert_actions`: its six values.
    pub(crate) fn insert_params(&self) -> [Param<'_>; 6] {
        [
            uuid(self.game_id),
            Param::Int(self.seq),
            Param::Int(self.at_ms),
            Param::Str(self.side.as_deref()),
            Param::Str(Some(&self.kind)),
            Param::Str(Some(&self.payload_json)),
        ]
    }
}

impl TournamentRow {
    /// `INSERT_TOURNAMENT`'s `$1..$10`.
    pub(crate) fn insert_params(&self) -> [Param<'_>; 10] {
        [
            uuid(self.id),
            Param::Str(Some(&self.name)),
            Param::Str(Some(&self.ruleset)),
            Param::Str(Some(&self.system)),
            uuid(self.director),
            Param::Str(Some(&self.status)),
            Param::Int(self.players),
            Param::Int(self.round),
            Param::Int(self.created_at_ms),
            Param::Int(self.updated_at_ms),
        ]
    }

    /// `UPDATE_TOURNAMENT`'s `$1..$8`.
    pub(crate) fn update_params(&self) -> [Param<'_>; 8] {
        [
            uuid(self.id),
            Param::Str(Some(&self.name)),
            Param::Str(Some(&self.ruleset)),
            Param::Str(Some(&self.system)),
            Param::Str(Some(&self.status)),
            Param::Int(self.players),
            Param::Int(self.round),
            Param::Int(self.updated_at_ms),
        ]
    }
}

impl TournamentEntryRow {
    /// `INSERT_TOURNAMENT_ENTRY`'s `$1..$5`.
    pub(crate) fn insert_params(&self) -> [Param<'_>; 5] {
        [
            uuid(self.tournament_id),
            Param::Int(self.seq),
            Param::Int(self.at_ms),
            Param::Str(Some(&self.kind)),
            Param::Str(Some(&self.payload_json)),
        ]
    }
}

impl rusqlite::ToSql for Param<'_> {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        use rusqlite::types::{ToSqlOutput, Value, ValueRef};
        Ok(match self {
            Param::Str(Some(text)) => ToSqlOutput::Borrowed(ValueRef::Text(text.as_bytes())),
            Param::Text(Some(text)) => ToSqlOutput::Borrowed(ValueRef::Text(text.as_bytes())),
            Param::Str(None) | Param::Text(None) => ToSqlOutput::Owned(Value::Null),
            Param::Int(n) => ToSqlOutput::Owned(Value::Integer(*n)),
        })
    }
}

/// Binds `params` to a sqlx query, in order (the macro is expanded once per backend, as
/// `with_pool!` is: the two pools have different argument types).
macro_rules! bind_params {
    ($query:expr, $params:expr) => {{
        let mut query = $query;
        for param in $params {
            query = match param {
                $crate::store::params::Param::Str(text) => query.bind(text),
                $crate::store::params::Param::Text(text) => query.bind(text),
                $crate::store::params::Param::Int(n) => query.bind(n),
            };
        }
        query
    }};
}
pub(crate) use bind_params;
