//! Rated tournaments (docs/ratings.md#rated-tournaments) against the real server: the
//! field seeded by the ratings in the store when round 1 is paired (kept in the snapshot
//! and the TRF), a game's sheet rated with its log entry, a correction re-rating the same
//! key, a game decided before both moved not rated. On an SQLite file (read beside the
//! server by a second store) and on PostgreSQL when `TEST_POSTGRES_URL` is set.

use omweso_rules::Ruleset;
use omweso_server::ratings::Glicko;
use omweso_server::store::Store;

use crate::common::TestServer;

use super::*;

#[tokio::test]
async fn a_rated_tournament_seeds_by_rating_and_re_rates_a_corrected_sheet_with_sqlite() {
    crate::common::on_sqlite_file(async |url| rated_tournament(&url).await).await;
}

#[tokio::test]
async fn a_rated_tournament_seeds_by_rating_and_re_rates_a_corrected_sheet_with_postgres() {
    crate::common::on_postgres("omweso_rated", async |url| rated_tournament(&url).await).await;
}

/// An account `name` joins the event: its player id.
async fn join_as_account(event: &mut Event<'_>, name: &str) -> String {
    let (token, id) = account(event.server, name).await;
    let (status, r) = event
        .server
        .post(&event.path("/join"), &token, json!({}))
        .await;
    assert_eq!(status, 200, "{r}");
    event.tokens.insert(id.clone(), token);
    event.names.insert(id.clone(), name.to_owned());
    id
}

