//! Test fixtures that need nothing of the server's internals, shared by the integration
//! tests of the server crate (which start a server in the test's process) and of the
//! `omweso` binary (which start the real binary): [`Remote`], the HTTP and socket clients
//! of a server at an address; [`Client`], one socket; and [`FreshPostgres`], a database of
//! the test's own on the PostgreSQL server `TEST_POSTGRES_URL` names.
//!
//! And [`modules`]: a crate's module graph and its cycles, for the test that keeps every
//! crate of the workspace free of module cycles (`tests/workspace/module_cycles.rs`).
//!
//! A test that cannot do what it set out to (a refused request, a closed socket) panics
//! with what went wrong: these are test helpers, and a panic is a test's failure.

pub mod modules;

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// How long a test waits for what a working server does at once (a message, a close, a
/// push): generous, so that a loaded machine (a debug build, the other suites in the same
/// process, two cores) does not fail a test that a stalled server would.
pub const PATIENCE: Duration = Duration::from_secs(30);

/// A server reached at an address, with the calls the tests make of it.
#[derive(Clone, Debug)]
pub struct Remote {
    pub addr: std::net::SocketAddr,
    pub http: reqwest::Client,
}

impl Remote {
    pub fn new(addr: std::net::SocketAddr) -> Remote {
        Remote {
            addr,
            http: reqwest::Client::new(),
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// A new guest session: (token, player id).
    pub async fn session(&self, name: &str) -> (String, String) {
        let r: Value = self
            .http
            .post(self.url("/api/session"))
            .json(&json!({"name": name}))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        (
            r["token"].as_str().unwrap().to_owned(),
            r["player_id"].as_str().unwrap().to_owned(),
        )
    }

    pub async fn post(&self, path: &str, token: &str, body: Value) -> (u16, Value) {
        self.send_post(path, token, None, body).await
    }

    /// [`Remote::post`] as a client at `from`, named by `X-Forwarded-For` (the tests'
    /// servers trust 127.0.0.1 as a proxy).
    pub async fn post_from(
        &self,
        path: &str,
        token: &str,
        from: &str,
        body: Value,
    ) -> (u16, Value) {
        self.send_post(path, token, Some(from), body).await
    }

    async fn send_post(
        &self,
        path: &str,
        token: &str,
        from: Option<&str>,
        body: Value,
    ) -> (u16, Value) {
        let mut request = self.http.post(self.url(path)).bearer_auth(token);
        if let Some(from) = from {
            request = request.header("x-forwarded-for", from);
        }
        answer(request.json(&body)).await
    }

    pub async fn patch(&self, path: &str, token: &str, body: Value) -> (u16, Value) {
        answer(
            self.http
                .patch(self.url(path))
                .bearer_auth(token)
                .json(&body),
        )
        .await
    }

    pub async fn delete(&self, path: &str, token: &str) -> (u16, Value) {
        answer(self.http.delete(self.url(path)).bearer_auth(token)).await
    }

    /// A POST with no session at all (sign-up, log-in, a link code on a new device).
    pub async fn post_anonymous(&self, path: &str, body: Value) -> (u16, Value) {
        answer(self.http.post(self.url(path)).json(&body)).await
    }

    pub async fn put(&self, path: &str, token: &str, body: Value) -> (u16, Value) {
        answer(self.http.put(self.url(path)).bearer_auth(token).json(&body)).await
    }

    /// A body that is not JSON (an export), with its status.
    pub async fn get_text(&self, path: &str, token: &str) -> (u16, String) {
        let r = self
            .http
            .get(self.url(path))
            .bearer_auth(token)
            .send()
            .await
            .unwrap();
        (r.status().as_u16(), r.text().await.unwrap_or_default())
    }

    /// [`Remote::get_text`] as a client at `from`, named by `X-Forwarded-For`.
    pub async fn get_text_from(&self, path: &str, token: &str, from: &str) -> (u16, String) {
        let r = self
            .http
            .get(self.url(path))
            .bearer_auth(token)
            .header("x-forwarded-for", from)
            .send()
            .await
            .unwrap();
        (r.status().as_u16(), r.text().await.unwrap_or_default())
    }

    /// A socket on any path (`/ws/tournaments/{id}?token=..`).
    pub async fn socket_at(&self, path_and_query: &str) -> Client {
        let url = format!("ws://{}{path_and_query}", self.addr);
        let request = url.into_client_request().unwrap();
        let (ws, _) = tokio_tungstenite::connect_async_with_config(request, None, true)
            .await
            .unwrap();
        Client { ws }
    }

    pub async fn get(&self, path: &str, token: &str) -> (u16, Value) {
        answer(self.http.get(self.url(path)).bearer_auth(token)).await
    }

    /// A GET with no session at all: what a visitor's page reads.
    pub async fn get_anonymous(&self, path: &str) -> (u16, Value) {
        answer(self.http.get(self.url(path))).await
    }

    /// Creates a game as `token` and returns its id.
    pub async fn create(&self, token: &str, body: Value) -> String {
        let (status, r) = self.post("/api/games", token, body).await;
        assert_eq!(status, 201, "{r}");
        r["game_id"].as_str().unwrap().to_owned()
    }

    pub async fn join(&self, token: &str, game: &str) -> String {
        let (status, r) = self
            .post(&format!("/api/games/{game}/join"), token, json!({}))
            .await;
        assert_eq!(status, 200, "{r}");
        r["seat"].as_str().unwrap().to_owned()
    }

    pub async fn snapshot(&self, token: &str, game: &str) -> Value {
        let (status, r) = self.get(&format!("/api/games/{game}"), token).await;
        assert_eq!(status, 200, "{r}");
        r
    }

    // ----- tournaments -----

    /// Creates a tournament with `body` as `director`; its id.
    pub async fn create_tournament(&self, director: &str, body: Value) -> String {
        let (status, r) = self.post("/api/tournaments", director, body).await;
        assert_eq!(status, 201, "{r}");
        r["tournament_id"].as_str().unwrap().to_owned()
    }

    /// A new session named `name` joined to tournament `id`: its token and player id.
    pub async fn join_tournament(&self, id: &str, name: &str) -> (String, String) {
        let (token, player) = self.session(name).await;
        let (status, r) = self
            .post(&format!("/api/tournaments/{id}/join"), &token, json!({}))
            .await;
        assert_eq!(status, 200, "{r}");
        (token, player)
    }

    /// Pairs the next round of tournament `id` (`201`); the round as paired.
    pub async fn pair_next_round(&self, director: &str, id: &str) -> Value {
        let (status, round) = self
            .post(
                &format!("/api/tournaments/{id}/rounds"),
                director,
                json!({}),
            )
            .await;
        assert_eq!(status, 201, "{round}");
        round
    }

    /// Pairs the next round `n` of tournament `id` and starts it; the round as started.
    pub async fn pair_and_start(&self, director: &str, id: &str, n: u64) -> Value {
        self.pair_next_round(director, id).await;
        let (status, round) = self
            .post(
                &format!("/api/tournaments/{id}/rounds/{n}/start"),
                director,
                json!({}),
            )
            .await;
        assert_eq!(status, 200, "{round}");
        round
    }

    /// Polls tournament `id`'s snapshot (as `token`) until `done` holds, `within` at most.
    pub async fn tournament_until(
        &self,
        token: &str,
        id: &str,
        within: Duration,
        done: impl Fn(&Value) -> bool,
    ) -> Value {
        let deadline = tokio::time::Instant::now() + within;
        loop {
            let (status, snap) = self.get(&format!("/api/tournaments/{id}"), token).await;
            assert_eq!(status, 200, "{snap}");
            if done(&snap) {
                return snap;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "waited {within:?}: {snap}"
            );
            tokio::time::sleep(Duration::from_millis(30)).await;
        }
    }

    /// Plays both Mweiso opening turns of `game` from the start: South (`south`'s token)
    /// `C1`, then North `H4`. South then moves first in the main phase, where `A1'`
    /// captures directly and its clockwise chain asks `a`, `c` or `l` (the opening itself
    /// never starts clockwise, docs/rules.md#2-mweiso-kagera-murray-1951).
    pub async fn play_mweiso_opening(&self, game: &str, south: &str, north: &str) {
        for (token, mv) in [(south, "C1"), (north, "H4")] {
            let mut ws = self.socket(game, Some(token), None).await;
            ws.send(json!({"t":"move","d":{"move":mv},"id":"opening"}))
                .await;
            ws.expect_ack("opening").await;
        }
    }

    pub async fn socket(&self, game: &str, token: Option<&str>, v: Option<u64>) -> Client {
        let mut url = format!("ws://{}/ws/games/{game}?", self.addr);
        if let Some(token) = token {
            url.push_str(&format!("token={token}&"));
        }
        if let Some(v) = v {
            url.push_str(&format!("v={v}"));
        }
        let request = url.into_client_request().unwrap();
        // TCP_NODELAY, as browsers do: without it a small frame sent while the previous
        // one awaits its ACK waits out the delayed ACK (~40 ms), which the latency probe
        // would measure.
        let (ws, _) = tokio_tungstenite::connect_async_with_config(request, None, true)
            .await
            .unwrap();
        Client { ws }
    }
}

/// The Prometheus text served at `url` (`http://host:port/metrics`).
pub async fn scrape(url: &str) -> String {
    reqwest::get(url).await.unwrap().text().await.unwrap()
}

/// The value of the sample `sample` (a name, with its labels if it has any:
/// `omweso_limited_total{limit="sessions_per_ip"}`) in Prometheus text; panics, showing the
/// text, when there is none.
pub fn metric_value(text: &str, sample: &str) -> f64 {
    text.lines()
        .filter(|line| !line.starts_with('#'))
        .find_map(|line| {
            line.strip_prefix(sample)?
                .strip_prefix(' ')?
                .trim()
                .parse()
                .ok()
        })
        .unwrap_or_else(|| panic!("no {sample} in:\n{text}"))
}

/// Sends `request`: its status and JSON body (`null` when the body is not JSON).
async fn answer(request: reqwest::RequestBuilder) -> (u16, Value) {
    let r = request.send().await.unwrap();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(Value::Null))
}

pub struct Client {
    pub ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
}

impl Client {
    pub async fn send(&mut self, message: Value) {
        self.ws
            .send(Message::Text(message.to_string().into()))
            .await
            .unwrap();
    }

