//! Tests of the pairing: cases worked out by hand (`hand`), manual pairings (`manual`),
//! properties of random tournaments (`props`), the optimum against an exhaustive search
//! (`exhaustive`), the range of the weights (`range`), and the time of a large round
//! (`timing`, ignored: run it in release mode).

mod exhaustive;
mod hand;
mod manual;
mod props;
mod range;
mod timing;

use std::collections::HashMap;

use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use super::{check, swiss, Pairing, PastRound, SwissInput};
use crate::standings::Milli;

/// The points of a game, (first, second).
pub(super) const FIRST_WINS: (Milli, Milli) = (1000, 0);
pub(super) const SECOND_WINS: (Milli, Milli) = (0, 1000);
pub(super) const DRAW: (Milli, Milli) = (500, 500);

/// A tournament's state, owned, from which a [`SwissInput`] is borrowed.
#[derive(Clone, Debug)]
pub(super) struct State {
    pub(super) names: Vec<String>,
    pub(super) points: Vec<Milli>,
    pub(super) active: Vec<bool>,
    pub(super) forbidden: Vec<(usize, usize)>,
    pub(super) balance: bool,
    pub(super) history: Vec<PastRound>,
}

impl State {
    /// `n` players named P0, P1..., no points, all active, first-move balance on.
    pub(super) fn new(n: usize) -> State {
        let names: Vec<String> = (0..n).map(|i| format!("P{i}")).collect();
        State::named(&names.iter().map(String::as_str).collect::<Vec<_>>())
    }

    pub(super) fn named(names: &[&str]) -> State {
        let n = names.len();
        State {
            names: names.iter().map(|s| s.to_string()).collect(),
            points: vec![0; n],
            active: vec![true; n],
            forbidden: Vec::new(),
            balance: true,
            history: Vec::new(),
        }
    }

    pub(super) fn input(&self) -> SwissInput<'_> {
        SwissInput {
            names: &self.names,
            points: &self.points,
            active: &self.active,
            forbidden: &self.forbidden,
            balance_first_move: self.balance,
            history: &self.history,
        }
    }

    /// Records a round played at `tables`: `score(t)` gives the points of table t's
    /// players, (first, second); a bye scores 1.
    pub(super) fn play(
        &mut self,
        tables: &[Pairing],
        mut score: impl FnMut(usize) -> (Milli, Milli),
    ) {
        let before = self.points.clone();
        for (t, table) in tables.iter().enumerate() {
            match table.second {
                None => self.points[table.first] += 1000,
                Some(second) => {
                    let (a, b) = score(t);
                    self.points[table.first] += a;
                    self.points[second] += b;
                }
            }
        }
        self.history.push(PastRound {
            pairs: tables.to_vec(),
            points_before: before,
        });
    }
}

/// Tables as (first, second), to compare with hand-written ones.
pub(super) fn seats(tables: &[Pairing]) -> Vec<(usize, Option<usize>)> {
    tables.iter().map(|t| (t.first, t.second)).collect()
}

/// A table: `first` moves first against `second`.
pub(super) fn game(first: usize, second: usize) -> Pairing {
    Pairing {
        first,
        second: Some(second),
    }
}

pub(super) fn bye(player: usize) -> Pairing {
    Pairing {
        first: player,
        second: None,
    }
}

/// Random results: a win either way or a draw.
pub(super) fn random_score(rng: &mut SmallRng) -> (Milli, Milli) {
    match rng.random_range(0..5) {
        0 | 1 => FIRST_WINS,
        2 | 3 => SECOND_WINS,
        _ => DRAW,
    }
}

/// A random tournament of `n` players after `rounds` rounds: some join late, some
/// withdraw, some miss a round; some rounds are paired by [`swiss`], others at random
/// (which may pair players twice or give two byes: the history is what it is); a few
/// forbidden pairs. Deterministic in `seed`.
pub(super) fn random_state(n: usize, rounds: usize, seed: u64) -> State {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut state = State::new(n);
    state.balance = rng.random_bool(0.8);
    let joins: Vec<usize> = (0..n)
        .map(|_| {
            if rng.random_bool(0.15) {
                rng.random_range(0..=rounds)
            } else {
                0
            }
        })
        .collect();
    let withdraws: Vec<Option<usize>> = (0..n)
        .map(|_| rng.random_bool(0.1).then(|| rng.random_range(0..=rounds)))
        .collect();
    for _ in 0..rng.random_range(0..=n / 4) {
        let a = rng.random_range(0..n);
        let b = rng.random_range(0..n);
        state.forbidden.push((a, b));
    }
    for r in 0..rounds {
        for p in 0..n {
            let missing = rng.random_bool(0.05);
            state.active[p] = joins[p] <= r && withdraws[p].is_none_or(|w| w > r) && !missing;
        }
        let tables = if rng.random_bool(0.7) {
            swiss(&state.input()).ok()
        } else {
            None
        };
        let tables = tables.unwrap_or_else(|| {
            let mut players: Vec<usize> = (0..n).filter(|&p| state.active[p]).collect();
            players.shuffle(&mut rng);
            let mut tables: Vec<Pairing> = players
                .chunks(2)
                .map(|c| Pairing {
                    first: c[0],
                    second: c.get(1).copied(),
                })
                .collect();
            // Now and then a second bye.
            if tables.len() > 1 && rng.random_bool(0.1) {
                if let Some(t) = tables.pop() {
                    tables.push(bye(t.first));
                    if let Some(s) = t.second {
                        tables.push(bye(s));
                    }
                }
            }
            tables
        });
        state.play(&tables, |_| random_score(&mut rng));
    }
    for p in 0..n {
        state.active[p] = joins[p] <= rounds && withdraws[p].is_none_or(|w| w > rounds);
    }
    state
}

/// Checks, without the module's code, that `tables` keep the absolute rules for `state`
/// and pair every active player exactly once (one bye at most, and only for an odd
/// number).
pub(super) fn assert_keeps_rules(state: &State, tables: &[Pairing]) {
    let n = state.names.len();
    let mut met: HashMap<(usize, usize), usize> = HashMap::new();
    let mut byes = vec![0; n];
    for round in &state.history {
        for t in &round.pairs {
            match t.second {
                Some(s) => *met.entry((t.first.min(s), t.first.max(s))).or_default() += 1,
                None => byes[t.first] += 1,
            }
        }
    }
    let mut seen = vec![0; n];
    let mut round_byes = Vec::new();
    for t in tables {
        seen[t.first] += 1;
        match t.second {
            Some(s) => {
                seen[s] += 1;
                let pair = (t.first.min(s), t.first.max(s));
                assert!(!met.contains_key(&pair), "rule 1: {pair:?} met before");
                assert!(
                    !state
                        .forbidden
                        .iter()
                        .any(|&(a, b)| (a.min(b), a.max(b)) == pair),
                    "rule 2: {pair:?} is forbidden"
                );
            }
            None => round_byes.push(t.first),
        }
    }
    for (p, (&times, &active)) in seen.iter().zip(&state.active).enumerate() {
        assert_eq!(
            times,
            usize::from(active),
            "player {p} (active {active}) at {times} tables"
        );
    }
    let active = state.active.iter().filter(|&&a| a).count();
    assert_eq!(
        round_byes.len(),
        active % 2,
        "byes {round_byes:?} for {active} players"
    );
    for &p in &round_byes {
        assert_eq!(byes[p], 0, "rule 3: player {p} had a bye already");
    }
    let breaches = check(&state.input(), tables, 1);
    assert!(breaches.is_empty(), "check: {breaches:?}");
}
