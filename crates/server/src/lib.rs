//! Omweso online: the application crate behind the `omweso` binary.

pub mod bench;
pub mod engine_cli;
pub mod game;
