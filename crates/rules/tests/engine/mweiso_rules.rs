//! Hand-made positions for Mweiso (docs/rules.md#2-mweiso-kagera-murray-1951).

use crate::common::{moves, play, position, refusal};
use omweso_rules::{
    Answer, Decision, Direction, Outcome, Owing, Position, Preset, Progress, Rules, Side, ToMove,
    Victory,
};

fn mweiso(text: &str) -> Position {
    position(text, Rules::MWEISO)
}

#[test]
fn the_start_has_two_seeds_everywhere_and_both_owe_their_opening() {
    let start = Position::start(Rules::MWEISO, Preset::Outer, Side::North);
    assert_eq!(
        start.to_string(),
        "2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 o"
    );
    assert_eq!(start.to_move(), ToMove::Opening(Owing::Both));
}

// The opening's own rules (no clockwise start, no win, skipping): mweiso_opening.rs.

#[test]
fn the_first_opening_turn_received_moves_first_in_the_main_phase() {
    let start = Position::start(Rules::MWEISO, Preset::Even, Side::South);
    let (after_north, _) = play(&start, "A4", Some(720));
    assert_eq!(
        after_north.position.to_move(),
        ToMove::Opening(Owing::Only(Side::South))
    );
    assert!(after_north.position.to_string().ends_with(" os"));
    assert_eq!(
        refusal(&after_north.position, "A4"),
        "North has played their opening turn; only South still owes one"
    );
    let south = after_north
        .position
        .legal_moves(Side::South, Some(720))
        .into_iter()
        .next()
        .unwrap();
    let main = after_north.position.play(&south, Some(720)).unwrap();
    if main.outcome.is_none() {
        // North finished its opening first, so North moves first in the main phase.
        assert_eq!(main.position.to_move(), ToMove::Side(Side::North));
    }
}

/// South A1 (2) and B2 (1), D2 (1); North B3, B4, D3, D4 (1 each) and F4 (2).
const CHAIN: &str = "0,1,0,1,0,2,0,0/0,1,0,1,0,0,0,0/0,1,0,1,0,0,0,0/2,0,0,0,0,0,0,0 s";

#[test]
fn the_clockwise_chain_offers_a_and_l_and_c_only_with_a_direct_capture() {
    let pos = mweiso(CHAIN);
    // A1' sows A2, B2: B2 (2) faces B3, B4: capture 2. Sown clockwise from A1 again they
    // would end at B2, whose column is empty: no `c`. `l` leaves them in A1; B2 (2) then
    // sows clockwise to C2, D2: D2 (2) faces D3, D4: capture, so that lap is forced.
    // After it, from B2: `a`, or `l` - A1 (2) clockwise would end at B2, column B empty,
    // so the player picks a pit of 2 or more: A1, D2 or B2.
    assert_eq!(
        moves(&pos),
        [
            "A1",
            "A1'/a",
            "A1'/l/a",
            "A1'/l/l/A1",
            "A1'/l/l/D2",
            "A1'/l/l/B2"
        ]
    );
    let mut turn = pos
        .begin_turn("A1".parse().unwrap(), Direction::Clockwise, None)
        .unwrap();
    assert_eq!(
        turn.run(&mut ()),
        Progress::Decision(Decision::Chain { clockwise: false })
    );
    assert_eq!(
        Decision::Chain { clockwise: false }
            .options(Side::South)
            .as_slice(),
        [Answer::Anticlockwise, Answer::Leave]
    );
    assert!(turn.answer(Answer::Clockwise).is_err());
    assert_eq!(turn.laps(), 1, "a refused answer changes nothing");
}

#[test]
fn leave_goes_on_clockwise_from_the_other_hole_then_anticlockwise() {
    let pos = mweiso(CHAIN);
    // After the second capture (at D2) the 2 seeds go anticlockwise from B2: A2, A1; A1
    // holds the 2 left there: relay 3 to B1, C1, D1.
    let (result, laps) = play(&pos, "A1'/l/a", None);
    assert_eq!(
        laps,
        [
            "A1c2 B2 capture 2",
            "B2c2 D2 capture 2",
            "B2a2 A1 relay 0",
            "A1a3 D1 end 0"
        ]
    );
    assert_eq!(result.summary.capture_columns_letters(), "BD");
    assert_eq!(
        result.position.to_string(),
        "0,0,0,0,0,2,0,0/0,0,0,0,0,0,0,0/2,0,1,2,0,0,0,0/0,1,1,1,0,0,0,0 n"
    );
}

