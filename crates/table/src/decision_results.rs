//! What each option of a waiting decision point would do (a game's `decision.results`,
//! the analysis board's previews): the turn run on a copy, per option, up to its next
//! decision point or its end. One function for the table and the analysis board, so the
//! previews a player sees in a game and on the board are the same.

use omweso_rules::{Decision, Game, GameTurn, Progress, Side};

use super::laps::LapRecord;
use omweso_protocol::OptionResult;

/// The options of `decision` for `by`, in notation.
#[must_use]
pub fn options(decision: &Decision, by: Side) -> Vec<String> {
    decision
        .options(by)
        .iter()
        .map(ToString::to_string)
        .collect()
}

/// What each option of the decision `turn` waits at would do for `by`; positions are
/// written with `board`'s side-to-move field (the game the turn was begun on), or as the
/// turn stands when there is none. Empty when the turn waits at no decision.
#[must_use]
pub fn option_results(board: Option<&Game>, turn: &GameTurn, by: Side) -> Vec<OptionResult> {
    let Some(decision) = turn.pending_decision() else {
        return Vec::new();
    };
    let during = |turn: &GameTurn| match board {
        Some(game) => game.position_during(turn),
        None => turn.position_now(),
    };
    decision
        .options(by)
        .iter()
        .map(|&answer| {
            let mut next = turn.clone();
            let mut laps = LapRecord::default();
            let progress = next.answer(answer).map(|()| next.run(&mut laps));
            let (position, decision, outcome) = match progress {
                Ok(Progress::Decision(d)) => (during(&next), Some(options(&d, by)), None),
                Ok(Progress::Done(_)) => match next.result() {
                    Some(result) => (result.game.to_string(), None, result.outcome),
                    None => (during(turn), None, None),
                },
                // An option the decision offers is always a valid answer.
                Err(_) => (during(turn), None, None),
            };
            OptionResult {
                choice: answer.to_string(),
                laps: laps.shown,
                laps_omitted: laps.omitted,
                position,
                decision,
                outcome,
            }
        })
        .collect()
}
