//! A tournament on the wire (docs/protocol.md#tournaments, and the additions in
//! `docs/protocol.md`): the `/api/tournaments` bodies, the snapshot with its rounds, sheets
//! and standings, and the frames of the tournament socket.

use omweso_rules::{Outcome, Ruleset, Side};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::client::Empty;
use super::config::TimeControlRequest;
use super::game::{ClockView, Status};
use super::server::ErrorReply;
use crate::config::{SetupKind, TimeControl};
use crate::over_the_board::{BoardTableView, PlayedAt};
pub use crate::sheet_parts::{DisputeView, PerPlayer};

/// The most players a tournament takes (a refusal beyond it says so; `omweso
/// tournament-sim` caps its field by it).
pub const MAX_PLAYERS: usize = 1000;

/// `swiss`, `round-robin` or `double-round-robin`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum System {
    Swiss,
    RoundRobin,
    DoubleRoundRobin,
}

impl System {
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            System::Swiss => "swiss",
            System::RoundRobin => "round-robin",
            System::DoubleRoundRobin => "double-round-robin",
        }
    }
}

/// The points table as the API writes it: points, not thousandths. `forfeit-win` and
/// `forfeit-loss` are additions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PointsRequest {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub win: Option<f64>,
    #[serde(
        default,
        rename = "emitwe-ebiri",
        skip_serializing_if = "Option::is_none"
    )]
    pub emitwe_ebiri: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub akakyala: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub akawumbi: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loss: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bye: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annulled: Option<f64>,
    #[serde(
        default,
        rename = "forfeit-win",
        skip_serializing_if = "Option::is_none"
    )]
    pub forfeit_win: Option<f64>,
    #[serde(
        default,
        rename = "forfeit-loss",
        skip_serializing_if = "Option::is_none"
    )]
    pub forfeit_loss: Option<f64>,
}

/// The points table as the snapshot shows it (every value, in points).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PointsView {
    pub win: f64,
    #[serde(rename = "emitwe-ebiri")]
    pub emitwe_ebiri: f64,
    pub akakyala: f64,
    pub akawumbi: f64,
    pub draw: f64,
    pub loss: f64,
    pub bye: f64,
    pub annulled: f64,
    #[serde(rename = "forfeit-win")]
    pub forfeit_win: f64,
    #[serde(rename = "forfeit-loss")]
    pub forfeit_loss: f64,
}

/// `POST /api/tournaments` takes; omitted fields take the documented defaults.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewTournament {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ruleset: Option<Ruleset>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setup: Option<SetupKind>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_control: Option<TimeControlRequest>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system: Option<System>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounds: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round_minutes: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub balance_first_move: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points: Option<PointsRequest>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forbidden_pairs: Option<Vec<[Uuid; 2]>>,
    /// The federation the TRF export names (its `032` line), a FIDE code of three letters;
    /// none when absent (an addition).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub federation: Option<String>,
    /// Where its tables are played unless the director says otherwise for a round or a
    /// table: `online` (the default) or `board` (over the board, an addition).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub played_at: Option<PlayedAt>,
    /// A rated tournament (docs/ratings.md#rated-tournaments): its field is seeded by
    /// rating at its start and its games between two accounts are rated from their
    /// sheets. Casual when absent (an addition).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rated: Option<bool>,
}

/// A tournament's settings as created, every default filled in (the snapshot's
/// `settings`, an addition: the snapshot's `rounds` is the list of rounds, so the number
/// of rounds cannot sit beside it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SettingsView {
    pub name: String,
    pub ruleset: Ruleset,
    pub setup: SetupKind,
    pub time_control: TimeControl,
    pub system: System,
    pub rounds: u32,
    pub round_minutes: f64,
    pub balance_first_move: bool,
    pub points: PointsView,
    pub forbidden_pairs: Vec<[Uuid; 2]>,
    /// The federation, when one was set (an addition).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub federation: Option<String>,
    /// Where its tables are played by default (an addition).
    #[serde(default)]
    pub played_at: PlayedAt,
    /// A rated tournament (an addition; absent: casual).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
}

/// `POST /api/tournaments` answers (201).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentCreated {
    pub tournament_id: Uuid,
    pub url: String,
}

