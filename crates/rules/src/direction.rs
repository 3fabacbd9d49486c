use std::fmt;

/// The direction a lap is sown in, as seen by the sowing player.
///
/// Anticlockwise is the normal direction (side index +1); clockwise (index -1) is allowed
/// only where the rules say so, and only for a lap that captures directly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Direction {
    #[cfg_attr(feature = "serde", serde(rename = "a"))]
    Anticlockwise,
    #[cfg_attr(feature = "serde", serde(rename = "c"))]
    Clockwise,
}

impl Direction {
    /// The notation letter, `a` or `c`.
    #[must_use]
    pub const fn char(self) -> char {
        match self {
            Direction::Anticlockwise => 'a',
            Direction::Clockwise => 'c',
        }
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}
