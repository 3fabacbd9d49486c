//! The search finds forced results in hand-made positions, with the expected values
//! worked out in the comments; it is reproducible with its seed, honours its stop flag,
//! and its levels search more as they rise.

use std::sync::atomic::AtomicBool;

use omweso_rules::{
    Game, GameMove, Outcome, Position, Rules, Ruleset, Setup, Side, TurnEnd, Victory,
};
use omweso_search::{best_move, Level, Limit, Player, Query, SearchError};

fn partial(text: &str, rules: Rules) -> Game {
    let setup: Setup = text.parse().expect("a position string");
    Game::from(Position::from_setup_partial(setup, rules).expect("a valid partial position"))
}

fn query(game: Game, side: Side, limit: Limit, seed: u64) -> Query {
    Query {
        game,
        side,
        max_seeds: Some(720),
        limit,
        seed,
    }
}

fn names(moves: &[GameMove]) -> Vec<String> {
    moves.iter().map(ToString::to_string).collect()
}

/// South to move:
///
/// ```text
/// row 4   A4 1  .  .  D4 3  .  .  .  H4 5
/// row 3   A3 1  .  .  D3 3  .  .  .  H3 6
/// row 2   A2 1  .  C2 2  .  .  .  .  H2 1
/// row 1   .  B1 2  .  .  E1 4  .  .  .
/// ```
///
/// - `E1`: 4 seeds to F1, G1, H1, H2; H2 held 1, and H3 (6) and H4 (5) are occupied:
///   South captures 11 in column H and sows them from E1: F1 .. H1, H2 .. A2 (11 pits),
///   the last in A2, which held 1, with A3 (1) and A4 (1) occupied: a capture in column A.
///   Captures in both end columns: emitwe-ebiri, South wins (docs/rules.md#15-end-of-the-game, 1.5.2).
/// - `B1`: C1, D1 (empty): the turn ends, no capture.
/// - `B1'` (clockwise from a reverse pit, allowed as it captures): A1, A2 (held 1):
///   captures A3 + A4 = 2, which can only go anticlockwise (no direct capture clockwise
///   any more): C1, D1, the end. Column A only.
/// - `C2`: B2, A2 (held 1): captures 2 in column A, sows them B2, A2 (now 3, nothing to
///   capture): relay A1, B1, C1 (empty), the end. Column A only.
///
/// So exactly one move captures in both A and H: `E1`, a win in one move, scored 1.
#[test]
fn emitwe_ebiri_in_one() {
    let game = partial(
        "1,0,0,3,0,0,0,5/1,0,0,3,0,0,0,6/1,0,2,0,0,0,0,1/0,2,0,0,4,0,0,0 s",
        Rules::OMWESO,
    );
    let moves = game.legal_moves(Side::South, Some(720));
    assert_eq!(names(&moves), ["B1", "B1'", "E1", "C2"]);
    let mut both_ends = Vec::new();
    for mv in &moves {
        let result = game.play_as(Side::South, mv, Some(720)).unwrap();
        let columns = result.summary.capture_columns_letters();
        if columns.contains('A') && columns.contains('H') {
            both_ends.push(mv.to_string());
            assert_eq!(
                result.outcome,
                Some(Outcome::Win {
                    winner: Side::South,
                    victory: Victory::EmitweEbiri
                })
            );
        }
    }
    assert_eq!(both_ends, ["E1"]);
    let stop = AtomicBool::new(false);
    for limit in [
        Limit::Nodes(10_000),
        Limit::Level(Level::new(1).unwrap()),
        Limit::Level(Level::new(4).unwrap()),
        Limit::Level(Level::MAX),
    ] {
        let found = best_move(&query(game, Side::South, limit, 7), &stop).unwrap();
        assert_eq!(found.mv.to_string(), "E1", "{limit:?}");
        assert_eq!(found.score, 1.0, "{limit:?}");
        assert_eq!(found.pv, vec![found.mv.clone()], "{limit:?}");
    }
}

