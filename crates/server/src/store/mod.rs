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
//! `writer` ([`Writer`], group commit of every write), `sql` (every statement's text),
//! `migrations` (the embedded migrations), `token` ([`hash_token`]), `rated` (a
//! [`Write::Rate`] applied in a transaction) and `rating_sql` (its statements),
//! `lease_sql` (the statements of nodes' heartbeats, leases and [`Write::Fence`]; the
//! methods are in `db/leases.rs`).

mod archive_sql;
mod checkpointer;
mod connect;
pub mod db;
pub mod error;
mod lease_sql;
mod migrations;
mod params;
mod rated;
mod rating_sql;
pub mod rows;
mod sql;
mod sqlite_writes;
mod token;
pub mod writer;

pub use archive_sql::{ArchiveSearch, ResultFilter, WINDOW as ARCHIVE_WINDOW};
pub use db::{
    ArchiveEntry, ArchiveFound, ArchiveKey, LeaderLine, PersonGame, PersonTournament, RatingTables,
    RerateReport, ResultCounts, Store,
};
pub use error::StoreError;
pub use rows::{
    ActionRow, ArchiveColumns, DeviceRow, EmailCodeRow, GameRow, LinkCodeRow, NewDevice, PersonRow,
    RatedResult, Score, SessionChange, SessionRow, TournamentEntryRow, TournamentRow, Write,
    EMAIL_RESET, EMAIL_VERIFY, RESULT_ANNULLED, RESULT_DRAW, RESULT_NORTH, RESULT_SOUTH,
};
pub use token::hash_token;
pub use writer::{CommitDelay, Writer, MAX_BATCH};
