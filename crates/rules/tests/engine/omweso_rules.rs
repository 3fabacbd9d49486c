//! One hand-made position for every Omweso rule (docs/rules.md#1-omweso). Positions hold fewer
//! than 64 seeds where that makes the rule easier to see (`Position::from_setup_partial`);
//! every rule works the same on them. Expected values are worked out by hand in comments.

use crate::common::{moves, omweso, play, refusal};
use omweso_rules::{
    AnnulReason, Direction, Outcome, Position, Progress, Rules, Side, TurnEnd, Victory,
};

#[test]
fn a_lap_ending_in_an_occupied_pit_relays() {
    // C1 (2) sows D1, E1; E1 held 1, so its 2 seeds are lifted and sown to F1, G1; G1 was
    // empty: the turn ends.
    let pos = omweso("2,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,2,0,1,0,0,0 s");
    let (result, laps) = play(&pos, "C1", None);
    assert_eq!(laps, ["C1a2 E1 relay 0", "E1a2 G1 end 0"]);
    assert_eq!(
        result.position.to_string(),
        "2,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,1,0,1,1,0 n"
    );
    assert_eq!(result.summary.laps, 2);
    assert_eq!(result.summary.seeds_sown, 4);
    assert_eq!(result.summary.captured, 0);
    assert_eq!(result.outcome, None);
}

#[test]
fn singletons_never_move() {
    let pos = omweso("2,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,2,0,1,0,0,0 s");
    assert_eq!(moves(&pos), ["C1"]);
    assert_eq!(
        refusal(&pos, "E1"),
        "pit E1 holds 1 seed; a move needs at least 2"
    );
    assert_eq!(
        refusal(&pos, "A1"),
        "pit A1 holds 0 seeds; a move needs at least 2"
    );
}

#[test]
fn the_last_seed_in_an_empty_inner_pit_ends_the_turn_even_facing_seeds() {
    // G1 sows H1, H2; H2 was empty, so there is no capture although H3 and H4 hold seeds.
    let pos = omweso("2,0,0,0,0,0,0,1/0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0/0,0,0,0,0,0,2,0 s");
    let (result, laps) = play(&pos, "G1", None);
    assert_eq!(laps, ["G1a2 H2 end 0"]);
    assert_eq!(result.summary.captured, 0);
}

#[test]
fn no_capture_unless_both_opponent_pits_of_the_column_hold_seeds() {
    // H2 is occupied but H4 is empty: a relay, not a capture. H2's 2 seeds go to G2, F2.
    let pos = omweso("2,0,0,0,0,0,0,0/0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,1/0,0,0,0,0,0,2,0 s");
    let (_, laps) = play(&pos, "G1", None);
    assert_eq!(laps, ["G1a2 H2 relay 0", "H2a2 F2 end 0"]);
}

#[test]
fn captures_chain_and_captured_seeds_are_sown_from_the_lap_origin() {
    // G1 (2): H1, H2. H2 held 1 and faces H3 (1), H4 (2): capture 3, sown from the origin
    // G1: H1, H2, G2. G2 held 1 and faces G3, G4: capture 2, sown from G1 again: H1, H2.
    // H2 is occupied, its column now empty: relay its 4 seeds: G2, F2, E2, D2. D2 was
    // empty: the end.
    let pos = omweso("2,0,0,0,0,0,1,2/0,0,0,0,0,0,1,1/0,0,0,0,0,0,1,1/0,0,0,0,0,0,2,0 s");
    let (result, laps) = play(&pos, "G1", None);
    assert_eq!(
        laps,
        [
            "G1a2 H2 capture 3",
            "G1a3 G2 capture 2",
            "G1a2 H2 relay 0",
            "H2a4 D2 end 0"
        ]
    );
    assert_eq!(result.summary.captured, 5);
    assert_eq!(result.summary.capture_columns_letters(), "GH");
    assert_eq!(result.summary.laps, 4);
    assert_eq!(result.summary.seeds_sown, 11);
    // H1 got 3 seeds (one per lap from G1), G2 1+1+1, F2 1, E2 1, D2 1.
    assert_eq!(
        result.position.to_string(),
        "2,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,1,1,1,3,0/0,0,0,0,0,0,0,3 n"
    );
}

