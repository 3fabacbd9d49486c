//! Omweso online's game server as a library: [`server::run`]`(listener, config, shutdown)`
//! serves the HTTP API, the sockets and the browser client. The `omweso` binary
//! (`crates/omweso`) parses the command line and calls it; the wire types are the
//! `omweso-protocol` crate, the rules `omweso-rules`, the computer player `omweso-search`.
//! The whole path of a move, from the click to every screen, is drawn in
//! `docs/architecture.md`.
//!
//! # Layout, from the network inwards
//!
//! - `server`: `run(listener, config, shutdown)`: opens the store, starts the writer and
//!   the pools, restores unfinished games and tournaments, builds the router, serves, and
//!   shuts down in order. `config` is `omweso serve`'s settings; `state` what every
//!   handler shares (`AppState`).
//! - `http/`: the HTTP layer. `accept` owns every TCP connection (header and idle
//!   timeouts, connections per address); `edge` every request (time limit, Origin and
//!   content-type checks, security headers, JSON refusals); `limits` and `address` the
//!   counters and rates and what they count a client by (an IPv6 client by its /64);
//!   `extract` the extractors (the session, the game or tournament a path names, the JSON
//!   body, the client's address); `error` the API's error. One module per resource:
//!   `accounts` (guest sessions, accounts, devices, link codes, the name), `people` (a
//!   person's page), `games`, `tournaments`, `board_tables` (over-the-board tables: where
//!   they are played, their sheets, relays, the printed sheets' QR codes), `analysis`.
//! - `socket/`: the socket layer. `connection` is the transport every socket shares (the
//!   batched writer, pings, write timeouts, rate and frame limits), `upgrade` what every
//!   upgrade does first (origin, token, `?v=`, the per-session and per-address places),
//!   `room` the runner of a socket watching a room; one module per kind: `game`,
//!   `tournament`, `lobby`.
//! - `room/`: what games and tournaments share as rooms: the connections with their
//!   bounded queues and a frame encoded once for all (`connections`), the versioned
//!   history that answers `?v=` (`history`), the task's handle (`handle`), its timers
//!   (`wake`).
//! - `game/`: one live game is one task (`game::actor`: its handle in `mod.rs`, the loop
//!   and timers `run`, a client's command `commands`, save-then-show `commit`, the store
//!   rows `persist`, sockets and seats `presence`) owning a `game::table::Table`, the pure
//!   state machine split by job (`setup`, `arranging`, `turn`, `referee`, `impasse`,
//!   `adjudicate`, `snapshot`, `computer`): no clock, no I/O, so a game is rebuilt by
//!   replaying its action log (`game::log`), which `game::registry` does when it loads a
//!   game. `legal` lists what each player may do, `laps` bounds a turn's recorded laps,
//!   `lobby` is the list of live games the lobby reads, `news` what a game tells its
//!   watchers, `computer` the computer's part in a game's task.
//! - `tournament/`: Swiss and round-robin events (docs/rules.md#5-tournaments). The pure
//!   parts do no I/O: `settings`, `admission`, `berger` and `pairing/`, `sheet`, `board`
//!   (a table played over the board: entries, initials, a relay's proposal),
//!   `standings`, `log`, `export`, and `state/` (the model in `mod.rs`; `transitions` every
//!   log entry applied; `board_tables` the over-the-board entries; `pairing_plan` what a
//!   pairing reads; `views`; `replay`). A tournament is one task (`tournament::actor`:
//!   `commands`, `board` (over-the-board commands; a relay's game created with its entry),
//!   `games` (its round's games, watched and adjudicated), `fanout`, `persist`,
//!   `presence`, `run`), rebuilt from its
//!   log by `tournament::registry`; `pairing_worker` pairs big fields on a thread.
//! - `lobby/`: the pushed lobby: `feed` encodes the lobby frame once when `changes` says
//!   the lists changed.
//! - `analysis/`: the analysis board's service (legal moves, a move played out, the
//!   engine's best move), knowing nothing of HTTP.
//! - `store/`: SQLite or PostgreSQL behind one API (`db`); every write goes through one
//!   group-commit `writer` on a thread of its own.
//! - `cluster/`: several nodes on one database: the `lease` that makes one node the owner
//!   of a game or a tournament, its epoch fencing a node's writes once another took it
//!   over (docs/scaling.md); the store's side is `store/db/leases.rs`.
//! - `pools/`: threads that keep heavy work off the async workers: `engine` (legal moves,
//!   replays), `search` (the computer player), `fair` and `fair_queue` (round-robin between
//!   addresses, then sessions).
//! - `session/`: persons and their devices (docs/accounts.md): a person is the player id
//!   everything names, a device one token (`mod.rs`: the cached sessions, sign-outs,
//!   rotation); `accounts` (sign-up in place, log-in, recovery, link codes), `names`
//!   (names and usernames), `password` (argon2id off the workers, zxcvbn), `codes` (one-time
//!   codes, QR), `email` (an account's address, verified, and password reset by mail),
//!   `expiry`, `ends` (sockets told of a sign-out). `admin` is `omweso admin`, the
//!   operator's account commands on the store. `mail` sends the mail (off unless the
//!   operator sets up SMTP): a bounded queue and one task, never on a request's path.
//! - `archive/`: finished games found again: the search columns a game's row carries
//!   (`columns`), the search's request and its cursor (`search`), the benchmark on a
//!   large store (`bench`); the store's side is `store/db/archive.rs`.
//! - `refusal` the one refusal type of every domain, `metrics` the Prometheus metrics (on
//!   their own address), `assets` the web client.
//!
//! # Where things happen
//!
//! - **A move**: `socket::game::read` decodes a frame and sends `Command::Client` to the
//!   game's task; `game::actor::commands` hands it to `Table::act`, which plays it;
//!   `game::actor::commit` saves the log entry through the `Writer` while the engine pool
//!   lists the next legal moves, then answers `ack` and publishes the events through the
//!   room (`room::Room::publish`): each is encoded once and queued on every connection,
//!   which `socket::connection::write` drains in batches. Durable, then acknowledged, then
//!   shown.
//! - **A round start**: `http::tournaments::start_round` sends `Command::StartRound` to the
//!   tournament's task; `tournament::actor::commands::start_round` reserves the live-game
//!   places, creates the round's games through the game registry, saves the entry, and
//!   `tournament::state::transitions` applies it. Each game stops itself at the round's
//!   deadline (`stop_at_ms`, adjudicated by its own referee: `Table::adjudicate`), and
//!   `tournament::actor::games` watches the games and records each end.
//! - **A sheet correction**: `http::tournaments::sheet` (`SheetRequest::Correct`) sends
//!   the sheet action to the tournament's task (`tournament::actor::commands`); the
//!   director's right to it and the correction itself are
//!   `tournament::state::transitions` (`sheet`), the sheet `tournament::sheet`, the new
//!   standings `tournament::standings`.
//! - **A sheet at the board**: `http::board_tables::board_sheet` sends a
//!   `BoardCommand::Sheet` to the tournament's task; `tournament::state::board_tables`
//!   checks who may enter it and `tournament::board` whether it agrees with the entry
//!   standing (the sheet is made from the one both players initialled). A relay's move:
//!   `http::board_tables::relay_act` asks the tournament whose relay the caller is
//!   (`Tournament::relay_game`), then `GameHandle::relay` plays it in the table's game
//!   (`game::table::relay`).
//! - **The computer**: after every change the game's task asks `Table::computer_due`; a
//!   move is searched on `pools::search`, comes back with the version it was asked at and
//!   is played through `Table::act` like a person's (a stale one is dropped).
//! - **Time**: each task sleeps until its next deadline (`room::wake`), then logs a `Tick`
//!   and publishes what `Table::tick` decided (the steal, an annulment, an abandonment).
//! - **A restart**: `game::registry` and `tournament::registry` replay each unfinished
//!   log; `Table::resume` restarts the clocks: the time the server was down counts against
//!   nobody.
//! - **A reconnection**: `?v=N` gets the events after `N` from the room's history, or the
//!   whole `state` when they are no longer kept.
//! - **A guest makes an account**: `http::accounts::sign_up` calls
//!   `session::accounts::sign_up`, which writes the username and password hash on the
//!   guest's own person (`SessionChange::MakeAccount`) and rotates the device's token in the
//!   same transaction: every seat and sheet already names that person, and open sockets
//!   are not closed.
//! - **Back-pressure**: every queue is bounded. A full task or pool queue makes senders
//!   wait; a connection whose queue is full is dropped, and resyncs when it reconnects.

pub mod admin;
mod analysis;
pub mod archive;
mod assets;
pub mod cluster;
pub mod config;
pub mod game;
mod http;
pub mod lobby;
pub mod mail;
mod metrics;
pub mod pools;
pub mod ratings;
mod refusal;
pub mod room;
pub mod server;
pub mod session;
mod socket;
mod state;
pub mod store;
pub mod tournament;
