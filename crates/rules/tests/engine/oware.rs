//! Oware (Abapa), RULES.md 3: houses, position strings, sowing, captures, grand slam,
//! must feed, the end of the game, and property tests against a plain seed-by-seed
//! reference implementation.

use omweso_rules::oware::{
    House, IllegalMove, Lap, LapKind, MoveResult, Moves, ParseHouseError, ParsePositionError,
    ParseSetupError, Position, PositionError, Setup, SEEDS,
};
use omweso_rules::{AnnulReason, Outcome, Side, TurnEnd, Victory};
use proptest::prelude::*;

// ----------------------------------------------------------------------------------------
// Helpers

/// A position from the houses in sowing order (OpenSpiel's layout: South A1..F1 = 0..5,
/// North F2..A2 = 6..11), the side to move and the captures `[South, North]`.
fn pos(houses: [u8; 12], to_move: Side, captured: [u8; 2]) -> Position {
    Position::from_setup(Setup {
        houses,
        to_move,
        captured,
    })
    .expect("a test position holds 48 seeds")
}

fn h(name: &str) -> House {
    name.parse().expect("a test house is valid")
}

fn names(houses: &[House]) -> Vec<String> {
    houses.iter().map(ToString::to_string).collect()
}

fn win(winner: Side) -> Option<Outcome> {
    Some(Outcome::Win {
        winner,
        victory: Victory::Captures,
    })
}

fn play(position: &Position, house: &str) -> MoveResult {
    position
        .play(h(house), None)
        .expect("the test move is legal")
}

fn play_laps(position: &Position, house: &str) -> (MoveResult, Vec<Lap>) {
    let mut laps = Vec::new();
    let result = position
        .play_observed(h(house), None, &mut |lap| laps.push(lap))
        .expect("the test move is legal");
    (result, laps)
}

// ----------------------------------------------------------------------------------------
// Houses

#[test]
fn house_indices_follow_sowing_order() {
    let order = [
        "A1", "B1", "C1", "D1", "E1", "F1", "F2", "E2", "D2", "C2", "B2", "A2",
    ];
    for (index, name) in order.iter().enumerate() {
        let house = h(name);
        assert_eq!(house.index(), index as u8, "{name}");
        assert_eq!(House::from_index(index as u8), house);
        assert_eq!(house.to_string(), *name);
        let side = if index < 6 { Side::South } else { Side::North };
        assert_eq!(house.side(), side, "{name}");
        assert_eq!(house.next(), House::from_index((index as u8 + 1) % 12));
    }
    assert_eq!(House::from_index(12), h("A1"));
    assert_eq!(h("C2").column(), 2);
    assert_eq!(h("C2").row(), 2);
    assert_eq!(House::new(5, Side::North), Some(h("F2")));
    assert_eq!(House::new(6, Side::South), None);
}

#[test]
fn house_parse_errors() {
    let cases: [(&str, ParseHouseError, &str); 8] = [
        (
            "",
            ParseHouseError::Malformed(String::new()),
            "\"\" is not a house: a house is a column A-F and a row 1-2, like C1",
        ),
        (
            "A",
            ParseHouseError::Malformed("A".into()),
            "\"A\" is not a house: a house is a column A-F and a row 1-2, like C1",
        ),
        (
            "A12",
            ParseHouseError::Malformed("A12".into()),
            "\"A12\" is not a house: a house is a column A-F and a row 1-2, like C1",
        ),
        (
            "G1",
            ParseHouseError::Column("G1".into(), 'G'),
            "\"G1\" is not a house: column 'G' is not one of A-F",
        ),
        (
            "a1",
            ParseHouseError::Column("a1".into(), 'a'),
            "\"a1\" is not a house: column 'a' is not one of A-F",
        ),
        (
            "A3",
            ParseHouseError::Row("A3".into(), '3'),
            "\"A3\" is not a house: row '3' is not 1 or 2",
        ),
        (
            "B0",
            ParseHouseError::Row("B0".into(), '0'),
            "\"B0\" is not a house: row '0' is not 1 or 2",
        ),
        (
            " C1",
            ParseHouseError::Malformed(" C1".into()),
            "\" C1\" is not a house: a house is a column A-F and a row 1-2, like C1",
        ),
    ];
    for (text, error, message) in cases {
        let found = text.parse::<House>().unwrap_err();
        assert_eq!(found, error, "{text:?}");
        assert_eq!(found.to_string(), message, "{text:?}");
    }
}

