//! The server under attack (issue 10): each finding reproduced against a real server on
//! port 0, with a normal game played beside it that must go on: every one of its moves
//! acknowledged and seen by the opponent (common/probe.rs; its latency is printed, not
//! bounded, since a wall-clock bound fails on a loaded machine for reasons not the
//! server's).

use std::time::Duration;

use crate::common::config_with as config;
use crate::common::probe::{assert_every_move_went_through, LatencyProbe};
use crate::common::{Remote, SeatedGame, TestServer};
use serde_json::{json, Value};

/// One attack at a time: the probe's printed latency then speaks of its own attack, not of
/// the others' (the tests of one file run in parallel threads otherwise), and two attacks
/// do not crowd the machine the other suites share.
static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// A free-setup game with the move limit off, both arrangements made: South to move.
async fn free_setup_without_limit(server: &Remote) -> (String, String, crate::common::Client) {
    let body = json!({"ruleset": "omweso", "setup": "free",
        "time_control": {"move_limit_seconds": null}});
    let SeatedGame {
        id: game,
        south: kato,
        north: nakato,
        ..
    } = SeatedGame::new(server, body).await;
    let mut south = server.socket(&game, Some(&kato), None).await;
    let mut north = server.socket(&game, Some(&nakato), None).await;
    south
        .send(json!({"t": "arrange", "id": "s", "d": {"pits": [1,2,2,0,3,1,0,5,1,2,7,1,1,2,1,3]}}))
        .await;
    south.expect_ack("s").await;
    north
        .send(json!({"t": "arrange", "id": "n", "d": {"pits": [3,3,1,2,1,3,0,2,1,3,4,4,1,0,3,1]}}))
        .await;
    north.expect_ack("n").await;
    (game, kato, south)
}