/// Oware, South to move, South has captured 20 and North 16 (12 seeds on the board):
///
/// ```text
/// North  A2 4  B2 0  C2 0  D2 0  E2 2  F2 1
/// South  A1 1  B1 0  C1 0  D1 4  E1 0  F1 0
/// ```
///
/// `D1` sows E1, F1, F2, E2: E2 becomes 3 (the last seed) and F2 before it 2, a chain of
/// two captures, 3 + 2 = 5 (A2's 4 stay, so it is no grand slam): South reaches 25 and
/// wins. `A1` (to B1) captures nothing.
#[test]
fn oware_capture_chain_to_25() {
    let game = Game::parse(Ruleset::Oware, "4,0,0,0,2,1/1,0,0,4,0,0 s 20 16").unwrap();
    let win = game
        .play(&GameMove::parse(Ruleset::Oware, "D1").unwrap(), None)
        .unwrap();
    assert_eq!(win.summary.captured, 5);
    // 25: the game stops and each takes the seeds left on their side (docs/rules.md#3-oware-abapa), South
    // A1, E1 and F1's 3 (28), North A2's 4 (20).
    assert_eq!(win.game.scores(), Some([28, 20]));
    assert_eq!(
        win.outcome,
        Some(Outcome::Win {
            winner: Side::South,
            victory: Victory::Captures
        })
    );
    let stop = AtomicBool::new(false);
    for limit in [
        Limit::Nodes(1_000),
        Limit::Level(Level::MIN),
        Limit::Level(Level::MAX),
        Limit::Millis(50),
    ] {
        let found = best_move(&query(game, Side::South, limit, 3), &stop).unwrap();
        assert_eq!(found.mv.to_string(), "D1", "{limit:?}");
        assert_eq!(found.score, 1.0, "{limit:?}");
    }
}

/// docs/rules.md#14-never-ending-turns's long cycle: South to move, with 58 seeds to North's 6 (and North's
/// inner row empty, so nothing can be captured by South). `E1` never ends (it repeats
/// its first state after 203,882,464 laps); under the 720-seed budget it stops with the
/// budget exhausted and the game annulled, a 0. Every other move keeps a won game going
/// (North has 6 seeds in two pits of 2 and two singletons), so the search, which scores
/// its material lead above 0, avoids `E1`.
#[test]
fn a_winning_side_avoids_the_annulment() {
    let game = Game::parse(
        Ruleset::Omweso,
        "1,2,0,0,0,2,0,1/0,0,0,0,0,0,0,0/12,0,1,8,1,6,1,2/0,6,0,8,3,7,2,1 s",
    )
    .unwrap();
    let e1 = GameMove::parse(Ruleset::Omweso, "E1").unwrap();
    let annulled = game.play_as(Side::South, &e1, Some(720)).unwrap();
    assert_eq!(annulled.summary.end, TurnEnd::Budget);
    assert!(matches!(annulled.outcome, Some(Outcome::Annulled { .. })));
    let stop = AtomicBool::new(false);
    for limit in [
        Limit::Nodes(2_000),
        Limit::Level(Level::new(2).unwrap()),
        Limit::Level(Level::new(5).unwrap()),
    ] {
        let found = best_move(&query(game, Side::South, limit, 11), &stop).unwrap();
        assert_ne!(found.mv, e1, "{limit:?}");
        assert!(found.score > 0.5, "{limit:?}: {}", found.score);
    }
}

#[test]
fn the_same_seed_gives_the_same_answer() {
    let stop = AtomicBool::new(false);
    for ruleset in Ruleset::ALL {
        let game = Game::start(ruleset, omweso_rules::Preset::Outer, Side::South);
        for limit in [Limit::Nodes(3_000), Limit::Level(Level::new(2).unwrap())] {
            let a = best_move(&query(game, Side::South, limit, 42), &stop).unwrap();
            let b = best_move(&query(game, Side::South, limit, 42), &stop).unwrap();
            assert_eq!(a, b, "{ruleset} {limit:?}");
            assert!(game.legal_moves(Side::South, Some(720)).contains(&a.mv));
            assert!((-1.0..=1.0).contains(&a.score));
        }
    }
}

