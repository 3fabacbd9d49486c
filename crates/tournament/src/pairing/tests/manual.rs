//! `check`: what a hand-made pairing breaks.

use super::*;

fn rules(breaches: &[crate::pairing::Breach]) -> Vec<(u8, Vec<usize>)> {
    breaches
        .iter()
        .map(|b| (b.rule, b.players.clone()))
        .collect()
}

/// After round 1 (P0, P4, P2 won), P5 withdraws and P0-P4 is forbidden. A pairing that
/// repeats P0-P3, pairs P0 twice and with P4, seats the withdrawn P5, and gives the bye to
/// P2 where it goes to P3 (the lowest-ranked with none, the others pairable without
/// him: P0-P1, P2-P4).
#[test]
fn every_breach_is_listed_in_table_order() {
    let mut state = State::new(6);
    let round1 = swiss(&state.input()).expect("round 1");
    assert_eq!(seats(&round1), [(0, Some(3)), (4, Some(1)), (2, Some(5))]);
    state.play(&round1, |_| FIRST_WINS);
    state.forbidden = vec![(0, 4)];
    state.active[5] = false;
    let manual = [game(0, 3), game(4, 0), game(5, 1), bye(2)];
    let breaches = check(&state.input(), &manual, 1);
    assert_eq!(
        rules(&breaches),
        [
            (1, vec![0, 3]),
            (0, vec![0]),
            (2, vec![4, 0]),
            (4, vec![5]),
            (3, vec![2, 3]),
        ]
    );
    let messages: Vec<&str> = breaches.iter().map(|b| b.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "rule 1 (no two players meet twice): P0 and P3 have already met",
            "P0 is paired twice",
            "rule 2 (no forbidden pair is paired): P4 and P0 may not be paired",
            "rule 4 (withdrawn players are not paired): P5 is paired but has withdrawn",
            "rule 3 (at most one pairing bye each): the bye goes to P3 (the lowest-ranked who \
             has had none, the others still pairable), not P2",
        ]
    );
    // The pairing `swiss` makes breaks nothing.
    let tables = swiss(&state.input()).expect("round 2");
    assert_eq!(check(&state.input(), &tables, 1), []);
}

#[test]
fn byes_left_out_players_and_meetings_allowed() {
    let mut state = State::new(4);
    state.play(&[game(0, 1), game(2, 3)], |_| DRAW);
    state.play(&[bye(0), game(1, 2)], |_| DRAW);
    let manual = [game(0, 1), bye(2)];
    // Met before; a bye with an even number; P3 left out.
    assert_eq!(
        rules(&check(&state.input(), &manual, 1)),
        [(1, vec![0, 1]), (3, vec![2]), (0, vec![3])]
    );
    // In a double round-robin they may meet a second time.
    assert_eq!(
        rules(&check(&state.input(), &manual, 2)),
        [(3, vec![2]), (0, vec![3])]
    );
    // P3 withdrawn, three to pair: P1-P2 met, P0 had a bye.
    state.active[3] = false;
    let manual = [game(1, 2), bye(0)];
    let breaches = check(&state.input(), &manual, 1);
    assert_eq!(rules(&breaches), [(1, vec![1, 2]), (3, vec![0])]);
    assert_eq!(
        breaches[1].message,
        "rule 3 (at most one pairing bye each): P0 has already had a bye"
    );
    // Two byes for three players.
    let manual = [bye(1), bye(2), game(0, 0)];
    assert_eq!(
        rules(&check(&state.input(), &manual, 1)),
        [(0, vec![0]), (3, vec![2])]
    );
}

#[test]
fn numbers_that_are_no_player_are_errors() {
    let state = State::new(2);
    let breaches = check(&state.input(), &[game(0, 7)], 1);
    assert_eq!(rules(&breaches), [(0, vec![]), (0, vec![1])]);
    assert_eq!(
        breaches[0].message,
        "table 1: there is no player #7 among 2"
    );
    let mut broken = state.clone();
    broken.active.pop();
    assert_eq!(rules(&check(&broken.input(), &[], 1)), [(0, vec![])]);
}
