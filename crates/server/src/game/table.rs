//! One game's rules state and referee clock: a pure state machine. Every change comes in as
//! an action with the time it happened and goes out as versioned [`Event`]s; nothing here
//! reads a clock or does I/O. That is what lets the server rebuild a game after a restart
//! by replaying its logged actions, and lets tests drive time exactly.

use omweso_rules::{
    oware, Answer, Arrangement, Move, Outcome, Position, Progress, Rules, Ruleset, Side, Turn,
    Victory,
};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::board::GameBoard;
use super::config::{ms, GameConfig, SetupKind};
use super::laps::LapRecord;
use super::lobby::{GameSummary, SeatNames};
use crate::protocol::{
    Arrangements, ClockView, ErrorCode, Event, HistoryEntry, LapView, Legal, OptionResult, Played,
    SeatView, Seats, Snapshot, Status,
};

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
    Move { notation: String },
    Decide { choice: String },
    Arrange { pits: Vec<u64> },
    Resign,
}

impl Action {
    /// The table's action a client message asks for; `None` for `ping`, which is the
    /// socket's business.
    #[must_use]
    pub fn from_message(message: crate::protocol::ClientMessage) -> Option<Action> {
        use crate::protocol::ClientMessage;
        match message {
            ClientMessage::Move(m) => Some(Action::Move { notation: m.mv }),
            ClientMessage::Decide(d) => Some(Action::Decide { choice: d.choice }),
            ClientMessage::Arrange(a) => Some(Action::Arrange { pits: a.pits }),
            ClientMessage::Resign(_) => Some(Action::Resign),
            ClientMessage::Ping(_) => None,
        }
    }
}

/// A refused action: a protocol error code and what is wrong. Nothing changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub code: ErrorCode,
    pub message: String,
}

/// The longest refusal message, in characters: a message quotes what the client sent,
/// and a client may send 16 KiB of it.
const REFUSAL_MAX_CHARS: usize = 160;

fn refuse(code: ErrorCode, message: impl Into<String>) -> Refusal {
    let mut message = message.into();
    if let Some((cut, _)) = message.char_indices().nth(REFUSAL_MAX_CHARS) {
        message.truncate(cut);
        message.push('…');
    }
    Refusal { code, message }
}

/// What [`Table::legal_query`] answers: each side that may start a turn with the board it
/// would sow on, and the turn's seed budget.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LegalQuery {
    pub sides: Vec<(Side, GameBoard)>,
    pub budget: u64,
}

/// A turn waiting at a decision point.
#[derive(Clone, Debug)]
struct PendingTurn {
    turn: Turn,
    /// The player sowing (the stealer, for a stolen turn).
    by: Side,
    stolen: bool,
    tokens: Vec<String>,
    /// Milliseconds of the move-completion limit spent at decision points so far.
    waited_ms: u64,
    decision_since_ms: u64,
    /// What each option of the pending decision would do (worked out once, when the turn
    /// stops at it).
    results: Vec<OptionResult>,
}

#[derive(Clone, Copy, Debug, Default)]
struct Clock {
    referee_deadline_ms: Option<u64>,
    steal_open: bool,
    steal_since_ms: Option<u64>,
    move_deadline_ms: Option<u64>,
    /// Each seat's measured round trip, for the referee's latency allowance.
    latency_ms: [u64; 2],
}

