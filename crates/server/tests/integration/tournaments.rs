//! Tournaments against the real server, through the protocol (docs/rules.md#5-tournaments, docs/protocol.md
//! "Tournaments"): a Swiss played to the end with a bye, an annulled game replayed, an
//! adjudicated round, a dispute and a correction, a late join and a withdrawal; a
//! round-robin of five; a restart in the middle of a round; every forbidden action. On
//! SQLite, and on PostgreSQL when `TEST_POSTGRES_URL` is set.

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use crate::common::{Remote, TestServer};
use serde_json::{json, Value};

/// A tournament being driven: the server, its id, the director's token and every
/// player's token by player id.
struct Event<'a> {
    server: &'a Remote,
    id: String,
    director: String,
    tokens: HashMap<String, String>,
    names: HashMap<String, String>,
}

impl Event<'_> {
    /// A tournament with `settings`; an Omweso one starts from the `outer` preset unless
    /// they say otherwise (the free setup's arranging has tests of its own).
    async fn create(server: &Remote, mut settings: Value) -> Event<'_> {
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
    async fn round_robin(server: &Remote, players: usize) -> (Event<'_>, Vec<String>) {
        let settings = json!({"name":"Club round-robin","ruleset":"oware","system":"round-robin"});
        let mut event = Event::create(server, settings).await;
        let mut ids = Vec::new();
        for i in 0..players {
            ids.push(event.join(&format!("R{i}")).await);
        }
        (event, ids)
    }

    fn path(&self, rest: &str) -> String {
        format!("/api/tournaments/{}{rest}", self.id)
    }

    async fn join(&mut self, name: &str) -> String {
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

    async fn snapshot(&self) -> Value {
        let (status, r) = self.server.get(&self.path(""), &self.director).await;
        assert_eq!(status, 200, "{r}");
        r
    }

    /// Polls the snapshot until `done` holds (10 s at most).
    async fn until(&self, what: &str, done: impl Fn(&Value) -> bool) -> Value {
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

    async fn pair(&self) -> Value {
        let (status, r) = self
            .server
            .post(&self.path("/rounds"), &self.director, json!({}))
            .await;
        assert_eq!(status, 201, "{r}");
        assert_eq!(r["status"], "paired");
        r
    }

    async fn start(&self, n: u64) -> Value {
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
    async fn withdraw(&self, player: &str) {
        let (status, r) = self
            .server
            .post(&self.path("/withdraw"), &self.tokens[player], json!({}))
            .await;
        assert_eq!((status, &r), (200, &json!({})), "{r}");
    }

    /// `player` resigns the game `game`.
    async fn resign(&self, game: &str, player: &str) {
        let mut socket = self
            .server
            .socket(game, Some(&self.tokens[player]), None)
            .await;
        let state = socket.recv_type("state").await;
        assert_eq!(state["d"]["status"], "playing", "{state}");
        socket.send(json!({"t":"resign","d":{},"id":"r"})).await;
        socket.expect_ack("r").await;
    }

    async fn sheet(&self, game: &str, token: &str, body: Value) -> (u16, Value) {
        self.server
            .post(&self.path(&format!("/sheets/{game}")), token, body)
            .await
    }
}

fn round(snap: &Value, n: usize) -> &Value {
    &snap["rounds"][n - 1]
}

fn pairings(round: &Value) -> Vec<(String, Option<String>)> {
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

fn game_of(round: &Value, table: usize) -> String {
    round["pairings"][table - 1]["game_id"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// Each player's points, recomputed by the test from the results it scripted.
#[derive(Default)]
struct Tally {
    points: HashMap<String, f64>,
    /// Per round, each player's opponent (`None`: played no game that round).
    opponents: Vec<HashMap<String, Option<String>>>,
}

impl Tally {
    fn add(&mut self, player: &str, points: f64) {
        *self.points.entry(player.to_owned()).or_default() += points;
    }

    fn points(&self, player: &str) -> f64 {
        self.points.get(player).copied().unwrap_or(0.0)
    }

    /// Buchholz as docs/rules.md#55-standings-and-tiebreaks defines it: opponents' final points, and the player's
    /// own points for every round without a game.
    fn buchholz(&self, player: &str) -> f64 {
        self.opponents
            .iter()
            .map(|round| match round.get(player).cloned().flatten() {
                Some(opponent) => self.points(&opponent),
                None => self.points(player),
            })
            .sum()
    }
}

async fn swiss_played_to_the_end(database_url: &str) {
    let server = TestServer::start(database_url).await;
    let mut event = Event::create(
        &server,
        json!({"name":"Kampala Open","ruleset":"mweiso","system":"swiss","rounds":3,
               "round_minutes":1,
               "time_control":{"preset":"tournament","referee_seconds":null,"move_limit_seconds":2}}),
    )
    .await;
    let mut players = Vec::new();
    for i in 0..8 {
        players.push(event.join(&format!("P{i}")).await);
    }
    let snap = event.snapshot().await;
    assert_eq!(snap["status"], "open");
    assert_eq!(snap["settings"]["rounds"], 3);
    assert_eq!(snap["settings"]["points"]["akawumbi"], 6.0);
    assert_eq!(snap["players"].as_array().unwrap().len(), 8);

    // A spectator watches the whole tournament on one socket.
    let mut watcher = server
        .socket_at(&format!("/ws/tournaments/{}", event.id))
        .await;
    let state = watcher.recv_type("state").await;
    assert_eq!(state["d"]["tournament_id"], event.id.as_str());

    let mut tally = Tally::default();

    // ----- round 1: the top half meets the bottom half -----
    let r1 = event.pair().await;
    let pairs = pairings(&r1);
    let met: Vec<HashSet<&str>> = pairs
        .iter()
        .map(|(a, b)| HashSet::from([a.as_str(), b.as_deref().unwrap()]))
        .collect();
    for (table, (a, b)) in [(0, 4), (1, 5), (2, 6), (3, 7)].into_iter().enumerate() {
        assert_eq!(
            met[table],
            HashSet::from([players[a].as_str(), players[b].as_str()]),
            "table {}",
            table + 1
        );
    }
    let r1 = event.start(1).await;
    let mut round_opponents = HashMap::new();
    for (a, b) in &pairs {
        round_opponents.insert(a.clone(), b.clone());
        round_opponents.insert(b.clone().unwrap(), Some(a.clone()));
    }
    tally.opponents.push(round_opponents);
    // Table 1: the second resigns (later disputed and corrected to a draw).
    let (first, second) = (&pairs[0].0, pairs[0].1.as_ref().unwrap());
    event.resign(&game_of(&r1, 1), second).await;
    // Table 2 and 3: the first resigns.
    event.resign(&game_of(&r1, 2), &pairs[1].0).await;
    tally.add(pairs[1].1.as_ref().unwrap(), 1.0);
    event.resign(&game_of(&r1, 3), &pairs[2].0).await;
    tally.add(pairs[2].1.as_ref().unwrap(), 1.0);
    // Table 4: the first player's opening turn, C1, sows 32 seeds, past what the 2 s move
    // limit allows (8 at 4 a second): the game is annulled, and replayed with the first
    // move swapped.
    let annulled = game_of(&r1, 4);
    let (t4_first, t4_second) = (pairs[3].0.clone(), pairs[3].1.clone().unwrap());
    let mut south = server
        .socket(&annulled, Some(&event.tokens[&t4_first]), None)
        .await;
    south.recv_type("state").await;
    south
        .send(json!({"t":"move","d":{"move":"C1"},"id":"m"}))
        .await;
    south.expect_ack("m").await;
    // The move reaches the watcher as the table's board.
    loop {
        let m = watcher.recv().await;
        if m["t"] == "board" && m["d"]["game_id"] == annulled.as_str() {
            assert_eq!(m["d"]["table"], 4);
            assert_eq!(m["d"]["round"], 1);
            break;
        }
    }
    let snap = event
        .until("the annulled game's replay", |s| {
            round(s, 1)["pairings"][3]["game_id"] != annulled.as_str()
        })
        .await;
    let t4 = &round(&snap, 1)["pairings"][3];
    assert_eq!(t4["replaced"][0]["game_id"], annulled.as_str());
    assert_eq!(t4["replaced"][0]["sheet"]["first_result"], "annulled");
    assert_eq!(t4["replaced"][0]["sheet"]["victory"], "budget");
    let replay = t4["game_id"].as_str().unwrap().to_owned();
    // The replay swaps the first move: the pairing's second now sits South.
    let (status, game) = server
        .get(&format!("/api/games/{replay}"), &event.director)
        .await;
    assert_eq!(status, 200);
    assert_eq!(game["seats"]["s"]["name"], event.names[&t4_second].as_str());
    event.resign(&replay, &t4_second).await;
    tally.add(&t4_first, 1.0);

    let snap = event
        .until("round 1 finished", |s| round(s, 1)["status"] == "finished")
        .await;
    let t1_game = game_of(round(&snap, 1), 1);
    assert_eq!(
        round(&snap, 1)["pairings"][0]["sheet"]["first_result"],
        "won"
    );
    assert_eq!(
        round(&snap, 1)["pairings"][0]["sheet"]["victory"],
        "resigned"
    );
    assert_eq!(round(&snap, 1)["pairings"][0]["sheet"]["status"], "pending");

    // Both players of table 2 confirm: confirmed.
    let t2_game = game_of(round(&snap, 1), 2);
    for player in [&pairs[1].0, pairs[1].1.as_ref().unwrap()] {
        let (status, r) = event
            .sheet(&t2_game, &event.tokens[player], json!({"action":"confirm"}))
            .await;
        assert_eq!(status, 200, "{r}");
    }
    let (status, r) = event
        .sheet(
            &t2_game,
            &event.tokens[&pairs[1].0],
            json!({"action":"confirm"}),
        )
        .await;
    assert_eq!(
        (status, &r["error"]["code"]),
        (409, &json!("sheet_settled")),
        "{r}"
    );
    let snap = event.snapshot().await;
    assert_eq!(
        round(&snap, 1)["pairings"][1]["sheet"]["status"],
        "confirmed"
    );

    // Table 1's loser disputes; the director corrects it to a draw, with a reason.
    let (status, r) = event
        .sheet(
            &t1_game,
            &event.tokens[second],
            json!({"action":"dispute","reason":"we agreed a draw before I left"}),
        )
        .await;
    assert_eq!(status, 200, "{r}");
    assert_eq!(r["status"], "disputed");
    let (status, r) = event
        .sheet(
            &t1_game,
            &event.director,
            json!({"action":"correct","result":{"result":"draw"},"reason":"both players agree"}),
        )
        .await;
    assert_eq!(status, 200, "{r}");
    assert_eq!(r["status"], "corrected");
    assert_eq!(r["first_result"], "drawn");
    assert_eq!(r["points"]["first"], 0.5);
    assert_eq!(r["corrections"][0]["reason"], "both players agree");
    assert_eq!(r["corrections"][0]["before"]["first_result"], "won");
    assert_eq!(r["corrections"][0]["by_name"], "TD");
    tally.add(first, 0.5);
    tally.add(second, 0.5);

    // ----- a withdrawal: seven play round 2, so one has the bye -----
    let withdrawn = players[7].clone();
    event.withdraw(&withdrawn).await;
    let r2 = event.pair().await;
    let pairs = pairings(&r2);
    assert_eq!(pairs.len(), 4);
    assert!(pairs
        .iter()
        .all(|(a, b)| *a != withdrawn && b.as_ref() != Some(&withdrawn)));
    let bye = pairs.iter().find(|(_, b)| b.is_none()).unwrap().0.clone();
    assert_eq!(pairs.last().unwrap().1, None, "the bye is the last table");
    // The bye goes to the lowest-ranked player of the lowest score group.
    let active: Vec<&String> = players.iter().filter(|p| **p != withdrawn).collect();
    let lowest = active
        .iter()
        .map(|p| tally.points(p))
        .fold(f64::INFINITY, f64::min);
    let expected_bye = active.iter().rfind(|p| tally.points(p) == lowest).unwrap();
    assert_eq!(&&bye, expected_bye);
    // Nobody meets a round-1 opponent again.
    for (a, b) in &pairs {
        if let Some(b) = b {
            assert_ne!(tally.opponents[0][a].as_ref(), Some(b), "{a} met {b} twice");
        }
    }
    let r2 = event.start(2).await;
    assert_eq!(r2["pairings"][3]["sheet"]["first_result"], "bye");
    tally.add(&bye, 1.0);
    let mut round_opponents = HashMap::new();
    for (t, (a, b)) in pairs.iter().enumerate() {
        round_opponents.insert(a.clone(), b.clone());
        if let Some(b) = b {
            round_opponents.insert(b.clone(), Some(a.clone()));
            event.resign(&game_of(&r2, t + 1), b).await;
            tally.add(a, 1.0);
        }
    }
    tally.opponents.push(round_opponents);
    // A late join, while round 2 is played: P8 missed rounds 1 and 2 (0 points, no bye).
    let late = event.join("P8").await;
    event
        .until("round 2 finished", |s| round(s, 2)["status"] == "finished")
        .await;

    // ----- round 3: eight again, the last game adjudicated -----
    let r3 = event.pair().await;
    let pairs = pairings(&r3);
    assert_eq!(pairs.len(), 4);
    assert!(pairs.iter().all(|(_, b)| b.is_some()));
    assert!(pairs
        .iter()
        .any(|(a, b)| *a == late || b.as_ref() == Some(&late)));
    // Closed now: the last round is paired.
    let (token, _) = server.session("Too late").await;
    let (status, r) = server.post(&event.path("/join"), &token, json!({})).await;
    assert_eq!(status, 409, "{r}");
    assert_eq!(r["error"]["code"], "tournament_closed");
    let r3 = event.start(3).await;
    let mut round_opponents = HashMap::new();
    for (t, (a, b)) in pairs.iter().enumerate() {
        let b = b.clone().unwrap();
        round_opponents.insert(a.clone(), Some(b.clone()));
        round_opponents.insert(b.clone(), Some(a.clone()));
        if t < 3 {
            event.resign(&game_of(&r3, t + 1), &b).await;
            tally.add(a, 1.0);
        } else {
            // Nobody moves: the director ends the round and the game is adjudicated on
            // the seeds on each side, equal at the start: a draw.
            tally.add(a, 0.5);
            tally.add(&b, 0.5);
        }
    }
    tally.opponents.push(round_opponents);
    event
        .until("three games of round 3 over", |s| {
            round(s, 3)["pairings"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|p| !p["sheet"].is_null())
                .count()
                == 3
        })
        .await;
    let (status, r) = server
        .post(&event.path("/rounds/3/end"), &event.director, json!({}))
        .await;
    assert_eq!(status, 200, "{r}");
    let snap = event
        .until("the tournament finished", |s| s["status"] == "finished")
        .await;
    let adjudicated = &round(&snap, 3)["pairings"][3]["sheet"];
    assert_eq!(adjudicated["first_result"], "adjudicated-drawn");
    assert_eq!(adjudicated["points"]["second"], 0.5);

    // ----- the standings, as the test counted them -----
    let standings = snap["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 9);
    for line in standings {
        let id = line["player_id"].as_str().unwrap();
        assert_eq!(
            line["points"].as_f64().unwrap(),
            tally.points(id),
            "points of {line}"
        );
        assert_eq!(
            line["buchholz"].as_f64().unwrap(),
            tally.buchholz(id),
            "Buchholz of {line}"
        );
    }
    assert_eq!(
        standings
            .iter()
            .find(|l| l["player_id"] == withdrawn.as_str())
            .unwrap()["games"],
        1
    );
    let key = |l: &Value| {
        (
            l["points"].as_f64().unwrap(),
            l["buchholz"].as_f64().unwrap(),
            l["sonneborn_berger"].as_f64().unwrap(),
            l["seeds"].as_u64().unwrap(),
        )
    };
    for pair in standings.windows(2) {
        assert!(key(&pair[0]) >= key(&pair[1]), "{pair:?}");
        if key(&pair[0]) > key(&pair[1]) {
            assert!(pair[0]["rank"].as_u64() < pair[1]["rank"].as_u64());
        }
    }

    // ----- the exports -----
    let (status, csv) = server
        .get_text(&event.path("/standings.csv"), &event.director)
        .await;
    assert_eq!(status, 200);
    let lines: Vec<&str> = csv.lines().collect();
    assert!(lines[0].starts_with("rank,player_id,name,points,buchholz"));
    assert_eq!(lines.len(), 10);
    for (line, standing) in lines[1..].iter().zip(standings) {
        let cells: Vec<&str> = line.split(',').collect();
        assert_eq!(cells[1], standing["player_id"].as_str().unwrap());
        assert_eq!(
            cells[3].parse::<f64>().unwrap(),
            standing["points"].as_f64().unwrap()
        );
    }
    let (status, sheets) = server
        .get_text(&event.path("/sheets.csv"), &event.director)
        .await;
    assert_eq!(status, 200);
    assert!(sheets.contains("both players agree"), "{sheets}");
    assert!(sheets.contains(",replayed,"), "{sheets}");
    assert!(sheets.contains(",adjudicated-drawn,"), "{sheets}");
    let (status, trf) = server
        .get_text(&event.path("/tournament.trf"), &event.director)
        .await;
    assert_eq!(status, 200);
    assert!(trf.starts_with("012 Kampala Open\n"), "{trf}");
    assert!(trf.contains("\nXXR 3\n"), "{trf}");
    let player_lines: Vec<&str> = trf.lines().filter(|l| l.starts_with("001 ")).collect();
    assert_eq!(player_lines.len(), 9);
    // P8, start rank 9, joined late: two rounds without a game, then a game.
    let p8 = player_lines[8];
    assert_eq!(&p8[4..8], "   9");
    assert_eq!(&p8[91..99], "0000 - Z");
    assert_eq!(&p8[101..109], "0000 - Z");
    server.stop().await;
}

#[tokio::test]
async fn a_swiss_is_played_to_the_end_with_sqlite() {
    swiss_played_to_the_end("sqlite::memory:").await;
}

#[tokio::test]
async fn a_swiss_is_played_to_the_end_with_postgres() {
    let Some(database) = crate::common::FreshPostgres::create("omweso_swiss").await else {
        eprintln!("TEST_POSTGRES_URL is not set: skipping the PostgreSQL Swiss");
        return;
    };
    swiss_played_to_the_end(&database.url).await;
    database.drop_database().await;
}

#[tokio::test]
async fn a_round_robin_of_five() {
    let server = TestServer::start("sqlite::memory:").await;
    let (event, players) = Event::round_robin(&server, 5).await;
    let snap = event.snapshot().await;
    assert_eq!(snap["rounds_planned"], 5);
    let mut points: HashMap<String, f64> = HashMap::new();
    let mut met = HashSet::new();
    let mut byes = HashMap::new();
    for n in 1..=5 {
        let pairs = pairings(&event.pair().await);
        assert_eq!(pairs.len(), 3, "two games and a bye each round");
        let r = event.start(n).await;
        for (t, (a, b)) in pairs.iter().enumerate() {
            match b {
                Some(b) => {
                    assert!(
                        met.insert((a.min(b).clone(), a.max(b).clone())),
                        "{a} met {b} twice"
                    );
                    event.resign(&game_of(&r, t + 1), b).await;
                    *points.entry(a.clone()).or_default() += 1.0;
                }
                None => {
                    *byes.entry(a.clone()).or_insert(0) += 1;
                    *points.entry(a.clone()).or_default() += 1.0;
                }
            }
        }
        event
            .until("the round finished", |s| {
                round(s, n as usize)["status"] == "finished"
            })
            .await;
    }
    assert_eq!(met.len(), 10, "every pair met once");
    assert!(players.iter().all(|p| byes.get(p) == Some(&1)), "{byes:?}");
    let snap = event.snapshot().await;
    assert_eq!(snap["status"], "finished");
    for line in snap["standings"].as_array().unwrap() {
        let id = line["player_id"].as_str().unwrap();
        assert_eq!(line["points"].as_f64().unwrap(), points[id], "{line}");
    }
    // The tournament is complete: no sixth round.
    let (status, r) = server
        .post(&event.path("/rounds"), &event.director, json!({}))
        .await;
    assert_eq!(status, 409, "{r}");
    assert_eq!(r["error"]["code"], "round_not_ready");
    server.stop().await;
}

/// A player who withdraws from a round-robin loses the rest of their games by forfeit
/// (docs/tournaments.md): withdrawn after round 1 is paired and before it starts, their
/// pairing of every round is still there (the Berger table is fixed), decided at each
/// start: a sheet without a game, confirmed at once, `forfeit-won` 1 for the opponent,
/// `forfeit-lost` 0 for them. The exact standings follow.
#[tokio::test]
async fn a_round_robin_withdrawal_forfeits_the_rest_of_the_players_games() {
    let server = TestServer::start("sqlite::memory:").await;
    let (event, players) = Event::round_robin(&server, 4).await;
    assert_eq!(event.snapshot().await["rounds_planned"], 3);
    let withdrawn = players[3].clone();
    let mut points: HashMap<String, f64> = players.iter().map(|p| (p.clone(), 0.0)).collect();
    let mut forfeits = 0;
    for n in 1..=3 {
        let pairs = pairings(&event.pair().await);
        assert_eq!(pairs.len(), 2, "two tables, no bye: {pairs:?}");
        if n == 1 {
            event.withdraw(&withdrawn).await;
        }
        let started = event.start(n).await;
        for (t, (first, second)) in pairs.iter().enumerate() {
            let second = second.as_ref().expect("no bye among four");
            let pairing = &started["pairings"][t];
            if *first == withdrawn || *second == withdrawn {
                let (winner_result, loser_result) = if *first == withdrawn {
                    ("forfeit-lost", "forfeit-won")
                } else {
                    ("forfeit-won", "forfeit-lost")
                };
                let sheet = &pairing["sheet"];
                assert_eq!(pairing["game_id"], Value::Null, "{pairing}");
                assert_eq!(
                    (
                        &sheet["status"],
                        &sheet["first_result"],
                        &sheet["second_result"],
                        &sheet["victory"],
                        &sheet["game_id"],
                    ),
                    (
                        &json!("confirmed"),
                        &json!(winner_result),
                        &json!(loser_result),
                        &json!("forfeit"),
                        &Value::Null,
                    ),
                    "round {n}: {sheet}"
                );
                let (first_points, second_points) = if *first == withdrawn {
                    (0.0, 1.0)
                } else {
                    (1.0, 0.0)
                };
                assert_eq!(
                    sheet["points"],
                    json!({"first": first_points, "second": second_points}),
                    "round {n}: {sheet}"
                );
                let opponent = if *first == withdrawn { second } else { first };
                *points.get_mut(opponent).unwrap() += 1.0;
                forfeits += 1;
            } else {
                // The others play: the second resigns.
                event.resign(&game_of(&started, t + 1), second).await;
                *points.get_mut(first).unwrap() += 1.0;
            }
        }
        event
            .until("the round finished", |s| {
                round(s, n as usize)["status"] == "finished"
            })
            .await;
    }
    assert_eq!(forfeits, 3, "one forfeit in each of the three rounds");
    let snap = event.snapshot().await;
    assert_eq!(snap["status"], "finished");
    let standings = snap["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 4, "{standings:?}");
    for line in standings {
        let id = line["player_id"].as_str().unwrap();
        assert_eq!(line["points"].as_f64().unwrap(), points[id], "{line}");
    }
    let last = standings.last().unwrap();
    assert_eq!(last["player_id"], withdrawn.as_str(), "{standings:?}");
    assert_eq!(last["points"], 0.0, "{last}");
    let withdrawn_entry = snap["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["player_id"] == withdrawn.as_str())
        .unwrap();
    assert_eq!(withdrawn_entry["withdrawn"], true, "{withdrawn_entry}");
    server.stop().await;
}

async fn restart_in_the_middle_of_a_round(database_url: &str) {
    let server = TestServer::start(database_url).await;
    let mut event = Event::create(
        &server,
        json!({"name":"Restart","ruleset":"omweso","rounds":1,"round_minutes":0.15,
               "time_control":{"preset":"tournament","referee_seconds":null}}),
    )
    .await;
    let a = event.join("A").await;
    let b = event.join("B").await;
    event.pair().await;
    let r1 = event.start(1).await;
    let game = game_of(&r1, 1);
    let first = r1["pairings"][0]["first"].as_str().unwrap().to_owned();
    assert!(first == a || first == b);
    let mut south = server
        .socket(&game, Some(&event.tokens[&first]), None)
        .await;
    let state = south.recv_type("state").await;
    let mv = state["d"]["legal_moves"][0].as_str().unwrap().to_owned();
    south
        .send(json!({"t":"move","d":{"move":mv},"id":"m"}))
        .await;
    south.expect_ack("m").await;
    drop(south);
    let before = event.snapshot().await;
    let director = event.director.clone();
    let tokens = event.tokens.clone();
    let id = event.id.clone();
    server.stop().await;

    let server = TestServer::start(database_url).await;
    let event = Event {
        server: &server,
        id,
        director,
        tokens,
        names: HashMap::new(),
    };
    let after = event.snapshot().await;
    assert_eq!(after["version"], before["version"]);
    assert_eq!(after["rounds"], before["rounds"]);
    assert_eq!(after["standings"], before["standings"]);
    let deadline = round(&after, 1)["deadline"].as_u64().unwrap();
    // The round ends on time: the game, one move played, is adjudicated.
    let snap = event
        .until("the round's end", |s| round(s, 1)["status"] == "finished")
        .await;
    let sheet = &round(&snap, 1)["pairings"][0]["sheet"];
    let result = sheet["first_result"].as_str().unwrap();
    assert!(result.starts_with("adjudicated-"), "{sheet}");
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64;
    assert!(now >= deadline, "ended before its deadline");
    assert!(now < deadline + 5_000, "ended {} ms late", now - deadline);
    assert_eq!(snap["status"], "finished");
    server.stop().await;
}

#[tokio::test]
async fn a_restart_in_the_middle_of_a_round_loses_nothing_with_sqlite() {
    let path = std::env::temp_dir().join(format!("omweso-tournament-{}.db", uuid::Uuid::new_v4()));
    let url = format!("sqlite://{}", path.display());
    restart_in_the_middle_of_a_round(&url).await;
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
}

#[tokio::test]
async fn a_restart_in_the_middle_of_a_round_loses_nothing_with_postgres() {
    let Some(database) = crate::common::FreshPostgres::create("omweso_trestart").await else {
        eprintln!("TEST_POSTGRES_URL is not set: skipping the PostgreSQL tournament restart");
        return;
    };
    restart_in_the_middle_of_a_round(&database.url).await;
    database.drop_database().await;
}

#[tokio::test]
async fn every_forbidden_action_is_refused_saying_why() {
    let server = TestServer::start("sqlite::memory:").await;
    let mut event = Event::create(&server, json!({"name":"Rules","rounds":2})).await;
    let a = event.join("A").await;
    let b = event.join("B").await;
    let c = event.join("C").await;
    let d = event.join("D").await;
    let (outsider, _) = server.session("Outsider").await;
    let expect = |(status, r): (u16, Value), code: &str, http: u16| {
        assert_eq!(status, http, "{r}");
        assert_eq!(r["error"]["code"], code, "{r}");
        assert!(!r["error"]["message"].as_str().unwrap().is_empty());
    };
    // Joining twice.
    expect(
        server
            .post(&event.path("/join"), &event.tokens[&a], json!({}))
            .await,
        "already_joined",
        409,
    );
    // Only the director pairs, edits, starts, ends and withdraws others.
    expect(
        server
            .post(&event.path("/rounds"), &event.tokens[&a], json!({}))
            .await,
        "not_director",
        403,
    );
    expect(
        server
            .post(
                &event.path("/withdraw"),
                &event.tokens[&a],
                json!({"player_id": b}),
            )
            .await,
        "not_director",
        403,
    );
    event.pair().await;
    expect(
        server
            .put(
                &event.path("/rounds/1"),
                &event.tokens[&a],
                json!({"pairings":[{"first":a,"second":b},{"first":c,"second":d}]}),
            )
            .await,
        "not_director",
        403,
    );
    // A pairing naming someone twice, or a stranger.
    expect(
        server
            .put(
                &event.path("/rounds/1"),
                &event.director,
                json!({"pairings":[{"first":a,"second":b},{"first":a,"second":d}]}),
            )
            .await,
        "bad_pairing",
        400,
    );
    // The director's own pairing is taken when it keeps the rules.
    let (status, r) = server
        .put(
            &event.path("/rounds/1"),
            &event.director,
            json!({"pairings":[{"first":a,"second":c},{"first":b,"second":d}]}),
        )
        .await;
    assert_eq!(status, 200, "{r}");
    assert_eq!(r["manual"], true);
    expect(
        server
            .post(&event.path("/rounds/1/start"), &event.tokens[&a], json!({}))
            .await,
        "not_director",
        403,
    );
    let r1 = event.start(1).await;
    expect(
        server
            .post(&event.path("/rounds/1/start"), &event.director, json!({}))
            .await,
        "round_not_ready",
        409,
    );
    expect(
        server
            .post(&event.path("/rounds/1/end"), &event.tokens[&a], json!({}))
            .await,
        "not_director",
        403,
    );
    // The next round cannot be paired while this one is played.
    expect(
        server
            .post(&event.path("/rounds"), &event.director, json!({}))
            .await,
        "round_not_ready",
        409,
    );
    let g1 = game_of(&r1, 1);
    // A sheet before its game ends.
    expect(
        event
            .sheet(&g1, &event.tokens[&a], json!({"action":"confirm"}))
            .await,
        "not_started",
        409,
    );
    event.resign(&g1, &c).await;
    event.resign(&game_of(&r1, 2), &d).await;
    event
        .until("round 1 finished", |s| round(s, 1)["status"] == "finished")
        .await;
    // A player confirming someone else's sheet; a player correcting; an outsider.
    expect(
        event
            .sheet(&g1, &event.tokens[&b], json!({"action":"confirm"}))
            .await,
        "not_your_game",
        403,
    );
    expect(
        event
            .sheet(
                &g1,
                &event.tokens[&a],
                json!({"action":"correct","result":{"result":"draw"},"reason":"x"}),
            )
            .await,
        "not_director",
        403,
    );
    expect(
        event
            .sheet(&g1, &outsider, json!({"action":"dispute","reason":"no"}))
            .await,
        "not_your_game",
        403,
    );
    // A dispute or a correction without a reason.
    expect(
        event
            .sheet(
                &g1,
                &event.tokens[&c],
                json!({"action":"dispute","reason":"  "}),
            )
            .await,
        "bad_reason",
        400,
    );
    expect(
        event
            .sheet(
                &g1,
                &event.director,
                json!({"action":"correct","result":{"result":"draw"},"reason":""}),
            )
            .await,
        "bad_reason",
        400,
    );
    // Round 2 by hand, repeating round 1's pairing: a breach of rule 1, refused unless
    // confirmed, and recorded when confirmed.
    let repeat = json!({"pairings":[{"first":a,"second":c},{"first":b,"second":d}]});
    expect(
        server
            .put(&event.path("/rounds/2"), &event.director, repeat.clone())
            .await,
        "pairing_breach",
        409,
    );
    let mut confirmed = repeat;
    confirmed["confirm_breach"] = json!(true);
    let (status, r) = server
        .put(&event.path("/rounds/2"), &event.director, confirmed)
        .await;
    assert_eq!(status, 200, "{r}");
    assert!(!r["breaches"].as_array().unwrap().is_empty(), "{r}");
    // Bad bodies and unknown things.
    expect(
        server
            .post(
                "/api/tournaments",
                &event.director,
                json!({"name":"x","system":"knockout"}),
            )
            .await,
        "bad_body",
        400,
    );
    expect(
        server
            .post(
                "/api/tournaments",
                &event.director,
                json!({"name":"","rounds":3}),
            )
            .await,
        "bad_settings",
        400,
    );
    expect(
        server
            .get(
                &format!("/api/tournaments/{}", uuid::Uuid::new_v4()),
                &outsider,
            )
            .await,
        "not_found",
        404,
    );
    expect(
        server
            .get("/api/tournaments?list=everything", &outsider)
            .await,
        "bad_list",
        400,
    );
    // A player's tournament socket knows who they are; everyone may watch.
    let (status, mine) = server.get(&event.path(""), &event.tokens[&a]).await;
    assert_eq!(status, 200, "{mine}");
    assert_eq!(mine["you"], a.as_str());
    let mut socket = server
        .socket_at(&format!(
            "/ws/tournaments/{}?token={}",
            event.id, event.tokens[&a]
        ))
        .await;
    let state = socket.recv_type("state").await;
    assert_eq!(state["d"]["you"], a.as_str(), "{}", state["d"]["players"]);
    socket.send(json!({"t":"move","d":{"move":"E1"}})).await;
    let refusal = socket.recv_type("error").await;
    assert_eq!(refusal["d"]["code"], "unknown_type");
    let (status, r) = server.get(&event.path(""), &outsider).await;
    assert_eq!(status, 200);
    assert_eq!(r["you"], Value::Null);
    let (status, r) = server.get("/api/tournaments?list=running", &outsider).await;
    assert_eq!(status, 200);
    assert_eq!(r["tournaments"][0]["tournament_id"], event.id.as_str());
    assert_eq!(r["tournaments"][0]["players"], 4);
    server.stop().await;
}

/// docs/rules.md#4-play-under-the-referee-server-rules: a round's games start together, but no count runs against a player who is
/// not at the table yet; a player who never comes loses by abandonment, never by a steal.
/// (On the event day every table showed "steal!" about 2 s after the round started.)
#[tokio::test]
async fn no_steal_opens_at_a_rounds_start_before_both_players_are_at_the_table() {
    let server = TestServer::start("sqlite::memory:").await;
    let mut event = Event::create(&server, json!({"name":"Club night","rounds":1})).await;
    let a = event.join("Kato").await;
    let b = event.join("Nakato").await;
    event.pair().await;
    let r = event.start(1).await;
    let game = game_of(&r, 1);
    // Longer than the 3 s count and its 1 s allowance: nobody has come to the table.
    tokio::time::sleep(Duration::from_millis(4_500)).await;
    let snap = server.snapshot(&event.tokens[&a], &game).await;
    assert_eq!(snap["status"], "playing", "{snap}");
    assert_eq!(snap["clock"]["steal_open"], false, "{snap}");
    assert_eq!(snap["clock"]["referee_deadline"], Value::Null, "{snap}");
    // Both players open the game: the count starts with the second, and says so.
    let mut first = server.socket(&game, Some(&event.tokens[&a]), None).await;
    first.recv_type("state").await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let arrived = omweso_protocol::clock::now_ms();
    let mut second = server.socket(&game, Some(&event.tokens[&b]), None).await;
    second.recv_type("state").await;
    let count = first.recv_type("count").await;
    let deadline = count["d"]["clock"]["referee_deadline"].as_u64().unwrap();
    // 3 s from the second player's arrival, with the allowance for a round trip not yet
    // measured (at most 1 s): never earlier.
    assert!(
        (arrived + 3_000..=arrived + 4_000 + 500).contains(&deadline),
        "the count ends {} ms after the second player arrived",
        deadline.saturating_sub(arrived)
    );
    let steal = first.recv_type("steal").await;
    assert!(omweso_protocol::clock::now_ms() >= deadline, "{steal}");
    server.stop().await;
}

/// A round of 0.1 minute was accepted on an event day (a game was adjudicated after one
/// stolen move): a server as deployed refuses a round shorter than 5 minutes, saying why,
/// and takes 5.
#[tokio::test]
async fn a_round_shorter_than_five_minutes_is_refused() {
    let mut config = omweso_server::config::ServeConfig::for_tests("sqlite::memory:");
    config.limits.min_round_minutes = omweso_server::config::Limits::defaults().min_round_minutes;
    let server = TestServer::start_with(config).await;
    let (director, _) = server.session("TD").await;
    let (status, r) = server
        .post(
            "/api/tournaments",
            &director,
            json!({"name":"Blitz","round_minutes":0.1}),
        )
        .await;
    assert_eq!(status, 400, "{r}");
    assert_eq!(r["error"]["code"], "bad_settings");
    assert_eq!(
        r["error"]["message"],
        "round_minutes must be from 5 to 1440: a round of 0.1 min cannot hold a game \
         (one turn may take 3 minutes, and a player who never comes loses only after 2)"
    );
    let (status, r) = server
        .post(
            "/api/tournaments",
            &director,
            json!({"name":"Rapid","round_minutes":5}),
        )
        .await;
    assert_eq!(status, 201, "{r}");
    server.stop().await;
}

/// Forbidden pairs chosen once the players have joined (they were typed as ids at
/// creation, when nobody had joined yet): the director replaces the list, refusals say what
/// is wrong, and the next pairing keeps the pairs apart, also after a restart.
#[tokio::test]
async fn the_director_sets_forbidden_pairs_among_the_players() {
    let path = std::env::temp_dir().join(format!("omweso-forbidden-{}.db", uuid::Uuid::new_v4()));
    let url = format!("sqlite://{}", path.display());
    let server = TestServer::start(&url).await;
    let mut event = Event::create(&server, json!({"name":"Family Cup","rounds":1})).await;
    let a = event.join("A").await;
    let b = event.join("B").await;
    let c = event.join("C").await;
    let d = event.join("D").await;
    let put = |token: String, body: Value| {
        let path = event.path("/forbidden-pairs");
        let server = &server;
        async move { server.put(&path, &token, body).await }
    };
    // Only the director.
    let (status, r) = put(
        event.tokens[&a].clone(),
        json!({"forbidden_pairs":[[a, b]]}),
    )
    .await;
    assert_eq!(
        (status, r["error"]["code"].as_str()),
        (403, Some("not_director")),
        "{r}"
    );
    // Someone with themselves; someone not in the tournament; a malformed body.
    let (status, r) = put(event.director.clone(), json!({"forbidden_pairs":[[a, a]]})).await;
    assert_eq!(status, 400, "{r}");
    assert_eq!(
        r["error"]["message"],
        format!("a player cannot be kept apart from themselves ({a})")
    );
    let stranger = "01a20815-0000-7000-8000-000000000000";
    let (status, r) = put(
        event.director.clone(),
        json!({"forbidden_pairs":[[a, stranger]]}),
    )
    .await;
    assert_eq!(
        (status, r["error"]["code"].as_str()),
        (409, Some("not_in_tournament")),
        "{r}"
    );
    assert_eq!(
        r["error"]["message"],
        format!("{stranger} is not a player of this tournament")
    );
    let (status, r) = put(event.director.clone(), json!({"pairs":[]})).await;
    assert_eq!(
        (status, r["error"]["code"].as_str()),
        (400, Some("bad_body")),
        "{r}"
    );
    // A and B are family, C and D club mates (given twice, either way round: kept once).
    let (status, r) = put(
        event.director.clone(),
        json!({"forbidden_pairs":[[a, b], [c, d], [d, c]]}),
    )
    .await;
    assert_eq!(status, 200, "{r}");
    assert_eq!(r, json!({"forbidden_pairs":[[a, b], [c, d]]}));
    let snap = event.snapshot().await;
    assert_eq!(snap["settings"]["forbidden_pairs"], json!([[a, b], [c, d]]));
    // After a restart the list is as set (the log replays it), and the pairing keeps it.
    let (director, tokens, id) = (
        event.director.clone(),
        event.tokens.clone(),
        event.id.clone(),
    );
    server.stop().await;
    let server = TestServer::start(&url).await;
    let event = Event {
        server: &server,
        id,
        director,
        tokens,
        names: HashMap::new(),
    };
    assert_eq!(
        event.snapshot().await["settings"]["forbidden_pairs"],
        json!([[a, b], [c, d]])
    );
    let round = event.pair().await;
    for (first, second) in pairings(&round) {
        let pair = [first.clone(), second.clone().unwrap_or_default()];
        assert!(
            !(pair.contains(&a) && pair.contains(&b) || pair.contains(&c) && pair.contains(&d)),
            "{first} met {second:?}: {round}"
        );
    }
    server.stop().await;
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
}
