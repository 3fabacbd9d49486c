//! The game server end to end: a real server on port 0, real HTTP and WebSocket clients.
//!
//! About 650 lines: one game's whole life over the protocol (play, decisions, the referee,
//! Mweiso's opening, Oware, `?v=`, refusals, shutdown, presence), each test short and
//! sharing `seated` and `play_out`; the other suites are split by what they attack.

use std::time::Duration;

use crate::common::{Client, Remote, SeatedGame, TestServer};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};

/// Two players seated in a new game of `body`; returns (game, south token, north token).
async fn seated(server: &Remote, body: Value) -> (String, String, String) {
    let SeatedGame {
        id: game,
        south: kato,
        north: nakato,
        ..
    } = SeatedGame::new(server, body).await;
    (game, kato, nakato)
}

/// Plays random legal moves (and random answers at decision points) until the game ends.
async fn play_out(
    server: &Remote,
    game: &str,
    tokens: [&str; 2],
    sockets: &mut [Client; 2],
    seed: u64,
) -> Value {
    let mut rng = SmallRng::seed_from_u64(seed);
    for turn in 0..2000 {
        let snap = server.snapshot(tokens[0], game).await;
        if snap["status"] != "playing" {
            return snap;
        }
        let side = if snap["to_move"] == "s" { 0 } else { 1 };
        let message = if let Some(options) = snap["pending"].as_array() {
            let choice = options[rng.random_range(0..options.len())].clone();
            json!({"t": "decide", "d": {"choice": choice}})
        } else {
            let moves = server.snapshot(tokens[side], game).await["legal_moves"]
                .as_array()
                .unwrap()
                .clone();
            let first = moves[rng.random_range(0..moves.len())]
                .as_str()
                .unwrap()
                .split('/')
                .next()
                .unwrap()
                .to_owned();
            json!({"t": "move", "d": {"move": first}})
        };
        let answer = sockets[side].request(&format!("r{turn}"), message).await;
        assert_eq!(answer["t"], "ack", "{answer}");
    }
    panic!("the game did not end in 2000 turns");
}

/// Collects versioned events until `end`, on a task of its own so its queue never fills.
fn collect_until_end(mut client: Client) -> tokio::task::JoinHandle<Vec<Value>> {
    tokio::spawn(async move {
        let mut events = Vec::new();
        loop {
            let m = client.recv_event().await;
            let end = m["t"] == "end";
            events.push(m);
            if end {
                return events;
            }
        }
    })
}

#[tokio::test]
async fn a_whole_omweso_game_with_a_spectator_seeing_every_event_in_order() {
    let server = TestServer::start("sqlite::memory:").await;
    let (game, kato, nakato) = seated(&server, json!({"ruleset": "omweso"})).await;
    let (watcher, _) = server.session("Watcher").await;
    let mut spectator = server.socket(&game, Some(&watcher), None).await;
    let first = spectator.recv().await;
    assert_eq!(first["t"], "state");
    assert_eq!(first["d"]["you"], Value::Null);
    assert_eq!(first["d"]["status"], "playing");
    let start_version = first["v"].as_u64().unwrap();
    let watching = collect_until_end(spectator);
    let mut sockets = [
        server.socket(&game, Some(&kato), None).await,
        server.socket(&game, Some(&nakato), None).await,
    ];
    let end = play_out(&server, &game, [&kato, &nakato], &mut sockets, 7).await;
    assert!(
        end["status"] == "finished" || end["status"] == "annulled",
        "{end}"
    );
    let seen = tokio::time::timeout(Duration::from_secs(10), watching)
        .await
        .unwrap()
        .unwrap();
    // Every event, each version exactly one more than the last.
    for (i, event) in seen.iter().enumerate() {
        assert_eq!(
            event["v"].as_u64().unwrap(),
            start_version + 1 + i as u64,
            "{event}"
        );
    }
    assert_eq!(seen.last().unwrap()["d"]["outcome"], end["outcome"]);
    let played: Vec<&Value> = seen
        .iter()
        .filter(|e| e["t"] == "played" && e["d"]["pending"] == false)
        .collect();
    assert_eq!(played.len(), end["history"].as_array().unwrap().len());
    assert_eq!(
        end["version"].as_u64().unwrap(),
        seen.last().unwrap()["v"].as_u64().unwrap()
    );
    server.stop().await;
}