#[test]
fn a_capture_whose_sowing_ends_in_an_occupied_pit_goes_on() {
    // G1 (2): H1, H2 (held 1): capture H3+H4 = 2, sown from G1: H1, H2. H2 is occupied
    // and its column empty now: relay 3 seeds: G2, F2, E2. E2 held 1 and faces E3, E4:
    // capture 2, sown from the relay's origin H2: G2, F2. F2 now holds 2 and faces
    // nothing: relay 2: E2, D2. D2 was empty.
    let pos = omweso("2,0,0,0,1,0,0,1/0,0,0,0,1,0,0,1/0,0,0,0,1,0,0,1/0,0,0,0,0,0,2,0 s");
    let (result, laps) = play(&pos, "G1", None);
    assert_eq!(
        laps,
        [
            "G1a2 H2 capture 2",
            "G1a2 H2 relay 0",
            "H2a3 E2 capture 2",
            "H2a2 F2 relay 0",
            "F2a2 D2 end 0"
        ]
    );
    assert_eq!(result.summary.captured, 4);
    assert_eq!(result.summary.capture_columns_letters(), "EH");
    assert_eq!(result.summary.seeds_sown, 11);
    assert_eq!(
        result.position.to_string(),
        "2,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,1,3,0,2,0/0,0,0,0,0,0,0,2 n"
    );
}

#[test]
fn a_long_lap_passes_its_origin_and_the_origin_keeps_its_seeds_on_capture() {
    // H2 (index 8) holds 17: one full round (every pit +1, H2 itself included) and one
    // more seed to G2, which then holds 1+2 = 3 and faces G3, G4: capture 2, sown from
    // H2, which keeps the seed the round left there: G2 (4), F2 (2) - occupied, no
    // capture in F: relay F2's 2 seeds to E2 (2), D2 (2): relay D2's 2 to C2 (2), B2 (2):
    // relay B2's 2 to A2 (2), A1 (2): relay A1's 2 to B1 (2), C1 (2): relay C1's 2 to
    // D1 (2), E1 (2): relay E1's 2 to F1 (2), G1 (2): relay G1's 2 to H1 (2), H2 (2):
    // relay H2's 2 to G2 (5), F2 (1): F2 was emptied by its relay: the end.
    let pos = omweso("2,0,0,0,0,0,1,0/0,0,0,0,0,0,1,0/0,0,0,0,0,0,1,17/0,0,0,0,0,0,0,0 s");
    let (result, laps) = play(&pos, "H2", None);
    assert_eq!(laps[0], "H2a17 G2 capture 2");
    assert_eq!(laps[1], "H2a2 F2 relay 0");
    assert_eq!(laps.last().unwrap(), "H2a2 F2 end 0");
    assert_eq!(laps.len(), 10);
    assert_eq!(result.summary.seeds_sown, 17 + 2 + 2 * 8);
    assert_eq!(
        result.position.to_string(),
        "2,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/2,0,2,0,2,1,5,0/0,2,0,2,0,2,0,2 n"
    );
}

#[test]
fn clockwise_start_only_from_a_reverse_pit_and_only_with_a_direct_capture() {
    // A2 (2) clockwise: B2, C2; C2 held 1 and faces C3 (1), C4 (2): a direct capture.
    let pos = omweso("0,0,2,1,0,2,0,0/0,0,1,1,0,0,0,0/2,0,1,1,0,0,0,0/0,0,0,0,0,0,0,0 s");
    assert!(pos
        .begin_turn("A2".parse().unwrap(), Direction::Clockwise, None)
        .is_ok());
    // D2 is not a reverse pit.
    assert_eq!(
        refusal(&pos, "C2'"),
        "pit C2 holds 1 seed; a move needs at least 2"
    );
    let not_reverse = omweso("0,0,2,1,0,2,0,0/0,0,1,1,0,0,0,0/2,0,1,2,0,0,0,0/0,0,0,0,0,0,0,0 s");
    assert_eq!(
        refusal(&not_reverse, "D2'"),
        "D2 is not a reverse pit, so no lap may start clockwise from it (Omweso's reverse pits are South's A1, B1, B2, A2 and North's H4, G4, G3, H3)"
    );
    // Without C4 the clockwise lap from A2 would not capture.
    let no_capture = omweso("0,0,0,1,0,2,0,0/0,0,1,1,0,0,0,0/2,0,1,1,0,0,0,0/0,0,0,0,0,0,0,0 s");
    assert_eq!(
        refusal(&no_capture, "A2'"),
        "a clockwise lap from A2 would not capture directly, so it is not allowed"
    );
    assert_eq!(moves(&no_capture), ["A2"]);
}

