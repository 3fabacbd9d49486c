use std::fmt;
use std::str::FromStr;

/// One of the two players. South sits at rows 1-2 (Oware: row 1), North at rows 3-4 (Oware: row 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Side {
    #[cfg_attr(feature = "serde", serde(rename = "s"))]
    South,
    #[cfg_attr(feature = "serde", serde(rename = "n"))]
    North,
}

impl Side {
    pub const ALL: [Side; 2] = [Side::South, Side::North];

    /// The opponent.
    #[must_use]
    pub const fn other(self) -> Side {
        match self {
            Side::South => Side::North,
            Side::North => Side::South,
        }
    }

    /// 0 for South, 1 for North: an index into per-side arrays.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The notation letter, `s` or `n`.
    #[must_use]
    pub const fn char(self) -> char {
        match self {
            Side::South => 's',
            Side::North => 'n',
        }
    }

    #[must_use]
    pub const fn from_char(c: char) -> Option<Side> {
        match c {
            's' => Some(Side::South),
            'n' => Some(Side::North),
            _ => None,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// A side name that is neither `s` nor `n`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("side must be \"s\" or \"n\", not {0:?}")]
pub struct ParseSideError(pub String);

impl FromStr for Side {
    type Err = ParseSideError;

    fn from_str(s: &str) -> Result<Side, ParseSideError> {
        let mut chars = s.chars();
        match (chars.next().and_then(Side::from_char), chars.next()) {
            (Some(side), None) => Ok(side),
            _ => Err(ParseSideError(s.to_owned())),
        }
    }
}

impl Side {
    /// `South` or `North`, for messages.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Side::South => "South",
            Side::North => "North",
        }
    }
}