/// The issue's turn: 451,216,582 laps with no budget. The server plays it under its hard
/// cap of 20,000 seeds and sends a bounded event. The turn is cut by the cap having
/// captured in columns A, C, D, E, G and H (bits 221): both end columns, so South wins by
/// emitwe-ebiri, which stands even when a turn runs out of budget (docs/rules.md#15-end-of-the-game).
#[tokio::test]
async fn a_very_long_turn_is_cut_at_the_hard_cap_and_its_event_is_bounded() {
    let _serial = ONE_AT_A_TIME.lock().await;
    let server = TestServer::start("sqlite::memory:").await;
    let probe = LatencyProbe::start(&server).await;
    let (game, kato, mut south) = free_setup_without_limit(&server).await;
    // What the move's start does comes with the snapshot (the server lists every start
    // to its first decision point, and the whole moves up to its listing budget), asked
    // again and again while the probe plays.
    let emitwe_ebiri = json!({"result": "win", "winner": "s", "victory": "emitwe-ebiri"});
    let mut asked = 0;
    while !probe.has_enough() || asked < 20 {
        let snapshot = server.snapshot(&kato, &game).await;
        let starts = snapshot["legal"]["s"]["starts"].as_array().unwrap().clone();
        let b1 = starts.iter().find(|s| s["start"] == "B1'").unwrap();
        // B1' sows 22 seeds in 7 laps, capturing 10, to the decision after its capture.
        assert_eq!(
            b1,
            &json!({"start": "B1'", "laps": 7, "seeds": 22, "captured": 10,
                "ends_at": null, "decision": ["a", "c"], "outcome": null})
        );
        asked += 1;
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    south
        .send(json!({"t": "move", "id": "long", "d": {"move": "B1'/a/c/c"}}))
        .await;
    let mut played = None;
    loop {
        let frame = south.ws_text().await;
        let m: Value = serde_json::from_str(&frame).unwrap();
        if m["t"] == "played" {
            // 1000 laps of about 80 bytes, not 59.5 MB.
            assert!(frame.len() < 120_000, "played is {} bytes", frame.len());
            played = Some(m.clone());
        }
        if m["t"] == "end" {
            assert_eq!(m["d"]["outcome"], emitwe_ebiri);
            break;
        }
    }
    let played = played.expect("a played event");
    assert_eq!(played["d"]["laps"].as_array().unwrap().len(), 1000);
    // The cap is 20,000 seeds: the turn stopped at 3,783 laps having sown 19,992 (the next
    // lap would have passed the cap), 2,783 of them past the first thousand.
    let omitted = &played["d"]["laps_omitted"];
    assert_eq!(omitted["laps"], 2783, "{omitted}");
    let shown: u64 = played["d"]["laps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["seeds"].as_u64().unwrap())
        .sum();
    assert_eq!(shown + omitted["seeds"].as_u64().unwrap(), 19_992);
    let snapshot = server.snapshot(&kato, &game).await;
    assert_eq!(snapshot["status"], "finished");
    // A resync from the start sends every event again, each as bounded.
    let mut again = server.socket(&game, Some(&kato), Some(0)).await;
    loop {
        let frame = again.ws_text().await;
        assert!(
            frame.len() < 120_000,
            "a resync frame is {} bytes",
            frame.len()
        );
        if frame.contains(r#""t":"crowd""#) {
            break;
        }
    }
    assert_every_move_went_through("long turn", &probe.finish().await);
    server.stop().await;
}

/// Milliseconds since the Unix epoch, as the server's clocks speak.
fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64
}

/// A game whose turns are long and whose legal moves are costly to list (the issue's free
/// setup, limit off), looked at again and again: its snapshot and the lobby stay cheap, and
/// `/healthz` answers quickly throughout.
#[tokio::test]
async fn looking_at_an_expensive_game_does_not_stall_the_server() {
    let _serial = ONE_AT_A_TIME.lock().await;
    let server = TestServer::start("sqlite::memory:").await;
    let probe = LatencyProbe::start(&server).await;
    let (game, kato, _south) = free_setup_without_limit(&server).await;
    let first = server.snapshot(&kato, &game).await;
    assert_eq!(first["status"], "playing");
    assert_eq!(first["legal_moves"].as_array().unwrap().len(), 23);
    let lookers: Vec<_> = (0..3)
        .map(|_| {
            let server = Remote::new(server.addr);
            let (game, kato) = (game.clone(), kato.clone());
            tokio::spawn(async move {
                let mut looks = 0;
                let deadline = std::time::Instant::now() + Duration::from_secs(60);
                while std::time::Instant::now() < deadline && looks < 400 {
                    let snap = server.snapshot(&kato, &game).await;
                    assert_eq!(snap["legal_moves"].as_array().unwrap().len(), 23);
                    let (status, _) = server.get("/api/games?list=live", &kato).await;
                    assert_eq!(status, 200);
                    looks += 1;
                    tokio::time::sleep(Duration::from_millis(10)).await;
                }
                looks
            })
        })
        .collect();
    // `/healthz` answers throughout, each within the probe's patience (its latency is
    // printed, not bounded: see common/probe.rs).
    let patient = reqwest::Client::builder()
        .timeout(crate::common::probe::MOVE_PATIENCE)
        .build()
        .unwrap();
    let mut health = Vec::new();
    while !probe.has_enough() || health.len() < crate::common::probe::PROBE_MOVES {
        let asked = std::time::Instant::now();
        let answer = patient
            .get(server.url("/healthz"))
            .send()
            .await
            .expect("/healthz answers within the probe's patience");
        assert_eq!(answer.status(), 200);
        health.push(asked.elapsed());
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    for looker in lookers {
        looker.abort();
    }
    health.sort();
    crate::common::probe::print_figures("healthz while the game is looked at", &health);
    assert_every_move_went_through("expensive snapshot", &probe.finish().await);
    server.stop().await;
}

/// Tournaments created as fast as a script can (a probe found 2,088 in 5 s from one
/// session): a session, then an address, is refused past its rate with a 429
/// naming the limit, and the refusal is counted; a mistyped form costs nothing.
#[tokio::test]
async fn tournament_creation_is_limited_per_session_and_per_address() {
    let server = TestServer::start_with(config(|l| {
        l.tournaments_per_session_per_minute = 2;
        l.tournaments_per_ip_per_minute = 3;
    }))
    .await;
    let (first, _) = server.session("TD").await;
    let (second, _) = server.session("TD2").await;
    let create = |token: String, body: Value| {
        let server = &server;
        async move { server.post("/api/tournaments", &token, body).await }
    };
    let club = || json!({"name": "Club night", "rounds": 3});
    // Refused settings are not counted.
    for _ in 0..3 {
        let (status, body) = create(first.clone(), json!({"name": "Bad", "rounds": 0})).await;
        assert_eq!(status, 400, "{body}");
    }
    for _ in 0..2 {
        let (status, body) = create(first.clone(), club()).await;
        assert_eq!(status, 201, "{body}");
    }
    let (status, body) = create(first.clone(), club()).await;
    assert_eq!(status, 429, "{body}");
    assert_eq!(body["error"]["code"], "rate_limited");
    assert_eq!(
        body["error"]["message"],
        "you created 2 tournaments in the last minute; wait a little"
    );
    // Another session from the same address: one more, then the address's limit.
    let (status, body) = create(second.clone(), club()).await;
    assert_eq!(status, 201, "{body}");
    let (status, body) = create(second.clone(), club()).await;
    assert_eq!(status, 429, "{body}");
    assert_eq!(
        body["error"]["message"],
        "this address created 3 tournaments in the last minute; wait a little"
    );
    let (status, list) = server.get("/api/tournaments?list=open", &first).await;
    assert_eq!(status, 200, "{list}");
    assert_eq!(
        list["tournaments"].as_array().map(Vec::len),
        Some(3),
        "exactly the three allowed were created: {list}"
    );
    server.stop().await;
}

/// Sessions and games created as fast as a script can, from one address behind the
/// trusted proxy (so the probe's own address keeps its budget): each limit refuses with a
/// 429 that names it, and unstarted games expire.
#[tokio::test]
async fn a_creation_flood_is_refused_by_the_limits() {
    let _serial = ONE_AT_A_TIME.lock().await;
    let server = TestServer::start_with(config(|l| {
        l.sessions_per_ip_per_minute = 12;
        l.open_games_per_session = 3;
        l.open_game_hours = 2.0 / 3600.0;
        l.trusted_proxy = vec!["127.0.0.1".into()];
    }))
    .await;
    let probe = LatencyProbe::start(&server).await;
    let flood = |path: &str, token: &str, body: Value| {
        let request = server
            .http
            .post(server.url(path))
            .header("x-forwarded-for", "203.0.113.9")
            .json(&body);
        let request = if token.is_empty() {
            request
        } else {
            request.bearer_auth(token)
        };
        async move {
            let answer = request.send().await.unwrap();
            let status = answer.status().as_u16();
            (status, answer.json::<Value>().await.unwrap_or(Value::Null))
        }
    };
    let mut tokens = Vec::new();
    let refusal = loop {
        let (status, body) = flood("/api/session", "", json!({"name": "Flood"})).await;
        if status != 200 {
            break (status, body);
        }
        tokens.push(body["token"].as_str().unwrap().to_owned());
        assert!(tokens.len() <= 12, "more sessions than the limit");
    };
    assert_eq!(tokens.len(), 12);
    assert_eq!(refusal.0, 429);
    assert_eq!(refusal.1["error"]["code"], "rate_limited");
    let message = refusal.1["error"]["message"].as_str().unwrap();
    assert!(message.contains("12 sessions"), "{message}");

    // Games: 3 unstarted at most per session.
    let mut games = Vec::new();
    for _ in 0..3 {
        let (status, body) = flood("/api/games", &tokens[0], json!({"ruleset": "oware"})).await;
        assert_eq!(status, 201, "{body}");
        games.push(body["game_id"].as_str().unwrap().to_owned());
    }
    let (status, body) = flood("/api/games", &tokens[0], json!({})).await;
    assert_eq!(status, 429, "{body}");
    let message = body["error"]["message"].as_str().unwrap();
    assert!(message.contains("3 games nobody has started"), "{message}");
    // Another session has its own.
    let (status, body) = flood("/api/games", &tokens[1], json!({})).await;
    assert_eq!(status, 201, "{body}");
    // Unstarted games expire after the 2 s configured: their rows go.
    tokio::time::sleep(Duration::from_millis(3_500)).await;
    for game in &games {
        let (status, body) = server.get(&format!("/api/games/{game}"), &tokens[0]).await;
        assert_eq!(status, 404, "an unstarted game outlived its expiry: {body}");
    }
    while !probe.has_enough() {
        let (status, _) = flood("/api/session", "", json!({})).await;
        assert_eq!(status, 429);
        let (status, _) = flood("/api/games", &tokens[0], json!({})).await;
        assert_eq!(status, 429);
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert_every_move_went_through("creation flood", &probe.finish().await);
    server.stop().await;
}

/// Games a minute per session and per address, alone: the probe itself creates a game
/// every few hundred milliseconds, which these limits (rightly) refuse, so they do not run
/// beside it.
#[tokio::test]
async fn game_creation_is_rate_limited_per_session_and_per_address() {
    let _serial = ONE_AT_A_TIME.lock().await;
    let server = TestServer::start_with(config(|l| {
        l.games_per_session_per_minute = 4;
        l.games_per_ip_per_minute = 6;
    }))
    .await;
    let (token, _) = server.session("Kato").await;
    for _ in 0..4 {
        let game = server.create(&token, json!({"ruleset": "oware"})).await;
        let (joiner, _) = server.session("Joiner").await;
        server.join(&joiner, &game).await;
    }
    let (status, body) = server.post("/api/games", &token, json!({})).await;
    assert_eq!(status, 429, "{body}");
    let message = body["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("you created 4 games in the last minute"),
        "{message}"
    );
    // Another session is not held to this one's, but the address is: 6 a minute.
    let (other, _) = server.session("Other").await;
    let game = server.create(&other, json!({"ruleset": "oware"})).await;
    server.join(&token, &game).await;
    server.create(&other, json!({})).await;
    let (status, body) = server.post("/api/games", &other, json!({})).await;
    assert_eq!(status, 429, "{body}");
    let message = body["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("this address created 6 games"),
        "{message}"
    );
    server.stop().await;
}

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
    let mut held = Vec::new();
    for _ in 0..8 {
        held.push(tokio::net::TcpStream::connect(server.addr).await.unwrap());
    }
    // Let the server take them all before the ninth.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut ninth = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    let mut byte = [0u8; 1];
    let read = tokio::time::timeout(Duration::from_secs(2), ninth.read(&mut byte))
        .await
        .expect("the ninth connection is closed at once, not left waiting");
    assert!(matches!(read, Ok(0) | Err(_)), "{read:?}");
    held.pop();
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut tenth = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    tenth
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let mut answer = Vec::new();
    tenth.read_to_end(&mut answer).await.unwrap();
    assert!(String::from_utf8_lossy(&answer).starts_with("HTTP/1.1 200"));
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

/// A page of another site cannot act with the player's cookie: a `text/plain` join from a
/// foreign Origin is refused and the seat stays empty; a non-JSON body is refused; socket
/// origins must match scheme and host.
#[tokio::test]
async fn cross_site_requests_are_refused() {
    let _serial = ONE_AT_A_TIME.lock().await;
    let server = TestServer::start("sqlite::memory:").await;
    let probe = LatencyProbe::start(&server).await;
    let (kato, _) = server.session("Kato").await;
    let (victim, _) = server.session("Victim").await;
    let game = server.create(&kato, json!({"ruleset": "omweso"})).await;
    let forged_join = || {
        server
            .http
            .post(server.url(&format!("/api/games/{game}/join")))
            .header("Cookie", format!("omweso_session={victim}"))
            .header("Origin", "http://evil.example")
            .header("Content-Type", "text/plain")
            .body("{}")
    };
    let answer = forged_join().send().await.unwrap();
    assert_eq!(answer.status(), 403);
    let body: Value = answer.json().await.unwrap();
    assert_eq!(body["error"]["code"], "bad_origin");
    assert!(server.snapshot(&kato, &game).await["seats"]["n"].is_null());
    // Our own origin, but a form body: refused too (a foreign page can send one unasked).
    let answer = server
        .http
        .post(server.url("/api/games"))
        .bearer_auth(&kato)
        .header("Origin", format!("http://{}", server.addr))
        .header("Content-Type", "text/plain")
        .body(r#"{"ruleset":"oware"}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 415);
    let body: Value = answer.json().await.unwrap();
    assert_eq!(body["error"]["code"], "bad_content_type");
    // Sockets: the host with another scheme is another origin.
    let socket_with_origin = |origin: String| {
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        let mut request = format!("ws://{}/ws/games/{game}", server.addr)
            .into_client_request()
            .unwrap();
        request
            .headers_mut()
            .insert("Origin", origin.parse().unwrap());
        tokio_tungstenite::connect_async(request)
    };
    for foreign in ["x://", "HTTP://", "ws://", "http://evil."] {
        let origin = format!("{foreign}{}", server.addr);
        assert!(
            socket_with_origin(origin.clone()).await.is_err(),
            "{origin}"
        );
    }
    for ours in ["http://", "https://"] {
        let origin = format!("{ours}{}", server.addr);
        assert!(socket_with_origin(origin.clone()).await.is_ok(), "{origin}");
    }
    while !probe.has_enough() {
        assert_eq!(forged_join().send().await.unwrap().status(), 403);
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert!(server.snapshot(&kato, &game).await["seats"]["n"].is_null());
    assert_every_move_went_through("cross-site requests", &probe.finish().await);
    server.stop().await;
}

/// Behind https, the session cookie is `Secure`; every kind of answer carries exactly the
/// security headers of docs/security.md, HSTS only behind https.
#[tokio::test]
async fn https_deployments_get_secure_cookies_and_every_page_a_csp() {
    let _serial = ONE_AT_A_TIME.lock().await;
    let mut https = omweso_server::config::ServeConfig::for_tests("sqlite::memory:");
    https.public_origin = vec!["https://omweso.example".into()];
    let server = TestServer::start_with(https).await;
    let answer = server
        .http
        .post(server.url("/api/session"))
        .json(&json!({"name": "Kato"}))
        .send()
        .await
        .unwrap();
    let cookie = answer.headers()["set-cookie"].to_str().unwrap().to_owned();
    assert!(cookie.contains("; Secure"), "{cookie}");
    assert!(cookie.contains("HttpOnly"), "{cookie}");
    let token = answer.json::<Value>().await.unwrap()["token"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_headers_on_every_kind_of_answer(&server, &token, true).await;
    server.stop().await;
    // Over plain http, no Secure (the browser would drop the cookie), and no HSTS.
    let server = TestServer::start("sqlite::memory:").await;
    let answer = server
        .http
        .post(server.url("/api/session"))
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    let cookie = answer.headers()["set-cookie"].to_str().unwrap().to_owned();
    assert!(!cookie.contains("Secure"), "{cookie}");
    let token = answer.json::<Value>().await.unwrap()["token"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_headers_on_every_kind_of_answer(&server, &token, false).await;
    server.stop().await;
}

/// The exact security headers (common::assert_security_headers) on every kind of answer:
/// the page, a script, a JSON answer, a JSON refusal, a 404 of a page, a 405.
async fn assert_headers_on_every_kind_of_answer(server: &Remote, token: &str, https: bool) {
    let get = |path: &str| server.http.get(server.url(path));
    let kinds: [(&str, reqwest::RequestBuilder, u16, &str); 6] = [
        ("the page", get("/"), 200, "text/html"),
        ("a script", get("/static/app.js"), 200, "text/javascript"),
        (
            "a JSON answer",
            get("/api/me").bearer_auth(token),
            200,
            "application/json",
        ),
        ("a JSON refusal", get("/api/me"), 401, "application/json"),
        (
            "an unknown page",
            get("/no/such/page"),
            404,
            "application/json",
        ),
        (
            "a wrong method",
            server.http.put(server.url("/api/games")).bearer_auth(token),
            405,
            "application/json",
        ),
    ];
    for (what, request, status, content_type) in kinds {
        let answer = request.send().await.unwrap();
        assert_eq!(answer.status().as_u16(), status, "{what}");
        let kind = answer.headers()["content-type"].to_str().unwrap();
        assert!(kind.starts_with(content_type), "{what}: {kind}");
        crate::common::assert_security_headers(answer.headers(), https, what);
    }
}

/// A socket opened before its session joined gets the seat when it joins: it is told so
/// (a fresh `state` with `you`), shows as connected and can play.
#[tokio::test]
async fn a_socket_opened_before_joining_takes_the_seat() {
    let _serial = ONE_AT_A_TIME.lock().await;
    let server = TestServer::start("sqlite::memory:").await;
    let probe = LatencyProbe::start(&server).await;
    let (kato, _) = server.session("Kato").await;
    let (nakato, _) = server.session("Nakato").await;
    let game = server.create(&kato, json!({"ruleset": "omweso"})).await;
    let mut south = server.socket(&game, Some(&kato), None).await;
    let mut early = server.socket(&game, Some(&nakato), None).await;
    let state = early.recv_type("state").await;
    assert!(state["d"]["you"].is_null(), "a spectator before joining");
    assert_eq!(server.join(&nakato, &game).await, "n");
    let state = early.recv_type("state").await;
    assert_eq!(state["d"]["you"], "n");
    assert_eq!(state["d"]["status"], "playing");
    south
        .send(json!({"t": "move", "id": "s1", "d": {"move": "E1"}}))
        .await;
    south.expect_ack("s1").await;
    let mv = server.snapshot(&nakato, &game).await["legal_moves"][0]
        .as_str()
        .unwrap()
        .to_owned();
    early
        .send(json!({"t": "move", "id": "n1", "d": {"move": mv}}))
        .await;
    early.expect_ack("n1").await;
    loop {
        let crowd = south.recv_type("crowd").await;
        if crowd["d"]["connected"]["n"] == true {
            assert_eq!(crowd["d"]["spectators"], 0, "{crowd}");
            break;
        }
    }
    probe.finish_when_enough("join after connect").await;
    server.stop().await;
}

/// Protocol edges: a close is echoed, an oversized frame closes with 1009, every HTTP
/// refusal has the JSON error body, one spelling of a game id, bounded error echoes.
#[tokio::test]
async fn protocol_edges_answer_as_the_rfcs_and_the_protocol_say() {
    let _serial = ONE_AT_A_TIME.lock().await;
    use futures_util::SinkExt;
    use tokio_tungstenite::tungstenite::protocol::frame::coding::{CloseCode, Data, OpCode};
    use tokio_tungstenite::tungstenite::protocol::frame::Frame;
    use tokio_tungstenite::tungstenite::protocol::CloseFrame;
    use tokio_tungstenite::tungstenite::Message;
    let server = TestServer::start("sqlite::memory:").await;
    let probe = LatencyProbe::start(&server).await;
    let SeatedGame {
        id: game,
        south: kato,
        ..
    } = SeatedGame::new(&server, json!({"ruleset": "omweso"})).await;

    // The close handshake: our close comes back.
    let mut client = server.socket(&game, Some(&kato), None).await;
    client.recv_type("state").await;
    client
        .ws
        .send(Message::Close(Some(CloseFrame {
            code: CloseCode::Normal,
            reason: "bye".into(),
        })))
        .await
        .unwrap();
    let echoed = client.close_frame().await;
    assert_eq!(echoed.map(|f| f.code), Some(CloseCode::Normal));

    // A message over the 64 KiB the socket reads, in two frames the server reads whole (a
    // single oversized frame is refused at its header, and the unread rest of it makes
    // the kernel reset the connection before the close frame is read): 1009.
    let mut client = server.socket(&game, Some(&kato), None).await;
    client.recv_type("state").await;
    for (part, opcode, last) in [
        (0, OpCode::Data(Data::Text), false),
        (1, OpCode::Data(Data::Continue), true),
    ] {
        let payload = vec![b'x' + part; 40 * 1024];
        let _ = client
            .ws
            .send(Message::Frame(Frame::message(payload, opcode, last)))
            .await;
    }
    let closed = client.close_frame().await;
    assert_eq!(closed.map(|f| u16::from(f.code)), Some(1009));

    // A bad move of 15,000 characters is refused with a short message.
    let mut south = server.socket(&game, Some(&kato), None).await;
    let long = "Q".repeat(15_000);
    south
        .send(json!({"t": "move", "id": "x", "d": {"move": long}}))
        .await;
    let error = south.recv_type("error").await;
    assert_eq!(error["d"]["code"], "bad_move");
    let message = error["d"]["message"].as_str().unwrap();
    assert!(
        message.chars().count() <= 161,
        "{} characters",
        message.chars().count()
    );

    // HTTP refusals, each with {"error":{"code","message"}}.
    let upper = game.to_uppercase();
    let simple = game.replace('-', "");
    let cases: Vec<(reqwest::RequestBuilder, u16, &str)> = vec![
        (
            server.http.get(server.url("/no/such/page")),
            404,
            "not_found",
        ),
        (
            server.http.put(server.url("/api/games")).bearer_auth(&kato),
            405,
            "method_not_allowed",
        ),
        (
            server
                .http
                .post(server.url("/api/session"))
                .header("Content-Type", "application/json")
                .body(format!(r#"{{"name":"{}"}}"#, "a".repeat(100 * 1024))),
            413,
            "too_large",
        ),
        (
            server
                .http
                .get(server.url(&format!("/api/games/{upper}")))
                .bearer_auth(&kato),
            404,
            "not_found",
        ),
        (
            server
                .http
                .get(server.url(&format!("/api/games/{simple}")))
                .bearer_auth(&kato),
            404,
            "not_found",
        ),
        (
            server
                .http
                .get(server.url(&format!("/api/games/{{{game}}}")))
                .bearer_auth(&kato),
            404,
            "not_found",
        ),
        (
            server
                .http
                .get(server.url("/api/games?list=bad"))
                .bearer_auth(&kato),
            400,
            "bad_list",
        ),
    ];
    for (request, status, code) in cases {
        let answer = request.send().await.unwrap();
        assert_eq!(answer.status().as_u16(), status);
        let body: Value = answer.json().await.expect("a JSON body");
        assert_eq!(body["error"]["code"], code, "{body}");
        assert!(!body["error"]["message"].as_str().unwrap().is_empty());
    }
    while !probe.has_enough() {
        let answer = server
            .http
            .get(server.url("/no/such/page"))
            .send()
            .await
            .unwrap();
        assert_eq!(answer.status(), 404);
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert_every_move_went_through("protocol edges", &probe.finish().await);
    server.stop().await;
}

/// The session cache is bounded: past its size the least recently used sessions leave
/// memory, and are found in the database again when they come back.
#[tokio::test]
async fn the_session_cache_is_bounded_and_forgets_nothing() {
    let store = omweso_server::store::Store::open("sqlite::memory:")
        .await
        .unwrap();
    let (writer, task) = omweso_server::store::Writer::spawn(store.clone(), 64);
    let sessions = omweso_server::session::Sessions::new(store.clone(), writer.clone(), 3);
    let mut made = Vec::new();
    for i in 0..10 {
        made.push(sessions.create(Some(&format!("P{i}"))).await.unwrap());
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
