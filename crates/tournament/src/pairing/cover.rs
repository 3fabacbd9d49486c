//! The largest matching of some players under a rule of who may meet and who may take
//! the bye: the one computation both the bye's choice (`bye`) and the account of why a
//! round cannot be paired (`diagnose`) are made of, so it sits below both. One matching
//! settles the pairs and the bye at once: the bye is a vertex too, and its edges outweigh
//! each other in ranking order.

use super::matching::{max_weight, Weight};

/// The largest matching of some players, as far as the rules let.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Cover {
    /// Who took the bye, if anyone.
    pub(super) bye: Option<usize>,
    /// The players left without an opponent (and without the bye), in ranking order.
    pub(super) unpaired: Vec<usize>,
}

/// The largest matching of `ranked` (best first) under `may_meet`, with a bye for one of
/// them when their number is odd, which only a player for whom `may_bye` holds may take:
/// of those, the lowest-ranked that leaves the largest matching.
pub(super) fn cover(
    ranked: &[usize],
    may_meet: impl Fn(usize, usize) -> bool,
    may_bye: impl Fn(usize) -> bool,
) -> Cover {
    let k = ranked.len();
    let odd = k % 2 == 1;
    let n = k + usize::from(odd);
    // A pair is worth more than the bye's whole preference (at most k), so the most pairs
    // come first; between as many pairs, the lowest-ranked bye.
    let pair = k as Weight + 2;
    let mut weights = vec![0; n * n];
    for i in 0..k {
        for j in i + 1..k {
            if may_meet(ranked[i], ranked[j]) {
                weights[i * n + j] = pair;
            }
        }
        if odd && may_bye(ranked[i]) {
            weights[i * n + k] = pair + i as Weight + 1;
        }
    }
    let mate = max_weight(n, &weights);
    let bye = if odd {
        mate.get(k).copied().flatten().map(|i| ranked[i])
    } else {
        None
    };
    let unpaired = (0..k)
        .filter(|&i| mate.get(i).copied().flatten().is_none())
        .map(|i| ranked[i])
        .collect();
    Cover { bye, unpaired }
}
