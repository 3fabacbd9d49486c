//! The limits tournaments keep (issue 25, findings 1, 2 and 8; docs/security.md), each
//! against a real server of its own: unfinished tournaments per director, a round refused
//! whole when its games would pass the server's, tournaments that never start removed,
//! a round-robin's field capped, no two players of one name, corrections bounded, and the
//! waits of a tournament game bounded.

use std::time::Duration;

use crate::common::config_with as config;
use crate::common::{Remote, TestServer};
use serde_json::{json, Value};

async fn create(server: &Remote, token: &str, body: Value) -> (u16, Value) {
    server.post("/api/tournaments", token, body).await
}

async fn join(server: &Remote, id: &str, name: &str) -> (u16, Value) {
    let (token, _) = server.session(name).await;
    server
        .post(&format!("/api/tournaments/{id}/join"), &token, json!({}))
        .await
}

#[tokio::test]
async fn a_director_runs_only_so_many_unfinished_tournaments() {
    let server =
        TestServer::start_with(config(|l| l.unfinished_tournaments_per_director = 2)).await;
    let (director, _) = server.session("TD").await;
    for name in ["One", "Two"] {
        let (status, r) = create(&server, &director, json!({"name":name})).await;
        assert_eq!(status, 201, "{r}");
    }
    let (status, r) = create(&server, &director, json!({"name":"Three"})).await;
    assert_eq!(status, 429, "{r}");
    assert_eq!(r["error"]["code"], "rate_limited");
    assert_eq!(
        r["error"]["message"],
        "you direct 2 unfinished tournaments, the most one director may run at once; finish one (or wait for an unstarted one to expire) first"
    );
    // Another director is not held by it.
    let (other, _) = server.session("TD2").await;
    let (status, r) = create(&server, &other, json!({"name":"Elsewhere"})).await;
    assert_eq!(status, 201, "{r}");
    server.stop().await;
}

#[tokio::test]
async fn the_server_holds_only_so_many_unfinished_tournaments() {
    let server = TestServer::start_with(config(|l| l.unfinished_tournaments = 3)).await;
    for i in 0..3 {
        let (token, _) = server.session(&format!("TD{i}")).await;
        let (status, r) = create(&server, &token, json!({"name":format!("Open {i}")})).await;
        assert_eq!(status, 201, "{r}");
    }
    let (token, _) = server.session("Late").await;
    let (status, r) = create(&server, &token, json!({"name":"Fourth"})).await;
    assert_eq!(status, 429, "{r}");
    assert_eq!(
        r["error"]["message"],
        "the server holds as many unfinished tournaments as it allows; try again later"
    );
    server.stop().await;
}

