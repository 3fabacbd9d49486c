//! Tournaments (docs/rules.md#5-tournaments), pure: Swiss and round-robin events run by a
//! director, as a state machine over an append-only log. No clock read, no I/O: the
//! server's `tournament` module owns one per task, stores its entries and serves it.
//!
//! - [`settings`]: what the director chose, checked;
//! - [`berger`] and [`pairing`]: who meets whom (round-robin tables; the Swiss pairing
//!   with its rules checked and explained);
//! - [`sheet`]: score sheets; [`standings`]: points and tiebreaks;
//! - [`log`]: the entries; [`state`]: the tournament as a state machine over them;
//! - [`board`]: a table played over the board (its entries, initials, a relay's proposal);
//! - [`export`]: CSV and TRF; [`admission`]: the limits checked on a request, not on
//!   replay; [`ruleset_results`]: the results each ruleset knows.
//!
//! It depends on the rules, the protocol's types, the game table's seat, ratings'
//! arithmetic and people's names only: Cargo keeps it from the store, HTTP and the async
//! runtime (time comes in with each entry; nothing here reads a clock).

pub mod admission;
pub mod berger;
pub mod board;
pub mod export;
pub mod log;
pub mod pairing;
pub mod ruleset_results;
pub mod settings;
pub mod sheet;
pub mod standings;
pub mod state;