    pub async fn send_text(&mut self, text: String) {
        self.ws.send(Message::Text(text.into())).await.unwrap();
    }

    /// Sends `message` with `id`; the `ack` or `error` answering it (other messages on the
    /// way are skipped).
    pub async fn request(&mut self, id: &str, mut message: Value) -> Value {
        message["id"] = serde_json::json!(id);
        self.send(message).await;
        loop {
            let m = self.recv().await;
            if (m["t"] == "ack" || m["t"] == "error") && m["d"]["id"] == id {
                return m;
            }
        }
    }

    /// The next protocol message (pings and pongs skipped), within [`PATIENCE`].
    pub async fn recv(&mut self) -> Value {
        self.try_recv(PATIENCE)
            .await
            .expect("a message within PATIENCE")
    }

    pub async fn try_recv(&mut self, within: Duration) -> Option<Value> {
        let deadline = tokio::time::Instant::now() + within;
        loop {
            let frame = tokio::time::timeout_at(deadline, self.ws.next())
                .await
                .ok()??;
            match frame.ok()? {
                Message::Text(text) => return serde_json::from_str(&text).ok(),
                Message::Close(_) => return None,
                _ => continue,
            }
        }
    }

    /// The next text frame as it came, within [`PATIENCE`] (pings and pongs skipped).
    pub async fn ws_text(&mut self) -> String {
        loop {
            let frame = tokio::time::timeout(PATIENCE, self.ws.next())
                .await
                .expect("a frame within PATIENCE")
                .expect("the socket is open")
                .expect("a frame");
            match frame {
                Message::Text(text) => return text.to_string(),
                Message::Close(close) => panic!("the socket closed: {close:?}"),
                _ => continue,
            }
        }
    }

