//! A record with its replay: what `omweso engine`'s `read_game` answers for each game
//! (docs/engine-cli.md), and what the analysis board reads a game file into
//! (docs/protocol.md "Game files and exports (addition)").
//!
//! Serialized straight from the record and the replay, never built as a JSON value first:
//! a value tree of a file of tens of thousands of moves took about a hundred times the
//! memory of its text (issue 41, finding 10).

use omweso_rules::Outcome;
use serde::ser::{SerializeSeq, Serializer};
use serde::Serialize;

use crate::record::GameRecord;
use crate::replay::Replay;

/// `{"record", "start", "positions", "end", "outcome"}` when the moves replay, else
/// `{"record", "error"}` saying which move and why.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum Report<'a> {
    Replayed {
        record: &'a GameRecord,
        start: String,
        positions: Positions,
        end: String,
        outcome: Option<Outcome>,
    },
    Failed {
        record: &'a GameRecord,
        error: String,
    },
}

/// The position after each move, written as each is serialized.
#[derive(Debug)]
pub struct Positions(Replay);

impl Serialize for Positions {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.0.positions.len()))?;
        for position in &self.0.positions {
            seq.serialize_element(&position.to_string())?;
        }
        seq.end()
    }
}

impl GameRecord {
    /// The record with its replay (see [`Report`]).
    #[must_use]
    pub fn report(&self) -> Report<'_> {
        match self.replay() {
            Ok(replay) => Report::Replayed {
                record: self,
                start: replay.start.to_string(),
                end: replay.end.to_string(),
                outcome: replay.outcome,
                positions: Positions(replay),
            },
            Err(e) => Report::Failed {
                record: self,
                error: e.to_string(),
            },
        }
    }
}
