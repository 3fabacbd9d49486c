//! The over-the-board limits (docs/security.md): a person's over-the-board changes a
//! minute (`--board-changes-per-session-per-minute`) and a relay's entries a minute
//! (`--relay-entries-per-session-per-minute`), each refused 429 `rate_limited` with its
//! words once spent, and each person's own.

use crate::common::{config_with, TestServer};
use serde_json::{json, Value};

use super::*;

/// A refusal's status, code and message.
fn refusal(answer: &(u16, Value)) -> (u16, &str, &str) {
    (
        answer.0,
        answer.1["error"]["code"].as_str().unwrap_or(""),
        answer.1["error"]["message"].as_str().unwrap_or(""),
    )
}

#[tokio::test]
async fn a_persons_over_the_board_changes_are_limited_and_others_are_not_held_back() {
    let server = TestServer::start_with(config_with(|l| {
        l.board_changes_per_session_per_minute = 2;
    }))
    .await;
    let (event, _) = Event::round_robin(&server, 4).await;
    event.pair().await;
    let played_at = |table: u64, at: &'static str| {
        let path = event.path("/rounds/1/played-at");
        let director = event.director.clone();
        let server = &server;
        async move {
            server
                .put(&path, &director, json!({"played_at": at, "table": table}))
                .await
        }
    };
    assert_eq!(played_at(1, "board").await.0, 200);
    assert_eq!(played_at(2, "board").await.0, 200);
    let third = played_at(1, "online").await;
    assert_eq!(
        refusal(&third),
        (
            429,
            "rate_limited",
            "at most 2 over-the-board changes a minute; wait a moment and try again"
        )
    );
    // Nothing of the refused change was made: table 1 is still at the board.
    let snap = event.snapshot().await;
    assert_eq!(snap["rounds"][0]["pairings"][0]["played_at"], "board");
    // A player's sheet entry is their own change, not the director's.
    let round = event.start(1).await;
    let first = round["pairings"][0]["first"].as_str().unwrap().to_owned();
    let entry = json!({"action":"enter","winner":first,"victory":"captures",
                       "seeds":{"first":30,"second":18}});
    let (status, r) = server
        .post(
            &event.path("/tables/1/1/sheet"),
            &event.tokens[&first],
            entry,
        )
        .await;
    assert_eq!(status, 200, "{r}");
    server.stop().await;
}

#[tokio::test]
async fn a_relays_entries_are_limited_and_the_refused_one_is_not_played() {
    let server = TestServer::start_with(config_with(|l| {
        l.relay_entries_per_session_per_minute = 2;
    }))
    .await;
    let (event, _) = Event::round_robin(&server, 4).await;
    event.pair().await;
    let (status, r) = server
        .put(
            &event.path("/rounds/1/played-at"),
            &event.director,
            json!({"played_at":"board","table":1}),
        )
        .await;
    assert_eq!(status, 200, "{r}");
    let (status, invite) = server
        .post(
            &event.path("/tables/1/1/relay-invite"),
            &event.director,
            json!({}),
        )
        .await;
    assert_eq!(status, 201, "{invite}");
    let (relay, _) = server.session("Achan").await;
    let (status, r) = server
        .post(
            &event.path("/tables/1/1/relay"),
            &relay,
            json!({"code": invite["code"]}),
        )
        .await;
    assert_eq!(status, 200, "{r}");
    let round = event.start(1).await;
    let game = game_of(&round, 1);
    let first = round["pairings"][0]["first"].as_str().unwrap().to_owned();
    let legal_move = || {
        let server = &server;
        let path = format!("/api/games/{game}");
        let token = event.tokens[&first].clone();
        async move {
            let (status, snap) = server.get(&path, &token).await;
            assert_eq!(status, 200, "{snap}");
            (snap["legal_moves"][0].as_str().unwrap().to_owned(), snap)
        }
    };
    let act = |body: Value| {
        let server = &server;
        let path = event.path("/tables/1/1/relay/act");
        let relay = relay.clone();
        async move { server.post(&path, &relay, body).await }
    };
    let (mv, _) = legal_move().await;
    assert_eq!(act(json!({"kind":"move","notation":mv})).await.0, 200);
    assert_eq!(act(json!({"kind":"undo"})).await.0, 200);
    let third = act(json!({"kind":"move","notation":mv})).await;
    assert_eq!(
        refusal(&third),
        (
            429,
            "rate_limited",
            "at most 2 relay entries a minute; wait a moment and enter it again"
        )
    );
    let (_, snap) = legal_move().await;
    assert_eq!(
        snap["history"].as_array().map(Vec::len),
        Some(0),
        "the refused move was not played: {snap}"
    );
    server.stop().await;
}
