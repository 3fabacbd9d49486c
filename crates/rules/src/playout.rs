//! Random playouts, the engine's standard speed measure (`omweso bench` and the divan
//! benches): from the standard start (or any [`Game`]), every legal whole move is enumerated at every ply
//! and one chosen uniformly at random is played, until the game ends.
//!
//! The caller supplies the random choice (`choose(n)` returns an index below `n`), so this
//! crate needs no random number generator of its own.

use crate::oware;
use crate::{Game, Owing, Position, Preset, Ruleset, Side, ToMove, Turn};

/// The sowing budget of every Omweso and Mweiso move: the 3-minute limit at 4 seeds a
/// second (docs/rules.md#4-play-under-the-referee-server-rules). A turn that runs out of it annuls the game, which ends the playout.
pub const BUDGET: u64 = 720;

/// A game still going after this many plies is stopped and counted as played: random play
/// may in principle shuffle seeds forever (an endless Oware cycle, say).
pub const MAX_PLIES: u32 = 2_000;

/// What one playout did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Playout {
    pub plies: u32,
    /// Whole moves enumerated over all plies.
    pub moves_enumerated: u64,
    /// Stopped at [`MAX_PLIES`] rather than by the rules.
    pub capped: bool,
}

/// Plays random games; keeps no state between them, but stays a type so that reusable
/// buffers can be added without changing its users.
#[derive(Default, Debug)]
pub struct Playouts {}

impl Playouts {
    /// Plays one random game of `ruleset` from its standard start (Omweso from the `outer`
    /// preset), South first.
    pub fn play(&mut self, ruleset: Ruleset, choose: &mut impl FnMut(usize) -> usize) -> Playout {
        self.play_game(Game::start(ruleset, Preset::Outer, Side::South), choose)
    }

    /// Plays one random game on from `game`, of any ruleset. The same `choose` answers
    /// (a generator seeded alike) play the same game.
    pub fn play_game(&mut self, game: Game, choose: &mut impl FnMut(usize) -> usize) -> Playout {
        // One dispatch per game: each board's loop is its own fast path.
        match game {
            Game::Omweso(position) | Game::Mweiso(position) => self.board_game(position, choose),
            Game::Oware(position) => self.oware_game(position, choose),
        }
    }

    fn board_game(
        &mut self,
        mut position: Position,
        choose: &mut impl FnMut(usize) -> usize,
    ) -> Playout {
        let mut playout = Playout::default();
        while playout.plies < MAX_PLIES {
            let side = match position.to_move() {
                // Mweiso's simultaneous opening: either player's turn may arrive first,
                // unless one of them has no opening turn and skips it (docs/rules.md#2-mweiso-kagera-murray-1951).
                ToMove::Opening(Owing::Both) => match Side::ALL.map(|s| position.can_move(s)) {
                    [true, true] => Side::ALL[choose(2)],
                    [true, false] => Side::South,
                    _ => Side::North,
                },
                to_move => to_move.single().expect("one side to move"),
            };
            // Reservoir sampling: the i-th move enumerated replaces the pick with
            // probability 1/i, which leaves every move equally likely; only the picked
            // turn is kept, so no move list is built and nothing is replayed.
            let mut seen = 0;
            let mut picked: Option<Turn> = None;
            position.for_each_turn(side, Some(BUDGET), |_, turn| {
                seen += 1;
                if choose(seen) == 0 {
                    picked = Some(turn.clone());
                }
            });
            playout.moves_enumerated += seen as u64;
            let Some(turn) = picked else {
                return playout;
            };
            let result = turn.result().expect("an enumerated turn is done");
            playout.plies += 1;
            if result.outcome.is_some() {
                return playout;
            }
            position = result.position;
        }
        playout.capped = true;
        playout
    }

    fn oware_game(
        &mut self,
        mut position: oware::Position,
        choose: &mut impl FnMut(usize) -> usize,
    ) -> Playout {
        let mut playout = Playout::default();
        while playout.plies < MAX_PLIES {
            let mut moves = position.moves();
            let count = moves.len();
            playout.moves_enumerated += count as u64;
            let Some(pick) = moves.nth(choose(count.max(1))) else {
                return playout;
            };
            let result = position.play_unchecked(pick, None);
            playout.plies += 1;
            if result.outcome.is_some() {
                return playout;
            }
            position = result.position;
        }
        playout.capped = true;
        playout
    }
}
