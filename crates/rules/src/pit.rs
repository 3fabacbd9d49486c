use std::fmt;
use std::str::FromStr;

use crate::Side;

/// A pit of the 4x8 board (Omweso, Mweiso), by its coordinate: column `A`..`H` seen from
/// South's seat, row `1`..`4` from South's edge (docs/rules.md#01-the-4x8-board-omweso-mweiso).
///
/// Inside the engine each side numbers its own 16 pits 0..15 in its anticlockwise order;
/// [`Pit::index`] and [`Pit::from_index`] convert.
///
/// ```
/// use omweso_rules::{Pit, Side};
///
/// let pit: Pit = "E1".parse().unwrap();
/// assert_eq!(pit.side(), Side::South);
/// assert_eq!(pit.index(), 4);
/// assert_eq!(Pit::from_index(Side::North, 0).to_string(), "H4");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pit {
    column: u8,
    row: u8,
}

impl Pit {
    /// The pit at `column` (0 = A .. 7 = H) and `row` (0 = row 1 .. 3 = row 4).
    #[must_use]
    pub const fn new(column: u8, row: u8) -> Option<Pit> {
        if column < 8 && row < 4 {
            Some(Pit { column, row })
        } else {
            None
        }
    }

    /// Column, 0 (A) to 7 (H).
    #[must_use]
    pub const fn column(self) -> u8 {
        self.column
    }

    /// Row, 0 (row 1) to 3 (row 4).
    #[must_use]
    pub const fn row(self) -> u8 {
        self.row
    }

    /// The owner: rows 1-2 are South's, rows 3-4 North's.
    #[must_use]
    pub const fn side(self) -> Side {
        if self.row < 2 {
            Side::South
        } else {
            Side::North
        }
    }

    /// The pit's index in its owner's anticlockwise numbering: 0-7 the outer row from the
    /// owner's left, 8-15 the inner row back from the owner's right.
    #[must_use]
    pub const fn index(self) -> u8 {
        match self.row {
            0 => self.column,
            1 => 15 - self.column,
            2 => 8 + self.column,
            _ => 7 - self.column,
        }
    }

    /// The pit with anticlockwise index `index` (taken mod 16) on `side`.
    #[must_use]
    pub const fn from_index(side: Side, index: u8) -> Pit {
        let index = index & 15;
        let (column, row) = match side {
            Side::South if index < 8 => (index, 0),
            Side::South => (15 - index, 1),
            Side::North if index < 8 => (7 - index, 3),
            Side::North => (index - 8, 2),
        };
        Pit { column, row }
    }

    /// Is this an inner-row pit (rows 2 and 3)?
    #[must_use]
    pub const fn is_inner(self) -> bool {
        self.row == 1 || self.row == 2
    }
}

/// The column letter of a column number (0 = `A`).
#[must_use]
pub(crate) const fn column_letter(column: u8) -> char {
    (b'A' + column) as char
}

impl fmt::Display for Pit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", column_letter(self.column), self.row + 1)
    }
}

/// Why a string is not a pit coordinate.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParsePitError {
    #[error("{0:?} is not a pit: a pit is a column A-H and a row 1-4, like E1")]
    Malformed(String),
    #[error("{0:?} is not a pit: column {1:?} is not one of A-H")]
    Column(String, char),
    #[error("{0:?} is not a pit: row {1:?} is not one of 1-4")]
    Row(String, char),
}

impl FromStr for Pit {
    type Err = ParsePitError;

    fn from_str(s: &str) -> Result<Pit, ParsePitError> {
        let mut chars = s.chars();
        let (Some(col), Some(row), None) = (chars.next(), chars.next(), chars.next()) else {
            return Err(ParsePitError::Malformed(s.to_owned()));
        };
        let column = match col {
            'A'..='H' => col as u8 - b'A',
            _ => return Err(ParsePitError::Column(s.to_owned(), col)),
        };
        let row = match row {
            '1'..='4' => row as u8 - b'1',
            _ => return Err(ParsePitError::Row(s.to_owned(), row)),
        };
        Ok(Pit { column, row })
    }
}
