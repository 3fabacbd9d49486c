//! The HTTP layer's infrastructure: everything between the public port and a concern's
//! handler, naming no concern's routes (those are each concern's `api`, put together in
//! `server::router`).
//!
//! - [`accept`]: the accept loop (header and idle timeouts, connections per address).
//! - [`edge`]: what every request passes through (time limit, Origin and content-type
//!   checks, security headers, JSON errors); [`edge_state`]: what it reads of the
//!   server's state (settings, limiters, the body budget), a trait the server's state
//!   implements, so that this layer names no concern's handle.
//! - [`limits`] and [`failures`]: the counters, rates and failure counts the limits use
//!   (a client counted by `crate::address`); [`codes`] the limits on one-time codes tried;
//!   [`body_budget`] the bytes of bodies being received; [`write_stall`] answers nobody
//!   reads.
//! - [`error`]: the API's error type; [`token`]: the session token a request carries.
//! - [`extract`]: what a request names that is no concern's own: an id as the server
//!   writes it, the JSON body, the client's address (each concern's own extractors sit
//!   beside its routes: `people::extract`, `game::extract`, `tournament::extract`).

pub mod accept;
pub mod body_budget;
pub mod codes;
pub mod edge;
pub mod edge_state;
pub mod error;
pub mod extract;
pub mod failures;
pub mod limits;
pub mod token;
pub mod write_stall;
