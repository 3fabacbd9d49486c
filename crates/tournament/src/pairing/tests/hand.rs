//! Cases worked out by hand. Players are numbered from 0; "P0" is the first registered.

use super::*;
use crate::pairing::PairingError;

fn pair(state: &State) -> Vec<(usize, Option<usize>)> {
    let tables = swiss(&state.input()).expect("a pairing");
    assert_keeps_rules(state, &tables);
    seats(&tables)
}

/// Round 1 of 8: top half against bottom half (1 v 5, 2 v 6, ...), the higher-ranked
/// moving first at odd tables and second at even ones, as FIDE does.
#[test]
fn round_one_of_eight() {
    let state = State::new(8);
    assert_eq!(
        pair(&state),
        [(0, Some(4)), (5, Some(1)), (2, Some(6)), (7, Some(3))]
    );
}

/// Six players; after round 1, P0 and P4 have 1 point, P2 and P5 (who drew) 0.5, P1 and
/// P3 0. P2 and P5 have met, so both float. Every pairing with squared differences 2 (in
/// half points: two floats of half a point) is equal on first moves (four players get
/// their due side in each) and floats (none last round); the top score group staying
/// together wins: P0-P4, then P2 and P5 meet the top of the 0-point group in order (P2-P1,
/// P5-P3). First moves: P0 and P4 are both due second, P0 is higher-ranked: P4 first. P2
/// (due second) against P1 (due first): P1 first. P5 and P3 are both due first, P5 higher.
#[test]
fn a_score_group_that_cannot_pair_floats_down() {
    let mut state = State::new(6);
    let round1 = swiss(&state.input()).expect("round 1");
    assert_eq!(seats(&round1), [(0, Some(3)), (4, Some(1)), (2, Some(5))]);
    state.play(&round1, |t| [FIRST_WINS, FIRST_WINS, DRAW][t]);
    assert_eq!(state.points, [1000, 0, 500, 0, 1000, 500]);
    assert_eq!(pair(&state), [(4, Some(0)), (1, Some(2)), (5, Some(3))]);
}

/// Five players: round 1's bye goes to the last, P4. In round 2 P0, P1 and P4 have 1
/// point and P2, P3 none: the bye goes to P3, the lowest-ranked who has had none (P4 had
/// one). P0, P1, P4 and P2 then pair with one float; of the two ways (P0-P1 and P4-P2, or
/// P0-P4 and P1-P2; P0-P2 met), the first gives three players their due side (P0 second,
/// P1 first, P2 first), the second only two.
#[test]
fn the_bye_goes_to_the_lowest_ranked_who_has_had_none() {
    let mut state = State::new(5);
    let round1 = swiss(&state.input()).expect("round 1");
    assert_eq!(seats(&round1), [(0, Some(2)), (3, Some(1)), (4, None)]);
    state.play(&round1, |t| [FIRST_WINS, SECOND_WINS][t]);
    assert_eq!(state.points, [1000, 1000, 0, 0, 1000]);
    assert_eq!(pair(&state), [(1, Some(0)), (2, Some(4)), (3, None)]);
}

/// P0 may meet nobody but P4: with the bye to P4 (the lowest-ranked), P0 could not be
/// paired, so the bye goes to the next one up, P3.
#[test]
fn the_bye_moves_up_when_the_lowest_would_leave_the_field_unpairable() {
    let mut state = State::new(5);
    state.forbidden = vec![(0, 1), (2, 0), (0, 3)];
    assert_eq!(pair(&state), [(0, Some(4)), (2, Some(1)), (3, None)]);
}

/// Round 1 of 4 with P0-P2 forbidden: instead of 1 v 3, 2 v 4, the pairing that keeps
/// top half against bottom half with the least reordering: 1 v 4, 2 v 3.
#[test]
fn a_forbidden_pair_is_avoided() {
    let mut state = State::new(4);
    state.forbidden = vec![(0, 2)];
    assert_eq!(pair(&state), [(0, Some(3)), (2, Some(1))]);
    // Either way round, in any order, the same.
    state.forbidden = vec![(2, 0), (2, 0)];
    assert_eq!(pair(&state), [(0, Some(3)), (2, Some(1))]);
}

