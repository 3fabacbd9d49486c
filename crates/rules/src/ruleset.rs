use std::fmt;
use std::str::FromStr;

/// The three games the engine plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Ruleset {
    /// Omweso, Uganda: 4x8 board, 64 seeds, four reverse pits (docs/rules.md#1-omweso).
    Omweso,
    /// Mweiso, Kagera (Murray 1951): Omweso's board with a simultaneous opening (section 2).
    Mweiso,
    /// Oware, Abapa tournament rules: 2x6 board, 48 seeds (section 3).
    Oware,
}

impl Ruleset {
    pub const ALL: [Ruleset; 3] = [Ruleset::Omweso, Ruleset::Mweiso, Ruleset::Oware];

    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Ruleset::Omweso => "omweso",
            Ruleset::Mweiso => "mweiso",
            Ruleset::Oware => "oware",
        }
    }
}

impl fmt::Display for Ruleset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A ruleset name that is not one of `omweso`, `mweiso`, `oware`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown ruleset {0:?}: expected \"omweso\", \"mweiso\" or \"oware\"")]
pub struct ParseRulesetError(pub String);

impl FromStr for Ruleset {
    type Err = ParseRulesetError;

    fn from_str(s: &str) -> Result<Ruleset, ParseRulesetError> {
        Ruleset::ALL
            .into_iter()
            .find(|r| r.name() == s)
            .ok_or_else(|| ParseRulesetError(s.to_owned()))
    }
}