    /// The close frame the server sends next (other frames skipped), within [`PATIENCE`].
    pub async fn close_frame(
        &mut self,
    ) -> Option<tokio_tungstenite::tungstenite::protocol::CloseFrame> {
        loop {
            match tokio::time::timeout(PATIENCE, self.ws.next()).await {
                Ok(Some(Ok(Message::Close(frame)))) => return frame,
                Ok(Some(Ok(_))) => continue,
                other => panic!("no close frame came: {other:?}"),
            }
        }
    }

    /// Sends `message` with `id` and checks that it is acknowledged (not refused).
    pub async fn expect_ack_of(&mut self, id: &str, message: Value) {
        let answer = self.request(id, message).await;
        assert_eq!(answer["t"], "ack", "{answer}");
    }

    /// The next message of type `t`, skipping others (crowd, say).
    pub async fn recv_type(&mut self, t: &str) -> Value {
        loop {
            let m = self.recv().await;
            if m["t"] == t {
                return m;
            }
        }
    }

    /// The next versioned message (skipping crowd, ack, pong).
    /// Waits for the `ack` of the message sent with `id`, failing on any `error`.
    pub async fn expect_ack(&mut self, id: &str) {
        loop {
            let m = self.recv().await;
            assert_ne!(m["t"], "error", "{m}");
            if m["t"] == "ack" && m["d"]["id"] == id {
                return;
            }
        }
    }

