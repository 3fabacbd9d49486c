//! Oware's impasse through the protocol (docs/rules.md#3-oware-abapa, docs/protocol.md): a proposal
//! declined, one standing through a restart, and accepted after it, the game ended by the
//! even split; refusals that say what is wrong; spectators see it all.

use crate::common::{Client, SeatedGame, TestServer};
use serde_json::{json, Value};

/// The next versioned event, which must be of type `t`.
async fn event(client: &mut Client, t: &str) -> Value {
    let e = client.recv_event().await;
    assert_eq!(e["t"], t, "{e}");
    e
}

/// Sends `message` with `id` and returns the error it is refused with.
async fn refused(client: &mut Client, id: &str, message: Value) -> Value {
    let answer = client.request(id, message).await;
    assert_eq!(answer["t"], "error", "{answer}");
    answer["d"].clone()
}

#[tokio::test]
async fn a_proposal_is_declined_another_survives_a_restart_and_is_accepted() {
    let path = std::env::temp_dir().join(format!("omweso-impasse-{}.db", uuid::Uuid::new_v4()));
    let url = format!("sqlite://{}", path.display());
    let server = TestServer::start(&url).await;
    let SeatedGame {
        id: game,
        south: kato,
        north: nakato,
        ..
    } = SeatedGame::new(&server, json!({"ruleset":"oware"})).await;
    let (apio, _) = server.session("Apio").await;
    let mut south = server.socket(&game, Some(&kato), None).await;
    let mut north = server.socket(&game, Some(&nakato), None).await;
    let mut watcher = server.socket(&game, Some(&apio), None).await;
    for c in [&mut south, &mut north, &mut watcher] {
        let state = c.recv_type("state").await;
        assert!(state["d"].get("impasse").is_none(), "{state}");
    }

    // South's C1 (no capture): 23 seeds on South's side, 25 on North's.
    south
        .expect_ack_of("m1", json!({"t":"move","d":{"move":"C1"}}))
        .await;
    for c in [&mut south, &mut north, &mut watcher] {
        event(c, "played").await;
    }

    // Nothing to answer yet.
    let e = refused(
        &mut north,
        "a0",
        json!({"t":"impasse_answer","d":{"accept":true}}),
    )
    .await;
    assert_eq!(e["code"], "no_impasse");
    assert_eq!(e["message"], "no proposal to stop is standing");

    // South proposes (though it is North's turn); North declines.
    south
        .expect_ack_of("p1", json!({"t":"impasse","d":{}}))
        .await;
    for c in [&mut south, &mut north, &mut watcher] {
        let e = event(c, "impasse_proposed").await;
        assert_eq!(e["d"], json!({"by":"s"}));
        assert_eq!(e["v"], 4);
    }
    let e = refused(
        &mut south,
        "a1",
        json!({"t":"impasse_answer","d":{"accept":true}}),
    )
    .await;
    assert_eq!(e["code"], "own_impasse");
    assert_eq!(
        e["message"],
        "you cannot answer your own proposal: it stands until Nakato answers it or you play your next turn"
    );
    let e = refused(
        &mut watcher,
        "w1",
        json!({"t":"impasse_answer","d":{"accept":true}}),
    )
    .await;
    assert_eq!(e["code"], "spectator");
    north
        .expect_ack_of("a2", json!({"t":"impasse_answer","d":{"accept":false}}))
        .await;
    for c in [&mut south, &mut north, &mut watcher] {
        let e = event(c, "impasse_declined").await;
        assert_eq!(e["d"], json!({"by":"n"}));
    }

    // North proposes in its turn, then South's proposal is refused while it stands.
    north.expect_ack_of("p2", json!({"t":"impasse"})).await;
    for c in [&mut south, &mut north, &mut watcher] {
        assert_eq!(event(c, "impasse_proposed").await["d"], json!({"by":"n"}));
    }
    let e = refused(&mut south, "p3", json!({"t":"impasse","d":{}})).await;
    assert_eq!(e["code"], "impasse_standing");
    assert_eq!(
        e["message"],
        "Nakato has proposed to stop: accept or decline it with impasse_answer"
    );
    let before = server.snapshot(&kato, &game).await;
    assert_eq!(before["impasse"], json!({"proposed_by":"n"}));
    assert_eq!(before["status"], "playing");
    assert_eq!(before["version"], 6);
    drop((south, north, watcher));
    server.stop().await;

    // After a restart the proposal still stands, at the same version.
    let server = TestServer::start(&url).await;
    let after = server.snapshot(&kato, &game).await;
    assert_eq!(after["impasse"], json!({"proposed_by":"n"}));
    assert_eq!(after["position"], before["position"]);
    let mut south = server.socket(&game, Some(&kato), None).await;
    let mut watcher = server.socket(&game, Some(&apio), None).await;
    for c in [&mut south, &mut watcher] {
        let state = c.recv_type("state").await;
        assert_eq!(state["d"]["impasse"], json!({"proposed_by":"n"}));
    }
    // South accepts: the 48 seeds still on the board (23 South, 25 North) are split 24-24.
    south
        .expect_ack_of("a3", json!({"t":"impasse_answer","d":{"accept":true}}))
        .await;
    for c in [&mut south, &mut watcher] {
        let e = event(c, "end").await;
        assert_eq!(
            e["d"],
            json!({"outcome":{"result":"draw"},
                "impasse":{"proposed_by":"n","split":{"s":24,"n":24}},
                "position":"0,0,0,0,0,0/0,0,0,0,0,0 n 24 24"})
        );
    }
    let ended = server.snapshot(&kato, &game).await;
    assert_eq!(ended["status"], "finished");
    assert_eq!(ended["outcome"], json!({"result":"draw"}));
    assert_eq!(
        ended["impasse"],
        json!({"proposed_by":"n","split":{"s":24,"n":24}})
    );
    assert_eq!(ended["position"], "0,0,0,0,0,0/0,0,0,0,0,0 n 24 24");
    let e = refused(&mut south, "p4", json!({"t":"impasse"})).await;
    assert_eq!(e["code"], "game_over");
    drop((south, watcher));
    server.stop().await;

    // The finished game, replayed from its log, ends the same way.
    let server = TestServer::start(&url).await;
    let replayed = server.snapshot(&nakato, &game).await;
    for key in [
        "status", "outcome", "impasse", "position", "version", "history",
    ] {
        assert_eq!(replayed[key], ended[key], "{key}");
    }
    server.stop().await;
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
}

