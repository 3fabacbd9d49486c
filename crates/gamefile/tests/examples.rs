//! The examples of docs/game-file.md parse, replay to the positions worked out by hand,
//! and are written back exactly as the document shows them; and hand-made bad files are
//! refused at the right line and column, saying what is wrong.

use omweso_gamefile::{parse_games, write_game, GameRecord, GameResult, ParseError};
use omweso_rules::{Outcome, Ruleset, Side, Victory};

const DOC: &str = include_str!("../../../docs/game-file.md");

/// The ```ogn blocks of the document, each with its last newline.
fn examples() -> Vec<String> {
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in DOC.lines() {
        match (&mut current, line) {
            (None, "```ogn") => current = Some(String::new()),
            (Some(block), "```") => {
                blocks.push(std::mem::take(block));
                current = None;
            }
            (Some(block), line) => {
                block.push_str(line);
                block.push('\n');
            }
            (None, _) => {}
        }
    }
    blocks
}

fn one(text: &str) -> GameRecord {
    let mut games = parse_games(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(games.len(), 1, "{text}");
    games.remove(0)
}

#[test]
fn every_example_is_written_back_exactly() {
    let blocks = examples();
    assert_eq!(
        blocks.len(),
        4,
        "the short game and one game of each ruleset"
    );
    for block in &blocks {
        let game = one(block);
        assert_eq!(write_game(&game), format!("{block}\n"));
        game.replay().unwrap_or_else(|e| panic!("{e}\n{block}"));
    }
    // All of them as one file.
    let file: String = blocks.iter().map(|b| format!("{b}\n")).collect();
    assert_eq!(parse_games(&file).map(|g| g.len()), Ok(4));
}

#[test]
fn the_omweso_example_steals_and_resigns() {
    let game = one(&examples()[1]);
    assert_eq!(game.ruleset, Ruleset::Omweso);
    assert!(game.akakyala);
    assert_eq!(game.tag("North"), Some("Ben \"the sower\" Okello"));
    let moves: Vec<(Side, &str, bool)> = game
        .moves
        .iter()
        .map(|m| (m.side, m.notation.as_str(), m.stolen))
        .collect();
    assert_eq!(
        moves,
        [
            (Side::South, "E1", false),
            (Side::North, "G4", false),
            (Side::North, "E4", true)
        ]
    );
    assert_eq!(game.moves[0].emt_ms, Some(7_250));
    assert_eq!(
        game.moves[0].comment.as_deref(),
        Some("four columns at once")
    );
    assert_eq!(
        game.moves[2].comment.as_deref(),
        Some("stolen after the count of three")
    );
    let replay = game.replay().unwrap();
    let after: Vec<String> = replay.positions.iter().map(|p| p.to_string()).collect();
    // E1 captures 18 seeds in columns C, D, F and H (worked out with `omweso engine`);
    // G4 and the stolen E4 capture nothing, and South is to move again after the steal.
    assert_eq!(
        after,
        [
            "0,0,0,0,2,0,4,0/2,2,0,0,2,0,2,0/3,3,4,0,7,6,6,0/1,0,3,5,1,5,3,3 n",
            "0,0,1,1,3,1,0,0/2,2,0,0,2,0,2,0/3,3,4,0,7,6,6,0/1,0,3,5,1,5,3,3 s",
            "0,1,2,2,0,1,0,0/2,2,0,0,2,0,2,0/3,3,4,0,7,6,6,0/1,0,3,5,1,5,3,3 s",
        ]
    );
    assert_eq!(
        replay.outcome,
        Some(Outcome::Win {
            winner: Side::North,
            victory: Victory::Resigned
        })
    );
}

#[test]
fn the_mweiso_example_plays_the_opening_in_the_order_applied() {
    let game = one(&examples()[2]);
    let replay = game.replay().unwrap();
    let after: Vec<String> = replay.positions.iter().map(|p| p.to_string()).collect();
    assert_eq!(
        after[..3],
        [
            // North's opening first: South still owes theirs.
            "1,0,3,3,0,3,3,3/6,0,5,1,5,5,5,1/2,0,2,0,2,2,2,0/2,0,2,0,2,2,2,0 os",
            // Then South's; North, who finished first, moves first in the main phase.
            "1,0,3,3,0,3,3,3/6,0,5,1,5,5,5,1/2,0,2,0,2,2,2,0/2,0,0,1,0,3,3,1 n",
            "3,1,2,6,3,2,0,1/0,1,8,1,9,10,7,4/0,0,2,0,2,0,0,0/0,0,0,1,0,0,0,1 s",
        ]
    );
    assert_eq!(replay.outcome, None);
    assert_eq!(game.result, GameResult::Unfinished);
    // The same two opening turns the other way round are another game.
    let swapped = examples()[2].replace("1. A4 2. C1", "1. C1 2. A4");
    let other = one(&swapped).replay();
    assert!(other.is_err() || other.unwrap().positions[1] != replay.positions[1]);
}

#[test]
fn the_oware_example_splits_the_seeds_left() {
    let game = one(&examples()[3]);
    let replay = game.replay().unwrap();
    assert_eq!(
        replay.positions[2].to_string(),
        "3,0,0,0,1,0/0,0,0,0,2,1 n 20 21"
    );
    // 3 seeds on South's side, 4 on North's: 3 and 4, so 23 to 25.
    assert_eq!(replay.end.to_string(), "0,0,0,0,0,0/0,0,0,0,0,0 n 23 25");
    assert_eq!(
        replay.outcome,
        Some(Outcome::Win {
            winner: Side::North,
            victory: Victory::Impasse
        })
    );
}

fn error(text: &str) -> ParseError {
    parse_games(text).expect_err(text)
}

fn at(text: &str) -> (usize, usize, String) {
    let e = error(text);
    (e.line, e.column, e.what)
}

#[test]
fn bad_files_are_refused_where_they_are_wrong() {
    let head = "[Ruleset \"omweso\"]\n[Result \"*\"]\n\n";
    let cases: &[(&str, usize, usize, &str)] = &[
        ("1. E1 *", 0, 0, ""),
        ("1. E1 2. Z9 *", 4, 10, "\"Z9\" is not a move of omweso"),
        (
            "1. E1 3. D4 *",
            4,
            7,
            "move number 3. where move 2. was due",
        ),
        ("{hello} 1. E1 *", 4, 1, "a comment follows a move"),
        (
            "1. E1 {[%clk 0:01:00]} *",
            4,
            8,
            "unknown command [%clk 0:01:00]",
        ),
        (
            "1. E1 {a] b} *",
            4,
            9,
            "] in a comment's text is written \\]",
        ),
        ("1. E1 {x} {y} *", 4, 11, "move 1 has a comment already"),
        ("1. E1 {never closed *", 4, 22, "a comment has no closing }"),
        (
            "1. E1",
            4,
            6,
            "the game has no result at the end of its moves",
        ),
        (
            "1. E1 1-0",
            4,
            7,
            "the moves end with 1-0, but the Result tag says *",
        ),
    ];
    for &(moves, line, column, what) in cases {
        let text = format!("{head}{moves}");
        if line == 0 {
            assert!(parse_games(&text).is_ok(), "{text}");
            continue;
        }
        let (l, c, w) = at(&text);
        assert_eq!((l, c), (line, column), "{text}: {w}");
        assert!(w.contains(what), "{text}: {w}");
    }
    let tags: &[(&str, usize, usize, &str)] = &[
        ("[Result \"*\"]\n*", 1, 1, "the game has no Ruleset tag"),
        ("[Ruleset \"chess\"]\n[Result \"*\"]\n*", 1, 1, "unknown ruleset \"chess\""),
        ("[Ruleset \"oware\"]\n*", 1, 1, "the game has no Result tag"),
        ("[Ruleset \"oware\"]\n[Result \"1-0\"]\n1-0", 2, 1, "needs a Termination tag"),
        (
            "[Ruleset \"oware\"]\n[Result \"1-0\"]\n[Termination \"budget\"]\n1-0",
            3,
            1,
            "cannot end by budget",
        ),
        ("[Ruleset \"oware\"]\n[Ruleset \"oware\"]", 2, 1, "a second Ruleset tag"),
        ("[Ruleset \"oware\n\"]", 1, 16, "no closing \""),
        ("[Ruleset \"o\\ware\"]", 1, 12, "escapes only"),
        ("[Ruleset\t\"oware\"] [Result \"*\"] *\n", 0, 0, ""),
        ("[9Ruleset \"oware\"]", 1, 2, "a tag's name is a letter"),
        (
            "[Ruleset \"mweiso\"]\n[Akakyala \"on\"]\n[Result \"*\"]\n*",
            2,
            1,
            "only in Omweso",
        ),
        (
            "[Ruleset \"oware\"]\n[Setup \"4,4,4,4,4,4/4,4,4,4,4,4 s 0 1\"]\n[Result \"*\"]\n*",
            2,
            1,
            "the Setup is not a position of oware",
        ),
        (
            "[Ruleset \"oware\"]\n[Result \"0-1\"]\n[Termination \"impasse\"]\n0-1",
            1,
            1,
            "says how the seeds were split",
        ),
        (
            "[Ruleset \"oware\"]\n[Impasse \"x 3 4\"]\n[Result \"0-1\"]\n[Termination \"impasse\"]\n0-1",
            2,
            1,
            "is not an impasse",
        ),
        ("1. E1 *", 1, 1, "expected a tag pair"),
    ];
    for &(text, line, column, what) in tags {
        if line == 0 {
            assert!(parse_games(text).is_ok(), "{text}");
            continue;
        }
        let (l, c, w) = at(text);
        assert_eq!((l, c), (line, column), "{text}: {w}");
        assert!(w.contains(what), "{text}: {w}");
    }
}

#[test]
fn replays_refuse_what_the_rules_refuse() {
    let game = |tags: &str, moves: &str| one(&format!("[Ruleset \"omweso\"]\n{tags}\n{moves}"));
    let fails = |tags: &str, moves: &str| game(tags, moves).replay().expect_err(moves).to_string();
    // North plays twice without the steal mark, and South marked as a thief on its turn.
    assert_eq!(
        fails("[Result \"*\"]", "1. E1 2. D4 3. C4 *"),
        "move 3: C4: South is to move: a turn North plays instead is stolen, written C4^"
    );
    assert_eq!(
        fails("[Result \"*\"]", "1. E1^ *"),
        "move 1: E1: South is to move, so the turn is not stolen (no ^)"
    );
    assert!(fails("[Result \"*\"]", "1. E1 2. D4 3. E1 *").starts_with("move 3: E1: "));
    // The game goes on after E1: no board decision for South.
    assert_eq!(
        fails("[Result \"1-0\"]\n[Termination \"no-move\"]", "1. E1 1-0"),
        "the record says the game ended by no-move, but the moves do not end it"
    );
    assert_eq!(
        fails("[Result \"*\"]", "1. E1 {[%budget 720]} *"),
        "move 1: E1: [%budget 720] marks a turn that ran out of its budget; this one did not"
    );
    // E1 sows 4 seeds: a budget of 3 stops it before its only lap, and annuls the game.
    let annulled = game(
        "[Result \"annulled\"]\n[Termination \"budget\"]",
        "1. E1 {[%budget 3]} annulled",
    );
    let replay = annulled.replay().unwrap();
    assert_eq!(
        replay.positions[0].to_string(),
        "4,4,4,4,4,4,4,4/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,4 n"
    );
    // A wrong impasse split.
    let oware = one("[Ruleset \"oware\"]\n[Setup \"3,0,0,0,0,1/0,0,3,0,0,0 s 20 21\"]\n[Impasse \"s 4 3\"]\n[Result \"1-0\"]\n[Termination \"impasse\"]\n1-0");
    assert_eq!(
        oware.replay().unwrap_err().to_string(),
        "the seeds left split 3 to South and 4 to North, not 4 and 3"
    );
}
