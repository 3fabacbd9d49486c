//! The transposition table: positions already searched, by a 64-bit key, with the bound
//! found, the depth it was searched to and the best move's index in the position's move
//! list. Slots come in pairs: the first keeps the deepest search seen there, the second
//! the latest, so that the positions near the root (deep, few) outlive the many shallow
//! ones of a long search and the principal line can be read back.

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
            // The index of a pair's first slot.
            mask: (size - 1) & !1,
        }
    }

    #[must_use]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let i = (key as usize) & self.mask;
        self.slots[i..i + 2]
            .iter()
            .find(|e| e.key == key && e.depth >= 0)
            .copied()
    }

    pub fn store(&mut self, entry: Entry) {
        let i = (entry.key as usize) & self.mask;
        let (deep, latest) = (self.slots[i], self.slots[i + 1]);
        if deep.key == entry.key {
            if entry.depth >= deep.depth || entry.bound == Bound::Exact {
                self.slots[i] = entry;
            }
        } else if entry.depth >= deep.depth {
            // The deeper search takes the first slot; the one it displaces, if it is not
            // stale, the second.
            if latest.key != entry.key {
                self.slots[i + 1] = deep;
            }
            self.slots[i] = entry;
        } else {
            self.slots[i + 1] = entry;
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

/// Transposition table slots at most (24 bytes each): 24 MB, for level 8's millions of
/// nodes; a search of fewer nodes gets about one slot per node.
pub(crate) const MAX_TABLE: usize = 1 << 20;

/// Table slots for a search of `nodes` positions: about one per node, at most
/// [`MAX_TABLE`].
pub(crate) fn table_for(nodes: u64) -> usize {
    usize::try_from(nodes).unwrap_or(usize::MAX).min(MAX_TABLE)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(key: u64, depth: i16) -> Entry {
        Entry {
            key,
            score: i32::from(depth),
            depth,
            bound: Bound::Lower,
            best: 0,
        }
    }

    #[test]
    fn a_deep_entry_outlives_shallow_ones_in_its_pair() {
        let mut table = Table::new(1024);
        // Keys 0, 1024, 2048 fall in the same pair (slots 0 and 1).
        table.store(entry(1024, 9));
        for depth in 0..5 {
            table.store(entry(2048 + 1024 * depth as u64, depth));
        }
        assert_eq!(table.probe(1024).map(|e| e.depth), Some(9));
        assert_eq!(table.probe(2048 + 1024 * 4).map(|e| e.depth), Some(4));
        assert!(table.probe(2048).is_none());
        // A deeper one moves the old deepest to the second slot.
        table.store(entry(4096 * 8, 12));
        assert_eq!(table.probe(4096 * 8).map(|e| e.depth), Some(12));
        assert_eq!(table.probe(1024).map(|e| e.depth), Some(9));
        // The same position searched shallower does not replace a deeper bound.
        table.store(entry(4096 * 8, 3));
        assert_eq!(table.probe(4096 * 8).map(|e| e.depth), Some(12));
    }
}