#[tokio::test]
async fn a_turn_with_decision_points_answered_over_the_socket() {
    let server = TestServer::start("sqlite::memory:").await;
    let (game, kato, nakato) = seated(&server, json!({"ruleset": "mweiso"})).await;
    server.play_mweiso_opening(&game, &kato, &nakato).await;
    let mut south = server.socket(&game, Some(&kato), None).await;
    south.recv_type("state").await;
    // After Mweiso's opening: A1' captures directly, then the chain asks a, c or l.
    let ack = south
        .request("1", json!({"t":"move","d":{"move":"A1'"}}))
        .await;
    assert_eq!(ack["t"], "ack");
    let played = south.recv_type("played").await;
    assert_eq!(played["d"]["pending"], true);
    assert_eq!(played["d"]["move"], "A1'");
    assert_eq!(played["d"]["laps"][0]["dir"], "c");
    assert_eq!(played["d"]["laps"][0]["kind"], "capture");
    let mut decision = south.recv_type("decision").await;
    // What each option would do comes with the decision (addition: `results`).
    let results = decision["d"]
        .as_object_mut()
        .and_then(|d| d.remove("results"))
        .unwrap();
    assert_eq!(
        decision["d"],
        json!({"by":"s","options":["a","c","l"],"clock": decision["d"]["clock"]})
    );
    let choices: Vec<&Value> = results
        .as_array()
        .unwrap()
        .iter()
        .map(|r| &r["choice"])
        .collect();
    assert_eq!(choices, [&json!("a"), &json!("c"), &json!("l")]);
    // "l" leaves the captured seeds and goes on from B2 (5 seeds clockwise to G2, taking
    // G3 and G4), to the next decision; those 5 sown clockwise again would end at G2, its
    // column now empty, so no "c".
    assert_eq!(results[2]["decision"], json!(["a", "l"]));
    assert_eq!(results[2]["laps"][0]["from"], "B2");
    assert!(decision["d"]["clock"]["move_deadline"].as_u64().is_some());
    let snap = server.snapshot(&kato, &game).await;
    assert_eq!(snap["pending"], json!(["a", "c", "l"]));
    // A wrong answer changes nothing.
    let refused = south
        .request("2", json!({"t":"decide","d":{"choice":"x"}}))
        .await;
    assert_eq!(refused["d"]["code"], "bad_decision");
    assert_eq!(
        server.snapshot(&kato, &game).await["version"],
        snap["version"]
    );
    let ack = south
        .request("3", json!({"t":"decide","d":{"choice":"a"}}))
        .await;
    assert_eq!(ack["t"], "ack");
    let played = south.recv_type("played").await;
    assert_eq!(played["d"]["move"], "A1'/a");
    assert_eq!(played["d"]["pending"], false);
    // It did exactly what the decision said "a" would do.
    assert_eq!(played["d"]["laps"], results[0]["laps"]);
    assert_eq!(played["d"]["position"], results[0]["position"]);
    assert_eq!(snap["pending_results"], results);
    server.stop().await;
}

#[tokio::test]
async fn the_referee_count_runs_out_and_the_opponent_steals_the_turn() {
    let server = TestServer::start("sqlite::memory:").await;
    let (game, kato, nakato) = seated(
        &server,
        json!({"ruleset":"omweso","time_control":{"preset":"tournament","referee_seconds":0.3}}),
    )
    .await;
    // South comes to the table and does not move.
    let mut south = server.socket(&game, Some(&kato), None).await;
    south.recv_type("state").await;
    let mut north = server.socket(&game, Some(&nakato), None).await;
    let state = north.recv_type("state").await;
    assert_eq!(state["d"]["clock"]["steal_open"], false);
    // The first turn's count starts once both are at the table: with North's arrival.
    assert_eq!(state["d"]["clock"]["referee_deadline"], Value::Null);
    let count = north.recv_type("count").await;
    assert!(count["d"]["clock"]["referee_deadline"].as_u64().is_some());
    // Too early: not North's turn.
    let refused = north
        .request("1", json!({"t":"move","d":{"move":"A4"}}))
        .await;
    assert_eq!(refused["d"]["code"], "not_your_turn");
    let steal = north.recv_type("steal").await;
    assert_eq!(steal["d"]["victim"], "s");
    let ack = north
        .request("2", json!({"t":"move","d":{"move":"A4"}}))
        .await;
    assert_eq!(ack["t"], "ack", "{ack}");
    let played = north.recv_type("played").await;
    assert_eq!(played["d"]["stolen"], true);
    assert_eq!(played["d"]["by"], "n");
    let snap = server.snapshot(&nakato, &game).await;
    assert_eq!(snap["to_move"], "s");
    // North's A4 (4 seeds) sows A3, B3, C3 and D3, which was empty.
    assert_eq!(
        snap["history"][0],
        json!({"by":"n","move":"A4","stolen":true,
               "position":"0,4,4,4,4,4,4,4/1,1,1,1,0,0,0,0/0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,4 s"})
    );
    server.stop().await;
}

