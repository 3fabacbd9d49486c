//! One game's rules state and referee clock: a pure state machine. Every change comes in as
//! an action with the time it happened and goes out as versioned [`Event`]s; nothing here
//! reads a clock or does I/O. That is what lets the server rebuild a game after a restart
//! by replaying its logged actions, and lets tests drive time exactly.

use omweso_rules::{Arrangement, Outcome, Rules, Side};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use omweso_protocol::config::GameConfig;
use omweso_protocol::{Computer, ErrorCode, Event, HistoryEntry, Status};
use omweso_rules::Game;

/// A seated player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seat {
    pub player: Uuid,
    pub name: String,
}

/// What a player asks of the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Action {
    Move {
        notation: String,
    },
    Decide {
        choice: String,
    },
    Arrange {
        pits: Vec<u64>,
    },
    Resign,
    /// Propose to stop at an Oware impasse (docs/rules.md#3-oware-abapa).
    Impasse,
    /// Answer the opponent's standing proposal.
    #[serde(rename = "impasse_answer")]
    ImpasseAnswer {
        accept: bool,
    },
}

impl Action {
    /// The table's action a client message asks for; `None` for `ping`, which is the
    /// socket's business.
    #[must_use]
    pub fn from_message(message: omweso_protocol::ClientMessage) -> Option<Action> {
        use omweso_protocol::ClientMessage;
        match message {
            ClientMessage::Move(m) => Some(Action::Move { notation: m.mv }),
            ClientMessage::Decide(d) => Some(Action::Decide { choice: d.choice }),
            ClientMessage::Arrange(a) => Some(Action::Arrange { pits: a.pits }),
            ClientMessage::Resign(_) => Some(Action::Resign),
            ClientMessage::Impasse(_) => Some(Action::Impasse),
            ClientMessage::ImpasseAnswer(a) => Some(Action::ImpasseAnswer { accept: a.accept }),
            ClientMessage::Ping(_) => None,
        }
    }
}

/// A refused action: nothing changed.
pub use omweso_protocol::refusal::Refusal;

fn refuse(code: ErrorCode, message: impl Into<String>) -> Refusal {
    Refusal::new(code, message)
}

/// What [`Table::legal_query`] answers: each side that may start a turn with the board it
/// would sow on, and the turn's seed budget.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LegalQuery {
    pub sides: Vec<(Side, Game)>,
    pub budget: u64,
}

mod adjudicate;
mod arranging;
mod clock;
mod computer;
mod display;
mod facts;
#[cfg(test)]
mod fixtures;
mod impasse;
mod pending;
mod referee;
mod relay;
mod relay_mark;
mod setup;
mod snapshot;
mod tally;
mod turn;

use clock::Clock;
pub use computer::ComputerDue;
pub use display::{display_ms, DISPLAY_MAX_MS};
pub use facts::GameFacts;
use pending::PendingTurn;
pub use relay::{RelayAction, RELAY_UNDO_DEPTH};
use relay_mark::RelayMark;
use tally::Tally;

/// What [`Table::rollback`] needs to undo the changes made after [`Table::savepoint`]: a
/// copy of the table without its move history (which only ever grows), and the history's
/// length.
#[derive(Debug)]
pub struct Savepoint {
    table: Table,
    history_len: usize,
}

