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
        "unknown op \"fly\": expected \"moves\" or \"play\""
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
