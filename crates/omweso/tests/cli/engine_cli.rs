//! `omweso engine` as a user runs it: the real binary, requests on stdin, one response
//! line per request line on stdout, exit 0 at end of input.

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs the engine over `requests` (one per line) and returns its response lines.
fn engine(requests: &[&str]) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_omweso"))
        .arg("engine")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the omweso binary runs");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = requests.join("\n") + "\n";
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().expect("the engine exits");
    writer.join().unwrap().unwrap();
    assert!(output.status.success(), "exit status {}", output.status);
    String::from_utf8(output.stdout)
        .expect("UTF-8 output")
        .lines()
        .map(str::to_owned)
        .collect()
}

fn one(request: &str) -> String {
    let mut lines = engine(&[request]);
    assert_eq!(lines.len(), 1);
    lines.remove(0)
}

const EXAMPLE: &str = "5,0,0,0,1,1,1,1/0,3,0,5,5,5,0,5/10,4,1,4,4,0,0,4/1,0,0,0,4,0,0,0 s";

#[test]
fn moves_of_the_worked_example() {
    let request = format!(r#"{{"op":"moves","ruleset":"omweso","position":"{EXAMPLE}"}}"#);
    assert_eq!(
        one(&request),
        r#"{"moves":["E1","H2","E2","D2","B2","A2"],"outcome":null}"#
    );
}

#[test]
fn play_the_worked_example() {
    let request = format!(
        r#"{{"op":"play","ruleset":"omweso","position":"{EXAMPLE}","move":"E1","max_seeds":720}}"#
    );
    assert_eq!(
        one(&request),
        r#"{"position":"5,0,0,0,1,1,1,0/0,3,0,5,5,5,0,0/10,4,1,4,4,1,1,6/1,0,0,0,0,2,2,2 n","captured":6,"capture_columns":"H","laps":2,"seeds_sown":10,"end":"ended","outcome":null}"#
    );
}

#[test]
fn the_long_cycle_without_a_budget_and_with_one() {
    let position = "1,2,0,0,0,2,0,1/0,0,0,0,0,0,0,0/12,0,1,8,1,6,1,2/0,6,0,8,3,7,2,1 s";
    let lines = engine(&[
        &format!(r#"{{"op":"play","ruleset":"omweso","position":"{position}","move":"E1"}}"#),
        &format!(
            r#"{{"op":"play","ruleset":"omweso","position":"{position}","move":"E1","max_seeds":720}}"#
        ),
    ]);
    let unbudgeted: serde_json::Value = serde_json::from_str(&lines[0]).unwrap();
    assert_eq!(unbudgeted["end"], "never-ending");
    assert_eq!(unbudgeted["laps"], 203_882_464);
    assert_eq!(unbudgeted["position"], position.replace(" s", " n"));
    assert_eq!(
        unbudgeted["outcome"],
        serde_json::json!({"result":"annulled","reason":"never-ending"})
    );
    let budgeted: serde_json::Value = serde_json::from_str(&lines[1]).unwrap();
    assert_eq!(budgeted["end"], "budget");
    assert_eq!(
        budgeted["outcome"],
        serde_json::json!({"result":"annulled","reason":"budget"})
    );
    assert!(budgeted["seeds_sown"].as_u64().unwrap() <= 720);
}

#[test]
fn outcomes_are_written_as_the_contract_says() {
    // South captures North's last pit of two: a no-move win.
    let request = r#"{"op":"play","ruleset":"omweso","position":"0,1,0,0,0,0,0,1/0,0,0,0,0,0,1,2/0,0,0,0,0,0,0,1/14,14,14,14,0,0,2,0 s","move":"G1"}"#;
    // (the position is padded to 64 seeds with South's A1..D1)
    let response: serde_json::Value = serde_json::from_str(&one(request)).unwrap();
    assert_eq!(
        response["outcome"],
        serde_json::json!({"result":"win","winner":"s","victory":"no-move"})
    );
    assert_eq!(response["capture_columns"], "H");
    let over = r#"{"op":"moves","ruleset":"omweso","position":"0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0/13,13,13,12,12,0,0,0 n"}"#;
    assert_eq!(
        one(over),
        r#"{"moves":[],"outcome":{"result":"win","winner":"s","victory":"no-move"}}"#
    );
}

#[test]
fn bad_requests_get_an_error_and_the_engine_carries_on() {
    let lines = engine(&[
        "not json",
        "",
        "[1,2]",
        r#"{"op":"fly","ruleset":"omweso","position":"x"}"#,
        r#"{"op":"moves","ruleset":"chess","position":"x"}"#,
        r#"{"op":"moves","ruleset":"omweso","position":"1,2,3 s"}"#,
        &format!(r#"{{"op":"play","ruleset":"omweso","position":"{EXAMPLE}","move":"A1"}}"#),
        &format!(r#"{{"op":"play","ruleset":"omweso","position":"{EXAMPLE}","move":"E9"}}"#),
        &format!(r#"{{"op":"play","ruleset":"omweso","position":"{EXAMPLE}","move":"E1/a"}}"#),
        &format!(r#"{{"op":"play","ruleset":"omweso","position":"{EXAMPLE}","move":"A4"}}"#),
        &format!(r#"{{"op":"moves","ruleset":"omweso","position":"{EXAMPLE}","max_seeds":-1}}"#),
        &format!(r#"{{"op":"moves","ruleset":"omweso","position":"{EXAMPLE}","max_seed":5}}"#),
        r#"{"op":"moves","ruleset":"omweso"}"#,
        &format!(r#"{{"op":"moves","ruleset":"omweso","position":"{EXAMPLE}"}}"#),
    ]);
    let errors: Vec<String> = lines[..13]
        .iter()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["error"]
                .as_str()
                .unwrap_or_else(|| panic!("not an error: {l}"))
                .to_owned()
        })
        .collect();
    assert!(errors[0].starts_with("bad JSON: "), "{}", errors[0]);
    assert!(errors[1].starts_with("bad JSON: "), "{}", errors[1]);
    assert_eq!(errors[2], "a request is a JSON object, not [1,2]");
    assert_eq!(
        errors[3],
        "unknown op \"fly\": expected \"moves\", \"play\", \"bestmove\", \"read_game\" or \"write_game\""
    );
    assert_eq!(
        errors[4],
        "unknown ruleset \"chess\": expected \"omweso\", \"mweiso\" or \"oware\""
    );
    assert!(
        errors[5].starts_with("malformed position: "),
        "{}",
        errors[5]
    );
    assert_eq!(
        errors[6],
        "illegal move A1: pit A1 holds 1 seed; a move needs at least 2"
    );
    assert_eq!(
        errors[7],
        "malformed move \"E9\": a move starts with a pit, optionally followed by ' for a clockwise lap: \"E9\" is not a pit: row '9' is not one of 1-4"
    );
    assert_eq!(
        errors[8],
        "illegal move E1/a: a answers no decision point: the turn stopped (ended) after 2 laps"
    );
    assert_eq!(
        errors[9],
        "illegal move A4: A4 is North's pit, and South is playing"
    );
    assert_eq!(
        errors[10],
        "\"max_seeds\" must be a whole number of seeds, 0 or more, not -1"
    );
    assert_eq!(
        errors[11],
        "unknown field \"max_seed\" in a moves request; it takes op, ruleset, position, and optionally max_seeds, side, akakyala"
    );
    assert_eq!(errors[12], "the request has no \"position\"");
    // ... and the last, good request is answered as usual.
    assert_eq!(
        lines[13],
        r#"{"moves":["E1","H2","E2","D2","B2","A2"],"outcome":null}"#
    );
    assert_eq!(lines.len(), 14);
}

#[test]
fn mweiso_opening_needs_a_side_while_both_owe_it() {
    let start = "2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 o";
    let lines = engine(&[
        &format!(r#"{{"op":"moves","ruleset":"mweiso","position":"{start}"}}"#),
        &format!(
            r#"{{"op":"play","ruleset":"mweiso","position":"{start}","side":"n","move":"D4"}}"#
        ),
        &format!(
            r#"{{"op":"play","ruleset":"mweiso","position":"{start}","side":"s","move":"B1","max_seeds":720}}"#
        ),
    ]);
    assert_eq!(
        lines[0],
        r#"{"error":"both players still owe their Mweiso opening turn; say which plays with \"side\":\"s\" or \"n\""}"#
    );
    assert_eq!(
        lines[1],
        r#"{"error":"illegal move D4: Mweiso's opening turn starts from an outer pit other than the 4th and 5th from the player's left; D4 is not one"}"#
    );
    let played: serde_json::Value = serde_json::from_str(&lines[2]).unwrap();
    assert!(
        played["position"].as_str().unwrap().ends_with(" on"),
        "{played}"
    );
}

/// docs/rules.md#2-mweiso-kagera-murray-1951: the opening never starts clockwise, its six turns from the start decide
/// nothing, and a position where nobody has an opening turn is refused.
#[test]
fn mweiso_opening_turns_are_never_clockwise_and_decide_nothing() {
    let start = "2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 o";
    // North's D4 and E4 are the 4th and 5th from its left; South's D1, E1 likewise: 64
    // seeds, and neither player has an opening pit of two.
    let nobody = "0,0,0,8,8,0,0,0/4,4,4,4,0,0,0,0/0,0,0,0,4,4,4,4/0,0,0,8,8,0,0,0 o";
    let lines = engine(&[
        &format!(r#"{{"op":"moves","ruleset":"mweiso","position":"{start}","side":"s"}}"#),
        &format!(
            r#"{{"op":"play","ruleset":"mweiso","position":"{start}","side":"s","move":"A1'"}}"#
        ),
        &format!(
            r#"{{"op":"play","ruleset":"mweiso","position":"{start}","side":"s","move":"F1"}}"#
        ),
        &format!(r#"{{"op":"moves","ruleset":"mweiso","position":"{nobody}","side":"s"}}"#),
    ]);
    assert_eq!(
        lines[0],
        r#"{"moves":["A1","B1","C1","F1","G1","H1"],"outcome":null}"#
    );
    assert_eq!(
        lines[1],
        r#"{"error":"illegal move A1': Mweiso's opening turn never starts clockwise: no capture is made from a back-row hole in the opening (A1')"}"#
    );
    let played: serde_json::Value = serde_json::from_str(&lines[2]).unwrap();
    assert_eq!(played["captured"], 16, "{played}");
    assert_eq!(played["capture_columns"], "AEFH", "{played}");
    assert_eq!(played["outcome"], serde_json::Value::Null, "{played}");
    assert!(lines[3].starts_with(r#"{"error":"#), "{}", lines[3]);
    assert!(
        lines[3].contains("neither player has an opening turn"),
        "{}",
        lines[3]
    );
}

#[test]
fn oware_moves_and_play() {
    let lines = engine(&[
        r#"{"op":"moves","ruleset":"oware","position":"4,4,4,4,4,4/4,4,4,4,4,4 s 0 0"}"#,
        r#"{"op":"play","ruleset":"oware","position":"4,4,4,4,4,4/4,4,4,4,4,4 s 0 0","move":"C1"}"#,
        r#"{"op":"play","ruleset":"oware","position":"4,4,4,4,4,4/4,4,4,4,4,4 s 0 0","move":"C2"}"#,
    ]);
    assert_eq!(
        lines[0],
        r#"{"moves":["A1","B1","C1","D1","E1","F1"],"outcome":null}"#
    );
    // C1's 4 seeds go to D1, E1, F1, F2.
    assert_eq!(
        lines[1],
        r#"{"position":"4,4,4,4,4,5/4,4,0,5,5,5 n 0 0","captured":0,"capture_columns":"","laps":1,"seeds_sown":4,"end":"ended","outcome":null,"scores":{"s":0,"n":0}}"#
    );
    let error: serde_json::Value = serde_json::from_str(&lines[2]).unwrap();
    assert!(
        error["error"]
            .as_str()
            .unwrap()
            .starts_with("illegal move C2: "),
        "{error}"
    );
}

/// docs/rules.md#3-oware-abapa, docs/engine-cli.md: a move that reaches 25 stops the game, and each player takes
/// the seeds left in their own houses; `scores` are after that sweep and add up to 48.
#[test]
fn oware_scores_after_the_sweep_at_25() {
    // South 21, North 19; South's E1 (3 seeds) makes F2 3 and E2 2: 5 captured, 26. Left:
    // South F1 2 (28), North A2 1 (20).
    let line = one(
        r#"{"op":"play","ruleset":"oware","position":"1,0,0,0,1,2/0,0,0,0,3,1 s 21 19","move":"E1"}"#,
    );
    assert_eq!(
        line,
        r#"{"position":"0,0,0,0,0,0/0,0,0,0,0,0 n 28 20","captured":5,"capture_columns":"","laps":1,"seeds_sown":3,"end":"ended","outcome":{"result":"win","winner":"s","victory":"captures"},"scores":{"s":28,"n":20}}"#
    );
}

#[test]
fn akakyala_extension() {
    let position = "0,0,0,0,2,0,0,1/0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,1/14,14,14,15,0,0,2,0 s";
    let request = format!(
        r#"{{"op":"play","ruleset":"omweso","position":"{position}","move":"G1","akakyala":{{"s":true,"n":false}}}}"#
    );
    let response: serde_json::Value = serde_json::from_str(&one(&request)).unwrap();
    assert_eq!(
        response["outcome"],
        serde_json::json!({"result":"win","winner":"s","victory":"akakyala"})
    );
}

#[test]
fn an_empty_input_exits_cleanly() {
    assert!(engine(&[]).iter().all(|l| l.contains("error")));
    let child = Command::new(env!("CARGO_BIN_EXE_omweso"))
        .arg("engine")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(child.status.success());
    assert!(child.stdout.is_empty());
}

fn json(line: &str) -> serde_json::Value {
    serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"))
}

/// Oware, South to move with 20 captured to North's 16: `D1` sows E1, F1, F2, E2, making
/// E2 3 and F2 2, a chain of 5: South reaches 25 and wins (crates/search/tests/forced.rs).
const OWARE_WIN: &str = "4,0,0,0,2,1/1,0,0,4,0,0 s 20 16";

#[test]
fn bestmove_finds_a_win_in_one_at_every_kind_of_limit() {
    let lines = engine(&[
        &format!(r#"{{"op":"bestmove","ruleset":"oware","position":"{OWARE_WIN}","level":1}}"#),
        &format!(
            r#"{{"op":"bestmove","ruleset":"oware","position":"{OWARE_WIN}","level":8,"seed":3}}"#
        ),
        &format!(r#"{{"op":"bestmove","ruleset":"oware","position":"{OWARE_WIN}","millis":20}}"#),
    ]);
    for line in &lines {
        let answer = json(line);
        assert_eq!(answer["move"], "D1", "{line}");
        assert_eq!(answer["score"], 1.0, "{line}");
        assert_eq!(answer["depth"], 1, "{line}");
        assert_eq!(answer["pv"], serde_json::json!(["D1"]), "{line}");
        assert!(answer["nodes"].as_u64().is_some(), "{line}");
    }
}

#[test]
fn bestmove_plays_a_legal_move_of_each_start_and_is_reproducible_with_its_seed() {
    let starts = [
        (
            "omweso",
            "4,4,4,4,4,4,4,4/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,4 s",
            "",
        ),
        ("oware", "4,4,4,4,4,4/4,4,4,4,4,4 s 0 0", ""),
        (
            "mweiso",
            "2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 o",
            r#","side":"n""#,
        ),
    ];
    for (ruleset, position, side) in starts {
        let moves =
            format!(r#"{{"op":"moves","ruleset":"{ruleset}","position":"{position}"{side}}}"#);
        let best = format!(
            r#"{{"op":"bestmove","ruleset":"{ruleset}","position":"{position}"{side},"level":4,"seed":9}}"#
        );
        let lines = engine(&[&moves, &best, &best]);
        let legal = json(&lines[0])["moves"].clone();
        let answer = json(&lines[1]);
        assert!(
            legal.as_array().unwrap().contains(&answer["move"]),
            "{ruleset}: {answer} not in {legal}"
        );
        assert_eq!(
            lines[1], lines[2],
            "{ruleset}: the same seed, the same answer"
        );
        let score = answer["score"].as_f64().unwrap();
        assert!((-1.0..=1.0).contains(&score), "{answer}");
        assert!(answer["depth"].as_u64().unwrap() >= 1, "{answer}");
        assert_eq!(answer["pv"][0], answer["move"], "{answer}");
    }
}

#[test]
fn bestmove_refusals_say_why() {
    let start = "4,4,4,4,4,4/4,4,4,4,4,4 s 0 0";
    let lines = engine(&[
        &format!(r#"{{"op":"bestmove","ruleset":"oware","position":"{start}"}}"#),
        &format!(
            r#"{{"op":"bestmove","ruleset":"oware","position":"{start}","millis":10,"level":2}}"#
        ),
        &format!(r#"{{"op":"bestmove","ruleset":"oware","position":"{start}","level":9}}"#),
        &format!(r#"{{"op":"bestmove","ruleset":"oware","position":"{start}","level":-1}}"#),
        &format!(r#"{{"op":"bestmove","ruleset":"oware","position":"{start}","millis":60001}}"#),
        &format!(
            r#"{{"op":"bestmove","ruleset":"oware","position":"{start}","level":1,"side":"n"}}"#
        ),
        r#"{"op":"bestmove","ruleset":"oware","position":"0,0,0,0,0,6/0,0,0,0,0,0 s 22 20","level":1}"#,
        r#"{"op":"bestmove","ruleset":"omweso","position":"0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0/13,13,13,12,12,0,0,0 n","level":1}"#,
        r#"{"op":"bestmove","ruleset":"mweiso","position":"2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 o","level":1}"#,
        &format!(
            r#"{{"op":"bestmove","ruleset":"oware","position":"{start}","level":1,"nodes":5}}"#
        ),
    ]);
    let errors: Vec<String> = lines
        .iter()
        .map(|l| {
            json(l)["error"]
                .as_str()
                .unwrap_or_else(|| panic!("not an error: {l}"))
                .to_owned()
        })
        .collect();
    assert_eq!(
        errors[0],
        "a bestmove request needs \"millis\" (a time budget, at most 60000 ms) or \"level\" (1 to 8)"
    );
    assert_eq!(
        errors[1],
        "a bestmove request gives \"millis\" or \"level\", not both"
    );
    assert_eq!(errors[2], "\"level\": level 9 is not one of 1 to 8");
    assert_eq!(errors[3], "\"level\" must be a level, 1 to 8, not -1");
    assert_eq!(
        errors[4],
        "a time limit of 60001 ms is over the 60000 ms allowed"
    );
    assert_eq!(
        errors[5],
        "\"side\" is n, but in this position only s may move"
    );
    assert_eq!(
        errors[6],
        "the game is over in this position (n wins by captures): there is no move to find"
    );
    assert_eq!(
        errors[7],
        "the game is over in this position (s wins by no-move): there is no move to find"
    );
    assert_eq!(
        errors[8],
        "both players still owe their Mweiso opening turn; say which plays with \"side\":\"s\" or \"n\""
    );
    assert_eq!(
        errors[9],
        "unknown field \"nodes\" in a bestmove request; it takes op, ruleset, position, millis or level, and optionally max_seeds, side, seed, akakyala"
    );
}

mod random_positions {
    use omweso_rules::{Game, Preset, Ruleset, Side};
    use omweso_tools::engine_cli::respond;
    use proptest::prelude::*;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    /// A position reached by `plies` random moves from the start of `ruleset` (fewer if
    /// the game ended), and who is to move in it (in Mweiso's opening, if both still owe
    /// their turn, South).
    fn random_position(ruleset: Ruleset, plies: u32, seed: u64) -> (Game, Side) {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut game = Game::start(ruleset, Preset::Outer, Side::South);
        for _ in 0..plies {
            let side = game.to_move().unwrap_or(Side::South);
            let moves = game.legal_moves(side, Some(720));
            if moves.is_empty() {
                break;
            }
            let mv = &moves[rng.random_range(0..moves.len())];
            let result = game.play_as(side, mv, Some(720)).unwrap();
            if result.outcome.is_some() {
                break;
            }
            game = result.game;
        }
        (game, game.to_move().unwrap_or(Side::South))
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

        /// `bestmove` at the cheap levels answers with one of the position's legal moves
        /// (the `moves` answer), on positions of random games of all three rulesets.
        #[test]
        fn bestmove_plays_only_legal_moves(
            ruleset in prop::sample::select(Ruleset::ALL.to_vec()),
            plies in 0u32..60,
            seed in any::<u64>(),
            level in 1u8..=4,
        ) {
            let (game, side) = random_position(ruleset, plies, seed);
            let common = format!(
                r#""ruleset":"{ruleset}","position":"{game}","side":"{}""#,
                side.char()
            );
            let moves: serde_json::Value =
                serde_json::from_str(&respond(&format!(r#"{{"op":"moves",{common}}}"#))).unwrap();
            let answer: serde_json::Value = serde_json::from_str(&respond(&format!(
                r#"{{"op":"bestmove",{common},"level":{level},"seed":{seed}}}"#
            )))
            .unwrap();
            let legal = moves["moves"].as_array().unwrap();
            prop_assert!(legal.contains(&answer["move"]), "{} not in {:?} ({})", answer, legal, game);
        }
    }
}
