//! Oware (Abapa), docs/rules.md#3-oware-abapa: houses, position strings, sowing, captures, grand slam,
//! must feed, the end of the game, and property tests against a plain seed-by-seed
//! reference implementation. One module per part of the rules; the helpers are here.

mod checked_play;
mod end;
mod notation;
mod openspiel;
mod properties;
mod sowing;

use omweso_rules::oware::{House, Lap, MoveResult, Position, Setup};
use omweso_rules::{Outcome, Side, Victory};

// ----------------------------------------------------------------------------------------
// Helpers

/// A position from the houses in sowing order (OpenSpiel's layout: South A1..F1 = 0..5,
/// North F2..A2 = 6..11), the side to move and the captures `[South, North]`.
pub(super) fn pos(houses: [u8; 12], to_move: Side, captured: [u8; 2]) -> Position {
    Position::from_setup(Setup {
        houses,
        to_move,
        captured,
    })
    .expect("a test position holds 48 seeds")
}

pub(super) fn h(name: &str) -> House {
    name.parse().expect("a test house is valid")
}

pub(super) fn names(houses: &[House]) -> Vec<String> {
    houses.iter().map(ToString::to_string).collect()
}

pub(super) fn win(winner: Side) -> Option<Outcome> {
    Some(Outcome::Win {
        winner,
        victory: Victory::Captures,
    })
}

pub(super) fn play(position: &Position, house: &str) -> MoveResult {
    position
        .play(h(house), None)
        .expect("the test move is legal")
}

pub(super) fn play_laps(position: &Position, house: &str) -> (MoveResult, Vec<Lap>) {
    let mut laps = Vec::new();
    let result = position
        .play_observed(h(house), None, &mut |lap| laps.push(lap))
        .expect("the test move is legal");
    (result, laps)
}
