//! Creation limits: tournaments and games per session and per address, a creation flood.

use crate::common::config_with as config;
use crate::common::probe::{assert_every_move_went_through, LatencyProbe};
use crate::common::TestServer;
use serde_json::{json, Value};
use std::time::Duration;

use super::*;

/// Tournaments created as fast as a script can (a probe found 2,088 in 5 s from one
/// session): a session, then an address, is refused past its rate with a 429
/// naming the limit, and the refusal is counted; a mistyped form costs nothing.
#[tokio::test]
async fn tournament_creation_is_limited_per_session_and_per_address() {
    let server = TestServer::start_with(config(|l| {
        l.tournaments_per_session_per_minute = 2;
        l.tournaments_per_ip_per_minute = 3;
    }))
    .await;
    let (first, _) = server.session("TD").await;
    let (second, _) = server.session("TD2").await;
    let create = |token: String, body: Value| {
        let server = &server;
        async move { server.post("/api/tournaments", &token, body).await }
    };
    let club = || json!({"name": "Club night", "rounds": 3});
    // Refused settings are not counted.
    for _ in 0..3 {
        let (status, body) = create(first.clone(), json!({"name": "Bad", "rounds": 0})).await;
        assert_eq!(status, 400, "{body}");
    }
    for _ in 0..2 {
        let (status, body) = create(first.clone(), club()).await;
        assert_eq!(status, 201, "{body}");
    }
    let (status, body) = create(first.clone(), club()).await;
    assert_eq!(status, 429, "{body}");
    assert_eq!(body["error"]["code"], "rate_limited");
    assert_eq!(
        body["error"]["message"],
        "you created 2 tournaments in the last minute; wait a little"
    );
    // Another session from the same address: one more, then the address's limit.
    let (status, body) = create(second.clone(), club()).await;
    assert_eq!(status, 201, "{body}");
    let (status, body) = create(second.clone(), club()).await;
    assert_eq!(status, 429, "{body}");
    assert_eq!(
        body["error"]["message"],
        "this address created 3 tournaments in the last minute; wait a little"
    );
    let (status, list) = server.get("/api/tournaments?list=open", &first).await;
    assert_eq!(status, 200, "{list}");
    assert_eq!(
        list["tournaments"].as_array().map(Vec::len),
        Some(3),
        "exactly the three allowed were created: {list}"
    );
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
        l.trusted_proxy = vec!["127.0.0.1".into()];
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
    assert_every_move_went_through("creation flood", &probe.finish().await);
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
