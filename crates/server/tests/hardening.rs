//! The server under attack (issue 10): each finding reproduced against a real server on
//! port 0, with a normal game played beside it whose move latency must stay low.

mod common;

use std::time::Duration;

use common::probe::{assert_p99_under, LatencyProbe};
use common::TestServer;
use serde_json::{json, Value};

/// The probe game's p99 while an attack runs.
const PROBE_P99: Duration = Duration::from_millis(50);

/// A free-setup game with the move limit off, both arrangements made: South to move.
async fn free_setup_without_limit(server: &TestServer) -> (String, String, common::Client) {
    let (kato, _) = server.session("Kato").await;
    let (nakato, _) = server.session("Nakato").await;
    let body = json!({"ruleset": "omweso", "setup": "free",
        "time_control": {"move_limit_seconds": null}});
    let game = server.create(&kato, body).await;
    server.join(&nakato, &game).await;
    let mut south = server.socket(&game, Some(&kato), None).await;
    let mut north = server.socket(&game, Some(&nakato), None).await;
    south
        .send(json!({"t": "arrange", "id": "s", "d": {"pits": [1,2,2,0,3,1,0,5,1,2,7,1,1,2,1,3]}}))
        .await;
    south.expect_ack("s").await;
    north
        .send(json!({"t": "arrange", "id": "n", "d": {"pits": [3,3,1,2,1,3,0,2,1,3,4,4,1,0,3,1]}}))
        .await;
    north.expect_ack("n").await;
    (game, kato, south)
}

/// The issue's turn: 451,216,582 laps with no budget. The server plays it under its hard
/// cap of 20,000 seeds and sends a bounded event. The turn is cut by the cap having
/// captured in columns A, C, D, E, G and H (bits 221): both end columns, so South wins by
/// emitwe-ebiri, which stands even when a turn runs out of budget (RULES.md 1.5).
#[tokio::test]
async fn a_very_long_turn_is_cut_at_the_hard_cap_and_its_event_is_bounded() {
    let server = TestServer::start("sqlite::memory:").await;
    let probe = LatencyProbe::start(&server).await;
    let (game, kato, mut south) = free_setup_without_limit(&server).await;
    // The preview of the same move answers at once, bounded too; asked again and again
    // while the probe plays.
    let emitwe_ebiri = json!({"result": "win", "winner": "s", "victory": "emitwe-ebiri"});
    let mut previews = 0;
    while !probe.has_enough() || previews < 20 {
        let (status, preview) = server
            .post(
                &format!("/api/games/{game}/preview"),
                &kato,
                json!({"move": "B1'/a/c/c"}),
            )
            .await;
        assert_eq!(status, 200, "{preview}");
        assert_eq!(preview["laps"].as_array().unwrap().len(), 1000);
        assert_eq!(preview["outcome"], emitwe_ebiri);
        previews += 1;
    }
    south
        .send(json!({"t": "move", "id": "long", "d": {"move": "B1'/a/c/c"}}))
        .await;
    let mut played = None;
    loop {
        let frame = south.ws_text().await;
        let m: Value = serde_json::from_str(&frame).unwrap();
        if m["t"] == "played" {
            // 1000 laps of about 80 bytes, not 59.5 MB.
            assert!(frame.len() < 120_000, "played is {} bytes", frame.len());
            played = Some(m.clone());
        }
        if m["t"] == "end" {
            assert_eq!(m["d"]["outcome"], emitwe_ebiri);
            break;
        }
    }
    let played = played.expect("a played event");
    assert_eq!(played["d"]["laps"].as_array().unwrap().len(), 1000);
    // The cap is 20,000 seeds: the turn stopped at 3,783 laps having sown 19,992 (the next
    // lap would have passed the cap), 2,783 of them past the first thousand.
    let omitted = &played["d"]["laps_omitted"];
    assert_eq!(omitted["laps"], 2783, "{omitted}");
    let shown: u64 = played["d"]["laps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["seeds"].as_u64().unwrap())
        .sum();
    assert_eq!(shown + omitted["seeds"].as_u64().unwrap(), 19_992);
    let snapshot = server.snapshot(&kato, &game).await;
    assert_eq!(snapshot["status"], "finished");
    // A resync from the start sends every event again, each as bounded.
    let mut again = server.socket(&game, Some(&kato), Some(0)).await;
    loop {
        let frame = again.ws_text().await;
        assert!(
            frame.len() < 120_000,
            "a resync frame is {} bytes",
            frame.len()
        );
        if frame.contains(r#""t":"crowd""#) {
            break;
        }
    }
    assert_p99_under("long turn", &probe.finish().await, PROBE_P99);
    server.stop().await;
}
