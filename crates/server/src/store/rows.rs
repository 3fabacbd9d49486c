//! The rows the store reads and writes, and their decoding from either backend.
//!
//! Every column is TEXT or BIGINT in the database (see `migrations/`); UUIDs are stored as
//! lowercase hyphenated text. Decoding never panics: a value of the wrong type, or text that
//! is not a UUID, gives [`StoreError::Corrupt`] naming the table and column.

use omweso_rules::Ruleset;
use sqlx::postgres::PgRow;
use sqlx::sqlite::SqliteRow;
use sqlx::Row;
use uuid::Uuid;

use super::StoreError;
use crate::store::lease::Lease;
pub use omweso_ratings::Score;

/// A device's session, as read with its person: the person's id (the player id), the
/// device, the person's name and username. Only the hash of the token is stored
/// ([`hash_token`](super::hash_token)).
///
/// Written by [`Write::InsertSession`] as a new guest person with this first device (the
/// `username` is not written: an account is made by [`SessionChange::MakeAccount`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionRow {
    pub player_id: Uuid,
    pub device_id: Uuid,
    pub token_hash: String,
    pub name: String,
    pub username: Option<String>,
    /// What the device is ("Chrome on Android").
    pub label: String,
    /// When the device signed in.
    pub created_at_ms: i64,
    /// When the device was last used (to within the minutes between two writes of it).
    pub last_seen_ms: i64,
    /// Has the device created, joined or played anything? (An unused one expires sooner.)
    pub used: bool,
    /// A device a tournament's director linked: the tournament it is the person in, only.
    pub tournament_id: Option<Uuid>,
}

/// A person: a guest, or an account when it has a username.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PersonRow {
    pub id: Uuid,
    pub name: String,
    pub username: Option<String>,
    /// The argon2 PHC string of an account's password.
    pub password_hash: Option<String>,
    pub created_at_ms: i64,
    pub disabled_at_ms: Option<i64>,
    /// An account's e-mail address, if it gave one (docs/accounts.md#e-mail).
    pub email: Option<String>,
    /// When that address was verified; `None` while it is not.
    pub email_verified_at_ms: Option<i64>,
}

/// One of a person's devices, as its list shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceRow {
    pub id: Uuid,
    pub person_id: Uuid,
    pub label: String,
    pub created_at_ms: i64,
    pub last_seen_ms: i64,
    /// Linked by a tournament's director: the person in that tournament only.
    pub tournament_id: Option<Uuid>,
}

/// A one-time code that makes another device the person `person_id`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkCodeRow {
    pub code_hash: String,
    pub person_id: Uuid,
    /// Who made it: the person, or a tournament's director for one of its players.
    pub made_by: Uuid,
    pub expires_at_ms: i64,
    /// A director's code: the tournament the device it links is the person in, only.
    pub tournament_id: Option<Uuid>,
}

/// A relay invite's code, by which `/link` finds its table (the tournament's log keeps the
/// invite itself, by the table).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RelayCodeRow {
    pub code_hash: String,
    pub tournament_id: Uuid,
    pub round: u32,
    pub table: u32,
    pub expires_at_ms: i64,
}

/// A device's mark that it logged in to an account (docs/security.md#accounts): the
/// SHA-256 of the key its cookie holds, and whose.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KnownDeviceRow {
    pub key_hash: String,
    pub person_id: Uuid,
    pub created_at_ms: i64,
}

/// A one-time code sent by mail: `purpose` [`EMAIL_VERIFY`] (it verifies `email`) or
/// [`EMAIL_RESET`] (it sets a new password; `email` is the address it went to).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EmailCodeRow {
    pub code_hash: String,
    pub person_id: Uuid,
    pub purpose: String,
    pub email: String,
    pub expires_at_ms: i64,
}

/// [`EmailCodeRow::purpose`] of a code that verifies an address.
pub const EMAIL_VERIFY: &str = "verify";
/// A person's devices' marks kept (the newest), and how long each is kept.
pub const KNOWN_DEVICES_KEPT: i64 = 20;
pub const KNOWN_DEVICE_DAYS: i64 = 365;
/// [`EmailCodeRow::purpose`] of a code that sets a new password.
pub const EMAIL_RESET: &str = "reset";

