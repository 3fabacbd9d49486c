//! `omweso engine`'s `read_game` and `write_game` (docs/engine-cli.md, docs/game-file.md)
//! as a user runs them: the real binary, the documented requests answered exactly as
//! documented, every example of docs/game-file.md read, replayed and written back to the
//! same text, and a bad file refused at its line and column.

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::{json, Value};

fn engine(requests: &[String]) -> Vec<Value> {
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
    let text = String::from_utf8(output.stdout).expect("UTF-8 output");
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object a line"))
        .collect();
    assert_eq!(lines.len(), requests.len());
    lines
}

/// The ```json blocks of docs/engine-cli.md's game-file section: requests and answers.
fn documented() -> Vec<Value> {
    let doc = include_str!("../../../../docs/engine-cli.md");
    let section = doc
        .split("## `read_game` and `write_game` (addition)")
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .expect("the section");
    section
        .split("```json\n")
        .skip(1)
        .map(|block| {
            let body = block.split("```").next().unwrap_or_default();
            serde_json::from_str(body.trim()).expect("a JSON example")
        })
        .collect()
}

#[test]
fn the_documented_requests_get_the_documented_answers() {
    let blocks = documented();
    assert_eq!(blocks.len(), 4, "two requests and their answers");
    let requests: Vec<String> = blocks.iter().step_by(2).map(Value::to_string).collect();
    let answers = engine(&requests);
    assert_eq!(answers[0], blocks[1]);
    assert_eq!(answers[1], blocks[3]);
}

/// The ```ogn examples of docs/game-file.md.
fn examples() -> Vec<String> {
    let doc = include_str!("../../../../docs/game-file.md");
    doc.split("```ogn\n")
        .skip(1)
        .map(|b| b.split("```").next().unwrap_or_default().to_owned())
        .collect()
}

#[test]
fn every_example_file_reads_replays_and_writes_back() {
    let texts = examples();
    assert_eq!(texts.len(), 4);
    let reads: Vec<String> = texts
        .iter()
        .map(|t| json!({"op":"read_game","text":t}).to_string())
        .collect();
    let answers = engine(&reads);
    let mut writes = Vec::new();
    for answer in &answers {
        let games = answer["games"]
            .as_array()
            .unwrap_or_else(|| panic!("{answer}"));
        assert_eq!(games.len(), 1, "{answer}");
        let game = &games[0];
        assert!(game.get("error").is_none(), "{game}");
        let moves = game["record"]["moves"].as_array().unwrap().len();
        assert_eq!(game["positions"].as_array().unwrap().len(), moves);
        writes.push(json!({"op":"write_game","record":game["record"]}).to_string());
    }
    // The Omweso example: North's stolen E4 leaves South to move again; South resigned.
    let omweso = &answers[1]["games"][0];
    assert_eq!(
        omweso["record"]["moves"][2],
        json!({"side":"n","move":"E4","stolen":true,"emt_ms":4100,"comment":"stolen after the count of three"})
    );
    assert_eq!(
        omweso["end"],
        "0,1,2,2,0,1,0,0/2,2,0,0,2,0,2,0/3,3,4,0,7,6,6,0/1,0,3,5,1,5,3,3 s"
    );
    assert_eq!(
        omweso["outcome"],
        json!({"result":"win","winner":"n","victory":"resigned"})
    );
    // Mweiso's opening in the order applied: South still owes theirs after North's.
    assert_eq!(
        answers[2]["games"][0]["positions"][0],
        "1,0,3,3,0,3,3,3/6,0,5,1,5,5,5,1/2,0,2,0,2,2,2,0/2,0,2,0,2,2,2,0 os"
    );
    let written = engine(&writes);
    for (text, answer) in texts.iter().zip(&written) {
        assert_eq!(answer["text"], format!("{text}\n"), "{answer}");
    }
}

#[test]
fn bad_files_and_bad_records_are_refused_saying_why() {
    let answers = engine(&[
        json!({"op":"read_game","text":"[Ruleset \"omweso\"]\n[Result \"*\"]\n\n1. E1 2. Z9 *"})
            .to_string(),
        json!({"op":"read_game","text":"[Ruleset \"omweso\"]\n[Result \"*\"]\n\n1. E1 2. D4 3. C4 *\n\n[Ruleset \"oware\"]\n[Result \"*\"]\n\n*"})
            .to_string(),
        json!({"op":"write_game","record":{"ruleset":"omweso","result":"2-0"}}).to_string(),
        json!({"op":"read_game"}).to_string(),
        json!({"op":"read_game","text":"","ruleset":"omweso"}).to_string(),
    ]);
    assert_eq!(answers[0]["line"], 4);
    assert_eq!(answers[0]["column"], 10);
    assert_eq!(
        answers[0]["error"],
        "line 4, column 10: \"Z9\" is not a move of omweso: a move starts with a pit, optionally followed by ' for a clockwise lap: \"Z9\" is not a pit: column 'Z' is not one of A-H"
    );
    // One game does not replay; the other is still read.
    let games = answers[1]["games"].as_array().unwrap();
    assert_eq!(
        games[0]["error"],
        "move 3: C4: South is to move: a turn North plays instead is stolen, written C4^"
    );
    assert_eq!(games[1]["positions"], json!([]));
    assert!(answers[2]["error"]
        .as_str()
        .unwrap()
        .starts_with("\"record\": unknown result \"2-0\""));
    assert_eq!(answers[3]["error"], "the request has no \"text\"");
    assert_eq!(
        answers[4]["error"],
        "unknown field \"ruleset\" in a read_game request; it takes op, text"
    );
}
