//! OGN, the Omweso game notation (docs/game-file.md): a text record of games of Omweso,
//! Mweiso and Oware, several to a file, that other programs can read and write.
//!
//! - [`parse_games`] reads a file into [`GameRecord`]s, saying at which line and column
//!   and what is wrong when it cannot ([`ParseError`]);
//! - [`write_game`] writes one record; a file is records written one after another, and
//!   what is written parses back to an equal record;
//! - [`GameRecord::to_ndjson`] is a record as one JSON object (lichess's names where they
//!   fit), for NDJSON exports;
//! - [`GameRecord::replay`] plays the moves through the rules engine and checks them and
//!   the result.
//!
//! ```
//! use omweso_gamefile::{parse_games, write_game};
//!
//! let text = "[South \"Ann\"]\n[North \"Ben\"]\n[Ruleset \"omweso\"]\n[Result \"*\"]\n\n1. E1 2. D4 *\n\n";
//! let games = parse_games(text).unwrap();
//! assert_eq!(games[0].moves.len(), 2);
//! assert_eq!(write_game(&games[0]), text);
//! let replay = games[0].replay().unwrap();
//! assert_eq!(
//!     replay.end.to_string(),
//!     "5,5,5,0,4,4,4,4/1,0,0,0,0,0,0,0/0,0,0,0,0,0,0,1/4,4,4,4,0,5,5,5 s"
//! );
//! ```
#![forbid(unsafe_code)]

mod comment;
mod ndjson;
mod parse;
mod record;
mod replay;
mod report;
mod write;

pub use ndjson::date_and_time;
pub use parse::{parse_games, ParseError, MAX_GAMES, MAX_TAGS};
pub use record::{
    GameRecord, GameResult, ImpasseRecord, MoveRecord, Tag, Termination, RESERVED_TAGS,
};
pub use replay::{Replay, ReplayError, REPLAY_SEED_CAP};
pub use report::{Positions, Report};
pub use write::{write_game, LINE_WIDTH};

/// The file name extension of a game file.
pub const EXTENSION: &str = "ogn";
/// The media type exports serve game files with.
pub const MEDIA_TYPE: &str = "application/x-ogn; charset=utf-8";
