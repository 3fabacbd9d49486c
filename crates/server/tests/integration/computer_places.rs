//! Issue 25, finding 3: the computer could be taken from everyone. Each test runs the
//! attack against a real server on port 0: places held by people who never come, one
//! address taking every place, one player's flood of searches ahead of everyone else's.

use std::time::{Duration, Instant};

use crate::common::probe::{assert_every_move_went_through, LatencyProbe};
use crate::common::{Remote, TestServer};
use omweso_server::config::ServeConfig;
use serde_json::{json, Value};

/// Ten minutes of disconnect grace: the longest a game against the computer may ask for
/// (ten times the no-show time).
fn the_longest_grace(level: u8) -> Value {
    json!({"seat":"first","opponent":{"computer":{"level":level}},
           "time_control":{"disconnect_grace_seconds":600}})
}

/// A person who never comes to their game against the computer does not keep its place
/// for the time control's grace (ten minutes, here): the game is removed after the no-show
/// time, its place freed, its sockets told. A person who came and played keeps theirs.
#[tokio::test]
async fn a_person_who_never_comes_gives_the_computers_place_back() {
    let mut config = ServeConfig::for_tests("sqlite::memory:");
    config.limits.bot_games = 2;
    config.limits.computer_no_show_seconds = 1.5;
    let server = TestServer::start_with(config).await;
    let (kato, _) = server.session("Kato").await;
    let (apio, _) = server.session("Apio").await;
    let (okello, _) = server.session("Okello").await;
    // Kato takes a place and never comes; Apio takes the other, comes and plays.
    let gone = server.create(&kato, the_longest_grace(1)).await;
    let kept = server.create(&apio, the_longest_grace(1)).await;
    let mut apio_socket = server.socket(&kept, Some(&apio), None).await;
    apio_socket
        .expect_ack_of("m", json!({"t":"move","d":{"move":"E1"}}))
        .await;
    // A spectator on the game Kato left empty hears why it goes.
    let mut spectator = server.socket(&gone, Some(&okello), None).await;
    let (status, refused) = server
        .post("/api/games", &okello, the_longest_grace(1))
        .await;
    assert_eq!(status, 429, "{refused}");
    assert_eq!(refused["error"]["code"], "rate_limited");
    assert_eq!(
        refused["error"]["message"],
        "the computer is playing as many games as this server allows; try again later"
    );
    let asked = Instant::now();
    let close = spectator.close_frame().await.expect("a close frame");
    assert_eq!(u16::from(close.code), 1000);
    assert_eq!(
        close.reason.as_str(),
        "this game against the computer was removed: its player did not come to it in time"
    );
    // After the no-show time of its creation (1.5 s), not the day of grace: within the
    // tests' patience, which a loaded machine does not reach.
    assert!(
        asked.elapsed() < crate::common::PATIENCE,
        "{:?}",
        asked.elapsed()
    );
    let (status, _) = server.get(&format!("/api/games/{gone}"), &kato).await;
    assert_eq!(status, 404);
    // Its place is free: Okello's game is created.
    server.create(&okello, the_longest_grace(1)).await;
    // Apio, who played, is still playing long after the no-show time.
    tokio::time::sleep(Duration::from_millis(2000)).await;
    let snap = server.snapshot(&apio, &kept).await;
    assert_eq!(snap["status"], "playing", "{snap}");
    assert!(snap["outcome"].is_null(), "{snap}");
    server.stop().await;
}

/// One address may hold only so many unfinished games against the computer, however many
/// sessions it makes: here 2, from 203.0.113.9 with three sessions; an IPv6 client counts
/// by its /64. Other addresses are not touched.
#[tokio::test]
async fn one_address_holds_only_so_many_of_the_computers_places() {
    let mut config = ServeConfig::for_tests("sqlite::memory:");
    config.limits.trusted_proxy = vec!["127.0.0.1".into()];
    config.limits.bot_games_per_session = 3;
    config.limits.bot_games_per_ip = 2;
    let server = TestServer::start_with(config).await;
    let body = json!({"opponent":{"computer":{"level":1}}});
    for from in ["203.0.113.9", "2001:db8:1:2::1"] {
        let mut made = 0;
        for i in 0..3 {
            let (token, _) = server.session(&format!("Player {i}")).await;
            let (status, answer) = server
                .post_from("/api/games", &token, from, body.clone())
                .await;
            if status == 201 {
                made += 1;
                continue;
            }
            assert_eq!(status, 429, "{answer}");
            assert_eq!(answer["error"]["code"], "rate_limited");
            assert_eq!(
                answer["error"]["message"],
                "this address has 2 unfinished games against the computer; finish or resign one first"
            );
        }
        assert_eq!(made, 2, "from {from}");
    }
    // Another address in the same /64 is the same client; the next /64 another.
    let (token, _) = server.session("Nakato").await;
    let (status, _) = server
        .post_from("/api/games", &token, "2001:db8:1:2::ffff", body.clone())
        .await;
    assert_eq!(status, 429);
    let (status, answer) = server
        .post_from("/api/games", &token, "2001:db8:1:3::1", body.clone())
        .await;
    assert_eq!(status, 201, "{answer}");
    let (status, answer) = server
        .post_from("/api/games", &token, "203.0.113.10", body)
        .await;
    assert_eq!(status, 201, "{answer}");
    server.stop().await;
}

