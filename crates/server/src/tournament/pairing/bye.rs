//! Absolute rule 3: who gets the bye, chosen before the pairing proper. It is the
//! lowest-ranked player who has had no bye, unless the others could then not all be
//! paired under rules 1 and 2; then the next one up, and so on. One matching settles both
//! at once: the bye is a vertex too, and its edges outweigh each other in that order.

use super::diagnose;
use super::field::Field;
use super::matching::{max_weight, Weight};
use super::PairingError;

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

/// The player who gets the bye this round (`None` for an even number of active players),
/// once it is sure the others can all be paired under absolute rules 1 to 3; otherwise,
/// why not.
pub(super) fn designate(field: &Field) -> Result<Option<usize>, PairingError> {
    let cover = strict_cover(field);
    if cover.unpaired.is_empty() {
        Ok(cover.bye)
    } else {
        Err(diagnose::explain(field, &cover))
    }
}

/// [`cover`] of the active players under the absolute rules of a Swiss.
pub(super) fn strict_cover(field: &Field) -> Cover {
    cover(
        &field.ranking,
        |a, b| field.may_meet(a, b, 1),
        |p| field.record.byes[p] == 0,
    )
}
