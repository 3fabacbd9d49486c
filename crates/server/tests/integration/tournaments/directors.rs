//! Co-directors (docs/tournaments.md, "Directors"): one named by username runs the
//! tournament (pairs, starts, corrects, ends, withdraws, forbids pairs) and the actions
//! list names them; one joins through a one-time invite (used once, then refused); only
//! the director names and removes them; a director gives a player a code for a new device;
//! the co-directors and the actions survive a restart. On SQLite, and the first on
//! PostgreSQL when `TEST_POSTGRES_URL` is set.

use crate::common::TestServer;
use serde_json::{json, Value};
use std::collections::HashMap;

use super::*;

/// The refusal's code and HTTP status, and its message whole.
fn refused(answer: (u16, Value), http: u16, code: &str, message: &str) {
    let (status, r) = answer;
    assert_eq!(status, http, "{r}");
    assert_eq!(r["error"]["code"], code, "{r}");
    assert_eq!(r["error"]["message"], message, "{r}");
}

#[tokio::test]
async fn a_co_director_named_by_username_runs_the_tournament_under_their_name_with_sqlite() {
    crate::common::on_sqlite_file(async |url| co_director_runs_the_tournament(&url).await).await;
}

#[tokio::test]
async fn a_co_director_named_by_username_runs_the_tournament_under_their_name_with_postgres() {
    crate::common::on_postgres("omweso_codirector", async |url| {
        co_director_runs_the_tournament(&url).await
    })
    .await;
}

