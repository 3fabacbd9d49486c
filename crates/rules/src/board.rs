//! The 4x8 board shared by Omweso and Mweiso.
//!
//! Each side's 16 pits live in one `u128`, byte `i` holding pit `i` of that side's
//! anticlockwise numbering. A lap of `h` seeds then is two additions: `h / 16` to every byte
//! and one more to the `h % 16` pits after the origin, a rotated mask. Sowing costs the same
//! for 2 seeds or 60, and comparing two sides (the never-ending check) is one compare.
//! No pit can overflow its byte: a valid position holds 64 seeds in all.

use std::fmt;

use crate::{Direction, Pit, Side};

/// `1` in every byte.
pub(crate) const ONES: u128 = u128::from_le_bytes([1; 16]);

/// `MASKS[n]`: `1` in the low `n` bytes.
const MASKS: [u128; 17] = {
    let mut masks = [0u128; 17];
    let mut n = 1;
    while n <= 16 {
        masks[n] = (masks[n - 1] << 8) | 1;
        n += 1;
    }
    masks
};

/// `1` in the `len` pits from `first` on, going anticlockwise (wrapping at 16).
#[inline]
const fn ring(first: u32, len: u32) -> u128 {
    MASKS[len as usize].rotate_left(8 * (first & 15))
}

/// The seeds on the 4x8 board: 16 pits a side, indexed per side in anticlockwise order.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Board {
    sides: [u128; 2],
}

impl Board {
    /// A board with no seeds.
    #[must_use]
    pub const fn empty() -> Board {
        Board { sides: [0; 2] }
    }

    /// A board from each side's 16 counts, in that side's anticlockwise order.
    #[must_use]
    pub const fn from_counts(south: [u8; 16], north: [u8; 16]) -> Board {
        Board {
            sides: [u128::from_le_bytes(south), u128::from_le_bytes(north)],
        }
    }

    /// The 16 counts of `side` in its anticlockwise order.
    #[must_use]
    pub const fn counts(&self, side: Side) -> [u8; 16] {
        self.sides[side.index()].to_le_bytes()
    }

    /// Seeds in pit `index` (0..15) of `side`.
    #[must_use]
    #[inline]
    pub const fn get(&self, side: Side, index: u8) -> u8 {
        byte(self.sides[side.index()], index)
    }

    /// Seeds in a pit given by coordinate.
    #[must_use]
    pub const fn at(&self, pit: Pit) -> u8 {
        self.get(pit.side(), pit.index())
    }

    /// Sets pit `index` of `side` to `seeds`.
    pub fn set(&mut self, side: Side, index: u8, seeds: u8) {
        let s = &mut self.sides[side.index()];
        *s = set_byte(*s, index, seeds);
    }

    /// Seeds on `side` in all.
    #[must_use]
    pub const fn total(&self, side: Side) -> u32 {
        let bytes = self.counts(side);
        let mut sum = 0;
        let mut i = 0;
        while i < 16 {
            sum += bytes[i] as u32;
            i += 1;
        }
        sum
    }

    /// Does `side` have a pit with at least two seeds (a pit it may sow from)?
    #[must_use]
    #[inline]
    pub const fn has_sowable_pit(&self, side: Side) -> bool {
        sowable_mask(self.sides[side.index()], 0xFFFF) != 0
    }

    pub(crate) const fn side_bits(&self, side: Side) -> u128 {
        self.sides[side.index()]
    }

    pub(crate) const fn from_bits(sides: [u128; 2]) -> Board {
        Board { sides }
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Board")
            .field("south", &self.counts(Side::South))
            .field("north", &self.counts(Side::North))
            .finish()
    }
}

/// Byte `index` of a side.
#[inline]
pub(crate) const fn byte(side: u128, index: u8) -> u8 {
    (side >> (8 * (index as u32 & 15))) as u8
}

/// A side with byte `index` set to `value`.
#[inline]
pub(crate) const fn set_byte(side: u128, index: u8, value: u8) -> u128 {
    let shift = 8 * (index as u32 & 15);
    (side & !(0xFF << shift)) | ((value as u128) << shift)
}

/// Bit `i` set for each pit `i` in `allowed` (a 16-bit set) that holds at least two seeds.
#[inline]
pub(crate) const fn sowable_mask(side: u128, allowed: u16) -> u16 {
    let mut mask = 0u16;
    let bytes = side.to_le_bytes();
    let mut i = 0;
    while i < 16 {
        if bytes[i] >= 2 {
            mask |= 1 << i;
        }
        i += 1;
    }
    mask & allowed
}

/// Sows `hand` seeds from `origin` (exclusive) in `dir` over one side, returning the new
/// side and the pit where the last seed fell. The origin itself is not skipped: it gets a
/// seed every time a lap passes it.
#[inline]
pub(crate) const fn sow(side: u128, origin: u8, hand: u8, dir: Direction) -> (u128, u8) {
    let laps = (hand / 16) as u128;
    let rest = (hand % 16) as u32;
    let origin = origin as u32;
    let (first, last) = match dir {
        Direction::Anticlockwise => (origin + 1, origin + hand as u32),
        Direction::Clockwise => (origin + 16 - rest, origin + 16 * 16 - hand as u32),
    };
    let added = laps.wrapping_mul(ONES).wrapping_add(ring(first, rest));
    (side.wrapping_add(added), (last & 15) as u8)
}

/// How many seeds pit `landing` will hold after a lap of `hand` seeds ends in it, given it
/// holds `before` now: every full round adds one, and the last seed one more unless the
/// lap is an exact number of rounds (then it ends at its origin).
#[inline]
pub(crate) const fn seeds_after_landing(before: u8, hand: u8) -> u8 {
    before + hand.div_ceil(16)
}

/// The physical column (0 = A) of pit `index` of `side`.
#[inline]
pub(crate) const fn column_of(side: Side, index: u8) -> u8 {
    Pit::from_index(side, index).column()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sowing_matches_one_seed_at_a_time() {
        for dir in [Direction::Anticlockwise, Direction::Clockwise] {
            for origin in 0..16u8 {
                for hand in 0..=64u8 {
                    let start = u128::from_le_bytes([3; 16]);
                    let (fast, last) = sow(start, origin, hand, dir);
                    let mut slow = [3u8; 16];
                    let mut pos = origin;
                    for _ in 0..hand {
                        pos = match dir {
                            Direction::Anticlockwise => (pos + 1) & 15,
                            Direction::Clockwise => (pos + 15) & 15,
                        };
                        slow[pos as usize] += 1;
                    }
                    assert_eq!(fast.to_le_bytes(), slow, "{dir:?} {origin} {hand}");
                    assert_eq!(last, pos, "{dir:?} {origin} {hand}");
                    if hand > 0 {
                        assert_eq!(seeds_after_landing(3, hand), slow[pos as usize]);
                    }
                }
            }
        }
    }

    #[test]
    fn columns_follow_the_coordinates() {
        assert_eq!(column_of(Side::South, 0), 0);
        assert_eq!(column_of(Side::South, 8), 7);
        assert_eq!(column_of(Side::North, 0), 7);
        assert_eq!(column_of(Side::North, 8), 0);
        assert_eq!(column_of(Side::North, 15), 7);
    }
}
