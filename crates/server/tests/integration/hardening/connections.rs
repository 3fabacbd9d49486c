//! Connections: slowloris and idle ones closed, a cap per address, a silent socket dropped, a forged pong.

use crate::common::config_with as config;
use crate::common::probe::{assert_every_move_went_through, LatencyProbe};
use crate::common::{SeatedGame, TestServer};
use serde_json::json;
use std::time::Duration;

use super::*;

/// Connections that send half a header, or nothing, or stay idle after a request, are
/// closed after the idle time; the server keeps serving meanwhile.
#[tokio::test]
async fn slowloris_and_idle_connections_are_closed() {
    let _serial = ONE_AT_A_TIME.lock().await;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let server = TestServer::start_with(config(|l| l.http_idle_seconds = 1.0)).await;
    let probe = LatencyProbe::start(&server).await;
    let mut rounds = 0;
    while !probe.has_enough() || rounds < 2 {
        let mut held = Vec::new();
        for i in 0..60 {
            let mut tcp = tokio::net::TcpStream::connect(server.addr).await.unwrap();
            match i % 3 {
                // Half a header, never finished.
                0 => tcp
                    .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ")
                    .await
                    .unwrap(),
                // A whole request, then the connection kept idle.
                1 => tcp
                    .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
                    .await
                    .unwrap(),
                // Nothing at all.
                _ => {}
            }
            held.push((i % 3, tcp));
        }
        let opened = std::time::Instant::now();
        for (kind, mut tcp) in held {
            let mut bytes = Vec::new();
            let read = tokio::time::timeout(Duration::from_secs(5), tcp.read_to_end(&mut bytes))
                .await
                .expect("the server closes an idle connection within 5 s");
            // Closed (or reset) by the server: nothing more to read.
            let _ = read;
            if kind == 1 {
                let text = String::from_utf8_lossy(&bytes);
                assert!(text.starts_with("HTTP/1.1 200"), "{text}");
            }
        }
        let waited = opened.elapsed();
        assert!(
            waited >= Duration::from_millis(900),
            "closed before the idle time: {waited:?}"
        );
        rounds += 1;
    }
    assert_every_move_went_through("slowloris", &probe.finish().await);
    server.stop().await;
}