/// `open`, `running` or `finished`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TournamentStatus {
    Open,
    Running,
    Finished,
}

impl TournamentStatus {
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            TournamentStatus::Open => "open",
            TournamentStatus::Running => "running",
            TournamentStatus::Finished => "finished",
        }
    }
}

/// One line of `GET /api/tournaments`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentSummary {
    pub tournament_id: Uuid,
    pub name: String,
    pub ruleset: Ruleset,
    pub system: System,
    pub status: TournamentStatus,
    pub players: u32,
    /// The last round paired (0 before the first).
    pub round: u32,
}

/// `GET /api/tournaments?list=` answers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentList {
    pub tournaments: Vec<TournamentSummary>,
}

/// `POST /api/tournaments/{id}/join` answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentJoined {
    pub player_id: Uuid,
}

/// `POST /api/tournaments/{id}/withdraw` takes (no body: the caller withdraws).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WithdrawRequest {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player_id: Option<Uuid>,
}

/// `PUT /api/tournaments/{id}/forbidden-pairs` takes, and answers, the whole list: pairs
/// of player ids who must never be paired (docs/rules.md#54-pairing rule 2) from the next pairing on.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ForbiddenPairs {
    pub forbidden_pairs: Vec<[Uuid; 2]>,
}

/// One pairing of `PUT /api/tournaments/{id}/rounds/{n}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PairingRequest {
    pub first: Uuid,
    pub second: Option<Uuid>,
}

/// `PUT /api/tournaments/{id}/rounds/{n}` takes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EditRound {
    pub pairings: Vec<PairingRequest>,
    #[serde(default)]
    pub confirm_breach: bool,
}

/// `POST /api/tournaments/{id}/sheets/{game_id}` takes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "lowercase", deny_unknown_fields)]
pub enum SheetRequest {
    Confirm,
    Dispute {
        reason: String,
    },
    /// The director's correction: the game's outcome as it should stand, in the game's
    /// own seats (`"s"` moved first in that game).
    Correct {
        result: Outcome,
        reason: String,
        /// A sheet entered at the board: the seeds each player captured, in the
        /// pairing's order, as they should stand (addition).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seeds: Option<PerPlayer<u64>>,
        /// A draw decided on the seeds by the director (docs/rules.md#53-rounds): the only
        /// draw Omweso and Mweiso know (addition).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        adjudicated: bool,
    },
}

/// A player of the tournament.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerView {
    pub player_id: Uuid,
    pub name: String,
    pub withdrawn: bool,
    /// Rounds already paired when they joined (late join; addition).
    #[serde(default)]
    pub joined_after_round: u32,
    /// Added by a director by name, without a device: the director acts for them
    /// (addition).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub added_by_director: bool,
    /// A rated tournament's seeding (docs/ratings.md#rated-tournaments, an addition): the
    /// player's place in the initial order (1 = the top seed) once the field is seeded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u32>,
    /// The rating the player was seeded with, kept as it was then (absent: not seeded,
    /// or a person without an account, who is not rated).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed_rating: Option<i32>,
}

/// `paired`, `playing` or `finished`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RoundStatus {
    Paired,
    Playing,
    Finished,
}

/// One player's result on a sheet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PlayerResult {
    Won,
    Drawn,
    Lost,
    Annulled,
    Bye,
    ForfeitWon,
    ForfeitLost,
    AdjudicatedWon,
    AdjudicatedDrawn,
    AdjudicatedLost,
}

impl PlayerResult {
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            PlayerResult::Won => "won",
            PlayerResult::Drawn => "drawn",
            PlayerResult::Lost => "lost",
            PlayerResult::Annulled => "annulled",
            PlayerResult::Bye => "bye",
            PlayerResult::ForfeitWon => "forfeit-won",
            PlayerResult::ForfeitLost => "forfeit-lost",
            PlayerResult::AdjudicatedWon => "adjudicated-won",
            PlayerResult::AdjudicatedDrawn => "adjudicated-drawn",
            PlayerResult::AdjudicatedLost => "adjudicated-lost",
        }
    }
}

/// `pending`, `confirmed`, `disputed` or `corrected`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SheetStatus {
    Pending,
    Confirmed,
    Disputed,
    Corrected,
}

