//! Rated games against the real server (docs/ratings.md#what-is-rated): two accounts play
//! a rated game to its end and both ratings change, in the transaction of the end; what is
//! not rated (a game decided before both moved or given up after one move each, a
//! guest's, the computer's); a rated game
//! becomes casual when a guest takes the second seat; the ratings shown on the seats, the
//! lobby's entries, the player page, the history and the leaderboard. On SQLite and
//! PostgreSQL.

use omweso_server::ratings::Glicko;
use serde_json::{json, Value};

use crate::accounts::{databases, refusal, sign_up, token};
use crate::common::{Client, Remote, TestServer};

/// Plays one move for each side (South first), then South resigns: North wins. The
/// sockets are given back: held, they keep the finished game loaded (a game over with no
/// socket unloads, and a snapshot asked for just then finds it gone: 503).
async fn both_move_then_south_resigns(
    server: &Remote,
    game: &str,
    south: &str,
    north: &str,
) -> [Client; 2] {
    let mut s = server.socket(game, Some(south), None).await;
    let mut n = server.socket(game, Some(north), None).await;
    s.recv_type("state").await;
    n.recv_type("state").await;
    s.expect_ack_of("s1", json!({"t": "move", "d": {"move": "E1"}}))
        .await;
    let snapshot = server.snapshot(north, game).await;
    let reply = snapshot["legal_moves"][0]
        .as_str()
        .expect("a move for north");
    n.expect_ack_of("n1", json!({"t": "move", "d": {"move": reply}}))
        .await;
    s.expect_ack_of("r", json!({"t": "resign", "d": {}})).await;
    [s, n]
}

/// Plays `turns` turns for each side (South first, each the first legal move), then South
/// resigns: North wins after a game long enough to be rated (`ratings::too_short`).
async fn both_play_then_south_resigns(
    server: &Remote,
    game: &str,
    (south, north): (&str, &str),
    turns: usize,
) -> [Client; 2] {
    let mut s = server.socket(game, Some(south), None).await;
    let mut n = server.socket(game, Some(north), None).await;
    s.recv_type("state").await;
    n.recv_type("state").await;
    for turn in 0..turns {
        for (socket, token, side) in [(&mut s, south, "s"), (&mut n, north, "n")] {
            let snapshot = server.snapshot(token, game).await;
            let mv = snapshot["legal_moves"][0]
                .as_str()
                .unwrap_or_else(|| panic!("a move for {side}: {snapshot}"))
                .to_owned();
            socket
                .expect_ack_of(
                    &format!("{side}{turn}"),
                    json!({"t": "move", "d": {"move": mv}}),
                )
                .await;
        }
    }
    s.expect_ack_of("r", json!({"t": "resign", "d": {}})).await;
    [s, n]
}

fn badge(seat: &Value) -> (i64, bool) {
    (
        seat["rating"]["rating"].as_i64().unwrap_or(-1),
        seat["rating"]["provisional"].as_bool().unwrap_or(false),
    )
}

