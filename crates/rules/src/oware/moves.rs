//! The legal moves of a position as a small copyable set, iterated without allocating.

use std::iter::FusedIterator;

use super::House;
use crate::Side;

/// The legal moves of an Oware position ([`super::Position::moves`]), yielded in column
/// order: South `A1`..`F1`, North `A2`..`F2`. It is `Copy` and allocates nothing.
///
/// ```
/// use omweso_rules::oware::Position;
/// use omweso_rules::Side;
///
/// let moves = Position::start(Side::North).moves();
/// assert_eq!(moves.len(), 6);
/// assert_eq!(moves.clone().nth(1).unwrap().to_string(), "B2");
/// assert!(moves.contains("F2".parse().unwrap()));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Moves {
    /// House-index bits, all on `side`'s row.
    bits: u16,
    side: Side,
}

impl Moves {
    #[inline]
    pub(super) const fn new(bits: u16, side: Side) -> Moves {
        Moves { bits, side }
    }

    /// Is `house` among the moves left?
    #[must_use]
    #[inline]
    pub const fn contains(&self, house: House) -> bool {
        self.bits & (1 << house.index()) != 0
    }

    /// Are there no moves left?
    #[must_use]
    #[inline]
    pub const fn is_empty(&self) -> bool {
        self.bits == 0
    }
}

impl Iterator for Moves {
    type Item = House;

    #[inline]
    fn next(&mut self) -> Option<House> {
        if self.bits == 0 {
            return None;
        }
        // South's columns A..F are indices 0..5 upwards, North's are 11..6 downwards.
        let index = match self.side {
            Side::South => self.bits.trailing_zeros(),
            Side::North => 15 - self.bits.leading_zeros(),
        };
        self.bits &= !(1 << index);
        Some(House::from_index(index as u8))
    }

    #[inline]
    fn nth(&mut self, n: usize) -> Option<House> {
        // Drop the first `n` moves without yielding them.
        for _ in 0..n {
            if self.bits == 0 {
                return None;
            }
            match self.side {
                Side::South => self.bits &= self.bits - 1,
                Side::North => self.bits &= !(0x8000 >> self.bits.leading_zeros()),
            }
        }
        self.next()
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.bits.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Moves {}
impl FusedIterator for Moves {}
