//! The one error type of the persistence layer.

use uuid::Uuid;

use crate::store::lease::LeaseKind;

/// Everything that can go wrong in [`Store`](super::Store) and
/// [`Writer`](super::Writer).
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database refused or failed a query (including a duplicate key: see
    /// [`StoreError::is_conflict`]).
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),

    /// The SQLite file's write connection refused or failed a statement (it does not go
    /// through sqlx: see `sqlite_writes.rs`). A duplicate key is [`StoreError::is_conflict`]
    /// here too.
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),

    /// Applying the migrations failed (or an applied migration was modified).
    #[error("database migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),

    /// The database was migrated by a newer server; this one must not touch it.
    #[error(
        "the database schema is at version {found}, newer than this server understands ({known}); upgrade the server"
    )]
    TooNew {
        /// The newest migration applied to the database.
        found: i64,
        /// The newest migration this server embeds.
        known: i64,
    },

    /// The database works in a way the store cannot use (an SQLite file that will not
    /// switch to WAL mode, say); the message says what.
    #[error("the database cannot be used: {0}")]
    Unsupported(String),

    /// A thread the store needs (an SQLite file's checkpointer) could not be started.
    #[error("cannot start a database thread: {0}")]
    Thread(std::io::Error),

    /// The database URL is not one [`Store::open`](super::Store::open) accepts; the message
    /// says why (without repeating a PostgreSQL URL, which may hold a password).
    #[error("bad database URL: {0}")]
    BadUrl(String),

    /// The [`Writer`](super::Writer) task has ended (shut down, or every handle dropped),
    /// or the [`Store`](super::Store) was closed, so nothing was written.
    #[error("the database writer has shut down")]
    Closed,

    /// A stored value that cannot be decoded; the message names the table and column.
    #[error("corrupt row: {0}")]
    Corrupt(String),

    /// [`Store::update_game`](super::Store::update_game) (or a [`Write::UpdateGame`](super::Write::UpdateGame))
    /// found no game with that id, or [`Store::update_tournament`](super::Store::update_tournament)
    /// (a [`Write::UpdateTournament`](super::Write::UpdateTournament)) no tournament.
    #[error("not found: {0}")]
    NotFound(String),

    /// A transaction's [`Write::Fence`](super::Write::Fence) named a lease that is no longer
    /// current: the `leases` row of `kind` `id` no longer has this node and `epoch` (another
    /// node took it over, or it was released). Nothing of the transaction was written.
    #[error(
        "{kind} {id}: this node's lease (epoch {epoch}) was taken over; its writes are refused"
    )]
    Fenced {
        kind: LeaseKind,
        id: Uuid,
        /// The epoch the refused writes were made under.
        epoch: i64,
    },

    /// [`Store::claim`](super::Store::claim) lost the lease row to other claims again and
    /// again (each time another node changed it between this claim's read and its
    /// compare-and-set), `attempts` times; nothing was changed by this claim.
    #[error("{kind} {id}: the lease changed hands {attempts} times while this node claimed it; try again")]
    Contended {
        kind: LeaseKind,
        id: Uuid,
        attempts: u32,
    },

    /// A write that cannot be applied as given (a [`Write::Rate`](super::Write::Rate)
    /// whose two players are one person, say); the message says what is wrong.
    #[error("invalid write: {0}")]
    Invalid(String),
}

impl StoreError {
    /// True when the database refused a row because its key is already taken: a second
    /// action with the same `(game_id, seq)` or log entry with the same
    /// `(tournament_id, seq)`, a session token hash or id seen before, a game or
    /// tournament id reused.
    pub fn is_conflict(&self) -> bool {
        match self {
            StoreError::Database(sqlx::Error::Database(e)) => e.is_unique_violation(),
            StoreError::Sqlite(rusqlite::Error::SqliteFailure(e, _)) => matches!(
                e.extended_code,
                rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY
                    | rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE
            ),
            _ => false,
        }
    }
}
