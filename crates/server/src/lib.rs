//! Omweso online: the application crate behind the `omweso` binary (`main.rs` only parses
//! the command line and calls in here). The whole path of a move, from the click to every
//! screen, is drawn in `docs/architecture.md`.
//!
//! # Layout
//!
//! The server, from the network inwards:
//!
//! - `server`: `run(listener, config, shutdown)`: opens the store, starts the writer and
//!   the engine pool, restores unfinished games, serves, and shuts down in order.
//! - `accept`, `edge`, `limits`, `address`: what guards the public port. `accept` owns
//!   every TCP connection (header and idle timeouts, per-address counts), `edge` every
//!   HTTP request (time limit, Origin and content-type checks, security headers, JSON
//!   errors), `limits` the counters and rates both use, and `address` what they count a
//!   client by (an IPv6 client by its /64; docs/security.md).
//! - `api`, `ws`, `assets`: the handlers. `api` is the HTTP API; `ws` runs one socket as a
//!   reader and a writer task, generic over `Stream`/`Sink` so tests need no network;
//!   `assets` serves `web/`. `state` is what they share, `session` the guest sessions,
//!   `error` the HTTP error type.
//! - `analysis`: the analysis board's calls (legal moves, a move played out, the engine's
//!   best move) on any position: stateless, touching no game; searches on threads of
//!   their own, bounded per session and in all.
//! - `lobby_feed`, `lobby_ws`: the pushed lobby. One task for the server reads the game
//!   and tournament lists again when told they changed (coalesced, at most four times a
//!   second), encodes the `lobby` frame once and publishes it on a `watch`; each lobby
//!   socket sends the latest.
//! - `protocol`: every wire message as a type, both ways (`decode`, `Frame`, `Event`,
//!   `Snapshot`, `ErrorCode`). Declared once, so the server, `loadgen` and the tests cannot
//!   disagree on a shape.
//! - `game`: one live game is one task (`game::actor`) owning a `game::table::Table`,
//!   the pure state machine split by job (`setup`, `turn`, `referee`, `snapshot`): no
//!   clock, no I/O, so a game is rebuilt by replaying its action log (`game::log`), which
//!   `game::registry` does when it loads a game. `legal` lists what each player may do
//!   (inline when cheap, else on the engine pool), `laps` bounds a turn's recorded laps, `lobby` is the map the
//!   lobby reads, `board` and `config` are a game's board and settings.
//! - `tournament`: Swiss and round-robin events (RULES.md 5). The pure parts (`settings`,
//!   `berger` and `pairing`, `sheet`, `standings`, `log`, `state`, `export`) do no I/O; a
//!   tournament is one task (`tournament::actor`) owning its `state::Tournament`, rebuilt
//!   from its log by `tournament::registry`. It creates a round's games through the game
//!   registry, watches them (`game::news`), and stops them at the deadline
//!   (`Table::adjudicate`). `tournament_api` and `tournament_ws` are its HTTP calls and its
//!   socket.
//! - `store`: SQLite or PostgreSQL behind one API; every write goes through one
//!   group-commit `Writer` on a blocking thread of its own.
//! - `engine_pool`: threads for the rules engine's heavy work (legal moves, replays), so
//!   it never runs on the async workers that carry the sockets.
//! - `search_pool`: threads for the computer player's searches (`omweso-search`), one per
//!   core at the lowest priority, with a bounded queue a game never waits on. The
//!   computer's seat is `game::table` (`computer`: what it has to do) and its part in a
//!   game's task `game::computer` (asking the pool, dropping stale answers).
//! - `metrics`: Prometheus counters and histograms, served on their own address.
//! - `config`, `clock`: `omweso serve`'s settings; wall-clock milliseconds.
//!
//! The other subcommands: `engine_cli` (`omweso engine`, JSON lines), `arena` (computer
//! players against each other, on std threads), `bench`,
//! `healthcheck` (for container images), `loadgen` (plays a server through its protocol),
//! `tournament_sim` (a whole tournament of random players through the protocol, with
//! watchers on its socket; it drives its games with `loadgen`'s players).
//!
//! # Flows
//!
//! - **A move**: `ws::read` decodes a frame and sends `Command::Client` to the game's task;
//!   `Table::act` plays it; the task saves the log entry through the `Writer` while the
//!   engine pool lists the next legal moves, then answers `ack` and publishes the events:
//!   each is encoded once and queued on every connection's bounded queue, which `ws::write`
//!   drains and flushes in batches. Durable before acknowledged, acknowledged before shown.
//! - **The computer**: after every change the task asks `Table::computer_due`; a move is
//!   searched on the `search_pool`, the answer comes back to the task with the version it
//!   was asked at and, once the least delay is over, is played as the computer's seat
//!   through `Table::act` and saved like a person's move (a stale one is dropped).
//! - **Time**: the task sleeps until `Table::next_deadline`, then logs a `Tick` and
//!   publishes what `Table::tick` decided (the steal, an annulment, an abandonment).
//! - **A restart**: `Registry::restore_unfinished` replays each unfinished game's log on
//!   the engine pool, and `Table::resume` restarts its clocks: the time the server was
//!   down counts against nobody.
//! - **A reconnection**: `?v=N` gets the events after `N` from the task's recent events, or
//!   the whole `state` when they are no longer kept.
//! - **Back-pressure**: every queue is bounded. A full game or pool queue makes senders
//!   wait; a connection whose queue is full is dropped, and resyncs when it reconnects.

pub mod analysis;
pub mod assets;
pub mod config;
pub mod game;
pub mod http;
pub mod lobby;
pub mod metrics;
pub mod pools;
pub mod refusal;
pub mod room;
pub mod server;
pub mod session;
pub mod socket;
pub mod state;
pub mod store;
pub mod tournament;
