//! The analysis board's calls (`/api/analysis/...`) against a real server on port 0:
//! exact answers on hand-made positions (docs/rules.md#16-worked-example), refusals that say what is wrong,
//! the limits, and a spectator's analysis of a running game leaving the game as it was.

use crate::common::{SeatedGame, TestServer};
use serde_json::{json, Value};

/// docs/rules.md#16-worked-example: South to move, and the position after South's E1.
const WORKED: &str = "5,0,0,0,1,1,1,1/0,3,0,5,5,5,0,5/10,4,1,4,4,0,0,4/1,0,0,0,4,0,0,0 s";
const AFTER_E1: &str = "5,0,0,0,1,1,1,0/0,3,0,5,5,5,0,0/10,4,1,4,4,1,1,6/1,0,0,0,0,2,2,2 n";
const MWEISO_START: &str = "2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 o";

fn starts(side: &Value) -> Vec<&str> {
    side["starts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["start"].as_str().unwrap())
        .collect()
}

#[tokio::test]
async fn the_worked_example_its_legal_moves_and_e1_played_out() {
    let server = TestServer::start("sqlite::memory:").await;
    let (token, _) = server.session("Apio").await;
    let (status, legal) = server
        .post(
            "/api/analysis/legal",
            &token,
            json!({"ruleset":"omweso","position":WORKED}),
        )
        .await;
    assert_eq!(status, 200, "{legal}");
    assert_eq!(legal["position"], WORKED);
    assert_eq!(legal["to_move"], "s");
    assert_eq!(legal["outcome"], Value::Null);
    assert_eq!(
        legal["legal"]["s"]["moves"],
        json!(["E1", "H2", "E2", "D2", "B2", "A2"])
    );
    assert_eq!(legal["legal"].get("n"), None);
    assert_eq!(
        starts(&legal["legal"]["s"]),
        ["E1", "H2", "E2", "D2", "B2", "A2"]
    );
    assert_eq!(
        legal["legal"]["s"]["starts"][0],
        json!({"start":"E1","laps":2,"seeds":10,"captured":6,"ends_at":"F2","decision":null,"outcome":null})
    );

    let (status, played) = server
        .post(
            "/api/analysis/play",
            &token,
            json!({"ruleset":"omweso","position":WORKED,"move":"E1"}),
        )
        .await;
    assert_eq!(status, 200, "{played}");
    assert_eq!(
        played["laps"],
        json!([
            {"from":"E1","dir":"a","seeds":4,"to":"H2","kind":"capture","captured":6},
            {"from":"E1","dir":"a","seeds":6,"to":"F2","kind":"end","captured":0}
        ])
    );
    assert_eq!(played["by"], "s");
    assert_eq!(played["move"], "E1");
    assert_eq!(played["pending"], false);
    assert_eq!(played["decision"], Value::Null);
    assert_eq!(played["after"]["position"], AFTER_E1);
    assert_eq!(played["after"]["to_move"], "n");
    assert_eq!(played["after"]["legal"].get("s"), None);
    assert!(!played["after"]["legal"]["n"]["moves"]
        .as_array()
        .unwrap()
        .is_empty());
    server.stop().await;
}

#[tokio::test]
async fn a_decision_answered_stepwise_and_both_openings_of_mweiso() {
    let server = TestServer::start("sqlite::memory:").await;
    let (token, _) = server.session("Apio").await;
    let (_, legal) = server
        .post(
            "/api/analysis/legal",
            &token,
            json!({"ruleset":"mweiso","position":MWEISO_START}),
        )
        .await;
    assert_eq!(legal["to_move"], Value::Null);
    assert_eq!(legal["opening"], json!(["s", "n"]));
    // docs/rules.md#2-mweiso-kagera-murray-1951: no opening turn starts clockwise.
    assert_eq!(
        starts(&legal["legal"]["s"]),
        ["A1", "B1", "C1", "F1", "G1", "H1"]
    );
    assert_eq!(
        starts(&legal["legal"]["n"]),
        ["H4", "G4", "F4", "C4", "B4", "A4"]
    );
    let (status, refused) = server
        .post(
            "/api/analysis/play",
            &token,
            json!({"ruleset":"mweiso","position":MWEISO_START,"move":"A1'"}),
        )
        .await;
    assert_eq!(status, 422, "{refused}");
    assert_eq!(refused["error"]["code"], "illegal_move");
    assert_eq!(
        refused["error"]["message"],
        "A1': Mweiso's opening turn never starts clockwise: no capture is made from a back-row hole in the opening (A1')"
    );

    // The same board in the main phase: A1' captures at B2, and the chain asks.
    let main = MWEISO_START.replace(" o", " s");
    let ask = |mv: &str| json!({"ruleset":"mweiso","position":main,"move":mv});
    let (status, first) = server.post("/api/analysis/play", &token, ask("A1'")).await;
    assert_eq!(status, 200, "{first}");
    assert_eq!(first["pending"], true);
    assert_eq!(
        first["laps"],
        json!([{"from":"A1","dir":"c","seeds":2,"to":"B2","kind":"capture","captured":4}])
    );
    assert_eq!(first["decision"]["by"], "s");
    assert_eq!(first["decision"]["options"], json!(["a", "c", "l"]));
    assert_eq!(first["after"]["legal"], json!({}));
    // A2 and B2 got a seed each; B3 and B4 were captured, and the 4 seeds in hand are shown
    // back at the origin, A1, while the turn waits.
    assert_eq!(
        first["after"]["position"],
        "2,0,2,2,2,2,2,2/2,0,2,2,2,2,2,2/3,3,2,2,2,2,2,2/4,2,2,2,2,2,2,2 s"
    );
    let results = first["decision"]["results"].as_array().unwrap();
    assert_eq!(results.len(), 3);
    for (i, choice) in ["a", "c", "l"].into_iter().enumerate() {
        assert_eq!(results[i]["choice"], choice);
        let (status, answered) = server
            .post("/api/analysis/play", &token, ask(&format!("A1'/{choice}")))
            .await;
        assert_eq!(status, 200, "{answered}");
        // The answer does what its preview said.
        assert_eq!(answered["after"]["position"], results[i]["position"]);
        assert_eq!(answered["decision"]["options"], results[i]["decision"]);
        let laps = answered["laps"].as_array().unwrap();
        assert_eq!(laps[0], first["laps"][0]);
        assert_eq!(laps[1..], results[i]["laps"].as_array().unwrap()[..]);
    }
    server.stop().await;
}

#[tokio::test]
async fn the_engine_answers_a_legal_move_with_its_line_played_out() {
    let server = TestServer::start("sqlite::memory:").await;
    let (token, _) = server.session("Apio").await;
    let (status, found) = server
        .post(
            "/api/analysis/search",
            &token,
            json!({"ruleset":"omweso","position":WORKED,"millis":100}),
        )
        .await;
    assert_eq!(status, 200, "{found}");
    assert_eq!(found["side"], "s");
    let mv = found["move"].as_str().unwrap();
    assert!(
        ["E1", "H2", "E2", "D2", "B2", "A2"].contains(&mv),
        "{found}"
    );
    let score = found["score"].as_f64().unwrap();
    assert!((-1.0..=1.0).contains(&score), "{found}");
    assert!(found["depth"].as_u64().unwrap() >= 1);
    assert!(found["nodes"].as_u64().unwrap() >= 1);
    let pv = found["pv"].as_array().unwrap();
    assert_eq!(pv[0]["move"], mv);
    assert_eq!(pv[0]["by"], "s");
    // Each position of the line is the one the play call gives.
    let mut position = WORKED.to_owned();
    for step in pv {
        let (status, played) = server
            .post(
                "/api/analysis/play",
                &token,
                json!({"ruleset":"omweso","position":position,"move":step["move"]}),
            )
            .await;
        assert_eq!(status, 200, "{played}");
        assert_eq!(played["after"]["position"], step["position"]);
        position = step["position"].as_str().unwrap().to_owned();
    }
    // In Mweiso's opening the engine needs to be told who plays.
    let (status, refused) = server
        .post(
            "/api/analysis/search",
            &token,
            json!({"ruleset":"mweiso","position":MWEISO_START,"millis":50}),
        )
        .await;
    assert_eq!(
        (status, refused["error"]["code"].as_str()),
        (400, Some("bad_side"))
    );
    let (status, north) = server
        .post(
            "/api/analysis/search",
            &token,
            json!({"ruleset":"mweiso","position":MWEISO_START,"millis":50,"side":"n"}),
        )
        .await;
    assert_eq!(status, 200, "{north}");
    assert_eq!(north["side"], "n");
    assert_eq!(north["pv"][0]["by"], "n");
    server.stop().await;
}

#[tokio::test]
async fn bad_questions_are_refused_saying_what_is_wrong() {
    let server = TestServer::start("sqlite::memory:").await;
    let (token, _) = server.session("Apio").await;
    let cases = [
        (
            "/api/analysis/legal",
            json!({"ruleset":"omweso","position":"4,4,4/4 s"}),
            400,
            "bad_position",
        ),
        (
            "/api/analysis/legal",
            json!({"ruleset":"chess","position":WORKED}),
            400,
            "bad_body",
        ),
        (
            "/api/analysis/legal",
            json!({"ruleset":"omweso","position":WORKED,"extra":1}),
            400,
            "bad_body",
        ),
        (
            "/api/analysis/legal",
            json!({"ruleset":"omweso","position":WORKED,"max_seeds":0}),
            400,
            "bad_limit",
        ),
        (
            "/api/analysis/legal",
            json!({"ruleset":"omweso","position":WORKED,"max_seeds":20001}),
            400,
            "bad_limit",
        ),
        (
            "/api/analysis/play",
            json!({"ruleset":"omweso","position":WORKED,"move":"Q7"}),
            400,
            "bad_move",
        ),
        (
            "/api/analysis/play",
            json!({"ruleset":"omweso","position":WORKED,"move":"A1"}),
            422,
            "illegal_move",
        ),
        (
            "/api/analysis/play",
            json!({"ruleset":"omweso","position":WORKED,"move":"E4"}),
            422,
            "illegal_move",
        ),
        (
            "/api/analysis/play",
            json!({"ruleset":"omweso","position":WORKED,"move":"E1/a"}),
            422,
            "illegal_move",
        ),
        (
            "/api/analysis/search",
            json!({"ruleset":"omweso","position":WORKED,"millis":10001}),
            400,
            "bad_limit",
        ),
        (
            "/api/analysis/search",
            json!({"ruleset":"omweso","position":WORKED,"millis":100,"side":"n"}),
            400,
            "bad_side",
        ),
        (
            "/api/analysis/search",
            json!({"ruleset":"omweso","position":"1,0,0,0,0,0,0,0/0,0,0,0,0,0,0,1/4,4,4,4,4,4,4,4/4,4,4,4,4,4,3,3 n","millis":100}),
            409,
            "game_over",
        ),
        (
            "/api/analysis/play",
            json!({"ruleset":"oware","position":WORKED,"move":"C1"}),
            400,
            "bad_position",
        ),
    ];
    for (path, body, status, code) in cases {
        let (got, answer) = server.post(path, &token, body.clone()).await;
        assert_eq!(
            (got, answer["error"]["code"].as_str()),
            (status, Some(code)),
            "{path} {body}: {answer}"
        );
        let message = answer["error"]["message"].as_str().unwrap();
        assert!(
            !message.is_empty() && message.chars().count() <= 161,
            "{message}"
        );
    }
    let (_, answer) = server
        .post(
            "/api/analysis/play",
            &token,
            json!({"ruleset":"omweso","position":WORKED,"move":"A1"}),
        )
        .await;
    assert_eq!(
        answer["error"]["message"],
        "A1: pit A1 holds 1 seed; a move needs at least 2"
    );
    // Without a session.
    let r = server
        .http
        .post(server.url("/api/analysis/legal"))
        .json(&json!({"ruleset":"omweso","position":WORKED}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 401);
    server.stop().await;
}

#[tokio::test]
async fn analysis_calls_and_searches_are_limited_per_session() {
    let mut config = omweso_server::config::ServeConfig::for_tests("sqlite::memory:");
    config.limits.analyses_per_session_per_minute = 3;
    config.limits.searches_per_session_per_minute = 1;
    let server = TestServer::start_with(config).await;
    let (token, _) = server.session("Apio").await;
    let (other, _) = server.session("Okello").await;
    let legal = json!({"ruleset":"omweso","position":WORKED});
    for _ in 0..3 {
        assert_eq!(
            server
                .post("/api/analysis/legal", &token, legal.clone())
                .await
                .0,
            200
        );
    }
    let (status, refused) = server
        .post("/api/analysis/legal", &token, legal.clone())
        .await;
    assert_eq!(
        (status, refused["error"]["code"].as_str()),
        (429, Some("rate_limited"))
    );
    assert_eq!(
        refused["error"]["message"],
        "you made 3 analysis calls in the last minute; wait a little"
    );
    // Another session has its own.
    assert_eq!(
        server.post("/api/analysis/legal", &other, legal).await.0,
        200
    );
    let search = json!({"ruleset":"omweso","position":WORKED,"millis":20});
    assert_eq!(
        server
            .post("/api/analysis/search", &token, search.clone())
            .await
            .0,
        200
    );
    let (status, refused) = server.post("/api/analysis/search", &token, search).await;
    assert_eq!(
        (status, refused["error"]["code"].as_str()),
        (429, Some("rate_limited"))
    );
    server.stop().await;
}

#[tokio::test]
async fn a_spectator_analysing_a_running_game_leaves_it_as_it_was() {
    let server = TestServer::start("sqlite::memory:").await;
    let SeatedGame {
        id: game,
        south: kato,
        ..
    } = SeatedGame::new(&server, json!({"ruleset":"omweso"})).await;
    let (watcher, _) = server.session("Okello").await;
    let mut south = server.socket(&game, Some(&kato), None).await;
    south
        .send(json!({"t":"move","d":{"move":"E1"},"id":"m1"}))
        .await;
    south.expect_ack("m1").await;
    while south
        .try_recv(std::time::Duration::from_millis(200))
        .await
        .is_some()
    {}
    let before = server.snapshot(&watcher, &game).await;
    assert_eq!(before["status"], "playing");
    let position = before["history"][0]["position"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(position, before["position"]);
    let (status, legal) = server
        .post(
            "/api/analysis/legal",
            &watcher,
            json!({"ruleset":"omweso","position":position}),
        )
        .await;
    assert_eq!(status, 200, "{legal}");
    // The analysis lists what the game lists.
    assert_eq!(legal["legal"], before["legal"]);
    let mv = legal["legal"]["n"]["moves"][0].as_str().unwrap().to_owned();
    let (status, _) = server
        .post(
            "/api/analysis/play",
            &watcher,
            json!({"ruleset":"omweso","position":position,"move":mv}),
        )
        .await;
    assert_eq!(status, 200);
    let (status, _) = server
        .post(
            "/api/analysis/search",
            &watcher,
            json!({"ruleset":"omweso","position":position,"millis":50}),
        )
        .await;
    assert_eq!(status, 200);
    let after = server.snapshot(&watcher, &game).await;
    assert_eq!(after["version"], before["version"]);
    assert_eq!(after["position"], before["position"]);
    assert_eq!(after["history"], before["history"]);
    assert_eq!(after["to_move"], "n");
    // No event was sent to the game's sockets either (a `crowd` may come: not versioned).
    while let Some(heard) = south.try_recv(std::time::Duration::from_millis(200)).await {
        assert_eq!(heard["t"], "crowd", "{heard}");
    }
    server.stop().await;
}

/// A finished position has nobody to move: `legal` gives its result and no starts, and the
/// engine is refused in words rather than answering a move (the analysis board once said
/// "Best move: B3 for North" at the end of a game).
#[tokio::test]
async fn a_finished_position_has_a_result_and_no_best_move() {
    let server = TestServer::start("sqlite::memory:").await;
    let (token, _) = server.session("Apio").await;
    // North has no pit of two seeds: South, who moved last, has won.
    let over = "1,0,0,0,0,0,0,0/0,0,0,0,0,0,0,1/4,4,4,4,4,4,4,4/4,4,4,4,4,4,3,3 n";
    let (status, legal) = server
        .post(
            "/api/analysis/legal",
            &token,
            json!({"ruleset":"omweso","position":over}),
        )
        .await;
    assert_eq!(status, 200, "{legal}");
    assert_eq!(
        legal,
        json!({"position":over,"to_move":"n","opening":[],"legal":{},
               "outcome":{"result":"win","winner":"s","victory":"no-move"}})
    );
    let (status, search) = server
        .post(
            "/api/analysis/search",
            &token,
            json!({"ruleset":"omweso","position":over,"millis":100}),
        )
        .await;
    assert_eq!(status, 409, "{search}");
    assert_eq!(
        search,
        json!({"error":{"code":"game_over","message":"the game is over in this position"}})
    );
    let (status, play) = server
        .post(
            "/api/analysis/play",
            &token,
            json!({"ruleset":"omweso","position":over,"move":"H3"}),
        )
        .await;
    assert_eq!(status, 409, "{play}");
    assert_eq!(play["error"]["code"], "game_over");
    server.stop().await;
}
