//! The engine interface (docs/engine-cli.md): one JSON
//! request per line in, one JSON response per line out, over the rules engine and the
//! computer's search.
//!
//! - [`cli`]: the loop and every request (`omweso engine` runs [`cli::run`]);
//! - [`game_files`]: its game-file requests, `read_game` and `write_game` (OGN).
//!
//! A crate of its own so that the fuzz target that drives it, and a program that embeds
//! it, build the rules, the search and the game files only.

pub mod cli;
pub mod game_files;