/// One address may hold only so many connections: the next is closed at once, and a place
/// comes back when one closes.
#[tokio::test]
async fn connections_per_address_are_capped() {
    let _serial = ONE_AT_A_TIME.lock().await;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let server = TestServer::start_with(config(|l| l.connections_per_ip = 8)).await;
    // A request answered on a kept-alive connection: the server has taken it.
    async fn answered(stream: &mut tokio::net::TcpStream) -> bool {
        let request = b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n";
        if stream.write_all(request).await.is_err() {
            return false;
        }
        let mut buffer = [0u8; 512];
        let read = tokio::time::timeout(Duration::from_secs(5), stream.read(&mut buffer)).await;
        matches!(read, Ok(Ok(n)) if buffer[..n].starts_with(b"HTTP/1.1 200"))
    }
    let mut held = Vec::new();
    for _ in 0..8 {
        let mut stream = tokio::net::TcpStream::connect(server.addr).await.unwrap();
        assert!(answered(&mut stream).await, "the first eight are served");
        held.push(stream);
    }
    let mut ninth = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    let mut byte = [0u8; 1];
    let read = tokio::time::timeout(Duration::from_secs(2), ninth.read(&mut byte))
        .await
        .expect("the ninth connection is closed at once, not left waiting");
    assert!(matches!(read, Ok(0) | Err(_)), "{read:?}");
    // One closes: its place comes back as soon as the server sees it gone (asked again
    // until then, within 5 s).
    held.pop();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    loop {
        let mut tenth = tokio::net::TcpStream::connect(server.addr).await.unwrap();
        if answered(&mut tenth).await {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "a closed connection's place comes back"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    drop(held);
    server.stop().await;
}

/// A seated player's socket that never reads (nor answers pings) is dropped after three
/// pings, and the opponent sees the player as away.
#[tokio::test]
async fn a_silent_socket_is_dropped_and_its_player_shown_away() {
    let _serial = ONE_AT_A_TIME.lock().await;
    let server = TestServer::start_with(config(|l| l.ping_seconds = 0.2)).await;
    let probe = LatencyProbe::start(&server).await;
    let SeatedGame {
        id: game,
        south: kato,
        north: nakato,
        ..
    } = SeatedGame::new(&server, json!({"ruleset": "omweso"})).await;
    let mut north = server.socket(&game, Some(&nakato), None).await;
    // South connects and then never reads a frame: its pings go unanswered.
    let silent = server.socket(&game, Some(&kato), None).await;
    let opened = std::time::Instant::now();
    let mut saw_south = false;
    loop {
        let crowd = north.recv_type("crowd").await;
        let south_here = crowd["d"]["connected"]["s"] == true;
        saw_south |= south_here;
        if saw_south && !south_here {
            break;
        }
        assert!(
            opened.elapsed() < crate::common::PATIENCE,
            "south still shown: {crowd}"
        );
    }
    // Three pings 0.2 s apart, unanswered: dropped after 0.6 s or a little more.
    assert!(
        opened.elapsed() >= Duration::from_millis(400),
        "{:?}",
        opened.elapsed()
    );
    drop(silent);
    probe.finish_when_enough("silent socket").await;
    server.stop().await;
}

/// A pong the server never asked for (payload 0, "sent at the epoch") buys no latency
/// allowance: the referee count stays 3 s plus the real round trip.
#[tokio::test]
async fn a_forged_pong_buys_no_referee_allowance() {
    let _serial = ONE_AT_A_TIME.lock().await;
    use futures_util::SinkExt;
    use tokio_tungstenite::tungstenite::Message;
    let server = TestServer::start("sqlite::memory:").await;
    let probe = LatencyProbe::start(&server).await;
    let body = json!({"ruleset": "omweso", "time_control": {"preset": "tournament"}});
    let SeatedGame {
        id: game,
        south: kato,
        north: nakato,
        ..
    } = SeatedGame::new(&server, body).await;
    let mut south = server.socket(&game, Some(&kato), None).await;
    let mut north = server.socket(&game, Some(&nakato), None).await;
    for forged in [0u64, 1, u64::MAX] {
        south
            .ws
            .send(Message::Pong(forged.to_be_bytes().to_vec().into()))
            .await
            .unwrap();
    }
    south
        .send(json!({"t": "move", "id": "s1", "d": {"move": "E1"}}))
        .await;
    south.expect_ack("s1").await;
    let played = north.recv_type("played").await;
    let to_north = played["d"]["clock"]["referee_deadline"].as_u64().unwrap();
    let moves = server.snapshot(&nakato, &game).await["legal_moves"][0]
        .as_str()
        .unwrap()
        .to_owned();
    north
        .send(json!({"t": "move", "id": "n1", "d": {"move": moves}}))
        .await;
    north.expect_ack("n1").await;
    let played = south.recv_type("played").await;
    let received = now_ms();
    let to_south = played["d"]["clock"]["referee_deadline"].as_u64().unwrap();
    let display = played["d"]["display_ms"].as_u64().unwrap();
    // South's count: 3,000 ms from the end of North's move's display time, plus South's
    // real round trip (a few ms here); the forged pongs would have made it 4,000. What
    // the count shows less is the time the event took to reach us, which a loaded
    // machine may make long: the lower bound leaves it 1.5 s, the upper bound is the one
    // that tells a forged allowance (it cannot be passed by a slow machine, only by a
    // round trip of 300 ms, which a local socket does not take).
    let allowance = to_south.saturating_sub(received + display);
    assert!(
        (1_500..3_300).contains(&allowance),
        "south's count ends {allowance} ms after its turn began"
    );
    assert!(to_north > 0);
    while !probe.has_enough() {
        south
            .ws
            .send(Message::Pong(0u64.to_be_bytes().to_vec().into()))
            .await
            .unwrap();
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert_every_move_went_through("forged pongs", &probe.finish().await);
    server.stop().await;
}