#[tokio::test]
async fn a_decision_left_too_long_annuls_the_game_under_the_move_limit() {
    let server = TestServer::start("sqlite::memory:").await;
    // Omweso from `even` (2 seeds everywhere): A1' captures at B2, its seeds sown
    // clockwise again would capture at D2, so the turn waits for `a` or `c`. (Mweiso's
    // opening never starts clockwise, and its turns sow more than a second's 4 seeds.)
    let (game, kato, _) = seated(
        &server,
        json!({"ruleset":"omweso","setup":"even","time_control":{"move_limit_seconds":1.0}}),
    )
    .await;
    let mut south = server.socket(&game, Some(&kato), None).await;
    south
        .request("1", json!({"t":"move","d":{"move":"A1'"}}))
        .await;
    let end = south.recv_type("end").await;
    assert_eq!(
        end["d"]["outcome"],
        json!({"result":"annulled","reason":"budget"})
    );
    assert_eq!(server.snapshot(&kato, &game).await["status"], "annulled");
    server.stop().await;
}

#[tokio::test]
async fn mweiso_simultaneous_opening() {
    let server = TestServer::start("sqlite::memory:").await;
    let (game, kato, nakato) = seated(&server, json!({"ruleset": "mweiso"})).await;
    let mut south = server.socket(&game, Some(&kato), None).await;
    let mut north = server.socket(&game, Some(&nakato), None).await;
    let state = north.recv_type("state").await;
    assert_eq!(state["d"]["opening"], json!(["s", "n"]));
    // North's turn is received first: North moves first in the main phase.
    let ack = north
        .request("n1", json!({"t":"move","d":{"move":"A4"}}))
        .await;
    assert_eq!(ack["t"], "ack", "{ack}");
    let snap = server.snapshot(&kato, &game).await;
    assert_eq!(snap["opening"], json!(["s"]));
    // A pit emptied by North's captures is refused: South chooses again.
    let south_moves: Vec<String> = snap["legal_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().split('/').next().unwrap().to_owned())
        .collect();
    let refused = south
        .request("s0", json!({"t":"move","d":{"move":"D1"}}))
        .await;
    assert_eq!(refused["d"]["code"], "illegal_move");
    let ack = south
        .request(
            "s1",
            json!({"t":"move","d":{"move": south_moves.last().unwrap()}}),
        )
        .await;
    if ack["t"] == "ack" {
        let snap = server.snapshot(&kato, &game).await;
        if snap["status"] == "playing" && snap["pending"].is_null() {
            assert_eq!(snap["to_move"], "n");
            assert_eq!(snap["opening"], json!([]));
        }
    }
    server.stop().await;
}

#[tokio::test]
async fn an_oware_game_to_its_end() {
    let server = TestServer::start("sqlite::memory:").await;
    let (game, kato, nakato) = seated(&server, json!({"ruleset": "oware"})).await;
    let mut sockets = [
        server.socket(&game, Some(&kato), None).await,
        server.socket(&game, Some(&nakato), None).await,
    ];
    let end = play_out(&server, &game, [&kato, &nakato], &mut sockets, 3).await;
    assert_eq!(end["status"], "finished", "{end}");
    assert!(end["position"].as_str().unwrap().contains(" "));
    server.stop().await;
}

#[tokio::test]
async fn reconnecting_with_v_gets_exactly_the_missed_events() {
    let server = TestServer::start("sqlite::memory:").await;
    let (game, kato, nakato) = seated(&server, json!({"ruleset": "oware"})).await;
    let mut watcher = server.socket(&game, None, None).await;
    let seen = watcher.recv_type("state").await["v"].as_u64().unwrap();
    drop(watcher);
    let mut south = server.socket(&game, Some(&kato), None).await;
    let mut north = server.socket(&game, Some(&nakato), None).await;
    south
        .request("1", json!({"t":"move","d":{"move":"C1"}}))
        .await;
    north
        .request("2", json!({"t":"move","d":{"move":"C2"}}))
        .await;
    let mut back = server.socket(&game, None, Some(seen)).await;
    let a = back.recv().await;
    let b = back.recv().await;
    assert_eq!(
        (a["t"].as_str(), a["v"].as_u64()),
        (Some("played"), Some(seen + 1))
    );
    assert_eq!(
        (b["t"].as_str(), b["v"].as_u64()),
        (Some("played"), Some(seen + 2))
    );
    assert_eq!(a["d"]["move"], "C1");
    assert_eq!(b["d"]["move"], "C2");
    assert_eq!(back.recv().await["t"], "crowd");
    // A version from the future (or one too old to replay) gets a fresh state.
    let mut lost = server.socket(&game, None, Some(seen + 99)).await;
    assert_eq!(lost.recv().await["t"], "state");
    server.stop().await;
}

#[tokio::test]
async fn bad_input_is_refused_with_a_reason_and_changes_nothing() {
    let server = TestServer::start("sqlite::memory:").await;
    let (game, kato, nakato) = seated(&server, json!({"ruleset": "omweso"})).await;
    let (watcher, _) = server.session("Watcher").await;
    let mut south = server.socket(&game, Some(&kato), None).await;
    let north = server.socket(&game, Some(&nakato), None).await;
    let spectator = server.socket(&game, Some(&watcher), None).await;
    let before = server.snapshot(&kato, &game).await;
    south.send_text("not json".into()).await;
    assert_eq!(south.recv_type("error").await["d"]["code"], "bad_message");
    south
        .send_text(format!(
            "{{\"t\":\"move\",\"d\":{{\"move\":\"{}\"}}}}",
            "x".repeat(20_000)
        ))
        .await;
    assert_eq!(south.recv_type("error").await["d"]["code"], "too_large");
    let mut clients = [south, north, spectator];
    let cases = [
        (0, json!({"t":"fly","d":{}}), "unknown_type"),
        (1, json!({"t":"move","d":{"move":"A4"}}), "not_your_turn"),
        (2, json!({"t":"move","d":{"move":"E1"}}), "spectator"),
        (0, json!({"t":"move","d":{"move":"A2"}}), "illegal_move"),
        (0, json!({"t":"move","d":{"move":"E9"}}), "bad_move"),
        (0, json!({"t":"decide","d":{"choice":"a"}}), "no_decision"),
        (0, json!({"t":"move","d":{}}), "bad_message"),
        (
            0,
            json!({"t":"move","d":{"move":"E1","x":1}}),
            "bad_message",
        ),
        (0, json!({"t":"arrange","d":{"pits":[2]}}), "no_arrangement"),
    ];
    for (i, (who, message, code)) in cases.into_iter().enumerate() {
        let answer = clients[who]
            .request(&format!("bad{i}"), message.clone())
            .await;
        assert_eq!(answer["t"], "error", "{message}");
        assert_eq!(answer["d"]["code"], code, "{message}: {answer}");
        assert!(!answer["d"]["message"].as_str().unwrap().is_empty());
    }
    let after = server.snapshot(&kato, &game).await;
    assert_eq!(after["version"], before["version"]);
    assert_eq!(after["position"], before["position"]);
    // A browser page from another site may not open a game socket.
    let mut request =
        format!("ws://{}/ws/games/{game}", server.addr).into_client_request_for_test();
    request
        .headers_mut()
        .insert("Origin", "http://evil.example".parse().unwrap());
    assert!(tokio_tungstenite::connect_async(request).await.is_err());
    server.stop().await;
}

trait IntoRequest {
    fn into_client_request_for_test(
        self,
    ) -> tokio_tungstenite::tungstenite::handshake::client::Request;
}

impl IntoRequest for String {
    fn into_client_request_for_test(
        self,
    ) -> tokio_tungstenite::tungstenite::handshake::client::Request {
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        self.into_client_request().unwrap()
    }
}

#[tokio::test]
async fn too_many_messages_are_rate_limited() {
    let server = TestServer::start("sqlite::memory:").await;
    let (game, kato, _) = seated(&server, json!({"ruleset": "omweso"})).await;
    let mut south = server.socket(&game, Some(&kato), None).await;
    // The test server allows 200 a second, bursts of 400.
    for i in 0..1000 {
        south.send(json!({"t":"ping","d":{},"id":i})).await;
    }
    let mut limited = None;
    while let Some(m) = south.try_recv(Duration::from_secs(1)).await {
        if m["t"] == "error" && m["d"]["code"] == "rate_limited" {
            limited = Some(m);
            break;
        }
    }
    // The refusal names the message it refuses.
    let limited = limited.expect("a rate_limited error");
    assert!(limited["d"]["id"].as_u64().unwrap() >= 400, "{limited}");
    server.stop().await;
}

#[tokio::test]
async fn http_refusals_say_what_is_wrong() {
    let server = TestServer::start("sqlite::memory:").await;
    let health = server
        .http
        .get(server.url("/healthz"))
        .send()
        .await
        .unwrap();
    assert_eq!(health.status(), 200);
    let (token, _) = server.session("Kato").await;
    let (status, body) = server.post("/api/games", "nope", json!({})).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (401, Some("no_session"))
    );
    let (status, body) = server
        .post("/api/games", &token, json!({"ruleset":"chess"}))
        .await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (400, Some("bad_body"))
    );
    let (status, body) = server
        .post(
            "/api/games",
            &token,
            json!({"time_control":{"referee_seconds":-1}}),
        )
        .await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (400, Some("bad_time_control"))
    );
    let game = server.create(&token, json!({})).await;
    let (other, _) = server.session("Nakato").await;
    let (third, _) = server.session("Third").await;
    server.join(&other, &game).await;
    let (status, body) = server
        .post(&format!("/api/games/{game}/join"), &third, json!({}))
        .await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (409, Some("seats_taken"))
    );
    let (status, _) = server
        .get("/api/games/00000000-0000-0000-0000-000000000000", &token)
        .await;
    assert_eq!(status, 404);
    let (status, body) = server
        .post("/api/session", "", json!({"name": "x".repeat(40)}))
        .await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (400, Some("bad_name"))
    );
    server.stop().await;
}