// ----------------------------------------------------------------------------------------
// Position strings

#[test]
fn start_position() {
    let start = Position::start(Side::North);
    assert_eq!(start.to_string(), "4,4,4,4,4,4/4,4,4,4,4,4 n 0 0");
    assert_eq!(start.houses(), [4; 12]);
    assert_eq!(start.to_move(), Side::North);
    assert_eq!(start.captured(Side::South), 0);
    assert_eq!(start.seeds_on(Side::South), 24);
    assert_eq!(start.seeds_on(Side::North), 24);
    assert_eq!(
        names(&start.legal_moves()),
        ["A2", "B2", "C2", "D2", "E2", "F2"]
    );
    assert_eq!(start.outcome(), None);
    assert_eq!(SEEDS, 48);
}

#[test]
fn position_string_layout() {
    // North's row is written A2..F2, which is indices 11 down to 6.
    let setup: Setup = "1,2,3,4,5,6/7,8,0,1,0,2 s 3 6".parse().unwrap();
    assert_eq!(
        setup.houses,
        [7, 8, 0, 1, 0, 2, 6, 5, 4, 3, 2, 1],
        "A1..F1 then F2..A2"
    );
    assert_eq!(setup.to_move, Side::South);
    assert_eq!(setup.captured, [3, 6]);
    assert_eq!(setup.seeds(h("B2")), 2);
    let position = Position::from_setup(setup).unwrap();
    assert_eq!(position.seeds(h("A2")), 1);
    assert_eq!(position.seeds_on(Side::North), 21);
    assert_eq!(position.seeds_on(Side::South), 18);
    assert_eq!(position.captured(Side::North), 6);
    assert_eq!(position.setup(), setup);
}

#[test]
fn position_strings_round_trip() {
    for text in [
        "4,4,4,4,4,4/4,4,4,4,4,4 s 0 0",
        "4,4,4,4,4,4/4,4,4,4,4,4 n 0 0",
        "0,0,0,0,0,0/0,0,0,0,0,0 s 24 24",
        "48,0,0,0,0,0/0,0,0,0,0,0 n 0 0",
        "0,0,0,0,0,0/0,0,0,0,0,0 s 48 0",
        "1,2,3,4,5,6/7,8,0,1,0,2 n 3 6",
        "0,10,0,0,0,1/0,0,0,12,0,3 s 20 2",
    ] {
        let position: Position = text.parse().unwrap();
        assert_eq!(position.to_string(), text);
        let setup: Setup = text.parse().unwrap();
        assert_eq!(setup.to_string(), text);
    }
}

