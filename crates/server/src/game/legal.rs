//! What each player may do now, worked out by the server so that no client needs the
//! rules (lichess's `movable.dests`): every legal whole move, and what each start does up
//! to its first decision point. Pure: the game's task runs it on the engine pool.

use omweso_rules::{oware::House, Direction, Game, Pit, Progress, Side, Start};

use super::laps::LapTally;
use super::table::LegalQuery;
use crate::protocol::{Legal, LegalSide, StartResult};

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

/// `side`'s whole legal moves on `game` and what each of its starts does, each turn sown
/// under `budget`.
#[must_use]
pub fn list_side(game: Game, side: Side, budget: u64) -> LegalSide {
    if !game.may_move(side) {
        return LegalSide::default();
    }
    let found = game.legal_moves_within(side, Some(budget), LISTING_WORK);
    let starts = candidate_starts(&game, side)
        .filter_map(|start| {
            let mut turn = game.begin_turn(start, Some(budget)).ok()?;
            let mut laps = LapTally::default();
            let (decision, outcome) = match turn.run(&mut laps) {
                Progress::Decision(d) => (
                    Some(d.options(side).iter().map(ToString::to_string).collect()),
                    None,
                ),
                Progress::Done(_) => (None, turn.result().and_then(|r| r.outcome)),
            };
            Some(start_result(start.to_string(), &laps, decision, outcome))
        })
        .collect();
    LegalSide {
        moves: found.moves.iter().map(ToString::to_string).collect(),
        starts_only: found.starts_only,
        starts,
    }
}

/// Every start `side` could try, legal or not (the pits in pit order, anticlockwise
/// first; Oware's houses): the legal ones are those a turn begins from.
fn candidate_starts(game: &Game, side: Side) -> impl Iterator<Item = Start> {
    let oware = game.oware().is_some();
    (0..16u8).flat_map(move |index| {
        let board = [Direction::Anticlockwise, Direction::Clockwise]
            .into_iter()
            .filter(move |_| !oware)
            .map(move |direction| Start::Board {
                pit: Pit::from_index(side, index),
                direction,
            });
        let house = (oware && index < 6).then(|| Start::Oware(house_of(side, index)));
        board.chain(house)
    })
}

fn start_result(
    start: String,
    laps: &LapTally,
    decision: Option<Vec<String>>,
    outcome: Option<omweso_rules::Outcome>,
) -> StartResult {
    StartResult {
        start,
        laps: laps.laps,
        seeds: laps.seeds,
        captured: laps.captured,
        ends_at: laps
            .last
            .filter(|lap| lap.kind == omweso_rules::LapKind::End && decision.is_none())
            .map(|lap| lap.to.to_string()),
        decision,
        outcome,
    }
}

/// `side`'s house number `index` (0..6) in sowing order: South's `A1`..`F1`, North's
/// `F2`..`A2`.
fn house_of(side: Side, index: u8) -> House {
    House::from_index(index + if side == Side::South { 0 } else { 6 })
}