#[tokio::test]
async fn shutdown_closes_sockets_with_a_close_frame() {
    let server = TestServer::start("sqlite::memory:").await;
    let (game, kato, _) = seated(&server, json!({})).await;
    let mut south = server.socket(&game, Some(&kato), None).await;
    south.recv_type("state").await;
    let stopping = tokio::spawn(server.stop());
    let mut closed = None;
    while let Ok(Some(frame)) = tokio::time::timeout(
        Duration::from_secs(5),
        futures_util::StreamExt::next(&mut south.ws),
    )
    .await
    {
        if let Ok(tokio_tungstenite::tungstenite::Message::Close(frame)) = frame {
            closed = frame;
            break;
        }
    }
    assert_eq!(closed.map(|f| u16::from(f.code)), Some(1001));
    stopping.await.unwrap();
}

#[tokio::test]
async fn lobby_me_preview_and_the_page() {
    let server = TestServer::start("sqlite::memory:").await;
    let (kato, kato_id) = server.session("Kato").await;
    let (status, me) = server.get("/api/me", &kato).await;
    assert_eq!(status, 200);
    // A guest (no username), on the device its session is.
    let device = me["device_id"].as_str().expect("a device id").to_owned();
    assert!(uuid::Uuid::parse_str(&device).is_ok(), "{me}");
    assert_eq!(
        me,
        json!({"player_id": kato_id, "name": "Kato", "device_id": device})
    );
    assert_eq!(server.get("/api/me", "nope").await.0, 401);

    let open = server.create(&kato, json!({"ruleset":"oware"})).await;
    let (status, list) = server.get("/api/games?list=open", &kato).await;
    assert_eq!(status, 200);
    assert_eq!(list["games"][0]["game_id"], open);
    assert_eq!(list["games"][0]["seats"], json!({"s":"Kato","n":null}));
    assert_eq!(
        server.get("/api/games?list=live", &kato).await.1["games"],
        json!([])
    );
    assert_eq!(server.get("/api/games?list=x", &kato).await.0, 400);

    let (nakato, _) = server.session("Nakato").await;
    server.join(&nakato, &open).await;
    assert_eq!(
        server.get("/api/games?list=open", &kato).await.1["games"],
        json!([])
    );
    assert_eq!(
        server.get("/api/games?list=live", &kato).await.1["games"][0]["game_id"],
        open
    );

    // What each start would do comes with the snapshot: C1's 4 seeds go to D1, E1, F1,
    // F2, capturing nothing. North may not move, so it has no entry.
    let snap = server.snapshot(&kato, &open).await;
    let c1 = snap["legal"]["s"]["starts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["start"] == "C1")
        .cloned();
    assert_eq!(
        c1,
        Some(
            json!({"start":"C1","laps":1,"seeds":4,"captured":0,"ends_at":"F2",
            "decision":null,"outcome":null})
        )
    );
    assert_eq!(snap["legal"]["s"]["moves"], snap["legal_moves"]);
    assert_eq!(snap["legal"]["n"], Value::Null);
    assert_eq!(snap["history"], json!([]));
    // The preview round trip is retired: the events carry what it answered.
    let (status, _) = server
        .post(
            &format!("/api/games/{open}/preview"),
            &kato,
            json!({"move":"C1"}),
        )
        .await;
    assert_eq!(status, 404);

    // The history carries the position after each move.
    let mut south = server.socket(&open, Some(&kato), None).await;
    south
        .send(json!({"t":"move","d":{"move":"C1"},"id":"1"}))
        .await;
    south.recv_type("ack").await;
    let snap = server.snapshot(&kato, &open).await;
    assert_eq!(
        snap["history"][0]["position"],
        "4,4,4,4,4,5/4,4,0,5,5,5 n 0 0"
    );

    // The page itself, for /, /g/{id} and the how-to-play pages (`/howto` itself lists
    // the games: it was a JSON 404, issue 40).
    for path in [
        "/".to_owned(),
        format!("/g/{open}"),
        "/howto".to_owned(),
        "/howto/omweso".to_owned(),
        "/howto/oware".to_owned(),
    ] {
        let page = server.http.get(server.url(&path)).send().await.unwrap();
        assert_eq!(page.status(), 200, "{path}");
        assert!(page.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/html"));
    }
    let missing = server
        .http
        .get(server.url("/static/../Cargo.toml"))
        .send()
        .await
        .unwrap();
    assert_eq!(missing.status(), 404);
    let hidden = server
        .http
        .get(server.url("/static/package.json"))
        .send()
        .await
        .unwrap();
    assert_eq!(hidden.status(), 404);
    server.stop().await;
}

#[tokio::test]
async fn a_player_away_longer_than_the_grace_loses_and_one_who_returns_does_not() {
    let server = TestServer::start("sqlite::memory:").await;
    let (game, kato, nakato) = seated(
        &server,
        json!({"ruleset":"oware","time_control":{"disconnect_grace_seconds":0.6}}),
    )
    .await;
    let mut south = server.socket(&game, Some(&kato), None).await;
    let north = server.socket(&game, Some(&nakato), None).await;
    south.recv_type("state").await;
    // North leaves and comes back within the grace: nothing happens.
    drop(north);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let north = server.socket(&game, Some(&nakato), None).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(server.snapshot(&kato, &game).await["status"], "playing");
    // North leaves for good.
    drop(north);
    let end = south.recv_type("end").await;
    assert_eq!(
        end["d"]["outcome"],
        json!({"result":"win","winner":"s","victory":"abandoned"})
    );
    server.stop().await;
}
