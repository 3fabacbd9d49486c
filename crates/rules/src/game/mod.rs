//! One game type over the three rulesets, as the server, the engine CLI, `bench` and the
//! load generator handle them: "a game of some ruleset", without branches of their own.
//!
//! [`Game`] is an Omweso, Mweiso or Oware position; [`GameMove`], [`Start`], [`Hole`],
//! [`GameLap`], [`GameTurn`] and [`PlayResult`] are one vocabulary of moves, laps, turns
//! and results for all three. Each call dispatches once to the per-board types
//! ([`Position`], [`oware::Position`]), which stay the fast paths for bots and benchmarks.
//!
//! ```
//! use omweso_rules::{Game, GameMove, Preset, Ruleset, Side};
//!
//! let game = Game::start(Ruleset::Oware, Preset::Outer, Side::South);
//! let mv = GameMove::parse(Ruleset::Oware, "C1").unwrap();
//! let result = game.play(&mv, None).unwrap();
//! assert_eq!(result.game.to_string(), "4,4,4,4,4,5/4,4,0,5,5,5 n 0 0");
//! assert_eq!(result.game.to_move(), Some(Side::North));
//! ```

mod laps;
mod moves;
mod turn;
mod value;

pub use laps::*;
pub use moves::*;
pub use turn::*;
pub use value::{Game, PlayResult};

use laps::Forward;
use turn::{OwareTurn, TurnKind};

use std::fmt;

use crate::oware;
use crate::{
    Arrangement, IllegalMove, Outcome, ParsePositionError, Position, Preset, Rules, Ruleset, Setup,
    Side,
};

/// Why a string is not a position of the ruleset it was parsed for.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseGameError {
    /// A capture history was given for a game without the akakyala rule.
    #[error("\"akakyala\" is an Omweso rule; {} has no akakyala", title(*ruleset))]
    Akakyala { ruleset: Ruleset },
    #[error(transparent)]
    Board(#[from] ParsePositionError),
    #[error(transparent)]
    Oware(#[from] oware::ParsePositionError),
}

/// Why a move or a start cannot be played in a [`Game`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalGameMove {
    /// A 4x8 move in Oware, or an Oware move on the 4x8 board.
    #[error("{start} is a {} of another board than {ruleset}'s", start.noun())]
    WrongBoard { start: Hole, ruleset: Ruleset },
    /// [`Game::play_as`]: the move starts from the other player's pit.
    #[error("{start} is {}'s {}, and {} is playing", start.side().name(), start.noun(), mover.name())]
    NotYourPit { start: Hole, mover: Side },
    /// [`Game::play_as`]: in Oware, the player is not the one to move.
    #[error("it is {}'s turn, not {}'s", side.other().name(), side.name())]
    NotYourTurn { side: Side },
    #[error(transparent)]
    Board(#[from] IllegalMove),
    #[error(transparent)]
    Oware(#[from] oware::IllegalMove),
}

/// The legal moves of a side as [`Game::legal_moves_within`] found them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameLegalMoves {
    pub moves: Vec<GameMove>,
    /// The moves are the legal starts only, without their answers: listing every whole
    /// move would have sown more than the work allowed (4x8 decision points branch).
    pub starts_only: bool,
}

/// The ruleset's name as a sentence writes it.
const fn title(ruleset: Ruleset) -> &'static str {
    match ruleset {
        Ruleset::Omweso => "Omweso",
        Ruleset::Mweiso => "Mweiso",
        Ruleset::Oware => "Oware",
    }
}

impl Game {
    /// The standard start of `ruleset`, `first` to move: Omweso from `preset` (without
    /// akakyala; [`Game::with_akakyala`] turns it on); Mweiso from 2 seeds everywhere with
    /// both players owing their opening (`preset` and `first` do not matter); Oware from 4
    /// seeds in every house (`preset` does not matter).
    #[must_use]
    pub const fn start(ruleset: Ruleset, preset: Preset, first: Side) -> Game {
        match ruleset {
            Ruleset::Omweso => Game::Omweso(Position::start(Rules::OMWESO, preset, first)),
            Ruleset::Mweiso => Game::Mweiso(Position::start(Rules::MWEISO, preset, first)),
            Ruleset::Oware => Game::Oware(oware::Position::start(first)),
        }
    }

