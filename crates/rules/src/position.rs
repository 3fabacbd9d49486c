//! A validated Omweso or Mweiso position, and checked play of whole moves on it.

use std::fmt;
use std::str::FromStr;

mod play;

pub use play::IllegalMove;

use crate::board::{any_sowable, captures_clockwise, clear_byte, sowable_mask};
use crate::rules::{OPENING_BYTES, OPENING_PITS};
use crate::{
    Board, Direction, Move, Outcome, Owing, ParseSetupError, Rules, Setup, Side, ToMove, Variant,
    Victory,
};

/// Seeds in a 4x8 game.
pub const SEEDS: u32 = 64;
/// Seeds each player arranges in a free setup.
pub const SEEDS_PER_SIDE: u32 = 32;

/// The fixed starting arrangements of Omweso (docs/rules.md#11-setup).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Preset {
    /// 4 seeds in each of the player's 8 outer pits.
    Outer,
    /// 2 seeds in each of the player's 16 pits (also Mweiso's start).
    Even,
}

impl Preset {
    /// The arrangement of one side, in its anticlockwise order.
    #[must_use]
    pub const fn arrangement(self) -> Arrangement {
        match self {
            Preset::Outer => Arrangement([4, 4, 4, 4, 4, 4, 4, 4, 0, 0, 0, 0, 0, 0, 0, 0]),
            Preset::Even => Arrangement([2; 16]),
        }
    }
}

/// One player's 32 seeds arranged over their 16 pits (a free setup), in the side's own
/// anticlockwise order 0..15. Build it with [`Arrangement::new`], which checks it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Arrangement([u8; 16]);

/// Why a free-setup arrangement is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ArrangementError {
    #[error("an arrangement has 16 counts, one per pit; this one has {0}")]
    Length(usize),
    #[error("an arrangement places exactly 32 seeds; this one places {0}")]
    Total(u64),
}

impl Arrangement {
    /// Checks that `counts` are 16 counts summing to 32.
    ///
    /// ```
    /// use omweso_rules::Arrangement;
    /// assert!(Arrangement::new(&[2; 16]).is_ok());
    /// assert_eq!(
    ///     Arrangement::new(&[3; 16]).unwrap_err().to_string(),
    ///     "an arrangement places exactly 32 seeds; this one places 48"
    /// );
    /// ```
    pub fn new(counts: &[u64]) -> Result<Arrangement, ArrangementError> {
        if counts.len() != 16 {
            return Err(ArrangementError::Length(counts.len()));
        }
        let total = counts.iter().try_fold(0u64, |sum, &c| sum.checked_add(c));
        match total {
            Some(32) => {
                let mut pits = [0u8; 16];
                for (pit, &count) in pits.iter_mut().zip(counts) {
                    // Each count is at most 32 here, since they sum to 32.
                    *pit = count as u8;
                }
                Ok(Arrangement(pits))
            }
            other => Err(ArrangementError::Total(other.unwrap_or(u64::MAX))),
        }
    }

    /// The counts, in the side's anticlockwise order.
    #[must_use]
    pub const fn counts(&self) -> [u8; 16] {
        self.0
    }
}

/// Why a [`Setup`] is not a valid position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error("the position holds {found} seeds; {ruleset} is played with exactly 64")]
    SeedTotal { found: u32, ruleset: crate::Ruleset },
    #[error("the position holds {found} seeds; even a partial study position holds at most 64")]
    TooManySeeds { found: u32 },
    #[error("only Mweiso has an opening phase (o, os, on); an Omweso position says s or n")]
    OpeningOutsideMweiso,
    #[error("neither player has an opening turn (an outer pit of two seeds or more other than the 4th and 5th from their left), so nobody would move first")]
    NoOpeningTurn,
}

/// Why a string is not a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParsePositionError {
    #[error(transparent)]
    Setup(#[from] ParseSetupError),
    #[error(transparent)]
    Position(#[from] PositionError),
}

/// A valid Omweso or Mweiso position: the board, who is to move, the rules, and which
/// players have captured in an earlier turn (for akakyala).
///
/// ```
/// use omweso_rules::{Position, Preset, Rules, Side};
///
/// let start = Position::start(Rules::OMWESO, Preset::Outer, Side::South);
/// assert_eq!(
///     start.to_string(),
///     "4,4,4,4,4,4,4,4/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,4 s"
/// );
/// let moves: Vec<String> = start.legal_moves(Side::South, None).iter().map(|m| m.to_string()).collect();
/// assert_eq!(moves, ["A1", "B1", "C1", "D1", "E1", "F1", "G1", "H1"]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    board: Board,
    to_move: ToMove,
    rules: Rules,
    has_captured: [bool; 2],
}

