//! Properties of random tournaments (`random_state`): 4 to 60 players, up to 8 rounds
//! played, late joins, withdrawals, missed rounds, forbidden pairs, random histories.

use proptest::prelude::*;

use super::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 192, ..ProptestConfig::default() })]

    /// What `swiss` returns keeps the absolute rules (by `check` and by
    /// `assert_keeps_rules`, which shares no code with the module) and seats every active
    /// player once; an error names a rule of 1 to 3 and players who are active.
    #[test]
    fn pairings_keep_the_absolute_rules(n in 4usize..=60, rounds in 0usize..=8, seed: u64) {
        let state = random_state(n, rounds.min(n / 2), seed);
        match swiss(&state.input()) {
            Ok(tables) => assert_keeps_rules(&state, &tables),
            Err(e) => {
                prop_assert!((1..=3).contains(&e.rule), "{e}");
                prop_assert!(!e.players.is_empty(), "{e}");
                prop_assert!(e.players.iter().all(|&p| state.active[p]), "{e}");
            }
        }
    }

    /// The same input gives the same pairing: twice in a row, after pairing another field
    /// (the solver reuses its buffers), and with the forbidden pairs listed in another
    /// order or the other way round.
    #[test]
    fn pairing_is_deterministic(n in 4usize..=60, rounds in 0usize..=6, seed: u64) {
        let state = random_state(n, rounds.min(n / 2), seed);
        let once = swiss(&state.input());
        prop_assert_eq!(&once, &swiss(&state.input()));
        let other = random_state(61, 2, seed ^ 1);
        let _ = swiss(&other.input());
        prop_assert_eq!(&once, &swiss(&state.input()));
        let mut reordered = state.clone();
        reordered.forbidden.reverse();
        for pair in &mut reordered.forbidden {
            *pair = (pair.1, pair.0);
        }
        prop_assert_eq!(&once, &swiss(&reordered.input()));
    }
}

proptest! {
    /// `check` on a random hand-made pairing of the active players finds exactly the
    /// pairs that met before (rule 1) and the forbidden ones (rule 2), by a count that
    /// shares no code with it.
    #[test]
    fn check_finds_the_repeated_and_forbidden_pairs(n in 2usize..=30, rounds in 0usize..=5, seed: u64) {
        let state = random_state(n, rounds, seed);
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut players: Vec<usize> = (0..n).filter(|&p| state.active[p]).collect();
        players.shuffle(&mut rng);
        let tables: Vec<Pairing> = players
            .chunks(2)
            .map(|c| Pairing { first: c[0], second: c.get(1).copied() })
            .collect();
        let key = |a: usize, b: usize| (a.min(b), a.max(b));
        let mut expected = Vec::new();
        for t in &tables {
            let Some(s) = t.second else { continue };
            let met = state.history.iter().any(|r| {
                r.pairs.iter().any(|q| q.second.is_some_and(|qs| key(q.first, qs) == key(t.first, s)))
            });
            if met {
                expected.push((1, vec![t.first, s]));
            }
            if state.forbidden.iter().any(|&(a, b)| key(a, b) == key(t.first, s)) {
                expected.push((2, vec![t.first, s]));
            }
        }
        let got: Vec<(u8, Vec<usize>)> = check(&state.input(), &tables, 1)
            .into_iter()
            .filter(|b| b.rule == 1 || b.rule == 2)
            .map(|b| (b.rule, b.players))
            .collect();
        prop_assert_eq!(got, expected);
    }
}

/// Most random fields can be paired: the properties above are about pairings, not only
/// errors.
#[test]
fn random_fields_mostly_pair() {
    let paired = (0..40u64)
        .filter(|&seed| {
            let n = 4 + (seed as usize * 7) % 57;
            swiss(&random_state(n, (seed as usize % 6).min(n / 2), seed).input()).is_ok()
        })
        .count();
    assert!(paired >= 30, "only {paired} of 40 paired");
}
