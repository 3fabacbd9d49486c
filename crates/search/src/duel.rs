//! One game between two players from a start, as `omweso arena` plays them: no I/O and
//! no threads (the arena runs games on its own threads). Omweso's free setup is
//! arranged first ([`free_start`]): the first mover arranges first, the second sees it.

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use omweso_rules::{Arrangement, Game, Outcome, Rules, Side};

use crate::arrange::{arrange, random_arrangement, ArrangeQuery};
use crate::tt::mix;
use crate::{Level, Player, SearchError};

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
    /// Time each seat spent arranging its seeds (zero from a preset start).
    pub arranging: [Duration; 2],
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
                arranging: [Duration::ZERO; 2],
            });
        }
        // Both owing their opening: `first` opens first, unless it has no opening turn
        // and skips it (docs/rules.md#2-mweiso-kagera-murray-1951).
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
                arranging: [Duration::ZERO; 2],
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
        arranging: [Duration::ZERO; 2],
    })
}

/// FNV-1a of a move's notation, then mixed into the game's digest.
fn text_digest(text: &str) -> u64 {
    text.bytes().fold(0xCBF2_9CE4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3)
    })
}

/// How a player arranges Omweso's free setup in the arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arranging {
    /// The 32 seeds two at a time into random pits (the server's level 1).
    Random,
    /// As the level does ([`arrange`]).
    Level(Level),
}

/// Not `random` or `L1`..`L8`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a way to arrange: write random or L1..L8")]
pub struct ParseArrangingError(pub String);

impl FromStr for Arranging {
    type Err = ParseArrangingError;

    fn from_str(s: &str) -> Result<Arranging, ParseArrangingError> {
        let bad = || ParseArrangingError(s.to_owned());
        let lower = s.to_ascii_lowercase();
        if lower == "random" {
            return Ok(Arranging::Random);
        }
        let n: i64 = lower
            .strip_prefix('l')
            .and_then(|n| n.parse().ok())
            .ok_or_else(bad)?;
        Level::new(n).map(Arranging::Level).map_err(|_| bad())
    }
}

impl fmt::Display for Arranging {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Arranging::Random => f.write_str("random"),
            Arranging::Level(level) => write!(f, "L{level}"),
        }
    }
}

impl Arranging {
    /// How `player` arranges unless told otherwise: a level as itself, random play at
    /// random, and every other searching player (node or time budgets, Monte Carlo, a
    /// spelled-out strength) as level 8, the strongest arrangement, reproducible
    /// whatever the player's own play.
    #[must_use]
    pub const fn of(player: Player) -> Arranging {
        match player {
            Player::Level(level) => Arranging::Level(level),
            Player::Random => Arranging::Random,
            Player::Nodes(_) | Player::Millis(_) | Player::Mcts(_) | Player::Tuned(_) => {
                Arranging::Level(Level::MAX)
            }
        }
    }

    /// This arrangement for a player who sees `shown` (`None`: arranging first).
    #[must_use]
    pub fn arrange(
        self,
        rules: Rules,
        shown: Option<Arrangement>,
        budget: Option<u64>,
        seed: u64,
    ) -> Arrangement {
        match self {
            Arranging::Random => random_arrangement(seed),
            Arranging::Level(level) => {
                let stop = AtomicBool::new(false);
                let query = ArrangeQuery {
                    rules,
                    shown,
                    max_seeds: budget,
                    level,
                    seed,
                };
                arrange(&query, &stop).arrangement
            }
        }
    }
}

/// An Omweso free start (docs/rules.md#11-setup) arranged by `arranging` (`[south, north]`):
/// `first` arranges first, then the other, seeing it; `first` moves first. Each seat's
/// arrangement is drawn from its own seed, `mix` of the game's seed and the seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FreeStart {
    pub game: Game,
    /// `[south, north]`.
    pub arrangements: [Arrangement; 2],
    /// Time each seat spent arranging.
    pub arranging: [Duration; 2],
}