/// P0 moved first twice running: in round 3 they move second, though they are the
/// higher-ranked of their pair. P2 moved second twice: they move first.
#[test]
fn first_twice_running_then_second() {
    let mut state = State::new(4);
    state.play(&[game(0, 2), game(3, 1)], |_| FIRST_WINS);
    state.play(&[game(0, 3), game(1, 2)], |t| [DRAW, FIRST_WINS][t]);
    assert_eq!(state.points, [1500, 1000, 0, 1500]);
    // P0 has met P2 and P3, P2 has met P0 and P1: P0-P1 and P2-P3 are forced.
    assert_eq!(pair(&state), [(1, Some(0)), (2, Some(3))]);
}

/// Firsts and seconds may not differ by more than 2: P0 has moved first three times in
/// four games (F S F F); moving first again would make it 4 to 1.
#[test]
fn firsts_and_seconds_stay_within_two() {
    use crate::pairing::colours::{measure, orient, Balance, Seating};
    use crate::pairing::history::Side::{First, Second};
    let p0 = Balance::new(&[First, Second, First, First]);
    let fresh = Balance::new(&[]);
    // Seated first P0 breaks twice (third first running, and 4 to 1).
    assert_eq!(measure(&p0, &fresh), (0, 1));
    assert_eq!(orient(&p0, &fresh), Seating::LowerFirst);
    let p1 = Balance::new(&[First, First, Second, First]);
    // 3 to 1 already: P1 must move second, even against a player due second too.
    let due_second = Balance::new(&[First]);
    assert_eq!(measure(&p1, &due_second), (0, 1));
    assert_eq!(orient(&due_second, &p1), Seating::HigherFirst);
}

/// Criterion 4. P0 has 2 points, P1 and P2 1, P3 none: P0 floats down and P3 up whatever
/// the pairing, and P1 or P2 the other way. With no floats last round, the tie-break
/// keeps P1 (the better of the 1-point group) for P0: P0-P1, P2-P3. But P2 floated down
/// last round (1 point against P4's 0), so P2-P3 would float P2 down twice running: P0-P2,
/// P1-P3 instead. (P0 and P3 floated last round too, but the same way in both pairings.)
#[test]
fn nobody_floats_the_same_way_twice_running() {
    let mut state = State::new(6);
    // Round 1 as given, with the points before it; P4 and P5 have withdrawn since.
    state.play(&[game(0, 3), game(2, 4), game(1, 5)], |t| {
        [FIRST_WINS, SECOND_WINS, FIRST_WINS][t]
    });
    state.history[0].points_before = vec![1000, 0, 1000, 0, 0, 0];
    state.points = vec![2000, 1000, 1000, 0, 1000, 0];
    state.active = vec![true, true, true, true, false, false];
    // First moves weigh nothing here: P0, P1 and P2 are due second, P3 first; both
    // pairings give three players their due side.
    assert_eq!(pair(&state), [(2, Some(0)), (3, Some(1))]);
    // Without the floats: P0-P1 (both due second, P0 higher: P1 first), P2-P3.
    state.history[0].points_before = vec![0; 6];
    assert_eq!(pair(&state), [(1, Some(0)), (3, Some(2))]);
}

#[test]
fn withdrawn_players_are_not_paired() {
    let mut state = State::new(5);
    state.active[1] = false;
    assert_eq!(pair(&state), [(0, Some(3)), (4, Some(2))]);
}

#[test]
fn no_one_to_meet_is_an_error_naming_the_rule_and_the_player() {
    let mut state = State::named(&["Kato", "Ali", "Nankya", "Opio"]);
    state.play(&[game(0, 1)], |_| FIRST_WINS);
    state.play(&[game(2, 0)], |_| FIRST_WINS);
    state.play(&[game(0, 3)], |_| DRAW);
    assert_eq!(
        swiss(&state.input()),
        Err(PairingError {
            rule: 1,
            players: vec![0],
            message: "rule 1 (no two players meet twice): Kato has already met every other \
                      player"
                .into(),
        })
    );
    // Kato forbidden to meet Ali, and Ali has met the rest.
    let mut state = State::named(&["Kato", "Ali", "Nankya", "Opio"]);
    state.play(&[game(1, 2), game(3, 0)], |_| DRAW);
    state.play(&[game(3, 1), game(0, 2)], |_| DRAW);
    state.forbidden = vec![(0, 1)];
    let e = swiss(&state.input()).expect_err("unpairable");
    assert_eq!((e.rule, e.players.clone()), (2, vec![0, 1]), "{e}");
    assert_eq!(
        e.message,
        "rule 2 (no forbidden pair is paired): Kato and Ali have nobody left to meet: every \
         other player is forbidden or already met"
    );
}

