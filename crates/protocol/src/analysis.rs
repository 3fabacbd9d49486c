//! The analysis calls' bodies (`/api/analysis/...`, addition): a position (any, typed in or
//! from a game's history) and what the server works out about it - who may move and what
//! each start does, a move played out lap by lap, the engine's best move and its line. The
//! answers reuse the game events' shapes (`legal`, `laps`, a decision's `results`), so the
//! page draws them with the game's own code.

use omweso_rules::{Outcome, Ruleset, Side};
use serde::{Deserialize, Serialize};

use super::game::{LapView, Legal, OmittedLaps, OptionResult};

/// Who has captured in an earlier turn of the game: Omweso's akakyala rule (docs/rules.md#15-end-of-the-game,
/// 1.5.4), which a position string cannot say. Given, the rule is on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CaptureHistory {
    pub s: bool,
    pub n: bool,
}

/// A position to analyse (`POST /api/analysis/legal`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionQuery {
    pub ruleset: Ruleset,
    /// docs/rules.md#02-position-strings (Oware: section 0.2's `north/south side capS capN`).
    pub position: String,
    /// The sowing budget of each turn (docs/rules.md#14-never-ending-turns): 720 when absent, at most 20,000.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_seeds: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub akakyala: Option<CaptureHistory>,
}

/// What the server says of a position: who may start a turn and what each start does
/// (the game events' `legal`), and the result if the game is over in it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PositionView {
    /// The position as the server writes it.
    pub position: String,
    /// The one side to move; `null` while both players owe Mweiso's opening.
    pub to_move: Option<Side>,
    /// Mweiso's opening: who still owes their opening turn.
    pub opening: Vec<Side>,
    pub legal: Legal,
    pub outcome: Option<Outcome>,
    /// The akakyala history, when the rule is on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub akakyala: Option<CaptureHistory>,
}

/// A move to play out (`POST /api/analysis/play`): a whole move, or its start and the
/// answers given so far (the turn then stops at the next decision point).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayQuery {
    pub ruleset: Ruleset,
    pub position: String,
    #[serde(rename = "move")]
    pub mv: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_seeds: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub akakyala: Option<CaptureHistory>,
}

/// The decision a move stopped at: its options and what each does (as a `decision`
/// event's).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingDecision {
    pub by: Side,
    pub options: Vec<String>,
    pub results: Vec<OptionResult>,
}

/// A move played out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayAnswer {
    /// Who sowed it.
    pub by: Side,
    /// The move as the server writes it: the start and the answers played.
    #[serde(rename = "move")]
    pub mv: String,
    /// Every lap of the move from its start (at most 1,000, as in `played`).
    pub laps: Vec<LapView>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub laps_omitted: Option<OmittedLaps>,
    /// The turn waits at a decision point (`decision`).
    pub pending: bool,
    pub decision: Option<PendingDecision>,
    /// The position after the move (while it waits: the board as it stands, the seeds in
    /// hand back at the lap's origin), who may move in it and its result.
    pub after: PositionView,
}

/// The engine asked for its best move (`POST /api/analysis/search`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearchQuery {
    pub ruleset: Ruleset,
    pub position: String,
    /// Thinking time, 1 to 10,000 milliseconds.
    pub millis: u64,
    /// Who plays: needed only while both players owe Mweiso's opening.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<Side>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_seeds: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub akakyala: Option<CaptureHistory>,
}

/// One move of the principal line and the position after it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineMove {
    pub by: Side,
    #[serde(rename = "move")]
    pub mv: String,
    pub position: String,
    pub outcome: Option<Outcome>,
}

/// The engine's answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchAnswer {
    /// The side searched for; `score` is theirs.
    pub side: Side,
    #[serde(rename = "move")]
    pub mv: String,
    /// The evaluation for `side`, in [-1, 1] (1 a win, -1 a loss).
    pub score: f64,
    /// Whole moves searched deep.
    pub depth: u32,
    pub nodes: u64,
    /// The thinking time it was given (addition): the `millis` asked, or less when its
    /// turn on the engine came late, so that it answers within the request's time limit.
    #[serde(default)]
    pub millis: u64,
    /// The principal line, `move` first, each with the position after it.
    pub pv: Vec<LineMove>,
}