#[test]
fn setup_parse_errors() {
    let shape_fields = "an Oware position is the north row, '/', the south row, the side to move and both players' captures, like \"4,4,4,4,4,4/4,4,4,4,4,4 s 0 0\"; expected the rows, the side to move and two capture counts separated by single spaces";
    let shape_rows = "an Oware position is the north row, '/', the south row, the side to move and both players' captures, like \"4,4,4,4,4,4/4,4,4,4,4,4 s 0 0\"; expected 2 rows separated by '/'";
    let cases: Vec<(&str, ParseSetupError, &str)> = vec![
        (
            "",
            ParseSetupError::Shape(
                "expected the rows, the side to move and two capture counts separated by single spaces",
            ),
            shape_fields,
        ),
        (
            "4,4,4,4,4,4/4,4,4,4,4,4 s",
            ParseSetupError::Shape(
                "expected the rows, the side to move and two capture counts separated by single spaces",
            ),
            shape_fields,
        ),
        (
            "4,4,4,4,4,4/4,4,4,4,4,4 s 0 0 0",
            ParseSetupError::Shape(
                "expected the rows, the side to move and two capture counts separated by single spaces",
            ),
            shape_fields,
        ),
        (
            "4,4,4,4,4,4/4,4,4,4,4,4  s 0 0",
            ParseSetupError::Shape(
                "expected the rows, the side to move and two capture counts separated by single spaces",
            ),
            shape_fields,
        ),
        (
            "4,4,4,4,4,4,4,4,4,4,4,4 s 0 0",
            ParseSetupError::Shape("expected 2 rows separated by '/'"),
            shape_rows,
        ),
        (
            "4,4,4,4,4,4/4,4,4,4,4,4/0,0,0,0,0,0 s 0 0",
            ParseSetupError::Shape("expected 2 rows separated by '/'"),
            shape_rows,
        ),
        (
            "4,4,4,4,4/4,4,4,4,4,4 s 0 0",
            ParseSetupError::RowLength { row: 2, found: 5 },
            "row 2 has 5 counts; each row has 6 (columns A to F)",
        ),
        (
            "4,4,4,4,4,4/4,4,4,4,4,4,0 s 0 0",
            ParseSetupError::RowLength { row: 1, found: 7 },
            "row 1 has 7 counts; each row has 6 (columns A to F)",
        ),
        (
            "4,4,x,4,4,4/4,4,4,4,4,4 s 0 0",
            ParseSetupError::Count {
                house: h("C2"),
                text: "x".into(),
            },
            "the count for C2 is \"x\", not a whole number from 0 to 48",
        ),
        (
            "4,4,4,4,4,4/4,4,4,4,4,49 s 0 0",
            ParseSetupError::Count {
                house: h("F1"),
                text: "49".into(),
            },
            "the count for F1 is \"49\", not a whole number from 0 to 48",
        ),
        (
            "4,4,4,4,4,4/-4,4,4,4,4,4 s 0 0",
            ParseSetupError::Count {
                house: h("A1"),
                text: "-4".into(),
            },
            "the count for A1 is \"-4\", not a whole number from 0 to 48",
        ),
        (
            "4,4,4,4,4,4/4,,4,4,4,4 s 0 0",
            ParseSetupError::Count {
                house: h("B1"),
                text: String::new(),
            },
            "the count for B1 is \"\", not a whole number from 0 to 48",
        ),
        (
            "4,4,4,4,4,4/4,4,4,004,4,4 s 0 0",
            ParseSetupError::Count {
                house: h("D1"),
                text: "004".into(),
            },
            "the count for D1 is \"004\", not a whole number from 0 to 48",
        ),
        (
            "4,4,4,4,4,4/4,4,4,4,4,4 S 0 0",
            ParseSetupError::Side("S".into()),
            "the side to move is \"S\"; it must be \"s\" or \"n\"",
        ),
        (
            "4,4,4,4,4,4/4,4,4,4,4,4 o 0 0",
            ParseSetupError::Side("o".into()),
            "the side to move is \"o\"; it must be \"s\" or \"n\"",
        ),
        (
            "4,4,4,4,4,4/4,4,4,4,4,4 s +1 0",
            ParseSetupError::Captured {
                side: Side::South,
                text: "+1".into(),
            },
            "South's capture count is \"+1\", not a whole number from 0 to 48",
        ),
        (
            "4,4,4,4,4,4/4,4,4,4,4,4 n 0 50",
            ParseSetupError::Captured {
                side: Side::North,
                text: "50".into(),
            },
            "North's capture count is \"50\", not a whole number from 0 to 48",
        ),
    ];
    for (text, error, message) in cases {
        let found = text.parse::<Setup>().unwrap_err();
        assert_eq!(found, error, "{text:?}");
        assert_eq!(found.to_string(), message, "{text:?}");
        assert_eq!(
            text.parse::<Position>().unwrap_err(),
            ParsePositionError::Setup(error),
            "{text:?}"
        );
    }
}

#[test]
fn position_needs_48_seeds() {
    let error = "4,4,4,4,4,4/4,4,4,4,4,4 s 1 0"
        .parse::<Position>()
        .unwrap_err();
    assert_eq!(
        error,
        ParsePositionError::Position(PositionError::SeedTotal {
            board: 48,
            captured: 1
        })
    );
    assert_eq!(
        error.to_string(),
        "the position holds 48 seeds on the board and 1 captured, 49 in all; Oware is played with exactly 48"
    );
    let setup: Setup = "4,4,4,4,4,4/4,4,4,4,4,0 s 0 3".parse().unwrap();
    assert_eq!(
        Position::from_setup(setup),
        Err(PositionError::SeedTotal {
            board: 44,
            captured: 3
        })
    );
    assert_eq!(
        "48,48,0,0,0,0/0,0,0,0,0,0 s 0 0"
            .parse::<Position>()
            .unwrap_err()
            .to_string(),
        "the position holds 96 seeds on the board and 0 captured, 96 in all; Oware is played with exactly 48"
    );
}

