//! The server's integration tests, one test binary (each module a suite): a real server
//! on port 0 in the test's process, real HTTP and socket clients, real SQLite and
//! PostgreSQL. One binary links the crate once instead of once per suite.

mod accounts;
mod analysis;
mod analysis_fair;
mod archive;
mod archive_bench;
mod assets;
mod common;
mod computer;
mod computer_places;
mod documented;
mod free_setup;
mod game_files;
mod game_hooks;
mod hardening;
mod impasse;
mod lobby;
mod rated_games;
mod relayed_game;
mod restart;
mod server;
mod sessions;
mod store;
mod table;
mod tournament_limits;
mod tournament_presence;
mod tournaments;
