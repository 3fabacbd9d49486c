//! One game as a game file holds it (docs/game-file.md): its tag pairs, its start, its
//! moves and its result.

use std::fmt;
use std::str::FromStr;

use omweso_rules::{AnnulReason, Outcome, Ruleset, Side, Victory};
use serde::{Deserialize, Serialize};

/// The tags whose values the record keeps as typed fields ([`GameRecord::ruleset`] and
/// the rest): they never appear in [`GameRecord::tags`], and a writer ignores them there.
pub const RESERVED_TAGS: [&str; 6] = [
    "Ruleset",
    "Akakyala",
    "Setup",
    "Impasse",
    "Result",
    "Termination",
];

/// A tag pair, `[Name "value"]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tag {
    pub name: String,
    pub value: String,
}

impl Tag {
    #[must_use]
    pub fn new(name: impl Into<String>, value: impl Into<String>) -> Tag {
        Tag {
            name: name.into(),
            value: value.into(),
        }
    }
}

/// One whole turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveRecord {
    /// Who sowed it: the owner of its start (which the notation names), so always the
    /// player the notation says, the stealer of a stolen turn included.
    pub side: Side,
    /// The move in the canonical notation of docs/rules.md#03-move-notation.
    #[serde(rename = "move")]
    pub notation: String,
    /// Played by the opponent of the side to move, who stole the turn (docs/rules.md#4-play-under-the-referee-server-rules).
    #[serde(default, skip_serializing_if = "is_false")]
    pub stolen: bool,
    /// Elapsed move time, ms: from the end of the previous turn (or the start of play) to
    /// the end of this one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub emt_ms: Option<u64>,
    /// The sowing budget the turn ran out of (written only on a turn that did).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget: Option<u64>,
    /// Free text, trimmed, never empty.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl MoveRecord {
    /// A plain move of `side`.
    #[must_use]
    pub fn new(side: Side, notation: impl Into<String>) -> MoveRecord {
        MoveRecord {
            side,
            notation: notation.into(),
            stolen: false,
            emt_ms: None,
            budget: None,
            comment: None,
        }
    }
}

/// An Oware game ended by agreement at an impasse (docs/rules.md#3-oware-abapa).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImpasseRecord {
    pub proposed_by: Side,
    /// The seeds left that each player took: `[south, north]`.
    pub split: [u8; 2],
}

/// The result, as the `Result` tag and the movetext's last token write it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    SouthWon,
    NorthWon,
    Draw,
    Annulled,
    /// Still being played, or not known.
    Unfinished,
}

impl GameResult {
    pub const ALL: [GameResult; 5] = [
        GameResult::SouthWon,
        GameResult::NorthWon,
        GameResult::Draw,
        GameResult::Annulled,
        GameResult::Unfinished,
    ];

    #[must_use]
    pub const fn token(self) -> &'static str {
        match self {
            GameResult::SouthWon => "1-0",
            GameResult::NorthWon => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Annulled => "annulled",
            GameResult::Unfinished => "*",
        }
    }

    #[must_use]
    pub fn from_token(token: &str) -> Option<GameResult> {
        GameResult::ALL.into_iter().find(|r| r.token() == token)
    }

    #[must_use]
    pub const fn winner(self) -> Option<Side> {
        match self {
            GameResult::SouthWon => Some(Side::South),
            GameResult::NorthWon => Some(Side::North),
            _ => None,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.token())
    }
}

impl Serialize for GameResult {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.token())
    }
}

impl<'de> Deserialize<'de> for GameResult {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<GameResult, D::Error> {
        let text = String::deserialize(d)?;
        GameResult::from_token(&text).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "unknown result {text:?}: expected 1-0, 0-1, 1/2-1/2, annulled or *"
            ))
        })
    }
}

/// How a decided game ended: the `Termination` tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    /// A win, or (Oware) a draw on captures or at an impasse.
    Victory(Victory),
    Annulled(AnnulReason),
}

const VICTORIES: [Victory; 9] = [
    Victory::NoMove,
    Victory::EmitweEbiri,
    Victory::Akawumbi,
    Victory::Akakyala,
    Victory::Captures,
    Victory::Resigned,
    Victory::Abandoned,
    Victory::Adjudicated,
    Victory::Impasse,
];

