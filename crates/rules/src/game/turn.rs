//! A turn of any board played lap by lap ([`GameTurn`]), as the server runs one under
//! its sowing budget.

use crate::oware::{self, House};
use crate::{Answer, AnswerError, Decision, Options, Progress, Setup, Side, Turn, TurnEnd};

use super::laps::{Forward, GameLapObserver};
use super::value::PlayResult;

/// A turn in progress on any board: start one with [`Game::begin_turn`](super::Game::begin_turn), alternate
/// [`GameTurn::run`] and [`GameTurn::answer`] until it is done, and take
/// [`GameTurn::result`]. An Oware turn is one lap and never waits for a decision.
///
/// ```
/// use omweso_rules::{Game, GameLap, GameMove, Progress, Ruleset, TurnEnd};
///
/// let game = Game::parse(
///     Ruleset::Omweso,
///     "5,0,0,0,1,1,1,1/0,3,0,5,5,5,0,5/10,4,1,4,4,0,0,4/1,0,0,0,4,0,0,0 s",
/// )
/// .unwrap();
/// let start = GameMove::parse(Ruleset::Omweso, "E1").unwrap().start();
/// let mut turn = game.begin_turn(start, None).unwrap();
/// let mut laps: Vec<GameLap> = Vec::new();
/// assert_eq!(turn.run(&mut laps), Progress::Done(TurnEnd::Ended));
/// assert_eq!(laps.len(), 2);
/// assert_eq!(turn.result().unwrap().summary.captured, 6);
/// ```
#[derive(Clone, Debug)]
pub struct GameTurn(pub(super) TurnKind);

#[derive(Clone, Debug)]
pub(super) enum TurnKind {
    Board(Turn),
    Oware(OwareTurn),
}

/// An Oware move begun, checked legal; sown at the first [`GameTurn::run`].
#[derive(Clone, Copy, Debug)]
pub(super) struct OwareTurn {
    pub(super) before: oware::Position,
    pub(super) house: House,
    pub(super) budget: Option<u64>,
    pub(super) result: Option<oware::MoveResult>,
}

impl GameTurn {
    /// The player sowing.
    #[must_use]
    pub const fn mover(&self) -> Side {
        match &self.0 {
            TurnKind::Board(t) => t.mover(),
            TurnKind::Oware(t) => t.before.to_move(),
        }
    }

    /// Sows laps until the turn reaches a decision point or stops, telling `observer` of
    /// each lap.
    pub fn run<O: GameLapObserver + ?Sized>(&mut self, observer: &mut O) -> Progress {
        match &mut self.0 {
            TurnKind::Board(t) => t.run(&mut Forward(observer)),
            TurnKind::Oware(t) => {
                let result = match t.result {
                    Some(result) => result,
                    None => {
                        let result = t.before.play_legal(t.house, t.budget, &mut |lap| {
                            observer.lap(lap.into());
                        });
                        t.result = Some(result);
                        result
                    }
                };
                Progress::Done(result.end)
            }
        }
    }

    /// Answers the pending decision. A refused answer changes nothing; an Oware turn
    /// refuses every answer.
    pub fn answer(&mut self, answer: Answer) -> Result<(), AnswerError> {
        match &mut self.0 {
            TurnKind::Board(t) => t.answer(answer),
            TurnKind::Oware(_) => Err(AnswerError::NotWaiting { answer }),
        }
    }

    /// The decision the turn waits for, if any.
    #[must_use]
    pub const fn pending_decision(&self) -> Option<Decision> {
        match &self.0 {
            TurnKind::Board(t) => t.pending_decision(),
            TurnKind::Oware(_) => None,
        }
    }

    /// The answers open at the pending decision, in notation order (none when the turn is
    /// not waiting).
    #[must_use]
    pub fn options(&self) -> Options {
        self.pending_decision()
            .map(|decision| decision.options(self.mover()))
            .unwrap_or_default()
    }

    /// Changes the sowing budget for the rest of the turn (the seeds it may sow in all,
    /// counting those already sown); see [`Turn::set_budget`]. An Oware move already sown
    /// is not changed.
    pub fn set_budget(&mut self, budget: Option<u64>) {
        match &mut self.0 {
            TurnKind::Board(t) => t.set_budget(budget),
            TurnKind::Oware(t) => t.budget = budget,
        }
    }

    /// Laps sown so far.
    #[must_use]
    pub fn laps(&self) -> u64 {
        match &self.0 {
            TurnKind::Board(t) => t.laps(),
            TurnKind::Oware(t) => t.result.map_or(0, |r| u64::from(r.end == TurnEnd::Ended)),
        }
    }

    /// Seeds sown so far.
    #[must_use]
    pub fn seeds_sown(&self) -> u64 {
        match &self.0 {
            TurnKind::Board(t) => t.seeds_sown(),
            TurnKind::Oware(t) => t.result.map_or(0, |r| r.seeds_sown),
        }
    }

    /// How the turn stopped, if it has.
    #[must_use]
    pub fn end(&self) -> Option<TurnEnd> {
        match &self.0 {
            TurnKind::Board(t) => t.end(),
            TurnKind::Oware(t) => t.result.map(|r| r.end),
        }
    }

    /// The position string now: on the 4x8 board the board as it stands, any seeds in
    /// hand back at the lap's origin, with the side-to-move field of the position the turn
    /// began from (the stealer's, for a stolen turn; [`Game::position_during`](super::Game::position_during) keeps the
    /// game's own); in Oware the position before the move, or after it once sown.
    #[must_use]
    pub fn position_now(&self) -> String {
        match &self.0 {
            TurnKind::Board(t) => Setup {
                board: t.board_now(),
                to_move: t.to_move_before(),
            }
            .to_string(),
            TurnKind::Oware(t) => match t.result {
                Some(result) => result.position.to_string(),
                None => t.before.to_string(),
            },
        }
    }

    /// The result, once the turn is done.
    #[must_use]
    pub fn result(&self) -> Option<PlayResult> {
        match &self.0 {
            TurnKind::Board(t) => t.result().map(PlayResult::from),
            TurnKind::Oware(t) => t.result.map(PlayResult::from),
        }
    }

    /// The 4x8 turn underneath, if this is one.
    #[must_use]
    pub const fn as_board(&self) -> Option<&Turn> {
        match &self.0 {
            TurnKind::Board(t) => Some(t),
            TurnKind::Oware(_) => None,
        }
    }
}
