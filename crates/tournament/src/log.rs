//! A tournament's append-only log: every change, with the time it happened, stored before
//! anyone is told of it. Replaying the entries through [`Tournament::apply`] rebuilds the
//! tournament exactly (same rounds, deadlines, sheets and versions), so nothing else of a
//! tournament is stored but the summary the lobby lists.
//!
//! [`Tournament::apply`]: super::state::Tournament::apply

use omweso_rules::Outcome;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::settings::Settings;
use super::sheet::GameFigures;
use omweso_protocol::over_the_board::{BoardResult, PlayedAt};

/// What a player or the director did to a sheet.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "lowercase")]
pub enum SheetAction {
    Confirm,
    Dispute {
        reason: String,
    },
    /// `outcome` in the game's seats.
    Correct {
        outcome: Outcome,
        reason: String,
        /// A sheet entered at the board: the seeds captured by the pairing's first and
        /// second player as they should stand (absent: unchanged).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seeds: Option<[u64; 2]>,
        /// A draw the director decided on the seeds (docs/rules.md#53-rounds), absent from
        /// the corrections logged before it could be said.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        adjudicated: bool,
    },
}

/// What a player (or a director) did to a board table's sheet
/// (docs/rules.md#57-over-the-board-play-and-relays).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "lowercase")]
pub enum BoardAction {
    /// The result as seen at the board; a director's makes the sheet at once, unless
    /// `as_player`: a director who plays at the table enters it as its player, for the
    /// other to initial (a director does not settle their own game; logs written before
    /// this have no such entry).
    Enter {
        result: BoardResult,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        as_player: bool,
    },
    /// The other player initials the entry standing.
    Confirm,
    /// A director initials the entry standing for `player`, one they added without a
    /// device (logged as the director's initials for them).
    #[serde(rename = "confirm_for")]
    ConfirmFor {
        player: Uuid,
    },
    Dispute {
        reason: String,
    },
}

/// A player's seed as a rated tournament logs it (docs/ratings.md#rated-tournaments):
/// their rating for the tournament's ruleset at that moment, rounded, or `None` for a
/// person without an account (not rated, seeded below every rated player).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeedRating {
    pub player: Uuid,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<i32>,
}

/// One pairing as logged: player ids, `None` for the bye.
pub type LoggedPairing = (Uuid, Option<Uuid>);

