//! Exact never-ending detection in constant memory.
//!
//! docs/rules.md#14-never-ending-turns: before each lap the state is (board, lap origin, seeds in hand,
//! direction), and the turn is never-ending as soon as a state repeats. Cycles can be
//! hundreds of millions of laps long, so states cannot be stored. Instead the engine keeps
//! two *anchors* per segment and compares every state with them; this finds the first
//! repeated state exactly, at the lap where it occurs.
//!
//! # Why two anchors suffice
//!
//! A *segment* is a maximal run of states between two captures. Every capture takes seeds
//! from the opponent, so no state can repeat across segments; every clockwise lap captures,
//! so a clockwise state is always the first or last of its segment and never repeats. What
//! remains are the anticlockwise states x0, x1, x2, ... of one segment. Each x(i+1) comes
//! from x(i) by a relay: sow x(i), lift the landing pit `L`, which becomes the origin. So
//! every x(i) with i >= 1 is a *lifted* state: its origin pit is empty.
//!
//! Claim: a lifted state has at most one lifted predecessor. Let lifted states (B1, o1,
//! h1) and (B2, o2, h2) both relay into the same state, with board B' after sowing and
//! landing pit L. A lap of h seeds from a lifted origin o leaves floor(h/16) seeds in o,
//! and at least floor(h/16) in every other pit, one more in the pits o+1 ..= o+(h mod 16)
//! (the "tail"). Writing k = floor(h/16): B'[o1] = k1 and B'[o2] = k2, while B'[o2] >=
//! k1 + [o2 in tail1] and B'[o1] >= k2 + [o1 in tail2]. So k1 = k2, and neither origin
//! lies in the other's tail. Both tails end at L (or are empty, with the origin at L); if
//! o1 != o2, the origin nearer to L going back lies in the other's tail. Hence o1 = o2,
//! then h1 = h2 (equal k and h = L - o mod 16), and B1 = B2.
//!
//! Now let x(j) = x(i), i < j, be the first repeat. If i >= 2, x(i-1) and x(j-1) are
//! lifted predecessors of the same state, so they are equal, and j was not the first
//! repeat. So the first repeated state is x0 or x1 of its segment: comparing each state
//! with those two is exact, and since the states are finite the turn always stops.
//! (x0 may not be lifted: captured seeds are sown from an origin that may hold seeds.)
//!
//! Within a segment the opponent's side does not change, so an anchor keeps only the
//! mover's 16 pits (one `u128`), the origin and the hand: one compare per lap.

/// An anticlockwise state of a segment: the mover's pits, the lap origin and the hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Anchor {
    mine: u128,
    /// `origin | hand << 8`.
    key: u16,
}

impl Anchor {
    #[inline(always)]
    pub(crate) const fn new(mine: u128, origin: u8, hand: u8) -> Anchor {
        Anchor {
            mine,
            key: origin as u16 | (hand as u16) << 8,
        }
    }
}

/// The first two anticlockwise states of the current segment, packed (this is copied with
/// every turn the move generator starts or branches).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Anchors {
    first: u128,
    second: u128,
    first_key: u16,
    second_key: u16,
    len: u8,
}

impl Anchors {
    pub(crate) const fn new() -> Anchors {
        Anchors {
            first: 0,
            second: 0,
            first_key: 0,
            second_key: 0,
            len: 0,
        }
    }

    /// A capture starts a new segment.
    #[inline(always)]
    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }

    /// Has `state` been seen in this segment? If not, and fewer than two anchors are set,
    /// it becomes one.
    #[inline(always)]
    pub(crate) fn seen_or_anchor(&mut self, state: Anchor) -> bool {
        let is_first = state.mine == self.first && state.key == self.first_key;
        let is_second = state.mine == self.second && state.key == self.second_key;
        match self.len {
            0 => {
                (self.first, self.first_key, self.len) = (state.mine, state.key, 1);
                false
            }
            1 if is_first => true,
            1 => {
                (self.second, self.second_key, self.len) = (state.mine, state.key, 2);
                false
            }
            _ => is_first || is_second,
        }
    }
}
