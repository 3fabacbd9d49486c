//! `omweso arena`: two players (levels, node or time budgets, Monte Carlo tree search, or
//! random moves) play each other over many games from a preset start or Omweso's free
//! setup, on the machine's cores, and the score is reported with the Elo difference and its 95%
//! interval (docs/bots.md).
//!
//! - Game `i` is played with the seed `mix(seed + i)`; player A sits South and moves first
//!   in the even games, North moves first in the odd ones (so each player moves first in
//!   half of them). In Mweiso's simultaneous opening "first" is who plays their opening
//!   turn first. With reproducible players (levels, node budgets, random) the same
//!   command gives the same results, however many threads.
//! - The first `--random-moves` whole moves (default 2, one each) are uniformly random:
//!   players that search deterministically would otherwise play the same few games over
//!   and over. The report counts the distinct games.
//! - A game longer than `--max-moves` whole moves is stopped and scored as a draw.
//! - Annulled games (a never-ending turn, or one past `--max-seeds`) score 0.5 each, as
//!   in a tournament that does not replay them (docs/rules.md#52-points).
//! - `--preset free` (Omweso): each game starts with the players arranging their seeds
//!   (docs/rules.md#11-setup), the first mover first, the second seeing it. A player arranges as
//!   its level does (`omweso_search::arrange`), random play at random, and the other
//!   searching players as level 8; `--a-arrange` / `--b-arrange` (`random` or `L1`..`L8`)
//!   change that, e.g. level 8's play with random arrangements. Arrangements are drawn
//!   from the game's seed, so the runs stay reproducible.

use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use omweso_rules::{Game, Outcome, Preset, Rules, Ruleset, Side};
use omweso_search::duel::{play, play_free, Arranging, Played};
use omweso_search::{Player, SearchError};
use serde::Serialize;

/// The settings of `omweso arena`.
#[derive(Clone, Debug, clap::Args)]
pub struct ArenaConfig {
    /// Player A: L1..L8 (a level), nodes:N (a node budget), ms:N (a time budget in
    /// milliseconds), mcts:N (Monte Carlo tree search, N ms a move) or random.
    pub a: String,
    /// Player B, written as A.
    pub b: String,
    /// The ruleset: omweso, mweiso or oware.
    #[arg(long, default_value = "omweso")]
    pub ruleset: String,
    /// Omweso's starting arrangement: outer (4 seeds in each outer pit), even (2 in
    /// every pit) or free (each player arranges, the first mover first). Mweiso and Oware
    /// have one start each.
    #[arg(long, default_value = "outer")]
    pub preset: String,
    /// How A arranges a free setup: random or L1..L8 (default: as A's level; random play
    /// at random; any other player as level 8).
    #[arg(long)]
    pub a_arrange: Option<String>,
    /// How B arranges a free setup, written as --a-arrange.
    #[arg(long)]
    pub b_arrange: Option<String>,
    /// Games to play (A moves first in half of them).
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Games played at once (default: the machine's cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// A game still going after this many whole moves is stopped and scored as a draw.
    #[arg(long, default_value_t = 500)]
    pub max_moves: u32,
    /// The first this many whole moves of every game are uniformly random (both players'),
    /// so that games between players that search deterministically differ; 0 plays every
    /// move by the players. Default 2 from a preset, 0 from a free setup (the
    /// arrangements are the opening, and a random first move would throw away what the
    /// arrangement prepared).
    #[arg(long)]
    pub random_moves: Option<u32>,
    /// The sowing budget of every move (docs/rules.md#4-play-under-the-referee-server-rules): a turn past it annuls the game.
    #[arg(long, default_value_t = 720)]
    pub max_seeds: u64,
    /// The seed of the first game (game i uses a seed derived from seed + i).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Also print the result as one JSON line (the last line of the output).
    #[arg(long)]
    pub json: bool,
}

/// How the games start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start {
    Preset(Preset),
    /// Omweso's free setup, arranged by each player (A's way, B's way).
    Free([Arranging; 2]),
}

impl Start {
    /// Its name, as `--preset` writes it.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Start::Preset(Preset::Outer) => "outer",
            Start::Preset(Preset::Even) => "even",
            Start::Free(_) => "free",
        }
    }
}

