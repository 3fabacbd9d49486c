//! Playing a record's moves through the rules engine (docs/game-file.md#replay): each
//! move legal for the side the notation names, steals marked exactly where the mover is
//! not the side to move, and the result the board gives (or one the board cannot
//! contradict: a resignation, an abandonment, an adjudication, an agreed impasse).

use omweso_rules::{AnnulReason, Game, GameMove, Outcome, Preset, Side, TurnEnd, Victory};

use crate::record::{GameRecord, GameResult, Termination};

/// Turns are replayed under the server's hard cap of sowing (docs/rules.md#4-play-under-the-referee-server-rules):
/// every finished turn ever seen sowed far less, and it bounds what a hostile file costs. A
/// turn that ran out of a smaller budget says so (`[%budget N]`).
pub const REPLAY_SEED_CAP: u64 = 20_000;

/// A record's game as played: the start, the game after each move, and the result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    pub start: Game,
    /// The game after each move, in order.
    pub positions: Vec<Game>,
    /// The game at the end: after the last move, or after the impasse's split.
    pub end: Game,
    /// The result the board gives, or the record's own where the board has none
    /// (resigned, abandoned, adjudicated, impasse); `None` while unfinished.
    pub outcome: Option<Outcome>,
}

/// Why a record's moves do not replay: the move (1-based; 0 for the start or the result)
/// and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}{what}", if *.ply == 0 { String::new() } else { format!("move {}: ", .ply) })]
pub struct ReplayError {
    pub ply: usize,
    pub what: String,
}

fn fail(ply: usize, what: impl Into<String>) -> ReplayError {
    ReplayError {
        ply,
        what: what.into(),
    }
}

impl GameRecord {
    /// The position the game starts from.
    pub fn start(&self) -> Result<Game, ReplayError> {
        let akakyala = self.akakyala.then_some([false, false]);
        match &self.setup {
            Some(text) => Game::parse_with_akakyala(self.ruleset, text, akakyala)
                .map_err(|e| fail(0, format!("the Setup: {e}"))),
            None => {
                let game = Game::start(self.ruleset, Preset::Outer, Side::South);
                match akakyala {
                    Some(history) => game
                        .with_akakyala(history)
                        .map_err(|e| fail(0, e.to_string())),
                    None => Ok(game),
                }
            }
        }
    }

    /// Plays every move with the rules engine and checks the result.
    pub fn replay(&self) -> Result<Replay, ReplayError> {
        let start = self.start()?;
        let mut game = start;
        let mut positions = Vec::with_capacity(self.moves.len());
        let mut outcome = game.outcome();
        for (i, record) in self.moves.iter().enumerate() {
            let ply = i + 1;
            let label = |what: String| fail(ply, format!("{}: {what}", record.notation));
            if let Some(over) = outcome {
                return Err(label(format!("the game was over before it ({over})")));
            }
            let mv = GameMove::parse(self.ruleset, &record.notation)
                .map_err(|e| label(e.to_string()))?;
            if mv.side() != record.side {
                return Err(label(format!(
                    "the move is {}'s, not {}'s",
                    mv.side().name(),
                    record.side.name()
                )));
            }
            let board = match game.to_move() {
                _ if game.is_opening() => {
                    if record.stolen {
                        return Err(label(
                            "no turn of Mweiso's opening can be stolen".to_owned(),
                        ));
                    }
                    if !game.may_move(record.side) {
                        return Err(label(format!(
                            "{} has played their opening turn already",
                            record.side.name()
                        )));
                    }
                    game
                }
                Some(to_move) if to_move == record.side => {
                    if record.stolen {
                        return Err(label(format!(
                            "{} is to move, so the turn is not stolen (no ^)",
                            to_move.name()
                        )));
                    }
                    game
                }
                Some(to_move) => {
                    if !record.stolen {
                        return Err(label(format!(
                            "{} is to move: a turn {} plays instead is stolen, written {}^",
                            to_move.name(),
                            record.side.name(),
                            record.notation
                        )));
                    }
                    game.with_side_to_move(record.side)
                }
                None => return Err(label("nobody is to move".to_owned())),
            };
            let budget = record.budget.unwrap_or(REPLAY_SEED_CAP);
            let played = board
                .play(&mv, Some(budget))
                .map_err(|e| label(e.to_string()))?;
            if record.budget.is_some() && played.summary.end != TurnEnd::Budget {
                return Err(label(format!(
                    "[%budget {budget}] marks a turn that ran out of its budget; this one did not"
                )));
            }
            game = played.game;
            positions.push(game);
            outcome = played.outcome;
        }
        let mut end = game;
        let termination = self.termination.map(|t| t.name());
        let outcome = match (outcome, self.termination) {
            (_, None) => {
                if let Some(over) = outcome {
                    return Err(fail(
                        0,
                        format!("the game is over ({over}), but its result is *"),
                    ));
                }
                None
            }
            (Some(board), Some(Termination::Victory(Victory::Impasse))) => {
                return Err(fail(
                    0,
                    format!("the moves end the game ({board}) before any impasse"),
                ))
            }
            (Some(board), Some(_)) => {
                if Some(board) != self.outcome() {
                    return Err(fail(
                        0,
                        format!(
                            "the moves end the game as {board}, but the record says {} by {}",
                            self.result,
                            termination.unwrap_or("?")
                        ),
                    ));
                }
                Some(board)
            }
            (None, Some(Termination::Victory(Victory::Impasse))) => {
                let (Some(impasse), Some(oware)) = (self.impasse, game.oware()) else {
                    return Err(fail(
                        0,
                        "only Oware ends at an impasse, with its Impasse tag",
                    ));
                };
                if oware.impasse_split() != impasse.split {
                    let [s, n] = oware.impasse_split();
                    return Err(fail(
                        0,
                        format!(
                            "the seeds left split {s} to South and {n} to North, not {} and {}",
                            impasse.split[0], impasse.split[1]
                        ),
                    ));
                }
                let (settled, agreed) = oware.settle_impasse();
                if Some(agreed) != self.outcome() {
                    return Err(fail(
                        0,
                        format!("the impasse ends the game as {agreed}, not {}", self.result),
                    ));
                }
                end = Game::Oware(settled);
                Some(agreed)
            }
            // Decided off the board; or annulled when the move-completion limit ran out
            // at a decision point (the unfinished turn is not a move of the file).
            (
                None,
                Some(
                    Termination::Victory(
                        Victory::Resigned | Victory::Abandoned | Victory::Adjudicated,
                    )
                    | Termination::Annulled(AnnulReason::Budget),
                ),
            ) => self.outcome(),
            (None, Some(t)) => {
                return Err(fail(
                    0,
                    format!("the record says the game ended by {t}, but the moves do not end it"),
                ))
            }
        };
        if self.result == GameResult::Unfinished && outcome.is_some() {
            return Err(fail(0, "an unfinished game has no outcome"));
        }
        Ok(Replay {
            start,
            positions,
            end,
            outcome,
        })
    }
}