impl Position {
    /// The start of a game from a preset; `first` moves first. Mweiso always starts with 2
    /// seeds in every pit and both players owing their simultaneous opening turn, so
    /// `preset` and `first` do not matter for it.
    #[must_use]
    pub const fn start(rules: Rules, preset: Preset, first: Side) -> Position {
        match rules.variant {
            Variant::Omweso => {
                let a = preset.arrangement();
                Position::from_arrangements(rules, a, a, first)
            }
            Variant::Mweiso => Position {
                board: Board::from_counts([2; 16], [2; 16]),
                to_move: ToMove::Opening(Owing::Both),
                rules,
                has_captured: [false; 2],
            },
        }
    }

    /// The start of an Omweso game from both players' free arrangements.
    #[must_use]
    pub const fn from_arrangements(
        rules: Rules,
        south: Arrangement,
        north: Arrangement,
        first: Side,
    ) -> Position {
        Position {
            board: Board::from_counts(south.0, north.0),
            to_move: ToMove::Side(first),
            rules,
            has_captured: [false; 2],
        }
    }

    /// Checks a setup against `rules`: 64 seeds in all, and an opening phase only in Mweiso.
    pub fn from_setup(setup: Setup, rules: Rules) -> Result<Position, PositionError> {
        let found = setup.board.total(Side::South) + setup.board.total(Side::North);
        if found != SEEDS {
            return Err(PositionError::SeedTotal {
                found,
                ruleset: rules.ruleset(),
            });
        }
        Position::from_setup_partial(setup, rules)
    }

    /// As [`Position::from_setup`], but allowing fewer than 64 seeds: for studies and
    /// hand-made test positions. Every rule works the same on them.
    ///
    /// In Mweiso's opening a player with no opening turn skips it (docs/rules.md#2-mweiso-kagera-murray-1951): `os`/`on`
    /// whose owing player has none is the main phase, the other to move; `o` where neither
    /// has one is refused ([`PositionError::NoOpeningTurn`]: nobody would move first).
    pub fn from_setup_partial(setup: Setup, rules: Rules) -> Result<Position, PositionError> {
        let found = setup.board.total(Side::South) + setup.board.total(Side::North);
        if found > SEEDS {
            return Err(PositionError::TooManySeeds { found });
        }
        if setup.to_move.is_opening() && rules.variant != Variant::Mweiso {
            return Err(PositionError::OpeningOutsideMweiso);
        }
        let position = Position {
            board: setup.board,
            to_move: setup.to_move,
            rules,
            has_captured: [false; 2],
        };
        match setup.to_move {
            // docs/rules.md#2-mweiso-kagera-murray-1951: a player with no legal opening turn skips it, and the other (who
            // has played theirs) moves first in the main phase.
            ToMove::Opening(Owing::Only(owing)) if !position.can_move(owing) => {
                Ok(position.with_side_to_move(owing.other()))
            }
            // Nobody could open, and the rules do not say who would then move first.
            ToMove::Opening(Owing::Both)
                if !position.can_move(Side::South) && !position.can_move(Side::North) =>
            {
                Err(PositionError::NoOpeningTurn)
            }
            _ => Ok(position),
        }
    }

    /// Parses a position string under `rules`.
    pub fn parse(text: &str, rules: Rules) -> Result<Position, ParsePositionError> {
        Ok(Position::from_setup(text.parse()?, rules)?)
    }

    pub(crate) const fn from_parts(
        board: Board,
        to_move: ToMove,
        rules: Rules,
        has_captured: [bool; 2],
    ) -> Position {
        Position {
            board,
            to_move,
            rules,
            has_captured,
        }
    }

    /// The same position with the akakyala history set: whether each side captured in an
    /// earlier turn of the game.
    #[must_use]
    pub const fn with_capture_history(mut self, south: bool, north: bool) -> Position {
        self.has_captured = [south, north];
        self
    }

    /// The same position under other rules options (for example akakyala on).
    /// Returns `None` if the variant would change.
    #[must_use]
    pub fn with_rules(mut self, rules: Rules) -> Option<Position> {
        (rules.variant == self.rules.variant).then(|| {
            self.rules = rules;
            self
        })
    }

    /// The same board with `side` to move: the referee's steal (docs/rules.md#4-play-under-the-referee-server-rules), where the
    /// opponent plays the turn instead, from the same position. Ends Mweiso's opening.
    #[must_use]
    pub const fn with_side_to_move(mut self, side: Side) -> Position {
        self.to_move = ToMove::Side(side);
        self
    }

    #[must_use]
    pub const fn board(&self) -> &Board {
        &self.board
    }

