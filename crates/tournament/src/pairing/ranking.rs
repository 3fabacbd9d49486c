//! The ranking for pairing (docs/rules.md#54-pairing): points, more first, then the initial order;
//! and the score groups it falls into.

use crate::standings::Milli;

/// The active players, best first.
pub(super) fn ranking(points: &[Milli], active: &[bool]) -> Vec<usize> {
    let mut players: Vec<usize> = (0..points.len()).filter(|&p| active[p]).collect();
    // Sorting by (points desc, number asc) is a total order: no tie is left to the sort.
    players.sort_by(|&a, &b| points[b].cmp(&points[a]).then(a.cmp(&b)));
    players
}

/// Where a player stands among the players of one round's matching.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Place {
    /// Position in the ranking (0 = best).
    pub(super) rank: usize,
    /// Score group, 0 = the highest.
    pub(super) group: usize,
    /// Position inside the score group (0 = its best).
    pub(super) index: usize,
    /// Players in the score group.
    pub(super) size: usize,
}

/// The places of `ranked` (best first), indexed like it: a score group is a run of
/// equal points.
pub(super) fn places(ranked: &[usize], points: &[Milli]) -> Vec<Place> {
    let mut places = Vec::with_capacity(ranked.len());
    let mut start = 0;
    let mut group = 0;
    while start < ranked.len() {
        let level = points[ranked[start]];
        let end = ranked[start..]
            .iter()
            .position(|&p| points[p] != level)
            .map_or(ranked.len(), |k| start + k);
        for rank in start..end {
            places.push(Place {
                rank,
                group,
                index: rank - start,
                size: end - start,
            });
        }
        start = end;
        group += 1;
    }
    places
}
