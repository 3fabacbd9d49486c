//! The pushed lobby (`GET /ws/lobby`) against the real server: its first message and a
//! push for every change (a game created, joined and so live, a tournament created and
//! joined), each exactly the HTTP lists; a burst of changes coalesced into a few pushes,
//! the last one current; `ping` and a refused message; no session, no socket; closed at
//! shutdown. On SQLite, and on PostgreSQL when `TEST_POSTGRES_URL` is set.

use std::time::Duration;

use crate::common::{Client, Remote, TestServer};
use omweso_server::lobby::feed::PUSH_EVERY;
use serde_json::{json, Value};

/// The next `lobby` message's `d` (other messages skipped), within 5 s.
async fn next_lobby(socket: &mut Client) -> Value {
    loop {
        let m = socket.recv().await;
        if m["t"] == "lobby" {
            return m["d"].clone();
        }
    }
}

/// The pushes until one satisfies `done` ([`PATIENCE`] at most): that one, and how many came.
async fn lobby_until(
    socket: &mut Client,
    what: &str,
    done: impl Fn(&Value) -> bool,
) -> (Value, usize) {
    let deadline = tokio::time::Instant::now() + crate::common::PATIENCE;
    let mut pushes = 0;
    loop {
        let left = deadline.saturating_duration_since(tokio::time::Instant::now());
        let m = socket.try_recv(left).await.unwrap_or_else(|| {
            panic!(
                "no push showing {what} within {:?}",
                crate::common::PATIENCE
            )
        });
        if m["t"] != "lobby" {
            continue;
        }
        pushes += 1;
        if done(&m["d"]) {
            return (m["d"].clone(), pushes);
        }
    }
}

/// What the HTTP calls answer now, in the shape of `lobby`'s `d`.
async fn http_lobby(server: &Remote, token: &str) -> Value {
    let mut lists = Vec::new();
    for path in [
        "/api/games?list=open",
        "/api/games?list=live",
        "/api/tournaments?list=open",
        "/api/tournaments?list=running",
        "/api/tournaments?list=finished",
    ] {
        let (status, body) = server.get(path, token).await;
        assert_eq!(status, 200, "{path}: {body}");
        let items = body.get("games").or_else(|| body.get("tournaments"));
        lists.push(items.cloned().expect("a list"));
    }
    let [open, live, t_open, running, finished] = <[Value; 5]>::try_from(lists).unwrap();
    json!({"open_games": open, "live_games": live,
           "tournaments": {"open": t_open, "running": running, "finished": finished}})
}

fn ids(list: &Value, key: &str) -> Vec<String> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|item| item[key].as_str().unwrap().to_owned())
        .collect()
}

fn game_ids(list: &Value) -> Vec<String> {
    ids(list, "game_id")
}

