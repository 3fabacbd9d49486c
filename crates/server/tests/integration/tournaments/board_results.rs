//! The results a board table's sheet may say, against the real server
//! (docs/rules.md#15-end-of-the-game, 3, 5.3 and 5.7): Omweso has no draws in play, so a
//! player's "draw" is refused and only the director's adjudication on the seeds is one, as
//! entered and as corrected; Oware is drawn 24-24 by its players. An adjudication of Omweso
//! is decided on the seeds on each side of the board, and the sheet keeps those. A director
//! initials for a player without a device, and the record says whose hand it was.

use crate::common::{Remote, TestServer};
use serde_json::{json, Value};

use super::*;

fn enter(winner: Option<&str>, victory: Option<&str>, seeds: [u64; 2]) -> Value {
    json!({"action":"enter","winner":winner,"victory":victory,
           "seeds":{"first":seeds[0],"second":seeds[1]}})
}

/// A tournament of `ruleset` played over the board, two players joined, round 1 started:
/// the event, the table's first and second player, and its sheet's id.
async fn one_board_table<'a>(
    server: &'a Remote,
    ruleset: &str,
) -> (Event<'a>, String, String, String) {
    let mut event = Event::create(
        server,
        json!({"name":"Hall","ruleset":ruleset,"rounds":1,"played_at":"board"}),
    )
    .await;
    event.join("Kato").await;
    event.join("Nakato").await;
    event.pair().await;
    let r1 = event.start(1).await;
    let (first, second) = pairings(&r1).remove(0);
    let game = game_of(&r1, 1);
    (event, first, second.unwrap(), game)
}

async fn board(event: &Event<'_>, token: &str, body: Value) -> (u16, Value) {
    event
        .server
        .post(&event.path("/tables/1/1/sheet"), token, body)
        .await
}

fn refused(answer: &(u16, Value)) -> (u16, &str, &str) {
    let (status, body) = answer;
    (
        *status,
        body["error"]["code"].as_str().unwrap_or(""),
        body["error"]["message"].as_str().unwrap_or(""),
    )
}

#[tokio::test]
async fn an_omweso_board_table_takes_no_draw_but_the_directors_adjudication() {
    let server = TestServer::start("sqlite::memory:").await;
    let (event, first, _second, game) = one_board_table(&server, "omweso").await;

    // A player's draw: Omweso has none.
    let answer = board(&event, &event.tokens[&first], enter(None, None, [20, 20])).await;
    assert_eq!(
        refused(&answer),
        (
            400,
            "bad_request",
            "a game of Omweso has no draws: say who won and how (only the director adjudicates a draw, on equal seeds on each side, when the round's time is up)"
        ),
        "{}",
        answer.1
    );
    // The director's draw "played out": none either.
    let answer = board(&event, &event.director, enter(None, None, [20, 20])).await;
    assert_eq!(
        refused(&answer),
        (
            400,
            "bad_request",
            "a game of Omweso has no draws in play: say who won, or adjudicate it (victory \"adjudicated\"): a draw on equal seeds on each side when the round's time is up"
        ),
        "{}",
        answer.1
    );
    let snap = event.snapshot().await;
    assert_eq!(
        snap["rounds"][0]["pairings"][0]["board"]["entries"],
        json!([]),
        "nothing entered"
    );

    // The director's adjudication: a draw on the seeds on each side of the board (32 each).
    let mut adjudicated = enter(None, Some("adjudicated"), [0, 0]);
    adjudicated["seeds_on_board"] = json!({"first":32,"second":32});
    let (status, r) = board(&event, &event.director, adjudicated).await;
    assert_eq!(status, 200, "{r}");
    let sheet = &r["pairings"][0]["sheet"];
    assert_eq!(
        (
            sheet["first_result"].as_str(),
            sheet["second_result"].as_str()
        ),
        (Some("adjudicated-drawn"), Some("adjudicated-drawn")),
        "{sheet}"
    );

    // Corrections: a win; then a draw, refused unless it is an adjudication.
    let correct = |result: Value, adjudicated: Option<bool>| {
        let mut body = json!({"action":"correct","result":result,"reason":"recounted"});
        if let Some(adjudicated) = adjudicated {
            body["adjudicated"] = json!(adjudicated);
        }
        body
    };
    let win = json!({"result":"win","winner":"s","victory":"no-move"});
    let (status, r) = event
        .sheet(&game, &event.director, correct(win.clone(), None))
        .await;
    assert_eq!(
        (status, r["first_result"].as_str()),
        (200, Some("won")),
        "{r}"
    );
    for adjudicated in [None, Some(false)] {
        let answer = event
            .sheet(
                &game,
                &event.director,
                correct(json!({"result":"draw"}), adjudicated),
            )
            .await;
        assert_eq!(
            refused(&answer),
            (
                400,
                "bad_request",
                "a game of Omweso has no draws: a draw is only the director's adjudication, on equal seeds on each side (\"adjudicated\": true)"
            ),
            "{}",
            answer.1
        );
    }
    let answer = event
        .sheet(&game, &event.director, correct(win, Some(true)))
        .await;
    assert_eq!(
        refused(&answer),
        (
            400,
            "bad_request",
            "\"adjudicated\" marks a draw decided on the seeds; a win on adjudication is the victory \"adjudicated\""
        ),
        "{}",
        answer.1
    );
    let (status, r) = event
        .sheet(
            &game,
            &event.director,
            correct(json!({"result":"draw"}), Some(true)),
        )
        .await;
    assert_eq!(status, 200, "{r}");
    assert_eq!(r["first_result"], "adjudicated-drawn", "{r}");
    assert_eq!(
        r["corrections"][1]["after"]["first_result"],
        "adjudicated-drawn"
    );
    // The adjudicated draw it has, upheld without saying so again: it stays one.
    let (status, r) = event
        .sheet(
            &game,
            &event.director,
            correct(json!({"result":"draw"}), None),
        )
        .await;
    assert_eq!(
        (status, r["first_result"].as_str()),
        (200, Some("adjudicated-drawn")),
        "{r}"
    );
    assert_eq!(r["points"], json!({"first":0.5,"second":0.5}));
    server.stop().await;
}

