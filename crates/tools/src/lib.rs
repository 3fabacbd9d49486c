//! Omweso online's tools, the `omweso` subcommands other than `serve`. They depend on the
//! rules, the computer player and the wire protocol, never on the server's internals: the
//! load tools speak to a server only as a client would.
//!
//! - `loadgen` (`omweso loadgen`): games of random moves through the real protocol, with
//!   latency, moves per second and the server's memory and CPU.
//! - `tournament_sim` (`omweso tournament-sim`): a whole tournament of random players with
//!   watchers on its socket, driving its games with the harness's players.
//! - `arena` (`omweso arena`): computer players against each other on std threads.
//! - `bench` (`omweso bench`): random playouts per second.
//! - `engine_cli` (`omweso engine`): the rules engine and search over JSON lines, the
//!   `omweso-engine` crate, named here as `omweso` uses it.
//! - `harness`: what the load tools share: a spawned server, a game's clients and seated
//!   players, the counters.
//! - `healthcheck` (`omweso healthcheck`): exit 0 if a server answers `/healthz`.

pub mod arena;
pub mod bench;
mod harness;
pub mod healthcheck;
pub mod loadgen;
pub mod tournament_sim;

pub use omweso_engine::cli as engine_cli;
