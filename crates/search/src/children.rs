//! The children of a position: every legal whole move of the side to move with the game
//! after it, found by the rules engine's enumeration (each turn sown once; the 4x8
//! decision points branch inside it).

use omweso_rules::{Game, GameMove, Outcome, Side};

/// A legal whole move and what it leads to.
#[derive(Clone, Debug)]
pub struct Child {
    pub mv: GameMove,
    /// The game after the move (when `outcome` is set, where the game stopped).
    pub game: Game,
    /// The game's result if the move decided it (a win, Oware's draw, or an annulment:
    /// a never-ending turn or one past the sowing budget).
    pub outcome: Option<Outcome>,
    /// Seeds the move captured.
    pub captured: u32,
}

/// Appends every legal whole move of `side` in `game` to `out`, each played under
/// `budget`, in the engine's order (pit order, anticlockwise first; Oware's column order).
/// The order is fixed, so a move's index in the list names it (the transposition table
/// keeps indices).
pub fn children(game: &Game, side: Side, budget: Option<u64>, out: &mut Vec<Child>) {
    match game {
        Game::Omweso(p) | Game::Mweiso(p) => {
            p.for_each_move(side, budget, |mv, result| {
                out.push(Child {
                    mv: GameMove::Board(mv.clone()),
                    game: Game::from(result.position),
                    outcome: result.outcome,
                    captured: result.summary.captured,
                });
            });
        }
        Game::Oware(p) => {
            if p.to_move() != side {
                return;
            }
            p.for_each_move(budget, |house, result| {
                out.push(Child {
                    mv: GameMove::Oware(house),
                    game: Game::Oware(result.position),
                    outcome: result.outcome,
                    captured: u32::from(result.captured),
                });
            });
        }
    }
}

/// Who moves next in `game` (reached by a move): the side to move, or, in Mweiso's
/// opening where only one player still owes their turn, that player.
#[must_use]
pub fn mover(game: &Game) -> Option<Side> {
    game.to_move()
}
