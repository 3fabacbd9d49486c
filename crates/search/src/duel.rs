//! One game between two players from a start, as `omweso arena` plays them: no I/O and
//! no threads (the arena runs games on its own threads).

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

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
    /// A 64-bit digest of the moves played, in order: games with different digests
    /// differ (the arena counts distinct games with it).
    pub digest: u64,
    /// Time each seat (`[south, north]`) spent choosing its moves, and the moves it chose
    /// (the random opening moves not counted).
    pub thinking: [Duration; 2],
    pub moves: [u32; 2],
}

/// Plays `start` to its end between `players` (`[south, north]`), `first` moving first
/// (in Mweiso's simultaneous opening: playing their opening turn first), each move
/// explored under `budget`, for at most `max_plies` moves. The first `random_plies`
/// moves are uniformly random (an opening spread, so that games between deterministic
/// players differ), the rest the players'. Move `i` is searched with the seed
/// `mix(seed + i)`, so a game of reproducible players is the same for the same seed.
pub fn play(
    start: Game,
    first: Side,
    players: [Player; 2],
    budget: Option<u64>,
    max_plies: u32,
    random_plies: u32,
    seed: u64,
) -> Result<Played, SearchError> {
    let stop = AtomicBool::new(false);
    let mut game = if start.is_opening() {
        start
    } else {
        start.with_side_to_move(first)
    };
    let mut digest = mix(seed);
    let mut thinking = [Duration::ZERO; 2];
    let mut moves = [0u32; 2];
    for ply in 0..max_plies {
        if let Some(outcome) = game.outcome() {
            return Ok(Played {
                outcome: Some(outcome),
                plies: ply,
                digest,
                thinking,
                moves,
            });
        }
        // Both owing their opening: `first` opens first, unless it has no opening turn
        // and skips it (RULES.md 2).
        let side = game.to_move().unwrap_or_else(|| {
            if game.opening_owed().contains(&first) {
                first
            } else {
                first.other()
            }
        });
        let player = if ply < random_plies {
            Player::Random
        } else {
            players[side.index()]
        };
        let started = Instant::now();
        let move_seed = mix(seed.wrapping_add(u64::from(ply)));
        let mv = player.choose(&game, side, budget, move_seed, &stop)?;
        if ply >= random_plies {
            thinking[side.index()] += started.elapsed();
            moves[side.index()] += 1;
        }
        digest = mix(digest ^ text_digest(&mv.to_string()));
        let result = game
            .play_as(side, &mv, budget)
            .expect("a player's move is one of the legal moves");
        if let Some(outcome) = result.outcome {
            return Ok(Played {
                outcome: Some(outcome),
                plies: ply + 1,
                digest,
                thinking,
                moves,
            });
        }
        game = result.game;
    }
    Ok(Played {
        outcome: None,
        plies: max_plies,
        digest,
        thinking,
        moves,
    })
}

/// FNV-1a of a move's notation, then mixed into the game's digest.
fn text_digest(text: &str) -> u64 {
    text.bytes().fold(0xCBF2_9CE4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3)
    })
}
