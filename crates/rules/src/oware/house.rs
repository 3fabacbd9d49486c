//! A house of the 2x6 Oware board, by its coordinate.

use std::fmt;
use std::str::FromStr;

use crate::Side;

/// A house of the Oware board (docs/rules.md#3-oware-abapa), by its coordinate: column `A`..`F` as seen
/// from South's seat, row `1` (South's houses) or `2` (North's).
///
/// Inside the engine the twelve houses are numbered 0..11 in sowing (anticlockwise) order:
/// South's `A1`..`F1` are 0..5, North's `F2`..`A2` are 6..11 (OpenSpiel's numbering).
/// [`House::index`] and [`House::from_index`] convert.
///
/// ```
/// use omweso_rules::oware::House;
/// use omweso_rules::Side;
///
/// let house: House = "F2".parse().unwrap();
/// assert_eq!(house.side(), Side::North);
/// assert_eq!(house.index(), 6);
/// assert_eq!(House::from_index(11).to_string(), "A2");
/// assert!("G1".parse::<House>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct House(u8);

impl House {
    /// The house at `column` (0 = A .. 5 = F) in `side`'s row, or `None` if the column is
    /// off the board.
    #[must_use]
    #[inline]
    pub const fn new(column: u8, side: Side) -> Option<House> {
        if column >= 6 {
            return None;
        }
        Some(match side {
            Side::South => House(column),
            Side::North => House(11 - column),
        })
    }

    /// The house with sowing-order index `index`, taken mod 12: 0..5 are `A1`..`F1`, 6..11
    /// are `F2`..`A2`.
    #[must_use]
    #[inline]
    pub const fn from_index(index: u8) -> House {
        House(index % 12)
    }

    /// The index in sowing order, 0..11 (0..5 South's `A1`..`F1`, 6..11 North's `F2`..`A2`).
    #[must_use]
    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The owner: row 1 is South's, row 2 North's.
    #[must_use]
    #[inline]
    pub const fn side(self) -> Side {
        if self.0 < 6 {
            Side::South
        } else {
            Side::North
        }
    }

    /// The column, 0 (A) to 5 (F), as seen from South.
    #[must_use]
    #[inline]
    pub const fn column(self) -> u8 {
        if self.0 < 6 {
            self.0
        } else {
            11 - self.0
        }
    }

    /// The row, 1 (South) or 2 (North), as written in the coordinate.
    #[must_use]
    #[inline]
    pub const fn row(self) -> u8 {
        if self.0 < 6 {
            1
        } else {
            2
        }
    }

    /// The next house in sowing order (anticlockwise).
    #[must_use]
    #[inline]
    pub const fn next(self) -> House {
        House((self.0 + 1) % 12)
    }
}

impl fmt::Display for House {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'A' + self.column()) as char, self.row())
    }
}

/// Why a string is not an Oware house coordinate.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseHouseError {
    #[error("{0:?} is not a house: a house is a column A-F and a row 1-2, like C1")]
    Malformed(String),
    #[error("{0:?} is not a house: column {1:?} is not one of A-F")]
    Column(String, char),
    #[error("{0:?} is not a house: row {1:?} is not 1 or 2")]
    Row(String, char),
}

impl FromStr for House {
    type Err = ParseHouseError;

    fn from_str(s: &str) -> Result<House, ParseHouseError> {
        let mut chars = s.chars();
        let (Some(column), Some(row), None) = (chars.next(), chars.next(), chars.next()) else {
            return Err(ParseHouseError::Malformed(s.to_owned()));
        };
        let column = match column {
            'A'..='F' => column as u8 - b'A',
            _ => return Err(ParseHouseError::Column(s.to_owned(), column)),
        };
        let side = match row {
            '1' => Side::South,
            '2' => Side::North,
            _ => return Err(ParseHouseError::Row(s.to_owned(), row)),
        };
        Ok(match side {
            Side::South => House(column),
            Side::North => House(11 - column),
        })
    }
}
