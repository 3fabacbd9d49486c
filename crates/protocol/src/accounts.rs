//! The bodies of the accounts, devices and player pages API (docs/protocol.md#persons-accounts-and-devices-addition):
//! a person is a player id, a guest or an account, on any number of devices.

use omweso_rules::Ruleset;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// `POST /api/account` (make an account) and `POST /api/login` take.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    pub username: String,
    pub password: String,
}

/// `POST /api/account` answers: the session (as `POST /api/session`'s) and the recovery
/// codes, shown this once.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccountCreated {
    pub token: String,
    pub player_id: Uuid,
    pub name: String,
    pub username: String,
    pub device_id: Uuid,
    pub recovery_codes: Vec<String>,
}

/// `POST /api/login/recovery` takes: a recovery code and the new password.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Recovery {
    pub username: String,
    pub code: String,
    pub password: String,
}

/// `PUT /api/account/password` takes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PasswordChange {
    pub current: String,
    pub password: String,
}

/// `POST /api/account/recovery-codes` takes: the account's password.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PasswordOnly {
    pub password: String,
}

/// `POST /api/account/recovery-codes` answers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecoveryCodes {
    pub recovery_codes: Vec<String>,
}

/// `PATCH /api/me` takes: the person's new name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rename {
    pub name: String,
}

/// One of a person's devices (`GET /api/devices`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeviceInfo {
    pub id: Uuid,
    /// What the device is, from its browser: `Chrome on Android`.
    pub label: String,
    pub created_at_ms: i64,
    /// To within a few minutes.
    pub last_seen_ms: i64,
    /// The device the request came from.
    pub current: bool,
    /// Linked by a tournament's director (addition): the tournament it is the person in,
    /// only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub only_tournament: Option<Uuid>,
}

/// `GET /api/devices` answers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeviceList {
    pub devices: Vec<DeviceInfo>,
}

/// A one-time link code (`POST /api/link-codes`, and a director's for a player).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LinkCodeInfo {
    /// `ABCD-EF23`: typed at `/link` on the other device.
    pub code: String,
    pub expires_at_ms: i64,
    /// The page that uses it, with the code: what the QR code holds.
    pub url: String,
    /// The QR code of `url`, an SVG document.
    pub qr_svg: String,
}

/// `POST /api/link` takes: a link code as typed (or a relay invite's code).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UseCode {
    pub code: String,
}

/// `POST /api/link` answers (`kind` an addition): a link code made this device the code's
/// person; a relay invite's code was found (and left for the relay's page to claim).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Linked {
    /// This device is now the code's person, as `POST /api/session` answers it.
    Device {
        #[serde(flatten)]
        session: crate::http::SessionInfo,
        /// A director's code for a tournament's player: where the player is now.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        place: Option<PlayerPlace>,
    },
    /// A relay invite's code: nothing is signed in; `path` is the relay's page with the
    /// code, which claims the table.
    Relay(RelayPlace),
}

/// Where a tournament's player is, as a device linked for them should open (decided when
/// the code is used: the round may have moved on).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerPlace {
    pub kind: PlaceKind,
    /// The page: `/g/{game}`, `/t/{id}/sheet/{round}/{table}` or `/t/{id}`.
    pub path: String,
    pub tournament_id: Uuid,
    pub tournament_name: String,
    /// The round and table of a game or a sheet; absent for the tournament's page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table: Option<u32>,
}

/// What a [`PlayerPlace`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlaceKind {
    /// The player's game being played online: its page.
    Game,
    /// The player's table at a wooden board, its sheet not made: the sheet's page.
    Sheet,
    /// Between rounds, or their game over: the tournament's page.
    Tournament,
}

/// A relay invite's table, found by its code.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RelayPlace {
    pub tournament_id: Uuid,
    pub tournament_name: String,
    pub round: u32,
    pub table: u32,
    /// The relay's page with the code: `/t/{id}/relay/{round}/{table}#code=...`.
    pub path: String,
}

/// `GET /api/tournaments/{id}/new-devices` answers (directors only): for each player,
/// whether the console may give them a code for a new device, and why not.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewDevices {
    pub players: Vec<NewDeviceView>,
}

/// One player of [`NewDevices`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewDeviceView {
    pub player_id: Uuid,
    pub may_give: bool,
    /// Why no code can be given, in words, beside the player.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why_not: Option<String>,
    /// When a director's code was last used for this player (a new device linked).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub linked_at_ms: Option<u64>,
}

/// How a game ended for the person whose page lists it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PersonalResult {
    Won,
    Lost,
    Drawn,
    /// Annulled, or not finished.
    None,
}

/// One game on a player page.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerGame {
    pub id: Uuid,
    pub ruleset: Ruleset,
    /// `setup`, `playing`, `finished` or `annulled`.
    pub status: String,
    /// The person's seat, `south` or `north` (`None` before they were seated).
    pub seat: Option<omweso_rules::Side>,
    /// The opponent's name as it is now (`None`: no opponent yet).
    pub opponent: Option<String>,
    pub result: PersonalResult,
    pub created_at_ms: i64,
}

/// One tournament on a player page.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerTournament {
    pub id: Uuid,
    pub name: String,
    pub ruleset: Ruleset,
    /// `open`, `running` or `finished`.
    pub status: String,
    /// `director`, `co-director` or `player`.
    pub role: String,
    pub created_at_ms: i64,
}

/// `GET /api/players/{username}` and `GET /api/me/games` answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerPage {
    pub player_id: Uuid,
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub username: Option<String>,
    pub member_since_ms: i64,
    /// The newest 100.
    pub games: Vec<PlayerGame>,
    /// The newest 100.
    pub tournaments: Vec<PlayerTournament>,
    /// Won, lost and drawn in each ruleset the person played, over all their finished
    /// games (the archive's addition; absent when none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub results: Vec<crate::archive::RulesetResults>,
    /// The account's rating in each ruleset it is rated in (addition,
    /// docs/protocol.md#ratings-addition; absent for a guest or an account never rated).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ratings: Vec<crate::ratings::RatingView>,
}

/// `PUT /api/account/email` takes: the address, and the account's password.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EmailChange {
    pub email: String,
    pub password: String,
}

/// `POST /api/login/email-reset` takes: the account whose password is forgotten.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EmailReset {
    pub username: String,
}

/// `POST /api/login/email-reset/confirm` takes: the code of the mailed link and the new
/// password.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EmailResetConfirm {
    pub code: String,
    pub password: String,
}

/// `GET /api/account` answers: the account's username and e-mail address (a guest has
/// neither), and whether the server sends mail at all.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccountInfo {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub username: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// The address opened its verification link: reset mail goes to it.
    pub email_verified: bool,
    /// The server's operator set up mail: the e-mail calls work.
    pub email_enabled: bool,
    /// When the person joined (none without a session).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub member_since_ms: Option<i64>,
}
