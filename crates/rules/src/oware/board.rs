//! The twelve houses packed one byte each into a `u128`, so that sowing, row sums and the
//! set of movable houses are a few word operations instead of loops (the board never holds
//! more than 48 seeds, so no byte ever carries into the next). Sowing is one addition of a
//! precomputed pattern.

use std::fmt;

use crate::Side;

/// A `0x01` in each of the 12 house bytes.
const ONES: u128 = 0x0101_0101_0101_0101_0101_0101;
/// The 12 house bytes.
const MASK: u128 = (1 << 96) - 1;
/// A `0x80` in each of the 6 bytes of a row.
const HIGH: u64 = 0x8080_8080_8080;
/// The 6 bytes of a row.
const ROW: u64 = (1 << 48) - 1;

/// Seeds in each house, byte `i` holding house `i` in sowing order; bytes 12-15 are zero.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct Board(u128);

impl fmt::Debug for Board {
    /// The counts in sowing order, `[A1, .., F1, F2, .., A2]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.counts()).finish()
    }
}

/// `n` (at most 12) `0x01` bytes from byte 0 up.
const fn ones(n: u32) -> u128 {
    ONES & ((1 << (8 * n)) - 1)
}

/// `bytes` rotated towards higher houses by `by` houses (0..12), within the 12 houses.
const fn rotate(bytes: u128, by: u32) -> u128 {
    let shift = 8 * by;
    ((bytes << shift) | (bytes >> (96 - shift))) & MASK
}

/// What sowing `seeds` from house `origin` adds to the board (wrapping: it also takes the
/// `seeds` out of the origin), and the house the last seed falls in, for every origin and
/// every possible count (0..=48).
struct Sowing {
    delta: [[u128; 49]; 12],
    last: [[u8; 49]; 12],
}

static SOWING: Sowing = {
    let mut sowing = Sowing {
        delta: [[0; 49]; 12],
        last: [[0; 49]; 12],
    };
    let mut origin = 0;
    while origin < 12 {
        let mut seeds = 1;
        while seeds <= 48 {
            // Every other house gets `rounds` seeds, and the `rest` after the origin one
            // more; the origin is skipped on every lap.
            let (rounds, rest) = (seeds / 11, seeds % 11);
            let others = ONES & !(0xFF << (8 * origin));
            let add = rounds as u128 * others + rotate(ones(rest), ((origin + 1) % 12) as u32);
            sowing.delta[origin][seeds as usize] =
                add.wrapping_sub((seeds as u128) << (8 * origin));
            let steps = if rest == 0 { 11 } else { rest as usize };
            sowing.last[origin][seeds as usize] = ((origin + steps) % 12) as u8;
            seeds += 1;
        }
        origin += 1;
    }
    sowing
};

/// The index of the row's first house in sowing order (South 0, North 6).
#[inline]
pub(super) const fn row_start(side: Side) -> usize {
    match side {
        Side::South => 0,
        Side::North => 6,
    }
}

/// The sum of a row's 6 bytes (at most 48, so no partial sum carries).
#[inline]
const fn row_sum(row: u64) -> u8 {
    (row.wrapping_mul(0x0101_0101_0101) >> 40) as u8
}

/// Gathers the high bits of a row's 6 bytes (bits 7, 15, .., 47) into bits 0..5.
#[inline]
const fn gather(high: u64) -> u16 {
    // Bit 8k times 2^(35 - 7k) lands on 35 + k; no two products meet, so nothing carries.
    (((high >> 7).wrapping_mul(0x8_1020_4081) >> 35) & 0x3f) as u16
}

impl Board {
    pub(super) const START: Board = Board(ONES * 4);
    pub(super) const EMPTY: Board = Board(0);

    #[inline]
    pub(super) const fn from_counts(counts: [u8; 12]) -> Board {
        let mut bytes = [0u8; 16];
        let mut i = 0;
        while i < 12 {
            bytes[i] = counts[i];
            i += 1;
        }
        Board(u128::from_le_bytes(bytes))
    }

    #[inline]
    pub(super) const fn counts(self) -> [u8; 12] {
        let bytes = self.0.to_le_bytes();
        let mut counts = [0u8; 12];
        let mut i = 0;
        while i < 12 {
            counts[i] = bytes[i];
            i += 1;
        }
        counts
    }

    /// The seeds in house `index` (0..12).
    #[inline]
    pub(super) const fn get(self, index: usize) -> u8 {
        (self.0 >> (8 * index)) as u8
    }

    /// `side`'s 6 houses, its first house in sowing order in the low byte.
    #[inline]
    const fn row(self, side: Side) -> u64 {
        (self.0 >> (8 * row_start(side))) as u64 & ROW
    }

    /// The seeds on `side`'s row.
    #[inline]
    pub(super) const fn seeds_on(self, side: Side) -> u8 {
        row_sum(self.row(side))
    }

    /// The houses `side` may sow from (a set of house-index bits): the non-empty ones, and
    /// if the opponent has no seeds only those that reach the opponent's row.
    #[inline]
    pub(super) const fn movable(self, side: Side) -> u16 {
        let row = self.row(side);
        // Adding 0x7f sets a byte's high bit exactly when it holds at least 1.
        let mut high = (row + 0x7f7f_7f7f_7f7f) & HIGH;
        if self.row(side.other()) == 0 {
            // House k of the row reaches the opponent with at least 6 - k seeds: add
            // 0x7a + k, which sets the high bit exactly when seeds + k >= 6.
            high &= row + 0x7f7e_7d7c_7b7a;
        }
        gather(high) << row_start(side)
    }

    /// Empties house `origin` (0..12), which holds `seeds` (at most 48, as every house of
    /// a valid position), and sows them one per house in sowing order, skipping the origin
    /// on every lap. Returns the house the last seed fell in.
    #[inline]
    pub(super) fn sow(&mut self, origin: usize, seeds: u8) -> usize {
        let seeds = usize::from(seeds);
        // The origin byte holds exactly `seeds`, so taking them out borrows from no other.
        self.0 = self.0.wrapping_add(SOWING.delta[origin][seeds]);
        usize::from(SOWING.last[origin][seeds])
    }

    /// Empties houses `first..=last`.
    #[inline]
    pub(super) fn clear(&mut self, first: usize, last: usize) {
        let span = (1u128 << (8 * (last + 1))) - (1u128 << (8 * first));
        self.0 &= !span;
    }
}