// ----------------------------------------------------------------------------------------
// OpenSpiel's cases (board written [south 0..5 | north 6..11]; the seeds missing from 48
// are added as captures, split so that neither side has already won)

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

// ----------------------------------------------------------------------------------------
// Sowing

#[test]
fn sowing_from_the_start() {
    let start = Position::start(Side::South);
    let (result, laps) = play_laps(&start, "C1");
    assert_eq!(result.position.to_string(), "4,4,4,4,4,5/4,4,0,5,5,5 n 0 0");
    assert_eq!(laps[0].to, h("F2"));
    // North's B2 sows A2, then on into South's row: A1, B1, C1.
    let result = play(&result.position, "B2");
    assert_eq!(result.position.to_string(), "5,0,4,4,4,5/5,5,1,5,5,5 s 0 0");
}

#[test]
fn twelve_seeds_skip_the_origin() {
    // A1 holds 12: one seed in each of the 11 other houses, then the 12th skips A1 and
    // falls in B1.
    let position = pos([12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], Side::South, [18, 17]);
    let (result, laps) = play_laps(&position, "A1");
    assert_eq!(
        result.position.houses(),
        [0, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2]
    );
    assert_eq!(result.seeds_sown, 12);
    assert_eq!(result.captured, 0);
    assert_eq!(laps[0].to, h("B1"));
}

#[test]
fn skipping_the_origin_moves_the_last_seed_into_a_capture() {
    // F1 holds 12: without the skip the last seed would fall back into F1; with it, it
    // falls in F2, which then holds 2 and is captured (F2 ends North's row from South's
    // side of the chain, so the chain stops there).
    let position = pos([0, 0, 0, 0, 0, 12, 0, 1, 1, 1, 1, 1], Side::South, [16, 15]);
    let (result, laps) = play_laps(&position, "F1");
    assert_eq!(
        result.position.houses(),
        [1, 1, 1, 1, 1, 0, 0, 2, 2, 2, 2, 2]
    );
    assert_eq!(result.captured, 2);
    assert_eq!(result.position.captured(Side::South), 18);
    assert_eq!(
        laps,
        [Lap {
            from: h("F1"),
            seeds: 12,
            to: h("F2"),
            captured: 2,
            kind: LapKind::Capture,
        }]
    );
}

#[test]
fn twenty_three_seeds_skip_the_origin_twice() {
    // 23 = 2 x 11 + 1: two seeds in every other house, the 23rd in B2 (after A2), and
    // A2 is skipped twice.
    let position = pos([1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 23], Side::North, [12, 12]);
    let (result, laps) = play_laps(&position, "A2");
    assert_eq!(
        result.position.houses(),
        [4, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 0]
    );
    assert_eq!(laps[0].to, h("A1"));
    assert_eq!(result.captured, 0, "A1 holds 4: no capture");
    assert_eq!(result.seeds_sown, 23);

    // 22 = 2 x 11: the last seed falls in the house before the origin, twice skipped.
    let position = pos([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 22, 1], Side::North, [13, 12]);
    let (result, laps) = play_laps(&position, "B2");
    assert_eq!(laps[0].to, h("C2"));
    assert_eq!(
        result.position.houses(),
        [2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 0, 3]
    );
    assert_eq!(result.captured, 0, "C2 is North's own house");
}

#[test]
fn many_seeds_lap_three_times() {
    // 35 = 3 x 11 + 2 from D1: three seeds in every other house, one more in E1 and F1.
    let position = pos([0, 0, 0, 35, 0, 0, 0, 0, 0, 0, 0, 0], Side::South, [6, 7]);
    let (result, laps) = play_laps(&position, "D1");
    assert_eq!(
        result.position.houses(),
        [3, 3, 3, 0, 4, 4, 3, 3, 3, 3, 3, 3]
    );
    assert_eq!(laps[0].to, h("F1"));
    assert_eq!(result.captured, 0);
}

