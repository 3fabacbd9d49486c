//! The transposition table: positions already searched, by a 64-bit key, with the bound
//! found, the depth it was searched to and the best move's index in the position's move
//! list. One entry per slot, replaced when the new search is at least as deep (or the
//! slot holds another position).

use omweso_rules::{Game, Side};

/// What a stored score is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The exact value.
    Exact,
    /// At least this (the search failed high: a cut).
    Lower,
    /// At most this (no move reached alpha).
    Upper,
}

#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub key: u64,
    pub score: i32,
    pub depth: i16,
    pub bound: Bound,
    /// The best (or cutting) move's index in the move list; `u16::MAX` when none.
    pub best: u16,
}

const EMPTY: Entry = Entry {
    key: 0,
    score: 0,
    depth: -1,
    bound: Bound::Upper,
    best: u16::MAX,
};

#[derive(Debug)]
pub struct Table {
    slots: Vec<Entry>,
    mask: usize,
}

impl Table {
    /// A table of about `entries` slots (a power of two, at least 1024).
    #[must_use]
    pub fn new(entries: usize) -> Table {
        let size = entries.clamp(1 << 10, 1 << 22).next_power_of_two();
        Table {
            slots: vec![EMPTY; size],
            mask: size - 1,
        }
    }

    #[must_use]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let entry = self.slots[(key as usize) & self.mask];
        (entry.key == key && entry.depth >= 0).then_some(entry)
    }

    pub fn store(&mut self, entry: Entry) {
        let slot = &mut self.slots[(entry.key as usize) & self.mask];
        if slot.key != entry.key || entry.depth >= slot.depth {
            *slot = entry;
        }
    }
}

/// A 64-bit key of `game` with `side` to move: the boards, captures, whose turn it is and
/// the akakyala history, mixed. Two positions with one key are taken for the same; with
/// 64 bits and at most a few million positions per search that is a chance of about
/// 1 in 10^6 per search, and a wrong transposition costs one bad score, never an illegal
/// move (moves are always taken from the position's own list).
#[must_use]
pub fn key(game: &Game, side: Side) -> u64 {
    let (a, b, extra) = match game {
        Game::Omweso(p) | Game::Mweiso(p) => {
            let south = u128::from_le_bytes(p.board().counts(Side::South));
            let north = u128::from_le_bytes(p.board().counts(Side::North));
            let opening = u64::from(p.to_move().is_opening());
            let history = u64::from(p.has_captured(Side::South))
                | u64::from(p.has_captured(Side::North)) << 1;
            let akakyala = u64::from(p.rules().akakyala);
            (south, north, opening | history << 1 | akakyala << 3)
        }
        Game::Oware(p) => {
            let mut bytes = [0u8; 16];
            bytes[..12].copy_from_slice(&p.houses());
            bytes[12] = p.captured(Side::South);
            bytes[13] = p.captured(Side::North);
            (u128::from_le_bytes(bytes), 0, 1 << 4)
        }
    };
    let mut h = mix(a as u64 ^ 0x9E37_79B9_7F4A_7C15);
    h = mix(h ^ (a >> 64) as u64);
    h = mix(h ^ b as u64);
    h = mix(h ^ (b >> 64) as u64);
    mix(h ^ extra ^ (side as u64) << 8)
}

/// The SplitMix64 finaliser: every input bit flips about half the output bits.
#[must_use]
pub fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