    pub async fn recv_event(&mut self) -> Value {
        loop {
            let m = self.recv().await;
            if m.get("v").is_some() {
                return m;
            }
        }
    }
}

/// `TEST_POSTGRES_URL`: a PostgreSQL server the tests may create databases on. `None` when
/// it is unset, which only a local run may be: on CI (`CI` set, as `.ci/run` does) a
/// PostgreSQL test that skipped would pass without having run anything, so it fails here
/// instead. Every PostgreSQL test asks through this (or through [`FreshPostgres::create`]).
pub fn postgres_admin_url() -> Option<String> {
    match std::env::var("TEST_POSTGRES_URL") {
        Ok(url) if !url.is_empty() => Some(url),
        _ => {
            let ci = std::env::var("CI").unwrap_or_default();
            assert!(
                ci.is_empty() || ci == "false" || ci == "0",
                "TEST_POSTGRES_URL is not set on CI (CI={ci}): the PostgreSQL tests would be \
                 skipped; .ci/run sets it to a fresh database"
            );
            None
        }
    }
}

/// A PostgreSQL database made for one test, when `TEST_POSTGRES_URL` names a server the
/// tests may create databases on.
pub struct FreshPostgres {
    pub url: String,
    admin: sqlx::PgPool,
    admin_url: String,
    name: String,
    /// Dropped by [`FreshPostgres::drop_database`]; else by `Drop`, so that a test that
    /// fails (panics) before it gets there does not leave its database behind.
    dropped: bool,
}

impl FreshPostgres {
    /// `None` when `TEST_POSTGRES_URL` is not set (and this is not CI: see
    /// [`postgres_admin_url`]).
    pub async fn create(prefix: &str) -> Option<FreshPostgres> {
        let admin_url = postgres_admin_url()?;
        let name = format!("{prefix}_{}", uuid::Uuid::new_v4().simple());
        let admin = sqlx::PgPool::connect(&admin_url).await.unwrap();
        sqlx::query(&format!("CREATE DATABASE {name}"))
            .execute(&admin)
            .await
            .unwrap();
        let base = admin_url
            .rsplit_once('/')
            .map_or(admin_url.as_str(), |(b, _)| b);
        Some(FreshPostgres {
            url: format!("{base}/{name}"),
            admin,
            admin_url,
            name,
            dropped: false,
        })
    }

    pub async fn drop_database(mut self) {
        let _ = sqlx::query(&format!("DROP DATABASE {} WITH (FORCE)", self.name))
            .execute(&self.admin)
            .await;
        self.dropped = true;
    }
}

impl Drop for FreshPostgres {
    fn drop(&mut self) {
        if self.dropped {
            return;
        }
        // Not awaited here (a panicking test is unwinding, maybe inside a runtime): a
        // thread of its own with a runtime of its own drops the database.
        let (url, name) = (self.admin_url.clone(), self.name.clone());
        let dropping = std::thread::spawn(move || {
            let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            else {
                return;
            };
            runtime.block_on(async move {
                if let Ok(admin) = sqlx::PgPool::connect(&url).await {
                    let _ = sqlx::query(&format!("DROP DATABASE {name} WITH (FORCE)"))
                        .execute(&admin)
                        .await;
                }
            });
        });
        let _ = dropping.join();
    }
}