// ----------------------------------------------------------------------------------------
// Captures

#[test]
fn capture_chain_stops_at_a_house_holding_one() {
    // South E1 (4 seeds): F1, F2, E2, D2. D2 1 -> 2 and E2 2 -> 3 are captured; F2 0 -> 1
    // stops the chain. C2 holds 2 but comes after the last seed: untouched.
    let position = pos([0, 0, 0, 0, 4, 0, 0, 2, 1, 2, 0, 3], Side::South, [20, 16]);
    let (result, laps) = play_laps(&position, "E1");
    assert_eq!(result.captured, 5);
    // South reaches 25 and the game stops: the board left, [0, 0, 0, 0, 0, 1, 1, 0, 0, 2,
    // 0, 3], is swept, South's F1 1 to South (26) and North's F2 1, C2 2, A2 3 to North
    // (22).
    assert_eq!(result.position.houses(), [0; 12]);
    assert_eq!(result.position.captured(Side::South), 26);
    assert_eq!(result.position.captured(Side::North), 22);
    assert_eq!(result.outcome, win(Side::South));
    assert_eq!(laps[0].to, h("D2"));
    assert_eq!(laps[0].kind, LapKind::Capture);
    assert_eq!(laps[0].captured, 5);
}

#[test]
fn capture_chain_stops_at_a_house_holding_four() {
    // As above but F2 held 3 and now holds 4: only D2 and E2 are captured.
    let position = pos([0, 0, 0, 0, 4, 0, 3, 2, 1, 0, 0, 1], Side::South, [19, 18]);
    let result = play(&position, "E1");
    assert_eq!(result.captured, 5);
    assert_eq!(
        result.position.houses(),
        [0, 0, 0, 0, 0, 1, 4, 0, 0, 0, 0, 1]
    );
    assert_eq!(result.position.captured(Side::South), 24);
    assert_eq!(result.outcome, None, "24 is not more than half");
}

#[test]
fn capture_needs_two_or_three_in_the_last_house() {
    // The last seed makes D2 4: nothing is captured though E2 and F2 hold 2 and 3.
    let position = pos([0, 0, 0, 0, 4, 0, 2, 1, 3, 0, 0, 1], Side::South, [19, 18]);
    let (result, laps) = play_laps(&position, "E1");
    assert_eq!(result.captured, 0);
    assert_eq!(
        result.position.houses(),
        [0, 0, 0, 0, 0, 1, 3, 2, 4, 0, 0, 1]
    );
    assert_eq!(laps[0].kind, LapKind::End);
    // The last seed in the mover's own house making 2 captures nothing either.
    let position = pos([1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5], Side::South, [21, 20]);
    let result = play(&position, "A1");
    assert_eq!(result.captured, 0);
    assert_eq!(
        result.position.houses(),
        [0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5]
    );
}

#[test]
fn capture_chain_stops_at_the_end_of_the_opponents_row() {
    // South E1 (4 seeds): F1 1 -> 2, F2 1 -> 2, E2 2 -> 3, D2 1 -> 2. D2, E2, F2 are
    // captured; the chain ends with North's row and F1 (South's own, holding 2) stays.
    let position = pos([0, 0, 0, 0, 4, 1, 1, 2, 1, 0, 0, 5], Side::South, [10, 24]);
    let result = play(&position, "E1");
    assert_eq!(result.captured, 7);
    assert_eq!(
        result.position.houses(),
        [0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 5]
    );
    assert_eq!(
        result.position.to_string(),
        "5,0,0,0,0,0/0,0,0,0,0,2 n 17 24"
    );
    assert_eq!(result.outcome, None);

    // North A2 (3 seeds): A1 1 -> 2, B1 1 -> 2, C1 2 -> 3, all captured; the chain ends
    // at A1 and does not go on into A2, North's own house.
    let position = pos([1, 1, 2, 0, 0, 4, 0, 0, 0, 0, 2, 3], Side::North, [20, 15]);
    let (result, laps) = play_laps(&position, "A2");
    assert_eq!(result.captured, 7);
    assert_eq!(
        result.position.houses(),
        [0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 2, 0]
    );
    assert_eq!(result.position.captured(Side::North), 22);
    assert_eq!(laps[0].to, h("C1"));
}