    /// The start of a 4x8 game from both players' free arrangements.
    #[must_use]
    pub fn from_arrangements(
        rules: Rules,
        south: Arrangement,
        north: Arrangement,
        first: Side,
    ) -> Game {
        Game::from(Position::from_arrangements(rules, south, north, first))
    }

    /// Parses a position string of `ruleset` (docs/rules.md#02-position-strings for the 4x8 board, 3 for
    /// Oware), akakyala off.
    pub fn parse(ruleset: Ruleset, text: &str) -> Result<Game, ParseGameError> {
        Game::parse_with_akakyala(ruleset, text, None)
    }

    /// As [`Game::parse`]; with `captured_before` (`[south, north]`: who captured in an
    /// earlier turn, which a position string cannot say), Omweso's akakyala rule is on.
    /// Any other ruleset refuses a capture history, before the text is looked at.
    pub fn parse_with_akakyala(
        ruleset: Ruleset,
        text: &str,
        captured_before: Option<[bool; 2]>,
    ) -> Result<Game, ParseGameError> {
        if captured_before.is_some() && ruleset != Ruleset::Omweso {
            return Err(ParseGameError::Akakyala { ruleset });
        }
        let game = match Rules::for_ruleset(ruleset) {
            Some(rules) => Game::from(Position::parse(text, rules)?),
            None => Game::Oware(text.parse()?),
        };
        Ok(match captured_before {
            Some(history) => game.with_akakyala(history)?,
            None => game,
        })
    }

    /// The same Omweso game with the akakyala rule on and its history set: whether each
    /// side (`[south, north]`) captured in an earlier turn. Other rulesets have no akakyala.
    pub fn with_akakyala(self, captured_before: [bool; 2]) -> Result<Game, ParseGameError> {
        match self {
            Game::Omweso(p) => {
                let rules = Rules {
                    akakyala: true,
                    ..p.rules()
                };
                let [south, north] = captured_before;
                // The variant is unchanged, so `with_rules` cannot refuse; keep the game
                // as it was if it ever did.
                Ok(Game::Omweso(
                    p.with_rules(rules)
                        .unwrap_or(p)
                        .with_capture_history(south, north),
                ))
            }
            other => Err(ParseGameError::Akakyala {
                ruleset: other.ruleset(),
            }),
        }
    }

    #[must_use]
    pub const fn ruleset(&self) -> Ruleset {
        match self {
            Game::Omweso(_) => Ruleset::Omweso,
            Game::Mweiso(_) => Ruleset::Mweiso,
            Game::Oware(_) => Ruleset::Oware,
        }
    }

    /// The 4x8 position, if this is Omweso or Mweiso.
    #[must_use]
    pub const fn board(&self) -> Option<&Position> {
        match self {
            Game::Omweso(p) | Game::Mweiso(p) => Some(p),
            Game::Oware(_) => None,
        }
    }

    /// The Oware position, if this is Oware.
    #[must_use]
    pub const fn oware(&self) -> Option<&oware::Position> {
        match self {
            Game::Oware(p) => Some(p),
            _ => None,
        }
    }

    /// The one side to move, or `None` while both players owe Mweiso's opening.
    #[must_use]
    pub const fn to_move(&self) -> Option<Side> {
        match self {
            Game::Omweso(p) | Game::Mweiso(p) => p.to_move().single(),
            Game::Oware(p) => Some(p.to_move()),
        }
    }

    /// May `side` play a turn now (the referee's steal aside)?
    #[must_use]
    pub const fn may_move(&self, side: Side) -> bool {
        match self {
            Game::Omweso(p) | Game::Mweiso(p) => p.to_move().may_move(side),
            Game::Oware(p) => p.to_move() as u8 == side as u8,
        }
    }

    /// Is this Mweiso's opening phase?
    #[must_use]
    pub const fn is_opening(&self) -> bool {
        match self {
            Game::Omweso(p) | Game::Mweiso(p) => p.to_move().is_opening(),
            Game::Oware(_) => false,
        }
    }