impl Termination {
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Termination::Victory(v) => v.name(),
            Termination::Annulled(r) => r.name(),
        }
    }

    /// Every termination, for listing and tests.
    #[must_use]
    pub fn all() -> Vec<Termination> {
        let mut all: Vec<Termination> = VICTORIES.into_iter().map(Termination::Victory).collect();
        all.push(Termination::Annulled(AnnulReason::NeverEnding));
        all.push(Termination::Annulled(AnnulReason::Budget));
        all
    }

    /// May a game with `result` have ended this way? Wins by any victory; draws on
    /// captures or at an impasse (Oware); annulments for either reason.
    #[must_use]
    pub fn fits(self, result: GameResult) -> bool {
        matches!(
            (result, self),
            (
                GameResult::SouthWon | GameResult::NorthWon,
                Termination::Victory(_)
            ) | (
                GameResult::Draw,
                Termination::Victory(Victory::Captures | Victory::Impasse)
            ) | (GameResult::Annulled, Termination::Annulled(_))
        )
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Termination {
    type Err = String;

    fn from_str(s: &str) -> Result<Termination, String> {
        Termination::all()
            .into_iter()
            .find(|t| t.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Termination::all().iter().map(|t| t.name()).collect();
                format!(
                    "unknown termination {s:?}: expected one of {}",
                    names.join(", ")
                )
            })
    }
}

impl Serialize for Termination {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Termination {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Termination, D::Error> {
        String::deserialize(d)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

/// One game of a game file.
///
/// Two records are equal when they say the same: the file written from a record parses
/// back to an equal record (docs/game-file.md#round-trip).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameRecord {
    /// Every tag pair but the [`RESERVED_TAGS`], in the file's order.
    #[serde(default)]
    pub tags: Vec<Tag>,
    pub ruleset: Ruleset,
    /// Omweso played with the optional akakyala rule (docs/rules.md#15-end-of-the-game).
    #[serde(default, skip_serializing_if = "is_false")]
    pub akakyala: bool,
    /// The start position string (canonical) when it is not the ruleset's standard start
    /// with South to move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setup: Option<String>,
    #[serde(default)]
    pub moves: Vec<MoveRecord>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub impasse: Option<ImpasseRecord>,
    pub result: GameResult,
    /// How a decided game ended; `None` exactly when the result is `*`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub termination: Option<Termination>,
}

impl GameRecord {
    /// A record of `ruleset` from the standard start, with no tags, moves or result yet.
    #[must_use]
    pub fn new(ruleset: Ruleset) -> GameRecord {
        GameRecord {
            tags: Vec::new(),
            ruleset,
            akakyala: false,
            setup: None,
            moves: Vec::new(),
            impasse: None,
            result: GameResult::Unfinished,
            termination: None,
        }
    }

    /// The value of tag `name` (any tag but the reserved ones).
    #[must_use]
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|t| t.name == name)
            .map(|t| t.value.as_str())
    }

    /// Sets tag `name`, in its place if present, else at the end.
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self.tags.iter_mut().find(|t| t.name == name) {
            Some(tag) => tag.value = value,
            None => self.tags.push(Tag::new(name, value)),
        }
    }

    /// The result as the rules engine states one; `None` while unfinished (or when the
    /// result and termination do not fit together).
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        let termination = self.termination?;
        if !termination.fits(self.result) {
            return None;
        }
        match (self.result, termination) {
            (GameResult::Annulled, Termination::Annulled(reason)) => {
                Some(Outcome::Annulled { reason })
            }
            (GameResult::Draw, _) => Some(Outcome::Draw),
            (result, Termination::Victory(victory)) => Some(Outcome::Win {
                winner: result.winner()?,
                victory,
            }),
            _ => None,
        }
    }

    /// Sets the result and termination from the engine's `outcome` (`None`: unfinished).
    /// A draw is on captures unless the record ended at an impasse.
    pub fn set_outcome(&mut self, outcome: Option<Outcome>) {
        let (result, termination) = match outcome {
            None => (GameResult::Unfinished, None),
            Some(Outcome::Win { winner, victory }) => (
                match winner {
                    Side::South => GameResult::SouthWon,
                    Side::North => GameResult::NorthWon,
                },
                Some(Termination::Victory(victory)),
            ),
            Some(Outcome::Draw) => (
                GameResult::Draw,
                Some(Termination::Victory(if self.impasse.is_some() {
                    Victory::Impasse
                } else {
                    Victory::Captures
                })),
            ),
            Some(Outcome::Annulled { reason }) => {
                (GameResult::Annulled, Some(Termination::Annulled(reason)))
            }
        };
        self.result = result;
        self.termination = termination;
    }
}
