//! The one lap of an Oware move, for a client to animate.

use super::House;

/// How an Oware lap ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LapKind {
    /// The last seed made an opponent house 2 or 3 and seeds were captured.
    Capture,
    /// Nothing was captured (a grand slam included: it captures nothing).
    End,
}

impl LapKind {
    /// As the protocol writes it: `capture` or `end`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            LapKind::Capture => "capture",
            LapKind::End => "end",
        }
    }
}

/// The lap of an Oware move: always anticlockwise, always exactly one per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Lap {
    /// The house sown from: the first seed goes into the house after it.
    pub from: House,
    /// Seeds sown.
    pub seeds: u8,
    /// Where the last seed fell.
    pub to: House,
    /// Seeds captured (0 unless `kind` is `Capture`).
    pub captured: u8,
    pub kind: LapKind,
}
