//! Engine benchmarks (divan). Run: `cargo bench -p omweso-rules --bench engine`.
//! Figures and the machine they were taken on: docs/performance.md.

use divan::counter::ItemsCount;
use divan::{black_box, Bencher};
use omweso_rules::oware;
use omweso_rules::playout::{Playouts, BUDGET};
use omweso_rules::{Position, Ruleset, Side};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn main() {
    divan::main();
}

/// One random game from the standard start, as `omweso bench` plays them.
#[divan::bench(args = [Ruleset::Omweso, Ruleset::Mweiso, Ruleset::Oware])]
fn random_playout(bencher: Bencher, ruleset: Ruleset) {
    let mut rng = SmallRng::seed_from_u64(1);
    let mut playouts = Playouts::default();
    bencher.bench_local(|| playouts.play(ruleset, &mut |n| rng.random_range(0..n)));
}

/// Positions met in random games: every ply of games played until there are `count`.
fn board_positions(ruleset: Ruleset, count: usize) -> Vec<(Position, Side)> {
    let rules = omweso_rules::Rules::for_ruleset(ruleset).expect("a 4x8 ruleset");
    let mut rng = SmallRng::seed_from_u64(7);
    let mut found = Vec::new();
    while found.len() < count {
        let mut pos = Position::start(rules, omweso_rules::Preset::Outer, Side::South);
        loop {
            let side = pos
                .to_move()
                .single()
                .unwrap_or(Side::ALL[rng.random_range(0..2)]);
            let moves = pos.legal_moves(side, Some(BUDGET));
            if moves.is_empty() || found.len() >= count {
                break;
            }
            found.push((pos, side));
            let result = pos.play_unchecked(&moves[rng.random_range(0..moves.len())], Some(BUDGET));
            if result.outcome.is_some() {
                break;
            }
            pos = result.position;
        }
    }
    found
}

fn oware_positions(count: usize) -> Vec<oware::Position> {
    let mut rng = SmallRng::seed_from_u64(7);
    let mut found = Vec::new();
    while found.len() < count {
        let mut pos = oware::Position::start(Side::South);
        for _ in 0..300 {
            let moves = pos.legal_moves();
            if moves.is_empty() || found.len() >= count {
                break;
            }
            found.push(pos);
            let result = pos
                .play(moves[rng.random_range(0..moves.len())], None)
                .expect("a legal move");
            if result.outcome.is_some() {
                break;
            }
            pos = result.position;
        }
    }
    found
}

/// Every legal whole move of 500 positions from random games, each with its result (the
/// position after it): the time per whole move, decision points included.
#[divan::bench(args = [Ruleset::Omweso, Ruleset::Mweiso, Ruleset::Oware])]
fn whole_move(bencher: Bencher, ruleset: Ruleset) {
    if ruleset == Ruleset::Oware {
        let positions = oware_positions(500);
        let total: usize = positions.iter().map(|p| p.legal_moves().len()).sum();
        bencher.counter(ItemsCount::new(total)).bench_local(|| {
            for pos in &positions {
                pos.for_each_move(None, |house, result| {
                    black_box((house, result));
                });
            }
        });
        return;
    }
    let positions = board_positions(ruleset, 500);
    let total: usize = positions
        .iter()
        .map(|(p, side)| p.legal_moves(*side, Some(BUDGET)).len())
        .sum();
    bencher.counter(ItemsCount::new(total)).bench_local(|| {
        for (pos, side) in &positions {
            pos.for_each_move(*side, Some(BUDGET), |mv, result| {
                black_box((mv, result));
            });
        }
    });
}

/// docs/rules.md#14-never-ending-turns's position: E1 repeats its first state after 203,882,464 laps. Without a
/// budget the engine must still answer `never-ending`.
#[divan::bench(sample_count = 3, sample_size = 1)]
fn never_ending_long_cycle(bencher: Bencher) {
    let pos: Position = "1,2,0,0,0,2,0,1/0,0,0,0,0,0,0,0/12,0,1,8,1,6,1,2/0,6,0,8,3,7,2,1 s"
        .parse()
        .expect("a valid position");
    let mv = "E1".parse().expect("a move");
    bencher.bench_local(|| {
        let result = pos.play(&mv, None).expect("a legal move");
        assert_eq!(result.summary.laps, 203_882_464);
        result
    });
}

/// The same position under the server's budget (720 seeds): the answer in microseconds.
#[divan::bench]
fn never_ending_long_cycle_budgeted(bencher: Bencher) {
    let pos: Position = "1,2,0,0,0,2,0,1/0,0,0,0,0,0,0,0/12,0,1,8,1,6,1,2/0,6,0,8,3,7,2,1 s"
        .parse()
        .expect("a valid position");
    let mv = "E1".parse().expect("a move");
    bencher.bench_local(|| pos.play(black_box(&mv), Some(BUDGET)));
}