    /// Who still owes their Mweiso opening turn, South first (empty outside the opening).
    /// A player with no legal opening turn skips it (docs/rules.md#2-mweiso-kagera-murray-1951), so owes none.
    #[must_use]
    pub fn opening_owed(&self) -> Vec<Side> {
        match self.board() {
            Some(p) if p.to_move().is_opening() => Side::ALL
                .into_iter()
                .filter(|&side| p.to_move().may_move(side) && p.can_move(side))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// The game's result in this position, if it is already over.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        match self {
            Game::Omweso(p) | Game::Mweiso(p) => p.outcome(),
            Game::Oware(p) => p.outcome(),
        }
    }

    /// The seeds each player (`[south, north]`) has captured, in games that keep score
    /// (Oware); `None` on the 4x8 board, where captured seeds stay in play.
    #[must_use]
    pub const fn scores(&self) -> Option<[u8; 2]> {
        match self {
            Game::Oware(p) => Some([p.captured(Side::South), p.captured(Side::North)]),
            _ => None,
        }
    }

    /// The same board with `side` to move: the referee's steal (docs/rules.md#4-play-under-the-referee-server-rules), where the
    /// opponent plays the turn instead. Ends Mweiso's opening.
    #[must_use]
    pub const fn with_side_to_move(&self, side: Side) -> Game {
        match self {
            Game::Omweso(p) => Game::Omweso(p.with_side_to_move(side)),
            Game::Mweiso(p) => Game::Mweiso(p.with_side_to_move(side)),
            Game::Oware(p) => Game::Oware(p.with_side_to_move(side)),
        }
    }

    /// Every legal whole move of `side`, each explored under `budget`, in notation order
    /// (pit order, anticlockwise first; Oware's column order). Empty when `side` may not
    /// move or the game is over.
    #[must_use]
    pub fn legal_moves(&self, side: Side, budget: Option<u64>) -> Vec<GameMove> {
        match self {
            Game::Omweso(p) | Game::Mweiso(p) => {
                let mut moves = Vec::new();
                p.legal_moves_into(side, budget, &mut moves);
                moves.into_iter().map(GameMove::Board).collect()
            }
            Game::Oware(p) if p.to_move() == side => p.moves().map(GameMove::Oware).collect(),
            Game::Oware(_) => Vec::new(),
        }
    }

    /// As [`Game::legal_moves`], as long as the turns explored sow at most `work` seeds in
    /// all; past that, the legal starts ([`Position::legal_moves_within`]). An Oware move
    /// has no decision points, so its list is always whole.
    #[must_use]
    pub fn legal_moves_within(&self, side: Side, budget: Option<u64>, work: u64) -> GameLegalMoves {
        match self {
            Game::Omweso(p) | Game::Mweiso(p) => {
                let found = p.legal_moves_within(side, budget, work);
                let starts_only = matches!(found, crate::LegalMoves::Starts(_));
                let moves = match found {
                    crate::LegalMoves::Whole(moves) | crate::LegalMoves::Starts(moves) => moves,
                };
                GameLegalMoves {
                    moves: moves.into_iter().map(GameMove::Board).collect(),
                    starts_only,
                }
            }
            Game::Oware(_) => GameLegalMoves {
                moves: self.legal_moves(side, budget),
                starts_only: false,
            },
        }
    }

    /// A legal whole move of `side` picked by `choose` (given the number of moves, it
    /// returns an index below it), or `None` when `side` has none. With a seeded `choose`
    /// the pick is reproducible: it is called once, on the list of [`Game::legal_moves`].
    pub fn random_move(
        &self,
        side: Side,
        budget: Option<u64>,
        choose: &mut impl FnMut(usize) -> usize,
    ) -> Option<GameMove> {
        let moves = self.legal_moves(side, budget);
        if moves.is_empty() {
            return None;
        }
        let pick = choose(moves.len());
        moves.into_iter().nth(pick)
    }

