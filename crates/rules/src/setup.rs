//! A free-form 4x8 board and whose turn it is, parsed from and written as the position
//! string of docs/rules.md#02-position-strings. Nothing here checks the rules: [`crate::Position::from_setup`]
//! does.

use std::fmt;
use std::str::FromStr;

use crate::{Board, Pit, Side};

/// Who is to move in a 4x8 position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ToMove {
    /// One side is to move (Omweso always; Mweiso's main phase).
    Side(Side),
    /// Mweiso's simultaneous opening: who still owes their opening turn.
    Opening(Owing),
}

/// Who still owes their opening turn in Mweiso's simultaneous opening.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Owing {
    /// Both players (written `o`).
    Both,
    /// Only this player: the other has played first (written `os` or `on`).
    Only(Side),
}

impl ToMove {
    /// May `side` play a turn now?
    #[must_use]
    pub const fn may_move(self, side: Side) -> bool {
        match self {
            ToMove::Side(s) | ToMove::Opening(Owing::Only(s)) => s as u8 == side as u8,
            ToMove::Opening(Owing::Both) => true,
        }
    }

    /// The one side to move, or `None` while both still owe their opening turn.
    #[must_use]
    pub const fn single(self) -> Option<Side> {
        match self {
            ToMove::Side(s) | ToMove::Opening(Owing::Only(s)) => Some(s),
            ToMove::Opening(Owing::Both) => None,
        }
    }

    /// Is this Mweiso's opening phase?
    #[must_use]
    pub const fn is_opening(self) -> bool {
        matches!(self, ToMove::Opening(_))
    }
}

impl fmt::Display for ToMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ToMove::Side(side) => write!(f, "{side}"),
            ToMove::Opening(Owing::Both) => f.write_str("o"),
            ToMove::Opening(Owing::Only(side)) => write!(f, "o{side}"),
        }
    }
}

/// A 4x8 board and whose turn it is, not yet checked against any rules.
///
/// ```
/// use omweso_rules::{Setup, Side, ToMove};
///
/// let setup: Setup = "4,4,4,4,4,4,4,4/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,4 s"
///     .parse()
///     .unwrap();
/// assert_eq!(setup.to_move, ToMove::Side(Side::South));
/// assert_eq!(setup.board.at("C1".parse().unwrap()), 4);
/// assert_eq!(setup.to_string().parse::<Setup>().unwrap(), setup);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    pub board: Board,
    pub to_move: ToMove,
}

impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in (0..4u8).rev() {
            for column in 0..8u8 {
                let pit = Pit::new(column, row).expect("row and column are in range");
                let sep = if column == 0 { "" } else { "," };
                write!(f, "{sep}{}", self.board.at(pit))?;
            }
            if row > 0 {
                f.write_str("/")?;
            }
        }
        write!(f, " {}", self.to_move)
    }
}

/// Why a string is not a 4x8 position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseSetupError {
    #[error("a position is four rows and the side to move, like \"4,4,4,4,4,4,4,4/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,4 s\"; {0}")]
    Shape(&'static str),
    #[error("row {row} has {found} counts; each row has 8 (columns A to H)")]
    RowLength { row: u8, found: usize },
    #[error("the count for {pit} is {text:?}, not a whole number from 0 to 64")]
    Count { pit: Pit, text: String },
    #[error("the side to move is {0:?}; it must be \"s\" or \"n\" (Mweiso's opening: \"o\", \"os\" or \"on\")")]
    ToMove(String),
}

impl FromStr for Setup {
    type Err = ParseSetupError;

    fn from_str(s: &str) -> Result<Setup, ParseSetupError> {
        let mut parts = s.split(' ');
        let (Some(rows), Some(to_move), None) = (parts.next(), parts.next(), parts.next()) else {
            return Err(ParseSetupError::Shape(
                "expected the rows and the side to move separated by one space",
            ));
        };
        let to_move = match to_move {
            "s" => ToMove::Side(Side::South),
            "n" => ToMove::Side(Side::North),
            "o" => ToMove::Opening(Owing::Both),
            "os" => ToMove::Opening(Owing::Only(Side::South)),
            "on" => ToMove::Opening(Owing::Only(Side::North)),
            other => return Err(ParseSetupError::ToMove(other.to_owned())),
        };
        let rows: Vec<&str> = rows.split('/').collect();
        if rows.len() != 4 {
            return Err(ParseSetupError::Shape("expected 4 rows separated by '/'"));
        }
        let mut board = Board::empty();
        for (i, text) in rows.iter().enumerate() {
            let row = 3 - i as u8;
            let counts: Vec<&str> = text.split(',').collect();
            if counts.len() != 8 {
                return Err(ParseSetupError::RowLength {
                    row: row + 1,
                    found: counts.len(),
                });
            }
            for (column, count) in counts.iter().enumerate() {
                let pit = Pit::new(column as u8, row).expect("row and column are in range");
                let seeds = parse_count(count).ok_or_else(|| ParseSetupError::Count {
                    pit,
                    text: (*count).to_owned(),
                })?;
                board.set(pit.side(), pit.index(), seeds);
            }
        }
        Ok(Setup { board, to_move })
    }
}

/// A seed count: plain decimal digits, at most 64 (no sign, no spaces, no leading `+`).
pub(crate) fn parse_count(text: &str) -> Option<u8> {
    if text.is_empty() || text.len() > 2 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse::<u8>().ok().filter(|&n| n <= 64)
}
