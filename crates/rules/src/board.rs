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
const fn ring(first: u32, len: u32) -> u128 {
    MASKS[len as usize].rotate_left(8 * (first & 15))
}

/// `ROUNDS[k]`: `k` in every byte, what `k` full rounds of a lap add.
static ROUNDS: [u128; 16] = {
    let mut rounds = [0u128; 16];
    let mut k = 0;
    while k < 16 {
        rounds[k] = ONES * k as u128;
        k += 1;
    }
    rounds
};

/// `TAILS[dir][origin][rest]`: the pits that get one seed more than the others when a lap
/// of `16 * k + rest` seeds is sown from `origin` (the `rest` pits after it in `dir`).
/// A table lookup is cheaper than the variable 128-bit rotation in the hot loop.
static TAILS: [[[u128; 16]; 16]; 2] = {
    let mut tails = [[[0u128; 16]; 16]; 2];
    let mut origin = 0;
    while origin < 16 {
        let mut rest = 0;
        while rest < 16 {
            tails[0][origin][rest] = ring(origin as u32 + 1, rest as u32);
            tails[1][origin][rest] = ring(origin as u32 + 16 - rest as u32, rest as u32);
            rest += 1;
        }
        origin += 1;
    }
    tails
};

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

    /// Sets pit `index` (taken mod 16) of `side` to `seeds`.
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
        any_sowable(self.sides[side.index()], u128::MAX)
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

/// Byte `index` of a side. Picking the 64-bit half first keeps this to a select and a
/// 64-bit shift; a variable 128-bit shift costs several times that in the hot loop.
#[inline(always)]
pub(crate) const fn byte(side: u128, index: u8) -> u8 {
    let half = if index & 8 == 0 {
        side as u64
    } else {
        (side >> 64) as u64
    };
    (half >> (8 * (index & 7) as u32)) as u8
}

/// `UNITS[i]`: `1` in byte `i`.
static UNITS: [u128; 16] = {
    let mut units = [0u128; 16];
    let mut i = 0;
    while i < 16 {
        units[i] = 1 << (8 * i);
        i += 1;
    }
    units
};

/// `KEEP[i]`: every byte but byte `i`.
static KEEP: [u128; 16] = {
    let mut keep = [0u128; 16];
    let mut i = 0;
    while i < 16 {
        keep[i] = !(0xFF << (8 * i));
        i += 1;
    }
    keep
};

/// A side with byte `index` emptied.
#[inline(always)]
pub(crate) fn clear_byte(side: u128, index: u8) -> u128 {
    side & KEEP[(index & 15) as usize]
}

/// A side with `seeds` more in byte `index` (which must not overflow).
#[inline(always)]
pub(crate) fn add_to_byte(side: u128, index: u8, seeds: u8) -> u128 {
    side.wrapping_add(UNITS[(index & 15) as usize].wrapping_mul(seeds as u128))
}

/// A side with byte `index` set to `value`.
#[inline]
pub(crate) fn set_byte(side: u128, index: u8, value: u8) -> u128 {
    add_to_byte(clear_byte(side, index), index, value)
}

/// Does a pit selected by `pits` (a byte mask: `0xFF` in the bytes of the pits looked at)
/// hold two seeds or more? A byte is at least 2 exactly when a bit other than its lowest
/// is set.
#[inline]
pub(crate) const fn any_sowable(side: u128, pits: u128) -> bool {
    side & !ONES & pits != 0
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
pub(crate) fn sow(side: u128, origin: u8, hand: u8, dir: Direction) -> (u128, u8) {
    let rest = (hand % 16) as usize;
    let origin = origin & 15;
    let last = match dir {
        Direction::Anticlockwise => origin.wrapping_add(hand),
        Direction::Clockwise => origin.wrapping_sub(hand),
    } & 15;
    let tail = TAILS[dir as usize][origin as usize][rest];
    let added = ROUNDS[(hand / 16) as usize].wrapping_add(tail);
    (side.wrapping_add(added), last)
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

/// Seeds a lap ending in occupied pit `last` captures, if it captures: `last` is an inner
/// pit and both opponent pits of its column hold seeds (their inner pit `23 - last`, in
/// the high half of their side, and their outer pit `last - 8`, in the low half).
#[inline(always)]
pub(crate) fn capture_at(theirs: u128, last: u8) -> Option<u8> {
    if last < 8 {
        return None;
    }
    let inner = ((theirs >> 64) as u64 >> (8 * u32::from(15 - last))) as u8;
    let outer = ((theirs as u64) >> (8 * u32::from(last - 8))) as u8;
    (inner != 0 && outer != 0).then(|| inner + outer)
}

/// Would a clockwise lap of `hand` seeds from `origin` (already lifted, if it is a lift)
/// capture with its own last seed: a "direct capture" (docs/rules.md#13-reverse-clockwise-laps)?
#[inline]
pub(crate) fn captures_clockwise(mine: u128, theirs: u128, origin: u8, hand: u8) -> bool {
    let last = ((u32::from(origin) + 256 - u32::from(hand)) & 15) as u8;
    hand > 0
        && last >= 8
        && seeds_after_landing(byte(mine, last), hand) >= 2
        && capture_at(theirs, last).is_some()
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
