//! The criteria of docs/rules.md#54-pairing as the exact integer weights of one maximum weight
//! matching.
//!
//! Each criterion (a *level*) gives every pair a value in `0..=max`, higher better. The
//! weight of a pair is `Σ multiplier[k] · value[k]`, each multiplier larger than the most
//! all lower levels together can add over a whole matching (`pairs · max · multiplier`
//! summed), so a better total at one level always outweighs anything below it: the
//! matching of greatest weight is the best by the first level, then the second, and so on.
//!
//! The levels, most important first:
//! 1. a pair (value 1): as many pairs as possible;
//! 2. `D − d²`, d the pair's point difference (in units of the gcd of all differences,
//!    which leaves the order of the sums unchanged and keeps them small), D the largest:
//!    the smallest sum of squared differences;
//! 3. `4 − breaks` of first-move balance, and 4. the players given their due side
//!    (`colours`), both 0 when balance is off;
//! 5. `2 −` the players who would float in the same direction as last round;
//! 6. inside a score group of m, ranked i < j, h = m / 2: top half (i < h) against bottom
//!    half (j ≥ h) and j − i = h is ideal; the value is `2n −` the distance from it: `|j − i
//!    − h|`, plus m when both are in the same half;
//! 7. our tie-break between floats (not in docs/rules.md; it only orders pairings equal on all
//!    the above): a float from a lower score group is better (the top groups stay
//!    together, as FIDE's pairing top down does), then one between the lowest of the
//!    upper group and the best of the lower (the square, so that two floats into a group
//!    meet its first two in order rather than one meeting its first, one its last). The
//!    value is `2n² − (G − 1 − g)·n − s²`, g the upper player's group of G, s the places
//!    between the two inside their groups.
//!
//! Range: the largest weight is about `Π (pairs · max + 1)` over the levels. For 500
//! players (250 pairs) levels 3 to 7 multiply to about 8e21, so level 2 may reach D ≈
//! 3.3e11 within the solver's bound [`MAX_WEIGHT`] (6.6e35): points 500 apart counted in
//! single thousandths (D = 2.5e11) fit, whatever the points table
//! (`no_overflow_for_500_players`); a Swiss of 500 rarely spreads over 100. Everything
//! is computed with checked arithmetic: a field beyond that is refused (rule 0), never
//! weighed wrong.

use super::colours::{self, Balance};
use super::field::Field;
use super::history::{float, Float};
use super::matching::{Weight, MAX_WEIGHT};
use super::ranking::{places, Place};
use super::PairingError;

/// The number of levels.
pub(super) const LEVELS: usize = 7;

/// The multipliers of the levels, for `pairs` pairs and each level's largest value, or
/// `None` when the weights would pass [`MAX_WEIGHT`].
pub(super) fn multipliers(pairs: usize, max: &[Weight; LEVELS]) -> Option<[Weight; LEVELS]> {
    let pairs = Weight::try_from(pairs).ok()?;
    let mut mult: [Weight; LEVELS] = [1; LEVELS];
    for k in (0..LEVELS - 1).rev() {
        // Above everything level k + 1 and below can add over a matching.
        mult[k] = mult[k + 1].checked_mul(pairs.checked_mul(max[k + 1])?.checked_add(1)?)?;
    }
    let mut largest: Weight = 0;
    for k in 0..LEVELS {
        largest = largest.checked_add(mult[k].checked_mul(max[k])?)?;
    }
    (largest <= MAX_WEIGHT).then_some(mult)
}