/// Both players of `game` make one move (South, then North), then `resigner` resigns.
async fn both_move_then_resign(
    event: &Event<'_>,
    game: &str,
    south: &str,
    north: &str,
    resigner: &str,
) {
    // Three turns each: a game given up sooner is too short to rate (`ratings::too_short`).
    let turns = [south, north].repeat(3);
    for (n, player) in turns.into_iter().enumerate() {
        let token = &event.tokens[player];
        let mv = loop {
            let snap = event.server.snapshot(token, game).await;
            if let Some(mv) = snap["legal_moves"][0].as_str() {
                break mv.to_owned();
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        };
        let mut socket = event.server.socket(game, Some(token), None).await;
        socket.recv_type("state").await;
        let id = format!("m{n}");
        socket
            .send(json!({"t":"move","d":{"move":mv},"id":id}))
            .await;
        socket.expect_ack(&id).await;
    }
    event.resign(game, resigner).await;
}

/// A rated Oware Swiss of one round among four new accounts (1500) and a guest: seeded
/// 1..4 by registration among the accounts, the guest 5th without a rating (the bye).
/// Table 1 is played, South resigning after three turns each: North 1741.48, South 1258.52 (the
/// Glicko-2 module's values, bit for bit). The director corrects it to a draw: the same
/// key re-rated, both 1500.0; upholds the draw: nothing changes; corrects it back to
/// North's win: re-rated again. Table 2 is resigned before anyone moved: not rated. A
/// second rated tournament of the four accounts then seeds by the ratings as they stand:
/// North's 1741 first, the two at 1500 by registration, South's 1259 last.
async fn rated_tournament(database_url: &str) {
    let server = TestServer::start(database_url).await;
    let store = Store::open(database_url).await.expect("a second store");
    let settings = json!({"name":"Rated","ruleset":"oware","rounds":1,"rated":true});
    let mut event = Event::create(&server, settings.clone()).await;
    let snap = event.snapshot().await;
    assert_eq!(snap["settings"]["rated"], true, "{}", snap["settings"]);
    let mut players = Vec::new();
    for name in ["Apio", "Babirye", "Kato", "Nakato"] {
        players.push(join_as_account(&mut event, name).await);
    }
    let guest = event.join("Guest").await;

    let r1 = event.pair().await;
    let snap = event.snapshot().await;
    let seeds: Vec<(String, Value, Value)> = snap["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["name"].as_str().unwrap().to_owned(),
                p["seed"].clone(),
                p["seed_rating"].clone(),
            )
        })
        .collect();
    assert_eq!(
        seeds,
        vec![
            ("Apio".into(), json!(1), json!(1500)),
            ("Babirye".into(), json!(2), json!(1500)),
            ("Kato".into(), json!(3), json!(1500)),
            ("Nakato".into(), json!(4), json!(1500)),
            ("Guest".into(), json!(5), Value::Null),
        ]
    );
    // Five players: the guest (lowest seed) has the bye; 1-3 and 2-4 otherwise.
    let pairs = pairings(&r1);
    let mut met: Vec<Vec<&str>> = pairs
        .iter()
        .map(|(a, b)| {
            let mut pair = vec![a.as_str()];
            pair.extend(b.as_deref());
            pair.sort_unstable();
            pair
        })
        .collect();
    met.sort();
    let mut expected = vec![
        vec![players[0].as_str(), players[2].as_str()],
        vec![players[1].as_str(), players[3].as_str()],
        vec![guest.as_str()],
    ];
    for pair in &mut expected {
        pair.sort_unstable();
    }
    expected.sort();
    assert_eq!(met, expected);

    let r1 = event.start(1).await;
    let game_at = |t: usize| {
        let p = &r1["pairings"][t - 1];
        (
            p["game_id"].as_str().unwrap().to_owned(),
            p["first"].as_str().unwrap().to_owned(),
            p["second"].as_str().unwrap().to_owned(),
        )
    };
    let (g1, south1, north1) = game_at(1);
    let (g2, south2, north2) = game_at(2);
    both_move_then_resign(&event, &g1, &south1, &north1, &south1).await;
    event.resign(&g2, &south2).await;
    event
        .until("both sheets made", |s| {
            round(s, 1)["pairings"][1]["sheet"].is_object()
                && round(s, 1)["pairings"][0]["sheet"].is_object()
        })
        .await;

    let ids: Vec<uuid::Uuid> = [&south1, &north1, &south2, &north2]
        .iter()
        .map(|id| id.parse().unwrap())
        .collect();
    let ratings = store.ratings_of(&ids, Ruleset::Oware).await.unwrap();
    let won = Glicko::START.after_game(&Glicko::START, 1.0);
    let lost = Glicko::START.after_game(&Glicko::START, 0.0);
    assert_eq!(
        ratings.len(),
        2,
        "table 2 was decided before both moved: {ratings:?}"
    );
    assert_eq!(ratings[&ids[1]].glicko, won);
    assert_eq!(ratings[&ids[0]].glicko, lost);
    assert_eq!(won.rating.round(), 1741.0);

    // The director corrects table 1 to a draw: the same key re-rated from its place.
    let (status, r) = event
        .sheet(
            &g1,
            &event.director,
            json!({"action":"correct","result":{"result":"draw"},"reason":"both agreed it was level"}),
        )
        .await;
    assert_eq!(status, 200, "{r}");
    let ratings = store.ratings_of(&ids, Ruleset::Oware).await.unwrap();
    let drawn = Glicko::START.after_game(&Glicko::START, 0.5);
    assert_eq!(ratings[&ids[0]].glicko, drawn);
    assert_eq!(ratings[&ids[1]].glicko, drawn);
    assert_eq!(ratings[&ids[0]].games, 1, "a correction is the same game");
    assert_eq!(drawn.rating, 1500.0);
    // The same result again (a dispute rejected) changes nothing.
    let (status, r) = event
        .sheet(
            &g1,
            &event.director,
            json!({"action":"correct","result":{"result":"draw"},"reason":"upheld"}),
        )
        .await;
    assert_eq!(status, 200, "{r}");
    assert_eq!(
        store.ratings_of(&ids, Ruleset::Oware).await.unwrap()[&ids[0]].glicko,
        drawn
    );
    // And back to North's win: re-rated again.
    let (status, r) = event
        .sheet(
            &g1,
            &event.director,
            json!({"action":"correct","result":{"result":"win","winner":"n","victory":"resigned"},"reason":"the resignation stands"}),
        )
        .await;
    assert_eq!(status, 200, "{r}");
    let ratings = store.ratings_of(&ids, Ruleset::Oware).await.unwrap();
    assert_eq!(ratings[&ids[1]].glicko, won);
    assert_eq!(ratings[&ids[0]].glicko, lost);

    // The TRF's rating field has each account's seed rating, the guest's is blank.
    let (status, trf) = server
        .get_text(&event.path("/tournament.trf"), &event.director)
        .await;
    assert_eq!(status, 200);
    let lines: Vec<&str> = trf.lines().filter(|l| l.starts_with("001 ")).collect();
    let ratings_column: Vec<&str> = lines.iter().map(|l| &l[48..52]).collect();
    assert_eq!(
        ratings_column,
        ["1500", "1500", "1500", "1500", "    "],
        "{trf}"
    );

    // The tournament page's current ratings: the two who played, provisional still (one
    // game from 500 leaves about 396); the two never rated and the guest are left out.
    let (status, text) = server
        .get_text(&event.path("/ratings"), &event.director)
        .await;
    assert_eq!(status, 200, "{text}");
    let answer: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(answer["ruleset"], "oware", "{text}");
    let mut listed: Vec<(String, Value)> = answer["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["player_id"].as_str().unwrap().to_owned(),
                p["rating"].clone(),
            )
        })
        .collect();
    listed.sort_by(|a, b| a.0.cmp(&b.0));
    let mut expected = vec![
        (south1.clone(), json!({"rating": 1259, "provisional": true})),
        (north1.clone(), json!({"rating": 1741, "provisional": true})),
    ];
    expected.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(listed, expected, "{text}");
    let (status, _) = server
        .get_text(
            "/api/tournaments/00000000-0000-0000-0000-000000000000/ratings",
            &event.director,
        )
        .await;
    assert_eq!(status, 404);

    // A second rated tournament seeds by the ratings now: North's winner first (1741),
    // the two unrated accounts at 1500 by registration, South's loser (1259) last of the
    // accounts.
    let mut second = Event::create(&server, settings).await;
    for id in [&players[0], &players[1], &players[2], &players[3]] {
        let token = event.tokens[id].clone();
        let (status, r) = server.post(&second.path("/join"), &token, json!({})).await;
        assert_eq!(status, 200, "{r}");
        second.tokens.insert(id.clone(), token);
    }
    second.pair().await;
    let snap = second.snapshot().await;
    let rating_of = |id: &str| -> (Value, Value) {
        let p = snap["players"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["player_id"] == id)
            .unwrap();
        (p["seed"].clone(), p["seed_rating"].clone())
    };
    assert_eq!(rating_of(&north1), (json!(1), json!(1741)));
    assert_eq!(rating_of(&south1), (json!(4), json!(1259)));
    let (others, _): (Vec<&String>, Vec<&String>) =
        players.iter().partition(|p| **p != north1 && **p != south1);
    assert_eq!(rating_of(others[0]), (json!(2), json!(1500)));
    assert_eq!(rating_of(others[1]), (json!(3), json!(1500)));
    server.stop().await;
}

