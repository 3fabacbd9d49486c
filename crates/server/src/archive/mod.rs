//! The archive: every finished game kept, found again and served
//! (docs/protocol.md#the-archive-addition).
//!
//! - What a game's row carries for the searches (`ArchiveColumns`) the game itself says
//!   ([`crate::game::archive_columns`]), from its configuration and outcome.
//! - [`search`]: a search as asked (`GET /api/archive`), checked, and its cursor.
//! - [`names`]: the persons and tournaments a search names (a username, a name as the
//!   sheets show it, a tournament's name), found in the store.
//! - [`bench_data`]: the generated archive the benchmark searches, loaded in bulk.
//! - [`bench`]: the benchmark of the searches on a large store (`omweso bench archive`,
//!   docs/performance.md#the-archive).
//! - [`game_file`]: a stored game as a game file's record (docs/game-file.md); [`export`]:
//!   the streamed exports; [`tournament_rounds`]: what the archive asks of the
//!   tournaments (a game's round and table), which answer it.
//! - Its store: [`store`] (the searches, a game's entry, the columns filled for games
//!   stored before them), [`sql`] (their statements, built per search), [`stored_games`]
//!   (a person's finished games a page at a time, for the game-file exports): `impl Store`
//!   blocks over the store's pools, so the archive's queries sit with the archive.

pub mod api;
pub mod bench;
pub mod bench_data;
pub mod export;
pub mod exports_api;
pub mod game_file;
pub mod names;
pub mod search;
pub mod sql;
pub mod store;
pub mod stored_games;
pub mod tournament_rounds;
