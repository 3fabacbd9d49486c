//! The field of a round: the input checked for consistency, with what the history says,
//! the forbidden pairs as a table, and the ranking of the active players.

use super::history::Record;
use super::ranking::ranking;
use super::{PairingError, SwissInput};

pub(super) struct Field<'a> {
    pub(super) input: &'a SwissInput<'a>,
    pub(super) n: usize,
    pub(super) record: Record,
    /// `forbidden[a * n + b]` (symmetric). A table, not the input's list: the answer must
    /// not depend on the list's order, and it is asked n² times.
    forbidden: Vec<bool>,
    /// The active players, best first.
    pub(super) ranking: Vec<usize>,
}

impl<'a> Field<'a> {
    /// Checks that the input holds together (rule 0 otherwise): one name, points and
    /// active flag per player, and player numbers in range.
    pub(super) fn new(input: &'a SwissInput<'a>) -> Result<Field<'a>, PairingError> {
        let n = input.names.len();
        if input.points.len() != n || input.active.len() != n {
            return Err(PairingError::new(
                0,
                Vec::new(),
                format!(
                    "{} names, {} points and {} active flags: one of each per player",
                    n,
                    input.points.len(),
                    input.active.len()
                ),
            ));
        }
        let mut forbidden = vec![false; n * n];
        for &(a, b) in input.forbidden {
            if a >= n || b >= n {
                return Err(PairingError::new(
                    0,
                    Vec::new(),
                    format!("forbidden pair ({a}, {b}): there are {n} players"),
                ));
            }
            // (a, a) forbids nothing that could happen anyway.
            forbidden[a * n + b] = true;
            forbidden[b * n + a] = true;
        }
        Ok(Field {
            input,
            n,
            record: Record::new(n, input.history)?,
            forbidden,
            ranking: ranking(input.points, input.active),
        })
    }

    pub(super) fn forbidden(&self, a: usize, b: usize) -> bool {
        self.forbidden[a * self.n + b]
    }

    /// `a` and `b` may meet under absolute rules 1 and 2, when a pair may meet
    /// `meetings_allowed` times.
    pub(super) fn may_meet(&self, a: usize, b: usize, meetings_allowed: usize) -> bool {
        a != b
            && usize::from(self.record.meetings(a, b)) < meetings_allowed
            && !self.forbidden(a, b)
    }

    pub(super) fn name(&self, p: usize) -> &str {
        self.input.names.get(p).map_or("?", String::as_str)
    }

    /// "Kato", "Kato and Ali", "Kato, Ali and Nankya".
    pub(super) fn names(&self, players: &[usize]) -> String {
        match players {
            [] => String::new(),
            [one] => self.name(*one).to_string(),
            [rest @ .., last] => {
                let rest: Vec<&str> = rest.iter().map(|&p| self.name(p)).collect();
                format!("{} and {}", rest.join(", "), self.name(*last))
            }
        }
    }
}