/// A sheet's result: what a correction changes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResultView {
    pub first_result: PlayerResult,
    pub second_result: Option<PlayerResult>,
    pub victory: Option<String>,
}

/// One correction by the director, kept with the sheet.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CorrectionView {
    pub at_ms: u64,
    pub by: Uuid,
    pub by_name: String,
    pub reason: String,
    pub before: ResultView,
    pub after: ResultView,
}

/// A score sheet (docs/rules.md#51-score-sheets).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SheetView {
    pub status: SheetStatus,
    pub first_result: PlayerResult,
    /// `null` for a bye.
    pub second_result: Option<PlayerResult>,
    pub victory: Option<String>,
    pub seeds: PerPlayer<u64>,
    pub turns: u32,
    pub duration_ms: u64,
    pub points: PerPlayer<f64>,
    pub corrections: Vec<CorrectionView>,
    // -- additions --
    /// The game this sheet is for (`null` for a bye or a forfeit without a game).
    #[serde(default)]
    pub game_id: Option<Uuid>,
    /// Who moved first in the game (`null` without a game).
    #[serde(default)]
    pub moved_first: Option<Uuid>,
    /// The players who confirmed it.
    #[serde(default)]
    pub confirmed_by: Vec<Uuid>,
    #[serde(default)]
    pub dispute: Option<DisputeView>,
    /// When it confirms itself unless disputed (ms since the epoch; `null` once settled).
    #[serde(default)]
    pub confirms_at: Option<u64>,
    /// A free setup's arrangements (docs/rules.md#11-setup); absent for a preset start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arrangements: Option<ArrangementsView>,
    /// Entered at the board by its players (or the director), not filled in by the
    /// server from a game: nothing confirms it but their initials (addition).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub over_the_board: bool,
    /// A board table's adjudication in Omweso or Mweiso: the seeds on each side of the
    /// board it was decided on (addition).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seeds_on_board: Option<PerPlayer<u64>>,
}

/// The two arrangements of a free setup on a score sheet (addition): each player's 16
/// counts in their side's own anticlockwise pit order (0..7 the outer row), as `arrange`
/// takes it, and whether the referee placed it, their time being up.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ArrangementsView {
    pub first: [u8; 16],
    pub second: [u8; 16],
    pub late: PerPlayer<bool>,
}

/// A game of a pairing replaced by a replay (it was annulled), with its sheet (addition).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReplacedGame {
    pub game_id: Uuid,
    pub sheet: Option<SheetView>,
}

/// One table of a round.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairingView {
    pub table: u32,
    pub first: Uuid,
    pub second: Option<Uuid>,
    pub game_id: Option<Uuid>,
    pub sheet: Option<SheetView>,
    /// Earlier games of this table, annulled and replayed (addition).
    #[serde(default)]
    pub replaced: Vec<ReplacedGame>,
    /// Where it is played (addition).
    #[serde(default)]
    pub played_at: PlayedAt,
    /// Over the board: its entries, relay and what it waits for (addition).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<BoardTableView>,
}

/// A round.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RoundView {
    pub number: u32,
    pub status: RoundStatus,
    pub deadline: Option<u64>,
    pub pairings: Vec<PairingView>,
    // -- additions --
    /// Paired or edited by hand.
    #[serde(default)]
    pub manual: bool,
    /// The breaches of the absolute rules the director confirmed.
    #[serde(default)]
    pub breaches: Vec<String>,
    #[serde(default)]
    pub started_at: Option<u64>,
    /// The time is up (or the director ended it): unfinished games are being adjudicated.
    #[serde(default)]
    pub closing: bool,
    /// The director ended the round before its time ("End round now").
    #[serde(default)]
    pub ended_by_director: bool,
}

/// A line of the standings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StandingView {
    pub rank: u32,
    pub player_id: Uuid,
    pub name: String,
    pub points: f64,
    pub buchholz: f64,
    pub sonneborn_berger: f64,
    pub seeds: u64,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Points against the other tied players, when they all met (addition).
    #[serde(default)]
    pub direct: f64,
}