    /// Starts a turn from `start`, checking it, to be played stepwise ([`GameTurn::run`],
    /// [`GameTurn::answer`]). The mover is the start's owner. `budget` bounds the seeds
    /// the turn may sow (`None`: no bound).
    pub fn begin_turn(
        &self,
        start: Start,
        budget: Option<u64>,
    ) -> Result<GameTurn, IllegalGameMove> {
        match (self, start) {
            (Game::Omweso(p) | Game::Mweiso(p), Start::Board { pit, direction }) => Ok(GameTurn(
                TurnKind::Board(p.begin_turn(pit, direction, budget)?),
            )),
            (Game::Oware(p), Start::Oware(house)) if p.is_legal(house) => {
                Ok(GameTurn(TurnKind::Oware(OwareTurn {
                    before: *p,
                    house,
                    budget,
                    result: None,
                })))
            }
            (Game::Oware(p), Start::Oware(house)) => Err(p.why_illegal(house).into()),
            (_, start) => Err(IllegalGameMove::WrongBoard {
                start: start.hole(),
                ruleset: self.ruleset(),
            }),
        }
    }

    /// Plays a whole move, checking it (on the 4x8 board: a legal start and exactly one
    /// valid answer at each decision point). The mover is the owner of the move's start.
    pub fn play(&self, mv: &GameMove, budget: Option<u64>) -> Result<PlayResult, IllegalGameMove> {
        self.play_observed(mv, budget, &mut ())
    }

    /// As [`Game::play`], telling `observer` of every lap.
    pub fn play_observed<O: GameLapObserver + ?Sized>(
        &self,
        mv: &GameMove,
        budget: Option<u64>,
        observer: &mut O,
    ) -> Result<PlayResult, IllegalGameMove> {
        match (self, mv) {
            (Game::Omweso(p) | Game::Mweiso(p), GameMove::Board(mv)) => {
                Ok(p.play_observed(mv, budget, &mut Forward(observer))?.into())
            }
            (Game::Oware(p), GameMove::Oware(house)) => Ok(p
                .play_observed(*house, budget, &mut |lap| observer.lap(lap.into()))?
                .into()),
            (_, mv) => Err(IllegalGameMove::WrongBoard {
                start: mv.start().hole(),
                ruleset: self.ruleset(),
            }),
        }
    }

    /// As [`Game::play`], with `side` saying who plays: refused, unless the game is over
    /// (which the board then reports), when a 4x8 move starts from the other player's pit
    /// ([`IllegalGameMove::NotYourPit`]; in Mweiso's opening either player may be the one
    /// playing) or when it is not `side`'s turn in Oware.
    pub fn play_as(
        &self,
        side: Side,
        mv: &GameMove,
        budget: Option<u64>,
    ) -> Result<PlayResult, IllegalGameMove> {
        if self.outcome().is_none() {
            match self {
                Game::Oware(p) if p.to_move() != side => {
                    return Err(IllegalGameMove::NotYourTurn { side })
                }
                Game::Omweso(_) | Game::Mweiso(_) if mv.side() != side => {
                    return Err(IllegalGameMove::NotYourPit {
                        start: mv.start().hole(),
                        mover: side,
                    })
                }
                _ => {}
            }
        }
        self.play(mv, budget)
    }

    /// The position string while `turn` (begun on this game, or on its steal) waits at a
    /// decision: the turn's board now, with any seeds in hand back at the lap's origin,
    /// and this game's side-to-move field. Oware turns never wait: their position now.
    #[must_use]
    pub fn position_during(&self, turn: &GameTurn) -> String {
        match (self, &turn.0) {
            (Game::Omweso(p) | Game::Mweiso(p), TurnKind::Board(t)) => Setup {
                board: t.board_now(),
                to_move: p.to_move(),
            }
            .to_string(),
            _ => turn.position_now(),
        }
    }
}

/// The position string (docs/rules.md#02-position-strings; Oware's `north/south side capS capN`).
impl fmt::Display for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Game::Omweso(p) | Game::Mweiso(p) => p.fmt(f),
            Game::Oware(p) => p.fmt(f),
        }
    }
}
