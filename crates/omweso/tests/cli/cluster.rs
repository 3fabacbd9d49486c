//! Several nodes, tested for real (docs/scaling.md): three `omweso` processes on one fresh
//! PostgreSQL database and the machine's NATS, players and spectators on different nodes.
//!
//! - The node holding the games and a tournament round is killed with SIGKILL while they
//!   are played, repeatedly (the sigkill scenario, tests/cli/sigkill.rs, with each kind of
//!   request on its own node): the others take every room over from the log within 10 s,
//!   nothing acknowledged is lost or reordered, and the games go on; a fresh node joins
//!   after each kill and is the next one killed.
//! - A spectator on another node gets exactly the frames a spectator on the game's own
//!   node gets; a tournament's watcher on another node gets its state and live boards;
//!   a game created on one node is in every node's lobby.
//! - A node paused (SIGSTOP) past its lease, whose game another node takes over, writes
//!   nothing when it wakes: its late writes are refused by the store (fencing) or it stops
//!   first; the game has exactly what was acknowledged, by either node.
//! - A watcher of a game held by a node that dies is closed with 1012, and resumes with
//!   `?v=` on the node that took the game over, missing nothing and seeing nothing twice.
//! - A node cut off from the database and NATS (its connections go through a proxy the
//!   test cuts) stops rather than play on: nothing is acknowledged once it is cut, it
//!   exits by itself, and another node takes its game over with exactly what was
//!   acknowledged.
//!
//! Needs PostgreSQL (`TEST_POSTGRES_URL`) and NATS (`TEST_NATS_URL`, by default
//! `nats://127.0.0.1:4222`); on CI a missing one fails the test instead of skipping it.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use omweso_testkit::Remote;
use rand::rngs::SmallRng;
use rand::SeedableRng;
use serde_json::{json, Value};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

use crate::sigkill::{check_game, check_tournament, play_until_killed, Process, KILLS};

/// How long a node's heartbeat holds in these tests (the default is 5 s).
const LEASE_SECONDS: &str = "2";
/// The bound on a takeover.
const TAKEOVER: Duration = Duration::from_secs(10);

/// The NATS server to use, or `None` (skip) when none answers outside CI.
pub(crate) async fn nats_url() -> Option<String> {
    let url = std::env::var("TEST_NATS_URL").unwrap_or_else(|_| "nats://127.0.0.1:4222".into());
    let host = url.trim_start_matches("nats://").to_owned();
    if TcpStream::connect(&host).await.is_ok() {
        return Some(url);
    }
    let ci = std::env::var("CI").unwrap_or_default();
    assert!(
        ci.is_empty() || ci == "false" || ci == "0",
        "no NATS server answers at {url} on CI: the several-node tests would be skipped"
    );
    eprintln!("no NATS server at {url}: skipping the several-node test");
    None
}

/// A node, started without holding up the test's runtime (its start waits for the
/// node's first line, while the node may need the test's own proxies to get there).
pub(crate) fn node(database_url: &str, nats_url: &str, name: &str) -> Process {
    node_with(database_url, nats_url, name, &[])
}

/// The shared secret the tests' nodes sign their messages with (docs/scaling.md).
pub(crate) const CLUSTER_SECRET: &str =
    "7465737473206f6e6c793a206e657665722075736520746869732073656372657421";

/// What every test node gives: its NATS credentials (the machine's NATS may ask for none,
/// and then takes any) and the cluster's secret, from the environment as the compose file
/// gives them.
pub(crate) const NODE_SECRETS: [(&str, &str); 3] = [
    ("OMWESO_NATS_USER", "omweso"),
    ("OMWESO_NATS_PASSWORD", "tests-only"),
    ("OMWESO_CLUSTER_SECRET", CLUSTER_SECRET),
];

/// As [`node`], with more arguments.
pub(crate) fn node_with(database_url: &str, nats_url: &str, name: &str, more: &[&str]) -> Process {
    let mut args = vec![
        "--nats-url",
        nats_url,
        "--node-name",
        name,
        "--lease-seconds",
        LEASE_SECONDS,
    ];
    args.extend_from_slice(more);
    tokio::task::block_in_place(|| Process::start_with_env(database_url, &args, &NODE_SECRETS))
}