    #[must_use]
    pub const fn to_move(&self) -> ToMove {
        self.to_move
    }

    #[must_use]
    pub const fn rules(&self) -> Rules {
        self.rules
    }

    /// Has `side` captured in an earlier turn of the game?
    #[must_use]
    pub const fn has_captured(&self, side: Side) -> bool {
        self.has_captured[side.index()]
    }

    /// The board and whose turn it is.
    #[must_use]
    pub const fn setup(&self) -> Setup {
        Setup {
            board: self.board,
            to_move: self.to_move,
        }
    }

    /// The pits `side` may start a turn from (a set of side indices), ignoring whose turn
    /// it is: pits with two seeds or more, in Mweiso's opening only the allowed outer pits.
    fn start_pits(&self, side: Side) -> u16 {
        let allowed = if self.to_move.is_opening() {
            OPENING_PITS
        } else {
            0xFFFF
        };
        sowable_mask(self.board.side_bits(side), allowed)
    }

    /// Has `side` a legal start (ignoring whose turn it is)?
    #[must_use]
    #[inline]
    pub const fn can_move(&self, side: Side) -> bool {
        let pits = if self.to_move.is_opening() {
            OPENING_BYTES
        } else {
            u128::MAX
        };
        any_sowable(self.board.side_bits(side), pits)
    }

    /// The game's result in this position when it is already over: a player to move who
    /// cannot move has lost (docs/rules.md#15-end-of-the-game, 1.5.5, 2). Mweiso's opening decides nothing: a
    /// player with no opening turn skips it (docs/rules.md#2-mweiso-kagera-murray-1951), so an opening position is never
    /// over.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        match self.to_move {
            ToMove::Side(side) => (!self.can_move(side)).then_some(Outcome::Win {
                winner: side.other(),
                victory: Victory::NoMove,
            }),
            ToMove::Opening(_) => None,
        }
    }

    /// Does a clockwise lap from pit `index` of `side` capture directly?
    fn clockwise_start_captures(&self, side: Side, index: u8) -> bool {
        let mine = self.board.side_bits(side);
        let seeds = crate::board::byte(mine, index);
        captures_clockwise(
            clear_byte(mine, index),
            self.board.side_bits(side.other()),
            index,
            seeds,
        )
    }

    /// Every legal start of `side`: (pit index, direction), in pit order, anticlockwise
    /// first.
    pub(crate) fn starts(&self, side: Side) -> Starts {
        let anticlockwise = if self.to_move.may_move(side) && self.outcome().is_none() {
            self.start_pits(side)
        } else {
            0
        };
        let mut clockwise = 0;
        // docs/rules.md#2-mweiso-kagera-murray-1951: no capture is made from a back-row hole in the opening, so an opening
        // turn never starts clockwise (a clockwise start exists only to capture).
        let mut reverse = if self.to_move.is_opening() {
            0
        } else {
            anticlockwise & self.rules.reverse_pits()
        };
        while reverse != 0 {
            let i = reverse.trailing_zeros() as u8;
            reverse &= reverse - 1;
            if self.clockwise_start_captures(side, i) {
                clockwise |= 1 << i;
            }
        }
        Starts {
            anticlockwise,
            clockwise,
            pending: None,
        }
    }

    /// Every legal whole move of `side`, each explored under `budget`.
    #[must_use]
    pub fn legal_moves(&self, side: Side, budget: Option<u64>) -> Vec<Move> {
        let mut moves = Vec::new();
        self.for_each_move(side, budget, |mv, _| moves.push(mv.clone()));
        moves
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.setup().fmt(f)
    }
}

/// Parses an Omweso position (without akakyala). Use [`Position::parse`] for other rules.
impl FromStr for Position {
    type Err = ParsePositionError;

    fn from_str(s: &str) -> Result<Position, ParsePositionError> {
        Position::parse(s, Rules::OMWESO)
    }
}

/// The legal starts of a side, walking the set bits of two pit sets.
pub(crate) struct Starts {
    anticlockwise: u16,
    clockwise: u16,
    /// A clockwise start of the pit just given anticlockwise.
    pending: Option<u8>,
}

impl Iterator for Starts {
    type Item = (u8, Direction);

    #[inline]
    fn next(&mut self) -> Option<(u8, Direction)> {
        if let Some(i) = self.pending.take() {
            return Some((i, Direction::Clockwise));
        }
        if self.anticlockwise == 0 {
            return None;
        }
        let i = self.anticlockwise.trailing_zeros() as u8;
        self.anticlockwise &= self.anticlockwise - 1;
        if self.clockwise & (1 << i) != 0 {
            self.pending = Some(i);
        }
        Some((i, Direction::Anticlockwise))
    }
}
