//! Behaviour docs/protocol.md documents that no other test checked (issue 26): each
//! against a real server, with the exact answer.

use crate::common::{Remote, SeatedGame, TestServer};
use futures_util::StreamExt;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

/// The refusal a socket upgrade to `path` gets: its status and JSON body.
pub(crate) async fn upgrade_refused(server: &Remote, path: &str) -> (u16, Value) {
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
    let SeatedGame {
        id: game,
        south,
        north,
        ..
    } = SeatedGame::new(&server, json!({"ruleset":"mweiso","seat":"first"})).await;
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
    let SeatedGame {
        id: game, north, ..
    } = SeatedGame::new(&server, json!({"ruleset":"omweso","setup":"outer"})).await;
    let mut ws = server.socket(&game, Some(&north), None).await;
    let state = ws.recv_type("state").await;
    assert_eq!(state["d"]["you"], "n");
    assert_eq!(state["d"]["seats"]["n"]["connected"], true, "{state}");
    assert_eq!(state["d"]["seats"]["s"]["connected"], false, "{state}");
    server.stop().await;
}

/// A session may hold so many game sockets and an address so many (docs/protocol.md: 16
/// and 512 by default; 2 and 3 here): the next upgrade is refused `429 rate_limited`
/// saying which, and a place comes back when a socket closes. (Each socket is on a game of
/// its own: a session's new socket on a game replaces its socket there.)
#[tokio::test]
async fn the_socket_caps_per_session_and_per_address_answer_saying_which() {
    let server = TestServer::start_with(crate::common::config_with(|l| {
        l.sockets_per_session = 2;
        l.sockets_per_ip = 3;
    }))
    .await;
    let (kato, _) = server.session("Kato").await;
    let (nakato, _) = server.session("Nakato").await;
    let mut games = Vec::new();
    for _ in 0..3 {
        games.push(server.create(&kato, json!({"ruleset":"oware"})).await);
    }
    let path = |game: &str, token: &str| format!("/ws/games/{game}?token={token}");
    let mut held = vec![
        server.socket_at(&path(&games[0], &kato)).await,
        server.socket_at(&path(&games[1], &kato)).await,
    ];
    let (status, body) = upgrade_refused(&server, &path(&games[2], &kato)).await;
    assert_eq!(
        (status, body),
        (
            429,
            json!({"error":{"code":"rate_limited",
                "message":"your session has 2 game sockets open; close some first"}})
        )
    );
    // Another session from the same address: one more, then the address's cap.
    held.push(server.socket_at(&path(&games[0], &nakato)).await);
    let (status, body) = upgrade_refused(&server, &path(&games[1], &nakato)).await;
    assert_eq!(
        (status, body),
        (
            429,
            json!({"error":{"code":"rate_limited",
                "message":"this address has 3 game sockets open; close some first"}})
        )
    );
    // A socket closed gives its places back (once the server has seen it close).
    let mut closing = held.remove(0);
    closing.ws.close(None).await.unwrap();
    let _ = closing.close_frame().await;
    let deadline = std::time::Instant::now() + crate::common::PATIENCE;
    let again = path(&games[2], &kato);
    loop {
        let request = format!("ws://{}{again}", server.addr)
            .into_client_request()
            .unwrap();
        if let Ok((ws, _)) = tokio_tungstenite::connect_async(request).await {
            held.push(crate::common::Client { ws });
            break;
        }
        assert!(std::time::Instant::now() < deadline, "no place came back");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    server.stop().await;
}

/// A request whose body does not all arrive within the time limit is answered `408
/// timeout` with the protocol's JSON error body (docs/protocol.md), and the server's
/// security headers.
#[tokio::test]
async fn a_request_whose_body_is_too_slow_is_answered_408() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let server =
        TestServer::start_with(crate::common::config_with(|l| l.request_seconds = 1.0)).await;
    let mut tcp = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    // Headers announcing 40 bytes, then 12 of them, then nothing.
    tcp.write_all(
        b"POST /api/session HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
          Content-Length: 40\r\nConnection: close\r\n\r\n{\"name\": \"Ka",
    )
    .await
    .unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(crate::common::PATIENCE, tcp.read_to_end(&mut answer))
        .await
        .expect("an answer within the tests' patience")
        .unwrap();
    let answer = String::from_utf8(answer).unwrap();
    let (head, body) = answer.split_once("\r\n\r\n").expect("a whole answer");
    assert!(
        head.starts_with("HTTP/1.1 408 Request Timeout\r\n"),
        "{head}"
    );
    let head = head.to_lowercase();
    assert!(
        head.contains("\r\ncontent-type: application/json"),
        "{head}"
    );
    assert!(head.contains("\r\nx-frame-options: deny"), "{head}");
    let body: Value = serde_json::from_str(body).expect("a JSON body");
    assert_eq!(
        body,
        json!({"error":{"code":"timeout","message":"the request took too long to arrive"}})
    );
    server.stop().await;
}

/// A socket whose 128 queued messages fill up (its client does not read) is closed with
/// 1008 (docs/protocol.md), and the game goes on. The client: North's socket with a small
/// receive buffer, reading nothing, sending moves out of turn (each refused by the game
/// with an `error` queued for it); once the server has let it go (North shows away), it
/// reads what was sent before, then the close.
#[tokio::test]
async fn a_socket_that_does_not_read_is_closed_with_1008_when_its_queue_fills() {
    // No rate limit to wait under, and pings too rare to drop the socket as silent first.
    let mut config = crate::common::config_with(|l| l.ping_seconds = 120.0);
    config.rate_limit = 1_000_000;
    let server = TestServer::start_with(config).await;
    let game = SeatedGame::new(&server, json!({"ruleset":"omweso"})).await;
    let tcp = tokio::net::TcpSocket::new_v4().unwrap();
    // A small window, so that the server's writes stop soon, not after megabytes.
    tcp.set_recv_buffer_size(2048).unwrap();
    let stream = tcp.connect(server.addr).await.unwrap();
    let url = format!(
        "ws://{}/ws/games/{}?token={}",
        server.addr, game.id, game.north
    );
    let stream = tokio_tungstenite::MaybeTlsStream::Plain(stream);
    let (ws, _) = tokio_tungstenite::client_async(url, stream).await.unwrap();
    let mut slow = crate::common::Client { ws };
    let out_of_turn = json!({"t":"move","d":{"move":"E4"}});
    let mut sent = 0;
    loop {
        slow.send(out_of_turn.clone()).await;
        sent += 1;
        if sent % 100 == 0 {
            let snapshot = server.snapshot(&game.south, &game.id).await;
            if snapshot["seats"]["n"]["connected"] == false {
                break;
            }
        }
        assert!(
            sent < 200_000,
            "the server kept the socket after {sent} refused moves"
        );
    }
    let mut read = 0;
    let close = loop {
        match tokio::time::timeout(crate::common::PATIENCE, slow.ws.next()).await {
            Ok(Some(Ok(tokio_tungstenite::tungstenite::Message::Close(frame)))) => break frame,
            Ok(Some(Ok(_))) => read += 1,
            other => panic!("no close after {read} frames ({sent} sent): {other:?}"),
        }
    };
    let close = close.expect("a close frame with a code");
    assert_eq!(
        (u16::from(close.code), close.reason.as_str()),
        (1008, "too slow to keep up; reconnect to resync")
    );
    assert!(read >= 128, "only {read} frames came before the close");
    // The game goes on.
    let [mut south, _north] = game.sockets(&server).await;
    south
        .expect_ack_of("m", json!({"t":"move","d":{"move":"E1"}}))
        .await;
    server.stop().await;
}
