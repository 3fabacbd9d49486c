//! `omweso bench`: random playouts per second on one core, one line per ruleset.

use std::time::{Duration, Instant};

use omweso_rules::{Game, Preset, Ruleset, Side};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use omweso_rules::playout::Playouts;

/// Totals of a timed run of playouts.
#[derive(Clone, Copy, Debug)]
pub struct BenchResult {
    pub ruleset: Ruleset,
    pub playouts: u64,
    pub plies: u64,
    pub capped: u64,
    pub elapsed: Duration,
}

impl BenchResult {
    #[must_use]
    pub fn playouts_per_second(&self) -> f64 {
        self.playouts as f64 / self.elapsed.as_secs_f64()
    }
}

/// Plays random games of `ruleset` for about `duration` (at least one game), on this
/// thread, from a fixed seed so runs are comparable. Every game starts from the ruleset's
/// standard start (Omweso's `outer` preset), South first, as the divan benches do.
#[must_use]
pub fn run(ruleset: Ruleset, duration: Duration, seed: u64) -> BenchResult {
    let from = Game::start(ruleset, Preset::Outer, Side::South);
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut playouts = Playouts::default();
    let start = Instant::now();
    let mut result = BenchResult {
        ruleset,
        playouts: 0,
        plies: 0,
        capped: 0,
        elapsed: Duration::ZERO,
    };
    loop {
        let game = playouts.play_game(from, &mut |n| rng.random_range(0..n));
        result.playouts += 1;
        result.plies += u64::from(game.plies);
        result.capped += u64::from(game.capped);
        // Checking the clock every game is cheap next to a game (tens of microseconds).
        result.elapsed = start.elapsed();
        if result.elapsed >= duration {
            return result;
        }
    }
}
