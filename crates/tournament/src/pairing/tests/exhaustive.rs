//! Fields of up to 10 players against an exhaustive search: every complete pairing that
//! keeps the absolute rules is enumerated.

use std::collections::HashSet;

use super::*;
use crate::pairing::field::Field;
use crate::pairing::matching::Weight;
use crate::pairing::weights;

/// Every perfect matching of `players` made of pairs `allowed`.
fn perfect_matchings(
    players: &[usize],
    allowed: &dyn Fn(usize, usize) -> bool,
) -> Vec<Vec<(usize, usize)>> {
    let Some((&first, rest)) = players.split_first() else {
        return vec![Vec::new()];
    };
    let mut all = Vec::new();
    for (k, &partner) in rest.iter().enumerate() {
        if !allowed(first, partner) {
            continue;
        }
        let others: Vec<usize> = rest
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != k)
            .map(|(_, &p)| p)
            .collect();
        for mut m in perfect_matchings(&others, allowed) {
            m.push((first, partner));
            all.push(m);
        }
    }
    all
}

/// The most pairs any matching of `players` under `allowed` has.
fn most_pairs(players: &[usize], allowed: &dyn Fn(usize, usize) -> bool) -> usize {
    let Some((&first, rest)) = players.split_first() else {
        return 0;
    };
    // `first` unpaired, or paired with each allowed partner in turn.
    let mut best = most_pairs(rest, allowed);
    for (k, &partner) in rest.iter().enumerate() {
        if allowed(first, partner) {
            let others: Vec<usize> = rest
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != k)
                .map(|(_, &p)| p)
                .collect();
            best = best.max(1 + most_pairs(&others, allowed));
        }
    }
    best
}

fn squared(points: &[Milli], pairs: &[(usize, usize)]) -> i128 {
    pairs
        .iter()
        .map(|&(a, b)| {
            let d = i128::from(points[a] - points[b]);
            d * d
        })
        .sum()
}

/// The optimum by the exhaustive search, then `swiss`: the same bye (rule 3's player),
/// as many pairs, the same least sum of squared differences; and the matching's total
/// weight is the greatest any complete pairing has, so criteria 3 to 7 are optimal too.
fn compare(state: &State) {
    let n = state.names.len();
    let mut met = HashSet::new();
    let mut had_bye = vec![false; n];
    for round in &state.history {
        for t in &round.pairs {
            match t.second {
                Some(s) => {
                    met.insert((t.first.min(s), t.first.max(s)));
                }
                None => had_bye[t.first] = true,
            }
        }
    }
    let forbidden: HashSet<(usize, usize)> = state
        .forbidden
        .iter()
        .map(|&(a, b)| (a.min(b), a.max(b)))
        .collect();
    let allowed = |a: usize, b: usize| {
        let pair = (a.min(b), a.max(b));
        a != b && !met.contains(&pair) && !forbidden.contains(&pair)
    };
    let mut ranked: Vec<usize> = (0..n).filter(|&p| state.active[p]).collect();
    ranked.sort_by_key(|&p| (std::cmp::Reverse(state.points[p]), p));

    // Rule 3: the lowest-ranked without a bye for whom the others can all be paired.
    let (bye, matchings) = if ranked.len() % 2 == 0 {
        (None, perfect_matchings(&ranked, &allowed))
    } else {
        ranked
            .iter()
            .rev()
            .filter(|&&p| !had_bye[p])
            .find_map(|&p| {
                let rest: Vec<usize> = ranked.iter().copied().filter(|&q| q != p).collect();
                let m = perfect_matchings(&rest, &allowed);
                (!m.is_empty()).then_some((Some(p), m))
            })
            .unwrap_or((None, Vec::new()))
    };
    let result = swiss(&state.input());
    if matchings.is_empty() {
        assert!(
            result.is_err(),
            "{state:?}: no complete pairing, yet {result:?}"
        );
        return;
    }
    let tables = result.unwrap_or_else(|e| panic!("{state:?}: {e}"));
    assert_keeps_rules(state, &tables);
    let pairs: Vec<(usize, usize)> = tables
        .iter()
        .filter_map(|t| t.second.map(|s| (t.first, s)))
        .collect();
    let got_bye = tables.iter().find(|t| t.second.is_none()).map(|t| t.first);
    assert_eq!(got_bye, bye, "{state:?}");
    assert_eq!(pairs.len(), most_pairs(&ranked, &allowed), "{state:?}");
    let best = matchings
        .iter()
        .map(|m| squared(&state.points, m))
        .min()
        .unwrap_or(0);
    assert_eq!(squared(&state.points, &pairs), best, "{state:?}");

    // The weights: swiss's pairing has the greatest total of all complete pairings.
    let input = state.input();
    let field = Field::new(&input).expect("a consistent input");
    let players: Vec<usize> = ranked.iter().copied().filter(|&p| Some(p) != bye).collect();
    let table = weights::table(&field, &players).expect("weights");
    let at = |p: usize| players.iter().position(|&q| q == p).expect("a player");
    let total = |m: &[(usize, usize)]| -> Weight {
        m.iter()
            .map(|&(a, b)| {
                let (i, j) = (at(a).min(at(b)), at(a).max(at(b)));
                table[i * players.len() + j]
            })
            .sum()
    };
    let greatest = matchings.iter().map(|m| total(m)).max().unwrap_or(0);
    assert_eq!(total(&pairs), greatest, "{state:?}");
}

#[test]
fn small_fields_get_the_exhaustive_optimum() {
    for seed in 0..400u64 {
        let n = 2 + (seed as usize) % 9;
        let rounds = (seed as usize / 9) % 5;
        compare(&random_state(n, rounds.min(n.saturating_sub(1)), seed));
    }
}

/// Fields where many pairings tie on points: all players equal, or two groups.
#[test]
fn small_fields_with_ties_get_the_exhaustive_optimum() {
    for n in 2..=10 {
        let mut state = State::new(n);
        compare(&state);
        for p in 0..n / 2 {
            state.points[p] = 1000;
        }
        compare(&state);
        state.forbidden = vec![(0, n - 1), (1, n / 2)];
        compare(&state);
    }
}