#[tokio::test]
async fn a_rated_game_between_two_accounts_changes_both_ratings() {
    for (url, _pg) in databases().await {
        let server = TestServer::start(&url).await;
        let kato = token(&sign_up(&server, None, "kato_rated").await);
        let nakato = token(&sign_up(&server, None, "nakato_rated").await);
        // Between accounts a game is rated unless asked otherwise.
        let game = server.create(&kato, json!({"ruleset": "omweso"})).await;
        let open = server.snapshot(&kato, &game).await;
        assert_eq!(open["rated"], true);
        assert_eq!(
            badge(&open["seats"]["s"]),
            (1500, true),
            "a new player: 1500?"
        );
        assert_eq!(server.join(&nakato, &game).await, "n");
        let (_, lobby) = server.get("/api/games?list=live", &kato).await;
        let listed = &lobby["games"][0];
        assert_eq!(listed["rated"], true, "{lobby}");
        assert_eq!(
            listed["ratings"]["n"],
            json!({"rating": 1500, "provisional": true})
        );

        let sockets = both_play_then_south_resigns(&server, &game, (&kato, &nakato), 3).await;
        let over = server.snapshot(&nakato, &game).await;
        // Both from 1500/500/0.09: the winner 1741.48, the loser 1258.52 (glicko.rs).
        let won = Glicko::START.after_game(&Glicko::START, 1.0);
        assert_eq!(won.rating.round(), 1741.0);
        assert_eq!(over["seats"]["n"]["rating_change"], 241, "{over}");
        assert_eq!(over["seats"]["s"]["rating_change"], -241);
        assert_eq!(
            badge(&over["seats"]["n"]),
            (1500, true),
            "the rating it was played at"
        );
        // Watching needs no name: a visitor without a session reads the game and its
        // changes too (its page reads them when the game ends).
        let (status, watched) = server.get_anonymous(&format!("/api/games/{game}")).await;
        assert_eq!(status, 200, "{watched}");
        assert_eq!(watched["you"], Value::Null);
        assert_eq!(watched["seats"]["n"]["rating_change"], 241, "{watched}");
        assert_eq!(watched["seats"]["s"]["rating_change"], -241);
        // A session signed out or expired is no reason to refuse a read either.
        let (status, _) = server
            .get(&format!("/api/games/{game}"), "no-such-token")
            .await;
        assert_eq!(status, 200);

        let (_, page) = server.get("/api/players/nakato_rated", &kato).await;
        assert_eq!(
            page["ratings"],
            json!([{"ruleset": "omweso", "rating": 1741, "deviation": 397,
                    "provisional": true, "games": 1}]),
            "{page}"
        );
        let (_, page) = server.get("/api/players/kato_rated", &kato).await;
        assert_eq!(page["ratings"][0]["rating"], 1259);
        let (status, history) = server
            .get("/api/players/kato_rated/rating-history", &kato)
            .await;
        assert_eq!(status, 200);
        assert_eq!(history["rulesets"][0]["ruleset"], "omweso");
        assert_eq!(history["rulesets"][0]["points"][0]["rating"], 1259);
        // Provisional ratings are not on the leaderboard yet.
        let (status, board) = server.get("/api/leaderboards/omweso", &kato).await;
        assert_eq!((status, &board["entries"]), (200, &json!([])), "{board}");
        assert_eq!(
            refusal(&server.get("/api/leaderboards/chess", &kato).await),
            (400, "bad_request")
        );
        // A finished game read from the store (not loaded) shows the same.
        drop(sockets);
        server.until_no_game_is_loaded().await;
        let stored = server.snapshot(&kato, &game).await;
        assert_eq!(stored["seats"]["n"]["rating_change"], 241, "{stored}");
        assert_eq!(badge(&stored["seats"]["s"]), (1500, true));
        assert_eq!(stored["you"], "s");
        let (status, stored) = server.get_anonymous(&format!("/api/games/{game}")).await;
        assert_eq!(status, 200, "{stored}");
        assert_eq!(stored["you"], Value::Null);
        assert_eq!(stored["seats"]["s"]["rating_change"], -241, "{stored}");
        server.stop().await;
    }
}

#[tokio::test]
async fn what_is_not_rated() {
    for (url, _pg) in databases().await {
        let server = TestServer::start(&url).await;
        let kato = token(&sign_up(&server, None, "kato_casual").await);
        let nakato = token(&sign_up(&server, None, "nakato_casual").await);
        let (guest, _) = server.session("Guest").await;

        // Decided before both moved: South resigns at once.
        let game = server.create(&kato, json!({})).await;
        server.join(&nakato, &game).await;
        let mut s = server.socket(&game, Some(&kato), None).await;
        let _n = server.socket(&game, Some(&nakato), None).await;
        s.recv_type("state").await;
        s.expect_ack_of("r", json!({"t": "resign", "d": {}})).await;
        let over = server.snapshot(&kato, &game).await;
        assert_eq!(over["status"], "finished");
        assert!(over["seats"]["n"].get("rating_change").is_none(), "{over}");

        // Given up after one move each (issue 41, finding 4: resigned puppets' games
        // farmed 557 points in a second): too short to rate. After three each it is rated.
        let short = server.create(&kato, json!({})).await;
        server.join(&nakato, &short).await;
        let _played = both_move_then_south_resigns(&server, &short, &kato, &nakato).await;
        let over = server.snapshot(&kato, &short).await;
        assert_eq!(over["status"], "finished");
        assert!(over["seats"]["n"].get("rating_change").is_none(), "{over}");
        let (_, page) = server.get("/api/players/nakato_casual", &kato).await;
        assert!(page.get("ratings").is_none(), "not rated: {page}");
        let long_enough = server.create(&kato, json!({})).await;
        server.join(&nakato, &long_enough).await;
        let _played =
            both_play_then_south_resigns(&server, &long_enough, (&kato, &nakato), 3).await;
        let over = server.snapshot(&kato, &long_enough).await;
        assert_eq!(over["seats"]["n"]["rating_change"], 241, "{over}");

        // Asked casual between accounts.
        let casual = server.create(&kato, json!({"rated": false})).await;
        server.join(&nakato, &casual).await;
        let _played = both_play_then_south_resigns(&server, &casual, (&kato, &nakato), 3).await;
        let (_, page) = server.get("/api/players/kato_casual", &kato).await;
        assert_eq!(page["ratings"][0]["games"], 1, "only the rated one: {page}");

        // A guest who sits makes a rated game casual, and it says so.
        let rated = server.create(&kato, json!({})).await;
        assert_eq!(server.snapshot(&kato, &rated).await["rated"], true);
        server.join(&guest, &rated).await;
        let seated = server.snapshot(&kato, &rated).await;
        assert!(seated.get("rated").is_none(), "{seated}");
        assert!(
            seated["seats"]["n"].get("rating").is_none(),
            "a guest has no rating"
        );
        let _played = both_play_then_south_resigns(&server, &rated, (&kato, &guest), 3).await;
        let (_, page) = server.get("/api/players/kato_casual", &kato).await;
        assert_eq!(page["ratings"][0]["games"], 1, "{page}");

        // A guest's game is casual; a guest may not ask for a rated one, nor anyone against
        // the computer.
        let theirs = server.create(&guest, json!({})).await;
        assert!(server
            .snapshot(&guest, &theirs)
            .await
            .get("rated")
            .is_none());
        let refused = server
            .post("/api/games", &guest, json!({"rated": true}))
            .await;
        assert_eq!(refusal(&refused), (400, "bad_request"));
        assert!(refused.1["error"]["message"]
            .as_str()
            .unwrap()
            .contains("account"));
        let refused = server
            .post(
                "/api/games",
                &kato,
                json!({"rated": true, "opponent": {"computer": {"level": 1}}}),
            )
            .await;
        assert_eq!(refusal(&refused), (400, "bad_request"));
        let computer = server
            .create(&kato, json!({"opponent": {"computer": {"level": 1}}}))
            .await;
        assert!(server
            .snapshot(&kato, &computer)
            .await
            .get("rated")
            .is_none());
        server.stop().await;
    }
}

