//! A restart in the middle of a game loses nothing: SQLite file always, PostgreSQL when
//! `TEST_POSTGRES_URL` is set (a fresh database is created for the run). A finished game
//! that left memory, or outlived a restart, reads as it ended.

use crate::common::{SeatedGame, TestServer};
use serde_json::{json, Value};

async fn restart_keeps_the_game(database_url: &str) {
    let server = TestServer::start(database_url).await;
    let SeatedGame {
        id: game,
        south: kato,
        north: nakato,
        ..
    } = SeatedGame::new(&server, json!({"ruleset":"mweiso"})).await;
    server.play_mweiso_opening(&game, &kato, &nakato).await;
    let mut south = server.socket(&game, Some(&kato), None).await;
    south
        .send(json!({"t":"move","d":{"move":"A1'"},"id":"1"}))
        .await;
    assert_eq!(south.recv_type("ack").await["d"]["id"], "1");
    let before = server.snapshot(&kato, &game).await;
    assert_eq!(before["pending"], json!(["a", "c", "l"]));
    server.stop().await;

    let server = TestServer::start(database_url).await;
    // The session survives too.
    let after = server.snapshot(&kato, &game).await;
    assert_eq!(after["position"], before["position"]);
    assert_eq!(after["pending"], before["pending"]);
    assert_eq!(after["pending_move"], "A1'");
    assert_eq!(after["version"], before["version"]);
    assert_eq!(after["you"], "s");
    // The turn goes on where it stopped.
    let mut south = server.socket(&game, Some(&kato), None).await;
    south
        .send(json!({"t":"decide","d":{"choice":"a"},"id":"2"}))
        .await;
    let answer = south.recv_type("ack").await;
    assert_eq!(answer["d"]["id"], "2");
    let snap = server.snapshot(&kato, &game).await;
    assert_eq!(snap["history"][2]["move"], "A1'/a");
    assert_eq!(snap["to_move"], "n");
    server.stop().await;
}

#[tokio::test]
async fn a_restart_loses_nothing_with_sqlite() {
    crate::common::on_sqlite_file(async |url| restart_keeps_the_game(&url).await).await;
}

#[tokio::test]
async fn a_restart_loses_nothing_with_postgres() {
    crate::common::on_postgres("omweso_restart", async |url| {
        restart_keeps_the_game(&url).await
    })
    .await;
}

/// A snapshot as read from the store once its game left memory: nobody at the table, no
/// spectators (what the game's final snapshot is saved with).
fn with_nobody_there(mut snapshot: Value) -> Value {
    for seat in ["s", "n"] {
        snapshot["seats"][seat]["connected"] = json!(false);
    }
    snapshot["spectators"] = json!(0);
    snapshot
}

/// A finished game read once it left memory (`GET /api/games/{id}` answers from the final
/// snapshot stored with its end), then again after a restart: exactly the game as it
/// ended, with `you` the reader's seat.
#[tokio::test]
async fn a_finished_game_that_left_memory_reads_exactly_as_it_ended() {
    let path = std::env::temp_dir().join(format!("omweso-finished-{}.db", uuid::Uuid::new_v4()));
    let url = format!("sqlite://{}", path.display());
    let server = TestServer::start(&url).await;
    let game = SeatedGame::new(&server, json!({"ruleset": "oware"})).await;
    let [mut south, mut north] = game.sockets(&server).await;
    for (socket, mv, id) in [(&mut south, "C1", "s1"), (&mut north, "C2", "n1")] {
        socket
            .expect_ack_of(id, json!({"t": "move", "d": {"move": mv}}))
            .await;
    }
    south
        .expect_ack_of("r", json!({"t": "resign", "d": {}}))
        .await;
    let ended = server.snapshot(&game.north, &game.id).await;
    assert_eq!(ended["status"], "finished", "{ended}");
    assert_eq!(
        ended["outcome"],
        json!({"result": "win", "winner": "n", "victory": "resigned"})
    );
    assert_eq!(ended["version"], 5, "{ended}");
    assert_eq!(ended["you"], "n");
    drop((south, north));
    // Watched by nobody, it leaves memory.
    server.until_no_game_is_loaded().await;
    let expected = with_nobody_there(ended);
    let read = server.snapshot(&game.north, &game.id).await;
    assert_eq!(read, expected);
    assert_eq!(
        server.metric("omweso_games_live").await,
        0.0,
        "read, not loaded"
    );
    server.stop().await;

    let server = TestServer::start(&url).await;
    assert_eq!(server.snapshot(&game.north, &game.id).await, expected);
    let mut as_south = expected.clone();
    as_south["you"] = json!("s");
    assert_eq!(server.snapshot(&game.south, &game.id).await, as_south);
    let (outsider, _) = server.session("Okello").await;
    let mut as_nobody = expected;
    as_nobody["you"] = Value::Null;
    assert_eq!(server.snapshot(&outsider, &game.id).await, as_nobody);
    server.stop().await;
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
}
