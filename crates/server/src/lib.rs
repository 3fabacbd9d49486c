//! Omweso online's game server as a library: [`server::run`]`(listener, config, shutdown)`
//! serves the HTTP API, the sockets and the browser client. The `omweso` binary
//! (`crates/omweso`) parses the command line and calls it; the wire types are the
//! `omweso-protocol` crate, the rules `omweso-rules`, the computer player `omweso-search`,
//! and the pure domains are crates of their own, which this one names where they belong:
//! `omweso-table` (`game::table`, `game::log`, `game::legal`, `game::laps`),
//! `omweso-tournament` (`tournament::state`, `settings`, `pairing`, `sheet`, `standings`,
//! `board`, `export`, ...), `omweso-ratings` (`ratings::glicko`, `record`, ...) and
//! `omweso-people` (`people::names`, `people::codes`).
//! The whole path of a move, from the click to every screen, is drawn in
//! `docs/architecture.md`.
//!
//! # Layout: one folder per concern, over shared infrastructure
//!
//! `server` is the top: `run(listener, config, shutdown)` opens the store, starts the
//! writer and the pools, restores unfinished games and tournaments, builds the router
//! from every concern's routes, serves, and shuts down in order; `state` is what every
//! handler shares (`AppState`), `node_rooms` this node's games and tournaments as the
//! cluster reaches them (`cluster::local_rooms`), `config` `omweso serve`'s settings.
//!
//! The concerns, each with its model, its routes (`api`) and its socket where it has one:
//!
//! - `game/`: one live game is one task (`game::actor`: its handle in `mod.rs`, the loop
//!   and timers `run`, a client's command `commands`, save-then-show `commit`, the store
//!   rows `persist`, sockets and seats `presence`) owning a `game::table::Table`, the pure
//!   state machine (the `omweso-table` crate) split by job (`setup`, `arranging`, `turn`,
//!   `referee`, `impasse`, `adjudicate`, `snapshot`, `computer`): no clock, no I/O, so a
//!   game is rebuilt by replaying its action log (`game::log`), which `game::registry`
//!   does when it loads a game. `legal` lists what each player may do, `laps` bounds a
//!   turn's recorded laps, `news` what a game tells its watchers, `computer` the
//!   computer's part in a game's task; `api` its HTTP calls (`/api/games`), `socket` its
//!   socket's reader.
//! - `tournament/`: Swiss and round-robin events (docs/rules.md#5-tournaments). The pure
//!   parts (the `omweso-tournament` crate) do no I/O: `settings`, `admission`, `berger`
//!   and `pairing/`, `sheet`, `board` (a table played over the board: entries, initials,
//!   a relay's proposal),
//!   `standings`, `log`, `export`, and `state/` (the model in `mod.rs`; `transitions` every
//!   log entry applied; `board_tables` the over-the-board entries; `pairing_plan` what a
//!   pairing reads; `views`; `replay`), the log read back from the store's rows by
//!   `stored`. A tournament is one task (`tournament::actor`: `commands`, `board`
//!   (over-the-board commands; a relay's game created with its entry), `games` (its
//!   round's games, watched and adjudicated), `fanout`, `persist`, `presence`, `run`),
//!   rebuilt from its log by `tournament::registry`; `pairing_worker` pairs big fields on
//!   a thread. Its calls: `api` (`/api/tournaments`), `people_api` (co-directors, who did
//!   what, a player's new device), `otb_api` (over-the-board tables: where they are
//!   played, their sheets, relays, the printed sheets' QR codes), `relay_codes` (a relay
//!   invite found by the code typed at `/link`); its socket `socket`; its answers to what
//!   the people's routes and the archive ask of it, `for_people` and `for_archive`.
//! - `people/`: persons and their devices (docs/accounts.md): a person is the player id
//!   everything names, a device one token (`mod.rs`: the cached sessions, sign-outs,
//!   rotation); `accounts` (sign-up in place, log-in, recovery, link codes), `names` (names
//!   and usernames) and `codes` (one-time codes, QR) from the `omweso-people` crate,
//!   `store` (its reads), `password` (argon2id off the workers, zxcvbn) and `password_turn`
//!   (fair turns at it), `email` (an account's address, verified, and password reset by
//!   mail), `known_devices` (the mark of a device that logged in), `expiry`, `ends`
//!   (sockets told of a sign-out). Its calls: `accounts_api` (guest sessions, accounts,
//!   devices, link codes, the name), `email_api`, `pages_api` (a person's page); what they
//!   ask of the tournaments (a rename carried, a relay invite, a linked player's place),
//!   `their_tournaments`. `admin` is `omweso admin`, the operator's account commands on the
//!   store; `mail` sends the mail (off unless the operator sets up SMTP): a bounded queue
//!   and one task, never on a request's path.
//! - `ratings/`: Glicko-2 (`glicko`), a rating (`rating`), the record replayed
//!   (`record`), what is not rated (`too_short`): the `omweso-ratings` crate; its calls
//!   `api`, its reads of the store `store`; applied where a game ends
//!   (`game::actor::ratings`) or a sheet is made (`tournament::state::sheet_ratings`),
//!   written by `store/rated.rs` in the writer's transaction.
//! - `archive/`: finished games found again (the search columns a game's row carries are
//!   the game's: `game::archive_columns`): the search's request and its cursor (`search`),
//!   the persons and tournaments a search names by username or name (`names`), exports and
//!   game files (`export`, `game_file`), the benchmark on a large store (`bench`); its
//!   calls `api` (`/api/archive`) and `exports_api` (game files out and in); its queries
//!   `store`, `sql` and `stored_games` (`impl Store` over the store's pools); what it asks
//!   of the tournaments (a game's round and table), `tournament_rounds`.
//! - `analysis/`: the analysis board's service (legal moves, a move played out, the
//!   engine's best move); its calls `api` (`/api/analysis`).
//! - `lobby/`: the list of live games (`games`), the tournaments' lines (`tournaments`),
//!   the pushed lobby (`feed` encodes the lobby frame once when `changes` says the lists
//!   changed), its socket (`socket`) and its exchange with other nodes (`across_nodes`).
//! - `cluster/`: several nodes on one database: the `lease` that makes one node the owner
//!   of a game or a tournament, its epoch fencing a node's writes once another took it
//!   over (docs/scaling.md); the store's side is `store/db/leases.rs`. What nodes send
//!   each other over NATS is sealed with the cluster's secret (`seal`: a forged or
//!   replayed message is refused), and a node joins only with NATS credentials and that
//!   secret (`credentials`).
//!
//! The infrastructure underneath, naming no concern:
//!
//! - `http/`: `accept` owns every TCP connection (header and idle timeouts, connections
//!   per address); `edge` every request (time limit, Origin and content-type checks,
//!   security headers, JSON refusals), reading the server's state only through the
//!   `edge_state` trait that `AppState` implements; `limits` and `failures` the counters, rates and
//!   failure counts; `codes` the limits on one-time codes tried (per address, per target,
//!   in all); `body_budget` and `write_stall` the bytes being received and the answers
//!   not read; `extract` what a request names that is no concern's (an id as written,
//!   the JSON body, the client's address: the session is `people::extract`, refused to a
//!   device limited to one tournament unless the route takes it; the game a path names
//!   `game::extract`, the tournament `tournament::extract` with `PlayerHere`); `token`
//!   the session token a request carries; `error` the API's error. It names no concern.
//! - `socket/`: `connection` is the transport every socket shares (the batched writer,
//!   pings, write timeouts, rate and frame limits), `upgrade` what every upgrade does
//!   first (origin, token, `?v=`, the per-session and per-address places), `room` the
//!   runner of a socket watching a room, `remote` one watching a room on another node.
//! - `room/`: what games and tournaments share as rooms: the connections with their
//!   bounded queues and a frame encoded once for all (`connections`), the versioned
//!   history that answers `?v=` (`history`), the task's handle (`handle`), its timers
//!   (`wake`).
//! - `store/`: SQLite or PostgreSQL behind one API (`db`); every write goes through one
//!   group-commit `writer` on a thread of its own, so that a game's write and its
//!   tournament's entry commit in one transaction: the store keeps the rows every write
//!   names and the writes' statements behind that one writer, and the leases' reads
//!   (`db/leases.rs`); the archive's, people's and ratings' reads sit in their own
//!   folders (`archive/store.rs`, `people/store.rs`, `ratings/store.rs`).
//! - `pools/`: threads that keep heavy work off the async workers: `engine` (legal moves,
//!   replays), `search` (the computer player), `fair`, `fair_queue`, `fair_work` and
//!   `fair_turns` (round-robin between addresses, then sessions).
//! - `address` what a per-address limit counts (an IPv6 client by its /64), `wall_clock`
//!   the clock stored times are read from, `metrics` the Prometheus metrics (on their own
//!   address), `assets` the web client. A refused request, the one refusal type of every
//!   domain, is `omweso_protocol::refusal`.
//!
//! # Where things happen
//!
//! - **A move**: `crate::game::socket::read` decodes a frame and sends `Command::Client` to the
//!   game's task; `game::actor::commands` hands it to `Table::act`, which plays it;
//!   `game::actor::commit` saves the log entry through the `Writer` while the engine pool
//!   lists the next legal moves, then answers `ack` and publishes the events through the
//!   room (`room::Room::publish`): each is encoded once and queued on every connection,
//!   which `socket::connection::write` drains in batches. Durable, then acknowledged, then
//!   shown.
//! - **A round start**: `crate::tournament::api::start_round` sends `Command::StartRound` to the
//!   tournament's task; `tournament::actor::commands::start_round` reserves the live-game
//!   places, creates the round's games through the game registry, saves the entry, and
//!   `tournament::state::transitions` applies it. Each game stops itself at the round's
//!   deadline (`stop_at_ms`, adjudicated by its own referee: `Table::adjudicate`), and
//!   `tournament::actor::games` watches the games and records each end.
//! - **A sheet correction**: `crate::tournament::api::sheet` (`SheetRequest::Correct`) sends
//!   the sheet action to the tournament's task (`tournament::actor::commands`); the
//!   director's right to it and the correction itself are
//!   `tournament::state::transitions` (`sheet`), the sheet `tournament::sheet`, the new
//!   standings `tournament::standings`.
//! - **A sheet at the board**: `crate::tournament::otb_api::board_sheet` sends a
//!   `BoardCommand::Sheet` to the tournament's task; `tournament::state::board_tables`
//!   checks who may enter it and `tournament::board` whether it agrees with the entry
//!   standing (the sheet is made from the one both players initialled). A relay's move:
//!   `crate::tournament::otb_api::relay_act` asks the tournament whose relay the caller is
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
//! - **A guest makes an account**: `crate::people::accounts_api::sign_up` calls
//!   `people::accounts::sign_up`, which writes the username and password hash on the
//!   guest's own person (`SessionChange::MakeAccount`) and rotates the device's token in the
//!   same transaction: every seat and sheet already names that person, and open sockets
//!   are not closed.
//! - **Back-pressure**: every queue is bounded. A full task or pool queue makes senders
//!   wait; a connection whose queue is full is dropped, and resyncs when it reconnects.

pub mod address;
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
mod node_rooms;
pub mod people;
pub mod pools;
pub mod ratings;
pub mod room;
pub mod server;

mod socket;
mod state;
pub mod store;
pub mod tournament;
pub mod wall_clock;