#[tokio::test]
async fn only_oware_has_the_proposal() {
    let server = TestServer::start("sqlite::memory:").await;
    let SeatedGame {
        id: game,
        south: kato,
        ..
    } = SeatedGame::new(&server, json!({"ruleset":"omweso"})).await;
    let mut south = server.socket(&game, Some(&kato), None).await;
    let e = refused(&mut south, "p", json!({"t":"impasse","d":{}})).await;
    assert_eq!(e["code"], "not_oware");
    assert_eq!(
        e["message"],
        "only Oware is stopped at an impasse by agreement (docs/rules.md#3-oware-abapa); this game is Omweso"
    );
    let e = refused(
        &mut south,
        "b",
        json!({"t":"impasse_answer","d":{"accept":"yes"}}),
    )
    .await;
    assert_eq!(e["code"], "bad_message");
    server.stop().await;
}

/// A game against the computer: it answers a proposal on its own. At the start the split
/// would be 24-24, a draw, and its search cannot rule out a capture of its own within its
/// horizon (48 seeds branch too much to finish), so it declines.
#[tokio::test]
async fn the_computer_answers_a_proposal() {
    let server = TestServer::start("sqlite::memory:").await;
    let (kato, _) = server.session("Kato").await;
    let game = server
        .create(
            &kato,
            json!({"ruleset":"oware","opponent":{"computer":{"level":1}}}),
        )
        .await;
    let mut south = server.socket(&game, Some(&kato), None).await;
    south.recv_type("state").await;
    south.expect_ack_of("p", json!({"t":"impasse"})).await;
    assert_eq!(
        event(&mut south, "impasse_proposed").await["d"],
        json!({"by":"s"})
    );
    assert_eq!(
        event(&mut south, "impasse_declined").await["d"],
        json!({"by":"n"})
    );
    server.stop().await;
}