/// The leases still held by the node named `name` (a killed node's rooms not yet taken
/// over), and when the last room taken over since `since_ms` was taken (ms since the
/// Unix epoch; `None`: none was).
async fn takeovers(database_url: &str, name: &str, since_ms: u64) -> (i64, Option<i64>) {
    let pool = sqlx::PgPool::connect(database_url)
        .await
        .expect("the database");
    let (held,): (i64,) = sqlx::query_as(
        "SELECT count(*) FROM leases l JOIN cluster_nodes n ON n.node_id = l.node_id \
         WHERE n.name = $1",
    )
    .bind(name)
    .fetch_one(&pool)
    .await
    .expect("the leases");
    let (last,): (Option<i64>,) = sqlx::query_as(
        "SELECT max(acquired_at_ms) FROM leases WHERE epoch > 1 AND acquired_at_ms >= $1",
    )
    .bind(i64::try_from(since_ms).unwrap())
    .fetch_one(&pool)
    .await
    .expect("the takeovers");
    pool.close().await;
    (held, last)
}

/// Runs `test` on a fresh database, dropped even when the test fails.
pub(crate) async fn with_database<F, Fut>(prefix: &str, test: F)
where
    F: FnOnce(String, String) -> Fut + Send + 'static,
    Fut: std::future::Future<Output = ()> + Send,
{
    let Some(nats) = nats_url().await else {
        return;
    };
    let Some(database) = omweso_testkit::FreshPostgres::create(prefix).await else {
        eprintln!("TEST_POSTGRES_URL is not set: skipping the several-node test");
        return;
    };
    let url = database.url.clone();
    let outcome = tokio::spawn(async move { test(url, nats).await }).await;
    database.drop_database().await;
    if let Err(failed) = outcome {
        std::panic::resume_unwind(failed.into_panic());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_node_holding_the_games_is_killed_and_the_others_lose_nothing() {
    with_database("omweso_cluster_kill", |database_url, nats| async move {
        let seed: u64 = rand::random();
        eprintln!("seed {seed}");
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut nodes: Vec<Process> = (0..3)
            .map(|n| node(&database_url, &nats, &format!("node-{n}")))
            .collect();
        for kill in 1..=KILLS {
            let victim = format!("node-{}", if kill == 1 { 0 } else { kill + 1 });
            let (record, t, killed_ms) = play_until_killed(&mut nodes, &mut rng).await;
            nodes.remove(0);
            // Every room of the dead node was taken over, unasked (the players had
            // stopped), within the bound: the last takeover's time is in the leases.
            let last = loop {
                let (held, last) = takeovers(&database_url, &victim, killed_ms).await;
                if held == 0 {
                    break last.expect("rooms taken over");
                }
                let now = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .unwrap()
                    .as_millis();
                let since = Duration::from_millis(u64::try_from(now).unwrap() - killed_ms);
                assert!(
                    since < TAKEOVER,
                    "{held} rooms of {victim} still held {since:?} after the kill"
                );
                tokio::time::sleep(Duration::from_millis(100)).await;
            };
            let took = Duration::from_millis(u64::try_from(last).unwrap() - killed_ms);
            assert!(
                took < TAKEOVER,
                "the last room was taken over {took:?} after the kill"
            );
            eprintln!(
                "kill {kill}: {} games, {} moves acknowledged; taken over in {:?}",
                record.len(),
                record.iter().map(|a| a.moves.len()).sum::<usize>(),
                took
            );
            // Checked through both survivors in turn: each reaches every room, wherever
            // it is held now.
            let mut going_on = 0;
            for (n, acked) in record.iter().enumerate() {
                let server = Remote::new(nodes[n % nodes.len()].addr);
                going_on += usize::from(check_game(&server, acked).await);
            }
            assert!(going_on > 0, "no game was left to go on");
            check_tournament(&Remote::new(nodes[kill % nodes.len()].addr), &t).await;
            // A fresh node joins, and is the one the next games are created on.
            nodes.insert(0, node(&database_url, &nats, &format!("node-{}", kill + 2)));
        }
    })
    .await;
}

/// The frames of a socket until none comes for a while, without the `crowd` ones (who is
/// watching differs from node to node by design: each counts its own sockets only
/// until the owner's next count).
async fn frames(socket: &mut omweso_testkit::Client, quiet: Duration) -> Vec<Value> {
    let mut frames = Vec::new();
    while let Some(frame) = socket.try_recv(quiet).await {
        if frame["t"] != "crowd" {
            frames.push(frame);
        }
    }
    frames
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spectator_on_another_node_sees_what_one_on_the_games_node_sees() {
    with_database("omweso_cluster_watch", |database_url, nats| async move {
        let a = node(&database_url, &nats, "a");
        let b = node(&database_url, &nats, "b");
        let (a, b) = (Remote::new(a.addr), Remote::new(b.addr));
        let (south, _) = a.session("South").await;
        let (north, _) = b.session("North").await;
        let game = a.create(&south, json!({"ruleset":"oware"})).await;
        // Joined through the other node: the request is answered by the game's.
        let (status, joined) = b
            .post(&format!("/api/games/{game}/join"), &north, json!({}))
            .await;
        assert_eq!(status, 200, "{joined}");
        let mut here = a.socket(&game, None, None).await;
        let mut there = b.socket(&game, None, None).await;
        let state_here = here.recv_type("state").await;
        let state_there = there.recv_type("state").await;
        assert_eq!(state_here["d"]["version"], state_there["d"]["version"]);
        // Each player plays from the node the other is not on.
        let mut south_socket = b.socket(&game, Some(&south), None).await;
        let mut north_socket = a.socket(&game, Some(&north), None).await;
        for n in 0..6 {
            let (socket, token) = if n % 2 == 0 {
                (&mut south_socket, &south)
            } else {
                (&mut north_socket, &north)
            };
            play_first_legal(&a, token, &game, socket, &format!("m{n}")).await;
        }
        let seen_here = frames(&mut here, Duration::from_millis(500)).await;
        let seen_there = frames(&mut there, Duration::from_millis(500)).await;
        assert!(
            seen_here.iter().filter(|f| f.get("v").is_some()).count() >= 6,
            "{seen_here:?}"
        );
        assert_eq!(seen_here, seen_there);
        // A socket resuming with `?v=` on the other node gets exactly what it missed.
        let v = seen_there
            .iter()
            .filter_map(|f| f["v"].as_u64())
            .max()
            .unwrap();
        let mut resumed = b.socket(&game, None, Some(v - 2)).await;
        let missed = frames(&mut resumed, Duration::from_millis(500)).await;
        let versions: Vec<u64> = missed.iter().filter_map(|f| f["v"].as_u64()).collect();
        assert_eq!(versions, vec![v - 1, v], "{missed:?}");

        // The lobby: a game waiting on node a is listed by node b.
        let (host, _) = a.session("Host").await;
        let open = a.create(&host, json!({"ruleset":"omweso"})).await;
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            let (status, list) = b.get("/api/games?list=open", &north).await;
            assert_eq!(status, 200, "{list}");
            let games = list["games"].as_array().unwrap();
            if games.iter().any(|g| g["game_id"] == open.as_str()) {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "game {open} not in b's lobby: {list}"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }

        // A tournament held by node a, watched from node b: its state, then the boards
        // of its tables as they are played.
        let (director, _) = a.session("Director").await;
        let body = json!({"name":"Across","ruleset":"oware","rounds":1,
                          "time_control":{"referee_seconds":null}});
        let t = a.create_tournament(&director, body).await;
        let players = [
            b.join_tournament(&t, "P1").await,
            b.join_tournament(&t, "P2").await,
        ];
        let round = b.pair_and_start(&director, &t, 1).await;
        let table = round["pairings"][0].clone();
        let table_game = table["game_id"].as_str().unwrap().to_owned();
        let mut watcher = b.socket_at(&format!("/ws/tournaments/{t}")).await;
        let state = watcher.recv_type("state").await;
        assert_eq!(state["d"]["name"], "Across", "{state}");
        let first = if table["first"] == players[0].1.as_str() {
            &players[0].0
        } else {
            &players[1].0
        };
        let snap = b.snapshot(first, &table_game).await;
        let before = snap["version"].as_u64().unwrap();
        let (_, legal) = snap["legal"].as_object().unwrap().iter().next().unwrap();
        let mv = legal["moves"][0].clone();
        let mut mover = b.socket(&table_game, Some(first), None).await;
        mover
            .expect_ack_of("t0", json!({"t":"move","d":{"move":mv}}))
            .await;
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            let frame = watcher
                .try_recv(Duration::from_secs(5))
                .await
                .expect("the tournament's frames");
            let boards: Vec<&Value> = match frame["t"].as_str() {
                Some("board") => vec![&frame["d"]],
                Some("boards") => frame["d"]["boards"].as_array().unwrap().iter().collect(),
                _ => Vec::new(),
            };
            if boards.iter().any(|b| {
                b["game_id"] == table_game.as_str() && b["version"].as_u64() > Some(before)
            }) {
                break;
            }
            assert!(Instant::now() < deadline, "no board of the move: {frame}");
        }
    })
    .await;
}

/// The first move a game's snapshot says `token`'s side may make now, played on `socket`
/// and acknowledged as `id`.
async fn play_first_legal(
    server: &Remote,
    token: &str,
    game: &str,
    socket: &mut omweso_testkit::Client,
    id: &str,
) {
    let snap = server.snapshot(token, game).await;
    let (_, legal) = snap["legal"].as_object().unwrap().iter().next().unwrap();
    let mv = legal["moves"][0].clone();
    socket
        .expect_ack_of(id, json!({"t":"move","d":{"move":mv}}))
        .await;
}

/// docs/protocol.md: a socket whose game moved to another node is closed with 1012 and a
/// reason saying so, and the client reconnecting with `?v=` is served by whichever node
/// it reaches. A watcher on node b of a game held by node a: a is killed; the watcher's
/// socket closes with 1012 once b sees a gone; reconnected to b with the version it had,
/// it gets nothing twice and the next move exactly once, from b, which took the game
/// over.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watcher_of_a_dead_nodes_game_is_closed_with_1012_and_resumes_on_a_survivor() {
    with_database("omweso_cluster_moved", |database_url, nats| async move {
        let a_node = node(&database_url, &nats, "a");
        let b_node = node(&database_url, &nats, "b");
        let (a, b) = (Remote::new(a_node.addr), Remote::new(b_node.addr));
        let (south, _) = a.session("South").await;
        let (north, _) = a.session("North").await;
        let game = a.create(&south, json!({"ruleset":"oware"})).await;
        let (status, joined) = a
            .post(&format!("/api/games/{game}/join"), &north, json!({}))
            .await;
        assert_eq!(status, 200, "{joined}");
        {
            let mut south_socket = a.socket(&game, Some(&south), None).await;
            play_first_legal(&a, &south, &game, &mut south_socket, "s1").await;
        }
        let mut watcher = b.socket(&game, None, None).await;
        let state = watcher.recv_type("state").await;
        let seen = state["d"]["version"].as_u64().expect("a version");

        signal(&a_node, libc::SIGKILL);
        let close = watcher
            .close_frame()
            .await
            .expect("a close frame with a reason");
        assert_eq!(u16::from(close.code), 1012, "{close:?}");
        assert_eq!(
            close.reason.as_str(),
            "the server holding this game stopped; reconnect in a moment"
        );

        // b takes the game over (the only node left): its snapshot is answered again.
        let deadline = Instant::now() + TAKEOVER;
        loop {
            let (status, snap) = b.get(&format!("/api/games/{game}"), &north).await;
            if status == 200 {
                assert_eq!(snap["version"].as_u64(), Some(seen), "{snap}");
                break;
            }
            assert!(Instant::now() < deadline, "not taken over: {status} {snap}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let mut resumed = b.socket(&game, None, Some(seen)).await;
        let mut north_socket = b.socket(&game, Some(&north), None).await;
        play_first_legal(&b, &north, &game, &mut north_socket, "n1").await;
        let versions: Vec<u64> = frames(&mut resumed, Duration::from_millis(500))
            .await
            .iter()
            .filter_map(|f| f["v"].as_u64())
            .collect();
        assert_eq!(versions, vec![seen + 1]);
    })
    .await;
}

/// A TCP relay to `upstream` that the test can cut: every relayed connection is dropped
/// and new ones are closed at once, as a node cut off from the network sees it.
struct CutProxy {
    addr: SocketAddr,
    cut: watch::Sender<bool>,
}

impl CutProxy {
    async fn start(upstream: SocketAddr) -> CutProxy {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (cut, cut_rx) = watch::channel(false);
        tokio::spawn(async move {
            while let Ok((mut inbound, _)) = listener.accept().await {
                let mut cut = cut_rx.clone();
                if *cut.borrow() {
                    continue;
                }
                tokio::spawn(async move {
                    let Ok(mut outbound) = TcpStream::connect(upstream).await else {
                        return;
                    };
                    tokio::select! {
                        _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound) => {}
                        _ = cut.wait_for(|c| *c) => {}
                    }
                });
            }
        });
        CutProxy { addr, cut }
    }

    fn cut(&self) {
        let _ = self.cut.send(true);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_cut_off_stops_rather_than_fork_its_game() {
    with_database("omweso_cluster_cut", |database_url, nats| async move {
        let pg: SocketAddr = "127.0.0.1:5432".parse().unwrap();
        let nats_addr: SocketAddr = nats
            .trim_start_matches("nats://")
            .parse()
            .expect("TEST_NATS_URL as nats://<ip>:<port>");
        let (pg_proxy, nats_proxy) = (CutProxy::start(pg).await, CutProxy::start(nats_addr).await);
        let proxied_database = database_url.replace("127.0.0.1:5432", &pg_proxy.addr.to_string());
        assert_ne!(
            proxied_database, database_url,
            "the database is on 127.0.0.1:5432"
        );
        let survivor = node(&database_url, &nats, "survivor");
        let mut cut = node(
            &proxied_database,
            &format!("nats://{}", nats_proxy.addr),
            "cut-off",
        );
        let (there, survivor) = (Remote::new(cut.addr), Remote::new(survivor.addr));
        let (south, _) = there.session("South").await;
        let (north, _) = there.session("North").await;
        let game = there.create(&south, json!({"ruleset":"oware"})).await;
        there.join(&north, &game).await;
        let mut sockets = [
            there.socket(&game, Some(&south), None).await,
            there.socket(&game, Some(&north), None).await,
        ];
        let mut acked = Vec::new();
        for n in 0..6 {
            let token = if n % 2 == 0 { &south } else { &north };
            let snap = there.snapshot(token, &game).await;
            let (_, legal) = snap["legal"].as_object().unwrap().iter().next().unwrap();
            let mv = legal["moves"][0].as_str().unwrap().to_owned();
            sockets[n % 2]
                .expect_ack_of(&format!("m{n}"), json!({"t":"move","d":{"move":mv}}))
                .await;
            acked.push(mv);
        }
        let snap = there.snapshot(&south, &game).await;
        let (_, legal) = snap["legal"].as_object().unwrap().iter().next().unwrap();
        let next = legal["moves"][0].as_str().unwrap().to_owned();
        let cut_at = Instant::now();
        pg_proxy.cut();
        nats_proxy.cut();
        // Cut off, the node can save nothing: the move is never acknowledged.
        sockets[0]
            .send(json!({"t":"move","id":"cut","d":{"move":next}}))
            .await;
        while let Some(frame) = sockets[0].try_recv(Duration::from_secs(3)).await {
            assert!(
                !(frame["t"] == "ack" && frame["d"]["id"] == "cut"),
                "a move was acknowledged by a node cut off from the database: {frame}"
            );
        }
        // It stops by itself once its heartbeat could not be renewed in time.
        let status = tokio::task::block_in_place(|| cut.wait_for_exit(Duration::from_secs(60)))
            .expect("the node cut off stops by itself");
        assert!(!status.success(), "{status:?}");
        eprintln!(
            "the node cut off stopped {:?} after the cut",
            cut_at.elapsed()
        );
        // The survivor holds the game, with exactly what was acknowledged, and it goes on.
        let deadline = Instant::now() + TAKEOVER + Duration::from_secs(5);
        let snap = loop {
            let (status, snap) = survivor.get(&format!("/api/games/{game}"), &south).await;
            if status == 200 {
                break snap;
            }
            assert!(Instant::now() < deadline, "{status}: {snap}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        let history: Vec<&str> = snap["history"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h["move"].as_str().unwrap())
            .collect();
        assert_eq!(history, acked);
        let mut socket = survivor.socket(&game, Some(&south), None).await;
        socket
            .expect_ack_of("after", json!({"t":"move","d":{"move":next}}))
            .await;
        let after = survivor.snapshot(&south, &game).await;
        assert_eq!(after["history"].as_array().unwrap().len(), 7);
    })
    .await;
}

/// Sends `signal` to `process`.
fn signal(process: &Process, signal: libc::c_int) {
    // SAFETY: kill(2) with a pid this test started and has not reaped.
    let sent = unsafe { libc::kill(process.pid(), signal) };
    assert_eq!(sent, 0, "signal {signal}");
}

/// The moves of a game's history.
fn history(snap: &Value) -> Vec<String> {
    snap["history"]
        .as_array()
        .expect("a history")
        .iter()
        .map(|h| h["move"].as_str().expect("a move").to_owned())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paused_node_whose_game_was_taken_over_writes_nothing_when_it_wakes() {
    with_database("omweso_cluster_pause", |database_url, nats| async move {
        let mut paused = node(&database_url, &nats, "paused");
        let other = node(&database_url, &nats, "other");
        let (there, other) = (Remote::new(paused.addr), Remote::new(other.addr));
        let (south, _) = there.session("South").await;
        let (north, _) = there.session("North").await;
        let game = there.create(&south, json!({"ruleset":"oware"})).await;
        there.join(&north, &game).await;
        let mut south_socket = there.socket(&game, Some(&south), None).await;
        let snap = there.snapshot(&south, &game).await;
        let (_, legal) = snap["legal"].as_object().unwrap().iter().next().unwrap();
        let first = legal["moves"][0].as_str().unwrap().to_owned();
        south_socket
            .expect_ack_of("m0", json!({"t":"move","d":{"move":first}}))
            .await;
        // Paused past its lease: the other node takes the game over.
        signal(&paused, libc::SIGSTOP);
        let deadline = Instant::now() + TAKEOVER;
        let snap = loop {
            let (status, snap) = other.get(&format!("/api/games/{game}"), &north).await;
            if status == 200 {
                break snap;
            }
            assert!(Instant::now() < deadline, "{status}: {snap}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        assert_eq!(history(&snap), vec![first.clone()]);
        // South's resignation, sent to the paused node, waits in its socket's buffer.
        let (_, legal) = snap["legal"].as_object().unwrap().iter().next().unwrap();
        let stale = legal["moves"][0].as_str().unwrap().to_owned();
        south_socket
            .send(json!({"t":"resign","id":"late","d":{}}))
            .await;
        signal(&paused, libc::SIGCONT);
        // Woken, the paused node acknowledges nothing: its write is refused, or it stops
        // first.
        while let Some(frame) = south_socket.try_recv(Duration::from_secs(3)).await {
            assert!(
                !(frame["t"] == "ack" && frame["d"]["id"] == "late"),
                "a node whose game was taken over acknowledged an action: {frame}"
            );
        }
        // The game is the other node's, exactly as acknowledged, and goes on there.
        let mut north_socket = other.socket(&game, Some(&north), None).await;
        north_socket
            .expect_ack_of("m1", json!({"t":"move","d":{"move":stale}}))
            .await;
        let after = other.snapshot(&north, &game).await;
        assert_eq!(history(&after), vec![first, stale]);
        assert_eq!(after["status"], "playing", "{after}");
        let status = tokio::task::block_in_place(|| paused.wait_for_exit(Duration::from_secs(30)));
        eprintln!("the paused node, woken: {status:?}");
    })
    .await;
}