#[test]
fn reverse_captured_seeds_may_be_sown_either_way() {
    // A2' captures C3+C4 = 3 at C2. Sown clockwise from A2 they reach B2, C2, D2: D2 held
    // 1 and faces D3, D4: a direct capture, so the player chooses (a decision point).
    let pos = omweso("0,0,2,1,0,2,0,0/0,0,1,1,0,0,0,0/2,0,1,1,0,0,0,0/0,0,0,0,0,0,0,0 s");
    assert_eq!(moves(&pos), ["A2", "A2'/a", "A2'/c"]);

    // c: capture D3+D4 = 2 at D2; these 2 sown clockwise would end at C2, whose column is
    // empty now: no direct capture, so they go anticlockwise without asking: A1, B1.
    let (result, laps) = play(&pos, "A2'/c", None);
    assert_eq!(
        laps,
        ["A2c2 C2 capture 3", "A2c3 D2 capture 2", "A2a2 B1 end 0"]
    );
    assert_eq!(result.summary.capture_columns_letters(), "CD");
    assert_eq!(
        result.position.to_string(),
        "0,0,0,0,0,2,0,0/0,0,0,0,0,0,0,0/0,2,3,2,0,0,0,0/1,1,0,0,0,0,0,0 n"
    );

    // a: the 3 captured seeds go A1, B1, C1.
    let (result, laps) = play(&pos, "A2'/a", None);
    assert_eq!(laps, ["A2c2 C2 capture 3", "A2a3 C1 end 0"]);
    assert_eq!(
        result.position.to_string(),
        "0,0,0,1,0,2,0,0/0,0,0,1,0,0,0,0/0,1,2,1,0,0,0,0/1,1,1,0,0,0,0,0 n"
    );
}

#[test]
fn seeds_captured_by_an_anticlockwise_lap_are_always_sown_anticlockwise() {
    // G1 (2): H1, H2 captures H3+H4 = 2 in an anticlockwise lap; no decision follows
    // even though sowing them clockwise from G1 would not matter here.
    let pos = omweso("2,0,0,0,0,0,0,1/0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,1/0,0,0,0,0,0,2,0 s");
    assert_eq!(moves(&pos), ["G1"]);
    let (_, laps) = play(&pos, "G1", None);
    assert_eq!(
        laps,
        ["G1a2 H2 capture 2", "G1a2 H2 relay 0", "H2a3 E2 end 0"]
    );
}

#[test]
fn a_relay_at_a_reverse_pit_may_go_clockwise() {
    // C2 (2): B2, A2. A2 held 2 (column A of North is empty: no capture): relay 3 from A2,
    // a reverse pit. Clockwise, its 3 seeds reach B2, C2, D2: D2 held 1 and faces D3, D4:
    // a direct capture, so the player chooses.
    let pos = omweso("0,0,0,1,0,2,0,0/0,0,0,1,0,0,0,0/2,0,2,1,0,0,0,0/0,0,0,0,0,0,0,0 s");
    assert_eq!(moves(&pos), ["C2/a", "C2/c", "A2"]);

    let mut turn = pos
        .begin_turn("C2".parse().unwrap(), Direction::Anticlockwise, None)
        .unwrap();
    assert_eq!(
        turn.run(&mut ()),
        Progress::Decision(omweso_rules::Decision::Direction)
    );
    assert_eq!(turn.laps(), 1);

    // c: capture D3+D4 = 2; sown clockwise from A2 they would end at C2, no capture, so
    // anticlockwise: A1, B1.
    let (result, laps) = play(&pos, "C2/c", None);
    assert_eq!(
        laps,
        ["C2a2 A2 relay 0", "A2c3 D2 capture 2", "A2a2 B1 end 0"]
    );
    assert_eq!(
        result.position.to_string(),
        "0,0,0,0,0,2,0,0/0,0,0,0,0,0,0,0/0,2,1,2,0,0,0,0/1,1,0,0,0,0,0,0 n"
    );
    // a: A1, B1, C1.
    let (result, laps) = play(&pos, "C2/a", None);
    assert_eq!(laps, ["C2a2 A2 relay 0", "A2a3 C1 end 0"]);
    assert_eq!(
        result.position.to_string(),
        "0,0,0,1,0,2,0,0/0,0,0,1,0,0,0,0/0,1,0,1,0,0,0,0/1,1,1,0,0,0,0,0 n"
    );
}

