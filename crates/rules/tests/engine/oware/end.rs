//! The end of the game: 25 captured, no move (the sweep), the impasse.

use omweso_rules::oware::{IllegalMove, Position};
use omweso_rules::{Outcome, Side, TurnEnd, Victory};

use super::*;

#[test]
fn a_win_at_25_captured() {
    let position = pos([0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 3], Side::South, [23, 20]);
    let result = play(&position, "F1");
    assert_eq!(result.captured, 2);
    assert_eq!(result.outcome, win(Side::South));
    // The game stops at 25 and each player takes the seeds left in their own houses
    // (docs/rules.md#3-oware-abapa): North's 3 in A2 make 23, and the captures add up to 48.
    assert_eq!(
        result.position.to_string(),
        "0,0,0,0,0,0/0,0,0,0,0,0 n 25 23"
    );
    assert_eq!(result.position.outcome(), win(Side::South));
    assert!(result.position.legal_moves().is_empty());
}

#[test]
fn no_move_sweeps_the_board() {
    // South plays its last seed; North then cannot feed South (F2 1 needs 6, E2 2 needs 5):
    // the game ends and North takes the 3 seeds on its side.
    let position = pos([0, 0, 0, 0, 0, 1, 0, 2, 0, 0, 0, 0], Side::South, [22, 23]);
    let result = play(&position, "F1");
    assert_eq!(result.captured, 0);
    assert_eq!(result.end, TurnEnd::Ended);
    assert_eq!(
        result.position.to_string(),
        "0,0,0,0,0,0/0,0,0,0,0,0 n 22 26"
    );
    assert_eq!(result.outcome, win(Side::North));
    assert_eq!(result.position.outcome(), win(Side::North));
    assert!(result.position.legal_moves().is_empty());
}

#[test]
fn no_move_sweep_can_draw_24_24() {
    let position = pos([0, 0, 0, 0, 0, 1, 0, 2, 0, 0, 0, 0], Side::South, [24, 21]);
    let result = play(&position, "F1");
    assert_eq!(
        result.position.to_string(),
        "0,0,0,0,0,0/0,0,0,0,0,0 n 24 24"
    );
    assert_eq!(result.outcome, Some(Outcome::Draw));
}

#[test]
fn no_move_sweep_gives_each_side_its_own_seeds() {
    // North to move has no seeds: the game is over and South takes its own 5 (25 wins).
    // (A legal move never leaves the next player empty: a grand slam captures nothing
    // and must feed forbids starving them, so this arises only from a given position.)
    let position = pos([2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], Side::North, [20, 23]);
    assert_eq!(position.outcome(), win(Side::South));
    assert!(position.legal_moves().is_empty());
    assert_eq!(
        position.play(h("A2"), None).unwrap_err(),
        IllegalMove::GameOver(win(Side::South).unwrap())
    );
    let position = pos([2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], Side::South, [20, 23]);
    // South to move cannot feed North (A1 needs 6, B1 needs 5): South sweeps its 5.
    assert!(position.legal_moves().is_empty());
    assert_eq!(position.outcome(), win(Side::South));
}

#[test]
fn the_sweep_at_25_gives_each_side_its_own_seeds() {
    // South 22, North 12; on the board South A1 1, E1 2 (3) and North F2 2, E2 2, A2 7
    // (11): 48 in all. South's E1 sows F1 (1) and F2 (3): F2's 3 are captured (the run
    // stops there, at the end of North's row), South has 25 and the game stops. Each
    // takes the seeds left in their own houses: South A1 1 and F1 1 (27), North E2 2 and
    // A2 7 (21). 27 + 21 = 48.
    let position = pos([1, 0, 0, 0, 2, 0, 2, 2, 0, 0, 0, 7], Side::South, [22, 12]);
    let result = play(&position, "E1");
    assert_eq!(result.captured, 3);
    assert_eq!(result.outcome, win(Side::South));
    assert_eq!(
        result.position.to_string(),
        "0,0,0,0,0,0/0,0,0,0,0,0 n 27 21"
    );
    assert_eq!(
        result.position.captured(Side::South) + result.position.captured(Side::North),
        48
    );
    assert_eq!(result.position.outcome(), win(Side::South));
}

