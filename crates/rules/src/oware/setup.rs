//! A free-form Oware board, side to move and captures, parsed from and written as the
//! position string of docs/rules.md#02-position-strings. Nothing here checks the rules:
//! [`super::Position::from_setup`] does.

use std::fmt;
use std::str::FromStr;

use super::House;
use crate::Side;

/// An Oware board, whose turn it is and what each player has captured, not yet checked.
///
/// The position string is `north/south side capS capN`: the north row then the south row,
/// each as 6 counts from column A to F as seen from South (so the north row reads `A2`..`F2`),
/// then `s` or `n`, then South's and North's captures.
///
/// ```
/// use omweso_rules::oware::{House, Setup};
/// use omweso_rules::Side;
///
/// let setup: Setup = "0,0,0,0,0,7/1,2,3,4,5,6 n 10 10".parse().unwrap();
/// assert_eq!(setup.to_move, Side::North);
/// assert_eq!(setup.seeds("F2".parse().unwrap()), 7);
/// assert_eq!(setup.houses[6], 7); // F2 is index 6 in sowing order
/// assert_eq!(setup.seeds(House::from_index(2)), 3); // C1
/// assert_eq!(setup.captured, [10, 10]);
/// assert_eq!(setup.to_string(), "0,0,0,0,0,7/1,2,3,4,5,6 n 10 10");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// Seeds in each house, in sowing order ([`House::index`]): `A1`..`F1`, then `F2`..`A2`.
    pub houses: [u8; 12],
    pub to_move: Side,
    /// Seeds captured so far: `[South, North]` (index with [`Side::index`]).
    pub captured: [u8; 2],
}

impl Setup {
    /// The seeds in `house`.
    #[must_use]
    pub const fn seeds(&self, house: House) -> u8 {
        self.houses[house.index() as usize]
    }
}

impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for side in [Side::North, Side::South] {
            for column in 0..6u8 {
                let sep = if column == 0 { "" } else { "," };
                let seeds = House::new(column, side).map_or(0, |house| self.seeds(house));
                write!(f, "{sep}{seeds}")?;
            }
            if side == Side::North {
                f.write_str("/")?;
            }
        }
        write!(
            f,
            " {} {} {}",
            self.to_move, self.captured[0], self.captured[1]
        )
    }
}

/// Why a string is not an Oware position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseSetupError {
    #[error("an Oware position is the north row, '/', the south row, the side to move and both players' captures, like \"4,4,4,4,4,4/4,4,4,4,4,4 s 0 0\"; {0}")]
    Shape(&'static str),
    #[error("row {row} has {found} counts; each row has 6 (columns A to F)")]
    RowLength { row: u8, found: usize },
    #[error("the count for {house} is {text:?}, not a whole number from 0 to 48")]
    Count { house: House, text: String },
    #[error("the side to move is {0:?}; it must be \"s\" or \"n\"")]
    Side(String),
    #[error("{}'s capture count is {text:?}, not a whole number from 0 to 48", side.name())]
    Captured { side: Side, text: String },
}

impl FromStr for Setup {
    type Err = ParseSetupError;

    fn from_str(s: &str) -> Result<Setup, ParseSetupError> {
        let mut fields = s.split(' ');
        let (Some(rows), Some(to_move), Some(south), Some(north), None) = (
            fields.next(),
            fields.next(),
            fields.next(),
            fields.next(),
            fields.next(),
        ) else {
            return Err(ParseSetupError::Shape(
                "expected the rows, the side to move and two capture counts separated by single spaces",
            ));
        };
        let mut row_texts = rows.split('/');
        let (Some(north_row), Some(south_row), None) =
            (row_texts.next(), row_texts.next(), row_texts.next())
        else {
            return Err(ParseSetupError::Shape("expected 2 rows separated by '/'"));
        };
        let mut houses = [0u8; 12];
        for (side, text) in [(Side::North, north_row), (Side::South, south_row)] {
            let counts: Vec<&str> = text.split(',').collect();
            if counts.len() != 6 {
                return Err(ParseSetupError::RowLength {
                    row: if side == Side::South { 1 } else { 2 },
                    found: counts.len(),
                });
            }
            for (house, count) in (0..6u8)
                .filter_map(|column| House::new(column, side))
                .zip(counts)
            {
                houses[house.index() as usize] =
                    parse_count(count).ok_or_else(|| ParseSetupError::Count {
                        house,
                        text: count.to_owned(),
                    })?;
            }
        }
        let to_move = match to_move {
            "s" => Side::South,
            "n" => Side::North,
            other => return Err(ParseSetupError::Side(other.to_owned())),
        };
        let mut captured = [0u8; 2];
        for (side, text) in [(Side::South, south), (Side::North, north)] {
            captured[side.index()] =
                parse_count(text).ok_or_else(|| ParseSetupError::Captured {
                    side,
                    text: text.to_owned(),
                })?;
        }
        Ok(Setup {
            houses,
            to_move,
            captured,
        })
    }
}

/// A seed count: plain decimal digits, at most 48 (no sign, no spaces).
fn parse_count(text: &str) -> Option<u8> {
    if text.is_empty() || text.len() > 2 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse::<u8>().ok().filter(|&n| n <= 48)
}