/// The most the referee count is extended to make up for a player's latency.
const MAX_LATENCY_ALLOWANCE_MS: u64 = 1000;

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
    board: Option<GameBoard>,
    arrangements: [Option<Arrangement>; 2],
    pending: Option<PendingTurn>,
    history: Vec<HistoryEntry>,
    outcome: Option<Outcome>,
    version: u64,
    clock: Clock,
    created_at_ms: u64,
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
            history: Vec::new(),
            outcome: self.outcome,
            version: self.version,
            clock: self.clock,
            created_at_ms: self.created_at_ms,
        };
        Savepoint {
            table,
            history_len: self.history.len(),
        }
    }

    /// Undoes every change made since `point` was taken from this table.
    pub fn rollback(&mut self, point: Savepoint) {
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
        self.board.map(|b| b.notation())
    }

    fn rules(&self) -> Rules {
        let mut rules = Rules::for_ruleset(self.config.ruleset).unwrap_or(Rules::OMWESO);
        rules.akakyala =
            rules.variant == omweso_rules::Variant::Omweso && self.config.time_control.akakyala;
        rules
    }

    fn budget(&self, used_ms: u64) -> Option<u64> {
        Some(self.config.time_control.budget(used_ms))
    }

    /// Who may start a turn now, each with the board they would sow on, and the turn's
    /// budget: what listing [`Legal`] needs. Empty when nobody may start a turn (the game
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
            budget: self.config.time_control.budget(0),
        }
    }

    /// Whole moves played so far.
    #[must_use]
    pub fn moves_played(&self) -> usize {
        self.history.len()
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
            time_control: self.config.time_control,
            spectators,
            moves: self.history.len(),
            created_at_ms: self.created_at_ms,
            creator: self.creator,
        }
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

    /// Seats `seat` in the free place. A player already seated keeps their seat.
    pub fn join(&mut self, seat: Seat, now: u64) -> Result<(Side, Vec<(u64, Event)>), Refusal> {
        if let Some(side) = self.seat_of(seat.player) {
            return Ok((side, Vec::new()));
        }
        let Some(side) = Side::ALL
            .into_iter()
            .find(|s| self.seats[s.index()].is_none())
        else {
            return Err(refuse(ErrorCode::SeatsTaken, "both seats are taken"));
        };
        let mut events = vec![Event::Joined {
            seat: side,
            name: seat.name.clone(),
        }];
        self.seats[side.index()] = Some(seat);
        if let Some(preset) = self.config.setup.preset() {
            self.start(self.initial_board(preset, None), now, &mut events);
        }
        Ok((side, self.emit(events)))
    }

    fn initial_board(
        &self,
        preset: omweso_rules::Preset,
        arranged: Option<(Arrangement, Arrangement)>,
    ) -> GameBoard {
        match self.config.ruleset {
            Ruleset::Oware => GameBoard::Oware(oware::Position::start(Side::South)),
            _ => GameBoard::FourByEight(match arranged {
                Some((south, north)) => {
                    Position::from_arrangements(self.rules(), south, north, Side::South)
                }
                None => Position::start(self.rules(), preset, Side::South),
            }),
        }
    }

    fn start(&mut self, board: GameBoard, now: u64, events: &mut Vec<Event>) {
        self.board = Some(board);
        self.status = Status::Playing;
        self.new_turn(now);
        events.push(Event::Started {
            to_move: board.to_move(),
            position: board.notation(),
            clock: self.clock_view(),
            legal: Legal::default(),
        });
    }

    /// The turn passes: the referee count starts for the player to move.
    fn new_turn(&mut self, now: u64) {
        let mover = self.board.and_then(|b| b.to_move());
        self.clock.steal_open = false;
        self.clock.steal_since_ms = None;
        self.clock.move_deadline_ms = None;
        self.clock.referee_deadline_ms = match (self.config.time_control.referee_seconds, mover) {
            (Some(r), Some(mover)) => Some(
                now + ms(r) + self.clock.latency_ms[mover.index()].min(MAX_LATENCY_ALLOWANCE_MS),
            ),
            _ => None,
        };
    }

    fn clock_view(&self) -> ClockView {
        ClockView {
            referee_deadline: self.clock.referee_deadline_ms,
            steal_open: self.clock.steal_open,
            move_deadline: self.clock.move_deadline_ms,
        }
    }

    /// Records a seat's measured round trip (the referee allows up to 1 s of it).
    pub fn set_latency(&mut self, side: Side, round_trip_ms: u64) {
        self.clock.latency_ms[side.index()] = round_trip_ms;
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
            Action::Resign => self.resign(side)?,
            Action::Arrange { pits } => self.arrange(side, pits, now)?,
            Action::Move { notation } => self.play(side, notation, now)?,
            Action::Decide { choice } => self.decide(side, choice, now)?,
        };
        Ok(self.emit(events))
    }

    fn resign(&mut self, side: Side) -> Result<Vec<Event>, Refusal> {
        if self.status.is_over() {
            return Err(refuse(ErrorCode::GameOver, "the game is over"));
        }
        if self.seats.iter().any(Option::is_none) {
            return Err(refuse(
                ErrorCode::NotStarted,
                "nobody has joined yet: there is no opponent to resign to",
            ));
        }
        Ok(self.finish(Outcome::Win {
            winner: side.other(),
            victory: Victory::Resigned,
        }))
    }

    fn finish(&mut self, outcome: Outcome) -> Vec<Event> {
        self.outcome = Some(outcome);
        self.status = match outcome {
            Outcome::Annulled { .. } => Status::Annulled,
            _ => Status::Finished,
        };
        self.pending = None;
        self.clock = Clock {
            latency_ms: self.clock.latency_ms,
            ..Clock::default()
        };
        vec![Event::End { outcome }]
    }

    fn arrange(&mut self, side: Side, pits: &[u64], now: u64) -> Result<Vec<Event>, Refusal> {
        if self.config.setup != SetupKind::Free {
            return Err(refuse(
                ErrorCode::NoArrangement,
                "this game starts from a preset; there is nothing to arrange",
            ));
        }
        if self.status != Status::Setup {
            return Err(refuse(ErrorCode::GameStarted, "the arrangements are done"));
        }
        if self.seats.iter().any(Option::is_none) {
            return Err(refuse(
                ErrorCode::NotStarted,
                "wait for the second player before arranging",
            ));
        }
        // RULES.md 1.1: the first player (South) arranges first, then the second, seeing it.
        if side == Side::North && self.arrangements[0].is_none() {
            return Err(refuse(
                ErrorCode::NotYourTurn,
                "the first player (South) arranges first",
            ));
        }
        if self.arrangements[side.index()].is_some() {
            return Err(refuse(
                ErrorCode::AlreadyArranged,
                "you have arranged your seeds",
            ));
        }
        let arrangement =
            Arrangement::new(pits).map_err(|e| refuse(ErrorCode::BadArrangement, e.to_string()))?;
        self.arrangements[side.index()] = Some(arrangement);
        let mut events = vec![Event::Arranged {
            by: side,
            pits: arrangement.counts(),
        }];
        if let [Some(south), Some(north)] = self.arrangements {
            let board = self.initial_board(omweso_rules::Preset::Outer, Some((south, north)));
            self.start(board, now, &mut events);
        }
        Ok(events)
    }

    /// Who may start the turn now, and whether it would be stolen.
    fn who_moves(&self, side: Side) -> Result<(GameBoard, bool), Refusal> {
        let board = self.playing_board()?;
        if self.pending.is_some() {
            return Err(refuse(
                ErrorCode::TurnInProgress,
                "a turn is waiting for a decision; answer it with decide",
            ));
        }
        if board.may_move(side) {
            return Ok((board, false));
        }
        match board.to_move() {
            Some(victim) if self.clock.steal_open && victim == side.other() => {
                Ok((board.with_side_to_move(side), true))
            }
            _ => Err(refuse(ErrorCode::NotYourTurn, "it is not your turn")),
        }
    }

    fn playing_board(&self) -> Result<GameBoard, Refusal> {
        match (self.status, self.board) {
            (Status::Playing, Some(board)) => Ok(board),
            (Status::Setup, _) => Err(refuse(
                ErrorCode::NotStarted,
                "the game has not started yet",
            )),
            _ => Err(refuse(ErrorCode::GameOver, "the game is over")),
        }
    }

    fn play(&mut self, side: Side, notation: &str, now: u64) -> Result<Vec<Event>, Refusal> {
        let (board, stolen) = self.who_moves(side)?;
        match board {
            GameBoard::Oware(position) => self.play_oware(side, position, notation, stolen, now),
            GameBoard::FourByEight(position) => {
                let mv: Move = notation
                    .parse()
                    .map_err(|e| refuse(ErrorCode::BadMove, format!("{notation:?}: {e}")))?;
                if mv.start.side() != side {
                    return Err(refuse(
                        ErrorCode::IllegalMove,
                        format!("{}: {} is not your pit", notation, mv.start),
                    ));
                }
                let turn = position
                    .begin_turn(mv.start, mv.direction, self.budget(0))
                    .map_err(|e| refuse(ErrorCode::IllegalMove, format!("{notation}: {e}")))?;
                let pending = PendingTurn {
                    turn,
                    by: side,
                    stolen,
                    tokens: vec![notation.split('/').next().unwrap_or_default().to_owned()],
                    waited_ms: 0,
                    decision_since_ms: now,
                    results: Vec::new(),
                };
                self.advance(pending, &mv.answers, now)
            }
        }
    }

    fn play_oware(
        &mut self,
        side: Side,
        position: oware::Position,
        notation: &str,
        stolen: bool,
        now: u64,
    ) -> Result<Vec<Event>, Refusal> {
        let house: oware::House = notation
            .parse()
            .map_err(|e| refuse(ErrorCode::BadMove, format!("{notation:?}: {e}")))?;
        let mut laps = LapRecord::default();
        let result = position
            .play_observed(house, self.budget(0), &mut |lap| {
                laps.push(LapView::from(&lap));
            })
            .map_err(|e| refuse(ErrorCode::IllegalMove, format!("{notation}: {e}")))?;
        Ok(self.complete_turn(
            GameBoard::Oware(result.position),
            side,
            house.to_string(),
            stolen,
            laps,
            result.outcome,
            now,
        ))
    }

    /// Runs a (new or resumed) turn with the given answers, until it ends or waits for a
    /// decision no answer was given for. Works on a copy: a refused answer changes nothing.
    fn advance(
        &mut self,
        mut pending: PendingTurn,
        answers: &[Answer],
        now: u64,
    ) -> Result<Vec<Event>, Refusal> {
        let mut laps = LapRecord::default();
        let mut answers = answers.iter();
        let end = loop {
            match pending.turn.run(&mut laps) {
                Progress::Done(end) => break Some(end),
                Progress::Decision(decision) => {
                    let Some(&answer) = answers.next() else {
                        break None;
                    };
                    pending.turn.answer(answer).map_err(|_| {
                        refuse(
                            ErrorCode::IllegalMove,
                            format!(
                                "{answer} is not an option after {} laps; the options are {}",
                                pending.turn.laps(),
                                options(&decision, pending.by).join(", ")
                            ),
                        )
                    })?;
                    pending.tokens.push(answer.to_string());
                }
            }
        };
        if let Some(extra) = answers.next() {
            return Err(refuse(
                ErrorCode::IllegalMove,
                format!("{extra} answers no decision point: the turn is over"),
            ));
        }
        let by = pending.by;
        let stolen = pending.stolen;
        let notation = pending.tokens.join("/");
        let Some(_) = end else {
            // Waiting for a decision: the move limit keeps running.
            let decision = pending.turn.pending_decision();
            let opts = decision.map(|d| options(&d, by)).unwrap_or_default();
            pending.decision_since_ms = now;
            self.clock.move_deadline_ms = self.move_deadline(&pending);
            self.clock.referee_deadline_ms = None;
            let position = self.board_during(&pending.turn, pending.by);
            pending.results = self.option_results(&pending);
            let results = pending.results.clone();
            self.pending = Some(pending);
            return Ok(vec![
                Event::Played(Played {
                    by,
                    mv: notation,
                    stolen,
                    laps: laps.shown,
                    laps_omitted: laps.omitted,
                    position,
                    outcome: None,
                    pending: true,
                    clock: self.clock_view(),
                    legal: Legal::default(),
                }),
                Event::Decision {
                    by,
                    options: opts,
                    results,
                    clock: self.clock_view(),
                },
            ]);
        };
        let result = pending
            .turn
            .result()
            .ok_or_else(|| refuse(ErrorCode::Unavailable, "the turn did not finish"))?;
        self.pending = None;
        Ok(self.complete_turn(
            GameBoard::FourByEight(result.position),
            by,
            notation,
            stolen,
            laps,
            result.outcome,
            now,
        ))
    }

    /// A turn is over: the board after it, the history, the next turn's clock (or the end),
    /// and the `played` event first.
    #[allow(clippy::too_many_arguments)]
    fn complete_turn(
        &mut self,
        board: GameBoard,
        by: Side,
        mv: String,
        stolen: bool,
        laps: LapRecord,
        outcome: Option<Outcome>,
        now: u64,
    ) -> Vec<Event> {
        let position = board.notation();
        self.board = Some(board);
        self.history.push(HistoryEntry {
            by,
            mv: mv.clone(),
            stolen,
            position: position.clone(),
        });
        let mut events = Vec::new();
        self.after_turn(now, outcome, &mut events);
        events.insert(
            0,
            Event::Played(Played {
                by,
                mv,
                stolen,
                laps: laps.shown,
                laps_omitted: laps.omitted,
                position,
                outcome,
                pending: false,
                clock: self.clock_view(),
                legal: Legal::default(),
            }),
        );
        events
    }

    /// What each option of `pending`'s decision would do if answered now: the turn run on
    /// a copy up to its next decision point or its end.
    fn option_results(&self, pending: &PendingTurn) -> Vec<OptionResult> {
        let Some(decision) = pending.turn.pending_decision() else {
            return Vec::new();
        };
        decision
            .options(pending.by)
            .iter()
            .map(|&answer| {
                let mut turn = pending.turn.clone();
                let mut laps = LapRecord::default();
                let progress = turn.answer(answer).map(|()| turn.run(&mut laps));
                let (position, decision, outcome) = match progress {
                    Ok(Progress::Decision(next)) => (
                        self.board_during(&turn, pending.by),
                        Some(options(&next, pending.by)),
                        None,
                    ),
                    Ok(Progress::Done(_)) => match turn.result() {
                        Some(result) => (result.position.to_string(), None, result.outcome),
                        None => (self.board_during(&pending.turn, pending.by), None, None),
                    },
                    // An option the decision offers is always a valid answer.
                    Err(_) => (self.board_during(&pending.turn, pending.by), None, None),
                };
                OptionResult {
                    choice: answer.to_string(),
                    laps: laps.shown,
                    laps_omitted: laps.omitted,
                    position,
                    decision,
                    outcome,
                }
            })
            .collect()
    }

    /// The position string while `turn`, sown by `by`, waits at a decision point.
    fn board_during(&self, turn: &Turn, by: Side) -> String {
        let to_move = match self.board {
            Some(GameBoard::FourByEight(p)) => p.to_move(),
            _ => omweso_rules::ToMove::Side(by),
        };
        omweso_rules::Setup {
            board: turn.board_now(),
            to_move,
        }
        .to_string()
    }

    /// When a turn waiting at a decision runs out of its move-completion limit: the limit
    /// less the time already spent deciding and the sowing done at the table's pace.
    fn move_deadline(&self, pending: &PendingTurn) -> Option<u64> {
        let tc = self.config.time_control;
        let limit = ms(tc.move_limit_seconds?);
        let sowing_ms = ms(pending.turn.seeds_sown() as f64 / tc.sowing_pace);
        Some(pending.decision_since_ms + limit.saturating_sub(pending.waited_ms + sowing_ms))
    }

    fn after_turn(&mut self, now: u64, outcome: Option<Outcome>, events: &mut Vec<Event>) {
        match outcome {
            Some(outcome) => events.extend(self.finish(outcome)),
            None => self.new_turn(now),
        }
    }

    fn decide(&mut self, side: Side, choice: &str, now: u64) -> Result<Vec<Event>, Refusal> {
        self.playing_board()?;
        let Some(mut pending) = self.pending.clone() else {
            return Err(refuse(ErrorCode::NoDecision, "no decision is pending"));
        };
        if pending.by != side {
            return Err(refuse(ErrorCode::NotYourTurn, "the decision is not yours"));
        }
        let answer: Answer = choice
            .parse()
            .map_err(|e| refuse(ErrorCode::BadDecision, format!("{e}")))?;
        let decision = pending
            .turn
            .pending_decision()
            .ok_or_else(|| refuse(ErrorCode::NoDecision, "no decision is pending"))?;
        if !decision.allows(side, answer) {
            return Err(refuse(
                ErrorCode::BadDecision,
                format!(
                    "{answer} is not an option; the options are {}",
                    options(&decision, side).join(", ")
                ),
            ));
        }
        pending.waited_ms += now.saturating_sub(pending.decision_since_ms);
        pending.turn.set_budget(self.budget(pending.waited_ms));
        self.advance(pending, &[answer], now)
    }

    /// Fires the referee's timers due at `now`: the steal, abandonment, and the move limit
    /// running out while a decision is awaited.
    pub fn tick(&mut self, now: u64) -> Vec<(u64, Event)> {
        let mut events = Vec::new();
        if self.status == Status::Playing {
            let tc = self.config.time_control;
            if self
                .clock
                .move_deadline_ms
                .is_some_and(|deadline| now >= deadline)
                && self.pending.is_some()
            {
                events.extend(self.finish(Outcome::Annulled {
                    reason: omweso_rules::AnnulReason::Budget,
                }));
            } else if let Some(victim) = self.board.and_then(|b| b.to_move()) {
                if !self.clock.steal_open
                    && self.pending.is_none()
                    && self
                        .clock
                        .referee_deadline_ms
                        .is_some_and(|deadline| now >= deadline)
                {
                    self.clock.steal_open = true;
                    self.clock.steal_since_ms = Some(now);
                    self.clock.referee_deadline_ms = None;
                    events.push(Event::Steal {
                        victim,
                        clock: self.clock_view(),
                        legal: Legal::default(),
                    });
                } else if self
                    .clock
                    .steal_since_ms
                    .is_some_and(|since| now >= since + ms(tc.abandon_seconds))
                {
                    events.extend(self.finish(Outcome::Win {
                        winner: victim.other(),
                        victory: Victory::Abandoned,
                    }));
                }
            }
        }
        self.emit(events)
    }

    /// A seated player stayed away too long: they lose (RULES.md 4).
    pub fn abandon(&mut self, absent: Side) -> Vec<(u64, Event)> {
        if self.status.is_over() || self.seats.iter().any(Option::is_none) {
            return Vec::new();
        }
        let events = self.finish(Outcome::Win {
            winner: absent.other(),
            victory: Victory::Abandoned,
        });
        self.emit(events)
    }

    /// The next time [`Table::tick`] has something to do.
    #[must_use]
    pub fn next_deadline(&self) -> Option<u64> {
        if self.status != Status::Playing {
            return None;
        }
        if self.pending.is_some() {
            return self.clock.move_deadline_ms;
        }
        let abandon = self
            .clock
            .steal_since_ms
            .map(|since| since + ms(self.config.time_control.abandon_seconds));
        [self.clock.referee_deadline_ms, abandon]
            .into_iter()
            .flatten()
            .min()
    }

    /// After a restart: the time the server was down counts against nobody. The referee
    /// count starts again, a pending decision gets its time back.
    pub fn resume(&mut self, now: u64) {
        if self.status != Status::Playing {
            return;
        }
        if let Some(mut pending) = self.pending.take() {
            pending.decision_since_ms = now;
            self.clock.move_deadline_ms = self.move_deadline(&pending);
            self.pending = Some(pending);
        } else if self.clock.steal_open {
            self.clock.steal_since_ms = Some(now);
        } else {
            self.new_turn(now);
        }
    }

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
            self.seats[side.index()].as_ref().map(|s| SeatView {
                name: s.name.clone(),
                connected: connected[side.index()],
            })
        };
        let board = self.board;
        let over = self.status.is_over();
        let pending = self.pending.as_ref();
        // The contract's `legal_moves`: the side to move's (yours in Mweiso's opening).
        let listed = board
            .and_then(|b| b.to_move().or(you.filter(|&s| b.may_move(s))))
            .and_then(|side| legal.side(side));
        Snapshot {
            game_id: self.id,
            ruleset: self.config.ruleset,
            setup: self.config.setup,
            time_control: self.config.time_control,
            status: self.status,
            position: match pending {
                Some(p) => Some(self.board_during(&p.turn, p.by)),
                None => board.map(|b| b.notation()),
            },
            to_move: if over {
                None
            } else {
                pending.map(|p| p.by).or(board.and_then(|b| b.to_move()))
            },
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
            clock: self.clock_view(),
            history: self.history.clone(),
            outcome: self.outcome,
            spectators,
            version: self.version,
            created_at_ms: self.created_at_ms,
            arrangements: Arrangements {
                s: self.arrangements[0].map(|a| a.counts()),
                n: self.arrangements[1].map(|a| a.counts()),
            },
        }
    }
}

fn options(decision: &omweso_rules::Decision, by: Side) -> Vec<String> {
    decision
        .options(by)
        .iter()
        .map(ToString::to_string)
        .collect()
}