#[tokio::test]
async fn an_oware_board_table_is_drawn_by_its_players() {
    let server = TestServer::start("sqlite::memory:").await;
    let (event, first, second, _) = one_board_table(&server, "oware").await;
    let (status, r) = board(&event, &event.tokens[&first], enter(None, None, [24, 24])).await;
    assert_eq!(status, 200, "{r}");
    let (status, r) = board(&event, &event.tokens[&second], json!({"action":"confirm"})).await;
    assert_eq!(status, 200, "{r}");
    let sheet = &r["pairings"][0]["sheet"];
    assert_eq!(
        (sheet["first_result"].as_str(), &sheet["points"]),
        (Some("drawn"), &json!({"first":0.5,"second":0.5})),
        "{sheet}"
    );
    server.stop().await;
}

/// The cells of `sheets.csv` by column name, one map per sheet.
fn sheets_csv(csv: &str) -> Vec<std::collections::HashMap<String, String>> {
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let header: Vec<String> = reader
        .headers()
        .unwrap()
        .iter()
        .map(str::to_owned)
        .collect();
    reader
        .records()
        .map(|r| {
            header
                .iter()
                .cloned()
                .zip(r.unwrap().iter().map(str::to_owned))
                .collect()
        })
        .collect()
}

#[tokio::test]
async fn a_director_initials_for_a_player_without_a_device_and_the_sheets_say_so() {
    let server = TestServer::start("sqlite::memory:").await;
    let mut event = Event::create(
        &server,
        json!({"name":"Hall","rounds":1,"played_at":"board"}),
    )
    .await;
    let kato = event.join("Kato").await;
    let (status, okello) = server
        .post(
            &event.path("/players"),
            &event.director,
            json!({"name":"Okello"}),
        )
        .await;
    assert_eq!(status, 201, "{okello}");
    let okello = okello["player_id"].as_str().unwrap().to_owned();
    event.pair().await;
    let r1 = event.start(1).await;
    let (first, _) = pairings(&r1).remove(0);
    let for_okello = json!({"action":"confirm-for","player":okello});

    // Nothing to initial yet.
    let answer = board(&event, &event.director, for_okello.clone()).await;
    assert_eq!(
        refused(&answer),
        (
            409,
            "not_started",
            "nobody has entered this table's result yet: there is nothing to initial for Okello; enter it"
        ),
        "{}",
        answer.1
    );
    // Kato, who has a phone, enters: Kato won by emitwe-ebiri.
    let seeds = if first == kato { [40, 12] } else { [12, 40] };
    let (status, r) = board(
        &event,
        &event.tokens[&kato],
        enter(Some(&kato), Some("emitwe-ebiri"), seeds),
    )
    .await;
    assert_eq!(status, 200, "{r}");
    // Only a director initials for Okello, and only for a player without a device.
    let answer = board(&event, &event.tokens[&kato], for_okello.clone()).await;
    assert_eq!(
        refused(&answer),
        (
            403,
            "not_director",
            "only the director or a co-director initials for a player without a device"
        ),
        "{}",
        answer.1
    );
    let answer = board(
        &event,
        &event.director,
        json!({"action":"confirm-for","player":kato}),
    )
    .await;
    assert_eq!(
        refused(&answer),
        (
            400,
            "bad_request",
            "Kato joined with a device of their own: they initial it there (or enter the result: it makes the sheet)"
        ),
        "{}",
        answer.1
    );
    let nobody = "01a20815-caac-71f6-b680-6b1c4d9ae27c";
    let answer = board(
        &event,
        &event.director,
        json!({"action":"confirm-for","player":nobody}),
    )
    .await;
    assert_eq!(
        refused(&answer),
        (
            409,
            "not_in_tournament",
            "01a20815-caac-71f6-b680-6b1c4d9ae27c is not one of this table's two players"
        ),
        "{}",
        answer.1
    );

    // The director initials for Okello: Kato's entry makes the sheet, as Okello's initials
    // would have, and the entry keeps whose hand they were in.
    let (status, r) = board(&event, &event.director, for_okello.clone()).await;
    assert_eq!(status, 200, "{r}");
    let table = &r["pairings"][0];
    let sheet = &table["sheet"];
    assert_eq!(sheet["status"], "confirmed", "{sheet}");
    assert_eq!(sheet["victory"], "emitwe-ebiri");
    let director_id = event.snapshot().await["director"].clone();
    assert_eq!(
        table["board"]["entries"][0]["confirmed_for"],
        json!([{"player": okello, "by": director_id, "by_name": "TD"}])
    );
    // Once is enough.
    let answer = board(&event, &event.director, for_okello).await;
    assert_eq!(refused(&answer).0, 409, "{}", answer.1);

    // The record: who entered, who initialled and in whose hand; the directors' actions.
    let (status, csv) = server
        .get_text(&event.path("/sheets.csv"), &event.director)
        .await;
    assert_eq!(status, 200);
    let rows = sheets_csv(&csv);
    assert_eq!(
        rows[0]["entered"], "entered by Kato; initialled by the director TD for Okello",
        "{csv}"
    );
    let (status, r) = server.get(&event.path("/actions"), &event.director).await;
    assert_eq!(status, 200, "{r}");
    let summaries: Vec<&str> = r["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["summary"].as_str().unwrap())
        .collect();
    assert!(
        summaries.contains(&"initialled the sheet of round 1, table 1 for Okello"),
        "{summaries:?}"
    );
    server.stop().await;
}

#[tokio::test]
async fn an_omweso_adjudication_at_the_board_is_on_the_seeds_on_each_side_and_kept_as_such() {
    let server = TestServer::start("sqlite::memory:").await;
    let (event, first, second, _) = one_board_table(&server, "omweso").await;
    let adjudicate = |winner: Option<&str>, on_board: Option<[u64; 2]>| {
        let mut body = enter(winner, Some("adjudicated"), [0, 0]);
        if let Some([a, b]) = on_board {
            body["seeds_on_board"] = json!({"first":a,"second":b});
        }
        body
    };
    let cases = [
        (
            adjudicate(Some(&second), None),
            "an adjudication of Omweso is decided on the seeds on each side of the board: give them (seeds_on_board)",
        ),
        (
            adjudicate(Some(&second), Some([30, 30])),
            "the seeds on each side add up to 60: a board of Omweso holds 64 (count them again)",
        ),
        (
            adjudicate(Some(&second), Some([34, 30])),
            "the seeds on each side say Kato has more (34 to 30): more wins, equal is a draw",
        ),
        (
            adjudicate(None, Some([34, 30])),
            "the seeds on each side are not equal (34 to 30): more wins, equal is a draw",
        ),
    ];
    for (body, message) in cases {
        let answer = board(&event, &event.director, body).await;
        assert_eq!(
            refused(&answer),
            (400, "bad_request", message),
            "{}",
            answer.1
        );
    }
    // A player's own result has no seeds on the board to give.
    let mut own = enter(Some(&first), Some("no-move"), [40, 12]);
    own["seeds_on_board"] = json!({"first":40,"second":24});
    let answer = board(&event, &event.tokens[&first], own).await;
    assert_eq!(
        refused(&answer),
        (
            400,
            "bad_request",
            "the seeds on each side of the board are an adjudication's, the director's: give the seeds captured"
        ),
        "{}",
        answer.1
    );

    let (status, r) = board(
        &event,
        &event.director,
        adjudicate(Some(&second), Some([24, 40])),
    )
    .await;
    assert_eq!(status, 200, "{r}");
    let sheet = &r["pairings"][0]["sheet"];
    assert_eq!(sheet["second_result"], "adjudicated-won", "{sheet}");
    assert_eq!(sheet["seeds_on_board"], json!({"first":24,"second":40}));
    assert_eq!(
        sheet["seeds"],
        json!({"first":0,"second":0}),
        "nobody counted the captures"
    );
    // The standings' seeds are captures: the board's seeds are not counted as such.
    let snap = event.snapshot().await;
    let seeds: Vec<u64> = snap["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["seeds"].as_u64().unwrap())
        .collect();
    assert_eq!(seeds, vec![0, 0]);
    let (_, csv) = server
        .get_text(&event.path("/sheets.csv"), &event.director)
        .await;
    let rows = sheets_csv(&csv);
    assert_eq!(
        (
            rows[0]["first_seeds_on_board"].as_str(),
            rows[0]["second_seeds_on_board"].as_str()
        ),
        ("24", "40"),
        "{csv}"
    );

    // Oware is adjudicated on the pieces taken: no seeds on the board.
    let (oware, o_first, _, _) = one_board_table(&server, "oware").await;
    let mut body = enter(Some(&o_first), Some("adjudicated"), [20, 10]);
    body["seeds_on_board"] = json!({"first":10,"second":8});
    let answer = board(&oware, &oware.director, body).await;
    assert_eq!(
        refused(&answer),
        (
            400,
            "bad_request",
            "Oware is adjudicated on the pieces taken: give them (seeds), not seeds_on_board"
        ),
        "{}",
        answer.1
    );
    server.stop().await;
}

/// Issue 41, finding 4: a director who played in their own rated board tournament entered
/// their own wins (Mweiso 1500 to 2032 in 5 rounds, no game played): a director's entry
/// made the sheet at once. Now a director who plays at the table enters it as its player,
/// for the other to initial; and a director does not correct their own game's sheet.
#[tokio::test]
async fn a_director_at_their_own_table_enters_it_as_a_player_and_corrects_it_not() {
    let server = TestServer::start("sqlite::memory:").await;
    let mut event = Event::create(
        &server,
        json!({"name":"Hall","ruleset":"mweiso","rounds":1,"played_at":"board"}),
    )
    .await;
    // The director joins their own tournament, against Kato.
    let (status, r) = server
        .post(&event.path("/join"), &event.director, json!({}))
        .await;
    assert_eq!(status, 200, "{r}");
    let director_id = r["player_id"].as_str().unwrap().to_owned();
    let kato = event.join("Kato").await;
    event.pair().await;
    let r1 = event.start(1).await;
    let (first, second) = pairings(&r1).remove(0);
    let second = second.unwrap();
    let game = game_of(&r1, 1);
    let mine = if first == director_id {
        &first
    } else {
        &second
    };
    let (status, round) = board(
        &event,
        &event.director,
        enter(Some(mine), Some("no-move"), [30, 4]),
    )
    .await;
    assert_eq!(status, 200, "{round}");
    // Entered, not made: it waits for Kato's initials.
    let table = &round["pairings"][0];
    assert!(table["sheet"].is_null(), "{table}");
    assert_eq!(
        table["board"]["entries"][0]["by"],
        director_id.as_str(),
        "{table}"
    );
    assert_eq!(
        table["board"]["entries"][0]["confirmed_by"],
        json!([director_id])
    );
    // Kato initials it: the sheet is made.
    let (status, answer) = board(&event, &event.tokens[&kato], json!({"action":"confirm"})).await;
    assert_eq!(status, 200, "{answer}");
    let snap = event
        .until("the sheet", |s| {
            !s["rounds"][0]["pairings"][0]["sheet"].is_null()
        })
        .await;
    let sheet = &snap["rounds"][0]["pairings"][0]["sheet"];
    let result = if mine == &first {
        "first_result"
    } else {
        "second_result"
    };
    assert_eq!(
        (&sheet[result], &sheet["victory"]),
        (&json!("won"), &json!("no-move")),
        "{sheet}"
    );
    // The director may not correct it: another director would.
    let answer = server
        .post(
            &event.path(&format!("/sheets/{game}")),
            &event.director,
            json!({"action":"correct","result":{"result":"win","winner":"s","victory":"emitwe-ebiri"},"reason":"a better win"}),
        )
        .await;
    assert_eq!(
        refused(&answer),
        (
            403,
            "not_your_game",
            "you played this game: another director corrects its sheet (name a co-director if there is none)"
        ),
        "{}",
        answer.1
    );
    server.stop().await;
}
