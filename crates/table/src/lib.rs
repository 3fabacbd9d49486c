//! One game, pure: the [`table::Table`] (its rules state and the referee's clocks, every
//! change an action with its time, every result versioned events), its action [`log`]
//! and how a game is rebuilt from it, what each player may do now ([`legal`]), the laps a
//! turn's event carries ([`laps`]) and what each option of a decision does
//! ([`decision_results`]).
//!
//! It depends on the rules and the protocol's types only: no store, no HTTP, no async
//! runtime, so that Cargo, not a convention, keeps the game's logic apart from the server
//! that runs it (the server's `game` module owns the task, the routes and the socket).
//! Time comes in with each action; nothing here reads a clock.

pub mod decision_results;
pub mod laps;
pub mod legal;
pub mod log;
pub mod table;