#[test]
fn a_raised_stop_flag_answers_at_once_with_a_legal_move() {
    // Stopped before it starts: only the one-move search runs (it always completes).
    let stop = AtomicBool::new(true);
    for ruleset in Ruleset::ALL {
        let game = Game::start(ruleset, omweso_rules::Preset::Outer, Side::South);
        let found = best_move(&query(game, Side::South, Limit::Millis(60_000), 1), &stop).unwrap();
        assert_eq!(found.depth, 1, "{ruleset}");
        assert!(game.legal_moves(Side::South, Some(720)).contains(&found.mv));
        let moves = game.legal_moves(Side::South, Some(720)).len() as u64;
        // At most one node per root move at depth 1 (none for a move that ends the game),
        // and a second look at a move that beats the best so far (the null-window
        // search, then the full one).
        assert!(found.nodes < 2 * moves, "{ruleset}: {}", found.nodes);
    }
}

#[test]
fn node_limits_bound_the_work() {
    let stop = AtomicBool::new(false);
    let game = Game::start(Ruleset::Omweso, omweso_rules::Preset::Outer, Side::South);
    let small = best_move(&query(game, Side::South, Limit::Nodes(2_000), 1), &stop).unwrap();
    let large = best_move(&query(game, Side::South, Limit::Nodes(20_000), 1), &stop).unwrap();
    assert!(small.nodes <= 2_000, "{}", small.nodes);
    assert!(large.nodes <= 20_000, "{}", large.nodes);
    assert!(large.depth > small.depth, "{} {}", large.depth, small.depth);
}

/// Each level searches at least as deep as the one below; at the same depth it plays
/// more carefully (a lower softmax temperature, none lowest; no more leaf noise); among
/// the levels bounded only by nodes, the budget rises.
#[test]
fn level_budgets_rise_with_the_level() {
    let t = |s: omweso_search::Strength| s.temperature.unwrap_or(0.0);
    for ruleset in Ruleset::ALL {
        for pair in Level::ALL.windows(2) {
            let (lower, higher) = (pair[0].strength(ruleset), pair[1].strength(ruleset));
            assert!(higher.depth >= lower.depth, "{ruleset} {pair:?}");
            if higher.depth == lower.depth {
                assert!(t(higher) <= t(lower), "{ruleset} {pair:?}");
                assert!(higher.noise <= lower.noise, "{ruleset} {pair:?}");
                assert!(higher != lower, "{ruleset} {pair:?}");
            }
            if lower.depth == 64 {
                assert!(higher.nodes > lower.nodes, "{ruleset} {pair:?}");
            }
        }
    }
    let level = |n| Level::new(n).unwrap().describe();
    assert_eq!(
        level(1),
        "Level 1: Beginner: in Omweso looks one move ahead, playing loosely, often missing \
         the best move; in Mweiso looks one move ahead; in Oware looks one move ahead, \
         playing loosely, often missing the best move."
    );
    assert_eq!(
        level(6),
        "Level 6: Expert: in Omweso looks 3 moves ahead, now and then missing the best \
         move; in Mweiso searches 20000 positions a move; in Oware searches 50000 \
         positions a move."
    );
    assert_eq!(
        level(8),
        "Level 8: Grandmaster (about a second a move): in Omweso searches 2000000 \
         positions a move; in Mweiso searches 2000000 positions a move; in Oware searches \
         4000000 positions a move."
    );
}

