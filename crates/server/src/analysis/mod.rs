//! The analysis board's service (its HTTP calls are `crate::analysis::api`; docs/
//! protocol.md "Analysis"): stateless and read-only. Each call takes a position (typed in,
//! or read from a game's history by the page) and answers what the rules or the engine say
//! of it; no game is asked or touched, so a spectator analysing a running game cannot
//! disturb it. `position` reads a position and lists its moves, `play` plays one out
//! (both run on the games' engine pool: bounded work, the listing's and the sowing
//! budget's caps), `search` checks a search's request, and [`service::Analysis`] runs
//! searches on threads of their own, bounded per session and in all.
//!
//! The service knows nothing of HTTP or of the server's shared state: `AppState` holds an
//! [`Analysis`], and the handlers take both (a service below its handlers, no cycle).

pub mod api;
pub mod play;
pub mod position;
pub mod search;
pub mod service;

pub use service::Analysis;

/// A refused analysis: the one refusal type of every domain (`omweso_protocol::refusal`), under the name
/// this module's files use.
pub use omweso_protocol::refusal::Refusal as Refused;
