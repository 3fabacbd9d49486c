//! Expensive work bounded: a very long turn cut at the hard cap, an expensive game that does not stall the server.

use crate::common::probe::{assert_every_move_went_through, LatencyProbe};
use crate::common::{Remote, TestServer};
use serde_json::{json, Value};
use std::time::Duration;

use super::*;

/// The issue's turn: 451,216,582 laps with no budget. The server plays it under its hard
/// cap of 20,000 seeds and sends a bounded event. The turn is cut by the cap having
/// captured in columns A, C, D, E, G and H (bits 221): both end columns, so South wins by
/// emitwe-ebiri, which stands even when a turn runs out of budget (docs/rules.md#15-end-of-the-game).
#[tokio::test]
async fn a_very_long_turn_is_cut_at_the_hard_cap_and_its_event_is_bounded() {
    let _serial = ONE_AT_A_TIME.lock().await;
    let server = TestServer::start("sqlite::memory:").await;
    let probe = LatencyProbe::start(&server).await;
    let (game, kato, mut south) = free_setup_without_limit(&server).await;
    // What the move's start does comes with the snapshot (the server lists every start
    // to its first decision point, and the whole moves up to its listing budget), asked
    // again and again while the probe plays.
    let emitwe_ebiri = json!({"result": "win", "winner": "s", "victory": "emitwe-ebiri"});
    let mut asked = 0;
    while !probe.has_enough() || asked < 20 {
        let snapshot = server.snapshot(&kato, &game).await;
        let starts = snapshot["legal"]["s"]["starts"].as_array().unwrap().clone();
        let b1 = starts.iter().find(|s| s["start"] == "B1'").unwrap();
        // B1' sows 22 seeds in 7 laps, capturing 10, to the decision after its capture.
        assert_eq!(
            b1,
            &json!({"start": "B1'", "laps": 7, "seeds": 22, "captured": 10,
                "ends_at": null, "decision": ["a", "c"], "outcome": null})
        );
        asked += 1;
        tokio::time::sleep(Duration::from_millis(50)).await;
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
    assert_every_move_went_through("long turn", &probe.finish().await);
    server.stop().await;
}

/// Milliseconds since the Unix epoch, as the server's clocks speak.
/// A game whose turns are long and whose legal moves are costly to list (the issue's free
/// setup, limit off), looked at again and again: its snapshot and the lobby stay cheap, and
/// `/healthz` answers quickly throughout.
#[tokio::test]
async fn looking_at_an_expensive_game_does_not_stall_the_server() {
    let _serial = ONE_AT_A_TIME.lock().await;
    let server = TestServer::start("sqlite::memory:").await;
    let probe = LatencyProbe::start(&server).await;
    let (game, kato, _south) = free_setup_without_limit(&server).await;
    let first = server.snapshot(&kato, &game).await;
    assert_eq!(first["status"], "playing");
    assert_eq!(first["legal_moves"].as_array().unwrap().len(), 23);
    let lookers: Vec<_> = (0..3)
        .map(|_| {
            let server = Remote::new(server.addr);
            let (game, kato) = (game.clone(), kato.clone());
            tokio::spawn(async move {
                let mut looks = 0;
                let deadline = std::time::Instant::now() + Duration::from_secs(60);
                while std::time::Instant::now() < deadline && looks < 400 {
                    let snap = server.snapshot(&kato, &game).await;
                    assert_eq!(snap["legal_moves"].as_array().unwrap().len(), 23);
                    let (status, _) = server.get("/api/games?list=live", &kato).await;
                    assert_eq!(status, 200);
                    looks += 1;
                    tokio::time::sleep(Duration::from_millis(10)).await;
                }
                looks
            })
        })
        .collect();
    // `/healthz` answers throughout, each within the probe's patience (its latency is
    // printed, not bounded: see common/probe.rs).
    let patient = reqwest::Client::builder()
        .timeout(crate::common::probe::MOVE_PATIENCE)
        .build()
        .unwrap();
    let mut health = Vec::new();
    while !probe.has_enough() || health.len() < crate::common::probe::PROBE_MOVES {
        let asked = std::time::Instant::now();
        let answer = patient
            .get(server.url("/healthz"))
            .send()
            .await
            .expect("/healthz answers within the probe's patience");
        assert_eq!(answer.status(), 200);
        health.push(asked.elapsed());
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    for looker in lookers {
        looker.abort();
    }
    health.sort();
    crate::common::probe::print_figures("healthz while the game is looked at", &health);
    assert_every_move_went_through("expensive snapshot", &probe.finish().await);
    server.stop().await;
}