#[test]
fn grand_slam_of_a_single_house() {
    // North has only F2 (1 seed); South's F1 makes it 2, which would be every seed North
    // has: a grand slam, legal but capturing nothing.
    let position = pos([0, 0, 0, 0, 3, 1, 1, 0, 0, 0, 0, 0], Side::South, [22, 21]);
    let (result, laps) = play_laps(&position, "F1");
    assert_eq!(result.captured, 0);
    assert_eq!(
        result.position.houses(),
        [0, 0, 0, 0, 3, 0, 2, 0, 0, 0, 0, 0]
    );
    assert_eq!(laps[0].kind, LapKind::End);
    assert_eq!(laps[0].to, h("F2"));
}

// ----------------------------------------------------------------------------------------
// The end of the game

#[test]
fn a_win_at_25_captured() {
    let position = pos([0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 3], Side::South, [23, 20]);
    let result = play(&position, "F1");
    assert_eq!(result.captured, 2);
    assert_eq!(result.outcome, win(Side::South));
    // The game stops at 25 and each player takes the seeds left in their own houses
    // (RULES.md 3): North's 3 in A2 make 23, and the captures add up to 48.
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

// ----------------------------------------------------------------------------------------
// Checked play

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

// ----------------------------------------------------------------------------------------
// A plain reference implementation, seed by seed, for the property tests

struct Reference {
    houses: [u8; 12],
    captured: [u8; 2],
}

fn own(side: Side, index: usize) -> bool {
    (index < 6) == (side == Side::South)
}

/// Can `side` move, and with what houses (indices), by RULES.md 3 read literally.
fn reference_moves(houses: &[u8; 12], side: Side) -> Vec<usize> {
    let opponent_empty = (0..12).all(|i| own(side, i) || houses[i] == 0);
    (0..12)
        .filter(|&i| own(side, i) && houses[i] > 0)
        .filter(|&i| {
            if !opponent_empty {
                return true;
            }
            let mut after = *houses;
            reference_sow(&mut after, i);
            (0..12).any(|j| !own(side, j) && after[j] > 0)
        })
        .collect()
}

fn reference_sow(houses: &mut [u8; 12], origin: usize) -> usize {
    let mut hand = houses[origin];
    houses[origin] = 0;
    let mut at = origin;
    while hand > 0 {
        at = (at + 1) % 12;
        if at == origin {
            continue;
        }
        houses[at] += 1;
        hand -= 1;
    }
    at
}

fn reference_play(position: &Position, origin: usize) -> (Reference, u8) {
    let side = position.to_move();
    let mut r = Reference {
        houses: position.houses(),
        captured: [
            position.captured(Side::South),
            position.captured(Side::North),
        ],
    };
    let last = reference_sow(&mut r.houses, origin);
    let mut taken = Vec::new();
    let mut at = last;
    while !own(side, at) && (r.houses[at] == 2 || r.houses[at] == 3) {
        taken.push(at);
        if at == 0 || at == 6 {
            break;
        }
        at -= 1;
    }
    let total: u8 = taken.iter().map(|&i| r.houses[i]).sum();
    let theirs: u8 = (0..12)
        .filter(|&i| !own(side, i))
        .map(|i| r.houses[i])
        .sum();
    let mut captured = 0;
    if total != theirs {
        for i in taken {
            captured += r.houses[i];
            r.houses[i] = 0;
        }
    }
    r.captured[side.index()] += captured;
    (r, captured)
}

// ----------------------------------------------------------------------------------------
// Property tests

/// 48 seeds dealt into 12 houses and 2 capture piles: all 14 at random; or a random
/// number on the board and the rest captured (more endgames); or all into a few buckets
/// (houses of 12 seeds and more, which skip their origin); or one row empty (must feed).
fn arb_setup() -> impl Strategy<Value = Setup> {
    let buckets = prop::collection::vec(0..14usize, 48).prop_map(|picks| {
        let mut counts = [0u8; 14];
        for pick in picks {
            counts[pick] += 1;
        }
        counts
    });
    let endgame = (0..=48u8, prop::collection::vec(0..12usize, 48), 0..=48u8).prop_map(
        |(on_board, picks, split)| {
            let mut counts = [0u8; 14];
            for &pick in picks.iter().take(usize::from(on_board)) {
                counts[pick] += 1;
            }
            let off = 48 - on_board;
            let south = split.min(off);
            counts[12] = south;
            counts[13] = off - south;
            counts
        },
    );
    let heaps = (
        prop::collection::vec(0..14usize, 1..=4),
        prop::collection::vec(any::<prop::sample::Index>(), 48),
    )
        .prop_map(|(hot, picks)| {
            let mut counts = [0u8; 14];
            for pick in picks {
                counts[*pick.get(&hot)] += 1;
            }
            counts
        });
    let one_row = (
        any::<bool>(),
        0..=48u8,
        prop::collection::vec(0..8usize, 48),
    )
        .prop_map(|(north_row, on_board, picks)| {
            let mut counts = [0u8; 14];
            let base = if north_row { 6 } else { 0 };
            for (i, pick) in picks.into_iter().enumerate() {
                let bucket = if i < usize::from(on_board) {
                    base + pick % 6
                } else {
                    12 + pick % 2
                };
                counts[bucket] += 1;
            }
            counts
        });
    (prop_oneof![buckets, endgame, heaps, one_row], any::<bool>()).prop_map(|(counts, north)| {
        let mut houses = [0u8; 12];
        houses.copy_from_slice(&counts[..12]);
        Setup {
            houses,
            to_move: if north { Side::North } else { Side::South },
            captured: [counts[12], counts[13]],
        }
    })
}

fn arb_position() -> impl Strategy<Value = Position> {
    arb_setup().prop_map(|setup| Position::from_setup(setup).expect("48 seeds"))
}

fn total(position: &Position) -> u32 {
    position.houses().iter().map(|&n| u32::from(n)).sum::<u32>()
        + u32::from(position.captured(Side::South))
        + u32::from(position.captured(Side::North))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn moves_conserve_seeds(position in arb_position()) {
        for house in position.legal_moves() {
            let result = position.play(house, None).unwrap();
            prop_assert_eq!(total(&result.position), 48);
            prop_assert!(Position::from_setup(result.position.setup()).is_ok());
            prop_assert_eq!(result.position.to_move(), position.to_move().other());
            prop_assert_eq!(result.seeds_sown, u64::from(position.seeds(house)));
        }
    }

    #[test]
    fn legal_moves_are_exactly_what_play_accepts(position in arb_position()) {
        let legal = position.legal_moves();
        for index in 0..12u8 {
            let house = House::from_index(index);
            prop_assert_eq!(
                position.play(house, None).is_ok(),
                legal.contains(&house),
                "{} in {}", house, position
            );
        }
        // Column order, the mover's own houses.
        let columns: Vec<u8> = legal.iter().map(|house| house.column()).collect();
        let mut sorted = columns.clone();
        sorted.sort_unstable();
        sorted.dedup();
        prop_assert_eq!(columns, sorted);
        prop_assert!(legal.iter().all(|house| house.side() == position.to_move()));
        prop_assert_eq!(legal.is_empty(), position.outcome().is_some());
        prop_assert_eq!(position.moves().len(), legal.len());
        for (k, house) in legal.iter().enumerate() {
            prop_assert_eq!(position.moves().nth(k), Some(*house));
            prop_assert!(position.is_legal(*house));
        }
        prop_assert_eq!(position.moves().nth(legal.len()), None);
    }

    #[test]
    fn for_each_move_agrees_with_play(position in arb_position(), budget in prop::option::of(0..20u64)) {
        let mut seen = Vec::new();
        position.for_each_move(budget, |house, result| seen.push((house, *result)));
        let expected: Vec<(House, MoveResult)> = position
            .legal_moves()
            .into_iter()
            .map(|house| (house, position.play(house, budget).unwrap()))
            .collect();
        prop_assert_eq!(seen, expected);
    }

    #[test]
    fn play_matches_the_reference(position in arb_position()) {
        let side = position.to_move();
        let over = position.outcome().is_some();
        let reference: Vec<usize> = if over {
            Vec::new()
        } else {
            reference_moves(&position.houses(), side)
        };
        let legal: Vec<usize> = position
            .legal_moves()
            .iter()
            .map(|house| usize::from(house.index()))
            .collect();
        let mut sorted = legal.clone();
        sorted.sort_unstable();
        prop_assert_eq!(&sorted, &reference);
        for origin in reference {
            let (r, captured) = reference_play(&position, origin);
            let mut lap = None;
            let result = position
                .play_observed(House::from_index(origin as u8), None, &mut |l| lap = Some(l))
                .unwrap();
            prop_assert_eq!(result.captured, captured);
            let lap = lap.unwrap();
            prop_assert_eq!(lap.captured, captured);
            prop_assert_eq!(lap.kind == LapKind::Capture, captured > 0);
            let next = side.other();
            let decided = r.captured.iter().any(|&c| c > 24) || r.captured == [24, 24];
            if decided || reference_moves(&r.houses, next).is_empty() {
                // The game is over: swept (at 25 too, RULES.md 3).
                let mut swept = r.captured;
                for (i, &n) in r.houses.iter().enumerate() {
                    swept[if i < 6 { 0 } else { 1 }] += n;
                }
                prop_assert_eq!(result.position.houses(), [0; 12]);
                prop_assert_eq!(
                    [result.position.captured(Side::South), result.position.captured(Side::North)],
                    swept
                );
                prop_assert!(result.outcome.is_some());
            } else {
                prop_assert_eq!(result.position.houses(), r.houses);
                prop_assert_eq!(
                    [result.position.captured(Side::South), result.position.captured(Side::North)],
                    r.captured
                );
                prop_assert_eq!(result.outcome.is_some(), decided);
            }
            prop_assert_eq!(result.outcome, result.position.outcome());
            if let Some(Outcome::Win { winner, victory }) = result.outcome {
                prop_assert_eq!(victory, Victory::Captures);
                prop_assert!(result.position.captured(winner) > 24);
            }
        }
    }

    #[test]
    fn position_strings_round_trip_prop(position in arb_position()) {
        let text = position.to_string();
        prop_assert_eq!(text.parse::<Position>().unwrap(), position);
        prop_assert_eq!(text.parse::<Setup>().unwrap(), position.setup());
    }

    #[test]
    fn an_impasse_conserves_splits_evenly_and_judges(position in arb_position()) {
        let (end, outcome) = position.settle_impasse();
        prop_assert_eq!(total(&end), 48);
        prop_assert_eq!(end.houses(), [0; 12]);
        let [south, north] = position.impasse_split();
        let (on_south, on_north) = (position.seeds_on(Side::South), position.seeds_on(Side::North));
        prop_assert_eq!(south + north, on_south + on_north);
        prop_assert!(south.abs_diff(north) <= 1);
        if south != north {
            // The odd seed goes to the side with more seeds on it.
            prop_assert_eq!(south > north, on_south > on_north);
        }
        prop_assert_eq!(end.captured(Side::South), position.captured(Side::South) + south);
        let judged = match end.outcome() {
            Some(Outcome::Win { winner, .. }) => Some(Outcome::Win { winner, victory: Victory::Impasse }),
            other => other,
        };
        prop_assert_eq!(judged, Some(outcome));
    }

    #[test]
    fn parsers_never_panic(text in ".*") {
        let _ = text.parse::<House>();
        let _ = text.parse::<Setup>();
        let _ = text.parse::<Position>();
    }

    #[test]
    fn parsers_never_panic_on_near_misses(text in "[0-9,/ sn]{0,48}") {
        if let Ok(setup) = text.parse::<Setup>() {
            prop_assert_eq!(setup.to_string().parse::<Setup>().unwrap(), setup);
        }
        let _ = text.parse::<Position>();
    }

    #[test]
    fn random_games_end_or_keep_48(seed in any::<u64>()) {
        let mut position = Position::start(if seed % 2 == 0 { Side::South } else { Side::North });
        let mut state = seed;
        for _ in 0..300 {
            let moves = position.legal_moves();
            if moves.is_empty() {
                prop_assert!(position.outcome().is_some());
                break;
            }
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let house = moves[(state >> 33) as usize % moves.len()];
            let result = position.play(house, None).unwrap();
            prop_assert_eq!(total(&result.position), 48);
            prop_assert_eq!(result.outcome, result.position.outcome());
            position = result.position;
        }
    }
}
