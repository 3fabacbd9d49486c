//! The HTTP layer: everything between the public port and a resource's handler.
//!
//! - [`accept`]: the accept loop (header and idle timeouts, connections per address).
//! - [`edge`]: what every request passes through (time limit, Origin and content-type
//!   checks, security headers, JSON errors).
//! - [`limits`] and [`address`]: the counters and rates the limits use, and what they
//!   count a client by (an IPv6 client by its /64).
//! - [`error`]: the API's error type.
//! - [`extract`]: what a request names, read once for every handler: its session, the
//!   game or tournament of its path, its JSON body, its client's address.
//! - One module per resource: [`accounts`] (`/api/session`, `/api/me`, `/api/account`,
//!   `/api/login`, `/api/devices`, `/api/link-codes`, `/api/link`: persons and their
//!   devices, over `crate::session`), [`email`] (`/api/account/email`,
//!   `/api/login/email-reset`: an account's address and reset by mail), [`people`] (`/api/players`, `/api/me/games`), [`ratings`] (rating histories, leaderboards),
//!   [`archive`] (`/api/archive`: finished games searched),
//!   [`games`] (`/api/games`), [`tournaments`] (`/api/tournaments`), [`analysis`]
//!   (`/api/analysis`: the analysis board's calls, over the service in `crate::analysis`).

pub mod accept;
pub mod accounts;
pub mod address;
pub mod analysis;
pub mod archive;
pub mod board_tables;
pub mod edge;
pub mod email;
pub mod error;
pub mod extract;
pub mod game_exports;
pub mod games;
pub mod limits;
pub mod people;
pub mod ratings;
pub mod tournament_people;
pub mod tournaments;
