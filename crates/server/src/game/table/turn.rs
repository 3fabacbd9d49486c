//! Playing a turn: who may start it (the steal included), parsing the move, sowing it on
//! either board family, stopping at decision points and answering them, and what each
//! option would do.

use omweso_rules::{oware, Answer, Move, Outcome, Progress, Side, Turn};

use super::super::board::GameBoard;
use super::super::laps::LapRecord;
use super::{refuse, Refusal, Table};
use crate::protocol::{
    ErrorCode, Event, HistoryEntry, LapView, Legal, OptionResult, Played, Status,
};

/// A turn waiting at a decision point.
#[derive(Clone, Debug)]
pub(super) struct PendingTurn {
    pub(super) turn: Turn,
    /// The player sowing (the stealer, for a stolen turn).
    pub(super) by: Side,
    pub(super) stolen: bool,
    pub(super) tokens: Vec<String>,
    /// Milliseconds of the move-completion limit spent at decision points so far.
    pub(super) waited_ms: u64,
    pub(super) decision_since_ms: u64,
    /// What each option of the pending decision would do (worked out once, when the turn
    /// stops at it).
    pub(super) results: Vec<OptionResult>,
}

impl Table {
    /// Who may start the turn now, and whether it would be stolen.
    pub(super) fn who_moves(&self, side: Side) -> Result<(GameBoard, bool), Refusal> {
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

    pub(super) fn playing_board(&self) -> Result<GameBoard, Refusal> {
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

    pub(super) fn play_oware(
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
    pub(super) fn complete_turn(
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
    pub(super) fn option_results(&self, pending: &PendingTurn) -> Vec<OptionResult> {
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
    pub(super) fn board_during(&self, turn: &Turn, by: Side) -> String {
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

pub(super) fn options(decision: &omweso_rules::Decision, by: Side) -> Vec<String> {
    decision
        .options(by)
        .iter()
        .map(ToString::to_string)
        .collect()
}
