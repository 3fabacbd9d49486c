//! `omweso loadgen` as it is run for docs/performance.md: the real binary, spawning the
//! real server, with a handful of games. Its report must say the games were played
//! through the protocol without a refusal, a dropped socket or a version gap.

use std::process::Command;

use serde_json::Value;

/// `omweso loadgen --spawn-server` on an in-memory database, 4 s with 1 of warm-up, seed 7,
/// with `args`: its output and its JSON report (the last line), having checked that the
/// run succeeded.
fn loadgen(args: &[&str]) -> (String, Value) {
    let output = Command::new(env!("CARGO_BIN_EXE_omweso"))
        .args([
            "loadgen",
            "--spawn-server",
            "--database-url",
            "sqlite::memory:",
        ])
        .args(["--seconds", "4", "--warmup", "1", "--seed", "7", "--json"])
        // A few games in a closed loop move far faster than people: each player sends
        // over a hundred actions a second, past the default limit of 20.
        .args(["--server-rate-limit", "10000"])
        .args(args)
        .output()
        .expect("the omweso binary runs");
    let stdout = String::from_utf8(output.stdout).expect("UTF-8 output");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    let report: Value = serde_json::from_str(stdout.lines().last().expect("a JSON line"))
        .expect("the last line is the JSON report");
    (stdout, report)
}

#[test]
fn a_short_load_run_plays_games_cleanly_and_reports_them() {
    let (stdout, report) = loadgen(&["--games", "4", "--spectators", "1", "--timeline"]);

    assert_eq!(report["games"], 4);
    assert_eq!(report["spectators"], 1);
    assert_eq!(report["errors_total"], 0, "{stdout}");
    assert_eq!(report["dropped"], 0, "{stdout}");
    assert_eq!(report["stalled"], 0, "{stdout}");
    assert_eq!(report["version_gaps"], 0, "{stdout}");
    assert_eq!(report["unmatched"], 0, "{stdout}");
    // 4 games x (2 players + 1 spectator) sockets.
    assert_eq!(report["peak_connections"], 12, "{stdout}");
    let moves = report["moves"].as_u64().expect("moves");
    let played = report["played_events"].as_u64().expect("played events");
    let samples = report["latency_ms"]["samples"].as_u64().expect("samples");
    // Whole moves are the played events without a pending decision; each action sent in
    // the window is timed (those sent just before it starts or ends are not).
    assert!(moves > 0 && moves <= played, "{stdout}");
    assert!(samples > 0 && samples <= played + 4, "{stdout}");
    assert!(report["server"]["peak_rss_kib"]
        .as_u64()
        .is_some_and(|k| k > 0));
    // --timeline: one line per second of the 3 s window.
    let seconds = stdout
        .lines()
        .filter(|l| l.starts_with("  second "))
        .count();
    assert!((3..=4).contains(&seconds), "{stdout}");
}

#[test]
fn games_against_the_computer_run_beside_the_human_games_and_are_reported_apart() {
    let (stdout, report) = loadgen(&[
        "--games",
        "2",
        "--spectators",
        "1",
        "--bot-games",
        "2",
        "--bot-level",
        "1",
    ]);
    assert_eq!(report["bot_games"], 2);
    assert_eq!(report["bot_level"], 1);
    assert_eq!(report["errors_total"], 0, "{stdout}");
    assert_eq!(report["dropped"], 0, "{stdout}");
    assert_eq!(report["stalled"], 0, "{stdout}");
    // The computer's answers are not taken for the human games' moves.
    assert_eq!(report["unmatched"], 0, "{stdout}");
    // 2 games x (2 players + 1 spectator), and one socket per game against the computer.
    assert_eq!(report["peak_connections"], 8, "{stdout}");
    // The computer answers (no sooner than the server's least delay, 500 ms), each timed.
    let bot_moves = report["bot_moves"].as_u64().expect("bot moves");
    assert!(bot_moves > 0, "{stdout}");
    assert_eq!(report["bot_answer_ms"]["samples"].as_u64(), Some(bot_moves));
    assert!(
        report["bot_answer_ms"]["p50"]
            .as_f64()
            .is_some_and(|ms| ms >= 500.0),
        "{stdout}"
    );
    assert!(report["latency_ms"]["samples"]
        .as_u64()
        .is_some_and(|n| n > 0));
    assert!(
        stdout.contains("computer     2 games at level 1"),
        "{stdout}"
    );
}