/// Arranges a free start (see [`FreeStart`]).
#[must_use]
pub fn free_start(
    rules: Rules,
    first: Side,
    arranging: [Arranging; 2],
    budget: Option<u64>,
    seed: u64,
) -> FreeStart {
    let seat_seed = |side: Side| mix(seed ^ 0x6672_6565_0000_0000 ^ side.index() as u64);
    let mut times = [Duration::ZERO; 2];
    let mut timed = |side: Side, shown: Option<Arrangement>| {
        let started = Instant::now();
        let arrangement = arranging[side.index()].arrange(rules, shown, budget, seat_seed(side));
        times[side.index()] = started.elapsed();
        arrangement
    };
    let first_arrangement = timed(first, None);
    let second_arrangement = timed(first.other(), Some(first_arrangement));
    let arrangements = if first == Side::South {
        [first_arrangement, second_arrangement]
    } else {
        [second_arrangement, first_arrangement]
    };
    FreeStart {
        game: Game::from_arrangements(rules, arrangements[0], arrangements[1], first),
        arrangements,
        arranging: times,
    }
}

/// [`play`] from a free start arranged as [`free_start`] says: the game's digest covers
/// the arrangements, and the arranging time is counted apart from the moves'.
#[allow(clippy::too_many_arguments)]
pub fn play_free(
    rules: Rules,
    first: Side,
    arranging: [Arranging; 2],
    players: [Player; 2],
    budget: Option<u64>,
    max_plies: u32,
    random_plies: u32,
    seed: u64,
) -> Result<Played, SearchError> {
    let start = free_start(rules, first, arranging, budget, seed);
    let mut played = play(
        start.game,
        first,
        players,
        budget,
        max_plies,
        random_plies,
        seed,
    )?;
    for arrangement in start.arrangements {
        let text: String = arrangement
            .counts()
            .iter()
            .map(|&c| char::from(b'a' + c))
            .collect();
        played.digest = mix(played.digest ^ text_digest(&text));
    }
    played.arranging = start.arranging;
    Ok(played)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arranging_parses_and_displays_back() {
        for text in ["random", "L1", "L8"] {
            assert_eq!(text.parse::<Arranging>().unwrap().to_string(), text);
        }
        assert_eq!("l3".parse(), Ok(Arranging::Level(Level::new(3).unwrap())));
        for bad in ["", "L0", "L9", "own", "nodes:5", "L", "Lx"] {
            assert_eq!(
                bad.parse::<Arranging>(),
                Err(ParseArrangingError(bad.to_owned()))
            );
        }
        assert_eq!(Arranging::of(Player::Random), Arranging::Random);
        assert_eq!(
            Arranging::of(Player::Nodes(2_000)),
            Arranging::Level(Level::MAX)
        );
    }

    #[test]
    fn the_first_mover_arranges_first_and_the_second_sees_it() {
        let level = Arranging::Level(Level::new(4).unwrap());
        for first in Side::ALL {
            let start = free_start(
                Rules::OMWESO,
                first,
                [level, Arranging::Random],
                Some(720),
                9,
            );
            assert_eq!(start.game.to_move(), Some(first));
            let [south, north] = start.arrangements;
            // South's arrangement is level 4's, seeing North's when North arranged first.
            let shown = (first == Side::North).then_some(north);
            assert_eq!(
                south,
                level.arrange(
                    Rules::OMWESO,
                    shown,
                    Some(720),
                    mix(9 ^ 0x6672_6565_0000_0000)
                )
            );
            assert_eq!(
                north,
                random_arrangement(mix(9 ^ 0x6672_6565_0000_0000 ^ 1))
            );
            assert_eq!(
                start.game,
                Game::from_arrangements(Rules::OMWESO, south, north, first)
            );
            // The same seed, the same start.
            let again = free_start(
                Rules::OMWESO,
                first,
                [level, Arranging::Random],
                Some(720),
                9,
            );
            assert_eq!(again.arrangements, start.arrangements);
        }
    }
}
