//! Playing an Oware move: sowing, capture, grand slam, must feed and the end of the game.

use super::board::{row_start, Board};
use super::{House, Lap, LapKind, Position};
use crate::{AnnulReason, Outcome, Side, TurnEnd};

/// A played Oware move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveResult {
    /// The position after the move, the other side to move. When the move ended the game
    /// (a player reached 25, 24-24, or the next player has no legal move), this is after
    /// the final sweep: each player's seeds on the board added to their captures, so that
    /// the captures add up to 48. When the budget stopped the move, the board is
    /// unchanged.
    pub position: Position,
    /// Seeds dropped (0 when the budget stopped the move).
    pub seeds_sown: u64,
    /// Seeds captured by the move itself (the final sweep not included; 0 for a grand slam).
    pub captured: u8,
    /// [`TurnEnd::Ended`], or [`TurnEnd::Budget`] when the seeds in hand exceeded the budget.
    pub end: TurnEnd,
    /// The game's result if the move decided it (or annulled it, out of budget).
    pub outcome: Option<Outcome>,
}

/// Why an Oware move is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    #[error("the game is already over in this position ({0})")]
    GameOver(Outcome),
    #[error("{house} is {}'s house, and it is {}'s turn", house.side().name(), to_move.name())]
    NotYourHouse { house: House, to_move: Side },
    #[error("house {house} is empty")]
    EmptyHouse { house: House },
    #[error("{} has no seeds and {house} does not give them any; moves that feed {}: {}", opponent.name(), opponent.name(), list(feeding))]
    MustFeed {
        house: House,
        opponent: Side,
        /// The legal moves, all of which feed the opponent (never empty).
        feeding: Vec<House>,
    },
}

fn list(houses: &[House]) -> String {
    let names: Vec<String> = houses.iter().map(ToString::to_string).collect();
    names.join(", ")
}

/// Captures after the last seed fell in house `last`, sown by `mover`: the run of opponent
/// houses holding 2 or 3 that ends at `last`, unless that would take every seed on the
/// opponent's side (a grand slam, which captures nothing). Returns the seeds captured.
#[inline]
fn capture(board: &mut Board, mover: Side, last: usize) -> u8 {
    let start = row_start(mover.other());
    if !(start..start + 6).contains(&last) {
        return 0;
    }
    let mut first = last + 1;
    let mut taken = 0u8;
    while first > start && matches!(board.get(first - 1), 2 | 3) {
        first -= 1;
        taken += board.get(first);
    }
    if taken == 0 || taken == board.seeds_on(mover.other()) {
        return 0; // nothing, or a grand slam
    }
    board.clear(first, last);
    taken
}

impl Position {
    /// Plays `house`, checking it: the game is not over, the house is the mover's, it is
    /// not empty, and if the opponent has no seeds it gives them some. `budget` bounds the
    /// seeds the move may sow (`None`: no bound): a move with more seeds in hand stops
    /// before sowing ([`TurnEnd::Budget`], the game annulled).
    ///
    /// ```
    /// use omweso_rules::oware::Position;
    /// use omweso_rules::{Outcome, Side, TurnEnd, Victory};
    ///
    /// // South's 3 seeds from E1 go to F1, F2 and E2, making 3 in F2 and 2 in E2: both
    /// // are captured, and South has 26.
    /// let pos: Position = "1,0,0,0,1,2/0,0,0,0,3,1 s 21 19".parse().unwrap();
    /// let result = pos.play("E1".parse().unwrap(), None).unwrap();
    /// assert_eq!(result.captured, 5);
    /// assert_eq!(result.end, TurnEnd::Ended);
    /// assert_eq!(result.position.to_string(), "0,0,0,0,0,0/0,0,0,0,0,0 n 28 20");
    /// assert_eq!(
    ///     result.outcome,
    ///     Some(Outcome::Win { winner: Side::South, victory: Victory::Captures })
    /// );
    /// assert_eq!(
    ///     pos.play("A1".parse().unwrap(), None).unwrap_err().to_string(),
    ///     "house A1 is empty"
    /// );
    /// ```
    #[inline]
    pub fn play(&self, house: House, budget: Option<u64>) -> Result<MoveResult, IllegalMove> {
        self.play_observed(house, budget, &mut |_| {})
    }

