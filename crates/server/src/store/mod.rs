//! Persistence: persons and their devices, games, every game's action log, and results; tournaments and
//! every tournament's log.
//!
//! One schema (the SQL files of `migrations/` at the top of the repository, portable
//! between the two databases) and one API over SQLite or PostgreSQL, picked by the URL
//! given to [`Store::open`]. A move is durable before it is acknowledged: append it with
//! [`Writer::append`] (or [`Store::append_actions`]) and acknowledge it once that
//! returns; after a restart, [`Store::unfinished_games`] and [`Store::actions`] give back
//! every unfinished game and its log. Tournaments are kept the same way: a row
//! ([`TournamentRow`]: name, status, players, round) and an append-only log
//! ([`TournamentEntryRow`], written with [`Write::AppendTournamentEntry`]), given back by
//! [`Store::unfinished_tournaments`] and [`Store::tournament_log`]. Every write of either
//! is a [`Write`], so a game and the tournament entry that pairs it can be committed in one
//! transaction.
//!
//! Files: `error` ([`StoreError`]), `rows` (the rows read and written), `db` ([`Store`]),
//! `writer` ([`Writer`], group commit of every write), `sql` (the statements of the writes
//! and of the reads kept here; the archive's are in `archive/sql.rs`), `migrations` (the
//! embedded migrations), `rated` (a
//! [`Write::Rate`] applied in a transaction) and `rating_sql` (its statements),
//! `lease` (a node's lease on a game or a tournament: the fence its writes carry,
//! docs/scaling.md#leases-and-fencing), `lease_sql` (the statements of nodes' heartbeats,
//! leases and [`Write::Fence`]; the methods are in `db/leases.rs`).

mod checkpointer;
mod connect;
pub mod db;
pub mod error;
pub mod lease;
mod lease_sql;
mod migrations;
pub(crate) mod params;
pub(crate) mod rated;
pub(crate) mod rated_sqlx;
pub(crate) mod rating_sql;
pub mod rows;
pub(crate) mod sql;
mod sqlite_writes;
pub mod writer;

pub use db::Store;
pub use error::StoreError;
pub use omweso_people::hash_token;
pub use rows::{
    ActionRow, ArchiveColumns, DeviceRow, EmailCodeRow, GameRow, KnownDeviceRow, LinkCodeRow,
    NewDevice, PersonRow, RatedResult, RelayCodeRow, Score, SessionChange, SessionRow,
    TournamentEntryRow, TournamentRow, Write, EMAIL_RESET, EMAIL_VERIFY, RESULT_ANNULLED,
    RESULT_DRAW, RESULT_NORTH, RESULT_SOUTH,
};
pub use writer::{CommitDelay, Writer, MAX_BATCH};