/// One logged change.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Entry {
    Create {
        settings: Box<Settings>,
        director: Uuid,
        director_name: String,
    },
    Join {
        player: Uuid,
        name: String,
    },
    Withdraw {
        player: Uuid,
        by: Uuid,
    },
    /// Round `round` paired (or its pairing replaced by the director before its start),
    /// in table order.
    Pair {
        round: u32,
        pairings: Vec<LoggedPairing>,
        manual: bool,
        /// The breaches of the absolute rules the director confirmed.
        breaches: Vec<String>,
        /// The director or co-director who paired it (`None` in logs written before
        /// co-directors: only the director could pair then).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by: Option<Uuid>,
    },
    /// Round `round` started: each table's game (`None`: a bye, or a forfeit because a
    /// player had withdrawn), created in the same transaction as this entry.
    Start {
        round: u32,
        games: Vec<Option<Uuid>>,
        deadline_ms: u64,
        /// Who started it (`None` in logs written before co-directors: the director).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by: Option<Uuid>,
    },
    /// A game of the tournament ended. `replay`: the game was annulled with time left,
    /// and this new game (created with this entry) replays it with the first move swapped.
    GameEnd {
        game_id: Uuid,
        outcome: Outcome,
        /// Turns per game seat (South first): who never moved.
        moves: [u32; 2],
        /// Captures per game seat, turns in all and the game's duration.
        figures: GameFigures,
        replay: Option<Uuid>,
        /// When the game ended (the entry's own time may be later: after a restart, or
        /// a save tried again): the replay and the sheet's 60 s count from it.
        #[serde(default)]
        ended_at_ms: Option<u64>,
        /// Stopped at the round's deadline and decided on material (a draw says so only
        /// here).
        #[serde(default)]
        adjudicated: bool,
    },
    Sheet {
        game_id: Uuid,
        by: Uuid,
        action: SheetAction,
    },
    /// The director ended the round early: its unfinished games are adjudicated.
    EndRound {
        round: u32,
        by: Uuid,
    },
    /// The director replaced the forbidden pairs (docs/rules.md#54-pairing rule 2): they keep apart
    /// the rounds paired from then on.
    ForbiddenPairs {
        pairs: Vec<[Uuid; 2]>,
        by: Uuid,
    },
    /// The director named `player` (found by their username) a co-director.
    CoDirectorAdded {
        player: Uuid,
        name: String,
        by: Uuid,
    },
    /// A director made a one-time invite to become a co-director: only the code's SHA-256
    /// (hex) is kept, so the log never holds a code anyone could still use.
    CoDirectorInvited {
        code_hash: String,
        expires_at_ms: u64,
        by: Uuid,
    },
    /// `player` used the invite whose code hashes to `code_hash`: a co-director now.
    CoDirectorAccepted {
        code_hash: String,
        player: Uuid,
        name: String,
    },
    /// The director removed a co-director.
    CoDirectorRemoved {
        player: Uuid,
        by: Uuid,
    },
    /// A person of the tournament (a player, the director or a co-director) changed
    /// their name: the standings, pairings and snapshot show the new one.
    Rename {
        player: Uuid,
        name: String,
    },
    /// A director gave `player` a one-time code to make another device theirs (the code
    /// itself is never logged: only that it was given, and by whom).
    DeviceCode {
        player: Uuid,
        by: Uuid,
    },
    /// A director's code for `player` was used: a device is now theirs, in this
    /// tournament only (the console shows the code as used).
    DeviceLinked {
        player: Uuid,
    },
    /// Where a table (`None`: every table) of a round not started yet is played.
    PlayedAt {
        round: u32,
        table: Option<u32>,
        played_at: PlayedAt,
        by: Uuid,
    },
    /// A director added `player`, a person without a device made with this entry, by
    /// name: the director acts for them.
    AddPlayer {
        player: Uuid,
        name: String,
        by: Uuid,
    },
    /// A player or a director entered, initialled or disputed a board table's result.
    BoardSheet {
        round: u32,
        table: u32,
        by: Uuid,
        action: BoardAction,
    },
    /// A director made a one-time code that makes its user a board table's relay (only
    /// its SHA-256 is logged).
    RelayInvited {
        round: u32,
        table: u32,
        code_hash: String,
        expires_at_ms: u64,
        by: Uuid,
    },
    /// A board table's relay named (`relay` `None`: no relay now): by a director, or by
    /// whoever used the invite whose code hashes to `code_hash`. `game`: the table's game,
    /// created with this entry (its round is being played and had no game for it yet).
    Relay {
        round: u32,
        table: u32,
        relay: Option<Uuid>,
        name: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        code_hash: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by: Option<Uuid>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        game: Option<Uuid>,
    },
    /// A rated tournament seeds the players not seeded yet, before a pairing: the whole
    /// field before its first, a late joiner before the first pairing after they joined.
    /// The ratings are kept here, so a replay seeds the same way whatever the ratings
    /// have become since.
    Seed {
        ratings: Vec<SeedRating>,
    },
    /// Time passed: sheets confirm themselves, a round's time runs out.
    Tick,
    /// The standings changed by games' ends are sent, coalesced (at most every few
    /// seconds): logged like any event, so that a tournament rebuilt from its log has the
    /// same versions as the one its clients followed.
    Standings,
}

impl Entry {
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            Entry::Create { .. } => "create",
            Entry::Join { .. } => "join",
            Entry::Withdraw { .. } => "withdraw",
            Entry::Pair { .. } => "pair",
            Entry::Start { .. } => "start",
            Entry::GameEnd { .. } => "game_end",
            Entry::Sheet { .. } => "sheet",
            Entry::EndRound { .. } => "end_round",
            Entry::ForbiddenPairs { .. } => "forbidden_pairs",
            Entry::CoDirectorAdded { .. } => "co_director_added",
            Entry::CoDirectorInvited { .. } => "co_director_invited",
            Entry::CoDirectorAccepted { .. } => "co_director_accepted",
            Entry::CoDirectorRemoved { .. } => "co_director_removed",
            Entry::Rename { .. } => "rename",
            Entry::DeviceCode { .. } => "device_code",
            Entry::DeviceLinked { .. } => "device_linked",
            Entry::PlayedAt { .. } => "played_at",
            Entry::AddPlayer { .. } => "add_player",
            Entry::BoardSheet { .. } => "board_sheet",
            Entry::RelayInvited { .. } => "relay_invited",
            Entry::Relay { .. } => "relay",
            Entry::Seed { .. } => "seed",
            Entry::Tick => "tick",
            Entry::Standings => "standings",
        }
    }
}
