//! Ratings (docs/rules.md#6-ratings, docs/ratings.md): Glicko-2 per ruleset with
//! lichess's parameters, derived from the record of rated results.
//!
//! - `glicko`: the arithmetic (one game's update, the growth with inactivity) and
//!   [`Score`];
//! - `rating`: [`Rating`], a player's stored rating, and how it is shown at a moment;
//! - `record`: the record replayed into ratings ([`replay`]), the one computation behind
//!   a game's end, a correction and `omweso admin rerate`.
//!
//! The store keeps the record (`rated_results`), each result's effect (`rating_history`)
//! and the current ratings (`ratings`), and applies a
//! [`Write::Rate`](crate::store::Write::Rate) in the transaction of the writes beside it.

pub mod glicko;
pub mod rating;
pub mod record;

pub use glicko::{Glicko, Score};
pub use rating::Rating;
pub use record::{replay, Change, Played};
