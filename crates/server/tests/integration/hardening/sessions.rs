//! Sessions and names: the bounded session cache, names that impersonate, concurrent loads sharing one task.

use crate::common::probe::{assert_every_move_went_through, LatencyProbe};
use crate::common::{SeatedGame, TestServer};
use serde_json::json;
use std::time::Duration;

use super::*;

/// The session cache is bounded: past its size the least recently used sessions leave
/// memory, and are found in the database again when they come back.
#[tokio::test]
async fn the_session_cache_is_bounded_and_forgets_nothing() {
    let store = omweso_server::store::Store::open("sqlite::memory:")
        .await
        .unwrap();
    let (writer, task) = omweso_server::store::Writer::spawn(store.clone(), 64);
    let sessions = omweso_server::people::Sessions::new(store.clone(), writer.clone(), 3);
    let mut made = Vec::new();
    for i in 0..10 {
        made.push(
            sessions
                .create(Some(&format!("P{i}")), "A device")
                .await
                .unwrap(),
        );
    }
    assert_eq!(sessions.cached(), 3);
    for (session, token) in &made {
        let found = sessions.find(token).await.unwrap();
        assert_eq!(found.as_ref(), Some(session));
        assert!(sessions.cached() <= 3);
    }
    assert_eq!(sessions.find("not a token").await.unwrap(), None);
    writer.shutdown().await;
    task.await.unwrap();
    store.close().await;
}

/// A name that would show as another player's is refused, saying which character.
#[tokio::test]
async fn names_that_impersonate_are_refused() {
    let _serial = ONE_AT_A_TIME.lock().await;
    let server = TestServer::start("sqlite::memory:").await;
    let probe = LatencyProbe::start(&server).await;
    let names = [
        ("\u{202e}ecilA", "U+202E"),
        ("Alice\u{200b}", "U+200B"),
        ("\u{feff}", "U+FEFF"),
        ("Ali\u{3164}ce", "U+3164"),
    ];
    let mut asked = 0;
    while !probe.has_enough() || asked < names.len() {
        let (name, character) = names[asked % names.len()];
        let (status, body) = server.post("/api/session", "", json!({"name": name})).await;
        assert_eq!(status, 400, "{name:?}: {body}");
        assert_eq!(body["error"]["code"], "bad_name");
        let message = body["error"]["message"].as_str().unwrap();
        assert!(message.contains(character), "{message}");
        asked += 1;
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let (status, body) = server
        .post("/api/session", "", json!({"name": "Nakate\u{0301}"}))
        .await;
    assert_eq!(status, 200);
    assert_eq!(body["name"], "Nakat\u{e9}", "stored in NFC");
    assert_every_move_went_through("bidi names", &probe.finish().await);
    server.stop().await;
}

/// Sockets opened at once on a finished game that is no longer in memory load it once:
/// they all share one game task (each sees all the others in `crowd`).
#[tokio::test]
async fn concurrent_loads_of_a_game_share_one_task() {
    let _serial = ONE_AT_A_TIME.lock().await;
    let server = TestServer::start("sqlite::memory:").await;
    let seated = SeatedGame::new(&server, json!({"ruleset": "oware"})).await;
    let game = seated.id.clone();
    assert_eq!(server.metric("omweso_games_live").await, 1.0);
    {
        let mut south = server.socket(&game, Some(&seated.south), None).await;
        south.send(json!({"t": "resign", "id": "r", "d": {}})).await;
        south.expect_ack("r").await;
    }
    // The finished game, watched by nobody, leaves memory: the server's count of loaded
    // games falls to 0 (else the sockets below would find it loaded, not load it).
    server.until_no_game_is_loaded().await;
    let sockets =
        futures_util::future::join_all((0..10).map(|_| server.socket(&game, None, None))).await;
    for mut socket in sockets {
        assert_eq!(socket.recv_type("state").await["d"]["status"], "finished");
        loop {
            let crowd = socket.recv_type("crowd").await;
            if crowd["d"]["spectators"] == 10 {
                break;
            }
            assert!(crowd["d"]["spectators"].as_u64().unwrap() < 10, "{crowd}");
        }
    }
    server.stop().await;
}

/// A device signed out, or an account disabled, by another process (`omweso admin`,
/// writing to the same database) has its open sockets ended at the next check, as this
/// process's own sign-outs end theirs; the others' stay open.
#[tokio::test]
async fn sockets_of_devices_signed_out_elsewhere_are_ended() {
    use omweso_server::store::{SessionChange, Write};
    let store = omweso_server::store::Store::open("sqlite::memory:")
        .await
        .unwrap();
    let (writer, task) = omweso_server::store::Writer::spawn(store.clone(), 64);
    let sessions = omweso_server::people::Sessions::new(store.clone(), writer.clone(), 16);
    let (kept, _) = sessions.create(Some("Kept"), "A device").await.unwrap();
    let (gone, _) = sessions.create(Some("Gone"), "A device").await.unwrap();
    let (disabled, _) = sessions.create(Some("Disabled"), "A device").await.unwrap();
    let ends = [&kept, &gone, &disabled].map(|s| sessions.watch_end(Some(s)));
    assert_eq!(sessions.end_sockets_of_gone_devices().await.unwrap(), 0);
    // What another process writes, behind this one's back.
    store
        .write(&[
            Write::Session(SessionChange::Revoke(gone.device_id)),
            Write::Session(SessionChange::Disable {
                person_id: disabled.player_id,
                at_ms: Some(1),
            }),
        ])
        .await
        .unwrap();
    assert_eq!(sessions.end_sockets_of_gone_devices().await.unwrap(), 2);
    for end in &ends[1..] {
        tokio::time::timeout(Duration::from_secs(1), end.ended())
            .await
            .expect("the socket is told its device was signed out");
    }
    assert!(
        tokio::time::timeout(Duration::from_millis(100), ends[0].ended())
            .await
            .is_err(),
        "the device still signed in keeps its socket"
    );
    writer.shutdown().await;
    task.await.unwrap();
    store.close().await;
}