/// A correction of an earlier result re-rates every result after it (docs/ratings.md):
/// a later rated game still in memory shows its new figures when next asked for, live on
/// the sockets open on it, exactly as the store reads them once it has left memory (the
/// second event day found the later game's page still showing the figures of before).
/// On an SQLite file, as self-hosters run it, with the correction written by another
/// process's store (as `omweso admin` or a correction on another node would).
#[tokio::test]
async fn a_later_rated_game_shows_what_a_correction_before_it_made_of_it() {
    use omweso_server::ratings::Score;
    use omweso_server::store::{RatedResult, Store, Write};
    let (_file, url) = crate::store::temp_sqlite();
    let server = TestServer::start(&url).await;
    let kato = sign_up(&server, None, "kato_later").await;
    let nakato = sign_up(&server, None, "nakato_later").await;
    let (kato_id, nakato_id) = (
        kato["player_id"].as_str().unwrap().parse().unwrap(),
        nakato["player_id"].as_str().unwrap().parse().unwrap(),
    );
    let (kato, nakato) = (token(&kato), token(&nakato));
    let first = server.create(&kato, json!({"ruleset": "omweso"})).await;
    server.join(&nakato, &first).await;
    drop(both_play_then_south_resigns(&server, &first, (&kato, &nakato), 3).await);
    let second = server.create(&kato, json!({"ruleset": "omweso"})).await;
    server.join(&nakato, &second).await;
    let [mut watching, _north] =
        both_play_then_south_resigns(&server, &second, (&kato, &nakato), 3).await;
    let before = server.snapshot(&kato, &second).await;
    let gained_before = before["seats"]["n"]["rating_change"].as_i64().unwrap();
    assert!(gained_before > 0, "{before}");

    // The first game's result corrected to South's win: Nakato played the second game
    // from 1259, not 1741, and Kato from 1741.
    let elsewhere = Store::open(&url).await.unwrap();
    elsewhere
        .write(&[Write::Rate(RatedResult {
            key: first.parse().unwrap(),
            ruleset: omweso_rules::Ruleset::Omweso,
            south: kato_id,
            north: nakato_id,
            score: Some(Score::SouthWon),
            at_ms: 1,
        })])
        .await
        .unwrap();
    let stored = elsewhere
        .rating_changes(second.parse().unwrap())
        .await
        .unwrap();
    let stored_gain = stored
        .iter()
        .find(|c| c.person == nakato_id)
        .unwrap()
        .shown();
    assert!(
        i64::from(stored_gain) > gained_before,
        "{stored_gain} {gained_before}"
    );

    // Shown when next asked for once the game's last read is 2 s old (a game asked for
    // again and again reads the store at most that often).
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let after = loop {
        let after = server.snapshot(&kato, &second).await;
        if after["seats"]["n"]["rating_change"] == stored_gain {
            break after;
        }
        assert!(std::time::Instant::now() < deadline, "never shown: {after}");
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    };
    assert_eq!(after["seats"]["n"]["rating"]["rating"], 1259, "{after}");
    assert_eq!(after["seats"]["s"]["rating"]["rating"], 1741, "{after}");
    // The socket open on the game is told.
    loop {
        let frame = watching.recv_type("ratings").await;
        if frame["d"]["n"]["rating_change"] == stored_gain {
            break;
        }
    }
    elsewhere.close().await;
    drop(watching);
    drop(_north);
    server.until_no_game_is_loaded().await;
    let (_, unloaded) = server.get_anonymous(&format!("/api/games/{second}")).await;
    assert_eq!(
        unloaded["seats"]["n"]["rating_change"], stored_gain,
        "{unloaded}"
    );
    assert_eq!(
        unloaded["seats"]["s"]["rating_change"],
        after["seats"]["s"]["rating_change"]
    );
    server.stop().await;
}