/// How many of `games` the computer has moved in.
async fn answered(server: &Remote, token: &str, games: &[String]) -> usize {
    let mut moved = 0;
    for game in games {
        let snap = server.snapshot(token, game).await;
        moved += usize::from(snap["history"][0]["by"] == "s");
    }
    moved
}

/// Creates a level-1 game, the computer first, for a new session from `from`, and
/// waits for the computer's first move; returns how many of the flood's games the
/// computer moved in meanwhile.
async fn first_answer_behind(
    server: &Remote,
    from: &str,
    flood: &str,
    flooded: &[String],
) -> usize {
    let (token, _) = server.session("Newcomer").await;
    let before = answered(server, flood, flooded).await;
    let (status, created) = server
        .post_from(
            "/api/games",
            &token,
            from,
            json!({"seat":"second","opponent":{"computer":{"level":1}}}),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    let game = created["game_id"].as_str().unwrap().to_owned();
    let asked = Instant::now();
    let mut socket = server.socket(&game, Some(&token), None).await;
    loop {
        let snap = server.snapshot(&token, &game).await;
        if snap["history"][0]["by"] == "s" {
            break;
        }
        assert!(
            asked.elapsed() < Duration::from_secs(120),
            "no answer within 120 s: {snap}"
        );
        let _ = socket.try_recv(Duration::from_millis(20)).await;
    }
    let after = answered(server, flood, flooded).await;
    println!(
        "from {from}: the first answer came in {:?}; the flood's answers went {before} -> {after}",
        asked.elapsed()
    );
    after - before
}

/// One player's flood of searches does not delay another's first answer. A session with
/// 40 level-8 games where the computer moves first (about a second of a core each), and
/// then a newcomer's level-1 game, the computer first: its move comes next, after at
/// most the two flood searches running on the two threads when it asked (with one
/// first-come queue it waited for all 40: the computer moved in the 38 others first).
/// Counted in searches, not seconds, so that a loaded machine cannot make it pass or
/// fail. The same for a second session of the flooding address. A probe game between two
/// people goes on meanwhile, every move acknowledged and seen (its latency printed).
#[tokio::test]
async fn one_players_flood_does_not_delay_anothers_first_answer() {
    let mut config = ServeConfig::for_tests("sqlite::memory:");
    config.limits.trusted_proxy = vec!["127.0.0.1".into()];
    config.limits.search_threads = 2;
    // The flood's person never comes to its games: on a loaded machine the test outlasts
    // the default no-show time (60 s), and the games it counts the answers of would be
    // removed under it (404).
    config.limits.computer_no_show_seconds = 3_600.0;
    let server = TestServer::start_with(config).await;
    let probe = LatencyProbe::start(&server).await;
    let (flood, _) = server.session("Flood").await;
    let level_8 = json!({"seat":"second","opponent":{"computer":{"level":8}}});
    let mut flooded = Vec::new();
    for _ in 0..40 {
        let (status, answer) = server
            .post_from("/api/games", &flood, "198.51.100.1", level_8.clone())
            .await;
        assert_eq!(status, 201, "{answer}");
        flooded.push(answer["game_id"].as_str().unwrap().to_owned());
    }
    // Another address, then another session of the flooding address.
    for from in ["198.51.100.2", "198.51.100.1"] {
        let passed = first_answer_behind(&server, from, &flood, &flooded).await;
        assert!(passed <= 2, "{passed} flood searches went first");
    }
    while !probe.has_enough() {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let latencies = probe.finish().await;
    assert_every_move_went_through("40 level-8 searches queued", &latencies);
    server.stop().await;
}

/// A person who plays one move against the computer and leaves holds a place for the
/// game's disconnect grace: against the computer it is at most ten minutes.
#[tokio::test]
async fn a_game_against_the_computer_keeps_a_grace_of_ten_minutes_at_most() {
    let server = TestServer::start("sqlite::memory:").await;
    let (kato, _) = server.session("Kato").await;
    let body = json!({"ruleset":"omweso","opponent":{"computer":{"level":1}},
                      "time_control":{"disconnect_grace_seconds":86400}});
    let (status, r) = server.post("/api/games", &kato, body).await;
    assert_eq!(status, 400, "{r}");
    assert_eq!(r["error"]["code"], "bad_time_control");
    assert_eq!(
        r["error"]["message"],
        "against the computer, disconnect_grace_seconds is at most 600 (ten minutes)"
    );
    let body = json!({"ruleset":"omweso","opponent":{"computer":{"level":1}},
                      "time_control":{"disconnect_grace_seconds":600}});
    let (status, r) = server.post("/api/games", &kato, body).await;
    assert_eq!(status, 201, "{r}");
    server.stop().await;
}