/// A checked arena run.
#[derive(Clone, Copy, Debug)]
pub struct Arena {
    pub players: [Player; 2],
    pub ruleset: Ruleset,
    pub start: Start,
    pub games: usize,
    pub threads: usize,
    pub max_moves: u32,
    pub random_moves: u32,
    pub max_seeds: u64,
    pub seed: u64,
}

impl Arena {
    /// Checks the command line's settings.
    pub fn from_config(config: &ArenaConfig) -> Result<Arena, String> {
        let player = |text: &str| text.parse::<Player>().map_err(|e| e.to_string());
        let players = [player(&config.a)?, player(&config.b)?];
        let ruleset: Ruleset = config.ruleset.parse().map_err(|e| format!("{e}"))?;
        let arranging = |flag: &str, text: &Option<String>, player: Player| match text {
            None => Ok(Arranging::of(player)),
            Some(text) => text
                .parse::<Arranging>()
                .map_err(|e| format!("--{flag}-arrange: {e}")),
        };
        let start = match config.preset.as_str() {
            "outer" => Start::Preset(Preset::Outer),
            "even" => Start::Preset(Preset::Even),
            "free" => Start::Free([
                arranging("a", &config.a_arrange, players[0])?,
                arranging("b", &config.b_arrange, players[1])?,
            ]),
            other => return Err(format!("--preset is outer, even or free, not {other:?}")),
        };
        if start != Start::Preset(Preset::Outer) && ruleset != Ruleset::Omweso {
            return Err(format!(
                "--preset {} is an Omweso start; {ruleset} has one start",
                start.name()
            ));
        }
        if !matches!(start, Start::Free(_))
            && (config.a_arrange.is_some() || config.b_arrange.is_some())
        {
            return Err("--a-arrange and --b-arrange are for --preset free".into());
        }
        if config.games == 0 {
            return Err("--games must be at least 1".into());
        }
        if config.max_moves == 0 {
            return Err("--max-moves must be at least 1".into());
        }
        let threads = match config.threads {
            Some(0) => return Err("--threads must be at least 1".into()),
            Some(n) => n,
            None => std::thread::available_parallelism().map_or(1, usize::from),
        };
        Ok(Arena {
            players,
            ruleset,
            start,
            games: config.games,
            threads: threads.min(config.games),
            max_moves: config.max_moves,
            random_moves: config
                .random_moves
                .unwrap_or(if matches!(start, Start::Free(_)) {
                    0
                } else {
                    2
                }),
            max_seeds: config.max_seeds,
            seed: config.seed,
        })
    }

    /// The seats of game `i`: A is South; South moves first in the even games.
    fn first(i: usize) -> Side {
        if i % 2 == 0 {
            Side::South
        } else {
            Side::North
        }
    }

    /// Game `i` (its seat order `first`, its seed `seed`), played out.
    fn play(&self, first: Side, seed: u64) -> Result<Played, SearchError> {
        let budget = Some(self.max_seeds);
        match self.start {
            Start::Preset(preset) => play(
                Game::start(self.ruleset, preset, first),
                first,
                self.players,
                budget,
                self.max_moves,
                self.random_moves,
                seed,
            ),
            Start::Free(arranging) => play_free(
                Rules::OMWESO,
                first,
                arranging,
                self.players,
                budget,
                self.max_moves,
                self.random_moves,
                seed,
            ),
        }
    }
}

/// The results for player A.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Tally {
    pub games: usize,
    pub wins: usize,
    pub draws: usize,
    pub losses: usize,
    pub annulled: usize,
    /// Games stopped at the move cap (counted in `draws`).
    pub capped: usize,
    /// Games won by A moving first, and by B moving first.
    pub first_mover_wins: usize,
    pub plies: u64,
    /// Games that differ from every other in their moves.
    pub distinct: usize,
    /// Milliseconds A and B spent on their moves (random opening moves aside), and the
    /// moves.
    pub millis: [f64; 2],
    pub moves: [u64; 2],
    /// Milliseconds A and B spent arranging (a free setup; one arrangement a game each).
    pub arrange_millis: [f64; 2],
}