    /// Plays a move known to be legal (from [`Position::moves`], say) without checking it:
    /// the bot's fast path. An illegal move never panics, but its result is unspecified.
    #[inline]
    #[must_use]
    pub fn play_unchecked(&self, house: House, budget: Option<u64>) -> MoveResult {
        self.play_legal(house, budget, &mut |_| {})
    }

    /// As [`Position::play`], telling `observer` of the move's one lap (nothing when the
    /// budget stops the move before sowing).
    #[inline]
    pub fn play_observed(
        &self,
        house: House,
        budget: Option<u64>,
        observer: &mut impl FnMut(Lap),
    ) -> Result<MoveResult, IllegalMove> {
        if self.is_legal(house) {
            Ok(self.play_legal(house, budget, observer))
        } else {
            Err(self.why_illegal(house))
        }
    }

    /// Why `house`, not a legal move, is illegal.
    #[cold]
    pub(crate) fn why_illegal(&self, house: House) -> IllegalMove {
        if let Some(outcome) = self.outcome() {
            IllegalMove::GameOver(outcome)
        } else if house.side() != self.to_move() {
            IllegalMove::NotYourHouse {
                house,
                to_move: self.to_move(),
            }
        } else if self.seeds(house) == 0 {
            IllegalMove::EmptyHouse { house }
        } else {
            IllegalMove::MustFeed {
                house,
                opponent: self.to_move().other(),
                feeding: self.legal_moves(),
            }
        }
    }

    /// Plays every legal move in turn (in the order of [`Position::legal_moves`]), handing
    /// each with its result to `f`. Allocates nothing.
    pub fn for_each_move(&self, budget: Option<u64>, mut f: impl FnMut(House, &MoveResult)) {
        for house in self.moves() {
            f(house, &self.play_legal(house, budget, &mut |_| {}));
        }
    }

    /// Plays a legal move.
    #[inline]
    pub(crate) fn play_legal(
        &self,
        house: House,
        budget: Option<u64>,
        observer: &mut impl FnMut(Lap),
    ) -> MoveResult {
        let mover = self.to_move();
        let origin = usize::from(house.index());
        let mut board = self.board();
        let seeds = board.get(origin);
        let mut captured = [self.captured(Side::South), self.captured(Side::North)];
        if budget.is_some_and(|budget| u64::from(seeds) > budget) {
            return MoveResult {
                position: Position::new(board, mover.other(), captured),
                seeds_sown: 0,
                captured: 0,
                end: TurnEnd::Budget,
                outcome: Some(Outcome::Annulled {
                    reason: AnnulReason::Budget,
                }),
            };
        }
        let last = board.sow(origin, seeds);
        let taken = capture(&mut board, mover, last);
        captured[mover.index()] += taken;
        observer(Lap {
            from: house,
            seeds,
            to: House::from_index(last as u8),
            captured: taken,
            kind: if taken > 0 {
                LapKind::Capture
            } else {
                LapKind::End
            },
        });
        let mut next = Position::new(board, mover.other(), captured);
        let mut outcome = None;
        if next.moves().is_empty() {
            // Captures decided the game, or the next player cannot move: either way the
            // game stops and each player takes the seeds left on their own side (docs/rules.md#3-oware-abapa),
            // which never changes who won: 25 is more than half of 48 whatever follows.
            outcome = next.outcome();
            next = next.swept();
        }
        MoveResult {
            position: next,
            seeds_sown: u64::from(seeds),
            captured: taken,
            end: TurnEnd::Ended,
            outcome,
        }
    }
}
