//! How the computer answers a proposal to stop at an Oware impasse (docs/rules.md#3-oware-abapa). It never
//! proposes one itself: whether a position is an impasse is a judgment about every line of
//! play from it, and a machine that proposed would do so on a guess.
//!
//! The rule, from the computer's side (`me`), on the position as it stands:
//!
//! 1. The split (the seeds left shared evenly, the odd one to the side with more) would
//!    lose it the game: **decline**.
//! 2. The split would win it the game: **accept** (nothing better can come of playing on).
//! 3. The split would draw: **accept** only when it cannot force a capture of its own
//!    within [`HORIZON_PLIES`] plies, against any defence (an AND-OR search: some move of
//!    its own at each of its turns, every reply of the opponent's); a search that visits
//!    more than [`MAX_NODES`] positions without an answer counts as "it may capture", and
//!    it declines.
//!
//! Deterministic: the same position always gets the same answer, so a game replayed from
//! its log (where the answer is an action) and a game played again agree.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

use omweso_rules::oware::Position;
use omweso_rules::{Game, Outcome, Side};

use super::table::Action;

/// How far ahead the computer looks for a capture it can force: 12 plies, six turns each.
pub const HORIZON_PLIES: u8 = 12;

/// The most positions the search visits before it gives up (and declines).
pub const MAX_NODES: u64 = 200_000;

/// The computer's answer, as the action it sends.
#[must_use]
pub fn answer(game: &Game, me: Side, stop: &AtomicBool) -> Action {
    let accept = game.oware().is_some_and(|p| accepts(p, me, stop));
    Action::ImpasseAnswer { accept }
}

/// Whether the computer, playing `me`, accepts stopping in `position` (the rule above).
#[must_use]
pub fn accepts(position: &Position, me: Side, stop: &AtomicBool) -> bool {
    let (_, outcome) = position.settle_impasse();
    match outcome {
        Outcome::Win { winner, .. } => winner == me,
        Outcome::Draw => {
            let mut search = Search {
                me,
                nodes: 0,
                proven: HashMap::new(),
                stop,
            };
            search.forces_capture(position, HORIZON_PLIES) == Some(false)
        }
        Outcome::Annulled { .. } => false,
    }
}

struct Search<'a> {
    me: Side,
    nodes: u64,
    /// Positions where `me` cannot force a capture within the plies recorded (at most).
    proven: HashMap<Position, u8>,
    stop: &'a AtomicBool,
}

impl Search<'_> {
    /// Whether `me` can force a capture within `plies` from `position`: `Some(true)`,
    /// `Some(false)`, or `None` when the search gave up.
    fn forces_capture(&mut self, position: &Position, plies: u8) -> Option<bool> {
        if plies == 0 {
            return Some(false);
        }
        if self.proven.get(position).is_some_and(|&p| p >= plies) {
            return Some(false);
        }
        self.nodes += 1;
        if self.nodes > MAX_NODES || self.stop.load(Ordering::Relaxed) {
            return None;
        }
        let mover = position.to_move();
        let mut children = Vec::with_capacity(6);
        position.for_each_move(None, |_, result| children.push(*result));
        if children.is_empty() {
            return Some(false);
        }
        // The game over in this position (or no move): no capture to come.
        let mut forced = mover != self.me;
        let mut gave_up = false;
        for result in children {
            let here = if mover == self.me && result.captured > 0 {
                Some(true)
            } else if result.outcome.is_some() {
                // The move ends the game: no capture of mine comes after it.
                Some(false)
            } else {
                self.forces_capture(&result.position, plies - 1)
            };
            match (here, mover == self.me) {
                (Some(true), true) => return Some(true),
                (Some(false), false) => {
                    forced = false;
                    break;
                }
                (None, _) => gave_up = true,
                _ => {}
            }
        }
        if mover != self.me && !forced {
            // A reply escapes every capture: not forced here, whatever was unknown.
        } else if gave_up {
            return None;
        }
        if !forced {
            let p = self.proven.entry(*position).or_insert(0);
            *p = (*p).max(plies);
        }
        Some(forced)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(text: &str) -> Position {
        text.parse().expect("a valid position")
    }

    fn go() -> AtomicBool {
        AtomicBool::new(false)
    }

    #[test]
    fn a_split_that_loses_is_declined_and_one_that_wins_accepted() {
        // 6 left (South E1 1, North B2 5): 3 each, 23-25.
        let p = pos("0,5,0,0,0,0/0,0,0,0,1,0 s 20 22");
        assert!(!accepts(&p, Side::South, &go()));
        assert!(accepts(&p, Side::North, &go()));
        let game = Game::Oware(p);
        assert_eq!(
            answer(&game, Side::North, &go()),
            Action::ImpasseAnswer { accept: true }
        );
    }

    #[test]
    fn a_drawn_split_is_declined_while_a_capture_can_be_forced() {
        // 24-24 after the split (4 left: 2 each). South's E1 sows F1 and F2: F2's 1
        // becomes 2 and is captured (North still has A2's 1: no grand slam).
        let p = pos("1,0,0,0,0,1/0,0,0,0,2,0 s 22 22");
        assert_eq!(p.impasse_split(), [2, 2]);
        assert!(!accepts(&p, Side::South, &go()));
    }

    #[test]
    fn a_drawn_split_is_accepted_when_no_capture_can_come() {
        // One seed a side, 23-23: 1 each, 24-24. South's A1 goes to B1; North's A2 to A1,
        // leaving North empty and South unable to feed it (no seed reaches F1): the game
        // ends there, with no capture on the way. South cannot capture again: it accepts.
        let p = pos("1,0,0,0,0,0/1,0,0,0,0,0 s 23 23");
        assert_eq!(p.impasse_split(), [1, 1]);
        assert!(accepts(&p, Side::South, &go()));
        assert!(accepts(&p, Side::North, &go()));
    }

    #[test]
    fn the_answer_is_a_decline_outside_oware_and_when_stopped() {
        let omweso = Game::start(
            omweso_rules::Ruleset::Omweso,
            omweso_rules::Preset::Outer,
            Side::South,
        );
        assert_eq!(
            answer(&omweso, Side::South, &go()),
            Action::ImpasseAnswer { accept: false }
        );
        // Stopped before it could tell: it declines.
        let p = pos("1,0,0,0,0,1/0,0,0,0,2,0 s 22 22");
        assert!(!accepts(&p, Side::North, &AtomicBool::new(true)));
    }
}