#[test]
fn outcome_of_finished_positions() {
    let cases: [(&str, Option<Outcome>); 8] = [
        ("0,0,0,0,0,0/0,0,0,0,0,0 s 24 24", Some(Outcome::Draw)),
        ("0,0,0,0,0,0/0,0,0,0,0,0 n 24 24", Some(Outcome::Draw)),
        ("1,0,0,0,0,0/0,0,0,0,0,2 n 25 20", win(Side::South)),
        ("4,4,4,4,4,4/0,0,0,0,0,0 n 0 24", None),
        ("4,4,4,4,4,4/0,0,0,0,0,0 s 0 24", win(Side::North)),
        // North to move cannot feed South (F2's 5 seeds need 6): North sweeps its 5.
        ("0,0,0,0,0,5/0,0,0,0,0,0 n 19 24", win(Side::North)),
        // South to move has no seeds: North sweeps its 5 and it is 24-24.
        ("0,0,0,0,0,5/0,0,0,0,0,0 s 24 19", Some(Outcome::Draw)),
        ("0,0,0,0,0,5/0,0,0,0,0,0 s 19 24", win(Side::North)),
    ];
    for (text, outcome) in cases {
        let position: Position = text.parse().unwrap();
        assert_eq!(position.outcome(), outcome, "{text}");
        assert_eq!(
            position.legal_moves().is_empty(),
            outcome.is_some(),
            "{text}"
        );
    }
    // North 23 + its 1 = 24 and South 24 after the sweep: a draw on a no-move.
    let position: Position = "0,0,0,0,0,1/0,0,0,0,0,0 s 24 23".parse().unwrap();
    assert_eq!(position.outcome(), Some(Outcome::Draw));
}

fn impasse(winner: Side) -> Outcome {
    Outcome::Win {
        winner,
        victory: Victory::Impasse,
    }
}

#[test]
fn an_impasse_splits_the_seeds_left_evenly() {
    // 7 left, odd: South 3 (C1), North 4 (F2 1, A2 3): 3 each, and North, with more on its
    // side, keeps the odd one: South 20 + 3 = 23, North 21 + 4 = 25.
    let position: Position = "3,0,0,0,0,1/0,0,3,0,0,0 n 20 21".parse().unwrap();
    assert_eq!(position.impasse_split(), [3, 4]);
    let (end, outcome) = position.settle_impasse();
    assert_eq!(end.to_string(), "0,0,0,0,0,0/0,0,0,0,0,0 n 23 25");
    assert_eq!(outcome, impasse(Side::North));

    // The same 7 seeds with the sides the other way round: South keeps the odd one.
    let position: Position = "0,0,3,0,0,0/3,0,0,0,0,1 n 20 21".parse().unwrap();
    assert_eq!(position.impasse_split(), [4, 3]);
    let (end, outcome) = position.settle_impasse();
    assert_eq!(end.to_string(), "0,0,0,0,0,0/0,0,0,0,0,0 n 24 24");
    assert_eq!(outcome, Outcome::Draw);

    // An even number on unequal sides: 6 left, South 1 (E1), North 5 (B2): 3 each, not
    // each their own (which would have made it 21-27).
    let position: Position = "0,5,0,0,0,0/0,0,0,0,1,0 s 20 22".parse().unwrap();
    assert_eq!(position.impasse_split(), [3, 3]);
    let (end, outcome) = position.settle_impasse();
    assert_eq!(end.to_string(), "0,0,0,0,0,0/0,0,0,0,0,0 s 23 25");
    assert_eq!(outcome, impasse(Side::North));

    // Equal sides: 2 each, 4 left, 2 each.
    let position: Position = "0,0,0,2,0,0/0,0,2,0,0,0 s 22 22".parse().unwrap();
    assert_eq!(position.impasse_split(), [2, 2]);
    let (end, outcome) = position.settle_impasse();
    assert_eq!(end.to_string(), "0,0,0,0,0,0/0,0,0,0,0,0 s 24 24");
    assert_eq!(outcome, Outcome::Draw);

    // One seed left: it goes to the side it is on. South 1 (A1), North 0.
    let position: Position = "0,0,0,0,0,0/1,0,0,0,0,0 n 24 23".parse().unwrap();
    assert_eq!(position.impasse_split(), [1, 0]);
    let (end, outcome) = position.settle_impasse();
    assert_eq!(end.to_string(), "0,0,0,0,0,0/0,0,0,0,0,0 n 25 23");
    assert_eq!(outcome, impasse(Side::South));
}
