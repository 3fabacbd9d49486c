//! Omweso's free setup under the arrangement limit (docs/rules.md#11-setup), through the protocol on
//! a real server: a tournament round whose second player arranges too late, played to the
//! end, with the arrangements on the score sheet and in its export.

use std::time::Duration;

use crate::common::TestServer;
use serde_json::{json, Value};

/// Every message up to and including the first of type `t`.
async fn until_type(socket: &mut crate::common::Client, t: &str) -> Vec<Value> {
    let mut seen = Vec::new();
    loop {
        let m = socket.recv().await;
        let done = m["t"] == t;
        seen.push(m);
        if done {
            return seen;
        }
    }
}

#[tokio::test]
async fn a_tournament_round_from_the_free_setup_with_a_late_arrangement() {
    let server = TestServer::start("sqlite::memory:").await;
    let (director, _) = server.session("TD").await;
    // The free setup is an Omweso tournament's default; 1.5 s to arrange keeps the test
    // short (the preset gives 120).
    let (status, created) = server
        .post(
            "/api/tournaments",
            &director,
            json!({"name":"Free Open","rounds":1,
                   "time_control":{"preset":"tournament","arrange_seconds":1.5}}),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    let id = created["tournament_id"].as_str().unwrap().to_owned();
    let (status, snap) = server
        .get(&format!("/api/tournaments/{id}"), &director)
        .await;
    assert_eq!(status, 200);
    assert_eq!(snap["settings"]["setup"], "free", "{snap}");
    let mut tokens = std::collections::HashMap::new();
    for name in ["Kato", "Nakato"] {
        let (token, player) = server.join_tournament(&id, name).await;
        tokens.insert(player, token);
    }
    let round = server.pair_and_start(&director, &id, 1).await;
    let pairing = &round["pairings"][0];
    let game = pairing["game_id"].as_str().unwrap().to_owned();
    let first = &tokens[pairing["first"].as_str().unwrap()];
    let second = &tokens[pairing["second"].as_str().unwrap()];

    // The first player comes to the table: their time starts then, and a `count` says when
    // it ends (1.5 s and the 1 s allowance).
    let before = omweso_protocol::clock::now_ms();
    let mut south = server.socket(&game, Some(first), None).await;
    let state = south.recv_type("state").await;
    assert_eq!(state["d"]["status"], "setup", "{state}");
    assert_eq!(
        state["d"]["you"], "s",
        "the first player arranges first, as South"
    );
    let count = south.recv_type("count").await;
    let deadline = count["d"]["clock"]["arrange_deadline"].as_u64().unwrap();
    let after = omweso_protocol::clock::now_ms();
    assert!(
        (before + 2_500..=after + 2_500).contains(&deadline),
        "South's arrangement deadline {deadline} is not 2.5 s after their arrival"
    );
    // North comes and sees South arrange; North's time starts with it.
    let mut north = server.socket(&game, Some(second), None).await;
    north.recv_type("state").await;
    let pits = [3, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2];
    south
        .send(json!({"t":"arrange","d":{"pits":pits},"id":"a"}))
        .await;
    south.expect_ack("a").await;
    let arranged_at = omweso_protocol::clock::now_ms();
    let arranged = north.recv_type("arranged").await;
    assert_eq!(arranged["d"]["by"], "s");
    assert_eq!(arranged["d"]["pits"], json!(pits));
    assert_eq!(arranged["d"].get("late"), None, "on time: no `late`");
    let north_deadline = arranged["d"]["clock"]["arrange_deadline"].as_u64().unwrap();
    assert!(north_deadline <= arranged_at + 2_500 && north_deadline + 1_000 > arranged_at + 2_500);

    // North does not arrange: at the deadline the referee gives North the outer row and
    // play starts, South to move.
    let seen = until_type(&mut north, "started").await;
    let late = seen.iter().find(|m| m["t"] == "arranged").unwrap();
    assert_eq!(late["d"]["by"], "n");
    assert_eq!(late["d"]["late"], true);
    assert_eq!(
        late["d"]["pits"],
        json!([4, 4, 4, 4, 4, 4, 4, 4, 0, 0, 0, 0, 0, 0, 0, 0])
    );
    assert!(omweso_protocol::clock::now_ms() >= north_deadline);
    let started = seen.last().unwrap();
    assert_eq!(
        started["d"]["position"],
        "4,4,4,4,4,4,4,4/0,0,0,0,0,0,0,0/2,2,2,2,2,2,2,2/3,1,2,2,2,2,2,2 s"
    );
    // Too late is too late, and says so.
    let even = [2_u64; 16];
    north
        .send(json!({"t":"arrange","d":{"pits":even},"id":"b"}))
        .await;
    let refused = north.recv_type("error").await;
    assert_eq!(refused["d"]["code"], "game_started", "{refused}");

    // Played to the end: South moves, North resigns.
    south
        .send(json!({"t":"move","d":{"move":"A1"},"id":"m"}))
        .await;
    south.expect_ack("m").await;
    north.send(json!({"t":"resign","d":{},"id":"r"})).await;
    north.expect_ack("r").await;

    // The sheet shows both arrangements, North's as placed by the referee.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    let sheet = loop {
        let (_, snap) = server
            .get(&format!("/api/tournaments/{id}"), &director)
            .await;
        let sheet = snap["rounds"][0]["pairings"][0]["sheet"].clone();
        if !sheet.is_null() {
            break sheet;
        }
        assert!(tokio::time::Instant::now() < deadline, "no sheet: {snap}");
        tokio::time::sleep(Duration::from_millis(30)).await;
    };
    assert_eq!(sheet["first_result"], "won", "{sheet}");
    assert_eq!(sheet["victory"], "resigned", "{sheet}");
    assert_eq!(
        sheet["arrangements"],
        json!({"first":pits,"second":[4,4,4,4,4,4,4,4,0,0,0,0,0,0,0,0],
               "late":{"first":false,"second":true}})
    );
    let (status, csv) = server
        .get_text(&format!("/api/tournaments/{id}/sheets.csv"), &director)
        .await;
    assert_eq!(status, 200);
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let row: Vec<&str> = csv.lines().nth(1).unwrap().split(',').collect();
    let at = |name: &str| header.iter().position(|h| *h == name).unwrap();
    assert_eq!(
        row[at("first_arrangement")],
        "3-1-2-2-2-2-2-2-2-2-2-2-2-2-2-2"
    );
    assert_eq!(
        row[at("second_arrangement")],
        "4-4-4-4-4-4-4-4-0-0-0-0-0-0-0-0 (late)"
    );
    server.stop().await;
}

/// A tournament whose time control names no arrangement limit cannot use the free setup:
/// a player who never arranged would hold the game to the round's end.
#[tokio::test]
async fn a_free_setup_tournament_without_an_arrangement_limit_is_refused() {
    let server = TestServer::start("sqlite::memory:").await;
    let (director, _) = server.session("TD").await;
    let (status, r) = server
        .post(
            "/api/tournaments",
            &director,
            json!({"name":"Casual night","setup":"free","time_control":{"referee_seconds":3}}),
        )
        .await;
    assert_eq!(status, 400, "{r}");
    assert_eq!(
        r["error"]["message"],
        "a free setup in a tournament needs an arrangement limit: set time_control.arrange_seconds (the tournament preset gives 120), or choose setup outer or even"
    );
    server.stop().await;
}
