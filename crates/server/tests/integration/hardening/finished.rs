//! Issue 41, finding 11: joining a finished game reloaded it every time. A finished game
//! nobody watched was unloaded at once, and each ask (a join, a snapshot, a socket) rebuilt
//! it from its log again: 1,000-2,460 rebuilds a second from one client, unthrottled; of
//! 30 spectators opening the game meanwhile, 23 were closed 1001 "not available" (the game
//! they were handed unloaded under them), and the log filled with 29,148 error lines.
//!
//! Now a finished game stays in memory `finished_game_seconds` after it was last asked
//! anything, and those who ask for a game being loaded wait for that one load.

use serde_json::json;

use crate::common::{config_with, SeatedGame, TestServer};

#[tokio::test]
async fn a_finished_game_asked_for_again_and_again_is_loaded_once_and_its_spectators_stay() {
    let server = TestServer::start_with(config_with(|limits| {
        limits.finished_game_seconds = 2.0;
    }))
    .await;
    let game = SeatedGame::new(&server, json!({"ruleset": "oware"})).await;
    {
        let [mut south, mut north] = game.sockets(&server).await;
        south
            .expect_ack_of("s1", json!({"t": "move", "d": {"move": "C1"}}))
            .await;
        north
            .expect_ack_of("n1", json!({"t": "move", "d": {"move": "C2"}}))
            .await;
        south
            .expect_ack_of("r", json!({"t": "resign", "d": {}}))
            .await;
    }
    // Nobody watches it now: it leaves memory once its linger is over.
    server.until_no_game_is_loaded().await;

    // A client joins it again and again: the game is loaded by the first join and stays
    // (it was unloaded after each, and loaded again by the next).
    let (joiner, _) = server.session("Joiner").await;
    for _ in 0..100 {
        let (status, answer) = server
            .post(&format!("/api/games/{}/join", game.id), &joiner, json!({}))
            .await;
        assert_eq!(status, 409, "{answer}");
        assert_eq!(server.metric("omweso_games_live").await, 1.0);
    }
    server.until_no_game_is_loaded().await;

    // A client joins it over and over while 30 spectators open it.
    let joins = tokio::spawn({
        let server = crate::common::Remote::new(server.addr);
        let id = game.id.clone();
        async move {
            let mut answers = Vec::new();
            for _ in 0..300 {
                answers.push(
                    server
                        .post(&format!("/api/games/{id}/join"), &joiner, json!({}))
                        .await,
                );
            }
            answers
        }
    });
    let mut spectators = Vec::new();
    for _ in 0..30 {
        let server = crate::common::Remote::new(server.addr);
        let id = game.id.clone();
        spectators.push(tokio::spawn(async move {
            let mut socket = server.socket(&id, None, None).await;
            let first = socket.recv().await;
            (socket, first)
        }));
    }
    let mut open = Vec::new();
    for spectator in spectators {
        let (socket, first) = spectator.await.unwrap();
        assert_eq!(
            first["t"], "state",
            "a spectator was shown the game: {first}"
        );
        assert_eq!(first["d"]["status"], "finished", "{first}");
        open.push(socket);
    }
    for (status, answer) in joins.await.unwrap() {
        assert_eq!(status, 409, "{answer}");
        assert_eq!(answer["error"]["code"], "seats_taken", "{answer}");
    }
    // Every spectator is still there, answered by the game: none was closed under them.
    for socket in &mut open {
        let answer = socket.request("x", json!({"t": "resign", "d": {}})).await;
        assert_eq!(answer["t"], "error", "{answer}");
        assert_eq!(answer["d"]["code"], "spectator", "{answer}");
    }
    // With them gone, the game stays a while, then leaves.
    drop(open);
    assert_eq!(server.metric("omweso_games_live").await, 1.0);
    server.until_no_game_is_loaded().await;
    server.stop().await;
}