async fn lobby_follows_every_change(database_url: &str) {
    let server = TestServer::start(database_url).await;
    let (kato, _) = server.session("Kato").await;
    let first = server.create(&kato, json!({"ruleset":"omweso"})).await;
    // The feed pushes a change at most PUSH_EVERY after the last push, SETTLE after the
    // change: a socket opened meanwhile gets the lobby before it, then the one with the
    // game (waited for, not slept for).
    let mut socket = server.socket_at(&format!("/ws/lobby?token={kato}")).await;
    let (lobby, _) = lobby_until(&mut socket, "the first game", |d| {
        !game_ids(&d["open_games"]).is_empty()
    })
    .await;
    assert_eq!(game_ids(&lobby["open_games"]), [first.as_str()]);
    assert_eq!(
        lobby["open_games"][0]["seats"],
        json!({"s":"Kato","n":null})
    );
    assert_eq!(lobby, http_lobby(&server, &kato).await);
    assert_eq!(
        lobby["tournaments"],
        json!({"open":[],"running":[],"finished":[]})
    );

    // A game created: pushed, newest first.
    let second = server.create(&kato, json!({"ruleset":"oware"})).await;
    let (lobby, _) = lobby_until(&mut socket, "the second game", |d| {
        game_ids(&d["open_games"]).contains(&second)
    })
    .await;
    assert_eq!(
        game_ids(&lobby["open_games"]),
        [second.clone(), first.clone()]
    );
    assert_eq!(game_ids(&lobby["live_games"]), Vec::<String>::new());
    assert_eq!(lobby, http_lobby(&server, &kato).await);

    // Joined: it leaves the open games for the live ones.
    let (nakato, _) = server.session("Nakato").await;
    assert_eq!(server.join(&nakato, &second).await, "n");
    let (lobby, _) = lobby_until(&mut socket, "the second game live", |d| {
        game_ids(&d["live_games"]) == [second.clone()]
    })
    .await;
    assert_eq!(game_ids(&lobby["open_games"]), [first.as_str()]);
    assert_eq!(lobby["live_games"][0]["status"], "playing");
    assert_eq!(
        lobby["live_games"][0]["seats"],
        json!({"s":"Kato","n":"Nakato"})
    );
    assert_eq!(lobby, http_lobby(&server, &kato).await);

    // A tournament created, then joined.
    let (status, created) = server
        .post("/api/tournaments", &kato, json!({"name":"Kampala Open"}))
        .await;
    assert_eq!(status, 201, "{created}");
    let tournament = created["tournament_id"].as_str().unwrap().to_owned();
    let (lobby, _) = lobby_until(&mut socket, "the tournament", |d| {
        !d["tournaments"]["open"].as_array().unwrap().is_empty()
    })
    .await;
    assert_eq!(
        lobby["tournaments"],
        json!({"open":[{"tournament_id": tournament, "name":"Kampala Open","ruleset":"omweso",
            "system":"swiss","status":"open","players":0,"round":0}],
            "running":[],"finished":[]})
    );
    assert_eq!(lobby, http_lobby(&server, &kato).await);
    let (apio, _) = server.session("Apio").await;
    let (status, joined) = server
        .post(
            &format!("/api/tournaments/{tournament}/join"),
            &apio,
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{joined}");
    let (lobby, _) = lobby_until(&mut socket, "the tournament's player", |d| {
        d["tournaments"]["open"][0]["players"] == 1
    })
    .await;
    assert_eq!(
        ids(&lobby["tournaments"]["open"], "tournament_id"),
        [tournament]
    );
    assert_eq!(lobby, http_lobby(&server, &kato).await);

    // The client may only ping.
    socket.send(json!({"t":"ping","d":{}})).await;
    assert_eq!(socket.recv_type("pong").await, json!({"t":"pong","d":{}}));
    socket
        .send(json!({"t":"move","d":{"move":"E1"},"id":"m1"}))
        .await;
    assert_eq!(
        socket.recv_type("error").await,
        json!({"t":"error","d":{"code":"unknown_type","message":"a lobby socket only takes ping"}})
    );
    socket.send_text("{".into()).await;
    let refused = socket.recv_type("error").await;
    assert_eq!(refused["d"]["code"], "bad_message", "{refused}");
    server.stop().await;
}

#[tokio::test]
async fn the_lobby_follows_every_change_with_sqlite() {
    crate::common::on_sqlite_file(async |url| lobby_follows_every_change(&url).await).await;
}

#[tokio::test]
async fn the_lobby_follows_every_change_with_postgres() {
    crate::common::on_postgres("omweso_lobby", async |url| {
        lobby_follows_every_change(&url).await
    })
    .await;
}

#[tokio::test]
async fn a_burst_of_changes_is_a_few_pushes_and_the_last_is_current() {
    const GAMES: usize = 30;
    let server = TestServer::start("sqlite::memory:").await;
    let (kato, _) = server.session("Kato").await;
    let mut socket = server.socket_at(&format!("/ws/lobby?token={kato}")).await;
    let lobby = next_lobby(&mut socket).await;
    assert_eq!(lobby["open_games"], json!([]));

    let creations = (0..GAMES).map(|_| server.create(&kato, json!({"ruleset":"oware"})));
    let created = futures_util::future::join_all(creations).await;
    let (lobby, pushes) = lobby_until(&mut socket, "every game", |d| {
        d["open_games"].as_array().unwrap().len() == GAMES
    })
    .await;
    assert!(
        pushes <= GAMES / 3,
        "{pushes} pushes for {GAMES} games created at once"
    );
    let mut listed = game_ids(&lobby["open_games"]);
    let mut created = created;
    listed.sort();
    created.sort();
    assert_eq!(listed, created);
    assert_eq!(lobby, http_lobby(&server, &kato).await);
    // Nothing changed since: no push, not even of the same lists again.
    let more = socket.try_recv(3 * PUSH_EVERY).await;
    assert_eq!(more, None, "a push with nothing changed");
    server.stop().await;
}

#[tokio::test]
async fn the_lobby_socket_needs_a_session_and_closes_at_shutdown() {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let server = TestServer::start("sqlite::memory:").await;
    for query in ["", "?token=nope"] {
        let request = format!("ws://{}/ws/lobby{query}", server.addr)
            .into_client_request()
            .unwrap();
        match tokio_tungstenite::connect_async(request).await {
            Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
                assert_eq!(response.status(), 401, "{query}");
            }
            other => panic!("{query}: not refused: {other:?}"),
        }
    }
    // The cookie works as well as the token.
    let (kato, _) = server.session("Kato").await;
    let mut request = format!("ws://{}/ws/lobby", server.addr)
        .into_client_request()
        .unwrap();
    request
        .headers_mut()
        .insert("Cookie", format!("omweso_session={kato}").parse().unwrap());
    let (ws, _) = tokio_tungstenite::connect_async(request).await.unwrap();
    let mut socket = Client { ws };
    next_lobby(&mut socket).await;

    let stopping = tokio::spawn(server.stop());
    let closed = socket.close_frame().await;
    assert_eq!(closed.map(|f| u16::from(f.code)), Some(1001));
    tokio::time::timeout(Duration::from_secs(5), stopping)
        .await
        .expect("the server stops at once")
        .unwrap();
}
