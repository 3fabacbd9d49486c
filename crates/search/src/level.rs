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

/// What a level is: how deep and how long it searches, and how it is weakened. Each
/// board has its own table: an Oware move is several times cheaper than a 4x8 one
/// (whose whole moves branch at decision points), and the two games reward search
/// differently (docs/bots.md says how each table was calibrated).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Strength {
    /// The deepest iteration, in whole moves.
    pub depth: u32,
    /// Positions searched at most.
    pub nodes: u64,
    /// Softmax temperature over the root moves' exact scores, in seeds (`None`: the
    /// best move is played).
    pub temperature: Option<f64>,
    /// Leaf noise amplitude, hundredths of a seed.
    pub noise: i32,
}

/// Omweso, weakest first. Each level beats the one below in about two games of three
/// (docs/bots.md, "The levels"). Past a few thousand positions more search gains little
/// on the 4x8 board between good players (level 8 scored 59% against 2,000 nodes a
/// move, 670 times less work; the side that moves first wins about four games in five),
/// so levels 1-7 are spaced by depth and temperature, and only level 8 spends the
/// second.
#[rustfmt::skip]
const OMWESO: [Strength; 8] = [
    Strength { depth: 1, nodes: 2_000, temperature: Some(16.0), noise: 50 },
    Strength { depth: 1, nodes: 2_000, temperature: Some(4.0), noise: 50 },
    Strength { depth: 1, nodes: 2_000, temperature: None, noise: 5 },
    Strength { depth: 2, nodes: 2_000, temperature: Some(4.0), noise: 50 },
    Strength { depth: 2, nodes: 2_000, temperature: None, noise: 5 },
    Strength { depth: 3, nodes: 2_000, temperature: Some(0.5), noise: 10 },
    Strength { depth: 4, nodes: 100_000, temperature: None, noise: 5 },
    Strength { depth: 64, nodes: 2_000_000, temperature: None, noise: 2 },
];

/// Mweiso, weakest first. The first player of the main phase wins nine games in ten
/// between any two players, and with the corrected opening (docs/rules.md#2-mweiso-kagera-murray-1951) all but a few:
/// level 8's search proves a forced win for it from 36 of the 40 positions after the
/// opening (a rules question, docs/bots.md), so no setting separates the levels; they
/// rise in depth and then in nodes, and level 1 plays the best move one move ahead, which
/// is what it takes to beat random play in three games of four.
#[rustfmt::skip]
const MWEISO: [Strength; 8] = [
    Strength { depth: 1, nodes: 2_000, temperature: None, noise: 5 },
    Strength { depth: 2, nodes: 2_000, temperature: Some(2.0), noise: 20 },
    Strength { depth: 3, nodes: 2_000, temperature: Some(0.5), noise: 10 },
    Strength { depth: 4, nodes: 100_000, temperature: None, noise: 5 },
    Strength { depth: 64, nodes: 2_000, temperature: None, noise: 2 },
    Strength { depth: 64, nodes: 20_000, temperature: None, noise: 2 },
    Strength { depth: 64, nodes: 200_000, temperature: None, noise: 2 },
    Strength { depth: 64, nodes: 2_000_000, temperature: None, noise: 2 },
];

/// Oware, weakest first: each level searches several times more than the one below.
#[rustfmt::skip]
const OWARE: [Strength; 8] = [
    Strength { depth: 1, nodes: 2_000, temperature: Some(4.0), noise: 50 },
    Strength { depth: 1, nodes: 2_000, temperature: Some(1.0), noise: 20 },
    Strength { depth: 2, nodes: 5_000, temperature: Some(0.5), noise: 10 },
    Strength { depth: 3, nodes: 5_000, temperature: None, noise: 5 },
    Strength { depth: 64, nodes: 10_000, temperature: None, noise: 2 },
    Strength { depth: 64, nodes: 50_000, temperature: None, noise: 2 },
    Strength { depth: 64, nodes: 300_000, temperature: None, noise: 2 },
    Strength { depth: 64, nodes: 4_000_000, temperature: None, noise: 2 },
];

impl Strength {
    /// The search settings of this strength.
    pub(crate) fn settings(&self) -> Settings {
        Settings {
            max_depth: self.depth,
            nodes: self.nodes,
            deadline: None,
            noise: self.noise,
            temperature: self.temperature.map(|t| t * f64::from(crate::eval::SEED)),
            // The shallow searches see a few thousand positions: a small table is
            // cleared faster than it would be filled.
            table: if self.depth <= 3 {
                1 << 12
            } else {
                crate::tt::table_for(self.nodes)
            },
        }
    }

    /// What this strength does, in a few words.
    fn describe(&self) -> String {
        let how = match (self.depth, self.temperature) {
            (1, _) => "looks one move ahead".to_owned(),
            (d, Some(_)) => format!("looks {d} moves ahead"),
            (d, None) if d < 64 => format!("searches {d} moves deep"),
            _ => format!("searches {} positions a move", self.nodes),
        };
        let style = match self.temperature {
            Some(t) if t >= 2.0 => ", playing loosely, often missing the best move",
            Some(t) if t >= 1.0 => ", sometimes missing the best move",
            Some(_) => ", now and then missing the best move",
            None => "",
        };
        format!("{how}{style}")
    }
}

impl Level {
    /// What this level is in `ruleset`.
    #[must_use]
    pub const fn strength(self, ruleset: Ruleset) -> Strength {
        let index = (self.0 - 1) as usize;
        match ruleset {
            Ruleset::Omweso => OMWESO[index],
            Ruleset::Mweiso => MWEISO[index],
            Ruleset::Oware => OWARE[index],
        }
    }

    /// The positions this level searches at most in `ruleset`.
    #[must_use]
    pub const fn nodes(self, ruleset: Ruleset) -> u64 {
        self.strength(ruleset).nodes
    }

    /// One line saying what the level is, for players choosing an opponent.
    #[must_use]
    pub fn describe(self) -> String {
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
        let [omweso, mweiso, oware] =
            [Ruleset::Omweso, Ruleset::Mweiso, Ruleset::Oware].map(|r| self.strength(r).describe());
        if omweso == mweiso && mweiso == oware {
            format!("Level {}: {name}: {omweso}.", self.0)
        } else {
            format!(
                "Level {}: {name}: in Omweso {omweso}; in Mweiso {mweiso}; in Oware {oware}.",
                self.0
            )
        }
    }

    /// The search settings of this level in `ruleset`.
    pub(crate) fn settings(self, ruleset: Ruleset) -> Settings {
        self.strength(ruleset).settings()
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
