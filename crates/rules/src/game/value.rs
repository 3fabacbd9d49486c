//! A game of any ruleset as a value ([`Game`]), and what playing a move on it gives
//! ([`PlayResult`]): the types the game's jobs (its laps, its turns, its moves) share, in
//! a module of their own so that none of them names the module that puts them together.

use crate::oware;
use crate::{Outcome, Position, TurnEnd, TurnResult, TurnSummary, Variant};

/// A game of any ruleset: a valid position of its board. Omweso and Mweiso keep their
/// [`Rules`] (akakyala, capture history) inside their [`Position`].
///
/// Build one with [`Game::start`], [`Game::from_arrangements`], [`Game::parse`] or
/// `From` a per-board position, which keep the variant and the position's rules in step
/// (a `Game::Omweso` holding a Mweiso position would report the wrong ruleset).
///
/// ```
/// use omweso_rules::{Game, GameMove, Preset, Ruleset, Side};
///
/// let game = Game::start(Ruleset::Omweso, Preset::Outer, Side::South);
/// let result = game.play(&GameMove::parse(Ruleset::Omweso, "E1").unwrap(), Some(720)).unwrap();
/// assert_eq!(
///     result.game.to_string(),
///     "4,4,4,4,4,4,4,4/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,1/4,4,4,4,0,5,5,5 n"
/// );
/// assert_eq!(result.outcome, None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Game {
    Omweso(Position),
    Mweiso(Position),
    Oware(oware::Position),
}

/// A played move: the game after it (the other side to move), the turn's counts, and the
/// game's result if the move decided it.
///
/// For Oware, `summary` counts the one lap (none when the budget stopped the move) and
/// has no capture columns; the game after a move that ended the game is after the final
/// sweep ([`oware::MoveResult::position`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PlayResult {
    pub game: Game,
    pub summary: TurnSummary,
    pub outcome: Option<Outcome>,
}

impl From<TurnResult> for PlayResult {
    fn from(result: TurnResult) -> PlayResult {
        PlayResult {
            game: Game::from(result.position),
            summary: result.summary,
            outcome: result.outcome,
        }
    }
}

impl From<oware::MoveResult> for PlayResult {
    fn from(result: oware::MoveResult) -> PlayResult {
        PlayResult {
            game: Game::Oware(result.position),
            summary: TurnSummary {
                captured: u32::from(result.captured),
                capture_columns: 0,
                laps: u64::from(result.end == TurnEnd::Ended),
                seeds_sown: result.seeds_sown,
                end: result.end,
            },
            outcome: result.outcome,
        }
    }
}

/// The 4x8 game of `position`, by its rules.
impl From<Position> for Game {
    fn from(position: Position) -> Game {
        match position.rules().variant {
            Variant::Omweso => Game::Omweso(position),
            Variant::Mweiso => Game::Mweiso(position),
        }
    }
}

impl From<oware::Position> for Game {
    fn from(position: oware::Position) -> Game {
        Game::Oware(position)
    }
}
