//! Whole moves played on a [`Position`]: a turn begun from a legal start, and a move
//! (its start and its answers) played through, checked or not. A child of `position` (it
//! reads the position's fields) that names the turn, so that the position itself knows
//! nothing of the turn that plays on it (`turn` reads `Position`: no cycle).

use crate::notation::{list, Options};
use crate::rules::OPENING_PITS;
use crate::{
    Answer, Direction, LapObserver, Move, Outcome, Owing, Pit, Position, Progress, Side, ToMove,
    Turn, TurnEnd, TurnResult, Variant,
};

impl Position {
    /// Starts a turn from `pit` in `direction`, checking that the start is legal. The
    /// mover is the pit's owner. `budget` bounds the seeds the turn may sow (`None`: no
    /// bound; never-ending turns are detected all the same).
    pub fn begin_turn(
        &self,
        pit: Pit,
        direction: Direction,
        budget: Option<u64>,
    ) -> Result<Turn, IllegalMove> {
        if let Some(outcome) = self.outcome() {
            return Err(IllegalMove::GameOver(outcome));
        }
        let side = pit.side();
        if !self.to_move.may_move(side) {
            return Err(match self.to_move {
                ToMove::Opening(Owing::Only(owing)) => IllegalMove::OpeningPlayed { side, owing },
                _ => IllegalMove::NotYourTurn { pit, side },
            });
        }
        let index = pit.index();
        let seeds = self.board.at(pit);
        if self.to_move.is_opening() && OPENING_PITS & (1 << index) == 0 {
            return Err(IllegalMove::NotAnOpeningPit { pit });
        }
        if seeds < 2 {
            return Err(IllegalMove::TooFewSeeds { pit, seeds });
        }
        if direction == Direction::Clockwise {
            if self.to_move.is_opening() {
                return Err(IllegalMove::ClockwiseOpening { pit });
            }
            if !self.rules.is_reverse_pit(index) {
                return Err(IllegalMove::NotAReversePit {
                    pit,
                    variant: self.rules.variant,
                });
            }
            if !self.clockwise_start_captures(side, index) {
                return Err(IllegalMove::ClockwiseWithoutCapture { pit });
            }
        }
        Ok(Turn::new_unchecked(self, side, index, direction, budget))
    }

    /// Plays a whole move, checking it: a legal start, and exactly one valid answer for
    /// each decision point the turn reaches.
    ///
    /// ```
    /// use omweso_rules::{Position, TurnEnd};
    ///
    /// let pos: Position = "5,0,0,0,1,1,1,1/0,3,0,5,5,5,0,5/10,4,1,4,4,0,0,4/1,0,0,0,4,0,0,0 s"
    ///     .parse()
    ///     .unwrap();
    /// let result = pos.play(&"E1".parse().unwrap(), Some(720)).unwrap();
    /// assert_eq!(result.summary.end, TurnEnd::Ended);
    /// assert_eq!(result.summary.captured, 6);
    /// assert!(pos.play(&"A1".parse().unwrap(), None).is_err()); // a single seed
    /// ```
    pub fn play(&self, mv: &Move, budget: Option<u64>) -> Result<TurnResult, IllegalMove> {
        self.play_observed(mv, budget, &mut ())
    }

    /// As [`Position::play`], telling `observer` of every lap.
    pub fn play_observed<O: LapObserver>(
        &self,
        mv: &Move,
        budget: Option<u64>,
        observer: &mut O,
    ) -> Result<TurnResult, IllegalMove> {
        let mut turn = self.begin_turn(mv.start, mv.direction, budget)?;
        let mut answers = mv.answers.iter();
        loop {
            match turn.run(observer) {
                Progress::Done(end) => {
                    if let Some(&answer) = answers.next() {
                        return Err(IllegalMove::ExtraAnswer {
                            answer,
                            end,
                            laps: turn.laps(),
                        });
                    }
                    return Ok(turn.result().expect("the turn is done"));
                }
                Progress::Decision(decision) => {
                    let options = decision.options(turn.mover());
                    let Some(&answer) = answers.next() else {
                        return Err(IllegalMove::MissingAnswer {
                            laps: turn.laps(),
                            options,
                        });
                    };
                    if turn.answer(answer).is_err() {
                        return Err(IllegalMove::WrongAnswer {
                            answer,
                            laps: turn.laps(),
                            options,
                        });
                    }
                }
            }
        }
    }

    /// Plays a move known to be legal (from [`Position::legal_moves_into`] or
    /// [`Position::for_each_move`]) without checking it: the bot's fast path.
    ///
    /// An illegal move never panics and always gives a valid position, but which one is
    /// unspecified: a missing or refused answer takes the first option, extra answers
    /// are ignored.
    #[must_use]
    pub fn play_unchecked(&self, mv: &Move, budget: Option<u64>) -> TurnResult {
        let side = mv.start.side();
        let mut turn = Turn::new_unchecked(self, side, mv.start.index(), mv.direction, budget);
        let mut answers = mv.answers.iter();
        loop {
            match turn.run(&mut ()) {
                Progress::Done(_) => return turn.result().expect("the turn is done"),
                Progress::Decision(decision) => {
                    let answer = answers
                        .next()
                        .copied()
                        .filter(|&a| decision.allows(side, a))
                        .unwrap_or_else(|| decision.options(side)[0]);
                    turn.answer(answer).expect("an allowed answer");
                }
            }
        }
    }
}

/// Why a move cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    #[error("the game is already over in this position ({0})")]
    GameOver(Outcome),
    #[error("{pit} is {}'s pit, and it is not {}'s turn", side.name(), side.name())]
    NotYourTurn { pit: Pit, side: Side },
    #[error("{} has played their opening turn; only {} still owes one", side.name(), owing.name())]
    OpeningPlayed { side: Side, owing: Side },
    #[error("Mweiso's opening turn starts from an outer pit other than the 4th and 5th from the player's left; {pit} is not one")]
    NotAnOpeningPit { pit: Pit },
    #[error("pit {pit} holds {seeds} seed{}; a move needs at least 2", if *seeds == 1 { "" } else { "s" })]
    TooFewSeeds { pit: Pit, seeds: u8 },
    #[error("{pit} is not a reverse pit, so no lap may start clockwise from it ({})", reverse_pits(*variant))]
    NotAReversePit { pit: Pit, variant: Variant },
    #[error("a clockwise lap from {pit} would not capture directly, so it is not allowed")]
    ClockwiseWithoutCapture { pit: Pit },
    #[error("Mweiso's opening turn never starts clockwise: no capture is made from a back-row hole in the opening ({pit}')")]
    ClockwiseOpening { pit: Pit },
    #[error(
        "the move stops before a decision point: after {laps} laps the turn asks for {}",
        list(options)
    )]
    MissingAnswer { laps: u64, options: Options },
    #[error("{answer} answers no decision point: the turn stopped ({end}) after {laps} laps")]
    ExtraAnswer {
        answer: Answer,
        end: TurnEnd,
        laps: u64,
    },
    #[error(
        "{answer} is not an option at the decision point after {laps} laps; the options are {}",
        list(options)
    )]
    WrongAnswer {
        answer: Answer,
        laps: u64,
        options: Options,
    },
}

fn reverse_pits(variant: Variant) -> &'static str {
    match variant {
        Variant::Omweso => {
            "Omweso's reverse pits are South's A1, B1, B2, A2 and North's H4, G4, G3, H3"
        }
        Variant::Mweiso => "Mweiso's reverse holes are South's A1, B2 and North's H4, G3",
    }
}
