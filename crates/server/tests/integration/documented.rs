//! Behaviour docs/protocol.md documents that no other test checked (issue 26): each
//! against a real server, with the exact answer.

use crate::common::{Remote, TestServer};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

/// The refusal a socket upgrade to `path` gets: its status and JSON body.
async fn upgrade_refused(server: &Remote, path: &str) -> (u16, Value) {
    let request = format!("ws://{}{path}", server.addr)
        .into_client_request()
        .unwrap();
    match tokio_tungstenite::connect_async(request).await {
        Ok(_) => panic!("{path}: the upgrade was accepted"),
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            let body = response.body().clone().unwrap_or_default();
            let json = serde_json::from_slice(&body).unwrap_or(Value::Null);
            (response.status().as_u16(), json)
        }
        Err(other) => panic!("{path}: {other}"),
    }
}

/// `?v=` is the last event version seen: a whole number, else `400 bad_version`, on the
/// game socket and the tournament socket alike.
#[tokio::test]
async fn a_version_that_is_not_a_whole_number_is_refused_as_bad_version() {
    let server = TestServer::start("sqlite::memory:").await;
    let (kato, _) = server.session("Kato").await;
    let game = server
        .create(&kato, json!({"ruleset":"omweso","setup":"outer"}))
        .await;
    let tournament = server
        .create_tournament(&kato, json!({"name":"Versions"}))
        .await;
    for path in [
        format!("/ws/games/{game}?v=seven"),
        format!("/ws/games/{game}?v=-1"),
        format!("/ws/tournaments/{tournament}?v=1.5"),
    ] {
        let (status, body) = upgrade_refused(&server, &path).await;
        assert_eq!(status, 400, "{path}: {body}");
        assert_eq!(body["error"]["code"], "bad_version", "{path}: {body}");
        assert_eq!(
            body["error"]["message"],
            "v is the last event version seen: a whole number"
        );
    }
    // A whole number resumes (nothing missed after version 0 of a game nobody joined:
    // the socket is open and answers).
    let mut socket = server.socket(&game, Some(&kato), Some(0)).await;
    socket.send(json!({"t":"ping","d":{}})).await;
    socket.recv_type("pong").await;
    server.stop().await;
}

/// A turn waiting at a decision point must be answered before any start: another `move`
/// gets `turn_in_progress`, and nothing changes (Mweiso's `A1'` asks `a`, `c` or `l`).
#[tokio::test]
async fn a_move_while_a_turn_waits_for_its_decision_is_refused_as_turn_in_progress() {
    let server = TestServer::start("sqlite::memory:").await;
    let (south, _) = server.session("Kato").await;
    let (north, _) = server.session("Nakato").await;
    let game = server
        .create(&south, json!({"ruleset":"mweiso","seat":"first"}))
        .await;
    server.join(&north, &game).await;
    server.play_mweiso_opening(&game, &south, &north).await;
    let mut ws = server.socket(&game, Some(&south), None).await;
    ws.send(json!({"t":"move","d":{"move":"A1'"},"id":"start"}))
        .await;
    ws.expect_ack("start").await;
    let before = server.snapshot(&south, &game).await;
    assert_eq!(before["pending"], json!(["a", "c", "l"]), "{before}");
    ws.send(json!({"t":"move","d":{"move":"B1"},"id":"again"}))
        .await;
    let refused = ws.recv_type("error").await;
    assert_eq!(
        refused["d"],
        json!({"id":"again","code":"turn_in_progress",
               "message":"a turn is waiting for a decision; answer it with decide"})
    );
    let after = server.snapshot(&south, &game).await;
    assert_eq!(after["version"], before["version"]);
    server.stop().await;
}

/// A player's own first snapshot shows them at the table: the socket that asked for it
/// is counted before it is sent (the page showed "not connected" on its own card until
/// the next crowd message, which a loaded machine made long enough to see).
#[tokio::test]
async fn a_players_first_state_counts_their_own_connection() {
    let server = TestServer::start("sqlite::memory:").await;
    let (south, _) = server.session("Kato").await;
    let (north, _) = server.session("Nakato").await;
    let game = server
        .create(&south, json!({"ruleset":"omweso","setup":"outer"}))
        .await;
    server.join(&north, &game).await;
    let mut ws = server.socket(&game, Some(&north), None).await;
    let state = ws.recv_type("state").await;
    assert_eq!(state["d"]["you"], "n");
    assert_eq!(state["d"]["seats"]["n"]["connected"], true, "{state}");
    assert_eq!(state["d"]["seats"]["s"]["connected"], false, "{state}");
    server.stop().await;
}
