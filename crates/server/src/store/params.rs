//! The values each write binds, listed once for both drivers: sqlx (PostgreSQL, and SQLite
//! in memory) and rusqlite (the SQLite file's writer thread). A row type says what its
//! statement's `$1`, `$2`, ... are here; each driver only knows how to bind a [`Param`].

use super::rows::{
    ActionRow, ArchiveColumns, GameRow, SessionChange, SessionRow, TournamentEntryRow,
    TournamentRow,
};
use super::sql;

/// One bound value: text (borrowed from the row, or made for it, such as a UUID's
/// spelling), possibly NULL; or a BIGINT.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Param<'a> {
    Str(Option<&'a str>),
    Text(Option<String>),
    Int(i64),
    /// A BIGINT that may be NULL (bound as a BIGINT NULL, which PostgreSQL needs).
    OptInt(Option<i64>),
    /// A DOUBLE PRECISION (the ratings: stored and read back exactly).
    Float(f64),
}

/// An id as the schema stores it (text).
pub(crate) fn uuid(id: uuid::Uuid) -> Param<'static> {
    Param::Text(Some(id.to_string()))
}

fn opt_uuid(id: Option<uuid::Uuid>) -> Param<'static> {
    Param::Text(id.map(|id| id.to_string()))
}

/// One statement of a change, with its `$1, $2, ...`; `must_change`: a statement that
/// changes no row refuses the whole transaction ([`StoreError::NotFound`](super::StoreError::NotFound),
/// naming `what`).
#[derive(Clone, Debug)]
pub(crate) struct Statement {
    pub sql: &'static str,
    pub params: Vec<Param<'static>>,
    pub must_change: Option<&'static str>,
}

/// A statement that may change any number of rows, none included.
pub(crate) fn any(sql: &'static str, params: Vec<Param<'static>>) -> Statement {
    Statement {
        sql,
        params,
        must_change: None,
    }
}

fn one(sql: &'static str, params: Vec<Param<'static>>, what: &'static str) -> Statement {
    Statement {
        sql,
        params,
        must_change: Some(what),
    }
}

/// Text made for the statement (owned).
pub(crate) fn text(value: &str) -> Param<'static> {
    Param::Text(Some(value.to_owned()))
}

impl SessionRow {
    /// A new guest person and its first device.
    pub(crate) fn insert_statements(&self) -> Vec<Statement> {
        vec![
            any(
                sql::INSERT_PERSON,
                vec![
                    uuid(self.player_id),
                    text(&self.name),
                    Param::Int(self.created_at_ms),
                ],
            ),
            any(
                sql::INSERT_DEVICE,
                vec![
                    uuid(self.device_id),
                    text(&self.token_hash),
                    uuid(self.player_id),
                    text(&self.label),
                    Param::Int(self.created_at_ms),
                    Param::Int(self.last_seen_ms),
                    Param::Int(i64::from(self.used)),
                    opt_uuid(self.tournament_id),
                ],
            ),
        ]
    }
}

