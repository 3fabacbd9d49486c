//! A player for `omweso arena`: a level, a node budget, a time budget, Monte Carlo tree
//! search at a time budget (the yardstick), or uniformly random moves.

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use omweso_rules::{Game, GameMove, Side};
use rand::{rngs::SmallRng, Rng, SeedableRng};

use crate::search::check;
use crate::tt::mix;
use crate::{best_move, Level, Limit, Query, SearchError, Strength, MAX_MILLIS};

/// Who plays, as `omweso arena` names them: `L1`..`L8`, `nodes:N`, `ms:N`, `mcts:N` (N
/// milliseconds a move), a strength spelled out (`depth:D,temp:T,noise:N,nodes:N`, to
/// calibrate the levels with) or `random`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Player {
    Level(Level),
    Nodes(u64),
    Millis(u64),
    /// Monte Carlo tree search with this many milliseconds a move.
    Mcts(u64),
    /// A strength that is not (yet) a level: the same search as a level's, with every
    /// setting given.
    Tuned(Strength),
    Random,
}

/// A player name that is none of the forms.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{0:?} is not a player: write L1..L8, nodes:N, ms:N (at most 60000), mcts:N (ms), \
     depth:D[,temp:T][,noise:N][,nodes:N] or random"
)]
pub struct ParsePlayerError(pub String);

impl FromStr for Player {
    type Err = ParsePlayerError;

    fn from_str(s: &str) -> Result<Player, ParsePlayerError> {
        let bad = || ParsePlayerError(s.to_owned());
        let number = |text: &str| text.parse::<u64>().map_err(|_| bad());
        let lower = s.to_ascii_lowercase();
        if lower == "random" {
            return Ok(Player::Random);
        }
        if let Some(n) = lower.strip_prefix('l') {
            let n = i64::try_from(number(n)?).map_err(|_| bad())?;
            return Level::new(n).map(Player::Level).map_err(|_| bad());
        }
        if lower.starts_with("depth:") {
            return tuned(&lower).ok_or_else(bad);
        }
        let (kind, n) = lower.split_once(':').ok_or_else(bad)?;
        let n = number(n)?;
        match kind {
            "nodes" if n > 0 => Ok(Player::Nodes(n)),
            "ms" if (1..=MAX_MILLIS).contains(&n) => Ok(Player::Millis(n)),
            "mcts" if (1..=MAX_MILLIS).contains(&n) => Ok(Player::Mcts(n)),
            _ => Err(bad()),
        }
    }
}

/// The highest softmax temperature a tuned player takes, in seeds: far past it every
/// move is as likely as any other.
const MAX_TEMPERATURE: f64 = 1_000.0;

/// `depth:D[,temp:T][,noise:N][,nodes:N]`, each key at most once: depth 1-64,
/// temperature in seeds (above 0, at most [`MAX_TEMPERATURE`]; none: the best move),
/// leaf noise in hundredths of a seed (0-10000, default 2), nodes (default 2000).
fn tuned(text: &str) -> Option<Player> {
    let mut strength = Strength {
        depth: 0,
        nodes: 2_000,
        temperature: None,
        noise: 2,
    };
    let mut seen: Vec<&str> = Vec::new();
    for part in text.split(',') {
        let (key, value) = part.split_once(':')?;
        if seen.contains(&key) {
            return None;
        }
        seen.push(key);
        match key {
            "depth" => strength.depth = value.parse().ok().filter(|d| (1..=64).contains(d))?,
            "temp" => {
                let t: f64 = value.parse().ok()?;
                strength.temperature = Some(t).filter(|t| *t > 0.0 && *t <= MAX_TEMPERATURE);
                strength.temperature?;
            }
            "noise" => strength.noise = value.parse().ok().filter(|n| (0..=10_000).contains(n))?,
            "nodes" => strength.nodes = value.parse().ok().filter(|&n| n > 0)?,
            _ => return None,
        }
    }
    (strength.depth > 0).then_some(Player::Tuned(strength))
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Player::Tuned(s) => {
                write!(f, "depth:{}", s.depth)?;
                if let Some(t) = s.temperature {
                    write!(f, ",temp:{t}")?;
                }
                write!(f, ",noise:{},nodes:{}", s.noise, s.nodes)
            }
            Player::Level(level) => write!(f, "L{level}"),
            Player::Nodes(n) => write!(f, "nodes:{n}"),
            Player::Millis(n) => write!(f, "ms:{n}"),
            Player::Mcts(n) => write!(f, "mcts:{n}"),
            Player::Random => f.write_str("random"),
        }
    }
}

