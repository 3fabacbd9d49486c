//! Playing a turn: who may start it (the steal included), parsing the move, sowing it on
//! either board family, stopping at decision points and answering them, and what each
//! option would do.

use omweso_rules::{Answer, Game, GameMove, GameTurn, PlayResult, Progress, Side};

use super::super::decision_results;
use super::super::laps::LapRecord;
use super::pending::PendingTurn;
use super::{refuse, Refusal, Table};
use omweso_protocol::{ErrorCode, Event, HistoryEntry, Legal, OptionResult, Played, Status};

impl Table {
    /// Who may start the turn now, and whether it would be stolen.
    pub(super) fn who_moves(&self, side: Side) -> Result<(Game, bool), Refusal> {
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

    pub(super) fn playing_board(&self) -> Result<Game, Refusal> {
        match (self.status, self.board) {
            (Status::Playing, Some(board)) => Ok(board),
            (Status::Setup, _) => Err(refuse(
                ErrorCode::NotStarted,
                "the game has not started yet",
            )),
            _ => Err(refuse(ErrorCode::GameOver, "the game is over")),
        }
    }

    pub(super) fn play(
        &mut self,
        side: Side,
        notation: &str,
        now: u64,
    ) -> Result<Vec<Event>, Refusal> {
        let (game, stolen) = self.who_moves(side)?;
        let mv = GameMove::parse(game.ruleset(), notation)
            .map_err(|e| refuse(ErrorCode::BadMove, format!("{notation:?}: {e}")))?;
        let start = mv.start();
        if start.side() != side {
            return Err(refuse(
                ErrorCode::IllegalMove,
                format!("{notation}: {} is not your {}", start, start.hole().noun()),
            ));
        }
        let turn = game
            .begin_turn(start, self.budget(0))
            .map_err(|e| refuse(ErrorCode::IllegalMove, format!("{notation}: {e}")))?;
        let pending = PendingTurn {
            turn,
            by: side,
            stolen,
            tokens: vec![start.to_string()],
            waited_ms: 0,
            decision_since_ms: now,
            results: Vec::new(),
        };
        self.advance(pending, mv.answers(), now)
    }

    /// Runs a (new or resumed) turn with the given answers, until it ends or waits for a
    /// decision no answer was given for. Works on a copy: a refused answer changes nothing.
    pub(super) fn advance(
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
            let position = self.board_during(&pending.turn);
            let display_ms = laps.display_ms();
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
                    display_ms,
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
        Ok(self.complete_turn(&result, by, notation, stolen, laps, now))
    }

    /// A turn is over: the board after it, the tallies and the history, the next turn's
    /// clock (or the end), and the `played` event first.
    pub(super) fn complete_turn(
        &mut self,
        result: &PlayResult,
        by: Side,
        mv: String,
        stolen: bool,
        laps: LapRecord,
        now: u64,
    ) -> Vec<Event> {
        let (board, outcome) = (result.game, result.outcome);
        let position = board.to_string();
        self.impasse_lapses(by);
        self.tally.count_turn(by, self.board, result);
        self.board = Some(board);
        self.history.push(HistoryEntry {
            by,
            mv: mv.clone(),
            stolen,
            position: position.clone(),
        });
        let display_ms = laps.display_ms();
        let mut events = Vec::new();
        self.after_turn(now, display_ms, outcome, &mut events);
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
                display_ms,
                clock: self.clock_view(),
                legal: Legal::default(),
            }),
        );
        events
    }

    /// What each option of `pending`'s decision would do if answered now.
    pub(super) fn option_results(&self, pending: &PendingTurn) -> Vec<OptionResult> {
        decision_results::option_results(self.board.as_ref(), &pending.turn, pending.by)
    }

    /// The position string while `turn` waits at a decision point (the board as it stands,
    /// with the game's side-to-move field).
    pub(super) fn board_during(&self, turn: &GameTurn) -> String {
        match self.board {
            Some(game) => game.position_during(turn),
            None => turn.position_now(),
        }
    }

    pub(super) fn decide(
        &mut self,
        side: Side,
        choice: &str,
        now: u64,
    ) -> Result<Vec<Event>, Refusal> {
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
}

pub(super) use super::super::decision_results::options;
