//! Round-robins: a field of five, and a withdrawal's forfeits.

use crate::common::TestServer;
use serde_json::{json, Value};
use std::collections::{HashMap, HashSet};

use super::*;

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