/// The tournament snapshot (`GET /api/tournaments/{id}` and the socket's `state`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TournamentSnapshot {
    pub tournament_id: Uuid,
    pub name: String,
    pub ruleset: Ruleset,
    pub system: System,
    pub settings: SettingsView,
    pub status: TournamentStatus,
    pub director: Uuid,
    pub you: Option<Uuid>,
    pub players: Vec<PlayerView>,
    pub rounds: Vec<RoundView>,
    pub standings: Vec<StandingView>,
    pub version: u64,
    // -- additions --
    /// The number of rounds the tournament will have (Swiss: as set; round-robin: from the
    /// field once the first round is paired).
    pub rounds_planned: u32,
    pub created_at_ms: u64,
    /// The director's name (addition): it follows their renames.
    #[serde(default)]
    pub director_name: String,
    /// The co-directors (addition): they have the console too.
    #[serde(default)]
    pub co_directors: Vec<CoDirectorView>,
}

/// A co-director of a tournament (docs/tournaments.md, "Directors").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CoDirectorView {
    pub id: Uuid,
    pub name: String,
}

/// `POST /api/tournaments/{id}/co-directors` takes: the account to name co-director.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AddCoDirector {
    pub username: String,
}

/// `POST /api/tournaments/{id}/co-directors/accept` takes: an invite's code.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AcceptCoDirectorInvite {
    pub code: String,
}

/// The co-director calls answer the list as it stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CoDirectorList {
    pub co_directors: Vec<CoDirectorView>,
}

/// `POST /api/tournaments/{id}/co-director-invites` answers: a one-time code, shown once.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CoDirectorInvite {
    /// `XXXX-XXXX`; typed with or without the dash, in any case.
    pub code: String,
    pub expires_at_ms: u64,
}

/// One thing a director or co-director did (`GET /api/tournaments/{id}/actions`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DirectorAction {
    /// The log entry's number.
    pub seq: i64,
    pub at_ms: u64,
    /// The log entry's kind (`pair`, `start`, `end_round`, `sheet`, ...).
    pub kind: String,
    pub by: Uuid,
    /// Their name when they did it.
    pub by_name: String,
    /// What was done, in words.
    pub summary: String,
}

/// `GET /api/tournaments/{id}/actions` answers, oldest first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DirectorActions {
    pub actions: Vec<DirectorAction>,
}

/// A sheet changed (`sheet` event).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SheetChanged {
    pub round: u32,
    pub table: u32,
    pub game_id: Option<Uuid>,
    pub sheet: SheetView,
}

/// The standings changed (`standings` event).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StandingsChanged {
    pub standings: Vec<StandingView>,
}

/// The tournament's status changed (`status` event).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatusChanged {
    pub status: TournamentStatus,
}

/// The versioned events of a tournament socket.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "t", content = "d", rename_all = "lowercase")]
pub enum TournamentEvent {
    /// A player joined, or withdrew (`withdrawn` set).
    Player(PlayerView),
    /// A round was paired, edited, started (games seated), a game replayed, or it ended.
    Round(RoundView),
    /// Boxed: a sheet is the largest event by far, and the others are many.
    Sheet(Box<SheetChanged>),
    Standings(StandingsChanged),
    Status(StatusChanged),
    /// The co-directors changed, or the director's name (addition).
    Directors(DirectorsChanged),
    /// A rated tournament seeded players (addition): every player, with their seed.
    Players(PlayersChanged),
    /// A director's code gave a player a new device (addition): the console shows the
    /// code as used.
    #[serde(rename = "device_linked")]
    DeviceLinked(DeviceLinked),
}

/// A player's new device linked by a director's code (`device_linked` event).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeviceLinked {
    pub player_id: Uuid,
    pub at_ms: u64,
}

/// The players as they stand (`players` event, addition): sent when a rated tournament's
/// seeding gave them their places in the initial order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayersChanged {
    pub players: Vec<PlayerView>,
}

/// Who runs the tournament (`directors` event): the director's name and the co-directors,
/// as the snapshot has them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DirectorsChanged {
    pub director_name: String,
    pub co_directors: Vec<CoDirectorView>,
}

