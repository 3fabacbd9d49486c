//! The lobby socket on the wire (`GET /ws/lobby`, an addition in `docs/protocol.md`): the
//! lists `GET /api/games?list=` and `GET /api/tournaments?list=` answer, pushed in one
//! `lobby` message whenever one of them changes, so that a browser need not poll them.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::client::Empty;
use super::server::ErrorReply;
use super::tournament::TournamentSummary;
use crate::config::{SetupKind, TimeControl};
use crate::Status;

/// The tournaments by status, each list exactly as `GET /api/tournaments?list=` answers it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentLists {
    pub open: Vec<TournamentSummary>,
    pub running: Vec<TournamentSummary>,
    pub finished: Vec<TournamentSummary>,
}

/// The whole lobby (`lobby`'s `d`): the games as `GET /api/games?list=open|live` lists
/// them, and the tournaments.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LobbyView {
    pub open_games: Vec<GameSummary>,
    pub live_games: Vec<GameSummary>,
    pub tournaments: TournamentLists,
}

/// Every message of a lobby socket. None is versioned: each `lobby` replaces the last.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "t", content = "d", rename_all = "lowercase")]
pub enum LobbyFrame {
    Lobby(Box<LobbyView>),
    Error(ErrorReply),
    Pong(Empty),
}

impl LobbyFrame {
    #[must_use]
    pub fn lobby(view: LobbyView) -> LobbyFrame {
        LobbyFrame::Lobby(Box::new(view))
    }

    #[must_use]
    pub fn pong() -> LobbyFrame {
        LobbyFrame::Pong(Empty {})
    }

    #[must_use]
    pub fn error(code: super::ErrorCode, message: impl Into<String>) -> LobbyFrame {
        LobbyFrame::Error(ErrorReply {
            id: None,
            code,
            message: message.into(),
        })
    }

    /// The frame's JSON text.
    #[must_use]
    pub fn to_text(&self) -> String {
        super::to_text(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn frames_have_the_envelope_of_the_other_sockets() {
        let empty = LobbyFrame::lobby(LobbyView::default()).to_text();
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&empty).unwrap(),
            json!({"t":"lobby","d":{"open_games":[],"live_games":[],
                "tournaments":{"open":[],"running":[],"finished":[]}}})
        );
        assert_eq!(LobbyFrame::pong().to_text(), r#"{"t":"pong","d":{}}"#);
        assert_eq!(
            LobbyFrame::error(super::super::ErrorCode::UnknownType, "no").to_text(),
            r#"{"t":"error","d":{"code":"unknown_type","message":"no"}}"#
        );
    }
}

/// One game as the lobby shows it (`GET /api/games?list=`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameSummary {
    pub game_id: Uuid,
    pub ruleset: omweso_rules::Ruleset,
    pub setup: SetupKind,
    pub status: crate::Status,
    pub seats: SeatNames,
    pub time_control: TimeControl,
    pub spectators: usize,
    pub moves: usize,
    #[serde(skip)]
    pub created_at_ms: u64,
    /// Who created the game (for the open-games limit; not shown).
    #[serde(skip, default = "Uuid::nil")]
    pub creator: Uuid,
    /// The seat the computer plays, in a game against it (addition; absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub computer: Option<ComputerSeat>,
    /// The game is rated (addition, docs/protocol.md#ratings-addition; absent when casual).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
    /// The seated accounts' ratings in the game's ruleset (addition; absent when none).
    #[serde(default, skip_serializing_if = "crate::ratings::SeatRatings::is_empty")]
    pub ratings: crate::ratings::SeatRatings,
}

/// The computer's seat in the lobby's entry: `{"seat":"n","level":3}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ComputerSeat {
    pub seat: omweso_rules::Side,
    pub level: crate::game::ComputerLevel,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatNames {
    pub s: Option<String>,
    pub n: Option<String>,
}

impl GameSummary {
    /// Waiting for a second player.
    #[must_use]
    pub fn is_open(&self) -> bool {
        self.status == Status::Setup && (self.seats.s.is_none() || self.seats.n.is_none())
    }
}