async fn co_director_runs_the_tournament(database_url: &str) {
    let server = TestServer::start(database_url).await;
    let mut event = Event::create(&server, json!({"name":"Shared","rounds":2})).await;
    let a = event.join("A").await;
    let b = event.join("B").await;
    event.join("C").await;
    event.join("D").await;
    let e = event.join("E").await;
    let (carol, carol_id) = account(&server, "Carol").await;

    // Before she is named, Carol is nobody to the tournament.
    refused(
        server.post(&event.path("/rounds"), &carol, json!({})).await,
        403,
        "not_director",
        "only the director or a co-director may pair a round",
    );
    // A player may not name co-directors; nor may a username nobody has be named.
    refused(
        event.add_co_director(&event.tokens[&a], "Carol").await,
        403,
        "not_director",
        "only the director who created the tournament may name co-directors",
    );
    refused(
        event.add_co_director(&event.director, "nobody-here").await,
        404,
        "not_found",
        "no account has the username \"nobody-here\"",
    );
    let (status, r) = event.add_co_director(&event.director, "carol").await;
    assert_eq!(status, 200, "{r}");
    assert_eq!(
        r,
        json!({"co_directors":[{"id": carol_id, "name": "Carol"}]})
    );
    refused(
        event.add_co_director(&event.director, "Carol").await,
        409,
        "already_joined",
        "Carol is a co-director already",
    );
    let snap = event.snapshot().await;
    let director_id = snap["director"].as_str().unwrap().to_owned();
    assert_eq!(snap["director_name"], "TD");
    assert_eq!(
        snap["co_directors"],
        json!([{"id": carol_id, "name": "Carol"}])
    );

    // Carol pairs, forbids a pair, starts, corrects a sheet, ends the round, withdraws.
    let (status, r) = server.post(&event.path("/rounds"), &carol, json!({})).await;
    assert_eq!(status, 201, "{r}");
    let (status, r) = server
        .put(
            &event.path("/forbidden-pairs"),
            &carol,
            json!({"forbidden_pairs":[[a, e]]}),
        )
        .await;
    assert_eq!(status, 200, "{r}");
    let (status, r) = server
        .post(&event.path("/rounds/1/start"), &carol, json!({}))
        .await;
    assert_eq!(status, 200, "{r}");
    assert_eq!(r["status"], "playing");
    let round1 = r;
    let t1_game = game_of(&round1, 1);
    let first = round1["pairings"][0]["first"].as_str().unwrap().to_owned();
    event.resign(&t1_game, &first).await;
    event
        .until("table 1's sheet", |s| {
            !round(s, 1)["pairings"][0]["sheet"].is_null()
        })
        .await;
    let (status, r) = event
        .sheet(
            &t1_game,
            &carol,
            json!({"action":"correct","result":{"result":"win","winner":"s","victory":"no-move"},"reason":"the resignation was a slip: North had no move"}),
        )
        .await;
    assert_eq!(status, 200, "{r}");
    assert_eq!(r["corrections"][0]["by_name"], "Carol");
    let (status, r) = server
        .post(&event.path("/rounds/1/end"), &carol, json!({}))
        .await;
    assert_eq!(status, 200, "{r}");
    let (status, r) = server
        .post(&event.path("/withdraw"), &carol, json!({"player_id": e}))
        .await;
    assert_eq!(status, 200, "{r}");
    // What only the director may do stays the director's.
    refused(
        event.add_co_director(&carol, "A").await,
        403,
        "not_director",
        "only the director who created the tournament may name co-directors",
    );
    refused(
        server
            .post(&event.path("/co-director-invites"), &carol, json!({}))
            .await,
        403,
        "not_director",
        "only the director who created the tournament may invite co-directors",
    );

    // The actions, each under the name of who did it.
    refused(
        server.get(&event.path("/actions"), &event.tokens[&b]).await,
        403,
        "not_director",
        "only the director or a co-director may read the directors' actions",
    );
    let (status, r) = server.get(&event.path("/actions"), &carol).await;
    assert_eq!(status, 200, "{r}");
    let actions = r["actions"].as_array().unwrap();
    let told: Vec<(&str, &str, &str)> = actions
        .iter()
        .map(|x| {
            (
                x["kind"].as_str().unwrap(),
                x["by_name"].as_str().unwrap(),
                x["summary"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        told,
        vec![
            ("create", "TD", "created the tournament \"Shared\""),
            ("co_director_added", "TD", "named Carol co-director"),
            ("pair", "Carol", "paired round 1"),
            ("forbidden_pairs", "Carol", "set the forbidden pairs (1)"),
            ("start", "Carol", "started round 1"),
            (
                "sheet",
                "Carol",
                "corrected the sheet of round 1, table 1 to: A won (the resignation was a slip: North had no move)"
            ),
            ("end_round", "Carol", "ended round 1 early"),
            ("withdraw", "Carol", "withdrew E"),
        ],
        "{r}"
    );
    for action in actions {
        let by = if action["by_name"] == "Carol" {
            carol_id.as_str()
        } else {
            director_id.as_str()
        };
        assert_eq!(action["by"], by, "{action}");
    }
    let seqs: Vec<i64> = actions.iter().map(|x| x["seq"].as_i64().unwrap()).collect();
    assert!(seqs.windows(2).all(|w| w[0] < w[1]), "{seqs:?}");
    assert_eq!(seqs[0], 0);
}

#[tokio::test]
async fn an_invite_makes_one_co_director_once_and_only_the_director_removes_them() {
    let server = TestServer::start("sqlite::memory:").await;
    let mut event = Event::create(&server, json!({"name":"Invites","rounds":1})).await;
    let a = event.join("A").await;
    event.join("B").await;
    let (dana, dana_id) = server.session("Dana").await;
    let (eve, _) = server.session("Eve").await;

    refused(
        server
            .post(
                &event.path("/co-director-invites"),
                &event.tokens[&a],
                json!({}),
            )
            .await,
        403,
        "not_director",
        "only the director who created the tournament may invite co-directors",
    );
    let (status, invite) = server
        .post(
            &event.path("/co-director-invites"),
            &event.director,
            json!({}),
        )
        .await;
    assert_eq!(status, 201, "{invite}");
    let code = invite["code"].as_str().unwrap().to_owned();
    assert_eq!(code.len(), 9, "{code}");
    assert_eq!(&code[4..5], "-", "{code}");
    let made = omweso_protocol::clock::now_ms();
    let expires = invite["expires_at_ms"].as_u64().unwrap();
    let day = 24 * 60 * 60 * 1000;
    assert!(
        expires <= made + day && expires + 60_000 > made + day,
        "{invite}"
    );

    // Typed without its dash, in lower case: the same code.
    let typed = code.replace('-', "").to_lowercase();
    let (status, r) = server
        .post(
            &event.path("/co-directors/accept"),
            &dana,
            json!({"code": typed}),
        )
        .await;
    assert_eq!(status, 200, "{r}");
    assert_eq!(r, json!({"co_directors":[{"id": dana_id, "name": "Dana"}]}));
    // Used once: the second use is refused, saying so.
    refused(
        server
            .post(&event.path("/co-directors/accept"), &eve, json!({"code": code}))
            .await,
        400,
        "bad_code",
        "that co-director invite was used already (each is good once): ask the director for a new one",
    );
    refused(
        server
            .post(
                &event.path("/co-directors/accept"),
                &eve,
                json!({"code": "0000-0000"}),
            )
            .await,
        400,
        "bad_code",
        "no co-director invite of this tournament has that code: check it, or ask the director for a new one",
    );
    refused(
        server
            .post(
                &event.path("/co-directors/accept"),
                &eve,
                json!({"code": "hello"}),
            )
            .await,
        400,
        "bad_code",
        "an invite code is 8 letters and digits, like ABCD-EF23",
    );
    // Dana has the console now.
    let (status, r) = server.post(&event.path("/rounds"), &dana, json!({})).await;
    assert_eq!(status, 201, "{r}");

    // At most 8 invites open at once (one is used: 8 more, then refused).
    for _ in 0..8 {
        let (status, r) = server
            .post(
                &event.path("/co-director-invites"),
                &event.director,
                json!({}),
            )
            .await;
        assert_eq!(status, 201, "{r}");
    }
    refused(
        server
            .post(
                &event.path("/co-director-invites"),
                &event.director,
                json!({}),
            )
            .await,
        429,
        "rate_limited",
        "at most 8 co-director invites may be open at once: wait for one to be used or to expire",
    );

    // Only the director removes; then Dana's console is gone.
    let remove = |token: String, who: String| {
        let url = server.url(&event.path(&format!("/co-directors/{who}")));
        let http = server.http.clone();
        async move {
            let r = http.delete(url).bearer_auth(token).send().await.unwrap();
            let status = r.status().as_u16();
            (status, r.json::<Value>().await.unwrap_or(Value::Null))
        }
    };
    refused(
        remove(dana.clone(), dana_id.clone()).await,
        403,
        "not_director",
        "only the director who created the tournament may remove co-directors",
    );
    let (status, r) = remove(event.director.clone(), dana_id.clone()).await;
    assert_eq!((status, &r), (200, &json!({"co_directors":[]})), "{r}");
    refused(
        remove(event.director.clone(), dana_id.clone()).await,
        404,
        "not_found",
        &format!("{dana_id} is not a co-director of this tournament"),
    );
    refused(
        server
            .post(&event.path("/rounds/1/start"), &dana, json!({}))
            .await,
        403,
        "not_director",
        "only the director or a co-director may start a round",
    );
    let snap = event.snapshot().await;
    assert_eq!(snap["co_directors"], json!([]));
    let (_, r) = server.get(&event.path("/actions"), &event.director).await;
    let kinds: Vec<(&str, &str)> = r["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| (x["kind"].as_str().unwrap(), x["summary"].as_str().unwrap()))
        .collect();
    let mut expected = vec![
        ("create", "created the tournament \"Invites\""),
        ("co_director_invited", "made a co-director invite"),
        ("co_director_accepted", "became co-director with an invite"),
        ("pair", "paired round 1"),
    ];
    expected.extend(std::iter::repeat_n(
        ("co_director_invited", "made a co-director invite"),
        8,
    ));
    expected.push(("co_director_removed", "removed Dana as co-director"));
    assert_eq!(kinds, expected, "{r}");
    assert_eq!(r["actions"][2]["by_name"], "Dana");
}

#[tokio::test]
async fn a_director_gives_a_player_a_code_for_a_new_device() {
    let server = TestServer::start("sqlite::memory:").await;
    let mut event = Event::create(&server, json!({"name":"Phones","rounds":1})).await;
    let a = event.join("A").await;
    let b = event.join("B").await;
    let (_, outsider_id) = server.session("Zed").await;
    let path = |player: &str| event.path(&format!("/players/{player}/link-code"));

    refused(
        server.post(&path(&a), &event.tokens[&b], json!({})).await,
        403,
        "not_director",
        "only the director or a co-director may give a player a code for a new device",
    );
    refused(
        server
            .post(&path(&outsider_id), &event.director, json!({}))
            .await,
        409,
        "not_in_tournament",
        "that player is not in this tournament",
    );
    let (status, r) = server.post(&path(&a), &event.director, json!({})).await;
    assert_eq!(status, 200, "{r}");
    let code = r["code"].as_str().unwrap();
    assert_eq!((code.len(), &code[4..5]), (9, "-"), "{r}");
    assert!(r["qr_svg"].as_str().unwrap().contains("<svg"), "{r}");
    let url = r["url"].as_str().unwrap();
    assert!(
        url.ends_with(&format!("/link?code={}", code.replace('-', ""))),
        "{r}"
    );
    assert!(r["expires_at_ms"].as_i64().unwrap() > 0, "{r}");
    let (_, r) = server.get(&event.path("/actions"), &event.director).await;
    let last = r["actions"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(last["kind"], "device_code", "{r}");
    assert_eq!(last["summary"], "gave A a code for a new device", "{r}");
    assert_eq!(last["by_name"], "TD", "{r}");
}

#[tokio::test]
async fn co_directors_and_who_did_what_survive_a_restart() {
    let path = std::env::temp_dir().join(format!("omweso-codirectors-{}.db", uuid::Uuid::new_v4()));
    let url = format!("sqlite://{}", path.display());
    let server = TestServer::start(&url).await;
    let mut event = Event::create(&server, json!({"name":"Kept","rounds":1})).await;
    event.join("A").await;
    event.join("B").await;
    let (carol, carol_id) = account(&server, "Carol").await;
    let (status, r) = event.add_co_director(&event.director, "Carol").await;
    assert_eq!(status, 200, "{r}");
    let (status, r) = server.post(&event.path("/rounds"), &carol, json!({})).await;
    assert_eq!(status, 201, "{r}");
    let (_, before) = server.get(&event.path("/actions"), &carol).await;
    let snapshot_before = event.snapshot().await;
    let (id, director) = (event.id.clone(), event.director.clone());
    server.stop().await;

    let server = TestServer::start(&url).await;
    let event = Event {
        server: &server,
        id,
        director,
        tokens: HashMap::new(),
        names: HashMap::new(),
    };
    let snap = event.snapshot().await;
    assert_eq!(
        snap["co_directors"],
        json!([{"id": carol_id, "name": "Carol"}])
    );
    assert_eq!(snap["version"], snapshot_before["version"]);
    let (status, after) = server.get(&event.path("/actions"), &carol).await;
    assert_eq!(status, 200, "{after}");
    assert_eq!(after, before);
    assert_eq!(after["actions"][2]["by_name"], "Carol");
    // Carol still has the console: she starts the round.
    let (status, r) = server
        .post(&event.path("/rounds/1/start"), &carol, json!({}))
        .await;
    assert_eq!(status, 200, "{r}");
    server.stop().await;
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
}

/// A player who changes name (`PATCH /api/me`) is renamed in the tournament: its standings
/// and players list; the director too; their seats and console stay theirs.
#[tokio::test]
async fn a_rename_reaches_the_standings_and_the_console_stays() {
    let server = TestServer::start("sqlite::memory:").await;
    let mut event = Event::create(&server, json!({"name":"Names","rounds":1})).await;
    let a = event.join("Akello").await;
    event.join("B").await;
    let (status, r) = server
        .patch(
            "/api/me",
            &event.tokens[&a],
            json!({"name": "Akello Grace"}),
        )
        .await;
    assert_eq!(status, 200, "{r}");
    let (status, r) = server
        .patch("/api/me", &event.director, json!({"name": "Mukasa"}))
        .await;
    assert_eq!(status, 200, "{r}");
    let snap = event.snapshot().await;
    let names: Vec<&str> = snap["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Akello Grace", "B"]);
    assert!(snap["standings"]
        .as_array()
        .unwrap()
        .iter()
        .any(|s| s["player_id"] == a.as_str() && s["name"] == "Akello Grace"));
    assert_eq!(snap["director_name"], "Mukasa");
    // Still the director, still the player.
    let (status, r) = server
        .post(&event.path("/rounds"), &event.director, json!({}))
        .await;
    assert_eq!(status, 201, "{r}");
    let (_, seen) = server.get(&event.path(""), &event.tokens[&a]).await;
    assert_eq!(seen["you"], a.as_str());
}

/// No director can give a code for a player with an account (it would be a takeover: the
/// account has its password and recovery codes), nor once the tournament is over.
#[tokio::test]
async fn a_device_code_is_for_a_guest_and_a_tournament_not_over() {
    let server = TestServer::start("sqlite::memory:").await;
    let mut event = Event::create(&server, json!({"name":"Guarded","rounds":1})).await;
    let (kato, kato_id) = account(&server, "Kato").await;
    let (status, r) = server.post(&event.path("/join"), &kato, json!({})).await;
    assert_eq!(status, 200, "{r}");
    event.tokens.insert(kato_id.clone(), kato.clone());
    let guest = event.join("Guest").await;
    refused(
        server
            .post(
                &event.path(&format!("/players/{kato_id}/link-code")),
                &event.director,
                json!({}),
            )
            .await,
        409,
        "already_account",
        "Kato has an account: they log in on the new device (or use a recovery code)",
    );
    // The tournament over, not for a guest either.
    event.pair().await;
    let started = event.start(1).await;
    let game = started["pairings"][0]["game_id"]
        .as_str()
        .unwrap()
        .to_owned();
    event.resign(&game, &guest).await;
    event
        .until("the sheet", |s| {
            !round(s, 1)["pairings"][0]["sheet"].is_null()
        })
        .await;
    for player in [&kato_id, &guest] {
        let (status, r) = event
            .sheet(&game, &event.tokens[player], json!({"action": "confirm"}))
            .await;
        assert_eq!(status, 200, "{r}");
    }
    event
        .until("the tournament over", |s| s["status"] == "finished")
        .await;
    refused(
        server
            .post(&event.path(&format!("/players/{guest}/link-code")), &event.director, json!({}))
            .await,
        409,
        "tournament_closed",
        "the tournament is over: a player who lost their device gets back with their own account, or a link code from another of their devices",
    );
}