/// One game.
#[derive(Clone, Debug)]
pub struct Table {
    id: Uuid,
    config: GameConfig,
    creator: Uuid,
    seats: [Option<Seat>; 2],
    status: Status,
    board: Option<Game>,
    arrangements: [Option<Arrangement>; 2],
    pending: Option<PendingTurn>,
    history: Vec<HistoryEntry>,
    outcome: Option<Outcome>,
    version: u64,
    clock: Clock,
    created_at_ms: u64,
    /// Captures, turns, start and end, for the score sheet ([`Table::facts`]).
    tally: Tally,
    /// The seat the computer plays, and how strongly ([`Table::seat_computer`]).
    computer: Option<(Side, Computer)>,
    /// When the table last changed in a way that is logged (a join, an action, a tick
    /// that fired, a presence change): what a restart knows of when the server stopped.
    last_change_ms: u64,
    /// Oware: the proposal to stop at an impasse standing now, or the accepted one that
    /// ended the game ([`Table::propose_impasse`]).
    impasse: Option<omweso_protocol::Impasse>,
    /// Oware: the side whose proposal to stop was declined, who may not propose again
    /// before playing a turn (a proposal asked again and again would fill the log).
    impasse_declined: Option<Side>,
    /// A relayed game: the table as it was before each of the relay's last entries, the
    /// latest last, at most [`RELAY_UNDO_DEPTH`] ([`Table::relay`]).
    relay_marks: std::collections::VecDeque<RelayMark>,
}

impl Table {
    /// A new game with its creator seated.
    #[must_use]
    pub fn new(id: Uuid, config: GameConfig, creator: Seat, side: Side, now: u64) -> Table {
        let mut seats: [Option<Seat>; 2] = [None, None];
        seats[side.index()] = Some(creator);
        Table {
            id,
            config,
            creator: seats[side.index()]
                .as_ref()
                .map_or(Uuid::nil(), |s| s.player),
            seats,
            status: Status::Setup,
            board: None,
            arrangements: [None, None],
            pending: None,
            history: Vec::new(),
            outcome: None,
            version: 0,
            clock: Clock::default(),
            created_at_ms: now,
            tally: Tally::default(),
            computer: None,
            last_change_ms: now,
            impasse: None,
            impasse_declined: None,
            relay_marks: std::collections::VecDeque::new(),
        }
    }

    /// A point to come back to with [`rollback`](Table::rollback) if what follows cannot
    /// be saved. Cheaper than a clone, which the server made before every action: the move
    /// history is not copied.
    #[must_use]
    pub fn savepoint(&self) -> Savepoint {
        let table = Table {
            id: self.id,
            config: self.config.clone(),
            creator: self.creator,
            seats: self.seats.clone(),
            status: self.status,
            board: self.board,
            arrangements: self.arrangements,
            pending: self.pending.clone(),
            // A relay's undo shortens the history: a relayed game's point keeps all of it.
            history: if self.config.relayed {
                self.history.clone()
            } else {
                Vec::new()
            },
            outcome: self.outcome,
            version: self.version,
            clock: self.clock,
            created_at_ms: self.created_at_ms,
            tally: self.tally,
            computer: self.computer,
            last_change_ms: self.last_change_ms,
            impasse: self.impasse,
            impasse_declined: self.impasse_declined,
            relay_marks: self.relay_marks.clone(),
        };
        Savepoint {
            table,
            history_len: self.history.len(),
        }
    }

    /// Undoes every change made since `point` was taken from this table.
    pub fn rollback(&mut self, point: Savepoint) {
        if self.config.relayed {
            // Its point holds the whole history (an undo may have shortened it since).
            *self = point.table;
            return;
        }
        let mut history = std::mem::take(&mut self.history);
        history.truncate(point.history_len);
        *self = point.table;
        self.history = history;
    }

    #[must_use]
    pub fn id(&self) -> Uuid {
        self.id
    }

    #[must_use]
    pub fn config(&self) -> &GameConfig {
        &self.config
    }

    /// The player who created the game.
    #[must_use]
    pub fn creator(&self) -> Uuid {
        self.creator
    }

    /// When the game was created, ms since the Unix epoch.
    #[must_use]
    pub fn created_at_ms(&self) -> u64 {
        self.created_at_ms
    }

    #[must_use]
    pub fn status(&self) -> Status {
        self.status
    }

    #[must_use]
    pub fn version(&self) -> u64 {
        self.version
    }

    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    #[must_use]
    pub fn seat(&self, side: Side) -> Option<&Seat> {
        self.seats[side.index()].as_ref()
    }