/// Finding 2: a round's games are counted against the server's games; a round that would
/// pass the limit is refused whole, and no game of it exists.
#[tokio::test]
async fn a_round_that_would_pass_the_servers_games_is_refused_whole() {
    let server = TestServer::start_with(config(|l| l.live_games = 3)).await;
    let (director, _) = server.session("TD").await;
    let id = server
        .create_tournament(&director, json!({"name":"Big","setup":"outer"}))
        .await;
    for i in 0..8 {
        let (status, r) = join(&server, &id, &format!("Player {i}")).await;
        assert_eq!(status, 200, "{r}");
    }
    server.pair_next_round(&director, &id).await;
    let (status, r) = server
        .post(
            &format!("/api/tournaments/{id}/rounds/1/start"),
            &director,
            json!({}),
        )
        .await;
    assert_eq!(status, 429, "{r}");
    assert_eq!(
        r["error"]["message"],
        "the server is running 0 games and allows 3: this round's 4 games would pass it; start the round when games have finished"
    );
    let (status, snap) = server
        .get(&format!("/api/tournaments/{id}"), &director)
        .await;
    assert_eq!(status, 200, "{snap}");
    assert_eq!(snap["rounds"][0]["status"], "paired", "{snap}");
    assert!(snap["rounds"][0]["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .all(|p| p["game_id"].is_null()));
    server.stop().await;
}

/// Finding 1: a tournament that never starts is removed in its time, and no longer
/// counts against its director.
#[tokio::test]
async fn a_tournament_that_never_starts_is_removed() {
    let server = TestServer::start_with(config(|l| {
        l.open_tournament_days = 1.5 / 86_400.0;
        l.unfinished_tournaments_per_director = 1;
    }))
    .await;
    let (director, _) = server.session("TD").await;
    let id = server
        .create_tournament(&director, json!({"name":"Never"}))
        .await;
    let mut socket = server
        .socket_at(&format!("/ws/tournaments/{id}?token={director}"))
        .await;
    socket.recv_type("state").await;
    let (status, _) = create(&server, &director, json!({"name":"Second"})).await;
    assert_eq!(status, 429, "the first still counts");
    let frame = socket
        .close_frame()
        .await
        .expect("a close frame with its reason");
    assert_eq!(
        (u16::from(frame.code), frame.reason.as_str()),
        (1000, "this tournament never started and has been removed")
    );
    let (status, r) = server
        .get(&format!("/api/tournaments/{id}"), &director)
        .await;
    assert_eq!(status, 404, "{r}");
    let (status, r) = create(&server, &director, json!({"name":"Second"})).await;
    assert_eq!(status, 201, "{r}");
    server.stop().await;
}

#[tokio::test]
async fn a_round_robin_takes_no_more_players_than_thirty_rounds_can_pair() {
    let server = TestServer::start("sqlite::memory:").await;
    let (director, _) = server.session("TD").await;
    let id = server
        .create_tournament(
            &director,
            json!({"name":"Double","system":"double-round-robin"}),
        )
        .await;
    for i in 0..16 {
        let (status, r) = join(&server, &id, &format!("Player {i}")).await;
        assert_eq!(status, 200, "{r}");
    }
    let (status, r) = join(&server, &id, "Player 16").await;
    assert_eq!(status, 409, "{r}");
    assert_eq!(
        r["error"]["message"],
        "the round-robin is full: 16 players meet each other in 30 rounds, the most a tournament plays"
    );
    server.stop().await;
}

#[tokio::test]
async fn two_players_of_one_name_cannot_be_told_apart_so_the_second_is_asked_to_change() {
    let server = TestServer::start("sqlite::memory:").await;
    let (director, _) = server.session("TD").await;
    let id = server
        .create_tournament(&director, json!({"name":"Names"}))
        .await;
    let (status, r) = join(&server, &id, "Kato").await;
    assert_eq!(status, 200, "{r}");
    let (status, r) = join(&server, &id, "kato").await;
    assert_eq!(status, 400, "{r}");
    assert_eq!(r["error"]["code"], "bad_name");
    assert_eq!(
        r["error"]["message"],
        "a player named Kato is already in this tournament: change your name (add an initial or your club) and join again"
    );
    server.stop().await;
}

/// Finding 8: a sheet keeps at most 20 corrections.
#[tokio::test]
async fn a_sheet_takes_at_most_twenty_corrections() {
    let server = TestServer::start("sqlite::memory:").await;
    let (director, _) = server.session("TD").await;
    let id = server
        .create_tournament(
            &director,
            json!({"name":"Corrections","rounds":1,"setup":"outer"}),
        )
        .await;
    let (kato, _) = server.session("Kato").await;
    let (nakato, _) = server.session("Nakato").await;
    for token in [&kato, &nakato] {
        let (status, r) = server
            .post(&format!("/api/tournaments/{id}/join"), token, json!({}))
            .await;
        assert_eq!(status, 200, "{r}");
    }
    let round = server.pair_and_start(&director, &id, 1).await;
    let game = round["pairings"][0]["game_id"].as_str().unwrap().to_owned();
    let mut socket = server.socket(&game, Some(&kato), None).await;
    socket.recv_type("state").await;
    socket.send(json!({"t":"resign","d":{},"id":"r"})).await;
    socket.expect_ack("r").await;
    server
        .tournament_until(&director, &id, Duration::from_secs(10), |snap| {
            !snap["rounds"][0]["pairings"][0]["sheet"].is_null()
        })
        .await;
    let path = format!("/api/tournaments/{id}/sheets/{game}");
    for i in 0..20 {
        let winner = if i % 2 == 0 { "s" } else { "n" };
        let body = json!({"action":"correct","result":{"result":"win","winner":winner,"victory":"resigned"},"reason":format!("change {i}")});
        let (status, r) = server.post(&path, &director, body).await;
        assert_eq!(status, 200, "correction {i}: {r}");
    }
    let body = json!({"action":"correct","result":{"result":"draw"},"reason":"once more"});
    let (status, r) = server.post(&path, &director, body).await;
    assert_eq!(status, 400, "{r}");
    assert_eq!(
        r["error"]["message"],
        "this sheet has been corrected 20 times, the most it keeps; its result stands as last corrected"
    );
    server.stop().await;
}

/// Finding 4: the pairing calls are rate-limited per session.
#[tokio::test]
async fn a_director_pairs_only_so_many_times_a_minute() {
    let server = TestServer::start_with(config(|l| l.pairings_per_session_per_minute = 2)).await;
    let (director, _) = server.session("TD").await;
    let id = server
        .create_tournament(&director, json!({"name":"Pairs","setup":"outer"}))
        .await;
    for i in 0..4 {
        join(&server, &id, &format!("Player {i}")).await;
    }
    let (status, round) = server
        .post(
            &format!("/api/tournaments/{id}/rounds"),
            &director,
            json!({}),
        )
        .await;
    assert_eq!(status, 201, "{round}");
    let pairings: Vec<Value> = round["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| json!({"first":p["first"],"second":p["second"]}))
        .collect();
    let edit = json!({"pairings":pairings,"confirm_breach":false});
    let (status, r) = server
        .put(
            &format!("/api/tournaments/{id}/rounds/1"),
            &director,
            edit.clone(),
        )
        .await;
    assert_eq!(status, 200, "{r}");
    let (status, r) = server
        .put(&format!("/api/tournaments/{id}/rounds/1"), &director, edit)
        .await;
    assert_eq!(status, 429, "{r}");
    assert_eq!(
        r["error"]["message"],
        "at most 2 pairings a minute; wait a moment and pair again"
    );
    server.stop().await;
}

/// Finding 4: directors looping a refused pairing of a big field (each refusal a whole
/// check of the pairing) do not slow the games: the pairing runs on a thread of its own,
/// and the same refused question is answered again from the last answer.
#[tokio::test]
async fn looping_a_refused_pairing_of_a_big_field_does_not_slow_the_games() {
    const PLAYERS: usize = 200;
    let server = TestServer::start("sqlite::memory:").await;
    let (director, _) = server.session("TD").await;
    let id = server
        .create_tournament(
            &director,
            json!({"name":"Big field","setup":"outer","rounds":3}),
        )
        .await;
    for i in 0..PLAYERS {
        let (status, r) = join(&server, &id, &format!("Player {i}")).await;
        assert_eq!(status, 200, "{r}");
    }
    let base = format!("/api/tournaments/{id}/rounds");
    let (status, round) = server.post(&base, &director, json!({})).await;
    assert_eq!(status, 201, "{round}");
    let rematch: Vec<Value> = round["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| json!({"first":p["first"],"second":p["second"]}))
        .collect();
    let (status, r) = server
        .post(&format!("{base}/1/start"), &director, json!({}))
        .await;
    assert_eq!(status, 200, "{r}");
    let (status, r) = server
        .post(&format!("{base}/1/end"), &director, json!({}))
        .await;
    assert_eq!(status, 200, "{r}");
    // Its games are stopped and adjudicated by their own tasks: the round finishes then.
    server
        .tournament_until(&director, &id, Duration::from_secs(30), |snap| {
            snap["rounds"][0]["status"] == "finished"
        })
        .await;
    // Round 2 as round 1 again: every pair a rematch, refused.
    let edit = json!({"pairings":rematch,"confirm_breach":false});
    let (status, r) = server
        .put(&format!("{base}/2"), &director, edit.clone())
        .await;
    assert_eq!(status, 409, "{r}");
    assert_eq!(r["error"]["code"], "pairing_breach");
    let probe = crate::common::probe::LatencyProbe::start(&server).await;
    let loops: Vec<_> = (0..6)
        .map(|_| {
            let server = Remote::new(server.addr);
            let (director, path, edit) = (director.clone(), format!("{base}/2"), edit.clone());
            tokio::spawn(async move {
                let mut asked = 0;
                while asked < 300 {
                    let (status, _) = server.put(&path, &director, edit.clone()).await;
                    assert_eq!(status, 409);
                    asked += 1;
                }
            })
        })
        .collect();
    probe
        .finish_when_enough("a refused pairing of 200 players asked again and again")
        .await;
    for l in loops {
        l.abort();
    }
    server.stop().await;
}

/// Finding 5: a game's end sends its sheet, not the whole round and standings again; the
/// standings come coalesced (one for the many games ending together); and the state a
/// socket connects to is the same shared snapshot, with each player's own `you`.
#[tokio::test]
async fn a_rounds_ends_send_each_watcher_their_sheets_and_the_standings_once() {
    const PLAYERS: usize = 40;
    let server = TestServer::start("sqlite::memory:").await;
    let (director, _) = server.session("TD").await;
    let id = server
        .create_tournament(
            &director,
            json!({"name":"Watched","setup":"outer","rounds":2}),
        )
        .await;
    let mut players = Vec::new();
    for i in 0..PLAYERS {
        let (token, player) = server.session(&format!("Player {i}")).await;
        let (status, r) = server
            .post(&format!("/api/tournaments/{id}/join"), &token, json!({}))
            .await;
        assert_eq!(status, 200, "{r}");
        players.push((token, player));
    }
    // Each player's state says who they are; a spectator's says nobody.
    for (token, player) in players.iter().take(2) {
        let mut socket = server
            .socket_at(&format!("/ws/tournaments/{id}?token={token}"))
            .await;
        let state = socket.recv_type("state").await;
        assert_eq!(state["d"]["you"], player.as_str());
    }
    let mut watcher = server.socket_at(&format!("/ws/tournaments/{id}")).await;
    let state = watcher.recv_type("state").await;
    assert_eq!(state["d"]["you"], Value::Null);
    let base = format!("/api/tournaments/{id}/rounds");
    server.pair_and_start(&director, &id, 1).await;
    // Every game of the round ends at once: the director ends the round.
    let (status, r) = server
        .post(&format!("{base}/1/end"), &director, json!({}))
        .await;
    assert_eq!(status, 200, "{r}");
    let mut seen: std::collections::HashMap<String, usize> = Default::default();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    let mut finished_at = None;
    loop {
        let Some(m) = watcher.try_recv(Duration::from_millis(200)).await else {
            if finished_at
                .is_some_and(|at: tokio::time::Instant| at.elapsed() > Duration::from_secs(3))
            {
                break;
            }
            assert!(tokio::time::Instant::now() < deadline, "{seen:?}");
            continue;
        };
        let t = m["t"].as_str().unwrap_or("").to_owned();
        if t == "round" && m["d"]["status"] == "finished" {
            finished_at = Some(tokio::time::Instant::now());
        }
        *seen.entry(t).or_default() += 1;
    }
    assert_eq!(seen.get("sheet"), Some(&(PLAYERS / 2)), "{seen:?}");
    // The round paired, started, its end asked, and finished by its last game's end:
    // never one per game (there were twenty before).
    assert_eq!(seen.get("round"), Some(&4), "{seen:?}");
    // The standings after twenty games' ends: once or twice, coalesced.
    let standings = seen.get("standings").copied().unwrap_or(0);
    assert!((1..=2).contains(&standings), "{seen:?}");
    server.stop().await;
}
