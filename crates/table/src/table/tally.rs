//! What the table counts over a game (captures, turns, its start and end): a part of the
//! table's state, in a module of its own so that the jobs that count (`facts`, `relay`)
//! and the table that holds it name it without naming each other.

use omweso_rules::{Game, PlayResult, Side};

/// The tallies the table keeps over the game; [`Table::facts`] adds the board's counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Tally {
    pub(super) captured: [u64; 2],
    pub(super) turns: [u32; 2],
    pub(super) started_at_ms: Option<u64>,
    pub(super) ended_at_ms: Option<u64>,
    pub(super) adjudicated: bool,
    /// Each side's arrangement was placed by the referee, their time being up.
    pub(super) late_arranged: [bool; 2],
}

impl Tally {
    /// A whole turn by `by` took the game from `before` to `result`.
    pub(super) fn count_turn(&mut self, by: Side, before: Option<Game>, result: &PlayResult) {
        let turns = &mut self.turns[by.index()];
        *turns = turns.saturating_add(1);
        match (before.and_then(|b| b.scores()), result.game.scores()) {
            // Oware keeps score in the stores: what each store gained is that side's,
            // whoever sowed (the final sweep fills both).
            (Some(before), Some(after)) => {
                for side in Side::ALL {
                    let i = side.index();
                    self.captured[i] += u64::from(after[i].saturating_sub(before[i]));
                }
            }
            // On the 4x8 board captured seeds stay in play: the turn's captures are the
            // mover's.
            _ => self.captured[by.index()] += u64::from(result.summary.captured),
        }
    }
}
