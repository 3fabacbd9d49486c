//! Every stored game as a game file (docs/game-file.md), on SQLite and PostgreSQL: real
//! games played through the server (Omweso from the outer row and from a free setup with
//! a stolen turn, Mweiso's opening, an Oware impasse, a resignation, an annulment by the
//! sowing budget and one at a decision point, a game still being played, a tournament's
//! game), then every game of the database made a record, written, parsed back identical,
//! replayed by the rules to the position and result the server stored; and the same texts
//! served by the exports, one game, a player's and a tournament's, OGN and NDJSON.

use omweso_gamefile::{parse_games, write_game, GameRecord, GameResult};
use omweso_server::archive::game_file::{record_of, Context, TournamentRound};
use omweso_server::store::Store;
use serde_json::{json, Value};

use crate::common::{Client, Remote, SeatedGame, TestServer};

const PASSWORD: &str = "seeds in the outer row at dusk";

/// Sends `message` and waits for its ack.
async fn act(client: &mut Client, id: &str, message: Value) {
    let answer = client.request(id, message).await;
    assert_eq!(answer["t"], "ack", "{answer}");
}

async fn mv(client: &mut Client, id: &str, notation: &str) {
    act(client, id, json!({"t":"move","d":{"move":notation}})).await;
}

/// Polls the game's snapshot until `done` holds.
async fn until(server: &Remote, token: &str, game: &str, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = tokio::time::Instant::now() + crate::common::PATIENCE;
    loop {
        let snap = server.snapshot(token, game).await;
        if done(&snap) {
            return snap;
        }
        assert!(tokio::time::Instant::now() < deadline, "{snap}");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

fn over(snap: &Value) -> bool {
    matches!(snap["status"].as_str(), Some("finished" | "annulled"))
}

/// What a game's record must say.
type Expect = Box<dyn Fn(&GameRecord)>;

/// The games, each with what its record must say.
struct Played {
    games: Vec<(String, Expect)>,
    /// Kato's account token after signing up (Kato was South in the first games).
    kato: String,
    tournament: (String, String),
}

async fn play_everything(server: &Remote) -> Played {
    let mut games: Vec<(String, Expect)> = Vec::new();

    // Omweso from the outer row: E1, D4, and South resigns.
    let g = SeatedGame::new(server, json!({"ruleset":"omweso"})).await;
    let [mut s, mut n] = g.sockets(server).await;
    mv(&mut s, "1", "E1").await;
    mv(&mut n, "2", "D4").await;
    act(&mut s, "3", json!({"t":"resign","d":{}})).await;
    let kato = g.south.clone();
    games.push((
        g.id.clone(),
        Box::new(|r| {
            assert_eq!(r.setup, None);
            let moves: Vec<&str> = r.moves.iter().map(|m| m.notation.as_str()).collect();
            assert_eq!(moves, ["E1", "D4"]);
            assert_eq!(r.result, GameResult::NorthWon);
            assert_eq!(r.termination.map(|t| t.name()), Some("resigned"));
            assert_eq!(r.tag("South"), Some("Kato"));
            assert!(r.moves.iter().all(|m| m.emt_ms.is_some()));
        }),
    ));

    // Omweso from a free setup under a short referee count, akakyala on: South does not
    // start, North steals the first turn with G4, South plays E1, North resigns.
    let g = SeatedGame::new(
        server,
        json!({"ruleset":"omweso","setup":"free",
               "time_control":{"preset":"tournament","referee_seconds":0.3}}),
    )
    .await;
    let [mut s, mut n] = g.sockets(server).await;
    let south_pits = [3, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2];
    act(&mut s, "a", json!({"t":"arrange","d":{"pits":south_pits}})).await;
    let north_pits = [2; 16];
    act(&mut n, "b", json!({"t":"arrange","d":{"pits":north_pits}})).await;
    n.recv_type("steal").await;
    mv(&mut n, "1", "G4").await;
    mv(&mut s, "2", "E1").await;
    act(&mut n, "3", json!({"t":"resign","d":{}})).await;
    games.push((
        g.id.clone(),
        Box::new(|r| {
            assert!(r.akakyala);
            assert_eq!(
                r.setup.as_deref(),
                Some("2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/3,1,2,2,2,2,2,2 s")
            );
            assert!(r.moves[0].stolen && !r.moves[1].stolen, "{r:?}");
            assert_eq!(r.result, GameResult::SouthWon);
            assert!(write_game(r).contains("1. G4^ "), "{}", write_game(r));
        }),
    ));

    // Mweiso: the two opening turns as the server applied them (South's C1, North's
    // H4), then South's first main-phase turn; North resigns.
    let g = SeatedGame::new(server, json!({"ruleset":"mweiso"})).await;
    server.play_mweiso_opening(&g.id, &g.south, &g.north).await;
    let [mut s, mut n] = g.sockets(server).await;
    let snap = server.snapshot(&g.south, &g.id).await;
    assert_eq!(snap["to_move"], "s", "{snap}");
    assert!(
        snap["legal_moves"]
            .as_array()
            .unwrap()
            .contains(&json!("B1")),
        "{snap}"
    );
    mv(&mut s, "1", "B1").await;
    act(&mut n, "2", json!({"t":"resign","d":{}})).await;
    games.push((
        g.id.clone(),
        Box::new(|r| {
            let moves: Vec<&str> = r.moves.iter().map(|m| m.notation.as_str()).collect();
            assert_eq!(moves, ["C1", "H4", "B1"]);
            assert_eq!(r.setup, None);
        }),
    ));

    // Oware: South plays C1, North proposes to stop, South accepts: 23 seeds on South's
    // side and 25 on North's split 24 each (North keeps the odd one: 24 and 24), a draw.
    let g = SeatedGame::new(server, json!({"ruleset":"oware"})).await;
    let [mut s, mut n] = g.sockets(server).await;
    mv(&mut s, "1", "C1").await;
    act(&mut n, "2", json!({"t":"impasse","d":{}})).await;
    act(
        &mut s,
        "3",
        json!({"t":"impasse_answer","d":{"accept":true}}),
    )
    .await;
    games.push((
        g.id.clone(),
        Box::new(|r| {
            let impasse = r.impasse.expect("an impasse");
            assert_eq!(impasse.split, [24, 24]);
            assert_eq!(r.result, GameResult::Draw);
            assert_eq!(r.termination.map(|t| t.name()), Some("impasse"));
        }),
    ));

    // Annulled by the sowing budget: half a second at 4 seeds a second is 2 seeds, and
    // E1 has 4 in hand.
    let g = SeatedGame::new(
        server,
        json!({"ruleset":"omweso","time_control":{"move_limit_seconds":0.5}}),
    )
    .await;
    let [mut s, _n] = g.sockets(server).await;
    mv(&mut s, "1", "E1").await;
    games.push((
        g.id.clone(),
        Box::new(|r| {
            assert_eq!(r.moves.len(), 1);
            assert_eq!(r.moves[0].budget, Some(2));
            assert_eq!(r.result, GameResult::Annulled);
            assert_eq!(r.termination.map(|t| t.name()), Some("budget"));
        }),
    ));

    // Annulled at a decision point: from `even`, South's A1' waits for `a` or `c`, and
    // the move limit of a second runs out; the unfinished turn is no move of the file.
    let g = SeatedGame::new(
        server,
        json!({"ruleset":"omweso","setup":"even","time_control":{"move_limit_seconds":1.0}}),
    )
    .await;
    let [mut s, _n] = g.sockets(server).await;
    s.send(json!({"t":"move","d":{"move":"A1'"},"id":"1"}))
        .await;
    s.recv_type("end").await;
    games.push((
        g.id.clone(),
        Box::new(|r| {
            assert!(r.moves.is_empty());
            assert_eq!(
                r.setup.as_deref(),
                Some("2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 s")
            );
            assert_eq!(r.result, GameResult::Annulled);
            assert_eq!(r.termination.map(|t| t.name()), Some("budget"));
        }),
    ));

    // Still being played: Oware, one move.
    let g = SeatedGame::new(server, json!({"ruleset":"oware"})).await;
    let [mut s, _n] = g.sockets(server).await;
    mv(&mut s, "1", "C1").await;
    games.push((
        g.id.clone(),
        Box::new(|r| {
            assert_eq!(r.result, GameResult::Unfinished);
            assert_eq!(r.termination, None);
        }),
    ));

    // A tournament's game: one round, Kato's opponent resigns at once.
    let (director, _) = server.session("TD").await;
    let (status, created) = server
        .post(
            "/api/tournaments",
            &director,
            json!({"name":"Club \"night\"","rounds":1,"ruleset":"oware"}),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    let tid = created["tournament_id"].as_str().unwrap().to_owned();
    let mut tokens = std::collections::HashMap::new();
    for name in ["Apio", "Okello"] {
        let (token, player) = server.join_tournament(&tid, name).await;
        tokens.insert(player, token);
    }
    let round = server.pair_and_start(&director, &tid, 1).await;
    let pairing = &round["pairings"][0];
    let game = pairing["game_id"].as_str().unwrap().to_owned();
    let first = tokens[pairing["first"].as_str().unwrap()].clone();
    let mut f = server.socket(&game, Some(&first), None).await;
    act(&mut f, "r", json!({"t":"resign","d":{}})).await;
    games.push((
        game.clone(),
        Box::new(|r| {
            assert_eq!(r.tag("Event"), Some("Club \"night\""));
            assert_eq!(r.tag("Round"), Some("1"));
            assert_eq!(r.tag("Board"), Some("1"));
            assert!(r.tag("Tournament").is_some());
        }),
    ));

    for (i, (id, _)) in games.iter().enumerate() {
        // The seventh game (index 6) is still being played.
        if i != 6 {
            until(server, &kato, id, over).await;
        }
    }
    // Kato makes an account, for the player's export.
    let (status, account) = server
        .post(
            "/api/account",
            &kato,
            json!({"username":"kato","password":PASSWORD}),
        )
        .await;
    assert_eq!(status, 201, "{account}");
    let kato = account["token"].as_str().unwrap().to_owned();
    Played {
        games,
        kato,
        tournament: (tid, director),
    }
}

async fn every_stored_game_round_trips(url: &str) {
    let server = TestServer::start(url).await;
    let played = play_everything(&server).await;
    let site = server
        .url("")
        .trim_start_matches("http:")
        .trim_end_matches('/')
        .to_owned();
    let store = Store::open(url).await.unwrap();
    let context = Context {
        site: Some(site),
        tournament: None,
    };
    for (id, expect) in &played.games {
        let uuid: uuid::Uuid = id.parse().unwrap();
        let row = store.game(uuid).await.unwrap().expect("stored");
        let actions = store.actions(uuid).await.unwrap();
        let config: omweso_protocol::config::GameConfig =
            serde_json::from_str(&row.config_json).unwrap();
        // The tournament's name and the game's round and table come from the tournament.
        let context = Context {
            tournament: config.tournament.map(|_| TournamentRound {
                name: "Club \"night\"".to_owned(),
                round: 1,
                board: 1,
            }),
            ..context.clone()
        };
        let record = record_of(&row, &actions, &context).unwrap_or_else(|e| panic!("{e}"));
        let text = write_game(&record);
        let parsed = parse_games(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(parsed, vec![record.clone()], "{text}");
        // The moves replay, by the rules alone, to the position and result stored.
        let replay = record.replay().unwrap_or_else(|e| panic!("{e}\n{text}"));
        let snap = server.snapshot(&played.kato, id).await;
        let history = snap["history"].as_array().unwrap();
        assert_eq!(history.len(), record.moves.len(), "{text}");
        if let Some(last) = history.last() {
            assert_eq!(
                last["position"],
                replay.positions.last().unwrap().to_string()
            );
        }
        if snap["impasse"].is_object() {
            assert_eq!(snap["position"], replay.end.to_string());
        }
        let outcome = serde_json::to_value(replay.outcome).unwrap();
        assert_eq!(snap["outcome"], outcome, "{text}");
        // The export serves the same text (the tournament game with its round).
        let (status, served) = server
            .get_text(&format!("/api/games/{id}/export?format=ogn"), &played.kato)
            .await;
        assert_eq!(status, 200, "{served}");
        let served = parse_games(&served).unwrap().remove(0);
        assert_eq!(served, record);
        expect(&served);
        let (status, line) = server
            .get_text(
                &format!("/api/games/{id}/export?format=ndjson"),
                &played.kato,
            )
            .await;
        assert_eq!(status, 200);
        assert_eq!(line, format!("{}\n", served.to_ndjson()));
    }
    // Kato's finished games: the account is the first game's South (each other game
    // seats new sessions).
    let (status, text) = server
        .get_text("/api/players/kato/games/export?format=ogn", &played.kato)
        .await;
    assert_eq!(status, 200, "{text}");
    let ids: Vec<String> = parse_games(&text)
        .unwrap()
        .iter()
        .map(|r| r.tag("GameId").unwrap().to_owned())
        .collect();
    let want = vec![played.games[0].0.clone()];
    assert_eq!(ids, want);
    let (status, lines) = server
        .get_text("/api/players/kato/games/export?format=ndjson", &played.kato)
        .await;
    assert_eq!(status, 200);
    assert_eq!(lines.lines().count(), want.len());
    // The tournament's games.
    let (tid, director) = &played.tournament;
    let (status, text) = server
        .get_text(&format!("/api/tournaments/{tid}/games.ogn"), director)
        .await;
    assert_eq!(status, 200, "{text}");
    let games = parse_games(&text).unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].tag("Event"), Some("Club \"night\""));
    let (status, lines) = server
        .get_text(&format!("/api/tournaments/{tid}/games.ndjson"), director)
        .await;
    assert_eq!(status, 200);
    let line: Value = serde_json::from_str(lines.trim_end()).unwrap();
    assert_eq!(line["variant"], "oware");
    assert_eq!(line["status"], "resign");
    // Refusals say what is wrong.
    let (status, body) = server
        .get(
            &format!("/api/games/{}/export?format=pgn", played.games[0].0),
            &played.kato,
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert!(body["error"]["message"]
        .as_str()
        .unwrap()
        .contains("format=ogn"));
    let (status, _) = server
        .get("/api/players/nobody/games/export", &played.kato)
        .await;
    assert_eq!(status, 404);
    store.close().await;
    server.stop().await;
}

#[tokio::test]
async fn every_stored_game_round_trips_on_sqlite() {
    let path = std::env::temp_dir().join(format!("omweso-files-{}.db", uuid::Uuid::new_v4()));
    every_stored_game_round_trips(&format!("sqlite://{}", path.display())).await;
    let _ = std::fs::remove_file(&path);
}

#[tokio::test]
async fn every_stored_game_round_trips_on_postgres() {
    let Some(database) = crate::common::FreshPostgres::create("omweso_files").await else {
        return;
    };
    every_stored_game_round_trips(&database.url).await;
    database.drop_database().await;
}

/// `POST /api/analysis/read-game` (docs/protocol.md): a file's games replayed, a file
/// larger than the other routes' 64 KiB read, one over 256 KiB refused, a bad one refused
/// saying where.
#[tokio::test]
async fn the_analysis_board_reads_a_game_file() {
    let server = TestServer::start("sqlite::memory:").await;
    let (token, _) = server.session("Apio").await;
    let text = "[Ruleset \"omweso\"]\n[Result \"*\"]\n\n1. E1 2. D4 *\n";
    let (status, answer) = server
        .post("/api/analysis/read-game", &token, json!({ "text": text }))
        .await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(
        answer["games"][0]["positions"],
        json!([
            "4,4,4,4,4,4,4,4/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,1/4,4,4,4,0,5,5,5 n",
            "5,5,5,0,4,4,4,4/1,0,0,0,0,0,0,0/0,0,0,0,0,0,0,1/4,4,4,4,0,5,5,5 s"
        ])
    );
    // A long comment: 100 KiB, more than the 64 KiB of the other routes.
    let long = format!(
        "[Ruleset \"omweso\"]\n[Result \"*\"]\n\n1. E1 {{{}}} *\n",
        "a".repeat(100 * 1024)
    );
    let (status, answer) = server
        .post("/api/analysis/read-game", &token, json!({ "text": long }))
        .await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(
        answer["games"][0]["record"]["moves"][0]["comment"]
            .as_str()
            .map(str::len),
        Some(100 * 1024)
    );
    let too_long = "a".repeat(300 * 1024);
    let (status, _) = server
        .post(
            "/api/analysis/read-game",
            &token,
            json!({ "text": too_long }),
        )
        .await;
    assert_eq!(status, 413);
    let (status, answer) = server
        .post(
            "/api/analysis/read-game",
            &token,
            json!({ "text": "1. E1 *" }),
        )
        .await;
    assert_eq!(status, 400);
    assert_eq!(
        answer["error"]["message"],
        "the game file, line 1, column 1: expected a tag pair such as [Ruleset \"omweso\"] to begin a game, found '1'"
    );
    let (status, answer) = server
        .post("/api/analysis/read-game", &token, json!({ "text": "  " }))
        .await;
    assert_eq!(status, 400);
    assert_eq!(answer["error"]["message"], "the game file holds no game");
    server.stop().await;
}
