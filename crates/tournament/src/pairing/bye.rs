//! Absolute rule 3: who gets the bye, chosen before the pairing proper. It is the
//! lowest-ranked player who has had no bye, unless the others could then not all be
//! paired under rules 1 and 2; then the next one up, and so on. One matching settles both
//! at once (`cover`): the bye is a vertex too, and its edges outweigh each other in that order.

use super::cover::{cover, Cover};
use super::diagnose;
use super::field::Field;
use super::PairingError;

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