/// The weight table of the matching of `players` (ranked, best first; an even number, the
/// bye already taken out): `table[i * n + j]` for players[i] and players[j], 0 where
/// absolute rules 1 or 2 forbid the pair.
pub(super) fn table(field: &Field, players: &[usize]) -> Result<Vec<Weight>, PairingError> {
    let n = players.len();
    let points = field.input.points;
    let place = places(players, points);
    let groups = place.last().map_or(0, |p| p.group + 1);
    let balance: Vec<Balance> = players
        .iter()
        .map(|&p| Balance::new(&field.record.sides[p]))
        .collect();
    let unit = unit(players.iter().map(|&p| points[p]));
    let too_large = || {
        PairingError::new(
            0,
            Vec::new(),
            format!("{n} players with these points are too many to weigh exactly"),
        )
    };
    let squared = |a: usize, b: usize| -> Option<Weight> {
        let d = (Weight::from(points[a]) - Weight::from(points[b])) / unit;
        d.checked_mul(d)
    };
    // Ranked by points, so the first and the last are the furthest apart.
    let d_max = match (players.first(), players.last()) {
        (Some(&a), Some(&b)) => squared(a, b).ok_or_else(too_large)?,
        _ => 0,
    };
    let nn = n as Weight;
    let (colour_breaks, colour_dues) = if field.input.balance_first_move {
        (4, 2)
    } else {
        (0, 0)
    };
    let max = [1, d_max, colour_breaks, colour_dues, 2, 2 * nn, 2 * nn * nn];
    let mult = multipliers(n / 2, &max).ok_or_else(too_large)?;

    let mut table = vec![0; n * n];
    for i in 0..n {
        for j in i + 1..n {
            let (a, b) = (players[i], players[j]);
            if !field.may_meet(a, b, 1) {
                continue;
            }
            // i < j: a is ranked higher, so has at least b's points.
            let (pa, pb) = (&place[i], &place[j]);
            let (breaks, dues) = if field.input.balance_first_move {
                colours::measure(&balance[i], &balance[j])
            } else {
                (0, 0)
            };
            let value = [
                1,
                d_max - squared(a, b).ok_or_else(too_large)?,
                colour_breaks - Weight::from(breaks),
                Weight::from(dues),
                2 - repeated_floats(field, a, b),
                2 * nn - order(pa, pb),
                2 * nn * nn - float_tie_break(pa, pb, groups, n),
            ];
            let mut w: Weight = 0;
            for k in 0..LEVELS {
                debug_assert!((0..=max[k]).contains(&value[k]), "level {k}");
                // Cannot overflow: `multipliers` bounded Σ mult · max.
                w += mult[k] * value[k];
            }
            table[i * n + j] = w;
        }
    }
    Ok(table)
}

/// The gcd of the differences between `points` (1 when they are all equal): dividing
/// every difference by it scales all squared sums alike.
fn unit(points: impl Iterator<Item = i64>) -> Weight {
    let points: Vec<Weight> = points.map(Weight::from).collect();
    let low = points.iter().copied().min().unwrap_or(0);
    let g = points.iter().fold(0, |g, &p| gcd(g, p - low));
    g.max(1)
}

fn gcd(mut a: Weight, mut b: Weight) -> Weight {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.abs()
}

/// Level 5: how many of `a` (higher-ranked) and `b` would float in the same direction as
/// they did last round.
fn repeated_floats(field: &Field, a: usize, b: usize) -> Weight {
    let points = field.input.points;
    let now_a = float(points[a], points[b]);
    let now_b = float(points[b], points[a]);
    let last = &field.record.last_float;
    let repeat = |now: Option<Float>, before: Option<Float>| now.is_some() && now == before;
    Weight::from(u8::from(repeat(now_a, last[a])) + u8::from(repeat(now_b, last[b])))
}

/// Level 6: how far a pair inside one score group is from top half against bottom half in
/// order (0 to 2m); 0 for a pair across groups, which level 7 orders.
fn order(high: &Place, low: &Place) -> Weight {
    if high.group != low.group {
        return 0;
    }
    let (i, j, m) = (
        high.index as Weight,
        low.index as Weight,
        high.size as Weight,
    );
    let h = m / 2;
    let halves = if i < h && j >= h { 0 } else { m };
    halves + (j - i - h).abs()
}

/// Level 7: our tie-break between floats (0 to 2n²); 0 for a pair inside a group.
fn float_tie_break(high: &Place, low: &Place, groups: usize, n: usize) -> Weight {
    if high.group == low.group {
        return 0;
    }
    let height = (groups - 1 - high.group) as Weight;
    let spread = (high.size - 1 - high.index + low.index) as Weight;
    height * n as Weight + spread * spread
}