/// A new device of an existing person (log-in, a link code), with its token's hash.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewDevice {
    pub id: Uuid,
    pub person_id: Uuid,
    pub token_hash: String,
    pub label: String,
    pub at_ms: i64,
    /// Linked by a tournament's director: the tournament it is the person in, only.
    pub tournament_id: Option<Uuid>,
}

/// A change to stored persons and devices (docs/security.md#sessions, docs/accounts.md).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SessionChange {
    /// The device was used at `at_ms` (a request, a socket).
    Seen { device_id: Uuid, at_ms: i64 },
    /// The device's person created, joined or played something at `at_ms`.
    Used {
        device_id: Uuid,
        person_id: Uuid,
        at_ms: i64,
    },
    /// The device signed out, or was signed out: its token is worthless.
    Revoke(Uuid),
    /// Every device of the person but `keep` (none: all of them) signed out.
    RevokeAll { person_id: Uuid, keep: Option<Uuid> },
    /// Devices carried over with no last use count as seen at `now_ms`; devices last seen
    /// before `before_ms`, and unused ones last seen before `unused_before_ms`, are deleted; then guest persons never used and left with no
    /// device, link and relay codes expired at `now_ms`, and devices' marks older than
    /// [`KNOWN_DEVICE_DAYS`].
    Expire {
        now_ms: i64,
        before_ms: i64,
        unused_before_ms: i64,
    },
    /// Another device of an existing person.
    AddDevice(NewDevice),
    /// The device's token is replaced (log-in, sign-up): the old one is worthless, the
    /// device and its sockets stay.
    Rotate { device_id: Uuid, token_hash: String },
    /// The person's name.
    Rename { person_id: Uuid, name: String },
    /// A person without a device (a player a tournament's director added by name):
    /// counted as used, so that the sweep of unused guests never deletes whom a
    /// tournament names; a device code can give them a device later.
    NewPerson {
        person_id: Uuid,
        name: String,
        at_ms: i64,
    },
    /// A guest person becomes an account. Refused ([`StoreError::NotFound`]) when the
    /// person already is one, and as a conflict when the username's key is taken.
    MakeAccount {
        person_id: Uuid,
        username: String,
        username_key: String,
        password_hash: String,
        recovery_hashes: Vec<String>,
    },
    /// An account's new username (the operator's `omweso admin rename`); the name too
    /// when given. A conflict when the username's key is taken.
    ChangeUsername {
        person_id: Uuid,
        username: String,
        username_key: String,
        name: Option<String>,
    },
    /// An account's new password.
    SetPassword {
        person_id: Uuid,
        password_hash: String,
    },
    /// An account's recovery codes replaced by these.
    SetRecoveryCodes {
        person_id: Uuid,
        recovery_hashes: Vec<String>,
    },
    /// One recovery code used: deleted; [`StoreError::NotFound`] if it was not there (used
    /// meanwhile).
    UseRecoveryCode { person_id: Uuid, code_hash: String },
    /// A new one-time link code.
    AddLinkCode(LinkCodeRow),
    /// A link code used: deleted; [`StoreError::NotFound`] if it was not there or has
    /// expired at `now_ms` (so two devices cannot both use it).
    TakeLinkCode { code_hash: String, now_ms: i64 },
    /// A relay invite's code, written with the invite's log entry.
    AddRelayCode(RelayCodeRow),
    /// A relay invite claimed: its code no longer leads anywhere (none there, no error).
    TakeRelayCode { code_hash: String },
    /// A device logged in to an account: its mark, kept for a year; the person's oldest
    /// marks beyond the newest [`KNOWN_DEVICES_KEPT`] are deleted.
    AddKnownDevice(KnownDeviceRow),
    /// An account disabled at `at_ms` (its devices are signed out with
    /// [`SessionChange::RevokeAll`]), or enabled again (`None`).
    Disable { person_id: Uuid, at_ms: Option<i64> },
    /// An account's e-mail address set (unverified) or removed (`None`); the person's
    /// e-mail codes deleted either way. [`StoreError::NotFound`] for a guest.
    SetEmail {
        person_id: Uuid,
        email: Option<String>,
    },
    /// A new one-time e-mail code.
    AddEmailCode(EmailCodeRow),
    /// An e-mail code used: deleted; [`StoreError::NotFound`] if it was not there, is not
    /// of `purpose`, or has expired at `now_ms` (so it works once).
    TakeEmailCode {
        code_hash: String,
        purpose: String,
        now_ms: i64,
    },
    /// The person's address is verified at `at_ms`, if it is still `email`
    /// ([`StoreError::NotFound`] otherwise: it changed meanwhile).
    EmailVerified {
        person_id: Uuid,
        email: String,
        at_ms: i64,
    },
    /// Every e-mail code of the person for `purpose` deleted (a reset done voids the
    /// other reset links).
    DropEmailCodes { person_id: Uuid, purpose: String },
    /// The person is in the tournament as `role` (`director`, `co-director`, `player`):
    /// for the person's page. Written again, nothing changes.
    InTournament {
        person_id: Uuid,
        tournament_id: Uuid,
        role: String,
        at_ms: i64,
    },
}

