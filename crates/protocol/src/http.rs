//! The bodies of the HTTP API (`shared/PROTOCOL.md`, "HTTP"): what `/api` calls take and
//! answer. The snapshot is [`super::Snapshot`], the lobby's entries
//! [`crate::lobby::GameSummary`].

use omweso_rules::{Ruleset, Side};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::{Computer, ErrorCode};
use crate::config::{SetupKind, TimeControl};
use crate::lobby::GameSummary;

/// `POST /api/session` takes.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewSession {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// `POST /api/session` answers (and `GET /api/me`, without the token).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionInfo {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    pub player_id: Uuid,
    pub name: String,
}

/// The creator's seat in a new game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SeatChoice {
    First,
    Second,
    Random,
}

/// `POST /api/games` takes; omitted fields take the `casual` defaults.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ruleset: Option<Ruleset>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setup: Option<SetupKind>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<SeatChoice>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_control: Option<TimeControlRequest>,
    /// Who the creator plays (addition): absent for a person who joins later.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opponent: Option<Opponent>,
}

/// The creator's opponent, when it is not a person who joins: `{"computer":{"level":3}}`,
/// the computer at a level of 1 to 8, which takes the other seat at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", deny_unknown_fields)]
pub enum Opponent {
    Computer(Computer),
}

/// A time control: a preset's name (`casual`, `tournament`) and fields over it (over
/// `casual` when no preset is named). `referee_seconds`, `move_limit_seconds` and
/// `arrange_seconds` may be `null` (off).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeControlRequest {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preset: Option<String>,
    #[serde(
        default,
        deserialize_with = "nullable",
        skip_serializing_if = "Option::is_none"
    )]
    pub referee_seconds: Option<Option<f64>>,
    #[serde(
        default,
        deserialize_with = "nullable",
        skip_serializing_if = "Option::is_none"
    )]
    pub move_limit_seconds: Option<Option<f64>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sowing_pace: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub akakyala: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abandon_seconds: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disconnect_grace_seconds: Option<f64>,
    /// The arrangement limit of a free setup, seconds; `null`: none (RULES.md 1.1).
    #[serde(
        default,
        deserialize_with = "nullable",
        skip_serializing_if = "Option::is_none"
    )]
    pub arrange_seconds: Option<Option<f64>>,
}

impl TimeControlRequest {
    /// The time control asked for, checked; the refusal says what is wrong.
    pub fn resolve(self) -> Result<TimeControl, String> {
        let mut tc = match self.preset.as_deref() {
            None | Some("casual") => TimeControl::CASUAL,
            Some("tournament") => TimeControl::TOURNAMENT,
            Some(other) => {
                return Err(format!(
                    "unknown preset \"{other}\": expected \"casual\" or \"tournament\""
                ))
            }
        };
        if let Some(r) = self.referee_seconds {
            tc.referee_seconds = r;
        }
        if let Some(l) = self.move_limit_seconds {
            tc.move_limit_seconds = l;
        }
        if let Some(a) = self.arrange_seconds {
            tc.arrange_seconds = a;
        }
        tc.sowing_pace = self.sowing_pace.unwrap_or(tc.sowing_pace);
        tc.akakyala = self.akakyala.unwrap_or(tc.akakyala);
        tc.abandon_seconds = self.abandon_seconds.unwrap_or(tc.abandon_seconds);
        tc.disconnect_grace_seconds = self
            .disconnect_grace_seconds
            .unwrap_or(tc.disconnect_grace_seconds);
        tc.validate()?;
        Ok(tc)
    }
}

/// A field that may be absent (outer `None`) or `null` (inner `None`).
fn nullable<'de, D, T>(deserializer: D) -> Result<Option<Option<T>>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(deserializer).map(Some)
}

/// `POST /api/games` answers (201).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameCreated {
    pub game_id: Uuid,
    pub url: String,
}

/// `POST /api/games/{id}/join` answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Joined {
    pub seat: Side,
}

/// `GET /api/games?list=` answers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameList {
    pub games: Vec<GameSummary>,
}

/// Every HTTP error's body: `{"error":{"code":..,"message":..}}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorBody {
    pub error: ErrorDetail,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorDetail {
    pub code: ErrorCode,
    pub message: String,
}
