//! Games against the computer, end to end: a real server on port 0, a real SQLite file,
//! real HTTP and WebSocket clients. The person plays random legal moves; the computer
//! plays through the same table, log and events, and goes on after a restart.

use std::time::{Duration, Instant};

use crate::common::{Client, Remote, TestServer};
use omweso_server::config::ServeConfig;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};

/// An SQLite file of its own, removed when dropped.
struct DbFile(std::path::PathBuf);

impl DbFile {
    fn new() -> DbFile {
        let name = format!("omweso-computer-{}.db", uuid::Uuid::new_v4());
        DbFile(std::env::temp_dir().join(name))
    }

    fn url(&self) -> String {
        format!("sqlite://{}", self.0.display())
    }
}

impl Drop for DbFile {
    fn drop(&mut self) {
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", self.0.display()));
        }
    }
}

fn with_delay(url: &str, delay_ms: u64) -> ServeConfig {
    let mut config = ServeConfig::for_tests(url);
    config.limits.computer_delay_ms = delay_ms;
    config
}

/// Whether `snap` waits for `me`: my turn, my decision, or my opening still owed.
fn mine(snap: &Value, me: &str) -> bool {
    snap["to_move"] == me
        || (snap["to_move"].is_null()
            && snap["opening"]
                .as_array()
                .is_some_and(|o| o.iter().any(|s| s == me)))
}