/// A game. `status` is one of the protocol's statuses (`setup`, `playing`, `finished`,
/// `annulled`); the store only gives meaning to `finished` and `annulled` (a game in any
/// other status is unfinished and comes back after a restart).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    pub id: Uuid,
    pub ruleset: String,
    pub setup: String,
    pub config_json: String,
    pub south: Option<Uuid>,
    pub north: Option<Uuid>,
    pub creator: Uuid,
    pub status: String,
    pub outcome_json: Option<String>,
    pub created_at_ms: i64,
    pub updated_at_ms: i64,
    /// A finished game's last snapshot, JSON (written with its end; `None` before).
    pub final_json: Option<String>,
    /// What the archive searches by (migration 8).
    pub archive: ArchiveColumns,
}

/// The columns of a game's row that the archive's searches filter on
/// (`migrations/0008_archive.sql`). `finished_at_ms` is `None` exactly while the game is
/// not over; `result`, `victory` and `move_count` are set with it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ArchiveColumns {
    /// The game is rated (its configuration's `rated`).
    pub rated: bool,
    /// The tournament whose game it is (its configuration's `tournament`).
    pub tournament_id: Option<Uuid>,
    /// [`RESULT_SOUTH`], [`RESULT_NORTH`], [`RESULT_DRAW`] or [`RESULT_ANNULLED`].
    pub result: Option<String>,
    /// How it was won (`resigned`, `no-move`...), or why it was annulled; none for a draw.
    pub victory: Option<String>,
    /// When it ended, ms since the epoch.
    pub finished_at_ms: Option<i64>,
    /// Whole moves played (unknown for games that ended before the final snapshot was
    /// kept, migration 2).
    pub move_count: Option<i64>,
}

/// [`ArchiveColumns::result`] of a game South won.
pub const RESULT_SOUTH: &str = "south";
/// [`ArchiveColumns::result`] of a game North won.
pub const RESULT_NORTH: &str = "north";
/// [`ArchiveColumns::result`] of a drawn game.
pub const RESULT_DRAW: &str = "draw";
/// [`ArchiveColumns::result`] of an annulled game.
pub const RESULT_ANNULLED: &str = "annulled";

/// One entry of a game's append-only log. `(game_id, seq)` is unique.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionRow {
    pub game_id: Uuid,
    pub seq: i64,
    pub at_ms: i64,
    pub side: Option<String>,
    pub kind: String,
    pub payload_json: String,
}

/// A tournament. `status` is `open` (taking players), `running` or `finished`; the store
/// only gives meaning to `finished` (a tournament in any other status is unfinished and
/// comes back after a restart). `players` and `round` follow its log, so that listing
/// tournaments reads no log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentRow {
    pub id: Uuid,
    pub name: String,
    pub ruleset: String,
    /// The pairing system (round-robin, Swiss...), as the tournament code spells it.
    pub system: String,
    /// The player who runs it.
    pub director: Uuid,
    pub status: String,
    pub players: i64,
    pub round: i64,
    pub created_at_ms: i64,
    pub updated_at_ms: i64,
}