#[test]
fn refusals_say_why() {
    let stop = AtomicBool::new(false);
    let game = Game::start(Ruleset::Oware, omweso_rules::Preset::Outer, Side::South);
    assert_eq!(
        best_move(&query(game, Side::North, Limit::Nodes(10), 1), &stop),
        Err(SearchError::NotToMove { side: Side::North })
    );
    assert_eq!(
        best_move(&query(game, Side::South, Limit::Millis(60_001), 1), &stop),
        Err(SearchError::TooLong { millis: 60_001 })
    );
    let over = Game::parse(Ruleset::Oware, "0,0,0,0,0,6/0,0,0,0,0,0 s 22 20").unwrap();
    assert_eq!(
        best_move(&query(over, Side::South, Limit::Nodes(10), 1), &stop),
        Err(SearchError::GameOver)
    );
}

/// Mweiso's simultaneous opening: whoever is asked plays an opening turn (from an outer
/// pit other than the 4th and 5th from their left, never clockwise), whether both owe it
/// or only they do.
///
/// From the start (2 seeds in every pit) each player has six opening turns, capturing 12
/// to 16 seeds, and none decides the game (docs/rules.md#2-mweiso-kagera-murray-1951: the end conditions are the main
/// phase's), so the search finds no win in one move for either player. After South's `A1`
/// North owes the only opening turn left: 3 moves (C4, G4 and H4 were captured).
#[test]
fn mweiso_openings() {
    let stop = AtomicBool::new(false);
    let both = Game::start(Ruleset::Mweiso, omweso_rules::Preset::Even, Side::South);
    for side in Side::ALL {
        assert_eq!(both.legal_moves(side, Some(720)).len(), 6, "{side:?}");
        let found = best_move(&query(both, side, Limit::Nodes(5_000), 5), &stop).unwrap();
        assert!(
            found.score > -1.0 && found.score < 1.0,
            "{side:?} {}",
            found.score
        );
        let result = both.play_as(side, &found.mv, Some(720)).unwrap();
        assert_eq!(result.outcome, None, "{side:?} {}", found.mv);
    }
    let a1 = GameMove::parse(Ruleset::Mweiso, "A1").unwrap();
    let after = both.play_as(Side::South, &a1, Some(720)).unwrap().game;
    assert_eq!(after.opening_owed(), vec![Side::North]);
    assert_eq!(after.legal_moves(Side::North, Some(720)).len(), 3);
    let reply = best_move(&query(after, Side::North, Limit::Nodes(5_000), 5), &stop).unwrap();
    assert!(after
        .legal_moves(Side::North, Some(720))
        .contains(&reply.mv));
    assert!(reply.score > -1.0 && reply.score < 1.0, "{}", reply.score);
    assert_eq!(
        best_move(&query(after, Side::South, Limit::Nodes(10), 5), &stop),
        Err(SearchError::NotToMove { side: Side::South })
    );
}

/// A duel from a Mweiso opening where the player asked to open first has no opening turn:
/// it skips it (docs/rules.md#2-mweiso-kagera-murray-1951), and the other opens and moves first in the main phase.
#[test]
fn a_duel_skips_an_opening_nobody_can_play() {
    // North's outer pits of two are D4 and E4 only: no opening turn for North.
    let text = "0,0,0,2,2,0,1,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/2,0,0,0,0,0,2,0 o";
    let game = partial(text, Rules::MWEISO);
    assert_eq!(game.opening_owed(), [Side::South]);
    let players = [Player::Random, Player::Random];
    let played = omweso_search::duel::play(game, Side::North, players, Some(720), 200, 0, 7)
        .expect("the duel is played");
    // South opens (A1 or G1), then makes the main phase's first turn from the other
    // pit of two, leaving only single seeds; North sows (no capture: its inner row is
    // empty), and South cannot move. Whatever the random picks, three plies, South two.
    assert_eq!(played.plies, 3);
    assert_eq!(played.moves, [2, 1]);
    assert_eq!(
        played.outcome,
        Some(Outcome::Win {
            winner: Side::North,
            victory: Victory::NoMove
        })
    );
}
