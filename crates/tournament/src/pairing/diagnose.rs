//! Why no pairing keeps the absolute rules, for the director: which rule stands in the
//! way, and for whom.
//!
//! Looked for in this order: nobody may take an odd field's bye (rule 3); a player with
//! nobody left to meet (rule 1 when they have met everyone, else rule 2); then, for a
//! field that cannot be paired as a whole, the rule whose lifting alone would let it be:
//! the forbidden pairs (2), then the bye (3); failing both, rule 1. The players named are
//! the ones the largest pairing leaves without an opponent.

use super::cover::{cover, Cover};
use super::field::Field;
use super::PairingError;

/// The error for a field whose largest pairing under the rules, `strict`, leaves players
/// unpaired.
pub(super) fn explain(field: &Field, strict: &Cover) -> PairingError {
    let ranked = &field.ranking;
    let odd = ranked.len() % 2 == 1;
    let may_bye = |p: usize| field.record.byes[p] == 0;
    if odd && !ranked.iter().any(|&p| may_bye(p)) {
        let detail = match ranked.as_slice() {
            [one] => format!("{} is the only player, and has had a bye", field.name(*one)),
            _ => format!(
                "with an odd number of players one must have the bye, and all {} have had one",
                ranked.len()
            ),
        };
        return PairingError::new(3, ranked.clone(), detail);
    }

    // Players with nobody at all left to meet (and no bye to take instead).
    let mut met_everyone = Vec::new();
    let mut blocked = Vec::new();
    for &p in ranked {
        let others = || ranked.iter().copied().filter(move |&q| q != p);
        if others().any(|q| field.may_meet(p, q, 1)) || (odd && may_bye(p)) {
            continue;
        }
        if others().all(|q| field.record.meetings(p, q) > 0) {
            met_everyone.push(p);
        } else {
            blocked.push(p);
        }
    }
    if !met_everyone.is_empty() {
        let detail = format!(
            "{} already met every other player",
            verb(field, &met_everyone, "has", "have")
        );
        return PairingError::new(1, met_everyone, detail);
    }
    if !blocked.is_empty() {
        let detail = format!(
            "{} nobody left to meet: every other player is forbidden or already met",
            verb(field, &blocked, "has", "have")
        );
        return PairingError::new(2, blocked, detail);
    }

    let unpaired = strict.unpaired.clone();
    let without_forbidden = cover(ranked, |a, b| field.record.meetings(a, b) == 0, may_bye);
    if without_forbidden.unpaired.is_empty() {
        let detail = format!(
            "the forbidden pairs leave no pairing of everyone: {} cannot all be paired",
            field.names(&unpaired)
        );
        return PairingError::new(2, unpaired, detail);
    }
    if odd {
        let any_bye = cover(ranked, |a, b| field.may_meet(a, b, 1), |_| true);
        if any_bye.unpaired.is_empty() {
            let eligible: Vec<usize> = ranked.iter().copied().filter(|&p| may_bye(p)).collect();
            let detail = format!(
                "{} cannot all be paired when the bye goes to one who has had none ({})",
                field.names(&unpaired),
                field.names(&eligible)
            );
            return PairingError::new(3, unpaired, detail);
        }
    }
    let detail = format!(
        "{} cannot all be paired with players they have not met",
        field.names(&unpaired)
    );
    PairingError::new(1, unpaired, detail)
}

/// "Kato has", "Kato and Ali have".
fn verb(field: &Field, players: &[usize], one: &str, many: &str) -> String {
    let verb = if players.len() == 1 { one } else { many };
    format!("{} {verb}", field.names(players))
}