/// One entry of a tournament's append-only log. `(tournament_id, seq)` is unique.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentEntryRow {
    pub tournament_id: Uuid,
    pub seq: i64,
    pub at_ms: i64,
    pub kind: String,
    pub payload_json: String,
}

/// A rated result (docs/ratings.md): `Write::Rate` adds it to the record of rated
/// results and rates both players from it, in the transaction of the writes beside it (a
/// game's end, a sheet's log entry). A `key` already in the record is a correction: its
/// result is changed in its place and every later rating of its ruleset is recomputed
/// from it, by the computation `omweso admin rerate` runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RatedResult {
    /// The game's id, or the board table's sheet id.
    pub key: Uuid,
    pub ruleset: Ruleset,
    pub south: Uuid,
    pub north: Uuid,
    /// `None`: not counted (a result annulled by a correction).
    pub score: Option<Score>,
    /// When it was played (the inactivity before it grows the players' deviations).
    pub at_ms: i64,
}

/// One change to the database. [`Store::write`](super::Store::write) applies a list of them
/// in one transaction; the [`Writer`](super::Writer) commits many lists together.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Write {
    /// The transaction is this node's writes under `Lease` (docs/scaling.md#leases-and-fencing):
    /// checked before every other write of the transaction, which is refused as a whole
    /// ([`StoreError::Fenced`]) unless the `leases` row of its kind and id still has exactly
    /// its node and epoch. On PostgreSQL the row stays locked (shared) until the commit, so
    /// a takeover cannot commit in between.
    Fence(Lease),
    /// A new guest person with its first device
    /// ([`Store::insert_session`](super::Store::insert_session)).
    InsertSession(SessionRow),
    /// A device seen, used, added, revoked; a person renamed, made an account...
    Session(SessionChange),
    /// A new game ([`Store::insert_game`](super::Store::insert_game)).
    InsertGame(GameRow),
    /// A game's seats, status or outcome changed ([`Store::update_game`](super::Store::update_game)).
    UpdateGame(GameRow),
    /// The next entry of a game's log ([`Store::append_actions`](super::Store::append_actions)).
    AppendAction(ActionRow),
    /// A game nobody started in time, with its log (docs/security.md, open games).
    DeleteGame(Uuid),
    /// A new tournament ([`Store::insert_tournament`](super::Store::insert_tournament)).
    InsertTournament(TournamentRow),
    /// A tournament's name, status, players, round... changed
    /// ([`Store::update_tournament`](super::Store::update_tournament)).
    UpdateTournament(TournamentRow),
    /// The next entry of a tournament's log
    /// ([`Store::append_tournament_entries`](super::Store::append_tournament_entries)).
    AppendTournamentEntry(TournamentEntryRow),
    /// A tournament that never started a round in time, with its log (docs/security.md,
    /// open tournaments). Its games: none, since no round started.
    DeleteTournament(Uuid),
    /// A rated result, new or corrected ([`RatedResult`]). Refused
    /// ([`StoreError::Invalid`]) when its two players are one person, or when a correction
    /// names another ruleset than the result it corrects.
    Rate(RatedResult),
    /// Every rating of the ruleset recomputed from the record's first result (the
    /// operator's `omweso admin rerate`): the path a correction takes, from the start.
    Rerate(Ruleset),
    /// The next step of the ruleset's re-rating under way, if any (the writer runs them
    /// between other transactions until none is left; docs/ratings.md#corrections).
    RerateStep(Ruleset),
}

