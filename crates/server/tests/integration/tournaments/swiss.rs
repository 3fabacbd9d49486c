//! A Swiss played to its end, on SQLite and PostgreSQL.

use crate::common::TestServer;
use serde_json::{json, Value};
use std::collections::{HashMap, HashSet};

use super::*;

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
    let second = pairs[0].1.as_ref().unwrap();
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
    // The move reaches the watcher as the table's board (alone, or with the other tables
    // that changed in the same period).
    loop {
        let m = watcher.recv().await;
        let boards = match m["t"].as_str() {
            Some("board") => vec![m["d"].clone()],
            Some("boards") => m["d"]["boards"].as_array().unwrap().clone(),
            _ => Vec::new(),
        };
        if let Some(board) = boards.iter().find(|b| b["game_id"] == annulled.as_str()) {
            assert_eq!(board["table"], 4);
            assert_eq!(board["round"], 1);
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

    // Table 1's loser disputes; the director corrects it, with a reason. Mweiso has no
    // draws in play: the players' "agreed draw" is refused, the win they agree on is not.
    let (status, r) = event
        .sheet(
            &t1_game,
            &event.tokens[second],
            json!({"action":"dispute","reason":"the resignation was a slip: my opponent had no move"}),
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
    assert_eq!(
        (status, r["error"]["code"].as_str()),
        (400, Some("bad_request")),
        "{r}"
    );
    let (status, r) = event
        .sheet(
            &t1_game,
            &event.director,
            json!({"action":"correct","result":{"result":"win","winner":"n","victory":"no-move"},"reason":"both players agree"}),
        )
        .await;
    assert_eq!(status, 200, "{r}");
    assert_eq!(r["status"], "corrected");
    assert_eq!(r["first_result"], "lost");
    assert_eq!(r["points"]["first"], 0.0);
    assert_eq!(r["corrections"][0]["reason"], "both players agree");
    assert_eq!(r["corrections"][0]["before"]["first_result"], "won");
    assert_eq!(r["corrections"][0]["by_name"], "TD");
    tally.add(second, 1.0);

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
    crate::common::on_sqlite_file(async |url| swiss_played_to_the_end(&url).await).await;
}

#[tokio::test]
async fn a_swiss_is_played_to_the_end_with_postgres() {
    crate::common::on_postgres("omweso_swiss", async |url| {
        swiss_played_to_the_end(&url).await
    })
    .await;
}
