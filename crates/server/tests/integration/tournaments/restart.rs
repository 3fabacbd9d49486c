//! A restart in the middle of a round loses nothing.

use crate::common::TestServer;
use serde_json::json;
use std::collections::HashMap;

use super::*;

async fn restart_in_the_middle_of_a_round(database_url: &str) {
    let server = TestServer::start(database_url).await;
    let mut event = Event::create(
        &server,
        json!({"name":"Restart","ruleset":"omweso","rounds":1,"round_minutes":0.15,
               "time_control":{"preset":"tournament","referee_seconds":null}}),
    )
    .await;
    let a = event.join("A").await;
    let b = event.join("B").await;
    event.pair().await;
    let r1 = event.start(1).await;
    let game = game_of(&r1, 1);
    let first = r1["pairings"][0]["first"].as_str().unwrap().to_owned();
    assert!(first == a || first == b);
    let mut south = server
        .socket(&game, Some(&event.tokens[&first]), None)
        .await;
    let state = south.recv_type("state").await;
    let mv = state["d"]["legal_moves"][0].as_str().unwrap().to_owned();
    south
        .send(json!({"t":"move","d":{"move":mv},"id":"m"}))
        .await;
    south.expect_ack("m").await;
    drop(south);
    let before = event.snapshot().await;
    let director = event.director.clone();
    let tokens = event.tokens.clone();
    let id = event.id.clone();
    server.stop().await;

    let server = TestServer::start(database_url).await;
    let event = Event {
        server: &server,
        id,
        director,
        tokens,
        names: HashMap::new(),
    };
    let after = event.snapshot().await;
    assert_eq!(after["version"], before["version"]);
    assert_eq!(after["rounds"], before["rounds"]);
    assert_eq!(after["standings"], before["standings"]);
    let deadline = round(&after, 1)["deadline"].as_u64().unwrap();
    // The round ends on time: the game, one move played, is adjudicated.
    let snap = event
        .until("the round's end", |s| round(s, 1)["status"] == "finished")
        .await;
    let sheet = &round(&snap, 1)["pairings"][0]["sheet"];
    let result = sheet["first_result"].as_str().unwrap();
    assert!(result.starts_with("adjudicated-"), "{sheet}");
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64;
    assert!(now >= deadline, "ended before its deadline");
    assert!(now < deadline + 5_000, "ended {} ms late", now - deadline);
    assert_eq!(snap["status"], "finished");
    server.stop().await;
}

#[tokio::test]
async fn a_restart_in_the_middle_of_a_round_loses_nothing_with_sqlite() {
    crate::common::on_sqlite_file(async |url| restart_in_the_middle_of_a_round(&url).await).await;
}

#[tokio::test]
async fn a_restart_in_the_middle_of_a_round_loses_nothing_with_postgres() {
    crate::common::on_postgres("omweso_trestart", async |url| {
        restart_in_the_middle_of_a_round(&url).await
    })
    .await;
}
