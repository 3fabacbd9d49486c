//! How strong is the first mover of Mweiso's main phase? From the start, plays every pair
//! of opening turns (either player first: 40 pairs) and searches the position after them
//! for the player who moves first in the main phase, counting proven wins (score 1).
//! docs/bots.md, "Mweiso with the corrected opening", reports its figures:
//!
//! ```sh
//! cargo run --release -p omweso-search --example mweiso_first_mover -- 2000000
//! ```
//!
//! The argument is the node budget of each search (default 200,000, level 7's).

use std::sync::atomic::AtomicBool;

use omweso_rules::{Game, Preset, Ruleset, Side};
use omweso_search::{best_move, Limit, Query};

const BUDGET: Option<u64> = Some(720);

fn main() {
    let nodes: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(200_000);
    let stop = AtomicBool::new(false);
    let start = Game::start(Ruleset::Mweiso, Preset::Even, Side::South);
    let (mut positions, mut proven, mut immediate, mut total) = (0, 0, 0, 0.0);
    for first in Side::ALL {
        for opening in start.legal_moves(first, BUDGET) {
            let Ok(one) = start.play_as(first, &opening, BUDGET) else {
                continue;
            };
            for reply in one.game.legal_moves(first.other(), BUDGET) {
                let Ok(two) = one.game.play_as(first.other(), &reply, BUDGET) else {
                    continue;
                };
                let after = two.game;
                let wins_at_once = after
                    .legal_moves(first, BUDGET)
                    .iter()
                    .filter(|mv| {
                        after
                            .play_as(first, mv, BUDGET)
                            .is_ok_and(|r| r.outcome.and_then(|o| o.winner()) == Some(first))
                    })
                    .count();
                let query = Query {
                    game: after,
                    side: first,
                    max_seeds: BUDGET,
                    limit: Limit::Nodes(nodes),
                    seed: 1,
                };
                let Ok(found) = best_move(&query, &stop) else {
                    continue;
                };
                positions += 1;
                total += found.score;
                proven += usize::from(found.score == 1.0);
                immediate += usize::from(wins_at_once > 0);
                println!(
                    "{} {opening} {reply}: {} moves at once, best {} score {:.3} depth {}",
                    first.name(),
                    wins_at_once,
                    found.mv,
                    found.score,
                    found.depth
                );
            }
        }
    }
    println!(
        "{positions} positions after the opening: the first mover wins at once in \
         {immediate}, has a proven win in {proven}; mean score {:.3} ({nodes} nodes)",
        total / f64::from(positions.max(1))
    );
}
