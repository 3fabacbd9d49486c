//! Issue 41, finding 6: a player page of a person with 5,000 games took 87-235 ms, and 16
//! at once took a probe game's p99 from 8.9 to 177 ms: its query (`south = $1 OR north =
//! $1`) could use neither seat's index and sorted every game the person played, and
//! nothing limited how often anyone asked. Now each seat's newest games are read from its
//! own index, the final snapshots (which a list never shows) are not read, and an address
//! reads `player_pages_per_ip_per_minute` pages a minute.

use serde_json::json;

use crate::common::fixtures::archive_of_games;
use crate::common::{config_with, TestServer};

#[tokio::test]
async fn a_page_lists_the_newest_hundred_games_of_either_seat_and_counts_each_result_once() {
    let server = TestServer::start_with(config_with(|limits| {
        limits.player_pages_per_ip_per_minute = 5;
    }))
    .await;
    let (kato, nakato) = archive_of_games(&server, 102).await;
    // The newest of all: Nakato's, with Kato in the north seat, not finished.
    let newest = server
        .create(&nakato, json!({"ruleset": "omweso", "rated": false}))
        .await;
    server.join(&kato, &newest).await;

    let (status, page) = server.get("/api/players/kato_k", "").await;
    assert_eq!(status, 200, "{page}");
    let games = page["games"].as_array().unwrap();
    assert_eq!(games.len(), 100);
    assert_eq!(games[0]["id"], newest);
    assert_eq!(games[0]["seat"], "n");
    assert_eq!(games[0]["result"], "none");
    assert!(games[1..]
        .iter()
        .all(|g| g["seat"] == "s" && g["result"] == "lost"));
    let created: Vec<i64> = games
        .iter()
        .map(|g| g["created_at_ms"].as_i64().unwrap())
        .collect();
    assert!(
        created.windows(2).all(|w| w[0] >= w[1]),
        "newest first: {created:?}"
    );
    assert_eq!(
        page["results"],
        json!([{"ruleset": "oware", "won": 0, "lost": 102, "drawn": 0}])
    );
    let (status, page) = server.get("/api/players/nakato_n", "").await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(
        page["results"],
        json!([{"ruleset": "oware", "won": 102, "lost": 0, "drawn": 0}])
    );
    // Five pages a minute from this address: the fourth and fifth are "your games".
    for token in [&kato, &nakato] {
        let (status, page) = server.get("/api/me/games", token).await;
        assert_eq!(status, 200, "{page}");
    }
    let (status, answer) = server.get("/api/players/kato_k", "").await;
    assert_eq!(status, 200, "{answer}");
    let (status, answer) = server.get("/api/me/games", &kato).await;
    assert_eq!(status, 429, "{answer}");
    assert_eq!(
        answer["error"]["message"],
        "this address read 5 player pages in the last minute; wait a minute"
    );
    server.stop().await;
}