#[test]
fn decision_answers_are_checked() {
    let pos = omweso("0,0,0,1,0,2,0,0/0,0,0,1,0,0,0,0/2,0,2,1,0,0,0,0/0,0,0,0,0,0,0,0 s");
    assert_eq!(
        refusal(&pos, "C2"),
        "the move stops before a decision point: after 1 laps the turn asks for a or c"
    );
    assert_eq!(
        refusal(&pos, "C2/l"),
        "l is not an option at the decision point after 1 laps; the options are a or c"
    );
    assert_eq!(
        refusal(&pos, "C2/a/a"),
        "a answers no decision point: the turn stopped (ended) after 2 laps"
    );
    assert_eq!(
        refusal(&pos, "A2/c"),
        "c answers no decision point: the turn stopped (ended) after 1 laps"
    );
}

#[test]
fn only_the_side_to_move_plays_its_own_pits() {
    let pos = omweso("2,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,2,0,1,0,0,0 s");
    assert_eq!(
        refusal(&pos, "A4"),
        "A4 is North's pit, and it is not North's turn"
    );
}

#[test]
fn no_move_victory_when_the_opponent_has_no_pit_of_two() {
    // G1 captures H3+H4; North is left with singletons only.
    let pos = omweso("0,1,0,0,0,0,0,1/0,0,0,0,0,0,1,2/0,0,0,0,0,0,0,1/0,0,0,0,0,0,2,0 s");
    let (result, _) = play(&pos, "G1", None);
    assert_eq!(result.summary.capture_columns_letters(), "H");
    assert_eq!(
        result.outcome,
        Some(Outcome::Win {
            winner: Side::South,
            victory: Victory::NoMove
        })
    );
    // The position itself knows the game is over.
    assert_eq!(result.position.outcome(), result.outcome);
    assert!(result.position.legal_moves(Side::North, None).is_empty());
}

/// South G1 (2) lands on H2 and captures H3+H4 = 9; from G1 those 9 reach A2, which
/// captures A3+A4 = 10; from G1 those 10 reach A1, which was empty.
const BOTH_ENDS: &str = "5,0,0,2,0,0,0,5/5,0,0,0,0,0,0,4/1,0,0,0,0,0,0,1/0,0,0,0,0,0,2,0 s";

#[test]
fn emitwe_ebiri_captures_at_both_ends() {
    let pos = omweso(BOTH_ENDS);
    let (result, laps) = play(&pos, "G1", None);
    assert_eq!(
        laps,
        ["G1a2 H2 capture 9", "G1a9 A2 capture 10", "G1a10 A1 end 0"]
    );
    assert_eq!(result.summary.captured, 19);
    assert_eq!(result.summary.capture_columns_letters(), "AH");
    assert_eq!(
        result.position.to_string(),
        "0,0,0,2,0,0,0,0/0,0,0,0,0,0,0,0/3,2,2,2,2,2,2,4/1,0,0,0,0,0,0,3 n"
    );
    assert_eq!(
        result.outcome,
        Some(Outcome::Win {
            winner: Side::South,
            victory: Victory::EmitweEbiri
        })
    );
}

#[test]
fn emitwe_ebiri_stands_when_the_budget_stops_the_turn() {
    // 2 + 9 seeds are sown; the last lap (10) would pass a budget of 11.
    let pos = omweso(BOTH_ENDS);
    let (result, _) = play(&pos, "G1", Some(11));
    assert_eq!(result.summary.end, TurnEnd::Budget);
    assert_eq!(result.summary.laps, 2);
    assert_eq!(
        result.outcome,
        Some(Outcome::Win {
            winner: Side::South,
            victory: Victory::EmitweEbiri
        })
    );
    // With the 10 captured seeds back at the origin G1 (docs/rules.md#14-never-ending-turns: the turn stops
    // before the lap; the seeds in hand lie where they were to be sown from).
    assert_eq!(
        result.position.to_string(),
        "0,0,0,2,0,0,0,0/0,0,0,0,0,0,0,0/2,1,1,1,1,1,1,3/0,0,0,0,0,0,10,2 n"
    );
}

