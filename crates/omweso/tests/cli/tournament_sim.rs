//! `omweso tournament-sim` as docs/performance.md runs it: the real binary spawning the
//! real server, a whole tournament played through the protocol. Its report must say the
//! tournament finished, with standings, and that no socket, board or event went missing.

use std::process::Command;

use serde_json::Value;

/// Runs `omweso tournament-sim --spawn-server ARGS --json`; answers the report's text and
/// its JSON line, having checked that the run succeeded.
fn sim(args: &[&str]) -> (String, Value) {
    let output = Command::new(env!("CARGO_BIN_EXE_omweso"))
        .args(["tournament-sim", "--spawn-server", "--json"])
        // The spawned server inherits this: rounds of a few seconds, to see them end.
        .env("OMWESO_MIN_ROUND_MINUTES", "0.1")
        .args(args)
        .output()
        .expect("the omweso binary runs");
    let stdout = String::from_utf8(output.stdout).expect("UTF-8 output");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    let report: Value = serde_json::from_str(stdout.lines().last().expect("a JSON line"))
        .expect("the last line is the JSON report");
    assert_eq!(report["failures"], serde_json::json!([]), "{stdout}");
    (stdout, report)
}

/// The standings the report names: five lines under the heading, each a player's rank,
/// name, points and Buchholz.
fn assert_standings(stdout: &str, report: &Value) {
    assert_eq!(report["status"], "finished", "{stdout}");
    assert!(
        stdout.contains("the tournament is finished; top 5:"),
        "{stdout}"
    );
    let standings = report["standings"].as_array().expect("standings");
    assert_eq!(standings.len(), 5, "{stdout}");
    for (i, line) in standings.iter().enumerate() {
        let name = line["name"].as_str().expect("a name");
        assert!(name.starts_with('P'), "{line}");
        assert_eq!(line["rank"].as_u64(), Some(i as u64 + 1), "{stdout}");
        assert!(
            stdout.contains(&format!(" {name} ")) && stdout.contains("Buchholz"),
            "{stdout}"
        );
    }
}

#[test]
fn a_swiss_with_watchers_is_played_to_the_end() {
    let (stdout, report) = sim(&[
        "--players",
        "6",
        "--rounds",
        "2",
        "--watchers",
        "3",
        "--seed",
        "7",
    ]);
    assert_standings(&stdout, &report);
    assert_eq!(report["rounds"], 2, "{stdout}");
    // Three tables a round, each a game (a replay of an annulled game adds one).
    assert!(report["games"].as_u64().is_some_and(|g| g >= 6), "{stdout}");
    assert!(report["moves"].as_u64().is_some_and(|m| m > 0), "{stdout}");
    // Every move was shown to every watcher by a board.
    let boards = &report["board_latency_ms"];
    assert_eq!(boards["uncovered"], 0, "{stdout}");
    let actions = report["actions"].as_u64().expect("actions");
    assert_eq!(boards["pairs"].as_u64(), Some(3 * actions), "{stdout}");
    assert!(boards["p99"].as_f64().is_some(), "{stdout}");
    assert_eq!(report["watchers_dropped"], 0, "{stdout}");
    assert_eq!(report["watcher_version_gaps"], 0, "{stdout}");
    assert!(report["server"]["cpu_us_per_move"].as_f64().is_some());
}

#[test]
fn a_round_robin_of_five_is_played_to_the_end() {
    let (stdout, report) = sim(&[
        "--players",
        "5",
        "--system",
        "round-robin",
        "--watchers",
        "1",
        "--seed",
        "8",
    ]);
    assert_standings(&stdout, &report);
    // Five players: five rounds of two games and a bye.
    assert_eq!(report["rounds"], 5, "{stdout}");
    assert!(
        report["games"].as_u64().is_some_and(|g| g >= 10),
        "{stdout}"
    );
}

#[test]
fn games_still_going_at_the_deadline_are_adjudicated_without_a_hang() {
    // A round of 6 s; a player waits 400 ms before each action, so a random game of some
    // thirty moves is still going when the time runs out.
    let (stdout, report) = sim(&[
        "--players",
        "4",
        "--rounds",
        "1",
        "--round-minutes",
        "0.1",
        "--think-ms",
        "400",
        "--seed",
        "9",
    ]);
    assert_eq!(report["status"], "finished", "{stdout}");
    assert_eq!(report["rounds_timed_out"], 1, "{stdout}");
    assert!(
        report["adjudicated"].as_u64().is_some_and(|a| a >= 1),
        "{stdout}"
    );
}
