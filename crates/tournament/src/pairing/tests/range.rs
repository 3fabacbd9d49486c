//! The weights stay exact: no overflow for large fields, a refusal beyond.

use super::*;
use crate::pairing::field::Field;
use crate::pairing::matching::MAX_WEIGHT;
use crate::pairing::weights::{self, multipliers, LEVELS};

/// 500 players whose points spread over 500 points in thousandths that share no common
/// unit (from 500 000 down in steps of 1 002, one off by a thousandth, the last 0): the
/// weights fit, exactly.
#[test]
fn no_overflow_for_500_players() {
    let mut state = State::new(500);
    for p in 0..500 {
        state.points[p] = 500_000 - (p as Milli) * 1_002;
    }
    state.points[499] = 0;
    state.points[7] += 1;
    let input = state.input();
    let field = Field::new(&input).expect("consistent");
    let players = field.ranking.clone();
    let table = weights::table(&field, &players).expect("fits");
    let largest = table.iter().copied().max().unwrap_or(0);
    assert!(largest > 0 && largest <= MAX_WEIGHT);
}

/// The bound the module documents: levels 3 to 7 for 500 players leave level 2 about
/// 3.3e11; three times that is refused.
#[test]
fn the_multipliers_refuse_what_would_not_fit() {
    let n = 500;
    let nn = n as i128;
    let max = |d: i128| -> [i128; LEVELS] { [1, d, 4, 2, 2, 2 * nn, 2 * nn * nn] };
    assert!(multipliers(n / 2, &max(330_000_000_000)).is_some());
    assert!(multipliers(n / 2, &max(1_000_000_000_000)).is_none());
    assert!(multipliers(usize::MAX, &max(1)).is_none());
}

/// A field beyond the bound gets an error (rule 0), not a wrong pairing.
#[test]
fn points_too_far_apart_are_refused() {
    let mut state = State::new(4);
    state.points = vec![i64::MAX / 2, 1, 0, i64::MIN / 2];
    let e = swiss(&state.input()).expect_err("too large");
    assert_eq!(e.rule, 0, "{e}");
}