#[test]
fn budget_exhaustion_annuls_and_an_exact_budget_does_not() {
    let pos = omweso(BOTH_ENDS);
    // Only 2 seeds allowed: the capture in H happens, the 9 captured seeds would pass it.
    let (result, laps) = play(&pos, "G1", Some(2));
    assert_eq!(laps, ["G1a2 H2 capture 9"]);
    assert_eq!(result.summary.end, TurnEnd::Budget);
    assert_eq!(
        result.outcome,
        Some(Outcome::Annulled {
            reason: AnnulReason::Budget
        })
    );
    // A turn that ends having sown exactly its budget has ended normally.
    let (result, _) = play(&pos, "G1", Some(21));
    assert_eq!(result.summary.end, TurnEnd::Ended);
    assert_eq!(result.summary.seeds_sown, 21);
    let (result, _) = play(&pos, "G1", Some(20));
    assert_eq!(result.summary.end, TurnEnd::Budget);
    // A budget of 0 stops before the first lap: nothing changes but the side to move.
    let (result, laps) = play(&pos, "G1", Some(0));
    assert!(laps.is_empty());
    assert_eq!(result.position.board(), pos.board());
}

#[test]
fn akawumbi_captures_in_all_eight_columns() {
    // Each capture's seeds are sown from G1 (index 6) and land at index 6 + captured:
    // capturing 3, 4, ... 9 walks the landing pit from H2 to A2, one column at a time;
    // each inner pit holds 1 so the landing is occupied. Column A's 2 seeds land on H2
    // again, whose column is empty: relays until the turn ends.
    let pos = omweso("1,5,4,4,3,3,2,2/1,4,4,3,3,2,2,1/1,1,1,1,1,1,1,1/0,0,0,0,0,0,2,0 s");
    let (result, laps) = play(&pos, "G1", None);
    assert_eq!(
        &laps[..8],
        [
            "G1a2 H2 capture 3",
            "G1a3 G2 capture 4",
            "G1a4 F2 capture 5",
            "G1a5 E2 capture 6",
            "G1a6 D2 capture 7",
            "G1a7 C2 capture 8",
            "G1a8 B2 capture 9",
            "G1a9 A2 capture 2",
        ]
    );
    assert_eq!(result.summary.captured, 44);
    assert_eq!(result.summary.capture_columns_letters(), "ABCDEFGH");
    // Akawumbi comes first in the victory order, before emitwe-ebiri and no-move.
    assert_eq!(
        result.outcome,
        Some(Outcome::Win {
            winner: Side::South,
            victory: Victory::Akawumbi
        })
    );
}

#[test]
fn akakyala_when_the_mover_captures_again_before_the_opponent_ever_did() {
    // G1 captures H3+H4 in column H; North still has E4 (2) to move with.
    let text = "0,0,0,0,2,0,0,1/0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,1/0,0,0,0,0,0,2,0 s";
    let akakyala = |rules: Rules, south: bool, north: bool| {
        let pos = crate::common::position(text, rules).with_capture_history(south, north);
        play(&pos, "G1", None).0.outcome
    };
    let won = Some(Outcome::Win {
        winner: Side::South,
        victory: Victory::Akakyala,
    });
    assert_eq!(akakyala(Rules::OMWESO_TOURNAMENT, true, false), won);
    // Not when North has captured, nor for a first capture, nor with the rule off.
    assert_eq!(akakyala(Rules::OMWESO_TOURNAMENT, true, true), None);
    assert_eq!(akakyala(Rules::OMWESO_TOURNAMENT, false, false), None);
    assert_eq!(akakyala(Rules::OMWESO, true, false), None);
    // The history flags carry over: after this capture South "has captured".
    let pos = crate::common::position(text, Rules::OMWESO_TOURNAMENT);
    let (result, _) = play(&pos, "G1", None);
    assert!(result.position.has_captured(Side::South));
    assert!(!result.position.has_captured(Side::North));
}

