//! The computer player: given a game and a side, the move it would play.
//!
//! - [`best_move`] searches a [`Query`] (the game, who plays, the sowing budget, how long
//!   to think as a [`Limit`], and a seed) and answers [`Found`]: a legal whole move with
//!   its decision answers, its score for the mover in [-1, 1], the principal line, and
//!   how much was searched. The same query with the same seed gives the same answer
//!   unless the limit is wall-clock time ([`Limit::Millis`]).
//! - [`Level`] is one of eight fixed strengths (1 a beginner, 8 the strongest the server
//!   affords in about a second a move on one core), each documented in `docs/bots.md`.
//! - [`arrange`] chooses an Omweso free-setup arrangement (docs/rules.md#11-setup) by searching the
//!   first moves of the games candidate arrangements start, per level, from a seed.
//! - A search stops early when its `stop` flag is raised, answering the best move found
//!   so far: the server cancels a bot's search when its game ends.
//!
//! The crate does no I/O and starts no threads: callers decide where a search runs (the
//! server on a bounded blocking pool, `omweso arena` on the machine's cores).
#![forbid(unsafe_code)]
#![warn(missing_debug_implementations)]

mod alphabeta;
pub mod arrange;
mod children;
pub mod duel;
pub mod eval;
mod level;
mod mcts;
mod player;
mod query;
mod search;
mod tt;

pub use arrange::{arrange, random_arrangement, ArrangeQuery, Arranged};
pub use level::{Level, ParseLevelError, Strength};
pub use player::{ParsePlayerError, Player};
pub use query::{Found, Limit, Query, SearchError};
pub use search::{best_move, MAX_MILLIS};