impl Tally {
    fn add(&mut self, played: &Played, a_moved_first: bool) {
        self.games += 1;
        self.plies += u64::from(played.plies);
        // A sits South (index 0).
        for seat in 0..2 {
            self.millis[seat] += played.thinking[seat].as_secs_f64() * 1e3;
            self.moves[seat] += u64::from(played.moves[seat]);
            self.arrange_millis[seat] += played.arranging[seat].as_secs_f64() * 1e3;
        }
        let a_side = Side::South;
        match played.outcome {
            None => {
                self.draws += 1;
                self.capped += 1;
            }
            Some(Outcome::Draw) => self.draws += 1,
            Some(Outcome::Annulled { .. }) => self.annulled += 1,
            Some(Outcome::Win { winner, .. }) => {
                if winner == a_side {
                    self.wins += 1;
                } else {
                    self.losses += 1;
                }
                let first = if a_moved_first {
                    a_side
                } else {
                    a_side.other()
                };
                if winner == first {
                    self.first_mover_wins += 1;
                }
            }
        }
    }

    /// A's points: a win 1, a draw or an annulled game 0.5 (docs/rules.md#52-points).
    #[must_use]
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * (self.draws + self.annulled) as f64
    }

    /// A's score, points per game.
    #[must_use]
    pub fn score(&self) -> f64 {
        self.points() / self.games as f64
    }

    /// The Elo difference of A over B, with its 95% interval (normal approximation of
    /// the mean score over games). A score of 0 or 1 is taken as half a game off it, so
    /// that a clean sweep reads as a finite lower bound.
    #[must_use]
    pub fn elo(&self) -> (f64, f64, f64) {
        let n = self.games as f64;
        let p = self.score();
        let halves = (self.draws + self.annulled) as f64;
        // Mean of the squared per-game scores: wins 1, halves 0.25.
        let square = (self.wins as f64 + 0.25 * halves) / n;
        let deviation = ((square - p * p).max(0.0) / n).sqrt();
        let lo = p - 1.96 * deviation;
        let hi = p + 1.96 * deviation;
        let edge = 0.5 / n;
        let elo = |p: f64| {
            let p = p.clamp(edge, 1.0 - edge);
            -400.0 * (1.0 / p - 1.0).log10()
        };
        (elo(p), elo(lo), elo(hi))
    }
}

/// What a run reports.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub a: String,
    pub b: String,
    pub ruleset: String,
    pub preset: Option<&'static str>,
    /// How A and B arranged (a free setup).
    pub arranging: Option<[String; 2]>,
    #[serde(flatten)]
    pub tally: Tally,
    pub score: f64,
    pub elo: f64,
    pub elo_low: f64,
    pub elo_high: f64,
    pub seconds: f64,
}

