//! A hybrid Swiss against the real server (docs/rules.md#57-over-the-board-play-and-relays):
//! eight players over three rounds, each round with two tables online and two at a wooden
//! board, one of those relayed. Sheets are entered and initialled from the players'
//! phones (the API they use), one pair of differing entries is settled by the director, a
//! player without a device is added and acted for by the director, the relay takes back
//! an entry, the last round is ended with tables unfinished (the relayed game adjudicated
//! from its last entered position, the board table left to the director), and the server
//! restarts in the middle of a round. The standings are recomputed from the sheets and
//! checked; and every permission is tried from the wrong hands.

use std::collections::HashMap;

use crate::common::TestServer;
use serde_json::{json, Value};

use super::*;

/// The tables of a round as this test plays them.
struct Plan {
    round: u64,
    /// The table where the player without a device sits (over the board).
    okello: u64,
    /// The other board table.
    other: u64,
    /// The two online tables.
    online: Vec<u64>,
}

impl Event<'_> {
    fn table_path(&self, round: u64, table: u64, rest: &str) -> String {
        self.path(&format!("/tables/{round}/{table}/{rest}"))
    }

    async fn board(&self, token: &str, round: u64, table: u64, body: Value) -> (u16, Value) {
        self.server
            .post(&self.table_path(round, table, "sheet"), token, body)
            .await
    }

    async fn relay_act(&self, token: &str, round: u64, table: u64, body: Value) -> (u16, Value) {
        self.server
            .post(&self.table_path(round, table, "relay/act"), token, body)
            .await
    }

    fn token(&self, player: &str) -> &str {
        &self.tokens[player]
    }
}

fn pairing(snap: &Value, round: u64, table: u64) -> &Value {
    &snap["rounds"][round as usize - 1]["pairings"][table as usize - 1]
}

fn players_at(snap: &Value, round: u64, table: u64) -> (String, String) {
    let p = pairing(snap, round, table);
    (
        p["first"].as_str().unwrap().to_owned(),
        p["second"].as_str().unwrap().to_owned(),
    )
}

fn enter(winner: Option<&str>, victory: Option<&str>, seeds: [u64; 2]) -> Value {
    json!({"action":"enter","winner":winner,"victory":victory,
           "seeds":{"first":seeds[0],"second":seeds[1]}})
}

/// A whole legal move of the relayed game now, as its snapshot lists them.
async fn a_legal_move(server: &Remote, game: &str, token: &str) -> (String, Value) {
    let (status, snap) = server.get(&format!("/api/games/{game}"), token).await;
    assert_eq!(status, 200, "{snap}");
    assert_eq!(snap["status"], "playing", "{snap}");
    let mv = snap["legal_moves"][0]
        .as_str()
        .unwrap_or_else(|| panic!("no legal move: {snap}"))
        .to_owned();
    (mv, snap)
}

/// Pairs round `round`, puts Okello's table and one other at the board (the director
/// only, and only before the start), and says which is which.
async fn pair_and_place(event: &Event<'_>, round: u64, okello: &str) -> Plan {
    let view = event.pair().await;
    let tables: Vec<(String, Option<String>)> = pairings(&view);
    assert_eq!(tables.len(), 4, "eight players, four tables: {view}");
    let okello_table = tables
        .iter()
        .position(|(a, b)| a == okello || b.as_deref() == Some(okello))
        .unwrap() as u64
        + 1;
    let other = if okello_table == 1 { 2 } else { 1 };
    let online: Vec<u64> = (1..=4)
        .filter(|t| *t != okello_table && *t != other)
        .collect();
    // A player may not say where a table is played.
    let (someone, _) = &tables[0];
    let (status, r) = event
        .server
        .put(
            &event.path(&format!("/rounds/{round}/played-at")),
            event.token(someone),
            json!({"played_at":"board","table":okello_table}),
        )
        .await;
    assert_eq!(
        (status, r["error"]["code"].as_str()),
        (403, Some("not_director")),
        "{r}"
    );
    for table in [okello_table, other] {
        let (status, r) = event
            .server
            .put(
                &event.path(&format!("/rounds/{round}/played-at")),
                &event.director,
                json!({"played_at":"board","table":table}),
            )
            .await;
        assert_eq!(status, 200, "{r}");
        assert_eq!(r["pairings"][table as usize - 1]["played_at"], "board");
    }
    let snap = event.snapshot().await;
    let places: Vec<&str> = (1..=4)
        .map(|t| pairing(&snap, round, t)["played_at"].as_str().unwrap())
        .collect();
    let mut expected = vec!["online"; 4];
    expected[okello_table as usize - 1] = "board";
    expected[other as usize - 1] = "board";
    assert_eq!(places, expected);
    Plan {
        round,
        okello: okello_table,
        other,
        online,
    }
}

