//! Ratings (docs/rules.md#6-ratings, docs/ratings.md): Glicko-2 per ruleset with
//! lichess's parameters, derived from the record of rated results.
//!
//! - [`glicko`]: the arithmetic (one game's update, the growth with inactivity) and
//!   [`Score`];
//! - [`rating`]: [`Rating`], a player's stored rating, and how it is shown at a moment;
//! - [`record`]: the record replayed into ratings ([`replay`]), the one computation behind
//!   a game's end, a correction and `omweso admin rerate`;
//! - [`too_short`]: the games given up too soon to be rated.
//!
//! Arithmetic only, on the rules' and the protocol's types: the server's `ratings` module
//! keeps the record in the store (`rated_results`, `rating_history`, `ratings`) and
//! serves the pages and leaderboards.

pub mod glicko;
pub mod rating;
pub mod record;
pub mod too_short;

pub use glicko::{Glicko, Score};
pub use rating::Rating;
pub use record::{replay, Change, Played};
