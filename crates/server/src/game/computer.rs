//! The computer as a player in a game's task. It acts through the same table, log and
//! events as a person: what it has to do comes from [`Table::computer_due`], a move is
//! searched on the [`SearchPool`] (never on the async workers), and its answer comes back
//! to the game's task as a message tagged with the version it was asked at. The task plays
//! it as the computer's seat (`Table::act`, saved before it is shown, like a person's
//! move), unless the game moved on meanwhile: a stale answer is dropped and the search
//! stopped.
//!
//! A free setup's arrangement is searched the same way, on the pool with its stop flag
//! (`omweso_search::arrange`: level 1 at random, the others by searching the first moves
//! of candidate arrangements, against the first player's when it arranges second).
//!
//! Reproducible: a search's seed comes from the game's id and the number of moves played,
//! and a level bounds the search by work, not time, so a game replayed from the same
//! positions gets the same moves (and arrangement).

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use omweso_rules::{Arrangement, Game, Rules, Side};
use omweso_search::{arrange, best_move, random_arrangement, ArrangeQuery, Level, Limit, Query};
use rand::{rngs::SmallRng, Rng, SeedableRng};
use tokio::time::Instant;
use uuid::Uuid;

use super::table::{Action, ComputerDue, Table};
use crate::pools::search::{Busy, SearchPool, Searching};

/// How long after the search queue was full a game asks again.
const BUSY_RETRY: Duration = Duration::from_secs(1);
/// How long after the store refused the computer's move it is tried again.
const SAVE_RETRY: Duration = Duration::from_secs(1);

/// What the game's tasks share for the computer: where it thinks, and how long it lets a
/// person see their own move land before it answers.
#[derive(Clone, Debug)]
pub struct ComputerServices {
    pub pool: SearchPool,
    pub delay: Duration,
}

/// The seed of the computer's choice for move `moves_played` of game `id` (SplitMix64 of
/// the two): the same game at the same move searches the same way.
#[must_use]
pub fn seed(id: Uuid, moves_played: usize) -> u64 {
    let (high, low) = id.as_u64_pair();
    let mut z = (high ^ low.rotate_left(32))
        .wrapping_add((moves_played as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The computer's free-setup arrangement at `level` (docs/rules.md#11-setup), searched (on a
/// search pool thread) against `shown`, the first player's, when it arranges second. In
/// the side's own pit order 0..15, as `arrange` takes it. Should the search ever panic,
/// the seeds are placed two at a time in random pits drawn from the same seed (level
/// 1's way), so that the game never waits for an arrangement that will not come.
fn think_arrangement(
    rules: Rules,
    shown: Option<Arrangement>,
    budget: u64,
    level: Level,
    seed: u64,
    stop: &AtomicBool,
) -> Action {
    let query = ArrangeQuery {
        rules,
        shown,
        max_seeds: Some(budget),
        level,
        seed,
    };
    let searched = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| arrange(&query, stop)));
    let arrangement = match searched {
        Ok(arranged) => arranged.arrangement,
        Err(_) => {
            tracing::error!("the arrangement search panicked; the computer arranges at random");
            random_arrangement(seed)
        }
    };
    Action::Arrange {
        pits: arrangement.counts().iter().map(|&c| u64::from(c)).collect(),
    }
}

/// The search's level of the same number as the protocol's (both are 1..=8, checked when
/// the game was asked for).
fn search_level(level: omweso_protocol::ComputerLevel) -> Level {
    Level::new(i64::from(level.get())).unwrap_or(Level::MIN)
}

/// The computer's move at `level`, searched (on a search pool thread). The search is
/// the fixed interface of `omweso-search`; should it ever panic, a legal move drawn with
/// the same seed is played instead, so that a game is never left waiting forever.
fn think(
    game: Game,
    side: Side,
    budget: u64,
    level: Level,
    seed: u64,
    stop: &AtomicBool,
) -> Result<Action, String> {
    let query = Query {
        game,
        side,
        max_seeds: Some(budget),
        limit: Limit::Level(level),
        seed,
    };
    let searched =
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| best_move(&query, stop)));
    let mv = match searched {
        Ok(Ok(found)) => found.mv,
        Ok(Err(error)) => return Err(error.to_string()),
        Err(_) => {
            tracing::error!("the search panicked; the computer plays a random legal move");
            let mut rng = SmallRng::seed_from_u64(seed);
            game.random_move(side, Some(budget), &mut |n| rng.random_range(0..n))
                .ok_or_else(|| "no legal move".to_owned())?
        }
    };
    // The whole move, its decision answers included: one `move`, as a client may send.
    Ok(Action::Move {
        notation: mv.to_string(),
    })
}

