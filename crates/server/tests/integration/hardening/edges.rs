//! The edges: cross-site requests, the headers of https deployments, a socket opened before joining, the protocol's edges as the RFCs say.

use crate::common::probe::{assert_every_move_went_through, LatencyProbe};
use crate::common::{Remote, SeatedGame, TestServer};
use serde_json::{json, Value};
use std::time::Duration;

use super::*;

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
