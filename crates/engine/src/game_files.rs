//! The engine CLI's game-file ops (docs/engine-cli.md "read_game and write_game
//! (addition)"): `read_game` reads an OGN text (docs/game-file.md) into its records, each
//! replayed with the position after every move; `write_game` writes a record as OGN.

use omweso_gamefile::{parse_games, write_game, GameRecord};
use serde_json::{json, Value};

/// The most text one `read_game` reads: a request is one line, and a game file of this
/// size already holds hundreds of games.
pub const MAX_TEXT: usize = 1 << 20;

/// `read_game`: every game of `text`, each with its replay, or the file's first error
/// with its line and column.
pub fn read(text: &str) -> Result<String, String> {
    if text.len() > MAX_TEXT {
        return Err(format!(
            "the text holds {} bytes; read_game reads at most {MAX_TEXT}",
            text.len()
        ));
    }
    let games = match parse_games(text) {
        Ok(games) => games,
        Err(e) => {
            return Ok(
                json!({"error": e.to_string(), "line": e.line, "column": e.column}).to_string(),
            )
        }
    };
    /// `{"games": [...]}`, written straight from the records.
    #[derive(serde::Serialize)]
    struct Games<'a> {
        games: Vec<omweso_gamefile::Report<'a>>,
    }
    let games = Games {
        games: games.iter().map(GameRecord::report).collect(),
    };
    serde_json::to_string(&games).map_err(|e| format!("the games could not be written: {e}"))
}

/// `write_game`: the OGN text of one record (its JSON as `read_game` gives it).
pub fn write(record: Value) -> Result<String, String> {
    let record: GameRecord =
        serde_json::from_value(record).map_err(|e| format!("\"record\": {e}"))?;
    Ok(json!({ "text": write_game(&record) }).to_string())
}