/// A search under way, for the game at `version`.
#[derive(Debug)]
struct Thinking {
    version: u64,
    side: Side,
    searching: Searching<Result<Action, String>>,
    not_before: Instant,
}

/// An answer to play at `version`, not before `not_before`.
#[derive(Clone, Debug)]
struct Answer {
    version: u64,
    side: Side,
    action: Action,
    not_before: Instant,
}

/// What a search came back with.
#[derive(Debug)]
pub struct Thought {
    version: u64,
    side: Side,
    not_before: Instant,
    answer: Result<Action, String>,
}

/// The computer's part of one game's task: the search it waits for, or the answer it
/// holds until the least delay is over.
#[derive(Debug, Default)]
pub struct ComputerPlayer {
    thinking: Option<Thinking>,
    answer: Option<Answer>,
    /// Not before this does it ask the pool again (the queue was full, or the store
    /// refused its move).
    retry_at: Option<Instant>,
    /// A version at which it has nothing to play (the search found no move, or the table
    /// refused the one it found): not asked again until the game moves on.
    stuck_at: Option<u64>,
}

impl ComputerPlayer {
    /// Looks at the table after any change: forgets a search or an answer for an earlier
    /// version (stopping the search), and starts on what is due now. The least delay
    /// counts from here, the moment the opponent's move was saved.
    pub fn look(&mut self, table: &Table, services: &ComputerServices) {
        let version = table.version();
        let due = table.computer_due();
        if self
            .thinking
            .as_ref()
            .is_some_and(|t| t.version != version || due.is_none())
        {
            // Dropping it raises its stop flag.
            self.thinking = None;
        }
        if self
            .answer
            .as_ref()
            .is_some_and(|a| a.version != version || due.is_none())
        {
            self.answer = None;
        }
        let now = Instant::now();
        let Some((_, computer)) = table.computer() else {
            return;
        };
        let Some(due) = due else { return };
        if self.thinking.is_some()
            || self.answer.is_some()
            || self.stuck_at == Some(version)
            || self.retry_at.is_some_and(|at| at > now)
        {
            return;
        }
        self.retry_at = None;
        let not_before = now + services.delay;
        let (side, action) = match due {
            ComputerDue::Arrange {
                side,
                rules,
                shown,
                budget,
            } => {
                // Searched on the pool like a move, off the game's task.
                let level = search_level(computer.level);
                // Numbered past any move number, so as not to repeat a move's seed.
                let seed = seed(table.id(), usize::MAX - side.index());
                let asked = services.pool.try_run(move |stop| {
                    Ok(think_arrangement(rules, shown, budget, level, seed, stop))
                });
                self.wait_for(asked, version, side, not_before, now);
                return;
            }
            ComputerDue::Decide { side, choice } => (side, Action::Decide { choice }),
            ComputerDue::AnswerImpasse { side, game } => {
                let asked = services
                    .pool
                    .try_run(move |stop| Ok(super::impasse_answer::answer(&game, side, stop)));
                self.wait_for(asked, version, side, not_before, now);
                return;
            }
            ComputerDue::Move { side, game, budget } => {
                let level = search_level(computer.level);
                let seed = seed(table.id(), table.moves_played());
                let asked = services
                    .pool
                    .try_run(move |stop| think(game, side, budget, level, seed, stop));
                self.wait_for(asked, version, side, not_before, now);
                return;
            }
        };
        self.answer = Some(Answer {
            version,
            side,
            action,
            not_before,
        });
    }

    /// Waits for a search asked of the pool (or asks again later when it was busy).
    fn wait_for(
        &mut self,
        asked: Result<Searching<Result<Action, String>>, Busy>,
        version: u64,
        side: Side,
        not_before: Instant,
        now: Instant,
    ) {
        match asked {
            Ok(searching) => {
                self.thinking = Some(Thinking {
                    version,
                    side,
                    searching,
                    not_before,
                });
            }
            Err(Busy) => self.retry_at = Some(now + BUSY_RETRY),
        }
    }

    /// The search's answer, when it comes (never, while none is under way).
    pub async fn thought(&mut self) -> Thought {
        let Some(thinking) = self.thinking.as_mut() else {
            return std::future::pending().await;
        };
        let answer = match (&mut thinking.searching.answer).await {
            Ok(answer) => answer,
            Err(_) => Err("the search ended without an answer".to_owned()),
        };
        Thought {
            version: thinking.version,
            side: thinking.side,
            not_before: thinking.not_before,
            answer,
        }
    }

