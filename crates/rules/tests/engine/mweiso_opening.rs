//! Mweiso's simultaneous opening as docs/rules.md#2-mweiso-kagera-murray-1951 reads it: no capture from a back-row hole
//! (no clockwise start), the end conditions are the main phase's, and a player with no
//! legal opening turn skips it.

use crate::common::{moves_of, play, position, refusal};
use omweso_rules::{
    AnnulReason, Outcome, Owing, Position, PositionError, Preset, Rules, Side, ToMove, TurnEnd,
    Victory,
};

fn mweiso(text: &str) -> Position {
    position(text, Rules::MWEISO)
}

fn start() -> Position {
    Position::start(Rules::MWEISO, Preset::Even, Side::South)
}

fn win(winner: Side, victory: Victory) -> Option<Outcome> {
    Some(Outcome::Win { winner, victory })
}

/// From the start each player has six opening turns, capturing 12 to 16 seeds (Murray's
/// "at most half"). The counts, in the order the engine lists the moves:
/// - `A1`, hand-traced (all pits 2): A1 sows B1, C1; C1 (3) relays to D1, E1, F1; F1 (3)
///   to G1, H1, H2; H2 (3) faces H3, H4: capture 4, sown from F1 to G1, H1, H2, G2; G2 (3)
///   faces G3, G4: capture 4, sown from F1 again to G2 (4), column G now empty: relay 4 to
///   F2, E2, D2, C2; C2 (3) faces C3, C4: capture 4, sown from G2 to C2 (4): relay 4 to B2,
///   A2, A1, B1; B1 (4) relays to C1, D1, E1, F1, which F1 left empty: the end. 3 x 4 = 12.
/// - the others the same way; `F1` relays on through H2 a second time and takes a fourth
///   column (16).
#[test]
fn from_the_start_each_player_has_six_opening_turns_capturing_12_to_16() {
    let start = start();
    let expected = [
        (
            Side::South,
            ["A1", "B1", "C1", "F1", "G1", "H1"],
            ["CGH", "BFG", "AEF", "AEFH", "BFH", "AEG"],
        ),
        (
            Side::North,
            ["H4", "G4", "F4", "C4", "B4", "A4"],
            ["ABF", "BCG", "CDH", "ACDH", "ACG", "BDH"],
        ),
    ];
    for (side, names, columns) in expected {
        let moves = start.legal_moves(side, None);
        let listed: Vec<String> = moves.iter().map(ToString::to_string).collect();
        assert_eq!(listed, names, "{side:?}");
        let mut captures = Vec::new();
        for (mv, columns) in moves.iter().zip(columns) {
            let result = start.play(mv, None).unwrap();
            assert_eq!(result.summary.end, TurnEnd::Ended, "{mv}");
            assert_eq!(result.outcome, None, "{mv} decides nothing");
            assert_eq!(result.summary.capture_columns_letters(), columns, "{mv}");
            captures.push(result.summary.captured);
        }
        assert_eq!(captures, [12, 12, 12, 16, 12, 12], "{side:?}");
        assert!(captures.iter().all(|c| (12..=16).contains(c)));
    }
    let (_, laps) = play(&start, "A1", None);
    assert_eq!(
        laps,
        [
            "A1a2 C1 relay 0",
            "C1a3 F1 relay 0",
            "F1a3 H2 capture 4",
            "F1a4 G2 capture 4",
            "F1a4 G2 relay 0",
            "G2a4 C2 capture 4",
            "G2a4 C2 relay 0",
            "C2a4 B1 relay 0",
            "B1a4 F1 end 0"
        ]
    );
}

/// Murray's reason for forbidding the 4th and 5th pits: from them the same board's turn
/// would take 20 and 24 seeds, more than half. (Played here as main-phase turns, where
/// they are allowed; E1 then even wins at both ends.)
#[test]
fn the_4th_and_5th_pits_would_capture_more_than_half() {
    let main = mweiso("2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 s");
    let (d1, _) = play(&main, "D1", None);
    let (e1, _) = play(&main, "E1", None);
    assert_eq!([d1.summary.captured, e1.summary.captured], [20, 24]);
    let forbidden = "Mweiso's opening turn starts from an outer pit other than the 4th and 5th from the player's left";
    for pit in ["D1", "E1", "E4", "D4", "H2"] {
        assert_eq!(
            refusal(&start(), pit),
            format!("{forbidden}; {pit} is not one")
        );
    }
}

