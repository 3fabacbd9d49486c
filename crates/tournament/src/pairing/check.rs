//! A hand-made pairing against the absolute rules (docs/rules.md#54-pairing, manual pairing): every
//! breach is listed for the director to confirm; errors that no confirmation makes right
//! are listed as rule 0.

use super::field::Field;
use super::{bye, Breach, Pairing, SwissInput};

/// What `pairs` breaks, tables in order, then the players left out. `meetings_allowed` is
/// how often two players may meet: 1 in a Swiss, 2 in a double round-robin; a player may
/// have as many byes (one per cycle). Rule 3's choice of who gets the bye is checked for
/// a Swiss only (`meetings_allowed` 1): a round-robin's bye comes from its table. Empty:
/// nothing to confirm.
#[must_use]
pub fn check(input: &SwissInput, pairs: &[Pairing], meetings_allowed: usize) -> Vec<Breach> {
    let field = match Field::new(input) {
        Ok(field) => field,
        Err(e) => return vec![Breach::new(0, e.players, e.message)],
    };
    let n = field.n;
    let mut breaches = Vec::new();
    let mut seen = vec![false; n];
    let mut byes = Vec::new();
    for (t, table) in pairs.iter().enumerate() {
        let mut known = true;
        for p in std::iter::once(table.first).chain(table.second) {
            if p >= n {
                let detail = format!("table {}: there is no player #{p} among {n}", t + 1);
                breaches.push(Breach::new(0, Vec::new(), detail));
                known = false;
                continue;
            }
            if seen[p] && table.second != Some(table.first) {
                let detail = format!("{} is paired twice", field.name(p));
                breaches.push(Breach::new(0, vec![p], detail));
            }
            seen[p] = true;
            if !input.active[p] {
                let detail = format!("{} is paired but has withdrawn", field.name(p));
                breaches.push(Breach::new(4, vec![p], detail));
            }
        }
        if !known {
            continue;
        }
        let a = table.first;
        let Some(b) = table.second else {
            byes.push(a);
            continue;
        };
        if a == b {
            let detail = format!("{} is paired with themself", field.name(a));
            breaches.push(Breach::new(0, vec![a], detail));
            continue;
        }
        let met = usize::from(field.record.meetings(a, b));
        if met >= meetings_allowed {
            let times = if met == 1 {
                String::new()
            } else {
                format!(" {met} times")
            };
            let detail = format!("{} have already met{times}", field.names(&[a, b]));
            breaches.push(Breach::new(1, vec![a, b], detail));
        }
        if field.forbidden(a, b) {
            let detail = format!("{} may not be paired", field.names(&[a, b]));
            breaches.push(Breach::new(2, vec![a, b], detail));
        }
    }

    // An odd number of active players leaves one bye; an even number none.
    let byes_wanted = field.ranking.len() % 2;
    for (k, &p) in byes.iter().enumerate() {
        if usize::from(field.record.byes[p]) >= meetings_allowed {
            let detail = format!("{} has already had a bye", field.name(p));
            breaches.push(Breach::new(3, vec![p], detail));
        }
        if k >= byes_wanted {
            let detail = if byes_wanted == 0 {
                format!(
                    "{} has a bye, with an even number of players to pair",
                    field.name(p)
                )
            } else {
                format!("{} has a second bye in the round", field.name(p))
            };
            breaches.push(Breach::new(3, vec![p], detail));
        }
    }
    if let ([p], 1, 1) = (byes.as_slice(), byes_wanted, meetings_allowed) {
        let p = *p;
        // A bye to a player who had one, or to a withdrawn player, is reported above.
        if input.active[p] && field.record.byes[p] == 0 {
            if let Ok(Some(due)) = bye::designate(&field) {
                if due != p {
                    let detail = format!(
                        "the bye goes to {} (the lowest-ranked who has had none, the others \
                         still pairable), not {}",
                        field.name(due),
                        field.name(p)
                    );
                    breaches.push(Breach::new(3, vec![p, due], detail));
                }
            }
        }
    }

    for p in (0..n).filter(|&p| input.active[p] && !seen[p]) {
        let detail = format!(
            "{} is not paired: every active player must be (withdraw them to leave them out)",
            field.name(p)
        );
        breaches.push(Breach::new(0, vec![p], detail));
    }
    breaches
}
