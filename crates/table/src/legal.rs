//! What each player may do now, worked out by the server so that no client needs the
//! rules (lichess's `movable.dests`): every legal whole move, and what each start does up
//! to its first decision point. Pure: the game's task lists a position itself when that is
//! cheap ([`list_within`]), else on the engine pool ([`list`]).

use omweso_rules::{oware::House, Direction, Game, Pit, Progress, Side, Start};

use super::laps::LapTally;
use super::table::LegalQuery;
use omweso_protocol::{Legal, LegalSide, StartResult};

/// The most seeds listing one side's whole moves may sow in all: about 5 ms of the
/// engine's time. Past it the list holds the legal starts only (docs/protocol.md).
pub const LISTING_WORK: u64 = 2_000_000;

/// The most seeds a listing the game's task makes itself may sow for one side's whole
/// moves, and again for its starts (about 50 µs of the engine's time each, as long as the
/// rest of a move's handling): a usual position's listing costs less than a hand-off to
/// the engine pool and back, and a longer one is left off and listed on the pool.
pub const INLINE_LISTING_WORK: u64 = 20_000;

/// What every side in `query` may do.
#[must_use]
pub fn list(query: &LegalQuery) -> Legal {
    let mut legal = Legal::default();
    for &(side, board) in &query.sides {
        legal.set(side, list_side(board, side, query.budget));
    }
    legal
}

/// What every side in `query` may do, if listing each side's whole moves sows at most
/// `work` seeds and its starts' turns as many again; `None`, having sown no more than
/// that (plus one turn), when a side would take more.
#[must_use]
pub fn list_within(query: &LegalQuery, work: u64) -> Option<Legal> {
    let mut legal = Legal::default();
    for &(side, board) in &query.sides {
        legal.set(
            side,
            list_side_within(board, side, query.budget, Some(work))?,
        );
    }
    Some(legal)
}

/// `side`'s whole legal moves on `game` and what each of its starts does, each turn sown
/// under `budget`. Past [`LISTING_WORK`] the whole moves are cut to the legal starts.
#[must_use]
pub fn list_side(game: Game, side: Side, budget: u64) -> LegalSide {
    // With no bound of its own the listing is never given up.
    list_side_within(game, side, budget, None).unwrap_or_default()
}

/// [`list_side`], given up (`None`) once the whole moves or the starts' turns would sow
/// more than `work` seeds.
fn list_side_within(game: Game, side: Side, budget: u64, work: Option<u64>) -> Option<LegalSide> {
    if !game.may_move(side) {
        return Some(LegalSide::default());
    }
    let whole_work = work.map_or(LISTING_WORK, |w| w.min(LISTING_WORK));
    let found = game.legal_moves_within(side, Some(budget), whole_work);
    if work.is_some() && found.starts_only {
        return None;
    }
    let mut sown = 0u64;
    let mut starts = Vec::new();
    for start in candidate_starts(&game, side) {
        let Ok(mut turn) = game.begin_turn(start, Some(budget)) else {
            continue;
        };
        let mut laps = LapTally::default();
        let (decision, outcome) = match turn.run(&mut laps) {
            Progress::Decision(d) => (
                Some(d.options(side).iter().map(ToString::to_string).collect()),
                None,
            ),
            Progress::Done(_) => (None, turn.result().and_then(|r| r.outcome)),
        };
        sown = sown.saturating_add(laps.seeds);
        if work.is_some_and(|work| sown > work) {
            return None;
        }
        starts.push(start_result(start.to_string(), &laps, decision, outcome));
    }
    Some(LegalSide {
        moves: found.moves.iter().map(ToString::to_string).collect(),
        starts_only: found.starts_only,
        starts,
    })
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

#[cfg(test)]
mod tests {
    use omweso_rules::{Preset, Ruleset};

    use super::*;

    fn start(ruleset: Ruleset) -> LegalQuery {
        let preset = if ruleset == Ruleset::Omweso {
            Preset::Outer
        } else {
            Preset::Even
        };
        LegalQuery {
            sides: vec![(Side::South, Game::start(ruleset, preset, Side::South))],
            budget: 720,
        }
    }

    #[test]
    fn a_cheap_listing_made_inline_is_the_pools_listing() {
        for ruleset in [Ruleset::Omweso, Ruleset::Mweiso, Ruleset::Oware] {
            let query = start(ruleset);
            let listed = list(&query);
            assert!(
                listed
                    .side(Side::South)
                    .is_some_and(|l| !l.moves.is_empty()),
                "{ruleset}"
            );
            assert_eq!(
                list_within(&query, INLINE_LISTING_WORK),
                Some(listed),
                "{ruleset}"
            );
        }
    }

    #[test]
    fn a_listing_past_its_work_is_given_up_for_the_pool() {
        // Every opening move of each game sows seeds: none can be listed within 0 or 1.
        for ruleset in [Ruleset::Omweso, Ruleset::Mweiso, Ruleset::Oware] {
            assert_eq!(list_within(&start(ruleset), 0), None, "{ruleset}");
            assert_eq!(list_within(&start(ruleset), 1), None, "{ruleset}");
        }
        // No side to list: nothing to give up.
        let empty = LegalQuery {
            sides: Vec::new(),
            budget: 720,
        };
        assert_eq!(list_within(&empty, 0), Some(Legal::default()));
    }
}
