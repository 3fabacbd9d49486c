//! Who of a tournament is here (`presence` on the tournament socket) against the real
//! server: the director and a player see each other once both have the socket open, and
//! no longer once one leaves; a player connected only to their game in the tournament
//! counts too; watchers who are not in the tournament are never listed.

use crate::common::{Client, TestServer};
use serde_json::{json, Value};

/// The `connected` of the next `presence` (other messages skipped), within 5 s.
async fn next_presence(socket: &mut Client) -> Vec<String> {
    connected(&socket.recv_type("presence").await)
}

fn connected(presence: &Value) -> Vec<String> {
    presence["d"]["connected"]
        .as_array()
        .unwrap()
        .iter()
        .map(|id| id.as_str().unwrap().to_owned())
        .collect()
}

/// The presences until one lists exactly `expected` (sorted here, as the server sends
/// them), within [`PATIENCE`](crate::common::PATIENCE).
async fn presence_until(socket: &mut Client, expected: &[&str]) {
    let mut expected: Vec<String> = expected.iter().map(|&id| id.to_owned()).collect();
    expected.sort();
    let deadline = tokio::time::Instant::now() + crate::common::PATIENCE;
    let mut seen = Vec::new();
    loop {
        let left = deadline.saturating_duration_since(tokio::time::Instant::now());
        let Some(m) = socket.try_recv(left).await else {
            panic!(
                "no presence {expected:?} within {:?}; saw {seen:?}",
                crate::common::PATIENCE
            );
        };
        if m["t"] != "presence" {
            continue;
        }
        let now = connected(&m);
        if now == expected {
            return;
        }
        seen.push(now);
    }
}

fn sorted(ids: &[&str]) -> Vec<String> {
    let mut ids: Vec<String> = ids.iter().map(|&id| id.to_owned()).collect();
    ids.sort();
    ids
}

#[tokio::test]
async fn the_director_and_the_players_see_who_is_here() {
    let server = TestServer::start("sqlite::memory:").await;
    let (director, director_id) = server.session("TD").await;
    let (status, created) = server
        .post(
            "/api/tournaments",
            &director,
            json!({"name":"Presence","setup":"outer"}),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    let id = created["tournament_id"].as_str().unwrap().to_owned();
    let mut players = Vec::new();
    for name in ["Kato", "Nakato"] {
        let (token, player) = server.session(name).await;
        let (status, r) = server
            .post(&format!("/api/tournaments/{id}/join"), &token, json!({}))
            .await;
        assert_eq!(status, 200, "{r}");
        players.push((token, player));
    }
    let (kato, kato_id) = players[0].clone();
    let (nakato, nakato_id) = players[1].clone();
    let path = |token: &str| format!("/ws/tournaments/{id}?token={token}");

    // On connect: the state, then who is here, this socket counted.
    let mut td = server.socket_at(&path(&director)).await;
    assert_eq!(td.recv().await["t"], "state");
    assert_eq!(next_presence(&mut td).await, [director_id.as_str()]);
    let mut k = server.socket_at(&path(&kato)).await;
    assert_eq!(k.recv().await["t"], "state");
    assert_eq!(
        next_presence(&mut k).await,
        sorted(&[&director_id, &kato_id])
    );
    // The director hears of the player with the next batch.
    presence_until(&mut td, &[&director_id, &kato_id]).await;

    // A watcher who is not in the tournament, or has no session, is not listed.
    let (guest, _) = server.session("Guest").await;
    let mut watcher = server.socket_at(&path(&guest)).await;
    assert_eq!(
        next_presence(&mut watcher).await,
        sorted(&[&director_id, &kato_id])
    );
    let mut anonymous = server.socket_at(&format!("/ws/tournaments/{id}")).await;
    assert_eq!(
        next_presence(&mut anonymous).await,
        sorted(&[&director_id, &kato_id])
    );

    // The player leaves: the others see the list without them.
    k.ws.close(None).await.unwrap();
    drop(k);
    presence_until(&mut td, &[&director_id]).await;
    presence_until(&mut watcher, &[&director_id]).await;

    // At their game: a round started, a player connected only to their game is here.
    let round = server.pair_and_start(&director, &id, 1).await;
    let game = round["pairings"][0]["game_id"].as_str().unwrap().to_owned();
    let mut at_game = server.socket(&game, Some(&nakato), None).await;
    at_game.recv_type("state").await;
    presence_until(&mut td, &[&director_id, &nakato_id]).await;
    at_game.ws.close(None).await.unwrap();
    drop(at_game);
    presence_until(&mut td, &[&director_id]).await;
    server.stop().await;
}

/// Issue 40: players stay on their game's page once it has ended (the result, the rating
/// change, the next round's wait): the director's console counts them here until they
/// leave that page, as it did while they played.
#[tokio::test]
async fn players_on_their_finished_games_page_are_here_until_they_leave_it() {
    let server = TestServer::start("sqlite::memory:").await;
    let (director, director_id) = server.session("TD").await;
    let id = server
        .create_tournament(
            &director,
            json!({"name":"Presence after","ruleset":"oware","rounds":2}),
        )
        .await;
    let (kato, kato_id) = server.join_tournament(&id, "Kato").await;
    let (nakato, nakato_id) = server.join_tournament(&id, "Nakato").await;
    let path = |token: &str| format!("/ws/tournaments/{id}?token={token}");
    let mut td = server.socket_at(&path(&director)).await;
    let round = server.pair_and_start(&director, &id, 1).await;
    let game = round["pairings"][0]["game_id"].as_str().unwrap().to_owned();
    let mut at_game = Vec::new();
    for token in [&kato, &nakato] {
        let mut socket = server.socket(&game, Some(token), None).await;
        socket.recv_type("state").await;
        at_game.push(socket);
    }
    presence_until(&mut td, &[&director_id, &kato_id, &nakato_id]).await;
    at_game[0]
        .expect_ack_of("r", json!({"t": "resign", "d": {}}))
        .await;
    // The sheet is made: the game is no longer in play, and both are still on its page.
    loop {
        let m = td.recv().await;
        if m["t"] == "sheet" {
            break;
        }
    }
    let mut late = server.socket_at(&path(&director)).await;
    assert_eq!(
        next_presence(&mut late).await,
        sorted(&[&director_id, &kato_id, &nakato_id]),
        "players on their finished game's page"
    );
    // Kato leaves the page, then Nakato: the game unloads, and nobody is left there.
    let kato_socket = at_game.remove(0);
    drop(kato_socket);
    presence_until(&mut td, &[&director_id, &nakato_id]).await;
    drop(at_game);
    presence_until(&mut td, &[&director_id]).await;
    server.stop().await;
}
