//! Over-the-board play on the wire (docs/rules.md#57-over-the-board-play-and-relays, and
//! docs/tournaments.md "Running an event in a hall"): where a table is played, the sheet
//! its players enter and initial from their phones, the players a director adds without a
//! device, the relays who enter a wooden board's moves, and the QR codes of the printed
//! sheets.

use omweso_rules::{Side, Victory};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::sheet_parts::{DisputeView, PerPlayer};

/// Where a table is played: on the site, or at a wooden board with the sheet entered from
/// phones.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlayedAt {
    #[default]
    Online,
    Board,
}

impl PlayedAt {
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            PlayedAt::Online => "online",
            PlayedAt::Board => "board",
        }
    }

    #[must_use]
    pub fn is_online(&self) -> bool {
        *self == PlayedAt::Online
    }
}

/// `PUT /api/tournaments/{id}/rounds/{n}/played-at` takes: where one table (or, without
/// `table`, every table) of a round not started yet is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetPlayedAt {
    pub played_at: PlayedAt,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table: Option<u32>,
}

/// `POST /api/tournaments/{id}/players` takes: a player the director adds by name, who
/// has no device (the director acts for them; a device code can make a phone theirs
/// later).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AddPlayer {
    pub name: String,
}

/// A result as entered at the board: the winner (`null`: a draw) by a victory, and the
/// seeds each player captured (Oware: the pieces taken by each), in the pairing's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardResult {
    pub winner: Option<Uuid>,
    #[serde(default)]
    pub victory: Option<Victory>,
    pub seeds: PerPlayer<u64>,
    /// A director's adjudication of Omweso or Mweiso: the seeds on each side of the board
    /// when the round's time stopped the game, what it is decided on (docs/rules.md#53-rounds;
    /// addition).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seeds_on_board: Option<PerPlayer<u64>>,
}

/// `POST /api/tournaments/{id}/tables/{round}/{table}/sheet` takes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "lowercase", deny_unknown_fields)]
pub enum BoardSheetRequest {
    /// A player's entry of the result (a director's makes the sheet at once).
    Enter {
        winner: Option<Uuid>,
        #[serde(default)]
        victory: Option<Victory>,
        seeds: PerPlayer<u64>,
        /// An Omweso or Mweiso adjudication's seeds on each side of the board (addition).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seeds_on_board: Option<PerPlayer<u64>>,
    },
    /// The other player initials the entry standing (or the relay's proposal).
    Confirm,
    /// A director initials the entry standing for `player`, a player they added without a
    /// device (addition).
    #[serde(rename = "confirm-for")]
    ConfirmFor { player: Uuid },
    /// The entry standing is wrong: the director settles the sheet.
    Dispute { reason: String },
}

/// One entry of a board table's result, waiting for the other player's initials.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardEntryView {
    /// The player who entered it, or the relay whose game proposed it.
    pub by: Uuid,
    pub by_name: String,
    /// Proposed by a relayed game's end rather than entered by a player.
    pub from_relay: bool,
    pub winner: Option<Uuid>,
    pub victory: Option<Victory>,
    pub seeds: PerPlayer<u64>,
    pub at_ms: u64,
    /// The players who initialled it (its author among them).
    pub confirmed_by: Vec<Uuid>,
    /// Those of them a director initialled for: players added without a device (addition).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub confirmed_for: Vec<ConfirmedFor>,
}

/// A director's initials for a player without a device.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConfirmedFor {
    pub player: Uuid,
    /// The director (or co-director) who initialled, and their name then.
    pub by: Uuid,
    pub by_name: String,
}

/// A board table as the snapshot shows it (`PairingView.board`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardTableView {
    /// The entries waiting for initials (none once the sheet is made).
    pub entries: Vec<BoardEntryView>,
    pub dispute: Option<DisputeView>,
    /// Two entries differ, or one is disputed: the director settles the sheet.
    pub waiting_for_director: bool,
    /// Who enters the wooden board's moves, if anyone.
    pub relay: Option<Uuid>,
    pub relay_name: Option<String>,
    /// A game follows the board (`game_id` opens it like an online game).
    pub relayed: bool,
    /// The round's time is up and the table has no sheet: the director adjudicates it.
    pub missing: bool,
}

/// `POST /api/tournaments/{id}/tables/{round}/{table}/relay` takes: the invite's code, or
/// nothing for a director who relays the table themselves.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClaimRelay {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
}

/// `POST /api/tournaments/{id}/tables/{round}/{table}/relay-invite` answers: a one-time
/// code (shown once) with the address that uses it and its QR code.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RelayInvite {
    pub code: String,
    pub url: String,
    pub qr_svg: String,
    pub expires_at_ms: u64,
}

/// What a relay enters (`POST /api/tournaments/{id}/tables/{round}/{table}/relay/act`):
/// the moves as they are sown on the wooden board, for whichever side is to play.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum RelayRequest {
    Move { notation: String },
    Decide { choice: String },
    Arrange { side: Side, pits: Vec<u64> },
    Resign { side: Side },
    Undo,
}

/// A relay's entry accepted: the game's event version after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RelayDone {
    pub version: u64,
}

/// A link with its QR code, as the printed sheets show it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct QrLink {
    pub url: String,
    pub qr_svg: String,
}

/// One table's QR code: it opens that table's sheet entry on a phone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableQr {
    pub round: u32,
    pub table: u32,
    pub url: String,
    pub qr_svg: String,
}

/// `GET /api/tournaments/{id}/qr?round=N` answers: the tournament's own code (the wall's
/// pairings) and one per table of round N.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PrintCodes {
    pub tournament: QrLink,
    pub tables: Vec<TableQr>,
}
