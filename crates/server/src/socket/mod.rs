//! The socket layer, one module per job:
//!
//! - [`connection`]: the transport every socket kind shares: the writer (batched flushes,
//!   pings, write timeouts, the slow client dropped), the ping-only reader, rate and frame
//!   limits, close codes.
//! - [`upgrade`]: what each kind's upgrade does before its socket opens (origin, token,
//!   `?v=`, the per-address and per-session places, the frame limits).
//! - [`room`]: runs a socket watching a room (a game's or a tournament's): connect, the
//!   writer, the kind's reader, disconnect.
//! - One module per kind: [`game`] (`GET /ws/games/{id}`: its reader forwards each frame to
//!   the game's task), [`tournament`] (`GET /ws/tournaments/{id}`), [`lobby`]
//!   (`GET /ws/lobby`).
//! - [`remote`]: runs a socket watching a room another node holds (docs/scaling.md).

pub mod connection;
pub mod rate;
pub mod remote;
pub mod room;
pub mod room_upgrade;
pub mod upgrade;
