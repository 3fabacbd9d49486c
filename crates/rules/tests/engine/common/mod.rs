//! Helpers shared by the integration tests.

pub mod reference;

use omweso_rules::{Lap, Position, Rules, Side, TurnResult};

/// A hand-made position under `rules`; it may hold fewer than 64 seeds.
pub fn position(text: &str, rules: Rules) -> Position {
    Position::from_setup_partial(text.parse().expect("a position string"), rules)
        .expect("a valid position")
}

/// A hand-made Omweso position (fewer than 64 seeds allowed).
pub fn omweso(text: &str) -> Position {
    position(text, Rules::OMWESO)
}

/// Every legal move of the side to move, in notation.
pub fn moves(pos: &Position) -> Vec<String> {
    let side = pos.to_move().single().expect("one side to move");
    moves_of(pos, side)
}

pub fn moves_of(pos: &Position, side: Side) -> Vec<String> {
    pos.legal_moves(side, None)
        .iter()
        .map(ToString::to_string)
        .collect()
}

/// Plays `mv`, returning the result and each lap as `from dir seeds to kind captured`,
/// e.g. `G1a2 H2 capture 3`.
pub fn play(pos: &Position, mv: &str, budget: Option<u64>) -> (TurnResult, Vec<String>) {
    let mut laps: Vec<Lap> = Vec::new();
    let result = pos
        .play_observed(&mv.parse().expect("a move"), budget, &mut laps)
        .unwrap_or_else(|e| panic!("{mv} should be legal in {pos}: {e}"));
    (result, laps.iter().map(describe).collect())
}

pub fn describe(lap: &Lap) -> String {
    format!(
        "{}{}{} {} {} {}",
        lap.from,
        lap.direction,
        lap.seeds,
        lap.to,
        lap.kind.name(),
        lap.captured
    )
}

/// The error message of an illegal move.
pub fn refusal(pos: &Position, mv: &str) -> String {
    match pos.play(&mv.parse().expect("a move"), None) {
        Ok(r) => panic!("{mv} should be refused in {pos}, but gave {}", r.position),
        Err(e) => e.to_string(),
    }
}