#[test]
fn everyone_has_had_a_bye_is_an_error_of_rule_3() {
    let mut state = State::new(3);
    for p in 0..3 {
        state.play(&[bye(p)], |_| DRAW);
    }
    let e = swiss(&state.input()).expect_err("no bye left");
    assert_eq!((e.rule, e.players), (3, vec![0, 1, 2]));
    assert_eq!(
        e.message,
        "rule 3 (at most one pairing bye each): with an odd number of players one must have \
         the bye, and all 3 have had one"
    );
}

/// Six players: P0, P1 and P2 may each meet P3 only (they have met each other, and P4 and
/// P5), yet nobody is without an opponent: the field cannot be paired as a whole, and
/// only rule 1 stands in the way.
#[test]
fn a_field_that_cannot_be_paired_as_a_whole() {
    let mut state = State::new(6);
    state.play(&[game(0, 1), game(2, 4)], |_| DRAW);
    state.play(&[game(0, 2), game(1, 5)], |_| DRAW);
    state.play(&[game(1, 2), game(0, 4)], |_| DRAW);
    state.play(&[game(0, 5), game(1, 4)], |_| DRAW);
    state.play(&[game(2, 5)], |_| DRAW);
    let e = swiss(&state.input()).expect_err("unpairable");
    assert_eq!(e.rule, 1, "{e}");
    assert_eq!(e.players.len(), 2, "{e}");
    assert!(e.players.iter().all(|p| [0, 1, 2].contains(p)), "{e}");
    assert!(
        e.message
            .ends_with("cannot all be paired with players they have not met"),
        "{e}"
    );
}

/// The same shape made by forbidden pairs: P0, P1 and P2 have met each other, and may
/// not meet P4 or P5. Without the forbidden pairs the field would pair: rule 2.
#[test]
fn forbidden_pairs_that_make_a_field_unpairable() {
    let mut state = State::new(6);
    state.play(&[game(0, 1)], |_| DRAW);
    state.play(&[game(1, 2)], |_| DRAW);
    state.play(&[game(2, 0)], |_| DRAW);
    state.forbidden = vec![(0, 4), (0, 5), (1, 4), (1, 5), (2, 4), (2, 5)];
    let e = swiss(&state.input()).expect_err("unpairable");
    assert_eq!(e.rule, 2, "{e}");
    assert_eq!(e.players.len(), 2, "{e}");
    assert!(
        e.message
            .starts_with("rule 2 (no forbidden pair is paired): the forbidden pairs leave no pairing of everyone"),
        "{e}"
    );
    state.forbidden.clear();
    let tables = swiss(&state.input()).expect("pairs across");
    assert_keeps_rules(&state, &tables);
}

#[test]
fn an_input_that_does_not_hold_together_is_rule_0() {
    let mut state = State::new(4);
    state.points.pop();
    assert_eq!(swiss(&state.input()).map_err(|e| e.rule), Err(0));
    let mut state = State::new(4);
    state.forbidden = vec![(0, 9)];
    assert_eq!(swiss(&state.input()).map_err(|e| e.rule), Err(0));
    let mut state = State::new(4);
    state.history.push(PastRound {
        pairs: vec![game(0, 7)],
        points_before: vec![0; 4],
    });
    assert_eq!(swiss(&state.input()).map_err(|e| e.rule), Err(0));
}

#[test]
fn no_players_no_tables() {
    let state = State::new(0);
    assert_eq!(pair(&state), []);
    let state = State::new(1);
    assert_eq!(pair(&state), [(0, None)]);
}
