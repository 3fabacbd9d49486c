//! The archive: every finished game kept, found again and served
//! (docs/protocol.md#the-archive-addition).
//!
//! - [`columns`]: what a game's row carries for the searches (`ArchiveColumns`), from its
//!   configuration and outcome.
//! - [`search`]: a search as asked (`GET /api/archive`), checked, and its cursor.
//! - [`bench_data`]: the generated archive the benchmark searches, loaded in bulk.
//! - [`bench`]: the benchmark of the searches on a large store (`omweso bench archive`,
//!   docs/performance.md#the-archive).
//! - [`game_file`]: a stored game as a game file's record (docs/game-file.md); [`export`]:
//!   the streamed exports.

pub mod bench;
pub mod bench_data;
pub mod columns;
pub mod export;
pub mod game_file;
pub mod search;