    /// Takes a search's answer in: held until its least delay is over.
    pub fn heard(&mut self, thought: Thought, game: Uuid) {
        self.thinking = None;
        match thought.answer {
            Ok(action) => {
                self.answer = Some(Answer {
                    version: thought.version,
                    side: thought.side,
                    action,
                    not_before: thought.not_before,
                });
            }
            Err(error) => {
                tracing::error!(%game, version = thought.version, %error, "the computer found no move");
                self.stuck_at = Some(thought.version);
            }
        }
    }

    /// The answer to play now at `version`, once its least delay is over.
    pub fn take_due(&mut self, version: u64) -> Option<(Side, Action)> {
        let due = self
            .answer
            .as_ref()
            .is_some_and(|a| a.version == version && a.not_before <= Instant::now());
        if !due {
            return None;
        }
        self.answer.take().map(|a| (a.side, a.action))
    }

    /// The table refused the computer's answer at `version`: not asked again there.
    pub fn refused(&mut self, version: u64) {
        self.stuck_at = Some(version);
    }

    /// The store refused the computer's move: it is played again a second later.
    pub fn save_failed(&mut self, version: u64, side: Side, action: Action) {
        self.answer = Some(Answer {
            version,
            side,
            action,
            not_before: Instant::now() + SAVE_RETRY,
        });
    }

    /// When the task should wake for the computer: its answer's least delay, or asking the
    /// pool again.
    #[must_use]
    pub fn wake(&self) -> Option<Instant> {
        let answer = self.answer.as_ref().map(|a| a.not_before);
        answer.into_iter().chain(self.retry_at).min()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seed_depends_on_the_game_and_the_move_only() {
        let id = Uuid::from_u128(0x0192_3456_789a_7bcd_8ef0_1234_5678_9abc);
        let other = Uuid::from_u128(0x0192_3456_789a_7bcd_8ef0_1234_5678_9abd);
        assert_eq!(seed(id, 7), seed(id, 7));
        assert_ne!(seed(id, 7), seed(id, 8));
        assert_ne!(seed(id, 7), seed(other, 7));
    }

    #[test]
    fn the_computer_arranges_by_its_level_from_its_seed() {
        let stop = AtomicBool::new(false);
        let pits = |action: Action| match action {
            Action::Arrange { pits } => pits,
            other => panic!("an arrangement, not {other:?}"),
        };
        let outer = omweso_rules::Preset::Outer.arrangement();
        for level in [Level::MIN, Level::new(4).unwrap()] {
            for shown in [None, Some(outer)] {
                let arranged = pits(think_arrangement(
                    Rules::OMWESO,
                    shown,
                    720,
                    level,
                    5,
                    &stop,
                ));
                assert_eq!(arranged.len(), 16);
                assert_eq!(arranged.iter().sum::<u64>(), 32);
                let query = ArrangeQuery {
                    rules: Rules::OMWESO,
                    shown,
                    max_seeds: Some(720),
                    level,
                    seed: 5,
                };
                let searched = arrange(&query, &stop).arrangement.counts().map(u64::from);
                assert_eq!(arranged, searched.to_vec());
            }
        }
        // Level 1 places the seeds two at a time, at random (the fallback too).
        let level_1 = pits(think_arrangement(
            Rules::OMWESO,
            None,
            720,
            Level::MIN,
            5,
            &stop,
        ));
        assert!(level_1.iter().all(|&p| p % 2 == 0), "{level_1:?}");
        assert_eq!(
            level_1,
            random_arrangement(5).counts().map(u64::from).to_vec()
        );
    }

    #[test]
    fn thinking_answers_a_whole_legal_move_with_its_answers() {
        let game = Game::start(
            omweso_rules::Ruleset::Omweso,
            omweso_rules::Preset::Outer,
            Side::South,
        );
        let stop = AtomicBool::new(false);
        let Ok(Action::Move { notation }) = think(game, Side::South, 720, Level::MIN, 1, &stop)
        else {
            panic!("a move");
        };
        let mv = omweso_rules::GameMove::parse(omweso_rules::Ruleset::Omweso, &notation).unwrap();
        assert!(game.legal_moves(Side::South, Some(720)).contains(&mv));
        // North may not move first: the search says so, nothing is invented.
        assert!(think(game, Side::North, 720, Level::MIN, 1, &stop).is_err());
    }
}
