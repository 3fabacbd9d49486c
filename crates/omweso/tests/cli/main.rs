//! The `omweso` binary's tests, one test binary: the real binary run as a child process
//! (`omweso serve` killed with SIGKILL and restarted, `omweso engine`, `loadgen`,
//! `tournament-sim`, `arena`, `admin`, the metrics port and its refusal counters, self-hosting by
//! environment variables, several nodes on PostgreSQL and NATS).

mod admin;
mod arena;
mod cluster;
mod cluster_bodies;
mod cluster_trust;
mod engine_cli;
mod engine_game_files;
mod limited_metrics;
mod loadgen;
mod metrics_port;
mod self_hosting;
mod sigkill;
mod tournament_sim;