impl SessionChange {
    /// The statements that make the change, in order. Seen, used, revoked and expired
    /// fail for want of no row (a device revoked or expired meanwhile is no error); the
    /// others say what they did not find.
    pub(crate) fn statements(&self) -> Vec<Statement> {
        match self {
            SessionChange::Seen { device_id, at_ms } => vec![any(
                sql::DEVICE_SEEN,
                vec![uuid(*device_id), Param::Int(*at_ms)],
            )],
            SessionChange::Used {
                device_id,
                person_id,
                at_ms,
            } => vec![
                any(sql::DEVICE_USED, vec![uuid(*device_id), Param::Int(*at_ms)]),
                any(sql::PERSON_USED, vec![uuid(*person_id)]),
            ],
            SessionChange::Revoke(device_id) => {
                vec![any(sql::DELETE_DEVICE, vec![uuid(*device_id)])]
            }
            SessionChange::RevokeAll { person_id, keep } => vec![
                any(
                    sql::DELETE_DEVICES_OF,
                    vec![
                        uuid(*person_id),
                        Param::Text(Some(keep.map(|k| k.to_string()).unwrap_or_default())),
                    ],
                ),
                // Nothing made before lets anyone back in: link codes, reset links.
                any(sql::DELETE_LINK_CODES_OF, vec![uuid(*person_id)]),
                any(
                    sql::DELETE_EMAIL_CODES_FOR,
                    vec![uuid(*person_id), text(super::rows::EMAIL_RESET)],
                ),
            ],
            SessionChange::Expire {
                now_ms,
                before_ms,
                unused_before_ms,
            } => vec![
                any(sql::DEVICES_SEEN_AT_START, vec![Param::Int(*now_ms)]),
                any(
                    sql::EXPIRE_DEVICES,
                    vec![Param::Int(*before_ms), Param::Int(*unused_before_ms)],
                ),
                any(sql::EXPIRE_LINK_CODES, vec![Param::Int(*now_ms)]),
                any(sql::EXPIRE_RELAY_CODES, vec![Param::Int(*now_ms)]),
                any(
                    sql::EXPIRE_KNOWN_DEVICES,
                    vec![Param::Int(now_ms.saturating_sub(
                        super::rows::KNOWN_DEVICE_DAYS * 24 * 60 * 60 * 1000,
                    ))],
                ),
                any(sql::EXPIRE_EMAIL_CODES, vec![Param::Int(*now_ms)]),
                any(sql::EXPIRE_GUESTS, vec![]),
            ],
            SessionChange::AddDevice(device) => vec![any(
                sql::INSERT_DEVICE,
                vec![
                    uuid(device.id),
                    text(&device.token_hash),
                    uuid(device.person_id),
                    text(&device.label),
                    Param::Int(device.at_ms),
                    Param::Int(device.at_ms),
                    Param::Int(1),
                    opt_uuid(device.tournament_id),
                ],
            )],
            SessionChange::Rotate {
                device_id,
                token_hash,
            } => vec![one(
                sql::ROTATE_DEVICE,
                vec![uuid(*device_id), text(token_hash)],
                "device",
            )],
            SessionChange::NewPerson {
                person_id,
                name,
                at_ms,
            } => vec![any(
                sql::INSERT_PERSON_WITHOUT_DEVICE,
                vec![uuid(*person_id), text(name), Param::Int(*at_ms)],
            )],
            SessionChange::Rename { person_id, name } => vec![one(
                sql::RENAME_PERSON,
                vec![uuid(*person_id), text(name)],
                "person",
            )],
            SessionChange::MakeAccount {
                person_id,
                username,
                username_key,
                password_hash,
                recovery_hashes,
            } => {
                let mut statements = vec![one(
                    sql::MAKE_ACCOUNT,
                    vec![
                        uuid(*person_id),
                        text(username),
                        text(username_key),
                        text(password_hash),
                    ],
                    "guest",
                )];
                // The guest's link codes, made before it had a password, go with its old
                // token: someone who planted that token cannot come back by a code.
                statements.push(any(sql::DELETE_LINK_CODES_OF, vec![uuid(*person_id)]));
                statements.extend(recovery(*person_id, recovery_hashes));
                statements
            }
            SessionChange::ChangeUsername {
                person_id,
                username,
                username_key,
                name,
            } => {
                let mut statements = vec![one(
                    sql::CHANGE_USERNAME,
                    vec![uuid(*person_id), text(username), text(username_key)],
                    "account",
                )];
                if let Some(name) = name {
                    statements.push(any(sql::RENAME_PERSON, vec![uuid(*person_id), text(name)]));
                }
                statements
            }
            SessionChange::SetPassword {
                person_id,
                password_hash,
            } => vec![one(
                sql::SET_PASSWORD,
                vec![uuid(*person_id), text(password_hash)],
                "account",
            )],
            SessionChange::SetRecoveryCodes {
                person_id,
                recovery_hashes,
            } => recovery(*person_id, recovery_hashes),
            SessionChange::UseRecoveryCode {
                person_id,
                code_hash,
            } => vec![one(
                sql::USE_RECOVERY_CODE,
                vec![uuid(*person_id), text(code_hash)],
                "recovery code",
            )],
            SessionChange::AddLinkCode(code) => vec![any(
                sql::INSERT_LINK_CODE,
                vec![
                    text(&code.code_hash),
                    uuid(code.person_id),
                    uuid(code.made_by),
                    Param::Int(code.expires_at_ms),
                    opt_uuid(code.tournament_id),
                ],
            )],
            SessionChange::AddRelayCode(code) => vec![any(
                sql::INSERT_RELAY_CODE,
                vec![
                    text(&code.code_hash),
                    uuid(code.tournament_id),
                    Param::Int(i64::from(code.round)),
                    Param::Int(i64::from(code.table)),
                    Param::Int(code.expires_at_ms),
                ],
            )],
            SessionChange::TakeRelayCode { code_hash } => {
                vec![any(sql::DELETE_RELAY_CODE, vec![text(code_hash)])]
            }
            SessionChange::AddKnownDevice(mark) => vec![
                any(
                    sql::INSERT_KNOWN_DEVICE,
                    vec![
                        text(&mark.key_hash),
                        uuid(mark.person_id),
                        Param::Int(mark.created_at_ms),
                    ],
                ),
                any(
                    sql::TRIM_KNOWN_DEVICES,
                    vec![
                        uuid(mark.person_id),
                        Param::Int(super::rows::KNOWN_DEVICES_KEPT),
                    ],
                ),
            ],
            SessionChange::TakeLinkCode { code_hash, now_ms } => vec![one(
                sql::TAKE_LINK_CODE,
                vec![text(code_hash), Param::Int(*now_ms)],
                "link code",
            )],
            SessionChange::Disable { person_id, at_ms } => vec![one(
                sql::DISABLE_PERSON,
                vec![uuid(*person_id), Param::OptInt(*at_ms)],
                "person",
            )],
            SessionChange::SetEmail { person_id, email } => vec![
                any(sql::DELETE_EMAIL_CODES, vec![uuid(*person_id)]),
                one(
                    sql::SET_EMAIL,
                    vec![uuid(*person_id), Param::Text(email.clone())],
                    "account",
                ),
            ],
            SessionChange::AddEmailCode(code) => vec![any(
                sql::INSERT_EMAIL_CODE,
                vec![
                    text(&code.code_hash),
                    uuid(code.person_id),
                    text(&code.purpose),
                    text(&code.email),
                    Param::Int(code.expires_at_ms),
                ],
            )],
            SessionChange::TakeEmailCode {
                code_hash,
                purpose,
                now_ms,
            } => vec![one(
                sql::TAKE_EMAIL_CODE,
                vec![text(code_hash), text(purpose), Param::Int(*now_ms)],
                "e-mail code",
            )],
            SessionChange::EmailVerified {
                person_id,
                email,
                at_ms,
            } => vec![one(
                sql::EMAIL_VERIFIED,
                vec![uuid(*person_id), text(email), Param::Int(*at_ms)],
                "e-mail address",
            )],
            SessionChange::DropEmailCodes { person_id, purpose } => vec![any(
                sql::DELETE_EMAIL_CODES_FOR,
                vec![uuid(*person_id), text(purpose)],
            )],
            SessionChange::InTournament {
                person_id,
                tournament_id,
                role,
                at_ms,
            } => vec![any(
                sql::IN_TOURNAMENT,
                vec![
                    uuid(*person_id),
                    uuid(*tournament_id),
                    text(role),
                    Param::Int(*at_ms),
                ],
            )],
        }
    }
}

