//! The live tables reach a watcher in one message a period (`boards`, docs/protocol.md "The
//! tournament socket"): tables that move within one period come together, in table
//! order, and a table that did not move is not in it; a single table's change is still its
//! own `board`; a socket that connects gets every table in play in one `boards`.

use std::time::Duration;

use crate::common::{Client, TestServer};
use serde_json::{json, Value};

use super::*;

/// Every frame the socket gets until it has been quiet for `quiet`.
async fn until_quiet(socket: &mut Client, quiet: Duration) -> Vec<Value> {
    let mut frames = Vec::new();
    while let Some(m) = socket.try_recv(quiet).await {
        frames.push(m);
    }
    frames
}

/// The frames that carry boards (`board` and `boards`) among `frames`.
fn board_frames(frames: &[Value]) -> Vec<&Value> {
    frames
        .iter()
        .filter(|m| m["t"] == "board" || m["t"] == "boards")
        .collect()
}

/// (table, game, version, last move) of each board of a `boards` frame, in its order.
fn tables_of(boards: &Value) -> Vec<(u64, String, u64, String)> {
    boards["d"]["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            (
                b["table"].as_u64().unwrap(),
                b["game_id"].as_str().unwrap().to_owned(),
                b["version"].as_u64().unwrap(),
                b["last_move"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect()
}

#[tokio::test]
async fn tables_moving_in_one_period_reach_a_watcher_as_one_boards_message() {
    let server = TestServer::start("sqlite::memory:").await;
    let mut event = Event::create(
        &server,
        json!({"name":"Gulu Final","ruleset":"oware","system":"swiss","rounds":1}),
    )
    .await;
    for i in 0..10 {
        event.join(&format!("P{i}")).await;
    }
    event.pair().await;
    let r1 = event.start(1).await;
    let pairs = pairings(&r1);
    let games: Vec<String> = (1..=5).map(|table| game_of(&r1, table)).collect();

    let mut watcher = server
        .socket_at(&format!("/ws/tournaments/{}", event.id))
        .await;
    watcher.recv_type("state").await;
    // Each table's first player (South, who moves first) on their game's socket.
    let mut souths = Vec::new();
    for (game, (first, _)) in games.iter().zip(&pairs) {
        let mut socket = server.socket(game, Some(&event.tokens[first]), None).await;
        socket.recv_type("state").await;
        souths.push(socket);
    }
    until_quiet(&mut watcher, Duration::from_millis(600)).await;

    // A player opening the tournament's socket changes who is here: the batch it goes out
    // in starts a period. Two tables that move at once after it come in the next batch,
    // together. (If this machine took longer than a period to send the two moves, they
    // may come apart: the next pair of tables is tried.)
    let mut primers = Vec::new();
    let mut batched = None;
    for (attempt, tables) in [[1usize, 2], [3, 4]].into_iter().enumerate() {
        let second = pairs[4 - attempt].1.clone().unwrap();
        let mut primer = server
            .socket_at(&format!(
                "/ws/tournaments/{}?token={}",
                event.id, event.tokens[&second]
            ))
            .await;
        primer.recv_type("state").await;
        primers.push(primer);
        let presence = watcher.recv_type("presence").await;
        assert!(
            presence["d"]["connected"]
                .as_array()
                .unwrap()
                .contains(&json!(second)),
            "{presence}"
        );
        for table in tables {
            souths[table - 1]
                .send(json!({"t":"move","d":{"move":"C1"},"id":"m"}))
                .await;
        }
        for table in tables {
            souths[table - 1].expect_ack("m").await;
        }
        let frames = until_quiet(&mut watcher, Duration::from_millis(600)).await;
        let boards = board_frames(&frames);
        let mut expected = Vec::new();
        for table in tables {
            let game = &games[table - 1];
            let (status, snap) = server
                .get(&format!("/api/games/{game}"), &event.director)
                .await;
            assert_eq!(status, 200, "{snap}");
            expected.push((
                table as u64,
                game.clone(),
                snap["version"].as_u64().unwrap(),
                "C1".to_owned(),
            ));
        }
        if boards.len() == 1 {
            assert_eq!(boards[0]["t"], "boards", "{}", boards[0]);
            // Both tables, in table order; the three that did not move are not in it.
            assert_eq!(tables_of(boards[0]), expected);
            assert_eq!(boards[0]["d"]["boards"][0]["to_move"], "n");
            assert_eq!(boards[0]["d"]["boards"][0]["round"], 1);
            assert_eq!(boards[0]["d"]["boards"][0]["status"], "playing");
            assert_eq!(boards[0].get("v"), None);
            batched = Some(attempt);
            break;
        }
        // Apart: one `board` each, never anything else.
        let apart: Vec<(&Value, &Value)> =
            boards.iter().map(|b| (&b["t"], &b["d"]["table"])).collect();
        assert_eq!(
            apart,
            vec![
                (&json!("board"), &json!(tables[0])),
                (&json!("board"), &json!(tables[1]))
            ],
            "{frames:?}"
        );
    }
    assert!(batched.is_some(), "no two moves came within one period");

    // One table alone: its own `board`, as a v1 client reads it.
    souths[4]
        .send(json!({"t":"move","d":{"move":"C1"},"id":"m"}))
        .await;
    souths[4].expect_ack("m").await;
    let frames = until_quiet(&mut watcher, Duration::from_millis(600)).await;
    let boards = board_frames(&frames);
    assert_eq!(boards.len(), 1, "{frames:?}");
    assert_eq!(boards[0]["t"], "board");
    assert_eq!(boards[0]["d"]["table"], 5);
    assert_eq!(boards[0]["d"]["last_move"], "C1");

    // A socket that connects now gets every table in play in one `boards`, in table
    // order, each as it stands.
    let mut late = server
        .socket_at(&format!("/ws/tournaments/{}", event.id))
        .await;
    late.recv_type("state").await;
    let catch_up = late.recv_type("boards").await;
    let tables: Vec<(u64, String)> = tables_of(&catch_up)
        .into_iter()
        .map(|(table, game, _, _)| (table, game))
        .collect();
    let expected: Vec<(u64, String)> = (1..=5u64).zip(games.iter().cloned()).collect();
    assert_eq!(tables, expected);
    let moved: Vec<bool> = catch_up["d"]["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["last_move"] == "C1")
        .collect();
    let mut expected_moved = vec![false; 5];
    let batched = batched.unwrap_or(0);
    for attempt in 0..=batched {
        expected_moved[2 * attempt] = true;
        expected_moved[2 * attempt + 1] = true;
    }
    expected_moved[4] = true;
    assert_eq!(moved, expected_moved);
    drop(primers);
}
