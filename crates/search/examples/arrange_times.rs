//! How long each level takes to arrange Omweso's free setup, first and second, on one
//! core: for 20 seeds, the first arrangement of the level, then its own reply to it, with
//! the scores each gave its arrangement (hundredths of a seed, for the arranger).
//! docs/bots.md, "How the computer arranges", reports its figures:
//!
//! ```sh
//! cargo run --release -p omweso-search --example arrange_times
//! ```

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use omweso_rules::Rules;
use omweso_search::{arrange, ArrangeQuery, Level};

const SEEDS: u64 = 20;

fn main() {
    let stop = AtomicBool::new(false);
    println!("level | first: mean ms, max ms, candidates, nodes, scores | second: the same");
    for level in Level::ALL {
        let mut first = Tally::default();
        let mut second = Tally::default();
        for seed in 0..SEEDS {
            let query = |shown| ArrangeQuery {
                rules: Rules::OMWESO,
                shown,
                max_seeds: Some(720),
                level,
                seed,
            };
            let started = Instant::now();
            let arranged = arrange(&query(None), &stop);
            first.add(started, arranged);
            let started = Instant::now();
            let replied = arrange(&query(Some(arranged.arrangement)), &stop);
            second.add(started, replied);
        }
        println!("L{level} | {} | {}", first.line(), second.line());
    }
}

#[derive(Default)]
struct Tally {
    millis: Vec<f64>,
    candidates: u64,
    nodes: u64,
    scores: Vec<i32>,
}

impl Tally {
    fn add(&mut self, started: Instant, arranged: omweso_search::Arranged) {
        self.millis.push(started.elapsed().as_secs_f64() * 1e3);
        self.candidates += u64::from(arranged.candidates);
        self.nodes += arranged.nodes;
        self.scores.push(arranged.score);
    }

    fn line(&self) -> String {
        let n = self.millis.len() as f64;
        let max = self.millis.iter().copied().fold(0.0, f64::max);
        let mut scores = self.scores.clone();
        scores.sort_unstable();
        format!(
            "{:.1}, {:.1}, {:.0}, {:.0}, score median {} (min {}, max {})",
            self.millis.iter().sum::<f64>() / n,
            max,
            self.candidates as f64 / n,
            self.nodes as f64 / n,
            scores[scores.len() / 2],
            scores[0],
            scores[scores.len() - 1]
        )
    }
}
