//! OpenSpiel's cases (board written [south 0..5 | north 6..11]; the seeds missing from 48
//! are added as captures, split so that neither side has already won).

use omweso_rules::oware::{House, IllegalMove, Lap, LapKind};
use omweso_rules::{Side, TurnEnd};

use super::*;

#[test]
fn openspiel_legal_moves() {
    // [1,0,9,0,0,1 | 1,0,0,0,0,0], South to move.
    let position = pos([1, 0, 9, 0, 0, 1, 1, 0, 0, 0, 0, 0], Side::South, [18, 18]);
    assert_eq!(position.to_string(), "0,0,0,0,0,1/1,0,9,0,0,1 s 18 18");
    assert_eq!(names(&position.legal_moves()), ["A1", "C1", "F1"]);
}

#[test]
fn openspiel_must_feed() {
    // [1,0,0,0,0,1 | 0,0,0,0,0,0], South to move: North is empty, only F1 reaches it.
    let position = pos([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0], Side::South, [24, 22]);
    assert_eq!(names(&position.legal_moves()), ["F1"]);
    let error = position.play(h("A1"), None).unwrap_err();
    assert_eq!(
        error,
        IllegalMove::MustFeed {
            house: h("A1"),
            opponent: Side::North,
            feeding: vec![h("F1")],
        }
    );
    assert_eq!(
        error.to_string(),
        "North has no seeds and A1 does not give them any; moves that feed North: F1"
    );
    let result = play(&position, "F1");
    assert_eq!(
        result.position.houses(),
        [1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0]
    );
    assert_eq!(result.outcome, None);
}

#[test]
fn openspiel_north_sows_into_south() {
    // North [3,1,1,1,0,0 | 0,0,8,0,0,1] plays its third house in sowing order (index 8, D2).
    let position = pos([3, 1, 1, 1, 0, 0, 0, 0, 8, 0, 0, 1], Side::North, [17, 16]);
    assert_eq!(House::from_index(8), h("D2"));
    assert_eq!(names(&position.legal_moves()), ["A2", "D2"]);
    let (result, laps) = play_laps(&position, "D2");
    assert_eq!(
        result.position.houses(),
        [4, 2, 2, 2, 1, 0, 0, 0, 0, 1, 1, 2]
    );
    assert_eq!(result.position.to_move(), Side::South);
    assert_eq!(result.captured, 0);
    assert_eq!(result.seeds_sown, 8);
    assert_eq!(result.end, TurnEnd::Ended);
    assert_eq!(result.outcome, None);
    assert_eq!(
        laps,
        [Lap {
            from: h("D2"),
            seeds: 8,
            to: h("E1"),
            captured: 0,
            kind: LapKind::End,
        }]
    );
}

#[test]
fn openspiel_grand_slam_captures_nothing() {
    // North [1,1,1,1,1,0 | 0,0,8,0,0,1] plays index 8: the last seed makes E1 2, and
    // E1..A1 all hold 2: capturing them would take all of South's seeds.
    let position = pos([1, 1, 1, 1, 1, 0, 0, 0, 8, 0, 0, 1], Side::North, [17, 17]);
    let (result, laps) = play_laps(&position, "D2");
    assert_eq!(
        result.position.houses(),
        [2, 2, 2, 2, 2, 0, 0, 0, 0, 1, 1, 2]
    );
    assert_eq!(result.captured, 0);
    assert_eq!(result.position.captured(Side::North), 17);
    assert_eq!(result.position.captured(Side::South), 17);
    assert_eq!(result.outcome, None);
    assert_eq!(
        laps,
        [Lap {
            from: h("D2"),
            seeds: 8,
            to: h("E1"),
            captured: 0,
            kind: LapKind::End,
        }]
    );
}
