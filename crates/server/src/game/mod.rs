//! A game: the task that owns it, its routes and socket, the computer player. Its rules
//! state, referee and log (the [`table::Table`]) are the pure `omweso-table` crate,
//! named here as they are used.

pub mod actor;
pub mod api;
pub mod archive_columns;
pub mod computer;
pub mod extract;
pub mod impasse_answer;
pub mod news;
pub mod registry;
pub mod socket;

pub use omweso_table::{decision_results, laps, legal, log, table};
