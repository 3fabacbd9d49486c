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
    ];
    for (query, status, code, message) in cases {
        let answer = server.get(&format!("/api/archive?{query}"), "").await;
        assert_eq!(
            refusal(answer),
            (status, code.to_owned(), message.to_owned()),
            "{query}"
        );
    }
    // A name or an account nobody has is no mistake: it finds no games.
    for query in [
        "player=nobody_here",
        "player=@nobody",
        "tournament=No%20such%20evening",
    ] {
        let answer = server.get(&format!("/api/archive?{query}"), "").await;
        assert_eq!(answer, (200, json!({"games": [], "next": null})), "{query}");
    }
    let (status, unknown) = server.get("/api/archive?colour=red", "").await;
    assert_eq!(status, 400);
    let message = unknown["error"]["message"].as_str().unwrap_or("");
    assert!(message.contains("unknown field `colour`"), "{message}");
    server.stop().await;
}

/// Issue 40: a guest's games are found by the name the sheets show ("Kato Moses": it was a
/// 404, since only accounts were looked up), in either case of letters, against another
/// guest by name; a tournament's games by its name as well as its id, and each game says
/// its tournament's name. `@name` asks for an account alone.
#[tokio::test]
async fn a_guests_games_are_found_by_their_name_and_a_tournaments_by_its_name() {
    for (url, pg) in databases().await {
        let server = TestServer::start(&url).await;
        let (director, _) = server.session("TD").await;
        let id = server
            .create_tournament(
                &director,
                json!({"name": "Kampala Evening", "ruleset": "oware", "rounds": 1}),
            )
            .await;
        let mut joined = std::collections::HashMap::new();
        for name in ["Kato Moses", "Auma Grace"] {
            let (token, player) = server.join_tournament(&id, name).await;
            joined.insert(player, (token, name));
        }
        let round = server.pair_and_start(&director, &id, 1).await;
        let pairing = &round["pairings"][0];
        let game = pairing["game_id"].as_str().unwrap().to_owned();
        let (south, south_name) = &joined[pairing["first"].as_str().unwrap()];
        let (north, north_name) = &joined[pairing["second"].as_str().unwrap()];
        // South resigns: North (whoever was paired second) wins.
        let (winner, loser) = (
            north_name.replace(' ', "%20"),
            south_name.replace(' ', "%20"),
        );
        let mut s = server.socket(&game, Some(south), None).await;
        let mut n = server.socket(&game, Some(north), None).await;
        for (socket, mv, id) in [(&mut s, "C1", "s1"), (&mut n, "C2", "n1")] {
            socket
                .expect_ack_of(id, json!({"t": "move", "d": {"move": mv}}))
                .await;
        }
        s.expect_ack_of("r", json!({"t": "resign", "d": {}})).await;

        let found = |page: &Value| -> Vec<String> {
            page["games"]
                .as_array()
                .expect("games")
                .iter()
                .map(|g| g["id"].as_str().unwrap().to_owned())
                .collect()
        };
        for query in [
            "player=Kato%20Moses",
            "player=kato%20moses",
            "player=%20Kato%20%20Moses%20",
            "player=Kato%20Moses&opponent=Auma%20Grace",
            &format!("player={winner}&result=won"),
            &format!("player={loser}&opponent={winner}&result=lost"),
            "tournament=Kampala%20Evening",
            &format!("tournament=kampala%20evening&player={winner}"),
            &format!("tournament={id}"),
        ] {
            let (status, page) = server.get_anonymous(&format!("/api/archive?{query}")).await;
            assert_eq!(status, 200, "{query}: {page}");
            assert_eq!(found(&page), vec![game.clone()], "{query}: {page}");
            assert_eq!(page["next"], Value::Null, "{query}");
        }
        let (_, page) = server
            .get_anonymous("/api/archive?tournament=Kampala%20Evening")
            .await;
        let entry = &page["games"][0];
        assert_eq!(entry["tournament"], id.as_str());
        assert_eq!(entry["tournament_name"], "Kampala Evening");
        assert_eq!(entry["south"]["name"], *south_name);
        assert_eq!(entry["north"]["name"], *north_name);
        let (_, one) = server.get_anonymous(&format!("/api/archive/{game}")).await;
        assert_eq!(one["tournament_name"], "Kampala Evening", "{one}");
        // A name is not a username: `@` asks for an account, and no guest has one.
        for query in [
            "player=%40Kato%20Moses",
            &format!("player={loser}&result=won"),
            "player=Kato",
            "tournament=Kampala",
        ] {
            let (status, page) = server.get_anonymous(&format!("/api/archive?{query}")).await;
            assert_eq!((status, found(&page)), (200, vec![]), "{query}: {page}");
        }
        server.stop().await;
        if let Some(pg) = pg {
            pg.drop_database().await;
        }
    }
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
