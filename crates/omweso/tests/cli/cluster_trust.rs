//! What someone with access to NATS, but not the cluster's secret, can do to the nodes
//! (issue 41, item 8): nothing they send is believed. Before, bearer tokens crossed NATS in
//! clear, a forged `connect` and a client `resign` ended a victim's game, and a forged
//! HTTP request reached any route with any client address (25 log-ins, no 429). Each test
//! publishes on NATS directly, as an attacker would, beside real nodes (`cluster.rs`).
//!
//! And the nodes' own side: a node refuses to start without NATS credentials or the
//! cluster's secret, and authenticates to a NATS server that asks for a password.

use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use async_nats::HeaderMap;
use futures_util::StreamExt;
use omweso_testkit::Remote;
use serde_json::{json, Value};

use crate::cluster::{node, with_database, CLUSTER_SECRET};

/// How long an answer is waited for before the test takes it that none will come.
const NO_ANSWER: Duration = Duration::from_secs(2);

/// The id of the live node named `name`, as an attacker reading NATS's subjects learns it.
async fn node_id(database_url: &str, name: &str) -> String {
    let pool = sqlx::PgPool::connect(database_url).await.unwrap();
    let (id,): (String,) = sqlx::query_as(
        "SELECT node_id FROM cluster_nodes WHERE name = $1 ORDER BY started_at_ms DESC LIMIT 1",
    )
    .bind(name)
    .fetch_one(&pool)
    .await
    .unwrap();
    pool.close().await;
    id
}

fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
    let mut headers = HeaderMap::new();
    for (name, value) in pairs {
        headers.insert(*name, *value);
    }
    headers
}

/// A request on NATS, and its answer if one comes within [`NO_ANSWER`].
async fn ask(
    nats: &async_nats::Client,
    subject: String,
    headers: HeaderMap,
    payload: Vec<u8>,
) -> Option<async_nats::Message> {
    tokio::time::timeout(
        NO_ANSWER,
        nats.request_with_headers(subject, headers, payload.into()),
    )
    .await
    .ok()
    .and_then(Result::ok)
}

