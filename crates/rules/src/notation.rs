//! Move notation (docs/rules.md#03-move-notation): `E1`, `A2'/c/a`, Mweiso's `A1'/l/E1`.

use std::fmt;
use std::str::FromStr;

use smallvec::SmallVec;

use crate::{Direction, ParsePitError, Pit};

/// One answer to a decision point of a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Answer {
    /// `a`: sow anticlockwise.
    Anticlockwise,
    /// `c`: sow clockwise.
    Clockwise,
    /// `l` (Mweiso): leave the captured seeds in the hole.
    Leave,
    /// A pit (Mweiso, after `l`): go on anticlockwise from this pit.
    Pit(Pit),
}

impl Answer {
    /// The answer choosing `dir`.
    #[must_use]
    pub const fn direction(dir: Direction) -> Answer {
        match dir {
            Direction::Anticlockwise => Answer::Anticlockwise,
            Direction::Clockwise => Answer::Clockwise,
        }
    }
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Answer::Anticlockwise => f.write_str("a"),
            Answer::Clockwise => f.write_str("c"),
            Answer::Leave => f.write_str("l"),
            Answer::Pit(pit) => write!(f, "{pit}"),
        }
    }
}

impl FromStr for Answer {
    type Err = ParseMoveError;

    fn from_str(s: &str) -> Result<Answer, ParseMoveError> {
        match s {
            "a" => Ok(Answer::Anticlockwise),
            "c" => Ok(Answer::Clockwise),
            "l" => Ok(Answer::Leave),
            _ => s
                .parse()
                .map(Answer::Pit)
                .map_err(|_| ParseMoveError::Answer(s.to_owned())),
        }
    }
}

/// The answers of a move, in order; moves with up to 8 decision points do not allocate.
pub type Answers = SmallVec<[Answer; 8]>;

/// A whole turn of Omweso or Mweiso: where it starts, in which direction, and the answer
/// given at each decision point it reaches.
///
/// ```
/// use omweso_rules::{Answer, Direction, Move};
///
/// let mv: Move = "A1'/c/a".parse().unwrap();
/// assert_eq!(mv.start.to_string(), "A1");
/// assert_eq!(mv.direction, Direction::Clockwise);
/// assert_eq!(mv.answers.as_slice(), &[Answer::Clockwise, Answer::Anticlockwise]);
/// assert_eq!(mv.to_string(), "A1'/c/a");
/// assert!("E9".parse::<Move>().is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub start: Pit,
    pub direction: Direction,
    pub answers: Answers,
}

impl Move {
    /// A move with no decision points.
    #[must_use]
    pub fn new(start: Pit, direction: Direction) -> Move {
        Move {
            start,
            direction,
            answers: Answers::new(),
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.start)?;
        if self.direction == Direction::Clockwise {
            f.write_str("'")?;
        }
        for answer in &self.answers {
            write!(f, "/{answer}")?;
        }
        Ok(())
    }
}

/// Why a string is not a move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseMoveError {
    #[error("a move is empty; it starts with a pit, like E1 or A2'")]
    Empty,
    #[error("a move starts with a pit, optionally followed by ' for a clockwise lap: {0}")]
    Start(ParsePitError),
    #[error("{0:?} is not an answer to a decision point: expected a, c, l or a pit like E1")]
    Answer(String),
    #[error("a move has an empty token (two '/' in a row, or one at the end)")]
    EmptyToken,
}

impl FromStr for Move {
    type Err = ParseMoveError;

    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        if s.is_empty() {
            return Err(ParseMoveError::Empty);
        }
        let mut tokens = s.split('/');
        let first = tokens.next().unwrap_or_default();
        if first.is_empty() {
            return Err(ParseMoveError::EmptyToken);
        }
        let (pit, direction) = match first.strip_suffix('\'') {
            Some(pit) => (pit, Direction::Clockwise),
            None => (first, Direction::Anticlockwise),
        };
        let start = pit.parse().map_err(ParseMoveError::Start)?;
        let answers = tokens
            .map(|token| {
                if token.is_empty() {
                    Err(ParseMoveError::EmptyToken)
                } else {
                    token.parse()
                }
            })
            .collect::<Result<Answers, _>>()?;
        Ok(Move {
            start,
            direction,
            answers,
        })
    }
}

/// The answers open at a decision point.
pub type Options = SmallVec<[Answer; 16]>;

/// `a or c`, `a, c or l`.
pub(crate) fn list(options: &[Answer]) -> String {
    let names: Vec<String> = options.iter().map(ToString::to_string).collect();
    match names.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::from("none"),
    }
}