/// South A1 (2); B2 holds 1 and faces B3, B4: `A1'` would capture directly.
const CLOCKWISE: &str = "0,1,0,1,0,2,0,0/0,1,0,1,0,0,0,0/0,1,0,1,0,0,0,0/2,0,0,0,0,0,0,0";

#[test]
fn no_opening_turn_starts_clockwise() {
    let refused = "Mweiso's opening turn never starts clockwise: no capture is made from a back-row hole in the opening";
    assert_eq!(refusal(&start(), "A1'"), format!("{refused} (A1')"));
    assert_eq!(refusal(&start(), "H4'"), format!("{refused} (H4')"));
    // The same board: in the main phase A1' is a legal start, in the opening it is not.
    let main = mweiso(&format!("{CLOCKWISE} s"));
    assert!(moves_of(&main, Side::South)
        .iter()
        .any(|m| m.starts_with("A1'")));
    for field in ["o", "os"] {
        let opening = mweiso(&format!("{CLOCKWISE} {field}"));
        assert_eq!(moves_of(&opening, Side::South), ["A1"], "{field}");
        assert_eq!(refusal(&opening, "A1'"), format!("{refused} (A1')"));
        assert_eq!(refusal(&opening, "A1'/a"), format!("{refused} (A1')"));
    }
    // No opening turn from the start has a decision point (every lap is anticlockwise).
    for side in Side::ALL {
        for mv in start().legal_moves(side, None) {
            assert!(mv.answers.is_empty(), "{mv}");
        }
    }
}

/// South G1 (2) reaches H2, facing H3 (4) and H4 (5): 9 seeds, sown from G1 to A2, facing
/// A3 (5) and A4 (5): 10 more, sown from G1 to A1, empty: the end. Both end columns.
const BOTH_ENDS: &str = "5,0,0,2,0,0,0,5/5,0,0,0,0,0,0,4/1,0,0,0,0,0,0,1/0,0,0,0,0,0,2,0";

#[test]
fn an_opening_turn_capturing_both_end_columns_does_not_win() {
    let after = "0,0,0,2,0,0,0,0/0,0,0,0,0,0,0,0/3,2,2,2,2,2,2,4/1,0,0,0,0,0,0,3";
    let (main, _) = play(&mweiso(&format!("{BOTH_ENDS} s")), "G1", None);
    assert_eq!(main.outcome, win(Side::South, Victory::EmitweEbiri));
    // South's opening turn, North having played theirs: the same captures, no win; North
    // finished its opening first, so North moves first in the main phase.
    let (opening, laps) = play(&mweiso(&format!("{BOTH_ENDS} os")), "G1", None);
    assert_eq!(
        laps,
        ["G1a2 H2 capture 9", "G1a9 A2 capture 10", "G1a10 A1 end 0"]
    );
    assert_eq!(opening.summary.captured, 19);
    assert_eq!(opening.summary.capture_columns_letters(), "AH");
    assert_eq!(opening.outcome, None);
    assert_eq!(opening.position.to_string(), format!("{after} n"));
    assert_eq!(opening.position.outcome(), None);
}

#[test]
fn the_first_main_phase_turn_is_where_the_end_conditions_are_checked() {
    // North owes its opening; South played first, so South moves first in the main phase.
    // North's G4 sows F4, E4 (empty): the end. South's first main-phase turn is then the
    // G1 of the test above, which wins at both ends.
    let pos = mweiso("5,0,0,2,0,0,2,5/5,0,0,0,0,0,0,4/1,0,0,0,0,0,0,1/0,0,0,0,0,0,2,0 on");
    assert_eq!(moves_of(&pos, Side::North), ["H4", "G4", "A4"]);
    let (opening, _) = play(&pos, "G4", None);
    assert_eq!(opening.outcome, None);
    assert_eq!(opening.position.to_move(), ToMove::Side(Side::South));
    let (main, _) = play(&opening.position, "G1", None);
    assert_eq!(main.summary.capture_columns_letters(), "AH");
    assert_eq!(main.outcome, win(Side::South, Victory::EmitweEbiri));

    // The other end condition: North's opening A4 (7) reaches G3, capturing G1 and G2, and
    // leaves South, first to move in the main phase, with a single seed: South cannot make
    // that turn and has lost. The opening's own captures won nothing; the main phase's
    // rule decides at its first turn.
    let pos = mweiso("7,0,0,0,0,0,0,0/0,0,0,0,0,0,1,0/0,0,0,0,0,0,2,0/0,1,0,0,0,0,1,0 on");
    let (opening, laps) = play(&pos, "A4", None);
    assert_eq!(
        laps,
        [
            "A4a7 G3 capture 3",
            "A4a3 C3 relay 0",
            "C3a2 E3 relay 0",
            "E3a2 G3 relay 0",
            "G3a3 G4 end 0"
        ]
    );
    assert_eq!(
        opening.position.to_string(),
        "0,0,0,0,0,0,1,1/2,2,0,2,0,2,0,1/0,0,0,0,0,0,0,0/0,1,0,0,0,0,0,0 s"
    );
    assert_eq!(opening.outcome, win(Side::North, Victory::NoMove));
    assert_eq!(opening.position.outcome(), opening.outcome);
}

