//! A turn waiting at a decision point: a part of the table's state, apart from the job
//! that plays turns (`turn`), so that the table names it without naming that job.

use omweso_protocol::OptionResult;
use omweso_rules::{GameTurn, Side};

/// A turn waiting at a decision point.
#[derive(Clone, Debug)]
pub(super) struct PendingTurn {
    pub(super) turn: GameTurn,
    /// The player sowing (the stealer, for a stolen turn).
    pub(super) by: Side,
    pub(super) stolen: bool,
    pub(super) tokens: Vec<String>,
    /// Milliseconds of the move-completion limit spent at decision points so far.
    pub(super) waited_ms: u64,
    pub(super) decision_since_ms: u64,
    /// What each option of the pending decision would do (worked out once, when the turn
    /// stops at it).
    pub(super) results: Vec<OptionResult>,
}
