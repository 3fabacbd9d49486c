//! Ratings (docs/rules.md#6-ratings, docs/ratings.md): the arithmetic (Glicko-2, the
//! record replayed, the games too short to rate) is the `omweso-ratings` crate, named here
//! as it is used; this module serves them (`api`: a player's ratings and history, the
//! leaderboards).
//!
//! The store keeps the record (`rated_results`), each result's effect (`rating_history`)
//! and the current ratings (`ratings`), and applies a
//! [`Write::Rate`](crate::store::Write::Rate) in the transaction of the writes beside it;
//! the ratings' reads of it are here (`store`: a player's ratings and history, a game's
//! changes, the leaderboards, the whole record for `omweso admin rerate`).

pub mod api;
pub mod store;

pub use omweso_ratings::{glicko, rating, record, too_short};
pub use omweso_ratings::{replay, Change, Glicko, Played, Rating, Score};
