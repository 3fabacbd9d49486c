//! The socket layer: [`connection`] runs one WebSocket as a reader and a writer task (the
//! transport every socket kind shares: batched flushes, pings, write timeouts, frame and
//! rate limits) and serves a game's socket (`GET /ws/games/{id}`); [`tournament`]
//! (`GET /ws/tournaments/{id}`) and [`lobby`] (`GET /ws/lobby`) are the other kinds.
//! [`room`] runs a socket watching a room (a game's or a tournament's), [`upgrade`] is what each kind's upgrade does before its socket opens (origin, token,
//! `?v=`, the per-address and per-session places, the frame limits).

pub mod connection;
pub mod lobby;
pub mod room;
pub mod tournament;
pub mod upgrade;
