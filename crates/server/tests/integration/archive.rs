//! The archive over HTTP (docs/protocol.md#the-archive-addition): real games played to
//! their end on the real server are found by their players, shown with their seats'
//! persons, counted on the player's page; refusals say which field is wrong; the rate per
//! address. On SQLite, and on PostgreSQL when `TEST_POSTGRES_URL` is set (CI).

use crate::common::{config_with, SeatedGame, TestServer};
use serde_json::{json, Value};

const PASSWORD: &str = "seeds in the outer row at dusk";

/// The guest `token` becomes the account `username`: its new token.
async fn sign_up(server: &TestServer, token: &str, username: &str) -> String {
    let (status, made) = server
        .post(
            "/api/account",
            token,
            json!({"username": username, "password": PASSWORD}),
        )
        .await;
    assert_eq!(status, 201, "{made}");
    made["token"].as_str().expect("a token").to_owned()
}

/// Plays Oware C1, C2, and South resigns: North wins after two moves.
async fn play_to_resignation(server: &TestServer, game: &SeatedGame, south: &str, north: &str) {
    let mut s = server.socket(&game.id, Some(south), None).await;
    let mut n = server.socket(&game.id, Some(north), None).await;
    for (socket, mv, id) in [(&mut s, "C1", "s1"), (&mut n, "C2", "n1")] {
        socket
            .expect_ack_of(id, json!({"t": "move", "d": {"move": mv}}))
            .await;
    }
    s.expect_ack_of("r", json!({"t": "resign", "d": {}})).await;
}

async fn databases() -> Vec<(String, Option<omweso_testkit::FreshPostgres>)> {
    let mut urls = vec![("sqlite::memory:".to_owned(), None)];
    if let Some(pg) = omweso_testkit::FreshPostgres::create("omweso_archive").await {
        urls.push((pg.url.clone(), Some(pg)));
    }
    urls
}

#[tokio::test]
async fn a_finished_game_is_found_by_its_players_and_counted_on_their_pages() {
    for (url, pg) in databases().await {
        let server = TestServer::start(&url).await;
        let game = SeatedGame::new(&server, json!({"ruleset": "oware"})).await;
        let kato = sign_up(&server, &game.south, "kato_k").await;
        let nakato = sign_up(&server, &game.north, "nakato_n").await;
        play_to_resignation(&server, &game, &kato, &nakato).await;
        // A game still being played is in no search.
        let (other, _) = server.session("Opio").await;
        let playing = server.create(&other, json!({"ruleset": "omweso"})).await;
        server.join(&kato, &playing).await;

        let (status, page) = server.get("/api/archive?player=kato_k", "").await;
        assert_eq!(status, 200, "{page}");
        let games = page["games"].as_array().expect("games");
        assert_eq!(games.len(), 1, "{page}");
        let entry = &games[0];
        let ended = entry["finished_at_ms"].as_i64().expect("an end");
        assert!(ended >= entry["created_at_ms"].as_i64().unwrap());
        let expected = json!({
            "id": game.id,
            "ruleset": "oware",
            "south": {"name": "Kato", "username": "kato_k"},
            "north": {"name": "Nakato", "username": "nakato_n"},
            "result": "north",
            "victory": "resigned",
            "rated": false,
            "moves": 2,
            "created_at_ms": entry["created_at_ms"],
            "finished_at_ms": ended,
        });
        assert_eq!(page, json!({"games": [expected.clone()], "next": null}));
        // The same game, by either player, against the other, won or lost.
        for query in [
            "player=nakato_n&result=won",
            "player=@kato_k&opponent=nakato_n&result=lost",
            "ruleset=oware&rated=false&result=north",
        ] {
            let (status, page) = server.get(&format!("/api/archive?{query}"), "").await;
            assert_eq!(
                (status, &page["games"]),
                (200, &json!([expected])),
                "{query}"
            );
        }
        for query in ["player=kato_k&result=won", "ruleset=omweso", "rated=true"] {
            let (_, page) = server.get(&format!("/api/archive?{query}"), "").await;
            assert_eq!(page, json!({"games": [], "next": null}), "{query}");
        }
        let (status, one) = server.get(&format!("/api/archive/{}", game.id), "").await;
        assert_eq!((status, one), (200, expected));
        let (status, refused) = server.get(&format!("/api/archive/{playing}"), "").await;
        assert_eq!(
            (status, &refused["error"]["code"]),
            (404, &json!("not_found"))
        );

        let (_, kato_page) = server.get("/api/players/kato_k", "").await;
        assert_eq!(
            kato_page["results"],
            json!([{"ruleset": "oware", "won": 0, "lost": 1, "drawn": 0}])
        );
        let (_, nakato_page) = server.get("/api/players/nakato_n", "").await;
        assert_eq!(
            nakato_page["results"],
            json!([{"ruleset": "oware", "won": 1, "lost": 0, "drawn": 0}])
        );
        server.stop().await;
        if let Some(pg) = pg {
            pg.drop_database().await;
        }
    }
}

#[tokio::test]
async fn a_search_refused_says_which_field_is_wrong() {
    let server = TestServer::start("sqlite::memory:").await;
    let refusal = |answer: (u16, Value)| {
        (
            answer.0,
            answer.1["error"]["code"].as_str().unwrap_or("").to_owned(),
            answer.1["error"]["message"]
                .as_str()
                .unwrap_or("")
                .to_owned(),
        )
    };
    let cases = [
        (
            "rated=maybe",
            400,
            "bad_request",
            "rated: \"maybe\" is not true or false",
        ),
        (
            "limit=500",
            400,
            "bad_request",
            "limit: \"500\" is not a number from 1 to 100",
        ),
        (
            "after=x",
            400,
            "bad_request",
            "after: \"x\" is not the next of an archive page",
        ),
        (
            "player=nobody_here",
            404,
            "not_found",
            "no such player @nobody_here",
        ),
    ];
    for (query, status, code, message) in cases {
        let answer = server.get(&format!("/api/archive?{query}"), "").await;
        assert_eq!(
            refusal(answer),
            (status, code.to_owned(), message.to_owned()),
            "{query}"
        );
    }
    let (status, unknown) = server.get("/api/archive?colour=red", "").await;
    assert_eq!(status, 400);
    let message = unknown["error"]["message"].as_str().unwrap_or("");
    assert!(message.contains("unknown field `colour`"), "{message}");
    server.stop().await;
}

#[tokio::test]
async fn each_address_has_a_rate_of_archive_reads() {
    let server =
        TestServer::start_with(config_with(|l| l.archive_searches_per_ip_per_minute = 2)).await;
    for _ in 0..2 {
        let (status, page) = server.get("/api/archive", "").await;
        assert_eq!(status, 200, "{page}");
    }
    let (status, refused) = server.get("/api/archive?ruleset=oware", "").await;
    assert_eq!(status, 429, "{refused}");
    assert_eq!(refused["error"]["code"], "rate_limited");
    assert_eq!(
        refused["error"]["message"],
        "this address searched the archive 2 times in the last minute; wait a minute"
    );
    server.stop().await;
}
