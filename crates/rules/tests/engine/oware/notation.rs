//! Houses and position strings: names, indices, layout, round trips and every parse error.

use omweso_rules::oware::{
    House, ParseHouseError, ParsePositionError, ParseSetupError, Position, PositionError, Setup,
    SEEDS,
};
use omweso_rules::Side;

use super::*;

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
