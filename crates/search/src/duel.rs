//! One game between two players from a start, as `omweso arena` plays them: no I/O and
//! no threads (the arena runs games on its own threads).

use std::sync::atomic::AtomicBool;

use omweso_rules::{Game, Outcome, Side};

use crate::tt::mix;
use crate::{Player, SearchError};

/// How a game between two players ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    /// The result, or `None` when the game reached the move cap (scored as a draw).
    pub outcome: Option<Outcome>,
    /// Whole moves played.
    pub plies: u32,
}

/// Plays `start` to its end between `players` (`[south, north]`), `first` moving first
/// (in Mweiso's simultaneous opening: playing their opening turn first), each move
/// explored under `budget`, for at most `max_plies` moves. Move `i` is searched with the
/// seed `mix(seed + i)`, so a game of reproducible players is the same for the same seed.
pub fn play(
    start: Game,
    first: Side,
    players: [Player; 2],
    budget: Option<u64>,
    max_plies: u32,
    seed: u64,
) -> Result<Played, SearchError> {
    let stop = AtomicBool::new(false);
    let mut game = if start.is_opening() {
        start
    } else {
        start.with_side_to_move(first)
    };
    for ply in 0..max_plies {
        if let Some(outcome) = game.outcome() {
            return Ok(Played {
                outcome: Some(outcome),
                plies: ply,
            });
        }
        let side = game.to_move().unwrap_or(first);
        let player = players[side.index()];
        let mv = player.choose(
            &game,
            side,
            budget,
            mix(seed.wrapping_add(u64::from(ply))),
            &stop,
        )?;
        let result = game
            .play_as(side, &mv, budget)
            .expect("a player's move is one of the legal moves");
        if let Some(outcome) = result.outcome {
            return Ok(Played {
                outcome: Some(outcome),
                plies: ply + 1,
            });
        }
        game = result.game;
    }
    Ok(Played {
        outcome: None,
        plies: max_plies,
    })
}