/// The snapshot once `done` holds for it, polled (within 10 s).
async fn wait_for(
    server: &Remote,
    token: &str,
    game: &str,
    done: impl Fn(&Value) -> bool,
) -> Value {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let snap = server.snapshot(token, game).await;
        if done(&snap) {
            return snap;
        }
        assert!(Instant::now() < deadline, "not within 10 s: {snap}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Waits for a versioned event past `version` (older ones, still queued, are skipped).
async fn event_after(client: &mut Client, version: u64) -> Value {
    loop {
        let m = client
            .try_recv(Duration::from_secs(20))
            .await
            .expect("the game goes on within 20 s");
        if m["v"].as_u64().is_some_and(|v| v > version) {
            return m;
        }
    }
}

/// Plays `me`'s side with random legal moves (and random answers) for at most `turns` of
/// mine, or to the end; returns the last snapshot and the versioned events seen from the
/// other side.
async fn play(
    server: &Remote,
    token: &str,
    game: &str,
    socket: &mut Client,
    me: &str,
    rng: &mut SmallRng,
    turns: usize,
) -> (Value, Vec<Value>) {
    let mut theirs = Vec::new();
    let mut played = 0;
    for round in 0..5000 {
        let snap = server.snapshot(token, game).await;
        if snap["outcome"] != Value::Null || played == turns {
            return (snap, theirs);
        }
        let version = snap["version"].as_u64().unwrap();
        if !mine(&snap, me) {
            let event = event_after(socket, version).await;
            if event["t"] == "played" && event["d"]["by"] != me {
                theirs.push(event);
            }
            continue;
        }
        let message = if let Some(options) = snap["pending"].as_array() {
            let choice = options[rng.random_range(0..options.len())].clone();
            json!({"t":"decide","d":{"choice":choice}})
        } else {
            let moves = snap["legal_moves"].as_array().unwrap();
            let pick = moves[rng.random_range(0..moves.len())].clone();
            played += 1;
            json!({"t":"move","d":{"move":pick}})
        };
        let answer = socket.request(&format!("h{round}"), message).await;
        // In Mweiso's opening the computer's opening may land first and take the pit.
        assert!(
            answer["t"] == "ack" || answer["d"]["code"] == "illegal_move",
            "{answer}"
        );
    }
    panic!("the game did not end in 5000 rounds");
}

#[tokio::test]
async fn the_computer_plays_through_the_table_and_goes_on_after_a_restart() {
    let db = DbFile::new();
    // A long least delay: the computer's answer is still waiting when the server stops.
    let server = TestServer::start_with(with_delay(&db.url(), 400)).await;
    let (kato, _) = server.session("Kato").await;
    let (watcher, _) = server.session("Apio").await;
    let (status, created) = server
        .post(
            "/api/games",
            &kato,
            json!({"seat":"second","opponent":{"computer":{"level":1}}}),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    let game = created["game_id"].as_str().unwrap().to_owned();

    // The computer holds South, always connected, and nobody else may sit down.
    let snap = server.snapshot(&kato, &game).await;
    assert_eq!(snap["status"], "playing");
    assert_eq!(snap["you"], "n");
    assert_eq!(
        snap["seats"]["s"],
        json!({"name":"Computer (level 1)","connected":true,"computer":{"level":1}})
    );
    assert_eq!(snap["seats"]["n"], json!({"name":"Kato","connected":false}));
    let (status, refused) = server
        .post(&format!("/api/games/{game}/join"), &watcher, json!({}))
        .await;
    assert_eq!(
        (status, &refused["error"]["code"]),
        (409, &json!("seats_taken"))
    );
    // The lobby shows the computer's seat.
    let (_, live) = server.get("/api/games?list=live", &kato).await;
    let listed = live["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["game_id"] == game.as_str())
        .expect("the game is live");
    assert_eq!(listed["computer"], json!({"seat":"s","level":1}));
    assert_eq!(listed["seats"]["s"], "Computer (level 1)");

    // A spectator sees the computer's first move as any move: laps to animate, the
    // position, what Kato may do next.
    let mut spectator = server.socket(&game, Some(&watcher), None).await;
    let mut socket = server.socket(&game, Some(&kato), None).await;
    let mut rng = SmallRng::seed_from_u64(14);
    let (snap, theirs) = play(&server, &kato, &game, &mut socket, "n", &mut rng, 3).await;
    assert!(theirs.len() >= 2, "{theirs:?}");
    let first = &theirs[0];
    assert_eq!(
        (&first["t"], &first["d"]["by"]),
        (&json!("played"), &json!("s"))
    );
    assert!(!first["d"]["laps"].as_array().unwrap().is_empty());
    assert!(first["d"]["legal"]["n"]["moves"].as_array().is_some());
    let state = spectator.recv_type("state").await;
    assert_eq!(state["d"]["seats"]["s"]["computer"], json!({"level":1}));
    if state["d"]["history"].as_array().unwrap().is_empty() {
        let seen = spectator.recv_type("played").await;
        assert_eq!(seen["d"]["by"], "s");
    }
    assert_eq!(snap["history"][0]["by"], "s");

    // One more move of Kato's, and the server stops while the computer's answer waits
    // out its least delay (400 ms): nothing of it was played.
    let (snap, _) = play(&server, &kato, &game, &mut socket, "n", &mut rng, 1).await;
    assert!(snap["outcome"].is_null(), "{snap}");
    let before = server.snapshot(&kato, &game).await;
    server.stop().await;

    let server = TestServer::start_with(with_delay(&db.url(), 0)).await;
    let after = server.snapshot(&kato, &game).await;
    // Rebuilt from the log: the same game, the computer in its seat.
    assert_eq!(after["seats"]["s"]["computer"], json!({"level":1}));
    assert!(after["version"].as_u64() >= before["version"].as_u64());
    assert_eq!(
        after["history"].as_array().unwrap()[..before["history"].as_array().unwrap().len()],
        before["history"].as_array().unwrap()[..]
    );
    let mut socket = server.socket(&game, Some(&kato), None).await;
    if before["outcome"].is_null() {
        // The computer's turn was waiting: it plays it now, unasked.
        assert_eq!(before["to_move"], "s");
        let moved = loop {
            let snap = server.snapshot(&kato, &game).await;
            if snap["history"].as_array().unwrap().len()
                > before["history"].as_array().unwrap().len()
            {
                break snap;
            }
            event_after(&mut socket, snap["version"].as_u64().unwrap()).await;
        };
        assert_eq!(
            moved["history"].as_array().unwrap().last().unwrap()["by"],
            "s"
        );
    }
    // And the game goes on to its end.
    let (end, _) = play(
        &server,
        &kato,
        &game,
        &mut socket,
        "n",
        &mut rng,
        usize::MAX,
    )
    .await;
    // Won, lost or drawn; or annulled, should a random move of Kato's sow past the
    // move limit's budget.
    assert!(
        end["status"] == "finished" || end["status"] == "annulled",
        "{end}"
    );
    assert!(end["legal_moves"].as_array().unwrap().is_empty());
    server.stop().await;
}

#[tokio::test]
async fn the_computer_waits_its_least_delay_before_answering() {
    let db = DbFile::new();
    let server = TestServer::start_with(with_delay(&db.url(), 300)).await;
    let (kato, _) = server.session("Kato").await;
    let game = server
        .create(&kato, json!({"opponent":{"computer":{"level":2}}}))
        .await;
    let mut socket = server.socket(&game, Some(&kato), None).await;
    let answer = socket
        .request("1", json!({"t":"move","d":{"move":"E1"}}))
        .await;
    let acked = Instant::now();
    assert_eq!(answer["t"], "ack", "{answer}");
    let played = loop {
        let m = socket.recv_type("played").await;
        if m["d"]["by"] == "n" {
            break m;
        }
    };
    let waited = acked.elapsed();
    assert!(
        waited >= Duration::from_millis(250),
        "answered after {waited:?}"
    );
    // A whole move in one go: its answers included, never left pending.
    assert_eq!(played["d"]["pending"], false);
    server.stop().await;
}

/// The computer's arrangement as the search gives it for game `game` (its seed from the
/// game's id, numbered past any move: `usize::MAX - side`), seeing `shown`.
fn searched_arrangement(game: &str, side: usize, shown: Option<&Value>, level: i64) -> Value {
    let id = uuid::Uuid::parse_str(game).unwrap();
    let shown = shown.map(|pits| {
        let pits: Vec<u64> = pits
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_u64().unwrap())
            .collect();
        omweso_rules::Arrangement::new(&pits).unwrap()
    });
    let query = omweso_search::ArrangeQuery {
        rules: omweso_rules::Rules::OMWESO,
        shown,
        max_seeds: Some(720),
        level: omweso_search::Level::new(level).unwrap(),
        seed: omweso_server::game::computer::seed(id, usize::MAX - side),
    };
    let stop = std::sync::atomic::AtomicBool::new(false);
    json!(omweso_search::arrange(&query, &stop).arrangement.counts())
}

#[tokio::test]
async fn the_computer_arranges_a_free_setup_by_its_levels_search() {
    let db = DbFile::new();
    let server = TestServer::start(&db.url()).await;
    let (kato, _) = server.session("Kato").await;
    // The computer second, at level 5: it arranges against Kato's arrangement.
    let game = server
        .create(
            &kato,
            json!({"setup":"free","seat":"first","opponent":{"computer":{"level":5}}}),
        )
        .await;
    let mut socket = server.socket(&game, Some(&kato), None).await;
    let pits = json!([0, 0, 0, 0, 0, 0, 0, 0, 4, 4, 4, 4, 4, 4, 4, 4]);
    let answer = socket
        .request("a", json!({"t":"arrange","d":{"pits":pits}}))
        .await;
    assert_eq!(answer["t"], "ack", "{answer}");
    socket.recv_type("started").await;
    let snap = server.snapshot(&kato, &game).await;
    assert_eq!(snap["arrangements"]["s"], pits);
    assert_eq!(
        snap["arrangements"]["n"],
        searched_arrangement(&game, 1, Some(&pits), 5)
    );
    // The computer first, at level 6: it arranges unasked, seeing nothing.
    let other = server
        .create(
            &kato,
            json!({"setup":"free","seat":"second","opponent":{"computer":{"level":6}}}),
        )
        .await;
    let snap = wait_for(&server, &kato, &other, |s| {
        s["arrangements"]["s"].is_array()
    })
    .await;
    assert_eq!(
        snap["arrangements"]["s"],
        searched_arrangement(&other, 0, None, 6)
    );
    assert_eq!(snap["arrangements"]["n"], Value::Null);
    server.stop().await;
}

#[tokio::test]
async fn the_computer_arranges_a_free_setup_and_plays_mweisos_opening() {
    let db = DbFile::new();
    let server = TestServer::start(&db.url()).await;
    let (kato, _) = server.session("Kato").await;
    // Free setup, the computer second: it arranges once Kato has.
    let game = server
        .create(
            &kato,
            json!({"setup":"free","seat":"first","opponent":{"computer":{"level":1}}}),
        )
        .await;
    let mut socket = server.socket(&game, Some(&kato), None).await;
    let snap = server.snapshot(&kato, &game).await;
    assert_eq!(snap["status"], "setup");
    let pits = json!([4, 4, 4, 4, 4, 4, 4, 4, 0, 0, 0, 0, 0, 0, 0, 0]);
    let answer = socket
        .request("a", json!({"t":"arrange","d":{"pits":pits}}))
        .await;
    assert_eq!(answer["t"], "ack", "{answer}");
    let started = socket.recv_type("started").await;
    assert_eq!(started["d"]["to_move"], "s");
    let snap = server.snapshot(&kato, &game).await;
    let theirs = snap["arrangements"]["n"].as_array().unwrap();
    assert_eq!(theirs.iter().map(|p| p.as_u64().unwrap()).sum::<u64>(), 32);

    // The computer first in a free setup: it arranges unasked.
    let other = server
        .create(
            &kato,
            json!({"setup":"free","seat":"second","opponent":{"computer":{"level":1}}}),
        )
        .await;
    let snap = wait_for(&server, &kato, &other, |s| {
        s["arrangements"]["s"].is_array()
    })
    .await;
    assert_eq!(snap["status"], "setup");
    assert_eq!(snap["arrangements"]["n"], Value::Null);

    // Mweiso: both owe their opening; the computer plays its own.
    let mweiso = server
        .create(
            &kato,
            json!({"ruleset":"mweiso","opponent":{"computer":{"level":1}}}),
        )
        .await;
    let mut socket = server.socket(&mweiso, Some(&kato), None).await;
    let snap = wait_for(&server, &kato, &mweiso, |s| s["history"][0].is_object()).await;
    assert_eq!(snap["history"][0]["by"], "n");
    // An opening turn may win outright (emitwe-ebiri); else Kato owes his.
    if snap["outcome"].is_null() {
        assert_eq!(snap["opening"], json!(["s"]));
        let mut rng = SmallRng::seed_from_u64(3);
        let (snap, _) = play(&server, &kato, &mweiso, &mut socket, "s", &mut rng, 2).await;
        assert!(snap["history"].as_array().unwrap().len() >= 2, "{snap}");
    }
    server.stop().await;
}

#[tokio::test]
async fn games_against_the_computer_are_bounded_and_the_level_checked() {
    let mut config = ServeConfig::for_tests("sqlite::memory:");
    config.limits.bot_games_per_session = 2;
    let server = TestServer::start_with(config).await;
    let (kato, _) = server.session("Kato").await;
    let body = json!({"opponent":{"computer":{"level":8}}});
    let (status, refused) = server
        .post(
            "/api/games",
            &kato,
            json!({"opponent":{"computer":{"level":9}}}),
        )
        .await;
    assert_eq!(status, 400);
    assert_eq!(refused["error"]["code"], "bad_body");
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("level 9 is not one of 1 to 8"),
        "{refused}"
    );
    let first = server.create(&kato, body.clone()).await;
    server.create(&kato, body.clone()).await;
    let (status, refused) = server.post("/api/games", &kato, body.clone()).await;
    assert_eq!(status, 429, "{refused}");
    assert!(refused["error"]["message"]
        .as_str()
        .unwrap()
        .contains("unfinished games against the computer"));
    // A game resigned frees its place.
    let mut socket = server.socket(&first, Some(&kato), None).await;
    let answer = socket.request("r", json!({"t":"resign"})).await;
    assert_eq!(answer["t"], "ack", "{answer}");
    server.create(&kato, body).await;
    server.stop().await;
}

/// Requests of one session at once are counted together: each creation holds its place
/// from its check until its game is listed, so the ones that await the store at the same
/// moment cannot all pass a check made before any was listed. Sixteen at once with a
/// limit of 2 against the computer and of 3 open games: exactly 2 and 3 are created.
#[tokio::test]
async fn creations_at_once_are_counted_against_the_limits_together() {
    let db = DbFile::new();
    let mut config = ServeConfig::for_tests(&db.url());
    config.limits.bot_games_per_session = 2;
    config.limits.open_games_per_session = 3;
    let server = TestServer::start_with(config).await;
    let (kato, _) = server.session("Kato").await;
    for (body, limit, wording) in [
        (
            json!({"opponent":{"computer":{"level":1}}}),
            2,
            "unfinished games against the computer",
        ),
        (json!({}), 3, "games nobody has started yet"),
    ] {
        let answers = futures_util::future::join_all(
            (0..16).map(|_| server.post("/api/games", &kato, body.clone())),
        )
        .await;
        let created = answers.iter().filter(|(status, _)| *status == 201).count();
        assert_eq!(created, limit, "{answers:?}");
        for (status, refused) in answers.iter().filter(|(status, _)| *status != 201) {
            assert_eq!(*status, 429, "{refused}");
            assert!(
                refused["error"]["message"]
                    .as_str()
                    .unwrap()
                    .contains(wording),
                "{refused}"
            );
        }
    }
    server.stop().await;
}