#[test]
fn leave_then_any_pit_when_the_other_hole_cannot_capture() {
    let pos = mweiso(CHAIN);
    // Both captures' seeds are left (2 in A1, 2 in B2); D2 (2) goes on anticlockwise: C2
    // (2), B2 (3): relay, anticlockwise (Mweiso never relays clockwise): A2 (2), A1 (3),
    // B1 (1): the end.
    let (result, laps) = play(&pos, "A1'/l/l/D2", None);
    assert_eq!(
        laps,
        [
            "A1c2 B2 capture 2",
            "B2c2 D2 capture 2",
            "D2a2 B2 relay 0",
            "B2a3 B1 end 0"
        ]
    );
    assert_eq!(
        result.position.to_string(),
        "0,0,0,0,0,2,0,0/0,0,0,0,0,0,0,0/2,0,2,0,0,0,0,0/3,1,0,0,0,0,0,0 n"
    );
    assert_eq!(
        refusal(&pos, "A1'/l/l/C2"),
        "C2 is not an option at the decision point after 2 laps; the options are A1, D2 or B2"
    );
}

#[test]
fn the_chain_offers_c_when_the_captured_seeds_capture_again_clockwise() {
    // As CHAIN but B4 holds 2: 3 captured seeds sown clockwise from A1 reach C2, which
    // holds 1 and faces C3, C4.
    let pos = mweiso("0,2,1,1,0,2,0,0/0,1,1,1,0,0,0,0/0,1,1,1,0,0,0,0/2,0,0,0,0,0,0,0 s");
    let mut turn = pos
        .begin_turn("A1".parse().unwrap(), Direction::Clockwise, None)
        .unwrap();
    assert_eq!(
        turn.run(&mut ()),
        Progress::Decision(Decision::Chain { clockwise: true })
    );
    let (_, laps) = play(&pos, "A1'/c/a", None);
    assert_eq!(laps[..2], ["A1c2 B2 capture 3", "A1c3 C2 capture 2"]);
}

#[test]
fn mweiso_relays_are_always_anticlockwise() {
    // D2 (2) sows C2, B2; B2 (3), column B empty: relay. Clockwise from B2 its 3 seeds
    // would capture at E2 - Omweso asks, Mweiso does not.
    let text_s = "0,0,0,0,1,2,0,0/0,0,0,0,1,0,0,0/0,2,0,2,1,0,0,0/0,0,0,0,0,0,0,0 s";
    assert_eq!(
        moves(&crate::common::omweso(text_s)),
        ["D2/a", "D2/c", "B2"]
    );
    let pos = mweiso(text_s);
    assert_eq!(moves(&pos), ["D2", "B2"]);
    let (_, laps) = play(&pos, "D2", None);
    assert_eq!(laps, ["D2a2 B2 relay 0", "B2a3 B1 end 0"]);
}

#[test]
fn mweiso_has_two_reverse_holes() {
    // B1 clockwise would capture at A2 in Omweso; in Mweiso B1 is not a reverse hole.
    // B1 (2) clockwise: A1, A2; A2 (2) faces A3, A4.
    let text = "1,0,0,0,0,2,0,0/1,0,0,0,0,0,0,0/1,0,0,0,0,0,0,0/0,2,0,0,0,0,0,0 s";
    assert_eq!(moves(&crate::common::omweso(text)), ["B1", "B1'"]);
    let pos = mweiso(text);
    assert_eq!(moves(&pos), ["B1"]);
    assert_eq!(
        refusal(&pos, "B1'"),
        "B1 is not a reverse pit, so no lap may start clockwise from it (Mweiso's reverse holes are South's A1, B2 and North's H4, G3)"
    );
}

#[test]
fn capturing_at_both_ends_wins_and_mweiso_has_no_akawumbi() {
    let both_ends = "5,0,0,2,0,0,0,5/5,0,0,0,0,0,0,4/1,0,0,0,0,0,0,1/0,0,0,0,0,0,2,0 s";
    let (result, _) = play(&mweiso(both_ends), "G1", None);
    assert_eq!(
        result.outcome,
        Some(Outcome::Win {
            winner: Side::South,
            victory: Victory::EmitweEbiri
        })
    );
    let all_columns = "1,5,4,4,3,3,2,2/1,4,4,3,3,2,2,1/1,1,1,1,1,1,1,1/0,0,0,0,0,0,2,0 s";
    let (result, _) = play(&mweiso(all_columns), "G1", None);
    assert_eq!(result.summary.capture_columns_letters(), "ABCDEFGH");
    assert_eq!(
        result.outcome,
        Some(Outcome::Win {
            winner: Side::South,
            victory: Victory::EmitweEbiri
        })
    );
}

#[test]
fn the_player_who_cannot_move_loses() {
    let pos = mweiso("0,1,0,0,0,0,0,1/0,0,0,0,0,0,1,2/0,0,0,0,0,0,0,1/0,0,0,0,0,0,2,0 s");
    let (result, _) = play(&pos, "G1", None);
    assert_eq!(
        result.outcome,
        Some(Outcome::Win {
            winner: Side::South,
            victory: Victory::NoMove
        })
    );
}
