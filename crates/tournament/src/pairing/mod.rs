//! Swiss pairing (docs/rules.md#54-pairing), pure: the state of a tournament in, a round's tables out.
//!
//! Players are numbered `0..n` in their initial order. They are ranked for pairing by
//! points (more first), then by that number (`ranking`).
//!
//! The absolute rules are never broken by [`swiss`]:
//! 1. no two players meet twice;
//! 2. no forbidden pair is paired;
//! 3. a player gets at most one pairing bye, and with an odd number of players the bye
//!    goes to the lowest-ranked player of the lowest score group who has had no bye (the
//!    next one up, when giving it to that player would leave the others unpairable);
//! 4. inactive (withdrawn) players are not paired.
//!
//! Among the pairings that keep them, [`swiss`] picks the best by the criteria of
//! docs/rules.md#54-pairing, each strictly more important than the next, as the weights of one
//! maximum weight matching (`weights`, `matching`): as many pairs as possible; the
//! smallest sum of squared point differences; first-move balance; no float in the same
//! direction twice running; top half against bottom half inside a score group; and, last,
//! a tie-break of ours so that floats come from as low and as near as possible. Who moves
//! first is decided after the matching (`colours`), by the same measure the weights used.
//!
//! [`check`] lists what a hand-made pairing breaks, for the director to confirm.

mod bye;
mod check;
mod colours;
mod cover;
mod diagnose;
mod field;
mod history;
mod matching;
mod ranking;
mod swiss;
mod weights;

#[cfg(test)]
mod tests;

pub use super::berger::Pairing;
use super::standings::Milli;

pub use check::check;
pub use swiss::swiss;

/// One played round, as the pairing needs it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PastRound {
    /// The tables as played: `first` moved first; `second: None` is a pairing bye. A
    /// player absent from `pairs` did not play that round (not joined yet, withdrawn,
    /// missed it).
    pub pairs: Vec<Pairing>,
    /// `points_before[p]`: player `p`'s points before that round (missing for a player
    /// who had not joined yet). Floats are read from it.
    pub points_before: Vec<Milli>,
}

/// The state a round is paired from. `names`, `points` and `active` have one entry per
/// player.
#[derive(Clone, Copy, Debug)]
pub struct SwissInput<'a> {
    /// Player `i`'s name, for messages.
    pub names: &'a [String],
    /// Current points, per player.
    pub points: &'a [Milli],
    /// `false`: withdrawn, or otherwise not to be paired this round (absolute rule 4).
    pub active: &'a [bool],
    /// Pairs that must not meet (absolute rule 2), in any order, either way round.
    pub forbidden: &'a [(usize, usize)],
    /// Criterion 3 (first-move balance) weighs in the choice of the pairing. Off, the
    /// first moves are still given by the same measure, after the pairing is chosen
    /// without it: balancing them costs nothing then.
    pub balance_first_move: bool,
    /// Every played round, in order.
    pub history: &'a [PastRound],
}

/// No pairing keeps the absolute rules (`rule` 1 to 3, `players` the ones it leaves
/// without an opponent), or the input does not hold together (`rule` 0: lengths that
/// differ, a player number out of range, a field too large to weigh exactly).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct PairingError {
    pub rule: u8,
    pub players: Vec<usize>,
    /// For the director, e.g. "rule 1 (no two players meet twice): Kato has already met
    /// every other player".
    pub message: String,
}

/// One thing a hand-made pairing breaks ([`check`]). `rule` 1 to 4 is the absolute rule
/// broken, which the director may confirm; `rule` 0 is an error in the pairing itself
/// that no confirmation makes right: a player paired twice, or with themself, a number
/// that is no player, an active player left out (set them inactive to leave them out).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Breach {
    pub rule: u8,
    pub players: Vec<usize>,
    pub message: String,
}

/// The short statement of an absolute rule, for messages.
fn rule_title(rule: u8) -> &'static str {
    match rule {
        1 => "no two players meet twice",
        2 => "no forbidden pair is paired",
        3 => "at most one pairing bye each",
        4 => "withdrawn players are not paired",
        _ => "",
    }
}

/// "rule 1 (no two players meet twice): detail"; an error of the input itself (rule 0)
/// is the detail alone.
fn message(rule: u8, detail: impl std::fmt::Display) -> String {
    if rule == 0 {
        detail.to_string()
    } else {
        format!("rule {rule} ({}): {detail}", rule_title(rule))
    }
}

impl PairingError {
    fn new(rule: u8, players: Vec<usize>, detail: impl std::fmt::Display) -> PairingError {
        PairingError {
            rule,
            players,
            message: message(rule, detail),
        }
    }
}

impl Breach {
    fn new(rule: u8, players: Vec<usize>, detail: impl std::fmt::Display) -> Breach {
        Breach {
            rule,
            players,
            message: message(rule, detail),
        }
    }
}