/// The relay `token` makes one move, takes it back (the board is as before, the version
/// later), and makes it again: the game follows.
async fn relay_move_undo_move(event: &Event<'_>, relay: &str, plan: &Plan, game: &str) {
    let (first, _) = players_at(&event.snapshot().await, plan.round, plan.other);
    let (mv, before) = a_legal_move(event.server, game, event.token(&first)).await;
    let (status, r) = event
        .relay_act(
            relay,
            plan.round,
            plan.other,
            json!({"kind":"move","notation":mv}),
        )
        .await;
    assert_eq!(status, 200, "{r}");
    let (_, moved) = event.server.get(&format!("/api/games/{game}"), relay).await;
    assert_ne!(moved["position"], before["position"], "the move was played");
    assert_eq!(moved["history"].as_array().unwrap().len(), 1);
    let (status, r) = event
        .relay_act(relay, plan.round, plan.other, json!({"kind":"undo"}))
        .await;
    assert_eq!(status, 200, "{r}");
    let (_, undone) = event.server.get(&format!("/api/games/{game}"), relay).await;
    assert_eq!(
        undone["position"], before["position"],
        "the undo restores the board"
    );
    assert_eq!(undone["to_move"], before["to_move"]);
    assert_eq!(undone["history"].as_array().unwrap().len(), 0);
    assert!(
        undone["version"].as_u64() > moved["version"].as_u64(),
        "versions only grow: {} then {}",
        moved["version"],
        undone["version"]
    );
    let (status, r) = event
        .relay_act(
            relay,
            plan.round,
            plan.other,
            json!({"kind":"move","notation":mv}),
        )
        .await;
    assert_eq!(status, 200, "{r}");
}

