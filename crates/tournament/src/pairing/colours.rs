//! First-move balance (criterion 3 of docs/rules.md#54-pairing): what each player may and should
//! get, how good a pair is for it, and who moves first at a table.
//!
//! A player *breaks* the balance by moving first (or second) a third time running, or by
//! ending with firsts and seconds more than 2 apart; each of the two counts once. A
//! player's *due* side is the one they have had less, else the other side from their
//! last game; a player with no game has none. "Running" counts games: byes and rounds not
//! played are skipped.
//!
//! A pair is measured by its better orientation: fewest breaks first, then most players
//! given their due side. The weights use that measure and [`orient`] seats the pair by
//! it, so the first moves given are the ones the matching was chosen for.

use super::history::Side;

/// One player's position for first-move balance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Balance {
    /// Breaks if given [first, second].
    breaks: [u8; 2],
    due: Option<Side>,
    /// How strongly the due side is wanted: the breaks the other side would make, then
    /// how far apart firsts and seconds are, then how long the last side has run.
    strength: (u8, u32, u32),
}

fn slot(side: Side) -> usize {
    match side {
        Side::First => 0,
        Side::Second => 1,
    }
}

impl Balance {
    /// The balance of a player whose games were played on `sides`, in order.
    pub(super) fn new(sides: &[Side]) -> Balance {
        let firsts = sides.iter().filter(|&&s| s == Side::First).count() as i64;
        let seconds = sides.len() as i64 - firsts;
        let last = sides.last().copied();
        let run = last.map_or(0, |l| sides.iter().rev().take_while(|&&s| s == l).count());
        let breaks_for = |side: Side| {
            let third_running = run >= 2 && last == Some(side);
            let diff = firsts - seconds + if side == Side::First { 1 } else { -1 };
            u8::from(third_running) + u8::from(diff.abs() > 2)
        };
        let breaks = [breaks_for(Side::First), breaks_for(Side::Second)];
        let due = match firsts.cmp(&seconds) {
            std::cmp::Ordering::Less => Some(Side::First),
            std::cmp::Ordering::Greater => Some(Side::Second),
            std::cmp::Ordering::Equal => last.map(Side::other),
        };
        let strength = match due {
            Some(d) => (
                breaks[slot(d.other())],
                firsts.abs_diff(seconds) as u32,
                run as u32,
            ),
            None => (0, 0, 0),
        };
        Balance {
            breaks,
            due,
            strength,
        }
    }

    fn breaks(&self, side: Side) -> u8 {
        self.breaks[slot(side)]
    }

    fn gets_due(&self, side: Side) -> u8 {
        u8::from(self.due == Some(side))
    }
}

/// How good a pair is for first-move balance, seated its better way: (breaks, players
/// given their due side). Fewer breaks is better, then more dues.
pub(super) fn measure(a: &Balance, b: &Balance) -> (u8, u8) {
    let a_first = seat(a, b);
    let b_first = seat(b, a);
    if better(b_first, a_first) {
        b_first
    } else {
        a_first
    }
}

/// (breaks, dues) with `x` first and `y` second.
fn seat(x: &Balance, y: &Balance) -> (u8, u8) {
    (
        x.breaks(Side::First) + y.breaks(Side::Second),
        x.gets_due(Side::First) + y.gets_due(Side::Second),
    )
}

fn better(x: (u8, u8), y: (u8, u8)) -> bool {
    x.0 < y.0 || (x.0 == y.0 && x.1 > y.1)
}

/// Who moves first at a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Seating {
    /// The higher-ranked player moves first.
    HigherFirst,
    /// The lower-ranked player moves first.
    LowerFirst,
    /// Nothing to choose between (neither player has a due side, as in round 1): as in
    /// FIDE's first round, the higher-ranked player moves first at odd tables and second
    /// at even ones, so the first moves alternate down the tables.
    ByTable,
}

/// Seats a pair, `high` being the higher-ranked. The better orientation by [`measure`];
/// when both are as good, the stronger due wins, and between equal dues the
/// higher-ranked player's.
pub(super) fn orient(high: &Balance, low: &Balance) -> Seating {
    let high_first = seat(high, low);
    let low_first = seat(low, high);
    if better(high_first, low_first) {
        return Seating::HigherFirst;
    }
    if better(low_first, high_first) {
        return Seating::LowerFirst;
    }
    // Equal: both dues are the same side (or neither player has one).
    let (high_wins, due) = match (high.due, low.due) {
        (None, None) => return Seating::ByTable,
        (Some(_), Some(l)) if low.strength > high.strength => (false, l),
        (Some(h), _) => (true, h),
        (None, Some(l)) => (false, l),
    };
    if high_wins == (due == Side::First) {
        Seating::HigherFirst
    } else {
        Seating::LowerFirst
    }
}