/// A transaction's writes sorted by kind, in the order they are applied:
///
/// 0. fences (each distinct lease checked once, before anything is written: a fenced
///    transaction writes nothing, and on PostgreSQL holds the lease rows until it ends),
/// 1. sessions (new ones, then changes to them in the order given),
/// 2. new games,
/// 3. new tournaments,
/// 4. game log entries,
/// 5. tournament log entries,
/// 6. game updates,
/// 7. tournament updates,
/// 8. rated results, in the order given,
/// 9. deletions.
///
/// So a game or a tournament created in the same transaction is there before its log and
/// its updates, whatever order the callers' writes came in (the [`Writer`](super::Writer)
/// merges many callers' writes, and no write ever depends on a later one): every insert
/// comes before anything that names its row, and a deletion comes last, so that it
/// removes whatever the same transaction wrote of its game. Tournaments come after games
/// only by convention: neither refers to the other in the schema. Both write paths
/// (sqlx, and the SQLite file's own connection) apply this.
pub(crate) struct ByKind<'a> {
    /// The distinct leases of the [`Write::Fence`]s, in the order first given.
    pub fences: Vec<&'a Lease>,
    pub sessions: Vec<&'a SessionRow>,
    pub session_changes: Vec<&'a SessionChange>,
    pub games: Vec<&'a GameRow>,
    pub tournaments: Vec<&'a TournamentRow>,
    pub actions: Vec<&'a ActionRow>,
    pub tournament_entries: Vec<&'a TournamentEntryRow>,
    pub game_updates: Vec<&'a GameRow>,
    pub tournament_updates: Vec<&'a TournamentRow>,
    /// [`Write::Rate`]s and [`Write::Rerate`]s, in the order given.
    pub rates: Vec<&'a Write>,
    pub deletions: Vec<Uuid>,
    pub tournament_deletions: Vec<Uuid>,
}

impl<'a> ByKind<'a> {
    pub(crate) fn of(writes: &'a [Write]) -> ByKind<'a> {
        let mut by_kind = ByKind {
            fences: Vec::new(),
            sessions: Vec::new(),
            session_changes: Vec::new(),
            games: Vec::new(),
            tournaments: Vec::new(),
            // Game log entries are nearly every write (the moves).
            actions: Vec::with_capacity(writes.len()),
            tournament_entries: Vec::new(),
            game_updates: Vec::new(),
            tournament_updates: Vec::new(),
            rates: Vec::new(),
            deletions: Vec::new(),
            tournament_deletions: Vec::new(),
        };
        let mut fenced = std::collections::HashSet::new();
        for write in writes {
            match write {
                // A group of many callers of one game names its lease once per caller:
                // checked once.
                Write::Fence(lease) => {
                    if fenced.insert(lease) {
                        by_kind.fences.push(lease);
                    }
                }
                Write::InsertSession(s) => by_kind.sessions.push(s),
                Write::Session(change) => by_kind.session_changes.push(change),
                Write::InsertGame(g) => by_kind.games.push(g),
                Write::InsertTournament(t) => by_kind.tournaments.push(t),
                Write::AppendAction(a) => by_kind.actions.push(a),
                Write::AppendTournamentEntry(e) => by_kind.tournament_entries.push(e),
                Write::UpdateGame(g) => by_kind.game_updates.push(g),
                Write::UpdateTournament(t) => by_kind.tournament_updates.push(t),
                Write::DeleteGame(id) => by_kind.deletions.push(*id),
                Write::DeleteTournament(id) => by_kind.tournament_deletions.push(*id),
                Write::Rate(_) | Write::Rerate(_) | Write::RerateStep(_) => {
                    by_kind.rates.push(write);
                }
            }
        }
        by_kind
    }
}

/// Typed, fallible access to a row's columns, the same for both backends.
pub(crate) trait RowExt {
    fn text(&self, table: &str, column: &str) -> Result<String, StoreError>;
    fn opt_text(&self, table: &str, column: &str) -> Result<Option<String>, StoreError>;
    fn int(&self, table: &str, column: &str) -> Result<i64, StoreError>;
    fn opt_int(&self, table: &str, column: &str) -> Result<Option<i64>, StoreError>;
    fn float(&self, table: &str, column: &str) -> Result<f64, StoreError>;

    fn uuid(&self, table: &str, column: &str) -> Result<Uuid, StoreError> {
        let text = self.text(table, column)?;
        parse_uuid(&text, table, column)
    }