/// A rated tournament's game page shows what its sheet did to both ratings
/// (docs/protocol.md#ratings-addition), as a rated game outside a tournament does: the
/// snapshot says `rated`, and once the sheet is made each seat has the rating it was played
/// at and its `rating_change`. A watcher's socket (a visitor, no session) hears `ratings`
/// when the sheet rates the game and again when the director corrects it, without a
/// reload; the game read back from the store after it unloaded says the same.
#[tokio::test]
async fn a_rated_tournament_games_page_shows_and_follows_its_rating_change() {
    let server = TestServer::start("sqlite::memory:").await;
    let settings = json!({"name":"Rated evening","ruleset":"oware","rounds":1,"rated":true});
    let mut event = Event::create(&server, settings).await;
    join_as_account(&mut event, "Okello").await;
    join_as_account(&mut event, "Auma").await;
    event.pair().await;
    let r1 = event.start(1).await;
    let pairing = &r1["pairings"][0];
    let game = pairing["game_id"].as_str().unwrap().to_owned();
    let south = pairing["first"].as_str().unwrap().to_owned();
    let north = pairing["second"].as_str().unwrap().to_owned();
    let path = format!("/api/games/{game}");
    let (status, open) = server.get(&path, &event.director).await;
    assert_eq!(status, 200, "{open}");
    assert_eq!(open["rated"], true, "{open}");
    assert_eq!(
        open["tournament"],
        event.id.as_str(),
        "its page leads back there"
    );
    assert_eq!(
        open["seats"]["s"]["rating"],
        json!({"rating": 1500, "provisional": true})
    );

    let mut watcher = server.socket(&game, None, None).await;
    watcher.recv_type("state").await;
    both_move_then_resign(&event, &game, &south, &north, &south).await;
    // North won from 1500 against 1500: +241, South -241 (the Glicko-2 module's values).
    let new_player = json!({"rating": 1500, "provisional": true});
    let heard = watcher.recv_type("ratings").await;
    assert_eq!(
        heard,
        json!({"t": "ratings", "d": {
            "s": {"rating": new_player, "rating_change": -241},
            "n": {"rating": new_player, "rating_change": 241}}}),
    );
    let (status, over) = server.get(&path, &event.director).await;
    assert_eq!(status, 200, "{over}");
    assert_eq!(over["rated"], true);
    assert_eq!(over["seats"]["s"]["rating"], new_player, "{over}");
    assert_eq!(over["seats"]["s"]["rating_change"], -241, "{over}");
    assert_eq!(over["seats"]["n"]["rating_change"], 241, "{over}");

    // The director corrects it to a draw: re-rated, and the page open now hears it.
    let (status, r) = event
        .sheet(
            &game,
            &event.director,
            json!({"action":"correct","result":{"result":"draw"},"reason":"both agreed it was level"}),
        )
        .await;
    assert_eq!(status, 200, "{r}");
    let heard = watcher.recv_type("ratings").await;
    assert_eq!(
        heard["d"],
        json!({"s": {"rating": new_player, "rating_change": 0},
               "n": {"rating": new_player, "rating_change": 0}}),
    );
    let (_, drawn) = server.get(&path, &event.director).await;
    assert_eq!(drawn["seats"]["n"]["rating_change"], 0, "{drawn}");
    // A page that was away then resumes after the last event: it is told them too.
    let version = drawn["version"].as_u64().unwrap();
    let mut resumed = server.socket(&game, None, Some(version)).await;
    assert_eq!(
        resumed.recv().await,
        heard,
        "the ratings, before anything else"
    );
    drop(resumed);

    // Unloaded, the page reads the game from the store: the same.
    drop(watcher);
    server.until_no_game_is_loaded().await;
    let (_, stored) = server.get(&path, &event.director).await;
    assert_eq!(stored["rated"], true, "{stored}");
    assert_eq!(stored["seats"]["s"]["rating_change"], 0, "{stored}");
    assert_eq!(stored["seats"]["n"]["rating_change"], 0, "{stored}");
    server.stop().await;
}
