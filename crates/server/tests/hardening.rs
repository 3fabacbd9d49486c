//! The server under attack (issue 10): each finding reproduced against a real server on
//! port 0, with a normal game played beside it whose move latency must stay low.

mod common;

use std::time::Duration;

use common::probe::{assert_p99_under, LatencyProbe};
use common::TestServer;
use serde_json::{json, Value};

/// The probe game's p99 while an attack runs.
const PROBE_P99: Duration = Duration::from_millis(50);

/// One attack at a time: each test measures the probe's latency under its own attack, not
/// under the others' (the tests of one file run in parallel threads otherwise).
static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

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
    let _serial = ONE_AT_A_TIME.lock().await;
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
        // Twenty a second from one client, each a 20,000-seed turn and 80 KB of laps.
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
    assert_p99_under("long turn", &probe.finish().await, PROBE_P99);
    server.stop().await;
}

/// Settings with the limits each test needs on top of the test defaults.
fn config(set: impl FnOnce(&mut omweso::config::Limits)) -> omweso::config::ServeConfig {
    let mut config = omweso::config::ServeConfig::for_tests("sqlite::memory:");
    set(&mut config.limits);
    config
}

/// Milliseconds since the Unix epoch, as the server's clocks speak.
fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64
}

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
            let server = TestServer::attach(server.addr);
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
    let mut health = Vec::new();
    while !probe.has_enough() || health.len() < common::probe::PROBE_MOVES {
        let asked = std::time::Instant::now();
        let answer = server
            .http
            .get(server.url("/healthz"))
            .send()
            .await
            .unwrap();
        assert_eq!(answer.status(), 200);
        health.push(asked.elapsed());
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    for looker in lookers {
        looker.abort();
    }
    health.sort();
    assert_p99_under("healthz while the game is looked at", &health, PROBE_P99);
    assert_p99_under("expensive snapshot", &probe.finish().await, PROBE_P99);
    server.stop().await;
}

/// Sessions and games created as fast as a script can, from one address behind the
/// trusted proxy (so the probe's own address keeps its budget): each limit refuses with a
/// 429 that names it, and unstarted games expire.
#[tokio::test]
async fn a_creation_flood_is_refused_by_the_limits() {
    let _serial = ONE_AT_A_TIME.lock().await;
    let server = TestServer::start_with(config(|l| {
        l.sessions_per_ip_per_minute = 12;
        l.open_games_per_session = 3;
        l.open_game_hours = 2.0 / 3600.0;
        l.trusted_proxy = vec!["127.0.0.1".parse().unwrap()];
    }))
    .await;
    let probe = LatencyProbe::start(&server).await;
    let flood = |path: &str, token: &str, body: Value| {
        let request = server
            .http
            .post(server.url(path))
            .header("x-forwarded-for", "203.0.113.9")
            .json(&body);
        let request = if token.is_empty() {
            request
        } else {
            request.bearer_auth(token)
        };
        async move {
            let answer = request.send().await.unwrap();
            let status = answer.status().as_u16();
            (status, answer.json::<Value>().await.unwrap_or(Value::Null))
        }
    };
    let mut tokens = Vec::new();
    let refusal = loop {
        let (status, body) = flood("/api/session", "", json!({"name": "Flood"})).await;
        if status != 200 {
            break (status, body);
        }
        tokens.push(body["token"].as_str().unwrap().to_owned());
        assert!(tokens.len() <= 12, "more sessions than the limit");
    };
    assert_eq!(tokens.len(), 12);
    assert_eq!(refusal.0, 429);
    assert_eq!(refusal.1["error"]["code"], "rate_limited");
    let message = refusal.1["error"]["message"].as_str().unwrap();
    assert!(message.contains("12 sessions"), "{message}");

    // Games: 3 unstarted at most per session.
    let mut games = Vec::new();
    for _ in 0..3 {
        let (status, body) = flood("/api/games", &tokens[0], json!({"ruleset": "oware"})).await;
        assert_eq!(status, 201, "{body}");
        games.push(body["game_id"].as_str().unwrap().to_owned());
    }
    let (status, body) = flood("/api/games", &tokens[0], json!({})).await;
    assert_eq!(status, 429, "{body}");
    let message = body["error"]["message"].as_str().unwrap();
    assert!(message.contains("3 games nobody has started"), "{message}");
    // Another session has its own.
    let (status, body) = flood("/api/games", &tokens[1], json!({})).await;
    assert_eq!(status, 201, "{body}");
    // Unstarted games expire after the 2 s configured: their rows go.
    tokio::time::sleep(Duration::from_millis(3_500)).await;
    for game in &games {
        let (status, body) = server.get(&format!("/api/games/{game}"), &tokens[0]).await;
        assert_eq!(status, 404, "an unstarted game outlived its expiry: {body}");
    }
    while !probe.has_enough() {
        let (status, _) = flood("/api/session", "", json!({})).await;
        assert_eq!(status, 429);
        let (status, _) = flood("/api/games", &tokens[0], json!({})).await;
        assert_eq!(status, 429);
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert_p99_under("creation flood", &probe.finish().await, PROBE_P99);
    server.stop().await;
}

/// Games a minute per session and per address, alone: the probe itself creates a game
/// every few hundred milliseconds, which these limits (rightly) refuse, so they do not run
/// beside it.
#[tokio::test]
async fn game_creation_is_rate_limited_per_session_and_per_address() {
    let _serial = ONE_AT_A_TIME.lock().await;
    let server = TestServer::start_with(config(|l| {
        l.games_per_session_per_minute = 4;
        l.games_per_ip_per_minute = 6;
    }))
    .await;
    let (token, _) = server.session("Kato").await;
    for _ in 0..4 {
        let game = server.create(&token, json!({"ruleset": "oware"})).await;
        let (joiner, _) = server.session("Joiner").await;
        server.join(&joiner, &game).await;
    }
    let (status, body) = server.post("/api/games", &token, json!({})).await;
    assert_eq!(status, 429, "{body}");
    let message = body["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("you created 4 games in the last minute"),
        "{message}"
    );
    // Another session is not held to this one's, but the address is: 6 a minute.
    let (other, _) = server.session("Other").await;
    let game = server.create(&other, json!({"ruleset": "oware"})).await;
    server.join(&token, &game).await;
    server.create(&other, json!({})).await;
    let (status, body) = server.post("/api/games", &other, json!({})).await;
    assert_eq!(status, 429, "{body}");
    let message = body["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("this address created 6 games"),
        "{message}"
    );
    server.stop().await;
}
