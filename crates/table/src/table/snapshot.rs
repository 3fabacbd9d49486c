//! The game as a viewer sees it: the snapshot (`state`, `GET /api/games/{id}`) and the
//! lobby's summary.

use omweso_rules::Side;

use super::turn::options;
use super::Table;
use omweso_protocol::lobby::{ComputerSeat, GameSummary, SeatNames};
use omweso_protocol::{Arrangements, ClockView, Legal, SeatView, Seats, Snapshot};

impl Table {
    /// The snapshot as `you` sees it; `connected`, `spectators` and the legal moves (as
    /// [`Table::legal_query`] asks for them) come from the caller.
    #[must_use]
    pub fn snapshot(
        &self,
        you: Option<Side>,
        connected: [bool; 2],
        spectators: usize,
        legal: &Legal,
    ) -> Snapshot {
        let seat_view = |side: Side| {
            let computer = self.computer.filter(|(s, _)| *s == side).map(|(_, c)| c);
            self.seats[side.index()].as_ref().map(|s| SeatView {
                name: s.name.clone(),
                // The computer is always at the table.
                connected: connected[side.index()] || computer.is_some(),
                computer,
                // The server's game task fills in the ratings.
                rating: None,
                rating_change: None,
            })
        };
        let board = self.board;
        let pending = self.pending.as_ref();
        // The contract's `legal_moves`: the side to move's (yours in Mweiso's opening).
        let listed = board
            .and_then(|b| b.to_move().or(you.filter(|&s| b.may_move(s))))
            .and_then(|side| legal.side(side));
        Snapshot {
            game_id: self.id,
            ruleset: self.config.ruleset,
            setup: self.config.setup,
            time_control: self.time_control(),
            status: self.status,
            position: self.shown_position(),
            to_move: self.shown_to_move(),
            opening: board.map(|b| b.opening_owed()).unwrap_or_default(),
            seats: Seats {
                s: seat_view(Side::South),
                n: seat_view(Side::North),
            },
            you,
            legal_moves: listed.map(|l| l.moves.clone()).unwrap_or_default(),
            legal_moves_starts_only: listed.is_some_and(|l| l.starts_only),
            legal: legal.clone(),
            pending: pending.and_then(|p| p.turn.pending_decision().map(|d| options(&d, p.by))),
            pending_results: pending.map(|p| p.results.clone()),
            pending_move: pending.map(|p| p.tokens.join("/")),
            clock: self.clock(),
            history: self.history.clone(),
            outcome: self.outcome,
            spectators,
            version: self.version,
            created_at_ms: self.created_at_ms,
            arrangements: Arrangements {
                s: self.arrangements[0].map(|a| a.counts()),
                n: self.arrangements[1].map(|a| a.counts()),
            },
            impasse: self.impasse_view(),
            relayed: self.config.relayed,
            rated: self.config.rated,
            tournament: self.config.tournament,
        }
    }

    /// The position as viewers see it: while a turn waits at a decision, the board as that
    /// turn left it so far.
    #[must_use]
    pub fn shown_position(&self) -> Option<String> {
        match &self.pending {
            Some(p) => Some(self.board_during(&p.turn)),
            None => self.board.map(|b| b.to_string()),
        }
    }

    /// Who plays now as viewers see it: the player of a turn waiting at a decision, else
    /// the side to move; nobody once the game is over (or in Mweiso's opening).
    #[must_use]
    pub fn shown_to_move(&self) -> Option<Side> {
        if self.status.is_over() {
            return None;
        }
        let pending = self.pending.as_ref().map(|p| p.by);
        pending.or(self.board.and_then(|b| b.to_move()))
    }

    /// The referee's clock as clients see it.
    #[must_use]
    pub fn clock(&self) -> ClockView {
        self.clock_view()
    }

    /// The notation of the last whole move played, if any.
    #[must_use]
    pub fn last_move(&self) -> Option<&str> {
        self.history.last().map(|h| h.mv.as_str())
    }

    /// The game as the lobby lists it.
    #[must_use]
    pub fn summary(&self, spectators: usize) -> GameSummary {
        let name = |side: Side| self.seats[side.index()].as_ref().map(|s| s.name.clone());
        GameSummary {
            game_id: self.id,
            ruleset: self.config.ruleset,
            setup: self.config.setup,
            status: self.status,
            seats: SeatNames {
                s: name(Side::South),
                n: name(Side::North),
            },
            time_control: self.time_control(),
            spectators,
            moves: self.history.len(),
            created_at_ms: self.created_at_ms,
            creator: self.creator,
            computer: self.computer.map(|(seat, c)| ComputerSeat {
                seat,
                level: c.level,
            }),
            rated: self.config.rated,
            // The server's game task fills them in.
            ratings: omweso_protocol::ratings::SeatRatings::default(),
        }
    }
}