async fn status_of(server: &Remote, token: &str, game: &str) -> Value {
    let (status, snap) = server.get(&format!("/api/games/{game}"), token).await;
    assert_eq!(status, 200, "{snap}");
    snap["status"].clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forged_socket_on_nats_cannot_play_for_a_player() {
    with_database("omweso_trust_socket", |database_url, nats| async move {
        let a = node(&database_url, &nats, "a");
        let _b = node(&database_url, &nats, "b");
        let a = Remote::new(a.addr);
        let (south, south_id) = a.session("South").await;
        let (north, _) = a.session("North").await;
        let game = a.create(&south, json!({"ruleset":"oware"})).await;
        a.join(&north, &game).await;
        assert_eq!(status_of(&a, &north, &game).await, "playing");
        let attacker = async_nats::connect(&nats).await.unwrap();
        let rooms = format!("omweso.node.{}.rooms", node_id(&database_url, "a").await);
        let room = format!("game.{game}");
        let to = format!("{}.1", uuid::Uuid::new_v4());
        // A socket of a made-up node, as South.
        let answer = ask(
            &attacker,
            rooms.clone(),
            headers(&[
                ("Omweso-Op", "connect"),
                ("Omweso-Room", &room),
                ("Omweso-To", &to),
                ("Omweso-Player", &south_id),
            ]),
            Vec::new(),
        )
        .await;
        assert!(
            answer.is_none(),
            "a forged socket opening was answered: {:?}",
            answer.map(|a| String::from_utf8_lossy(&a.payload).into_owned())
        );
        // South's resignation on whatever connection it might have been given.
        for conn in 0..16 {
            attacker
                .publish_with_headers(
                    rooms.clone(),
                    headers(&[
                        ("Omweso-Op", "client"),
                        ("Omweso-Room", &room),
                        ("Omweso-Conn", &conn.to_string()),
                    ]),
                    r#"{"t":"resign","id":"forged","d":{}}"#.into(),
                )
                .await
                .unwrap();
        }
        attacker.flush().await.unwrap();
        tokio::time::sleep(Duration::from_secs(1)).await;
        assert_eq!(status_of(&a, &north, &game).await, "playing");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forged_http_request_on_nats_is_answered_by_no_route() {
    with_database("omweso_trust_http", |database_url, nats| async move {
        let a = node(&database_url, &nats, "a");
        let a = Remote::new(a.addr);
        let (south, _) = a.session("South").await;
        let game = a.create(&south, json!({"ruleset":"oware"})).await;
        let attacker = async_nats::connect(&nats).await.unwrap();
        let http = format!("omweso.node.{}.http", node_id(&database_url, "a").await);
        let bearer = format!("Bearer {south}");
        let uri = format!("/api/games/{game}");
        let forged = [
            // A game's page, as South.
            headers(&[
                ("Omweso-Method", "GET"),
                ("Omweso-Uri", &uri),
                ("H-authorization", &bearer),
            ]),
            // A log-in from an address of the attacker's choosing, past every limit.
            headers(&[
                ("Omweso-Method", "POST"),
                ("Omweso-Uri", "/api/login"),
                ("Omweso-Client", "198.51.100.7"),
                ("H-content-type", "application/json"),
            ]),
        ];
        for request in forged {
            let answer = ask(
                &attacker,
                http.clone(),
                request.clone(),
                br#"{"username":"someone","password":"guess"}"#.to_vec(),
            )
            .await;
            assert!(
                answer.is_none(),
                "{request:?} was answered: {:?}",
                answer.map(|a| a.headers)
            );
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_nodes_request_replayed_on_nats_is_refused() {
    with_database("omweso_trust_replay", |database_url, nats| async move {
        let a = node(&database_url, &nats, "a");
        let b = node(&database_url, &nats, "b");
        let (a, b) = (Remote::new(a.addr), Remote::new(b.addr));
        let (south, _) = a.session("South").await;
        let game = a.create(&south, json!({"ruleset":"oware"})).await;
        let attacker = async_nats::connect(&nats).await.unwrap();
        let http = format!("omweso.node.{}.http", node_id(&database_url, "a").await);
        let mut heard = attacker.subscribe(http.clone()).await.unwrap();
        attacker.flush().await.unwrap();
        // Asked of node b, answered by node a: the request crosses NATS, and is heard.
        let (status, snap) = b.get(&format!("/api/games/{game}"), &south).await;
        assert_eq!(status, 200, "{snap}");
        let request = tokio::time::timeout(NO_ANSWER, heard.next())
            .await
            .expect("the forwarded request crosses NATS")
            .unwrap();
        // Sent again, as it was: not answered.
        let answer = ask(
            &attacker,
            http,
            request.headers.clone().unwrap_or_default(),
            request.payload.to_vec(),
        )
        .await;
        assert!(
            answer.is_none(),
            "a replayed request was answered: {:?}",
            answer.map(|a| a.headers)
        );
        // The nodes themselves go on answering.
        let (status, snap) = b.get(&format!("/api/games/{game}"), &south).await;
        assert_eq!(status, 200, "{snap}");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_token_or_code_crosses_nats_in_clear() {
    with_database("omweso_trust_clear", |database_url, nats| async move {
        let a = node(&database_url, &nats, "a");
        let b = node(&database_url, &nats, "b");
        let (a, b) = (Remote::new(a.addr), Remote::new(b.addr));
        let attacker = async_nats::connect(&nats).await.unwrap();
        let mut heard = futures_util::stream::select(
            attacker.subscribe("omweso.>").await.unwrap(),
            attacker.subscribe("_INBOX.>").await.unwrap(),
        );
        attacker.flush().await.unwrap();
        // A game and a tournament held by node a, used through node b.
        let (south, _) = a.session("South").await;
        let (north, _) = b.session("North").await;
        let game = a.create(&south, json!({"ruleset":"oware"})).await;
        let (status, joined) = b
            .post(&format!("/api/games/{game}/join"), &north, json!({}))
            .await;
        assert_eq!(status, 200, "{joined}");
        let (director, _) = a.session("Director").await;
        let t = a
            .create_tournament(
                &director,
                json!({"name":"Clear","ruleset":"oware","rounds":1,
                       "time_control":{"referee_seconds":null}}),
            )
            .await;
        let (status, invite) = b
            .post(
                &format!("/api/tournaments/{t}/co-director-invites"),
                &director,
                json!({}),
            )
            .await;
        assert_eq!(status, 201, "{invite}");
        let code = invite["code"].as_str().unwrap().to_owned();
        let mut seen = String::new();
        let mut messages = 0;
        let until = Instant::now() + Duration::from_secs(1);
        while let Ok(Some(message)) = tokio::time::timeout_at(until.into(), heard.next()).await {
            messages += 1;
            for (name, values) in message.headers.iter().flat_map(HeaderMap::iter) {
                for value in values {
                    seen.push_str(&format!("{name}: {value}\n"));
                }
            }
            seen.push_str(&String::from_utf8_lossy(&message.payload));
            seen.push('\n');
        }
        assert!(messages >= 4, "the requests crossed NATS: {messages}");
        for (what, secret) in [("North's token", &north), ("the invitation code", &code)] {
            assert!(
                !seen.contains(secret.as_str()),
                "{what} crossed NATS in clear"
            );
        }
        assert!(
            !seen.contains(&code.replace('-', "")),
            "the code, without its dash"
        );
    })
    .await;
}

/// `omweso serve` as a node, with `args` and `env`: `Ok(listening line)` once it listens
/// (then killed), or `Err(what it printed)` once it exits.
fn start_or_refusal(
    database_url: &str,
    args: &[&str],
    env: &[(&str, &str)],
) -> Result<String, String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_omweso"))
        .args(["serve", "--addr", "127.0.0.1:0", "--metrics-addr", "off"])
        .args(["--database-url", database_url, "--log-level", "warn"])
        .args(args)
        .env_clear()
        .envs(env.iter().copied())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    if first.starts_with("listening on") {
        let _ = child.kill();
        let _ = child.wait();
        return Ok(first);
    }
    let mut said = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut said)
        .unwrap();
    let status = child.wait().unwrap();
    assert!(!status.success(), "{status:?}: {said}");
    Err(said)
}

/// A NATS server of the test's own that asks for a password, on a free port; `None` (the
/// test skipped) when there is no `nats-server` outside CI.
struct PasswordNats {
    child: std::process::Child,
    port: u16,
}

impl PasswordNats {
    fn start(user: &str, password: &str) -> Option<PasswordNats> {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new("nats-server")
            .args(["-a", "127.0.0.1", "-p", &port.to_string()])
            .args(["--user", user, "--pass", password])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn();
        let Ok(child) = child else {
            let ci = std::env::var("CI").unwrap_or_default();
            assert!(
                ci.is_empty() || ci == "false" || ci == "0",
                "no nats-server to run on CI"
            );
            eprintln!("no nats-server: skipping the password test");
            return None;
        };
        let deadline = Instant::now() + Duration::from_secs(10);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "nats-server did not listen");
            std::thread::sleep(Duration::from_millis(20));
        }
        Some(PasswordNats { child, port })
    }
}

impl Drop for PasswordNats {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_needs_nats_credentials_and_the_cluster_secret() {
    with_database("omweso_trust_start", |database_url, nats| async move {
        tokio::task::block_in_place(|| {
            let open = ["--nats-url", nats.as_str()];
            let secret = ("OMWESO_CLUSTER_SECRET", CLUSTER_SECRET);
            let credentials = [
                ("OMWESO_NATS_USER", "omweso"),
                ("OMWESO_NATS_PASSWORD", "tests-only"),
            ];
            let refusal = start_or_refusal(&database_url, &open, &[secret])
                .expect_err("a node without NATS credentials");
            assert!(
                refusal.contains("several nodes need NATS credentials"),
                "{refusal}"
            );
            let refusal = start_or_refusal(&database_url, &open, &credentials)
                .expect_err("a node without the cluster's secret");
            assert!(
                refusal.contains("several nodes need the cluster's secret"),
                "{refusal}"
            );
            let short = ("OMWESO_CLUSTER_SECRET", "too short");
            let refusal = start_or_refusal(
                &database_url,
                &open,
                &[credentials[0], credentials[1], short],
            )
            .expect_err("a node with a short secret");
            assert!(refusal.contains("at least 32 characters"), "{refusal}");
            // Refused before it touched the database: nothing was migrated into it.
            let tables = tokio::runtime::Handle::current().block_on(async {
                let pool = sqlx::PgPool::connect(&database_url)
                    .await
                    .expect("the database");
                let (tables,): (i64,) = sqlx::query_as(
                    "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'",
                )
                .fetch_one(&pool)
                .await
                .expect("the tables");
                pool.close().await;
                tables
            });
            assert_eq!(
                tables, 0,
                "a node that refused to start migrated the database"
            );

            let Some(server) = PasswordNats::start("omweso", "s3cret-for-tests") else {
                return;
            };
            let url = format!("nats://127.0.0.1:{}", server.port);
            let with = ["--nats-url", url.as_str()];
            let refusal = start_or_refusal(
                &database_url,
                &with,
                &[
                    ("OMWESO_NATS_USER", "omweso"),
                    ("OMWESO_NATS_PASSWORD", "wrong"),
                    secret,
                ],
            )
            .expect_err("a wrong password");
            assert!(refusal.contains("could not connect to NATS"), "{refusal}");
            start_or_refusal(
                &database_url,
                &with,
                &[
                    ("OMWESO_NATS_USER", "omweso"),
                    ("OMWESO_NATS_PASSWORD", "s3cret-for-tests"),
                    secret,
                ],
            )
            .expect("the right password");
            // In the URL, as docs/scaling.md says it may be.
            let in_url = format!("nats://omweso:s3cret-for-tests@127.0.0.1:{}", server.port);
            start_or_refusal(&database_url, &["--nats-url", &in_url], &[secret])
                .expect("the password in the URL");
        });
    })
    .await;
}
