//! What each player may do now, worked out by the server so that no client needs the
//! rules (lichess's `movable.dests`): every legal whole move, and what each start does up
//! to its first decision point. Pure: the game's task runs it on the engine pool.

use omweso_rules::{Direction, LegalMoves, Pit, Progress, Side};

use super::board::GameBoard;
use super::laps::LapRecord;
use super::table::LegalQuery;
use crate::protocol::{LapKind, Legal, LegalSide, StartResult};

/// The most seeds listing one side's whole moves may sow in all: about 5 ms of the
/// engine's time. Past it the list holds the legal starts only (docs/protocol.md).
pub const LISTING_WORK: u64 = 2_000_000;

/// What every side in `query` may do.
#[must_use]
pub fn list(query: &LegalQuery) -> Legal {
    let mut legal = Legal::default();
    for &(side, board) in &query.sides {
        legal.set(side, list_side(board, side, query.budget));
    }
    legal
}

/// `side`'s whole legal moves on `board` and what each of its starts does, each turn
/// sown under `budget`.
#[must_use]
pub fn list_side(board: GameBoard, side: Side, budget: u64) -> LegalSide {
    match board {
        GameBoard::FourByEight(position) => {
            let found = position.legal_moves_within(side, Some(budget), LISTING_WORK);
            let mut starts = Vec::new();
            for index in 0..16 {
                let pit = Pit::from_index(side, index);
                for direction in [Direction::Anticlockwise, Direction::Clockwise] {
                    let Ok(mut turn) = position.begin_turn(pit, direction, Some(budget)) else {
                        continue;
                    };
                    let mut laps = LapRecord::default();
                    let progress = turn.run(&mut laps);
                    let (decision, outcome) = match progress {
                        Progress::Decision(d) => (
                            Some(d.options(side).iter().map(ToString::to_string).collect()),
                            None,
                        ),
                        Progress::Done(_) => (None, turn.result().and_then(|r| r.outcome)),
                    };
                    let mark = if direction == Direction::Clockwise {
                        "'"
                    } else {
                        ""
                    };
                    starts.push(start_result(
                        format!("{pit}{mark}"),
                        &laps,
                        decision,
                        outcome,
                    ));
                }
            }
            LegalSide {
                moves: found.moves().iter().map(ToString::to_string).collect(),
                starts_only: matches!(found, LegalMoves::Starts(_)),
                starts,
            }
        }
        GameBoard::Oware(position) if position.to_move() == side => {
            let mut moves = Vec::new();
            let mut starts = Vec::new();
            for house in position.moves() {
                let mut laps = LapRecord::default();
                let Ok(result) = position
                    .play_observed(house, Some(budget), &mut |lap| laps.push((&lap).into()))
                else {
                    continue;
                };
                moves.push(house.to_string());
                starts.push(start_result(house.to_string(), &laps, None, result.outcome));
            }
            LegalSide {
                moves,
                starts_only: false,
                starts,
            }
        }
        GameBoard::Oware(_) => LegalSide::default(),
    }
}

fn start_result(
    start: String,
    laps: &LapRecord,
    decision: Option<Vec<String>>,
    outcome: Option<omweso_rules::Outcome>,
) -> StartResult {
    let last = laps.omitted.is_none().then(|| laps.shown.last()).flatten();
    StartResult {
        start,
        laps: laps.laps,
        seeds: laps.seeds,
        captured: laps.captured,
        ends_at: last
            .filter(|lap| lap.kind == LapKind::End && decision.is_none())
            .map(|lap| lap.to.clone()),
        decision,
        outcome,
    }
}
