//! Tournaments (docs/rules.md#5-tournaments): Swiss and round-robin events run by a director.
//!
//! The pure parts are the `omweso-tournament` crate, named here as they are used:
//! `settings`, `berger` and `pairing`, `sheet`, `standings`, `log`, `state`, `board`,
//! `export`, `admission`, `ruleset_results`. Here are the live parts: `actor` (one task per
//! tournament, owning its state, its round clock and its socket connections, creating the
//! games of a round through the game registry and hearing their ends), `registry`
//! (tournaments by id, loaded from their logs), `stored` (a stored entry read back),
//! `pairing_worker` (pairings computed off the async workers), and the routes and socket:
//! `api`, `people_api`, `otb_api`, `relay_codes`, `socket`, `extract`; `for_people` and
//! `for_archive` (what the people's routes and the archive ask of the tournaments).

pub mod actor;
pub mod api;
pub mod extract;
pub mod for_archive;
pub mod for_people;
pub mod otb_api;
pub mod pairing_worker;
pub mod people_api;
pub mod registry;
pub mod relay_codes;
pub mod socket;
pub mod stored;

pub use omweso_tournament::{
    admission, berger, board, export, log, pairing, ruleset_results, settings, sheet, standings,
    state,
};