async fn hybrid_swiss(database_url: &str) {
    let server = TestServer::start(database_url).await;
    let mut event = Event::create(
        &server,
        json!({"name":"Hall event","ruleset":"omweso","rounds":3,"round_minutes":30,
               "time_control":{"preset":"tournament","referee_seconds":null}}),
    )
    .await;
    let mut players = Vec::new();
    for name in [
        "Kato",
        "Nakato",
        "Wasswa",
        "Babirye",
        "Kizza",
        "Nansubuga",
        "Mukasa",
    ] {
        players.push(event.join(name).await);
    }
    // A player may not add players; the director adds Okello, who has no phone.
    let (status, r) = server
        .post(
            &event.path("/players"),
            event.token(&players[0]),
            json!({"name":"Okello"}),
        )
        .await;
    assert_eq!(
        (status, r["error"]["code"].as_str()),
        (403, Some("not_director")),
        "{r}"
    );
    let (status, okello) = server
        .post(
            &event.path("/players"),
            &event.director,
            json!({"name":"Okello"}),
        )
        .await;
    assert_eq!(status, 201, "{okello}");
    assert_eq!(okello["name"], "Okello");
    assert_eq!(okello["added_by_director"], true);
    let okello = okello["player_id"].as_str().unwrap().to_owned();
    // A name alike to a player's already there is refused, saying so.
    let (status, r) = server
        .post(
            &event.path("/players"),
            &event.director,
            json!({"name":"kato"}),
        )
        .await;
    assert_eq!(
        (status, r["error"]["code"].as_str()),
        (400, Some("bad_name")),
        "{r}"
    );
    let (relay, relay_id) = server.session("Achan").await;
    let (stranger, _) = server.session("Stranger").await;

    // ---- Round 1: the relay named before the start (its game starts with the round).
    let plan = pair_and_place(&event, 1, &okello).await;
    let (status, r) = server
        .post(
            &event.table_path(1, plan.other, "relay-invite"),
            event.token(&players[0]),
            json!({}),
        )
        .await;
    assert_eq!(
        (status, r["error"]["code"].as_str()),
        (403, Some("not_director")),
        "{r}"
    );
    let (status, invite) = server
        .post(
            &event.table_path(1, plan.other, "relay-invite"),
            &event.director,
            json!({}),
        )
        .await;
    assert_eq!(status, 201, "{invite}");
    let code = invite["code"].as_str().unwrap().to_owned();
    assert!(
        invite["url"].as_str().unwrap().ends_with(&format!(
            "/t/{}/relay/1/{}#code={}",
            event.id,
            plan.other,
            code.replace('-', "")
        )),
        "{invite}"
    );
    assert!(
        invite["qr_svg"].as_str().unwrap().starts_with("<?xml")
            || invite["qr_svg"].as_str().unwrap().contains("<svg")
    );
    let (status, r) = server
        .post(
            &event.table_path(1, plan.other, "relay"),
            &relay,
            json!({"code":"ZZZZ-ZZZZ"}),
        )
        .await;
    assert_eq!(
        (status, r["error"]["code"].as_str()),
        (400, Some("bad_code")),
        "{r}"
    );
    let (status, r) = server
        .post(
            &event.table_path(1, plan.other, "relay"),
            &relay,
            json!({"code": code}),
        )
        .await;
    assert_eq!(status, 200, "{r}");
    let board = &r["pairings"][plan.other as usize - 1]["board"];
    assert_eq!(board["relay"], relay_id.as_str());
    assert_eq!(board["relay_name"], "Achan");
    // Each code is good once.
    let (status, r) = server
        .post(
            &event.table_path(1, plan.other, "relay"),
            &stranger,
            json!({"code": code}),
        )
        .await;
    assert_eq!(
        (status, r["error"]["code"].as_str()),
        (400, Some("bad_code")),
        "{r}"
    );
    let r1 = event.start(1).await;
    assert_eq!(
        r1["pairings"][plan.other as usize - 1]["board"]["relayed"],
        true
    );
    // Too late to move a table once the round is played.
    let (status, r) = server
        .put(
            &event.path("/rounds/1/played-at"),
            &event.director,
            json!({"played_at":"online"}),
        )
        .await;
    assert_eq!(
        (status, r["error"]["code"].as_str()),
        (409, Some("round_not_ready")),
        "{r}"
    );

    // Online: the first player of each table resigns.
    for &table in &plan.online {
        let game = game_of(&r1, table as usize);
        let (first, _) = players_at(&event.snapshot().await, 1, table);
        event.resign(&game, &first).await;
    }
    // Okello's table: his opponent enters the result; nobody else at the hall can, and
    // the director enters it for Okello (no phone to initial with).
    let snap = event.snapshot().await;
    let (a, b) = players_at(&snap, 1, plan.okello);
    let opponent = if a == okello { b.clone() } else { a.clone() };
    let result = enter(
        Some(&opponent),
        Some("emitwe-ebiri"),
        if a == okello { [12, 40] } else { [40, 12] },
    );
    // A stranger, the relay of another table, a player of another table.
    let elsewhere = players.iter().find(|p| **p != a && **p != b).unwrap();
    for token in [&stranger, &relay, event.token(elsewhere)] {
        let (status, r) = event.board(token, 1, plan.okello, result.clone()).await;
        assert_eq!(
            (status, r["error"]["code"].as_str()),
            (403, Some("not_your_game")),
            "{r}"
        );
    }
    let (status, r) = event
        .board(event.token(&opponent), 1, plan.okello, result.clone())
        .await;
    assert_eq!(status, 200, "{r}");
    let table = &r["pairings"][plan.okello as usize - 1];
    assert_eq!(
        table["sheet"],
        Value::Null,
        "one entry waits for the other's initials"
    );
    assert_eq!(
        table["board"]["entries"][0]["confirmed_by"],
        json!([opponent])
    );
    let (status, r) = event
        .board(&event.director, 1, plan.okello, result.clone())
        .await;
    assert_eq!(status, 200, "{r}");
    let sheet = &r["pairings"][plan.okello as usize - 1]["sheet"];
    assert_eq!(sheet["status"], "confirmed", "{sheet}");
    assert_eq!(sheet["over_the_board"], true);
    assert_eq!(sheet["victory"], "emitwe-ebiri");
    assert_eq!(
        sheet["points"],
        if a == okello {
            json!({"first":0.0,"second":2.0})
        } else {
            json!({"first":2.0,"second":0.0})
        }
    );

    // The relayed table: only its relay enters moves; a move, an undo, the move again;
    // then the relay enters the second player's resignation.
    let game = game_of(&r1, plan.other as usize);
    let (first, second) = players_at(&event.snapshot().await, 1, plan.other);
    let (mv, _) = a_legal_move(&server, &game, event.token(&first)).await;
    for token in [event.token(&first), &stranger, &event.director] {
        let (status, r) = event
            .relay_act(token, 1, plan.other, json!({"kind":"move","notation":mv}))
            .await;
        assert_eq!(
            (status, r["error"]["code"].as_str()),
            (403, Some("not_your_game")),
            "{r}"
        );
    }
    relay_move_undo_move(&event, &relay, &plan, &game).await;
    let (status, r) = event
        .relay_act(&relay, 1, plan.other, json!({"kind":"resign","side":"n"}))
        .await;
    assert_eq!(status, 200, "{r}");
    let snap = event
        .until("the relayed game's proposal", |s| {
            pairing(s, 1, plan.other)["board"]["entries"]
                .as_array()
                .is_some_and(|e| !e.is_empty())
        })
        .await;
    let proposal = &pairing(&snap, 1, plan.other)["board"]["entries"][0];
    assert_eq!(proposal["from_relay"], true, "{proposal}");
    assert_eq!(proposal["winner"], first.as_str());
    assert_eq!(proposal["victory"], "resigned");
    assert_eq!(proposal["confirmed_by"], json!([]));
    assert_eq!(
        pairing(&snap, 1, plan.other)["sheet"],
        Value::Null,
        "nothing confirms itself"
    );
    let (status, r) = event
        .board(
            event.token(&second),
            1,
            plan.other,
            json!({"action":"confirm"}),
        )
        .await;
    assert_eq!(status, 200, "{r}");
    assert_eq!(r["pairings"][plan.other as usize - 1]["sheet"], Value::Null);
    let (status, r) = event
        .board(
            event.token(&first),
            1,
            plan.other,
            json!({"action":"confirm"}),
        )
        .await;
    assert_eq!(status, 200, "{r}");
    let sheet = &r["pairings"][plan.other as usize - 1]["sheet"];
    assert_eq!(
        (sheet["status"].as_str(), sheet["first_result"].as_str()),
        (Some("confirmed"), Some("won")),
        "{sheet}"
    );
    assert_eq!(
        sheet["turns"], 1,
        "the relayed game's turns are the sheet's"
    );
    let snap = event
        .until("round 1's end", |s| round(s, 1)["status"] == "finished")
        .await;
    let mut tally = Tally::default();
    check_standings(&snap, &mut tally, 1);

    // ---- Round 2: the relay invited during the round (its game created then); the
    // other board table's players enter different results and the director settles it;
    // the server restarts in the middle.
    let plan = pair_and_place(&event, 2, &okello).await;
    let r2 = event.start(2).await;
    assert_eq!(
        r2["pairings"][plan.other as usize - 1]["board"]["relayed"],
        false
    );
    // The director relays Okello's table themselves (no code): its game starts now.
    let (status, r) = server
        .post(
            &event.table_path(2, plan.okello, "relay"),
            &event.director,
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{r}");
    let okello_board = &r["pairings"][plan.okello as usize - 1];
    assert_eq!(okello_board["board"]["relayed"], true, "{okello_board}");
    let okello_game = okello_board["game_id"].as_str().unwrap().to_owned();
    let (status, g) = server
        .get(&format!("/api/games/{okello_game}"), &event.director)
        .await;
    assert_eq!(
        (status, g["status"].as_str()),
        (200, Some("playing")),
        "{g}"
    );
    // Players at a relayed game cannot play it from their phones.
    let (a, b) = players_at(&event.snapshot().await, 2, plan.okello);
    let mover = if a == okello { b.clone() } else { a.clone() };
    let mut socket = server
        .socket(&okello_game, Some(event.token(&mover)), None)
        .await;
    let state = socket.recv_type("state").await;
    if let Some(mv) = state["d"]["legal_moves"][0].as_str() {
        socket
            .send(json!({"t":"move","d":{"move":mv},"id":"m"}))
            .await;
        let refused = socket.recv_type("error").await;
        assert_eq!(
            (refused["d"]["id"].as_str(), refused["d"]["code"].as_str()),
            (Some("m"), Some("relayed_game")),
            "{refused}"
        );
    }
    drop(socket);
    for &table in &plan.online {
        let game = game_of(&r2, table as usize);
        let (_, second) = players_at(&event.snapshot().await, 2, table);
        event.resign(&game, &second).await;
    }
    let (first, second) = players_at(&event.snapshot().await, 2, plan.other);
    let (status, r) = event
        .board(
            event.token(&first),
            2,
            plan.other,
            enter(Some(&first), Some("no-move"), [44, 9]),
        )
        .await;
    assert_eq!(status, 200, "{r}");

    // Restart: nothing of the round is lost.
    let before = event.snapshot().await;
    let (director, tokens, id) = (
        event.director.clone(),
        event.tokens.clone(),
        event.id.clone(),
    );
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
    assert_eq!(after["players"], before["players"]);

    let (status, r) = event
        .board(
            event.token(&second),
            2,
            plan.other,
            enter(Some(&first), Some("no-move"), [42, 9]),
        )
        .await;
    assert_eq!(status, 200, "{r}");
    let board = &r["pairings"][plan.other as usize - 1]["board"];
    assert_eq!(board["waiting_for_director"], true, "{board}");
    assert_eq!(
        board["entries"].as_array().unwrap().len(),
        2,
        "both kept for the director"
    );
    let (status, r) = event
        .board(
            event.token(&first),
            2,
            plan.other,
            json!({"action":"confirm"}),
        )
        .await;
    assert_eq!(
        (status, r["error"]["code"].as_str()),
        (409, Some("sheet_settled")),
        "{r}"
    );
    let (status, r) = event
        .board(
            &event.director,
            2,
            plan.other,
            enter(Some(&first), Some("no-move"), [43, 9]),
        )
        .await;
    assert_eq!(status, 200, "{r}");
    let sheet = &r["pairings"][plan.other as usize - 1]["sheet"];
    assert_eq!(
        (sheet["status"].as_str(), sheet["seeds"]["first"].as_u64()),
        (Some("confirmed"), Some(43)),
        "{sheet}"
    );
    // Okello's relayed game: the director, its relay, resigns for Okello's opponent side
    // as it happened at the board; Okello's opponent initials, the director for Okello.
    let (status, r) = event
        .relay_act(
            &event.director,
            2,
            plan.okello,
            json!({"kind":"resign","side": if a == okello {"n"} else {"s"}}),
        )
        .await;
    assert_eq!(status, 200, "{r}");
    event
        .until("Okello's relayed proposal", |s| {
            pairing(s, 2, plan.okello)["board"]["entries"]
                .as_array()
                .is_some_and(|e| !e.is_empty())
        })
        .await;
    let (status, r) = event
        .board(
            event.token(&mover),
            2,
            plan.okello,
            json!({"action":"confirm"}),
        )
        .await;
    assert_eq!(status, 200, "{r}");
    let (status, r) = event
        .board(
            &event.director,
            2,
            plan.okello,
            enter(Some(&okello), Some("resigned"), [0, 0]),
        )
        .await;
    assert_eq!(status, 200, "{r}");
    let sheet = &r["pairings"][plan.okello as usize - 1]["sheet"];
    assert_eq!(sheet["status"], "confirmed", "{sheet}");
    let okello_won = if a == okello {
        "first_result"
    } else {
        "second_result"
    };
    assert_eq!(sheet[okello_won], "won", "{sheet}");
    let snap = event
        .until("round 2's end", |s| round(s, 2)["status"] == "finished")
        .await;
    check_standings(&snap, &mut tally, 2);

    // Okello gets a phone before the last round: the director's device code makes it his.
    let (status, code) = server
        .post(
            &event.path(&format!("/players/{okello}/link-code")),
            &event.director,
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{code}");
    let (phone, _) = server.session("a phone").await;
    let (status, linked) = server
        .post("/api/link", &phone, json!({"code": code["code"]}))
        .await;
    assert_eq!(status, 200, "{linked}");
    assert_eq!(linked["player_id"], okello.as_str());
    let token = linked["token"].as_str().unwrap();
    let (_, seen) = server.get(&event.path(""), token).await;
    assert_eq!(
        seen["you"],
        okello.as_str(),
        "the phone is Okello's in the tournament"
    );

    // ---- Round 3: ended by the director with games unfinished.
    let plan = pair_and_place(&event, 3, &okello).await;
    event.start(3).await;
    let (status, invite) = server
        .post(
            &event.table_path(3, plan.other, "relay-invite"),
            &event.director,
            json!({}),
        )
        .await;
    assert_eq!(status, 201, "{invite}");
    let (status, r) = server
        .post(
            &event.table_path(3, plan.other, "relay"),
            &relay,
            json!({"code": invite["code"]}),
        )
        .await;
    assert_eq!(status, 200, "{r}");
    let game = r["pairings"][plan.other as usize - 1]["game_id"]
        .as_str()
        .unwrap()
        .to_owned();
    relay_move_undo_move(&event, &relay, &plan, &game).await;
    let (status, r) = server
        .post(&event.path("/rounds/3/end"), &event.director, json!({}))
        .await;
    assert_eq!(status, 200, "{r}");
    let snap = event
        .until("the round's games adjudicated", |s| {
            let online_done = plan
                .online
                .iter()
                .all(|t| pairing(s, 3, *t)["sheet"] != Value::Null);
            let relayed = pairing(s, 3, plan.other)["board"]["entries"]
                .as_array()
                .is_some_and(|e| !e.is_empty());
            online_done && relayed
        })
        .await;
    for &t in &plan.online {
        let result = pairing(&snap, 3, t)["sheet"]["first_result"]
            .as_str()
            .unwrap()
            .to_owned();
        assert!(
            result.starts_with("adjudicated-"),
            "online table {t}: {result}"
        );
    }
    let proposal = &pairing(&snap, 3, plan.other)["board"]["entries"][0];
    assert_eq!(proposal["from_relay"], true);
    assert!(
        proposal["victory"] == "adjudicated" || proposal["winner"].is_null(),
        "adjudicated from the last entered position: {proposal}"
    );
    // Okello's table, not relayed, has no sheet: the director adjudicates it.
    let missing = &pairing(&snap, 3, plan.okello)["board"];
    assert_eq!(missing["missing"], true, "{missing}");
    assert_eq!(
        round(&snap, 3)["status"],
        "playing",
        "a board table without a sheet holds the round"
    );
    let (first, second) = players_at(&snap, 3, plan.other);
    for p in [&first, &second] {
        let (status, r) = event
            .board(event.token(p), 3, plan.other, json!({"action":"confirm"}))
            .await;
        assert_eq!(status, 200, "{r}");
    }
    // Omweso has no draws in play: the director's draw is an adjudication on the seeds on
    // each side of the board.
    let (a, _) = players_at(&snap, 3, plan.okello);
    let (status, r) = event
        .board(&event.director, 3, plan.okello, enter(None, None, [20, 20]))
        .await;
    assert_eq!(
        (status, r["error"]["code"].as_str()),
        (400, Some("bad_request")),
        "{r}"
    );
    let mut adjudicated = enter(None, Some("adjudicated"), [0, 0]);
    adjudicated["seeds_on_board"] = json!({"first":32,"second":32});
    let (status, r) = event
        .board(&event.director, 3, plan.okello, adjudicated)
        .await;
    assert_eq!(status, 200, "{r}");
    let sheet = &r["pairings"][plan.okello as usize - 1]["sheet"];
    assert_eq!(
        (
            sheet["first_result"].as_str(),
            sheet["points"]["first"].as_f64()
        ),
        (Some("adjudicated-drawn"), Some(0.5)),
        "{sheet} ({a})"
    );
    let snap = event
        .until("the tournament's end", |s| s["status"] == "finished")
        .await;
    check_standings(&snap, &mut tally, 3);

    // The exports mark where each sheet was played and who entered it.
    let (status, csv) = server
        .get_text(&event.path("/sheets.csv"), &event.director)
        .await;
    assert_eq!(status, 200);
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let at = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let rows: Vec<Vec<String>> = lines
        .map(|l| l.split(',').map(str::to_owned).collect())
        .collect();
    assert_eq!(rows.len(), 12, "{csv}");
    let boards = rows
        .iter()
        .filter(|r| r[at("played_at")] == "board")
        .count();
    let onlines = rows
        .iter()
        .filter(|r| r[at("played_at")] == "online")
        .count();
    assert_eq!((boards, onlines), (6, 6), "{csv}");
    assert!(
        rows.iter()
            .any(|r| r[at("entered")].starts_with("entered by the director TD")),
        "{csv}"
    );
    let relayed = |r: &Vec<String>| {
        let [a, b] = [&r[at("first_name")], &r[at("second_name")]];
        [format!("{a} and {b}"), format!("{b} and {a}")]
            .iter()
            .any(|both| {
                r[at("entered")] == format!("proposed by the relay Achan; initialled by {both}")
            })
    };
    assert_eq!(
        rows.iter().filter(|r| relayed(r)).count(),
        2,
        "rounds 1 and 3: {csv}"
    );
    server.stop().await;
}

/// The standings as the test recomputes them from the sheets: every player's points the
/// sum of their sheets' points, Buchholz from the opponents' final points.
fn check_standings(snap: &Value, tally: &mut Tally, rounds: usize) {
    tally.points.clear();
    tally.opponents.clear();
    for r in 1..=rounds {
        let mut met = HashMap::new();
        for p in round(snap, r)["pairings"].as_array().unwrap() {
            let first = p["first"].as_str().unwrap().to_owned();
            let second = p["second"].as_str().map(str::to_owned);
            let sheet = &p["sheet"];
            assert_ne!(
                sheet,
                &Value::Null,
                "round {r} table {}: no sheet",
                p["table"]
            );
            tally.add(&first, sheet["points"]["first"].as_f64().unwrap());
            if let Some(second) = &second {
                tally.add(second, sheet["points"]["second"].as_f64().unwrap());
                met.insert(second.clone(), Some(first.clone()));
            }
            met.insert(first, second);
        }
        tally.opponents.push(met);
    }
    for line in snap["standings"].as_array().unwrap() {
        let player = line["player_id"].as_str().unwrap();
        assert_eq!(
            line["points"].as_f64(),
            Some(tally.points(player)),
            "{line}"
        );
        assert_eq!(
            line["buchholz"].as_f64(),
            Some(tally.buchholz(player)),
            "{line}"
        );
        assert_eq!(line["games"].as_u64(), Some(rounds as u64), "{line}");
    }
    // Ranked by points first.
    let points: Vec<f64> = snap["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["points"].as_f64().unwrap())
        .collect();
    assert!(points.windows(2).all(|w| w[0] >= w[1]), "{points:?}");
}

#[tokio::test]
async fn a_hybrid_swiss_is_played_online_and_over_the_board_with_sqlite() {
    crate::common::on_sqlite_file(async |url| hybrid_swiss(&url).await).await;
}

#[tokio::test]
async fn a_hybrid_swiss_is_played_online_and_over_the_board_with_postgres() {
    crate::common::on_postgres("omweso_tboard", async |url| hybrid_swiss(&url).await).await;
}
