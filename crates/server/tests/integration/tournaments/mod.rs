//! Tournaments against the real server, through the protocol (docs/rules.md#5-tournaments, docs/protocol.md
//! "Tournaments"): a Swiss played to the end with a bye, an annulled game replayed, an
//! adjudicated round, a dispute and a correction, a late join and a withdrawal; a
//! round-robin of five; a restart in the middle of a round; every forbidden action. On
//! SQLite, and on PostgreSQL when `TEST_POSTGRES_URL` is set.

mod board_limits;
mod board_results;
mod boards;
mod device_codes;
mod directors;
mod over_the_board;
mod rated;
mod refusals;
mod restart;
mod round_robin;
mod swiss;

use std::collections::HashMap;
use std::time::Duration;

use crate::common::Remote;
use serde_json::{json, Value};

/// A tournament being driven: the server, its id, the director's token and every
/// player's token by player id.
pub(super) struct Event<'a> {
    pub(super) server: &'a Remote,
    pub(super) id: String,
    pub(super) director: String,
    pub(super) tokens: HashMap<String, String>,
    pub(super) names: HashMap<String, String>,
}

impl Event<'_> {
    /// A tournament with `settings`; an Omweso one starts from the `outer` preset unless
    /// they say otherwise (the free setup's arranging has tests of its own).
    pub(super) async fn create(server: &Remote, mut settings: Value) -> Event<'_> {
        let (director, _) = server.session("TD").await;
        let omweso = settings["ruleset"].as_str().is_none_or(|r| r == "omweso");
        if omweso && settings.get("setup").is_none() {
            settings["setup"] = json!("outer");
        }
        let (status, r) = server.post("/api/tournaments", &director, settings).await;
        assert_eq!(status, 201, "{r}");
        let id = r["tournament_id"].as_str().unwrap().to_owned();
        assert_eq!(r["url"], format!("/t/{id}"));
        Event {
            server,
            id,
            director,
            tokens: HashMap::new(),
            names: HashMap::new(),
        }
    }

    /// An Oware round-robin with `players` joined (R0, R1, ...): the event and their ids.
    pub(super) async fn round_robin(server: &Remote, players: usize) -> (Event<'_>, Vec<String>) {
        let settings = json!({"name":"Club round-robin","ruleset":"oware","system":"round-robin"});
        let mut event = Event::create(server, settings).await;
        let mut ids = Vec::new();
        for i in 0..players {
            ids.push(event.join(&format!("R{i}")).await);
        }
        (event, ids)
    }

    pub(super) fn path(&self, rest: &str) -> String {
        format!("/api/tournaments/{}{rest}", self.id)
    }

    pub(super) async fn join(&mut self, name: &str) -> String {
        let (token, player) = self.server.session(name).await;
        let (status, r) = self
            .server
            .post(&self.path("/join"), &token, json!({}))
            .await;
        assert_eq!(status, 200, "{r}");
        assert_eq!(r["player_id"], player.as_str());
        self.tokens.insert(player.clone(), token);
        self.names.insert(player.clone(), name.to_owned());
        player
    }

    pub(super) async fn snapshot(&self) -> Value {
        let (status, r) = self.server.get(&self.path(""), &self.director).await;
        assert_eq!(status, 200, "{r}");
        r
    }

    /// Polls the snapshot until `done` holds (10 s at most).
    pub(super) async fn until(&self, what: &str, done: impl Fn(&Value) -> bool) -> Value {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        loop {
            let snap = self.snapshot().await;
            if done(&snap) {
                return snap;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "waited 10 s for {what}: {snap}"
            );
            tokio::time::sleep(Duration::from_millis(30)).await;
        }
    }

    pub(super) async fn pair(&self) -> Value {
        let (status, r) = self
            .server
            .post(&self.path("/rounds"), &self.director, json!({}))
            .await;
        assert_eq!(status, 201, "{r}");
        assert_eq!(r["status"], "paired");
        r
    }

    pub(super) async fn start(&self, n: u64) -> Value {
        let (status, r) = self
            .server
            .post(
                &self.path(&format!("/rounds/{n}/start")),
                &self.director,
                json!({}),
            )
            .await;
        assert_eq!(status, 200, "{r}");
        assert_eq!(r["status"], "playing");
        r
    }

    /// `player` withdraws (`{}`).
    pub(super) async fn withdraw(&self, player: &str) {
        let (status, r) = self
            .server
            .post(&self.path("/withdraw"), &self.tokens[player], json!({}))
            .await;
        assert_eq!((status, &r), (200, &json!({})), "{r}");
    }

    /// `player` resigns the game `game`.
    pub(super) async fn resign(&self, game: &str, player: &str) {
        let mut socket = self
            .server
            .socket(game, Some(&self.tokens[player]), None)
            .await;
        let state = socket.recv_type("state").await;
        assert_eq!(state["d"]["status"], "playing", "{state}");
        socket.send(json!({"t":"resign","d":{},"id":"r"})).await;
        socket.expect_ack("r").await;
    }

    /// `token` names the account `username` a co-director.
    pub(super) async fn add_co_director(&self, token: &str, username: &str) -> (u16, Value) {
        self.server
            .post(
                &self.path("/co-directors"),
                token,
                json!({ "username": username }),
            )
            .await
    }

    pub(super) async fn sheet(&self, game: &str, token: &str, body: Value) -> (u16, Value) {
        self.server
            .post(&self.path(&format!("/sheets/{game}")), token, body)
            .await
    }
}

/// A guest named `name` who made the account of that name in lower case: its token and
/// player id.
pub(super) async fn account(server: &Remote, name: &str) -> (String, String) {
    let (guest, id) = server.session(name).await;
    let (status, made) = server
        .post(
            "/api/account",
            &guest,
            json!({"username": name.to_lowercase(), "password": "seeds in the outer row at dusk"}),
        )
        .await;
    assert_eq!(status, 201, "{made}");
    (made["token"].as_str().unwrap().to_owned(), id)
}

pub(super) fn round(snap: &Value, n: usize) -> &Value {
    &snap["rounds"][n - 1]
}

pub(super) fn pairings(round: &Value) -> Vec<(String, Option<String>)> {
    round["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["first"].as_str().unwrap().to_owned(),
                p["second"].as_str().map(str::to_owned),
            )
        })
        .collect()
}

pub(super) fn game_of(round: &Value, table: usize) -> String {
    round["pairings"][table - 1]["game_id"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// Each player's points, recomputed by the test from the results it scripted.
#[derive(Default)]
pub(super) struct Tally {
    pub(super) points: HashMap<String, f64>,
    /// Per round, each player's opponent (`None`: played no game that round).
    pub(super) opponents: Vec<HashMap<String, Option<String>>>,
}

impl Tally {
    pub(super) fn add(&mut self, player: &str, points: f64) {
        *self.points.entry(player.to_owned()).or_default() += points;
    }

    pub(super) fn points(&self, player: &str) -> f64 {
        self.points.get(player).copied().unwrap_or(0.0)
    }

    /// Buchholz as docs/rules.md#55-standings-and-tiebreaks defines it: opponents' final points, and the player's
    /// own points for every round without a game.
    pub(super) fn buchholz(&self, player: &str) -> f64 {
        self.opponents
            .iter()
            .map(|round| match round.get(player).cloned().flatten() {
                Some(opponent) => self.points(&opponent),
                None => self.points(player),
            })
            .sum()
    }
}