#[test]
fn a_turn_without_a_capture_keeps_no_akakyala_claim() {
    let pos = crate::common::position(
        "0,0,0,0,2,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,2,0 s",
        Rules::OMWESO_TOURNAMENT,
    )
    .with_capture_history(true, false);
    assert_eq!(play(&pos, "G1", None).0.outcome, None);
}

/// Found by searching random positions for the shortest never-ending turn; the
/// `reference` model (every state kept in a set) agrees in properties.rs.
const SHORT_CYCLE: &str = "0,0,0,0,0,0,0,2/0,0,0,0,0,0,0,0/1,2,0,4,3,2,3,0/3,4,6,1,4,3,4,1 s";

#[test]
fn a_never_ending_turn_is_stopped_at_its_first_repeated_state() {
    let pos = omweso(SHORT_CYCLE);
    let (result, laps) = play(&pos, "D2", None);
    assert_eq!(result.summary.end, TurnEnd::NeverEnding);
    assert_eq!(laps.len(), 60);
    assert_eq!(result.summary.seeds_sown, 272);
    // D2 (4) sows C2, B2, A2 and A1, which held 3: a relay.
    assert_eq!(laps[0], "D2a4 A1 relay 0");
    assert_eq!(
        result.outcome,
        Some(Outcome::Annulled {
            reason: AnnulReason::NeverEnding
        })
    );
    // The first state came back: the board is as it started, North to move.
    assert_eq!(result.position.board(), pos.board());
    // Under a budget smaller than the cycle, the same turn runs out of budget instead.
    let (result, _) = play(&pos, "D2", Some(271));
    assert_eq!(result.summary.end, TurnEnd::Budget);
    // The repetition check comes before the budget check: a budget of exactly the
    // cycle's seeds still finds the repetition.
    let (result, _) = play(&pos, "D2", Some(272));
    assert_eq!(result.summary.end, TurnEnd::NeverEnding);
}

#[test]
fn a_finished_game_refuses_moves() {
    // South has only singletons: North has already won.
    let pos = omweso("2,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,1/1,1,0,0,0,0,0,0 s");
    assert_eq!(
        pos.outcome(),
        Some(Outcome::Win {
            winner: Side::North,
            victory: Victory::NoMove
        })
    );
    assert!(pos.legal_moves(Side::South, None).is_empty());
    assert_eq!(
        refusal(&pos, "A1"),
        "the game is already over in this position (n wins by no-move)"
    );
}

#[test]
fn positions_are_validated() {
    let short = "4,4,4,4,4,4,4,4/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,3 s";
    assert_eq!(
        short.parse::<Position>().unwrap_err().to_string(),
        "the position holds 63 seeds; omweso is played with exactly 64"
    );
    assert_eq!(
        "4,4,4,4,4,4,4,4/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,4 o"
            .parse::<Position>()
            .unwrap_err()
            .to_string(),
        "only Mweiso has an opening phase (o, os, on); an Omweso position says s or n"
    );
}

#[test]
fn legal_moves_within_lists_whole_moves_or_only_starts_past_the_work_allowed() {
    use omweso_rules::LegalMoves;
    // The position of `reverse_captured_seeds_may_be_sown_either_way`: whole moves A2,
    // A2'/a and A2'/c, whose turns sow a few seeds each; with 1,000 seeds of work allowed,
    // the list is the whole moves.
    let pos = omweso("0,0,2,1,0,2,0,0/0,0,1,1,0,0,0,0/2,0,1,1,0,0,0,0/0,0,0,0,0,0,0,0 s");
    let names = |moves: &[omweso_rules::Move]| -> Vec<String> {
        moves.iter().map(ToString::to_string).collect()
    };
    match pos.legal_moves_within(Side::South, Some(720), 1_000) {
        LegalMoves::Whole(moves) => assert_eq!(names(&moves), ["A2", "A2'/a", "A2'/c"]),
        other => panic!("expected whole moves, got {other:?}"),
    }
    // A2 holds 2 seeds: the first turn alone sows more than 1 seed of work, so only the
    // starts come back, A2 anticlockwise and A2 clockwise, without answers.
    match pos.legal_moves_within(Side::South, Some(720), 1) {
        LegalMoves::Starts(moves) => assert_eq!(names(&moves), ["A2", "A2'"]),
        other => panic!("expected the starts, got {other:?}"),
    }
}
