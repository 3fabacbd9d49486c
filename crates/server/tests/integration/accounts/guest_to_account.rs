//! A guest becomes an account without losing anything: its games (a live one included,
//! its socket never closed), its seats, the tournament it directs and the one it plays in.

use std::time::Duration;

use crate::common::{SeatedGame, TestServer};
use serde_json::json;

use super::*;

#[tokio::test]
async fn a_guest_who_makes_an_account_keeps_every_record_and_its_live_game() {
    for (url, pg) in databases().await {
        let server = TestServer::start(&url).await;
        // Kato, a guest, plays a live game (South) and directs one tournament while
        // playing in another.
        let game = SeatedGame::new(&server, json!({"ruleset": "omweso"})).await;
        let kato = game.south.clone();
        let (_, me) = server.get("/api/me", &kato).await;
        let kato_id = me["player_id"].as_str().unwrap().to_owned();
        let mut south = server.socket(&game.id, Some(&kato), None).await;
        south.recv_type("state").await;
        let directed = server
            .create_tournament(
                &kato,
                json!({"name": "Kato Cup", "ruleset": "oware", "rounds": 2}),
            )
            .await;
        let (other_director, _) = server.session("TD").await;
        let played = server
            .create_tournament(
                &other_director,
                json!({"name": "Open", "ruleset": "oware", "rounds": 2}),
            )
            .await;
        let (status, joined) = server
            .post(&format!("/api/tournaments/{played}/join"), &kato, json!({}))
            .await;
        assert_eq!(status, 200, "{joined}");

        let made = sign_up(&server, Some(&kato), "kato_k").await;
        assert_eq!(made["player_id"], kato_id.as_str(), "the same person");
        assert_eq!(made["username"], "kato_k");
        // A name the guest chose stays; the username is the account's.
        assert_eq!(made["name"], "Kato");
        let codes = made["recovery_codes"].as_array().unwrap();
        assert_eq!(codes.len(), 10);
        assert_eq!(codes[0].as_str().unwrap().len(), 19);
        let account = token(&made);
        assert_ne!(account, kato, "the token is rotated");
        // The guest's token no longer works; the account's does, as the same player.
        assert_eq!(
            refusal(&server.get("/api/me", &kato).await),
            (401, "no_session")
        );
        let (_, me) = server.get("/api/me", &account).await;
        assert_eq!(
            (
                me["player_id"].as_str(),
                me["username"].as_str(),
                me["name"].as_str()
            ),
            (Some(kato_id.as_str()), Some("kato_k"), Some("Kato"))
        );

        // The live game goes on over the socket opened as the guest.
        south
            .send(json!({"t": "move", "d": {"move": "E1"}, "id": "m1"}))
            .await;
        south.expect_ack("m1").await;
        assert!(
            south.try_recv(Duration::from_millis(300)).await.is_some(),
            "the socket is still open and told of the move"
        );
        // A new socket as the account holds the same seat.
        let snapshot = server.snapshot(&account, &game.id).await;
        assert_eq!(snapshot["you"], "s");
        // The tournament it directs is the account's to direct; the one it plays, its own.
        let (_, directs) = server
            .get(&format!("/api/tournaments/{directed}"), &account)
            .await;
        assert_eq!(directs["director"], kato_id.as_str());
        let (_, plays) = server
            .get(&format!("/api/tournaments/{played}"), &account)
            .await;
        assert_eq!(plays["you"], kato_id.as_str());
        // Its page lists them all.
        let (status, page) = server.get("/api/players/KATO_K", "").await;
        assert_eq!(status, 200, "{page}");
        assert_eq!(page["player_id"], kato_id.as_str());
        assert_eq!(page["games"][0]["id"], game.id.as_str());
        assert_eq!(page["games"][0]["seat"], "s");
        assert_eq!(page["games"][0]["opponent"], "Nakato");
        assert_eq!(page["games"][0]["result"], "none");
        let roles: Vec<(String, String)> = page["tournaments"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| {
                (
                    t["id"].as_str().unwrap().to_owned(),
                    t["role"].as_str().unwrap().to_owned(),
                )
            })
            .collect();
        assert_eq!(roles.len(), 2, "{roles:?}");
        assert!(
            roles.contains(&(directed.clone(), "director".to_owned())),
            "{roles:?}"
        );
        assert!(
            roles.contains(&(played.clone(), "player".to_owned())),
            "{roles:?}"
        );
        // A second account cannot be made from it; the username, in any case or with a
        // look-alike letter, is taken.
        let again = server
            .post(
                "/api/account",
                &account,
                json!({"username": "other", "password": PASSWORD}),
            )
            .await;
        assert_eq!(refusal(&again), (409, "already_account"));
        let (guest, _) = server.session("Apio").await;
        let twin = server
            .post(
                "/api/account",
                &guest,
                json!({"username": "KATO_K", "password": PASSWORD}),
            )
            .await;
        assert_eq!(refusal(&twin), (409, "username_taken"));
        server.stop().await;
        if let Some(pg) = pg {
            pg.drop_database().await;
        }
    }
}

/// A guest named `Guest-xxxx` takes its username as its name; an account made with no
/// session is a new person named by its username.
#[tokio::test]
async fn a_nameless_guest_is_named_by_its_username_and_sign_up_needs_no_session() {
    let server = TestServer::start("sqlite::memory:").await;
    let (status, guest) = server.post_anonymous("/api/session", json!({})).await;
    assert_eq!(status, 200);
    assert!(guest["name"].as_str().unwrap().starts_with("Guest-"));
    let made = sign_up(&server, guest["token"].as_str(), "Apio").await;
    assert_eq!(
        (made["name"].as_str(), made["username"].as_str()),
        (Some("Apio"), Some("Apio"))
    );
    assert_eq!(made["player_id"], guest["player_id"]);
    let fresh = sign_up(&server, None, "Okello").await;
    assert_eq!(fresh["name"], "Okello");
    assert_ne!(fresh["player_id"], guest["player_id"]);
    // Refusals say what is wrong.
    let weak = server
        .post_anonymous(
            "/api/account",
            json!({"username": "Wasswa", "password": "password1"}),
        )
        .await;
    assert_eq!(refusal(&weak), (400, "weak_password"));
    assert!(weak.1["error"]["message"]
        .as_str()
        .unwrap()
        .starts_with("this password is easy to guess"));
    let bad = server
        .post_anonymous(
            "/api/account",
            json!({"username": "Ka to", "password": PASSWORD}),
        )
        .await;
    assert_eq!(refusal(&bad), (400, "bad_username"));
    assert_eq!(
        bad.1["error"]["message"],
        "a username holds letters, digits, '-', '_' and '.', not ' '"
    );
    server.stop().await;
}