/// Plays the arena's games on its threads; `progress` is told of each finished game
/// (from the thread that played it) with the games finished so far.
pub fn run(arena: &Arena, progress: &(dyn Fn(usize) + Sync)) -> Result<Report, SearchError> {
    let started = Instant::now();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Result<Played, SearchError>>>> =
        Mutex::new(vec![None; arena.games]);
    std::thread::scope(|scope| {
        for _ in 0..arena.threads {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= arena.games {
                    return;
                }
                let first = Arena::first(i);
                let seed = arena.seed.wrapping_add(i as u64);
                let played = arena.play(first, seed);
                if let Ok(mut results) = results.lock() {
                    results[i] = Some(played);
                }
                progress(done.fetch_add(1, Ordering::Relaxed) + 1);
            });
        }
    });
    let mut tally = Tally::default();
    let results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut digests = std::collections::HashSet::new();
    for (i, result) in results.into_iter().enumerate() {
        // Every index below `games` was played by some thread.
        let Some(result) = result else { continue };
        let played = result?;
        digests.insert(played.digest);
        tally.add(&played, Arena::first(i) == Side::South);
    }
    tally.distinct = digests.len();
    let (elo, elo_low, elo_high) = tally.elo();
    Ok(Report {
        a: arena.players[0].to_string(),
        b: arena.players[1].to_string(),
        ruleset: arena.ruleset.to_string(),
        preset: (arena.ruleset == Ruleset::Omweso).then_some(arena.start.name()),
        arranging: match arena.start {
            Start::Free(arranging) => Some(arranging.map(|a| a.to_string())),
            Start::Preset(_) => None,
        },
        score: tally.score(),
        tally,
        elo,
        elo_low,
        elo_high,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// `omweso arena`: runs and prints the report.
pub fn main(config: &ArenaConfig) -> ExitCode {
    let arena = match Arena::from_config(config) {
        Ok(arena) => arena,
        Err(message) => {
            eprintln!("omweso arena: {message}");
            return ExitCode::FAILURE;
        }
    };
    let step = (arena.games / 10).max(1);
    let last = Mutex::new(Instant::now());
    let progress = |done: usize| {
        // A line every tenth of the games, at most one every 5 s, on stderr.
        if done % step == 0 && done < arena.games {
            if let Ok(mut last) = last.lock() {
                if last.elapsed() >= Duration::from_secs(5) {
                    *last = Instant::now();
                    eprintln!("{done}/{} games", arena.games);
                }
            }
        }
    };
    let report = match run(&arena, &progress) {
        Ok(report) => report,
        Err(e) => {
            eprintln!("omweso arena: a player found no move: {e}");
            return ExitCode::FAILURE;
        }
    };
    print_report(&arena, &report);
    if config.json {
        match serde_json::to_string(&report) {
            Ok(line) => println!("{line}"),
            Err(e) => {
                eprintln!("omweso arena: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
}

fn print_report(arena: &Arena, report: &Report) {
    let t = &report.tally;
    let start = report.preset.map_or(String::new(), |p| format!(" ({p})"));
    println!(
        "{}{start}: {} vs {}, {} games ({} distinct), {} threads, {} random moves first, {}-move cap, max_seeds {}, seed {}, {:.1} s",
        report.ruleset,
        report.a,
        report.b,
        t.games,
        t.distinct,
        arena.threads,
        arena.random_moves,
        arena.max_moves,
        arena.max_seeds,
        arena.seed,
        report.seconds
    );
    println!(
        "{} wins {}, draws {}, losses {}, annulled {} (capped games, counted as draws: {}); first mover won {}; {:.1} moves a game",
        report.a,
        t.wins,
        t.draws,
        t.losses,
        t.annulled,
        t.capped,
        t.first_mover_wins,
        t.plies as f64 / t.games as f64
    );
    let per_move = |seat: usize| t.millis[seat] / (t.moves[seat].max(1) as f64);
    println!(
        "{} {:.2} ms a move, {} {:.2} ms a move ({} threads at once)",
        report.a,
        per_move(0),
        report.b,
        per_move(1),
        arena.threads
    );
    println!(
        "score {:.4} ({:.1}/{}) for {}; Elo difference {:+.0} (95% interval {:+.0} to {:+.0})",
        report.score,
        t.points(),
        t.games,
        report.a,
        report.elo,
        report.elo_low,
        report.elo_high
    );
    if let Some([a, b]) = &report.arranging {
        let per_game = |seat: usize| t.arrange_millis[seat] / t.games as f64;
        println!(
            "{} arranged as {a} ({:.1} ms an arrangement), {} as {b} ({:.1} ms)",
            report.a,
            per_game(0),
            report.b,
            per_game(1)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_known_scores() {
        // 75% is +190.8 Elo: -400 log10(1/0.75 - 1) = 400 log10(3).
        let tally = Tally {
            games: 4,
            wins: 3,
            losses: 1,
            ..Tally::default()
        };
        let (elo, lo, hi) = tally.elo();
        assert!((elo - 400.0 * 3f64.log10()).abs() < 1e-9, "{elo}");
        // sd of one game sqrt(0.75 - 0.5625) = 0.433; of the mean 0.2165;
        // 0.75 + 1.96 * 0.2165 = 1.174 is clamped to 1 - 1/8.
        assert!(
            (hi - (-400.0 * (1.0f64 / 0.875 - 1.0).log10())).abs() < 1e-9,
            "{hi}"
        );
        assert!(lo < 0.0, "{lo}");
        // An even score is 0, a draw-only run has no spread.
        let even = Tally {
            games: 10,
            draws: 6,
            annulled: 4,
            ..Tally::default()
        };
        assert_eq!(even.score(), 0.5);
        assert_eq!(even.elo(), (0.0, 0.0, 0.0));
    }
}