/// An account's recovery codes replaced by `hashes`.
fn recovery(person_id: uuid::Uuid, hashes: &[String]) -> Vec<Statement> {
    std::iter::once(any(sql::DELETE_RECOVERY_CODES, vec![uuid(person_id)]))
        .chain(
            hashes
                .iter()
                .map(|hash| any(sql::INSERT_RECOVERY_CODE, vec![uuid(person_id), text(hash)])),
        )
        .collect()
}

impl GameRow {
    /// `INSERT_GAME`'s `$1..$17`.
    pub(crate) fn insert_params(&self) -> [Param<'_>; 17] {
        let [rated, tournament, result, victory, finished, moves] = self.archive.params();
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
            rated,
            tournament,
            result,
            victory,
            finished,
            moves,
        ]
    }

    /// `UPDATE_GAME`'s `$1..$16`.
    pub(crate) fn update_params(&self) -> [Param<'_>; 16] {
        let [rated, tournament, result, victory, finished, moves] = self.archive.params();
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
            rated,
            tournament,
            result,
            victory,
            finished,
            moves,
        ]
    }
}

impl ArchiveColumns {
    /// `rated, tournament_id, result, victory, finished_at_ms, move_count`, in that order
    /// in both the insert and the update.
    fn params(&self) -> [Param<'_>; 6] {
        [
            Param::Int(i64::from(self.rated)),
            opt_uuid(self.tournament_id),
            Param::Str(self.result.as_deref()),
            Param::Str(self.victory.as_deref()),
            Param::OptInt(self.finished_at_ms),
            Param::OptInt(self.move_count),
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
            Param::OptInt(n) => ToSqlOutput::Owned(n.map_or(Value::Null, Value::Integer)),
            Param::Float(x) => ToSqlOutput::Owned(Value::Real(*x)),
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
                $crate::store::params::Param::OptInt(n) => query.bind(n),
                $crate::store::params::Param::Float(x) => query.bind(x),
            };
        }
        query
    }};
}
pub(crate) use bind_params;
