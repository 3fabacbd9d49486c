//! The eight levels of the computer player.

use std::fmt;

/// A fixed strength, 1 (a beginner) to 8 (the strongest the server affords in about one
/// second a move on one core).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Level(u8);

/// A level outside 1..=8.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("level {0} is not one of 1 to 8")]
pub struct ParseLevelError(pub i64);

impl Level {
    pub const MIN: Level = Level(1);
    pub const MAX: Level = Level(8);
    /// Every level, weakest first.
    pub const ALL: [Level; 8] = [
        Level(1),
        Level(2),
        Level(3),
        Level(4),
        Level(5),
        Level(6),
        Level(7),
        Level(8),
    ];

    /// The level `n`, if it is one of 1..=8.
    pub fn new(n: i64) -> Result<Level, ParseLevelError> {
        match u8::try_from(n) {
            Ok(n @ 1..=8) => Ok(Level(n)),
            _ => Err(ParseLevelError(n)),
        }
    }

    /// The level's number, 1..=8.
    #[must_use]
    pub const fn get(self) -> u8 {
        self.0
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_one_to_eight_are_levels() {
        assert_eq!(Level::new(0), Err(ParseLevelError(0)));
        assert_eq!(Level::new(9), Err(ParseLevelError(9)));
        assert_eq!(Level::new(-1), Err(ParseLevelError(-1)));
        assert_eq!(Level::new(1).map(Level::get), Ok(1));
        assert_eq!(Level::new(8).map(Level::get), Ok(8));
        assert_eq!(Level::ALL.map(Level::get), [1, 2, 3, 4, 5, 6, 7, 8]);
    }
}
