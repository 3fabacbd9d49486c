//! Omweso online: the application crate behind the `omweso` binary.

pub mod accept;
pub mod api;
pub mod assets;
pub mod bench;
pub mod clock;
pub mod config;
pub mod edge;
pub mod engine_cli;
pub mod engine_pool;
pub mod error;
pub mod game;
pub mod healthcheck;
pub mod limits;
pub mod loadgen;
pub mod metrics;
pub mod protocol;
pub mod server;
pub mod session;
pub mod state;
pub mod store;
pub mod ws;
