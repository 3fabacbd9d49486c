//! The static evaluation: how good a position is for one side, in hundredths of a seed.
//!
//! - **4x8 (Omweso, Mweiso)**: seeds stay in play, and a player loses when no pit holds
//!   two, so material (seeds on each side) comes first; then mobility (pits of 2 or more,
//!   the moves a player has); then the columns each side has open to capture (both of a
//!   column's pits occupied and the attacker's facing inner pit occupied, so one seed
//!   landing there captures them), counted for the side to move, who strikes first, more
//!   than for the other side.
//! - **Oware**: captures decide the game, so the captured difference comes first; then
//!   seeds on each side (they are the side's moves, and its own at the final sweep); then
//!   the opponent's houses of 1 or 2 (a seed landing there makes 2 or 3, a capture).
//!
//! The weights were chosen by measurement (docs/bots.md); all are from the point of view
//! of `me`, who is to move.

use omweso_rules::{oware, Game, Position, Side};

/// One seed, in evaluation units.
pub const SEED: i32 = 100;

/// The evaluation of `game` for `me`, the side to move, in hundredths of a seed.
#[must_use]
pub fn evaluate(game: &Game, me: Side) -> i32 {
    match game {
        Game::Omweso(p) | Game::Mweiso(p) => board(p, me),
        Game::Oware(p) => oware(p, me),
    }
}

/// The scale of [`evaluate`] for the reported score: `tanh(eval / scale)`, so that an
/// advantage of a quarter of the seeds (16 on the 4x8 board, 8 captured in Oware) reads
/// about 0.76.
#[must_use]
pub fn scale(game: &Game) -> f64 {
    match game {
        Game::Omweso(_) | Game::Mweiso(_) => f64::from(16 * SEED),
        Game::Oware(_) => f64::from(8 * SEED),
    }
}

const MOBILITY: i32 = 15;
/// Seeds the side to move has open to capture, per seed.
const ATTACK: i32 = 25;
/// Seeds the side to move has open to the opponent's capture, per seed.
const EXPOSED: i32 = 10;

fn board(p: &Position, me: Side) -> i32 {
    let mine = p.board().counts(me);
    let theirs = p.board().counts(me.other());
    let material: i32 = mine.iter().map(|&s| i32::from(s)).sum::<i32>()
        - theirs.iter().map(|&s| i32::from(s)).sum::<i32>();
    let mobility = mine.iter().filter(|&&s| s >= 2).count() as i32
        - theirs.iter().filter(|&&s| s >= 2).count() as i32;
    SEED * material + MOBILITY * mobility + ATTACK * open_to(&mine, &theirs)
        - EXPOSED * open_to(&theirs, &mine)
}

/// Seeds of `victim` that `attacker` could capture with one seed landing in the right
/// inner pit: for each of the attacker's inner pits `k` (8..15) that is occupied, the
/// victim's inner pit `23 - k` and outer pit `k - 8` of that column, if both are
/// occupied (docs/rules.md#01-the-4x8-board-omweso-mweiso and 1.2.1).
fn open_to(attacker: &[u8; 16], victim: &[u8; 16]) -> i32 {
    (8..16)
        .filter(|&k| attacker[k] > 0)
        .map(|k| (victim[23 - k], victim[k - 8]))
        .filter(|&(inner, outer)| inner > 0 && outer > 0)
        .map(|(inner, outer)| i32::from(inner) + i32::from(outer))
        .sum()
}

const ON_SIDE: i32 = 20;
/// An opponent house of 1 or 2 seeds (a target), each.
const TARGET: i32 = 15;

fn oware(p: &oware::Position, me: Side) -> i32 {
    let captured = i32::from(p.captured(me)) - i32::from(p.captured(me.other()));
    let on_side = i32::from(p.seeds_on(me)) - i32::from(p.seeds_on(me.other()));
    let houses = p.houses();
    let targets = |side: Side| {
        let start = if side == Side::South { 0 } else { 6 };
        houses[start..start + 6]
            .iter()
            .filter(|&&s| s == 1 || s == 2)
            .count() as i32
    };
    SEED * captured + ON_SIDE * on_side + TARGET * (targets(me.other()) - targets(me))
}

#[cfg(test)]
mod tests {
    use super::*;
    use omweso_rules::Ruleset;

    #[test]
    fn the_starts_are_even_but_for_the_move() {
        // Omweso's outer start and Oware's: nothing open, nothing different.
        for ruleset in [Ruleset::Omweso, Ruleset::Oware] {
            let game = Game::start(ruleset, omweso_rules::Preset::Outer, Side::South);
            assert_eq!(evaluate(&game, Side::South), 0, "{ruleset}");
            assert_eq!(evaluate(&game, Side::North), 0, "{ruleset}");
        }
        // Mweiso's 2 in every pit: all 8 columns (4 seeds each) open both ways, and the
        // side to move strikes first.
        let game = Game::start(Ruleset::Mweiso, omweso_rules::Preset::Even, Side::South);
        assert_eq!(evaluate(&game, Side::South), (ATTACK - EXPOSED) * 32);
        assert_eq!(evaluate(&game, Side::North), (ATTACK - EXPOSED) * 32);
    }

    #[test]
    fn the_worked_example_counts_material_mobility_and_open_columns() {
        // docs/rules.md#16-worked-example. North: row 4 = 5,0,0,0,1,1,1,1, row 3 = 0,3,0,5,5,5,0,5 (32 seeds);
        // South: row 2 = 10,4,1,4,4,0,0,4, row 1 = 1,0,0,0,4,0,0,0 (32). Material 0.
        // Pits of 2+: South A2 B2 D2 E2 H2 E1 = 6, North A4 B3 D3 E3 F3 H3 = 6: mobility 0.
        // South's columns with both pits occupied: A (A2 10, A1 1) and E (E2 4, E1 4);
        // North's facing inner pit A3 is empty, E3 holds 5: 8 seeds open to North.
        // North's: E (E3 5, E4 1), F (F3 5, F4 1), H (H3 5, H4 1); South's facing E2 4,
        // F2 0, H2 4: 12 seeds open to South.
        let game = Game::parse(
            Ruleset::Omweso,
            "5,0,0,0,1,1,1,1/0,3,0,5,5,5,0,5/10,4,1,4,4,0,0,4/1,0,0,0,4,0,0,0 s",
        )
        .unwrap();
        assert_eq!(evaluate(&game, Side::South), ATTACK * 12 - EXPOSED * 8);
        assert_eq!(evaluate(&game, Side::North), ATTACK * 8 - EXPOSED * 12);
    }

    #[test]
    fn oware_counts_captures_side_and_targets() {
        // North's row (A2..F2) 1,0,0,0,1,2: 4 seeds, targets A2 E2 F2 = 3; South's row
        // (A1..F1) 0,0,0,0,3,1: 4 seeds, target F1 = 1. Captured 21 to 19.
        let game = Game::parse(Ruleset::Oware, "1,0,0,0,1,2/0,0,0,0,3,1 s 21 19").unwrap();
        assert_eq!(evaluate(&game, Side::South), 2 * SEED + TARGET * (3 - 1));
        assert_eq!(evaluate(&game, Side::North), -2 * SEED + TARGET * (1 - 3));
    }
}
