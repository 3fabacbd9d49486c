//! A record with its replay as JSON: what `omweso engine`'s `read_game` answers for each
//! game (docs/engine-cli.md), and what the analysis board reads a game file into
//! (docs/protocol.md "Game files and exports (addition)").

use serde_json::{json, Value};

use crate::record::GameRecord;

impl GameRecord {
    /// `{"record", "start", "positions", "end", "outcome"}` when the moves replay, else
    /// `{"record", "error"}` saying which move and why.
    #[must_use]
    pub fn report(&self) -> Value {
        match self.replay() {
            Ok(replay) => json!({
                "record": self,
                "start": replay.start.to_string(),
                "positions": replay.positions.iter().map(ToString::to_string).collect::<Vec<_>>(),
                "end": replay.end.to_string(),
                "outcome": replay.outcome,
            }),
            Err(e) => json!({ "record": self, "error": e.to_string() }),
        }
    }
}
