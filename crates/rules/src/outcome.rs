use std::fmt;

use crate::Side;

/// How a game ended (or why it has no result).
///
/// With the `serde` feature this serialises exactly as the engine CLI and the client
/// protocol write it: `{"result":"win","winner":"s","victory":"no-move"}`, `{"result":"draw"}`,
/// `{"result":"annulled","reason":"never-ending"}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(tag = "result", rename_all = "lowercase", deny_unknown_fields)
)]
pub enum Outcome {
    Win { winner: Side, victory: Victory },
    Draw,
    Annulled { reason: AnnulReason },
}

impl Outcome {
    /// The winner, if the game was won.
    #[must_use]
    pub const fn winner(self) -> Option<Side> {
        match self {
            Outcome::Win { winner, .. } => Some(winner),
            _ => None,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win { winner, victory } => write!(f, "{winner} wins by {victory}"),
            Outcome::Draw => f.write_str("draw"),
            Outcome::Annulled { reason } => write!(f, "annulled ({reason})"),
        }
    }
}

/// The type of a victory (docs/rules.md#15-end-of-the-game, 2, 3 and 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum Victory {
    /// The opponent has no pit with two seeds (Omweso, Mweiso): the normal victory.
    NoMove,
    /// Captured in both end columns, A and H, in one turn.
    EmitweEbiri,
    /// Captured in all eight columns in one turn (Omweso): the rarest victory.
    Akawumbi,
    /// Captured in two turns before the opponent captured at all (Omweso, optional rule).
    Akakyala,
    /// More than half of the seeds captured (Oware).
    Captures,
    /// The opponent resigned (server).
    Resigned,
    /// The opponent abandoned the game (server).
    Abandoned,
    /// The game was stopped at its tournament round's deadline and decided on material:
    /// Oware on seeds captured, Omweso and Mweiso on seeds on each side (docs/rules.md#53-rounds;
    /// server).
    Adjudicated,
    /// The players agreed to stop at an impasse (docs/rules.md#3-oware-abapa, Oware): the seeds left were
    /// split evenly, the odd one to the player with more on their side, and the captures
    /// decided (server).
    Impasse,
}

impl Victory {
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Victory::NoMove => "no-move",
            Victory::EmitweEbiri => "emitwe-ebiri",
            Victory::Akawumbi => "akawumbi",
            Victory::Akakyala => "akakyala",
            Victory::Captures => "captures",
            Victory::Resigned => "resigned",
            Victory::Abandoned => "abandoned",
            Victory::Adjudicated => "adjudicated",
            Victory::Impasse => "impasse",
        }
    }
}

impl fmt::Display for Victory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a game was annulled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum AnnulReason {
    /// A state of the turn repeated: the turn can never end (docs/rules.md#14-never-ending-turns).
    NeverEnding,
    /// The turn ran out of its sowing budget (the move-completion limit, section 4).
    Budget,
}

impl AnnulReason {
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            AnnulReason::NeverEnding => "never-ending",
            AnnulReason::Budget => "budget",
        }
    }
}

impl fmt::Display for AnnulReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_adjudicated_win_names_its_victory() {
        let outcome = Outcome::Win {
            winner: Side::North,
            victory: Victory::Adjudicated,
        };
        assert_eq!(Victory::Adjudicated.name(), "adjudicated");
        assert_eq!(outcome.to_string(), "n wins by adjudicated");
        assert_eq!(outcome.winner(), Some(Side::North));
    }
}