impl Player {
    /// Does the same seed give the same move (no wall clock involved)?
    #[must_use]
    pub const fn is_reproducible(&self) -> bool {
        matches!(
            self,
            Player::Level(_) | Player::Nodes(_) | Player::Tuned(_) | Player::Random
        )
    }

    /// The move this player plays for `side` in `game`, each move explored under
    /// `budget`.
    pub fn choose(
        &self,
        game: &Game,
        side: Side,
        budget: Option<u64>,
        seed: u64,
        stop: &AtomicBool,
    ) -> Result<GameMove, SearchError> {
        let query = |limit| Query {
            game: *game,
            side,
            max_seeds: budget,
            limit,
            seed,
        };
        let search = |limit| best_move(&query(limit), stop).map(|found| found.mv);
        // The players that do not go through `best_move` refuse the same queries.
        let checked = |limit| check(&query(limit));
        match *self {
            Player::Level(level) => search(Limit::Level(level)),
            Player::Nodes(n) => search(Limit::Nodes(n)),
            Player::Millis(ms) => search(Limit::Millis(ms)),
            Player::Tuned(strength) => {
                checked(Limit::Nodes(strength.nodes))?;
                crate::alphabeta::search(game, side, budget, &strength.settings(), seed, stop)
                    .map(|found| found.mv)
                    .ok_or(SearchError::NoLegalMove { side })
            }
            Player::Mcts(ms) => {
                checked(Limit::Millis(ms))?;
                let deadline = Instant::now() + Duration::from_millis(ms);
                crate::mcts::mcts(game, side, budget, deadline, seed, stop)
                    .map(|found| found.mv)
                    .ok_or(SearchError::NoLegalMove { side })
            }
            Player::Random => {
                let moves = game.legal_moves(side, budget);
                if game.outcome().is_some() {
                    return Err(SearchError::GameOver);
                }
                if moves.is_empty() {
                    return Err(SearchError::NoLegalMove { side });
                }
                let mut rng = SmallRng::seed_from_u64(mix(seed));
                let pick = rng.random_range(0..moves.len());
                Ok(moves[pick].clone())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players_parse_and_display_back() {
        for text in [
            "L1",
            "L8",
            "nodes:5000",
            "ms:100",
            "mcts:250",
            "depth:2,temp:0.5,noise:10,nodes:2000",
            "depth:64,noise:2,nodes:20000",
            "random",
        ] {
            assert_eq!(text.parse::<Player>().unwrap().to_string(), text);
        }
        assert_eq!(
            "l3".parse::<Player>(),
            Ok(Player::Level(Level::new(3).unwrap()))
        );
        // Values, not only texts, come back: the shortest decimal of a temperature reads
        // back as the same number, and the defaults are written out.
        for (text, written) in [
            ("depth:3", "depth:3,noise:2,nodes:2000"),
            ("depth:2,temp:0.1", "depth:2,temp:0.1,noise:2,nodes:2000"),
            ("depth:2,temp:1e-3", "depth:2,temp:0.001,noise:2,nodes:2000"),
            (
                "depth:4,nodes:100000,noise:5",
                "depth:4,noise:5,nodes:100000",
            ),
        ] {
            let player = text.parse::<Player>().unwrap();
            assert_eq!(player.to_string(), written);
            assert_eq!(written.parse::<Player>(), Ok(player));
        }
        assert_eq!(
            "depth:3".parse::<Player>(),
            Ok(Player::Tuned(Strength {
                depth: 3,
                nodes: 2_000,
                temperature: None,
                noise: 2
            }))
        );
        for bad in [
            "L0",
            "L9",
            "nodes:0",
            "ms:0",
            "ms:60001",
            "mcts:x",
            "alice",
            "",
            "L",
            "depth:0",
            "depth:65",
            "depth:2,temp:0",
            "depth:2,temp:-1",
            "depth:2,temp:nan",
            "depth:2,nodes:0",
            "depth:2,noise:-1",
            "depth:2,colour:red",
            "depth:2,",
            "temp:1,depth:2",
            "depth:2,depth:9",
            "depth:2,temp:1,temp:2",
            "depth:2,temp:1001",
            "depth:2,temp:inf",
        ] {
            assert_eq!(
                bad.parse::<Player>(),
                Err(ParsePlayerError(bad.to_owned())),
                "{bad}"
            );
        }
    }
}
