//! Tournaments (docs/rules.md#5-tournaments): Swiss and round-robin events run by a director.
//!
//! The pure parts, no I/O: `settings` (what the director chose), `berger` and `pairing`
//! (who meets whom), `sheet` (score sheets), `standings` (points and tiebreaks), `log`
//! (the append-only entries) and `state` (the tournament as a state machine over them),
//! `board` (a table played over the board: its entries, initials and relay's proposal),
//! `export` (CSV and TRF), `admission` (the limits checked on a request, not on replay). Then the live parts: `actor` (one task per tournament, owning
//! its state, its round clock and its socket connections, creating the games of a round
//! through the game registry and hearing their ends) and `registry` (tournaments by id,
//! loaded from their logs).

pub mod actor;
pub mod admission;
pub mod berger;
pub mod board;
pub mod export;
pub mod log;
pub mod pairing;
pub mod pairing_worker;
pub mod registry;
pub mod settings;
pub mod sheet;
pub mod standings;
pub mod state;
