//! The eight levels of the computer player.

use std::fmt;

use omweso_rules::Ruleset;

use crate::alphabeta::Settings;

/// A fixed strength, 1 (a beginner) to 8 (the strongest the server affords in about one
/// second a move on one core).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Level(u8);

/// A level outside 1..=8.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("level {0} is not one of 1 to 8")]
pub struct ParseLevelError(pub i64);

impl Level {
    pub const MIN: Level = Level(1);
    pub const MAX: Level = Level(8);
    /// Every level, weakest first.
    pub const ALL: [Level; 8] = [
        Level(1),
        Level(2),
        Level(3),
        Level(4),
        Level(5),
        Level(6),
        Level(7),
        Level(8),
    ];

    /// The level `n`, if it is one of 1..=8.
    pub fn new(n: i64) -> Result<Level, ParseLevelError> {
        match u8::try_from(n) {
            Ok(n @ 1..=8) => Ok(Level(n)),
            _ => Err(ParseLevelError(n)),
        }
    }

    /// The level's number, 1..=8.
    #[must_use]
    pub const fn get(self) -> u8 {
        self.0
    }
}

/// What a level is: how deep and how long it searches, and how it is weakened. The node
/// budgets differ per ruleset (an Oware move is several times cheaper than a 4x8 one,
/// whose whole moves branch at decision points): level 8 is what one core searches in
/// about a second (docs/bots.md says how it was calibrated).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Strength {
    /// The deepest iteration, in whole moves.
    pub depth: u32,
    /// Positions searched at most, for Omweso/Mweiso and for Oware.
    pub nodes_4x8: u64,
    pub nodes_oware: u64,
    /// Softmax temperature over the root moves' exact scores, in seeds (`None`: the
    /// best move is played).
    pub temperature: Option<f64>,
    /// Leaf noise amplitude, hundredths of a seed.
    pub noise: i32,
}

/// The eight levels, weakest first (docs/bots.md has the measured strength of each).
#[rustfmt::skip]
const STRENGTHS: [Strength; 8] = [
    Strength { depth: 1, nodes_4x8: 2_000, nodes_oware: 2_000, temperature: Some(4.0), noise: 50 },
    Strength { depth: 1, nodes_4x8: 2_000, nodes_oware: 2_000, temperature: Some(1.0), noise: 20 },
    Strength { depth: 2, nodes_4x8: 2_000, nodes_oware: 5_000, temperature: Some(0.5), noise: 10 },
    Strength { depth: 3, nodes_4x8: 2_000, nodes_oware: 5_000, temperature: None, noise: 5 },
    Strength { depth: 64, nodes_4x8: 2_000, nodes_oware: 10_000, temperature: None, noise: 2 },
    Strength { depth: 64, nodes_4x8: 20_000, nodes_oware: 50_000, temperature: None, noise: 2 },
    Strength { depth: 64, nodes_4x8: 200_000, nodes_oware: 300_000, temperature: None, noise: 2 },
    Strength { depth: 64, nodes_4x8: 2_000_000, nodes_oware: 4_000_000, temperature: None, noise: 2 },
];

impl Level {
    /// What this level is.
    #[must_use]
    pub const fn strength(self) -> Strength {
        STRENGTHS[(self.0 - 1) as usize]
    }

    /// The positions this level searches at most in `ruleset`.
    #[must_use]
    pub const fn nodes(self, ruleset: Ruleset) -> u64 {
        let s = self.strength();
        match ruleset {
            Ruleset::Oware => s.nodes_oware,
            Ruleset::Omweso | Ruleset::Mweiso => s.nodes_4x8,
        }
    }

    /// One line saying what the level is, for players choosing an opponent.
    #[must_use]
    pub fn describe(self) -> String {
        let s = self.strength();
        let how = match (s.depth, s.temperature) {
            (1, Some(_)) => "looks one move ahead".to_owned(),
            (d, Some(_)) => format!("looks {d} moves ahead"),
            (d, None) if d < 64 => format!(
                "searches up to {d} moves deep ({} positions on the 4x8 board, {} in Oware)",
                s.nodes_4x8, s.nodes_oware
            ),
            _ => format!(
                "searches {} positions a move on the 4x8 board, {} in Oware",
                s.nodes_4x8, s.nodes_oware
            ),
        };
        let style = match s.temperature {
            Some(t) if t >= 2.0 => "; plays loosely, often missing the best move",
            Some(t) if t >= 1.0 => "; sometimes misses the best move",
            Some(_) => "; now and then misses the best move",
            None => "",
        };
        let name = match self.0 {
            1 => "Beginner",
            2 => "Novice",
            3 => "Casual",
            4 => "Club",
            5 => "Strong club",
            6 => "Expert",
            7 => "Master",
            _ => "Grandmaster (about a second a move)",
        };
        format!("Level {}: {name}: {how}{style}.", self.0)
    }

    /// The search settings of this level in `ruleset`.
    pub(crate) fn settings(self, ruleset: Ruleset) -> Settings {
        let s = self.strength();
        let nodes = self.nodes(ruleset);
        Settings {
            max_depth: s.depth,
            nodes,
            deadline: None,
            noise: s.noise,
            temperature: s.temperature.map(|t| t * f64::from(crate::eval::SEED)),
            // The shallow levels see a few thousand positions: a small table is cleared
            // faster than it would be filled.
            table: if s.depth <= 3 {
                1 << 12
            } else {
                crate::search::table_for(nodes)
            },
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_one_to_eight_are_levels() {
        assert_eq!(Level::new(0), Err(ParseLevelError(0)));
        assert_eq!(Level::new(9), Err(ParseLevelError(9)));
        assert_eq!(Level::new(-1), Err(ParseLevelError(-1)));
        assert_eq!(Level::new(1).map(Level::get), Ok(1));
        assert_eq!(Level::new(8).map(Level::get), Ok(8));
        assert_eq!(Level::ALL.map(Level::get), [1, 2, 3, 4, 5, 6, 7, 8]);
    }
}
