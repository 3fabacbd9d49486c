//! A validated Oware position: legal moves, the game's result and the agreed end of an
//! impasse.

use std::fmt;
use std::str::FromStr;

use super::board::Board;
use super::{House, Moves, ParseSetupError, Setup};
use crate::{Outcome, Side, Victory};

/// Seeds in an Oware game.
pub const SEEDS: u8 = 48;

/// More than half of the seeds: captured, they win (docs/rules.md#3-oware-abapa).
const WINNING: u8 = SEEDS / 2 + 1;

/// Why a [`Setup`] is not a valid Oware position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error("the position holds {board} seeds on the board and {captured} captured, {} in all; Oware is played with exactly 48", board + captured)]
    SeedTotal { board: u32, captured: u32 },
}

/// Why a string is not a valid Oware position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParsePositionError {
    #[error(transparent)]
    Setup(#[from] ParseSetupError),
    #[error(transparent)]
    Position(#[from] PositionError),
}

/// A valid Oware position: the twelve houses, who is to move, and each player's captures,
/// 48 seeds in all.
///
/// ```
/// use omweso_rules::oware::Position;
/// use omweso_rules::Side;
///
/// let start = Position::start(Side::South);
/// assert_eq!(start.to_string(), "4,4,4,4,4,4/4,4,4,4,4,4 s 0 0");
/// let moves: Vec<String> = start.legal_moves().iter().map(|h| h.to_string()).collect();
/// assert_eq!(moves, ["A1", "B1", "C1", "D1", "E1", "F1"]);
/// let after = start.play("C1".parse().unwrap(), None).unwrap();
/// assert_eq!(after.position.to_string(), "4,4,4,4,4,5/4,4,0,5,5,5 n 0 0");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    board: Board,
    to_move: Side,
    captured: [u8; 2],
    /// The legal moves (house-index bits), a function of the fields above kept to make
    /// move generation free: empty exactly when the game is over.
    legal: u16,
}

/// The result by captures, if they decide the game: more than 24 wins, 24-24 draws.
#[inline]
pub(super) const fn judge(captured: [u8; 2]) -> Option<Outcome> {
    let winner = if captured[0] >= WINNING {
        Side::South
    } else if captured[1] >= WINNING {
        Side::North
    } else if captured[0] == SEEDS / 2 && captured[1] == SEEDS / 2 {
        return Some(Outcome::Draw);
    } else {
        return None;
    };
    Some(Outcome::Win {
        winner,
        victory: Victory::Captures,
    })
}

impl Position {
    /// The start of a game: 4 seeds in every house, nothing captured; `first` moves first.
    #[must_use]
    pub const fn start(first: Side) -> Position {
        Position::new(Board::START, first, [0; 2])
    }

    /// The position, its legal moves worked out: none when captures decide the game.
    #[inline]
    pub(super) const fn new(board: Board, to_move: Side, captured: [u8; 2]) -> Position {
        let legal = if judge(captured).is_some() {
            0
        } else {
            board.movable(to_move)
        };
        Position {
            board,
            to_move,
            captured,
            legal,
        }
    }

    /// The same board and captures with `side` to move: the referee's steal (docs/rules.md#4-play-under-the-referee-server-rules),
    /// where the opponent plays the turn instead, from the same position.
    #[must_use]
    pub const fn with_side_to_move(&self, side: Side) -> Position {
        Position::new(self.board, side, self.captured)
    }

    /// The board.
    #[inline]
    pub(super) const fn board(&self) -> Board {
        self.board
    }

    /// Checks a setup: the board and both captures hold exactly 48 seeds.
    pub fn from_setup(setup: Setup) -> Result<Position, PositionError> {
        let board: u32 = setup.houses.iter().map(|&n| u32::from(n)).sum();
        let captured: u32 = setup.captured.iter().map(|&n| u32::from(n)).sum();
        if board + captured != u32::from(SEEDS) {
            return Err(PositionError::SeedTotal { board, captured });
        }
        Ok(Position::new(
            Board::from_counts(setup.houses),
            setup.to_move,
            setup.captured,
        ))
    }

    /// The board, side to move and captures.
    #[must_use]
    #[inline]
    pub const fn setup(&self) -> Setup {
        Setup {
            houses: self.board.counts(),
            to_move: self.to_move,
            captured: self.captured,
        }
    }

    /// Seeds in each house, in sowing order ([`House::index`]).
    #[must_use]
    #[inline]
    pub const fn houses(&self) -> [u8; 12] {
        self.board.counts()
    }

    /// The seeds in `house`.
    #[must_use]
    #[inline]
    pub const fn seeds(&self, house: House) -> u8 {
        self.board.get(house.index() as usize)
    }

    #[must_use]
    #[inline]
    pub const fn to_move(&self) -> Side {
        self.to_move
    }

    /// Seeds `side` has captured so far.
    #[must_use]
    #[inline]
    pub const fn captured(&self, side: Side) -> u8 {
        self.captured[side.index()]
    }

    /// Seeds on `side`'s row of the board.
    #[must_use]
    #[inline]
    pub const fn seeds_on(&self, side: Side) -> u8 {
        self.board.seeds_on(side)
    }

    /// The legal moves, in column order, as a copyable iterator that allocates nothing
    /// (what [`Position::legal_moves`] collects).
    #[must_use]
    #[inline]
    pub const fn moves(&self) -> Moves {
        Moves::new(self.legal, self.to_move)
    }

