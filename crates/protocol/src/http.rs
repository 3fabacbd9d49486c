//! The bodies of the HTTP API (docs/protocol.md#http): what `/api` calls take and
//! answer. The snapshot is [`super::Snapshot`], the lobby's entries
//! [`crate::lobby::GameSummary`].

use omweso_rules::{Ruleset, Side};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::{Computer, ErrorCode};
use crate::config::SetupKind;
use crate::lobby::GameSummary;

/// Where it was first declared: the time control a creation request asks for is a game's
/// setting, in `config` (which `tournament` reads too, without reaching into `http`).
pub use crate::config::TimeControlRequest;

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
    /// The account's username; none for a guest (addition).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub username: Option<String>,
    /// The device this session is (addition: `GET /api/devices` lists them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub device_id: Option<Uuid>,
    /// A device a tournament's director linked for one of its players (addition): the
    /// tournament it is the player in, and only there (anything else answers `403
    /// limited_device`). Absent for every other device.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub only_tournament: Option<Uuid>,
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
    /// Rated (addition, docs/rules.md#6-ratings): absent means rated when the creator has
    /// an account and the opponent is a person, casual otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rated: Option<bool>,
}

/// The creator's opponent, when it is not a person who joins: `{"computer":{"level":3}}`,
/// the computer at a level of 1 to 8, which takes the other seat at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", deny_unknown_fields)]
pub enum Opponent {
    Computer(Computer),
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