#[test]
fn a_player_with_no_legal_opening_turn_skips_it_and_the_other_moves_first() {
    // North's outer pits of two are D4 and E4 only (the 4th and 5th from its left): North
    // has no opening turn. South's G1 (2) sows H1, H2 (empty): the end.
    let board = "0,0,0,2,2,0,1,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/2,0,0,0,0,0,2,0";
    let both = mweiso(&format!("{board} o"));
    assert_eq!(both.outcome(), None);
    assert!(both.legal_moves(Side::North, None).is_empty());
    assert_eq!(moves_of(&both, Side::South), ["A1", "G1"]);
    let game = omweso_rules::Game::from(both);
    assert_eq!(game.opening_owed(), [Side::South]);
    let (after, _) = play(&both, "G1", None);
    assert_eq!(after.outcome, None);
    assert_eq!(
        after.position.to_string(),
        "0,0,0,2,2,0,1,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,1/2,0,0,0,0,0,0,1 s"
    );
    assert_eq!(after.position.to_move(), ToMove::Side(Side::South));
    // North owing the last opening turn without one: skipped, so South, who played first,
    // moves first.
    let owing_north = mweiso(&format!("{board} on"));
    assert_eq!(owing_north.to_move(), ToMove::Side(Side::South));
    assert_eq!(owing_north.outcome(), None);
    // An opening turn that leaves the opponent with no opening turn: the opponent skips,
    // and the mover moves first in the main phase. South's H1 (2) sows H2, G2 (1), facing G3
    // (1) and G4 (2): capture 3, taking North's only outer pit of two.
    let pos = mweiso("0,0,0,0,0,0,2,0/0,0,0,0,0,0,1,0/0,0,0,0,0,0,1,1/0,0,0,0,0,0,0,2 o");
    let (after, laps) = play(&pos, "H1", None);
    assert_eq!(laps[0], "H1a2 G2 capture 3");
    assert_eq!(after.outcome, None);
    assert_eq!(after.position.to_move(), ToMove::Side(Side::South));
    // Nobody has an opening turn: the rules do not say who would move first.
    let nobody = "0,0,0,2,2,0,1,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,2,2,0,0,0 o";
    assert_eq!(
        Position::from_setup_partial(nobody.parse().unwrap(), Rules::MWEISO),
        Err(PositionError::NoOpeningTurn)
    );
}

#[test]
fn a_never_ending_or_overlong_opening_turn_annuls_the_game() {
    // A1 sows 2 (A1), 3 (C1), then F1's 3 would pass a budget of 7.
    let result = start().play(&"A1".parse().unwrap(), Some(7)).unwrap();
    assert_eq!(result.summary.end, TurnEnd::Budget);
    assert_eq!(
        result.outcome,
        Some(Outcome::Annulled {
            reason: AnnulReason::Budget
        })
    );
}

/// Every opening from the start, in either order: 40 pairs, none ends the game, and the
/// player who played first moves first in the main phase.
#[test]
fn every_opening_from_the_start_leads_to_the_main_phase() {
    let start = start();
    let mut pairs = 0;
    for first in Side::ALL {
        for mv in start.legal_moves(first, None) {
            let one = start.play(&mv, None).unwrap();
            assert_eq!(
                one.position.to_move(),
                ToMove::Opening(Owing::Only(first.other()))
            );
            for reply in one.position.legal_moves(first.other(), None) {
                let two = one.position.play(&reply, None).unwrap();
                assert_eq!(two.outcome, None, "{mv} then {reply}");
                assert_eq!(two.position.to_move(), ToMove::Side(first));
                pairs += 1;
            }
        }
    }
    assert_eq!(pairs, 40);
}