    /// Every legal move, in column order (South `A1`..`F1`, North `A2`..`F2`). Empty when the
    /// game is over in this position. When the opponent has no seeds only moves that give
    /// them some are legal (must feed).
    ///
    /// ```
    /// use omweso_rules::oware::Position;
    ///
    /// // North is empty: South must feed, and only F1 reaches North's row.
    /// let pos: Position = "0,0,0,0,0,0/1,0,0,0,0,1 s 24 22".parse().unwrap();
    /// let moves: Vec<String> = pos.legal_moves().iter().map(|h| h.to_string()).collect();
    /// assert_eq!(moves, ["F1"]);
    /// ```
    #[must_use]
    pub fn legal_moves(&self) -> Vec<House> {
        self.moves().collect()
    }

    /// Is `house` a legal move here?
    #[must_use]
    #[inline]
    pub const fn is_legal(&self, house: House) -> bool {
        self.legal & (1 << house.index()) != 0
    }

    /// This position with each player's seeds on the board added to their captures and the
    /// board emptied: the end of the game, when a player reached 25 or the side to move
    /// cannot move (docs/rules.md#3-oware-abapa).
    pub(super) const fn swept(&self) -> Position {
        let captured = [
            self.captured[0] + self.seeds_on(Side::South),
            self.captured[1] + self.seeds_on(Side::North),
        ];
        Position {
            board: Board::EMPTY,
            to_move: self.to_move,
            captured,
            legal: 0,
        }
    }

    /// The result on captures of a position whose board is empty.
    fn final_result(&self) -> Outcome {
        // With all 48 seeds captured, nobody over 24 means 24-24.
        judge(self.captured).unwrap_or(Outcome::Draw)
    }

    /// The game's result in this position if the game is already over in it: a player has
    /// captured 25 or more (they win, [`Victory::Captures`]); both have 24 (a draw); or the
    /// side to move has no legal move, when each player captures the seeds on their own
    /// side and the result is judged on captures.
    ///
    /// ```
    /// use omweso_rules::oware::Position;
    /// use omweso_rules::{Outcome, Side, Victory};
    ///
    /// // South to move has no seeds: North takes its 6 and has 26.
    /// let pos: Position = "0,0,0,0,0,6/0,0,0,0,0,0 s 22 20".parse().unwrap();
    /// assert_eq!(
    ///     pos.outcome(),
    ///     Some(Outcome::Win { winner: Side::North, victory: Victory::Captures })
    /// );
    /// assert_eq!(Position::start(Side::South).outcome(), None);
    /// ```
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        if self.legal != 0 {
            None
        } else {
            // Either captures decide, or the side to move has no legal move: the sweep.
            judge(self.captured).or_else(|| Some(self.swept().final_result()))
        }
    }

    /// How the seeds left on the board are shared when the players agree to stop at an
    /// impasse (docs/rules.md#3-oware-abapa, "Impasse"): evenly, `[south, north]`, the player with more
    /// seeds on their side keeping the odd one. (An odd number left cannot lie evenly on
    /// the two sides, so the odd seed always has an owner.)
    ///
    /// ```
    /// use omweso_rules::oware::Position;
    ///
    /// // 5 left, 1 on South's side and 4 on North's: 2 each, and North keeps the odd one.
    /// let pos: Position = "0,0,4,0,0,0/0,0,0,0,1,0 s 20 23".parse().unwrap();
    /// assert_eq!(pos.impasse_split(), [2, 3]);
    /// ```
    #[must_use]
    pub const fn impasse_split(&self) -> [u8; 2] {
        let south = self.seeds_on(Side::South);
        let north = self.seeds_on(Side::North);
        let half = (south + north) / 2;
        let odd = (south + north) % 2;
        if south > north {
            [half + odd, half]
        } else {
            [half, half + odd]
        }
    }

    /// The agreed end of an impasse (docs/rules.md#3-oware-abapa): the seeds left are split as
    /// [`Position::impasse_split`] says and the game is scored on captures, a win being
    /// [`Victory::Impasse`]. Returns the position after that (board empty, same side to
    /// move) and the result.
    ///
    /// ```
    /// use omweso_rules::oware::Position;
    /// use omweso_rules::{Outcome, Side, Victory};
    ///
    /// // 4 left (1 South, 3 North): 2 each, 22-26.
    /// let pos: Position = "0,0,3,0,0,0/0,0,0,0,1,0 s 20 24".parse().unwrap();
    /// let (end, outcome) = pos.settle_impasse();
    /// assert_eq!(end.to_string(), "0,0,0,0,0,0/0,0,0,0,0,0 s 22 26");
    /// assert_eq!(outcome, Outcome::Win { winner: Side::North, victory: Victory::Impasse });
    /// ```
    #[must_use]
    pub fn settle_impasse(&self) -> (Position, Outcome) {
        let [south, north] = self.impasse_split();
        let captured = [self.captured[0] + south, self.captured[1] + north];
        let end = Position {
            board: Board::EMPTY,
            to_move: self.to_move,
            captured,
            legal: 0,
        };
        let outcome = match end.final_result() {
            Outcome::Win { winner, .. } => Outcome::Win {
                winner,
                victory: Victory::Impasse,
            },
            other => other,
        };
        (end, outcome)
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.setup().fmt(f)
    }
}

impl FromStr for Position {
    type Err = ParsePositionError;

    fn from_str(s: &str) -> Result<Position, ParsePositionError> {
        Ok(Position::from_setup(s.parse()?)?)
    }
}
