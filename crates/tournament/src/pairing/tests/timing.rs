//! How long a large round takes. Ignored (a time, not a property); run it in release:
//! `cargo test --release -p omweso-tournament --lib pairing::tests::timing -- --ignored
//! --nocapture`.

use std::time::{Duration, Instant};

use super::*;

/// Round 5 of 200 players (rounds 1 to 4 paired by `swiss`, random results, a few
/// forbidden pairs and withdrawals), paired 5 times.
#[test]
#[ignore = "a timing: run in release with --ignored --nocapture"]
fn round_5_of_200_players() {
    let mut rng = SmallRng::seed_from_u64(200);
    let mut state = State::new(200);
    for _ in 0..10 {
        state
            .forbidden
            .push((rng.random_range(0..200), rng.random_range(0..200)));
    }
    for round in 0..4 {
        if round == 2 {
            for p in [17, 90, 151] {
                state.active[p] = false;
            }
        }
        let tables = swiss(&state.input()).expect("rounds 1 to 4 pair");
        state.play(&tables, |_| random_score(&mut rng));
    }
    let mut times = Vec::new();
    let mut tables = Vec::new();
    for _ in 0..5 {
        let start = Instant::now();
        tables = swiss(&state.input()).expect("round 5 pairs");
        times.push(start.elapsed());
    }
    assert_keeps_rules(&state, &tables);
    let ms = |d: &Duration| format!("{:.1}", d.as_secs_f64() * 1000.0);
    println!(
        "round 5 of 200 players: {} ms",
        times.iter().map(ms).collect::<Vec<_>>().join(", ")
    );
}
