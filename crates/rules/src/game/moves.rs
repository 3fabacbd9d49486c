//! The moves of any board as notation writes them: a [`Hole`] of either board, a
//! [`Start`] (a pit and a direction, or an Oware house) and a whole [`GameMove`].

use std::fmt;

use crate::oware::{self, House};
use crate::{Answer, Direction, Move, ParseMoveError, Pit, Ruleset, Side};

/// A hole of either board, as notation names it: a 4x8 [`Pit`] or an Oware [`House`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Hole {
    Pit(Pit),
    House(House),
}

impl Hole {
    /// The owner.
    #[must_use]
    pub const fn side(self) -> Side {
        match self {
            Hole::Pit(pit) => pit.side(),
            Hole::House(house) => house.side(),
        }
    }

    /// `pit` or `house`, as the rules call it, for messages.
    #[must_use]
    pub const fn noun(self) -> &'static str {
        match self {
            Hole::Pit(_) => "pit",
            Hole::House(_) => "house",
        }
    }
}

impl fmt::Display for Hole {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Hole::Pit(pit) => pit.fmt(f),
            Hole::House(house) => house.fmt(f),
        }
    }
}

/// Where a turn starts: a 4x8 pit and the first lap's direction, or an Oware house. It
/// displays as a move's first token (`E1`, `A1'`, `C1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Start {
    Board { pit: Pit, direction: Direction },
    Oware(House),
}

impl Start {
    /// The hole the turn lifts.
    #[must_use]
    pub const fn hole(self) -> Hole {
        match self {
            Start::Board { pit, .. } => Hole::Pit(pit),
            Start::Oware(house) => Hole::House(house),
        }
    }

    /// The owner of that hole: the player who sows.
    #[must_use]
    pub const fn side(self) -> Side {
        self.hole().side()
    }
}

impl fmt::Display for Start {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Start::Board { pit, direction } => {
                write!(f, "{pit}")?;
                if *direction == Direction::Clockwise {
                    f.write_str("'")?;
                }
                Ok(())
            }
            Start::Oware(house) => house.fmt(f),
        }
    }
}

/// A whole move of any ruleset: a 4x8 [`Move`] (start and answers) or an Oware [`House`].
/// It displays as its notation.
///
/// ```
/// use omweso_rules::{GameMove, Ruleset};
///
/// let mv = GameMove::parse(Ruleset::Omweso, "A1'/c/a").unwrap();
/// assert_eq!(mv.start().to_string(), "A1'");
/// assert_eq!(mv.answers().len(), 2);
/// assert_eq!(mv.to_string(), "A1'/c/a");
/// // Oware has no clockwise starts and no decision points.
/// assert!(GameMove::parse(Ruleset::Oware, "A1'").is_err());
/// assert!(GameMove::parse(Ruleset::Oware, "G1").is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameMove {
    Board(Move),
    Oware(House),
}

/// Why a string is not a move of the ruleset it was parsed for.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseGameMoveError {
    #[error(transparent)]
    Board(#[from] ParseMoveError),
    #[error(transparent)]
    Oware(#[from] oware::ParseHouseError),
}

impl GameMove {
    /// Parses a move in the notation of `ruleset`: `E1`, `A2'/c/a` on the 4x8 board, a
    /// house like `C1` in Oware.
    pub fn parse(ruleset: Ruleset, text: &str) -> Result<GameMove, ParseGameMoveError> {
        Ok(match ruleset {
            Ruleset::Omweso | Ruleset::Mweiso => GameMove::Board(text.parse()?),
            Ruleset::Oware => GameMove::Oware(text.parse()?),
        })
    }

    /// Where the move starts.
    #[must_use]
    pub fn start(&self) -> Start {
        match self {
            GameMove::Board(mv) => Start::Board {
                pit: mv.start,
                direction: mv.direction,
            },
            GameMove::Oware(house) => Start::Oware(*house),
        }
    }

    /// The answers at the turn's decision points, in order (none in Oware).
    #[must_use]
    pub fn answers(&self) -> &[Answer] {
        match self {
            GameMove::Board(mv) => &mv.answers,
            GameMove::Oware(_) => &[],
        }
    }

    /// The player the move belongs to: the owner of its starting hole.
    #[must_use]
    pub fn side(&self) -> Side {
        self.start().side()
    }
}

impl From<Move> for GameMove {
    fn from(mv: Move) -> GameMove {
        GameMove::Board(mv)
    }
}

impl From<House> for GameMove {
    fn from(house: House) -> GameMove {
        GameMove::Oware(house)
    }
}

impl fmt::Display for GameMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameMove::Board(mv) => mv.fmt(f),
            GameMove::Oware(house) => house.fmt(f),
        }
    }
}