    fn opt_uuid(&self, table: &str, column: &str) -> Result<Option<Uuid>, StoreError> {
        match self.opt_text(table, column)? {
            Some(text) => parse_uuid(&text, table, column).map(Some),
            None => Ok(None),
        }
    }
}

fn parse_uuid(text: &str, table: &str, column: &str) -> Result<Uuid, StoreError> {
    Uuid::parse_str(text)
        .map_err(|e| StoreError::Corrupt(format!("{table}.{column}: {text:?} is not a UUID: {e}")))
}

fn corrupt(table: &str, column: &str, e: sqlx::Error) -> StoreError {
    StoreError::Corrupt(format!("{table}.{column}: {e}"))
}

macro_rules! impl_row_ext {
    ($($row:ty),*) => {$(
        impl RowExt for $row {
            fn text(&self, table: &str, column: &str) -> Result<String, StoreError> {
                self.try_get::<String, _>(column).map_err(|e| corrupt(table, column, e))
            }
            fn opt_text(&self, table: &str, column: &str) -> Result<Option<String>, StoreError> {
                self.try_get::<Option<String>, _>(column).map_err(|e| corrupt(table, column, e))
            }
            fn int(&self, table: &str, column: &str) -> Result<i64, StoreError> {
                self.try_get::<i64, _>(column).map_err(|e| corrupt(table, column, e))
            }
            fn opt_int(&self, table: &str, column: &str) -> Result<Option<i64>, StoreError> {
                self.try_get::<Option<i64>, _>(column).map_err(|e| corrupt(table, column, e))
            }
            fn float(&self, table: &str, column: &str) -> Result<f64, StoreError> {
                self.try_get::<f64, _>(column).map_err(|e| corrupt(table, column, e))
            }
        }
    )*};
}

impl_row_ext!(SqliteRow, PgRow);

impl SessionRow {
    pub(crate) fn from_row(row: &impl RowExt) -> Result<Self, StoreError> {
        const T: &str = "devices";
        Ok(SessionRow {
            player_id: row.uuid(T, "person_id")?,
            device_id: row.uuid(T, "id")?,
            token_hash: row.text(T, "token_hash")?,
            name: row.text(T, "name")?,
            username: row.opt_text(T, "username")?,
            label: row.text(T, "label")?,
            created_at_ms: row.int(T, "created_at_ms")?,
            last_seen_ms: row.int(T, "last_seen_ms")?,
            used: row.int(T, "used")? != 0,
            tournament_id: row.opt_uuid(T, "tournament_id")?,
        })
    }
}

impl PersonRow {
    pub(crate) fn from_row(row: &impl RowExt) -> Result<Self, StoreError> {
        const T: &str = "persons";
        Ok(PersonRow {
            id: row.uuid(T, "id")?,
            name: row.text(T, "name")?,
            username: row.opt_text(T, "username")?,
            password_hash: row.opt_text(T, "password_hash")?,
            created_at_ms: row.int(T, "created_at_ms")?,
            disabled_at_ms: row.opt_int(T, "disabled_at_ms")?,
            email: row.opt_text(T, "email")?,
            email_verified_at_ms: row.opt_int(T, "email_verified_at_ms")?,
        })
    }
}

impl DeviceRow {
    pub(crate) fn from_row(row: &impl RowExt) -> Result<Self, StoreError> {
        const T: &str = "devices";
        Ok(DeviceRow {
            id: row.uuid(T, "id")?,
            person_id: row.uuid(T, "person_id")?,
            label: row.text(T, "label")?,
            created_at_ms: row.int(T, "created_at_ms")?,
            last_seen_ms: row.int(T, "last_seen_ms")?,
            tournament_id: row.opt_uuid(T, "tournament_id")?,
        })
    }
}

impl LinkCodeRow {
    pub(crate) fn from_row(row: &impl RowExt) -> Result<Self, StoreError> {
        const T: &str = "link_codes";
        Ok(LinkCodeRow {
            code_hash: row.text(T, "code_hash")?,
            person_id: row.uuid(T, "person_id")?,
            made_by: row.uuid(T, "made_by")?,
            expires_at_ms: row.int(T, "expires_at_ms")?,
            tournament_id: row.opt_uuid(T, "tournament_id")?,
        })
    }
}

impl RelayCodeRow {
    pub(crate) fn from_row(row: &impl RowExt) -> Result<Self, StoreError> {
        const T: &str = "relay_codes";
        let number = |column: &str| -> Result<u32, StoreError> {
            let n = row.int(T, column)?;
            u32::try_from(n)
                .map_err(|_| StoreError::Corrupt(format!("{T}.{column}: {n} is not a number")))
        };
        Ok(RelayCodeRow {
            code_hash: row.text(T, "code_hash")?,
            tournament_id: row.uuid(T, "tournament_id")?,
            round: number("round_no")?,
            table: number("table_no")?,
            expires_at_ms: row.int(T, "expires_at_ms")?,
        })
    }
}

impl EmailCodeRow {
    pub(crate) fn from_row(row: &impl RowExt) -> Result<Self, StoreError> {
        const T: &str = "email_codes";
        Ok(EmailCodeRow {
            code_hash: row.text(T, "code_hash")?,
            person_id: row.uuid(T, "person_id")?,
            purpose: row.text(T, "purpose")?,
            email: row.text(T, "email")?,
            expires_at_ms: row.int(T, "expires_at_ms")?,
        })
    }
}

impl GameRow {
    pub(crate) fn from_row(row: &impl RowExt) -> Result<Self, StoreError> {
        const T: &str = "games";
        Ok(GameRow {
            id: row.uuid(T, "id")?,
            ruleset: row.text(T, "ruleset")?,
            setup: row.text(T, "setup")?,
            config_json: row.text(T, "config_json")?,
            south: row.opt_uuid(T, "south")?,
            north: row.opt_uuid(T, "north")?,
            creator: row.uuid(T, "creator")?,
            status: row.text(T, "status")?,
            outcome_json: row.opt_text(T, "outcome_json")?,
            created_at_ms: row.int(T, "created_at_ms")?,
            updated_at_ms: row.int(T, "updated_at_ms")?,
            final_json: row.opt_text(T, "final_json")?,
            archive: ArchiveColumns {
                rated: row.int(T, "rated")? != 0,
                tournament_id: row.opt_uuid(T, "tournament_id")?,
                result: row.opt_text(T, "result")?,
                victory: row.opt_text(T, "victory")?,
                finished_at_ms: row.opt_int(T, "finished_at_ms")?,
                move_count: row.opt_int(T, "move_count")?,
            },
        })
    }
}

impl ActionRow {
    pub(crate) fn from_row(row: &impl RowExt) -> Result<Self, StoreError> {
        const T: &str = "actions";
        Ok(ActionRow {
            game_id: row.uuid(T, "game_id")?,
            seq: row.int(T, "seq")?,
            at_ms: row.int(T, "at_ms")?,
            side: row.opt_text(T, "side")?,
            kind: row.text(T, "kind")?,
            payload_json: row.text(T, "payload_json")?,
        })
    }
}

impl TournamentRow {
    pub(crate) fn from_row(row: &impl RowExt) -> Result<Self, StoreError> {
        const T: &str = "tournaments";
        Ok(TournamentRow {
            id: row.uuid(T, "id")?,
            name: row.text(T, "name")?,
            ruleset: row.text(T, "ruleset")?,
            system: row.text(T, "system")?,
            director: row.uuid(T, "director")?,
            status: row.text(T, "status")?,
            players: row.int(T, "players")?,
            round: row.int(T, "round")?,
            created_at_ms: row.int(T, "created_at_ms")?,
            updated_at_ms: row.int(T, "updated_at_ms")?,
        })
    }
}

impl TournamentEntryRow {
    pub(crate) fn from_row(row: &impl RowExt) -> Result<Self, StoreError> {
        const T: &str = "tournament_log";
        Ok(TournamentEntryRow {
            tournament_id: row.uuid(T, "tournament_id")?,
            seq: row.int(T, "seq")?,
            at_ms: row.int(T, "at_ms")?,
            kind: row.text(T, "kind")?,
            payload_json: row.text(T, "payload_json")?,
        })
    }
}
