//! What the played rounds say about each player: whom they met, their byes, the sides
//! they played, and how they floated last round.

use super::{PairingError, PastRound};

/// Who moves first, from one player's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Side {
    First,
    Second,
}

impl Side {
    pub(super) fn other(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }
}

/// A player paired outside their score group: against fewer points (down) or more (up).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Float {
    Down,
    Up,
}

/// The float of a player with `mine` points against an opponent with `theirs`.
pub(super) fn float(mine: i64, theirs: i64) -> Option<Float> {
    match mine.cmp(&theirs) {
        std::cmp::Ordering::Greater => Some(Float::Down),
        std::cmp::Ordering::Less => Some(Float::Up),
        std::cmp::Ordering::Equal => None,
    }
}

/// The history, per player, of `n` players.
pub(super) struct Record {
    n: usize,
    /// `meetings[a * n + b]`: games `a` and `b` played each other (symmetric).
    meetings: Vec<u16>,
    /// Pairing byes had.
    pub(super) byes: Vec<u16>,
    /// The sides of each player's games, in order (byes and rounds not played skipped:
    /// "three times running" counts games).
    pub(super) sides: Vec<Vec<Side>>,
    /// How each player floated in the last round, when they played it.
    pub(super) last_float: Vec<Option<Float>>,
}

impl Record {
    /// Reads `history` for `n` players; a round that names a player out of range, or
    /// pairs one with themself, is refused (rule 0) rather than guessed at.
    pub(super) fn new(n: usize, history: &[PastRound]) -> Result<Record, PairingError> {
        let mut record = Record {
            n,
            meetings: vec![0; n * n],
            byes: vec![0; n],
            sides: vec![Vec::new(); n],
            last_float: vec![None; n],
        };
        for (r, round) in history.iter().enumerate() {
            for (t, table) in round.pairs.iter().enumerate() {
                let bad = |what: String| {
                    PairingError::new(
                        0,
                        Vec::new(),
                        format!("round {}, table {}: {what}", r + 1, t + 1),
                    )
                };
                let a = table.first;
                if a >= n {
                    return Err(bad(format!("no player #{a} among {n}")));
                }
                let Some(b) = table.second else {
                    record.byes[a] = record.byes[a].saturating_add(1);
                    continue;
                };
                if b >= n {
                    return Err(bad(format!("no player #{b} among {n}")));
                }
                if a == b {
                    return Err(bad(format!("player #{a} is paired with themself")));
                }
                for (x, y) in [(a, b), (b, a)] {
                    let m = &mut record.meetings[x * n + y];
                    *m = m.saturating_add(1);
                }
                record.sides[a].push(Side::First);
                record.sides[b].push(Side::Second);
            }
        }
        if let Some(last) = history.last() {
            for table in &last.pairs {
                let (a, Some(b)) = (table.first, table.second) else {
                    continue;
                };
                // A player with no points recorded before that round had not joined:
                // no float is read for their game.
                if let (Some(&pa), Some(&pb)) =
                    (last.points_before.get(a), last.points_before.get(b))
                {
                    record.last_float[a] = float(pa, pb);
                    record.last_float[b] = float(pb, pa);
                }
            }
        }
        Ok(record)
    }

    /// How many times `a` and `b` have met.
    pub(super) fn meetings(&self, a: usize, b: usize) -> u16 {
        self.meetings[a * self.n + b]
    }
}