    /// The seat `player` holds, if any.
    #[must_use]
    pub fn seat_of(&self, player: Uuid) -> Option<Side> {
        Side::ALL.into_iter().find(|s| {
            self.seats[s.index()]
                .as_ref()
                .is_some_and(|x| x.player == player)
        })
    }

    /// The position string, once the board is set up.
    #[must_use]
    pub fn position(&self) -> Option<String> {
        self.board.map(|b| b.to_string())
    }

    fn rules(&self) -> Rules {
        let mut rules = Rules::for_ruleset(self.config.ruleset).unwrap_or(Rules::OMWESO);
        rules.akakyala =
            rules.variant == omweso_rules::Variant::Omweso && self.config.time_control.akakyala;
        rules
    }

    /// The time control the referee keeps: the game's, but none of its clocks in a
    /// relayed game, whose players are at a wooden board (docs/rules.md#57-over-the-board-play-and-relays):
    /// no referee count, no move limit (a turn's budget is then the server's cap alone),
    /// no arrangement limit.
    #[must_use]
    pub fn time_control(&self) -> omweso_protocol::config::TimeControl {
        let mut tc = self.config.time_control;
        if self.config.relayed {
            tc.referee_seconds = None;
            tc.move_limit_seconds = None;
            tc.arrange_seconds = None;
        }
        tc
    }

    fn budget(&self, used_ms: u64) -> Option<u64> {
        Some(self.time_control().budget(used_ms))
    }

    /// Who may start a turn now, each with the board they would sow on, and the turn's
    /// budget: what listing `protocol::Legal` needs. Empty when nobody may start a turn (the game
    /// is not being played, or a turn waits for a decision). The listing itself is the
    /// caller's (it is the heaviest engine work the server does for a move, done off the
    /// game's task).
    #[must_use]
    pub fn legal_query(&self) -> LegalQuery {
        let mut sides = Vec::new();
        if let (Status::Playing, None, Some(board)) = (self.status, &self.pending, self.board) {
            for side in Side::ALL {
                if board.may_move(side) {
                    sides.push((side, board));
                }
            }
            if let (true, Some(victim)) = (self.clock.steal_open, board.to_move()) {
                let thief = victim.other();
                sides.push((thief, board.with_side_to_move(thief)));
            }
        }
        LegalQuery {
            sides,
            budget: self.time_control().budget(0),
        }
    }

    /// Whole moves played so far.
    #[must_use]
    pub fn moves_played(&self) -> usize {
        self.history.len()
    }

    /// The whole moves played so far, in order.
    #[must_use]
    pub fn history(&self) -> &[HistoryEntry] {
        &self.history
    }

    /// Records `events`, giving each the next version.
    fn emit(&mut self, events: Vec<Event>) -> Vec<(u64, Event)> {
        events
            .into_iter()
            .map(|e| {
                self.version += 1;
                (self.version, e)
            })
            .collect()
    }

    /// Carries out a player's action at time `now`.
    pub fn act(
        &mut self,
        side: Side,
        action: &Action,
        now: u64,
    ) -> Result<Vec<(u64, Event)>, Refusal> {
        if self.seats[side.index()].is_none() {
            return Err(refuse(ErrorCode::NotSeated, "that seat is empty"));
        }
        let events = match action {
            Action::Resign => self.resign(side, now)?,
            Action::Arrange { pits } => self.arrange(side, pits, now)?,
            Action::Move { notation } => self.play(side, notation, now)?,
            Action::Decide { choice } => self.decide(side, choice, now)?,
            Action::Impasse => self.propose_impasse(side)?,
            Action::ImpasseAnswer { accept } => self.answer_impasse(side, *accept, now)?,
        };
        self.last_change_ms = now;
        Ok(self.emit(events))
    }
}
