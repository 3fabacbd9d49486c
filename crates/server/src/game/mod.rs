//! A game: its configuration, its rules state and referee (the [`table::Table`]), and the
//! task that owns it.

pub mod actor;
pub mod computer;
pub mod decision_results;
pub mod impasse_answer;
pub mod laps;
pub mod legal;
pub mod lobby;
pub mod log;
pub mod news;
pub mod registry;
pub mod table;