/// A live table (`board`, unversioned, a few a second at most per table).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BoardView {
    pub table: u32,
    pub game_id: Uuid,
    pub position: Option<String>,
    pub to_move: Option<Side>,
    pub last_move: Option<String>,
    pub clock: ClockView,
    pub outcome: Option<Outcome>,
    // -- additions --
    pub round: u32,
    /// The game's event version this shows.
    pub version: u64,
    pub status: Status,
}

/// The live tables whose board changed in one period (`boards`, unversioned, an
/// addition): each element what a `board` message's `d` is, in table order. A period in
/// which only one table changed sends that table's `board` instead, which a v1 client reads.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BoardsView {
    pub boards: Vec<BoardView>,
}

/// Who of the tournament is here (`presence`, unversioned, an addition): its players and
/// its director with the tournament's socket open, and the players connected to their
/// game being played in it. Sorted, so that an unchanged list is the same text.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PresenceView {
    pub connected: Vec<Uuid>,
}

/// The unversioned messages of a tournament socket.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "t", content = "d", rename_all = "lowercase")]
pub enum TournamentReply {
    State(Box<TournamentSnapshot>),
    Board(BoardView),
    Boards(BoardsView),
    Presence(PresenceView),
    Error(ErrorReply),
    Pong(Empty),
}

/// Any message of a tournament socket.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum TournamentMessage {
    Event(TournamentEvent),
    Reply(TournamentReply),
}

/// One frame of a tournament socket: `{"t":..,"d":..}`, `"v"` on events and `state`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TournamentFrame {
    #[serde(flatten)]
    pub message: TournamentMessage,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub v: Option<u64>,
}

impl TournamentFrame {
    #[must_use]
    pub fn event(v: u64, event: TournamentEvent) -> TournamentFrame {
        TournamentFrame {
            message: TournamentMessage::Event(event),
            v: Some(v),
        }
    }

    #[must_use]
    pub fn state(snapshot: TournamentSnapshot) -> TournamentFrame {
        let v = snapshot.version;
        TournamentFrame {
            message: TournamentMessage::Reply(TournamentReply::State(Box::new(snapshot))),
            v: Some(v),
        }
    }

    #[must_use]
    pub fn board(board: BoardView) -> TournamentFrame {
        TournamentFrame {
            message: TournamentMessage::Reply(TournamentReply::Board(board)),
            v: None,
        }
    }

    /// Several tables' boards in one message (see [`BoardsView`]).
    #[must_use]
    pub fn boards(boards: Vec<BoardView>) -> TournamentFrame {
        TournamentFrame {
            message: TournamentMessage::Reply(TournamentReply::Boards(BoardsView { boards })),
            v: None,
        }
    }

    /// The live tables' boards as one message: none, nothing; one table, its `board` (what
    /// a v1 client reads); more, one `boards` with them sorted by table (then game, for a
    /// replayed table's old game), so that the same boards are the same text.
    #[must_use]
    pub fn live_boards(mut boards: Vec<BoardView>) -> Option<TournamentFrame> {
        match boards.len() {
            0 => None,
            1 => boards.pop().map(TournamentFrame::board),
            _ => {
                boards.sort_by_key(|b| (b.round, b.table, b.game_id));
                Some(TournamentFrame::boards(boards))
            }
        }
    }

    /// `connected` as it is to be shown: sorted (see [`PresenceView`]).
    #[must_use]
    pub fn presence(connected: Vec<Uuid>) -> TournamentFrame {
        TournamentFrame {
            message: TournamentMessage::Reply(TournamentReply::Presence(PresenceView {
                connected,
            })),
            v: None,
        }
    }

    #[must_use]
    pub fn pong() -> TournamentFrame {
        TournamentFrame {
            message: TournamentMessage::Reply(TournamentReply::Pong(Empty {})),
            v: None,
        }
    }

    #[must_use]
    pub fn error(code: super::ErrorCode, message: impl Into<String>) -> TournamentFrame {
        TournamentFrame {
            message: TournamentMessage::Reply(TournamentReply::Error(ErrorReply {
                id: None,
                code,
                message: message.into(),
            })),
            v: None,
        }
    }

    /// The frame's JSON text.
    #[must_use]
    pub fn to_text(&self) -> String {
        super::to_text(self)
    }
}
