//! Checked play: refusals in words, the sowing budget, move iteration.

use omweso_rules::oware::{IllegalMove, LapKind, Moves, Position};
use omweso_rules::{AnnulReason, Outcome, Side, TurnEnd};

use super::*;

#[test]
fn illegal_moves_say_what_is_wrong() {
    let start = Position::start(Side::South);
    let error = start.play(h("C2"), None).unwrap_err();
    assert_eq!(
        error,
        IllegalMove::NotYourHouse {
            house: h("C2"),
            to_move: Side::South
        }
    );
    assert_eq!(
        error.to_string(),
        "C2 is North's house, and it is South's turn"
    );

    let position: Position = "4,4,4,4,4,4/4,4,0,4,4,4 s 0 4".parse().unwrap();
    let error = position.play(h("C1"), None).unwrap_err();
    assert_eq!(error, IllegalMove::EmptyHouse { house: h("C1") });
    assert_eq!(error.to_string(), "house C1 is empty");

    let position: Position = "0,0,0,0,0,1/1,0,3,0,2,0 n 24 17".parse().unwrap();
    let error = position.play(h("A2"), None).unwrap_err();
    assert_eq!(error.to_string(), "house A2 is empty");
    // North is empty: A1 (1 seed) would need 6 to reach it; C1 (4) needs 4, E1 (2) needs 2.
    let position: Position = "0,0,0,0,0,0/1,0,4,0,2,0 s 24 17".parse().unwrap();
    let error = position.play(h("A1"), None).unwrap_err();
    assert_eq!(
        error.to_string(),
        "North has no seeds and A1 does not give them any; moves that feed North: C1, E1"
    );

    let position: Position = "0,0,0,0,0,1/1,0,0,0,0,0 s 30 16".parse().unwrap();
    let error = position.play(h("A1"), None).unwrap_err();
    assert_eq!(error, IllegalMove::GameOver(win(Side::South).unwrap()));
    assert_eq!(
        error.to_string(),
        "the game is already over in this position (s wins by captures)"
    );
}

#[test]
fn budget_stops_the_move_before_sowing() {
    let start = Position::start(Side::South);
    let mut laps = Vec::new();
    let result = start
        .play_observed(h("B1"), Some(3), &mut |lap| laps.push(lap))
        .unwrap();
    assert_eq!(result.end, TurnEnd::Budget);
    assert_eq!(result.seeds_sown, 0);
    assert_eq!(result.captured, 0);
    assert_eq!(result.position.to_string(), "4,4,4,4,4,4/4,4,4,4,4,4 n 0 0");
    assert_eq!(
        result.outcome,
        Some(Outcome::Annulled {
            reason: AnnulReason::Budget
        })
    );
    assert!(laps.is_empty());
    // Exactly the budget is fine.
    let result = start.play(h("B1"), Some(4)).unwrap();
    assert_eq!(result.end, TurnEnd::Ended);
    assert_eq!(result.seeds_sown, 4);
    assert_eq!(result.outcome, None);
    // Legality is checked before the budget.
    assert!(start.play(h("B2"), Some(0)).is_err());
}

#[test]
fn for_each_move_plays_every_legal_move_in_column_order() {
    let position: Position = "0,2,0,1,0,6/3,0,0,4,0,2 n 15 15".parse().unwrap();
    let mut seen = Vec::new();
    position.for_each_move(None, |house, result| {
        seen.push((house.to_string(), result.seeds_sown));
    });
    assert_eq!(
        seen,
        [
            ("B2".to_string(), 2),
            ("D2".to_string(), 1),
            ("F2".to_string(), 6)
        ]
    );
    let mut count = 0;
    position.for_each_move(Some(1), |house, result| {
        count += 1;
        let expected = if house == h("D2") {
            TurnEnd::Ended
        } else {
            TurnEnd::Budget
        };
        assert_eq!(result.end, expected, "{house}");
    });
    assert_eq!(count, 3);
}

#[test]
fn moves_iterate_in_column_order_without_allocating() {
    // North's legal houses B2, D2, F2 are indices 10, 8, 6: column order is downwards.
    let position: Position = "0,2,0,1,0,6/3,0,0,4,0,2 n 15 15".parse().unwrap();
    let moves: Moves = position.moves();
    assert_eq!(moves.len(), 3);
    assert_eq!(names(&moves.collect::<Vec<_>>()), ["B2", "D2", "F2"]);
    assert_eq!(moves.clone().next(), Some(h("B2")));
    assert_eq!(moves.clone().nth(2), Some(h("F2")));
    assert_eq!(moves.clone().nth(3), None);
    assert!(moves.contains(h("D2")));
    assert!(!moves.contains(h("A2")));
    assert!(position.is_legal(h("F2")));
    assert!(!position.is_legal(h("C2")));
    assert!(!position.is_legal(h("A1")));
    let mut rest = moves;
    assert_eq!(rest.nth(1), Some(h("D2")));
    assert_eq!(rest.len(), 1);
    assert_eq!(rest.next(), Some(h("F2")));
    assert!(rest.is_empty());
    assert_eq!(rest.next(), None);

    let south: Position = "0,2,0,1,0,6/3,0,0,4,0,2 s 15 15".parse().unwrap();
    assert_eq!(
        names(&south.moves().collect::<Vec<_>>()),
        ["A1", "D1", "F1"]
    );
    assert_eq!(south.moves().nth(1), Some(h("D1")));
}

#[test]
fn lap_kind_names() {
    assert_eq!(LapKind::Capture.name(), "capture");
    assert_eq!(LapKind::End.name(), "end");
}
