//! Finished games kept and served: a stored game as a game file's record
//! (`game_file`, docs/game-file.md) and the streamed exports (`export`).

pub mod export;
pub mod game_file;
