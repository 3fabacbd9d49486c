//! A restart in the middle of a game loses nothing: SQLite file always, PostgreSQL when
//! `TEST_POSTGRES_URL` is set (a fresh database is created for the run).

use crate::common::TestServer;
use serde_json::json;

async fn restart_keeps_the_game(database_url: &str) {
    let server = TestServer::start(database_url).await;
    let (kato, _) = server.session("Kato").await;
    let (nakato, _) = server.session("Nakato").await;
    let game = server.create(&kato, json!({"ruleset":"mweiso"})).await;
    server.join(&nakato, &game).await;
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
    let path = std::env::temp_dir().join(format!("omweso-restart-{}.db", uuid::Uuid::new_v4()));
    let url = format!("sqlite://{}", path.display());
    restart_keeps_the_game(&url).await;
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
}

#[tokio::test]
async fn a_restart_loses_nothing_with_postgres() {
    let Some(database) = crate::common::FreshPostgres::create("omweso_restart").await else {
        eprintln!("TEST_POSTGRES_URL is not set: skipping the PostgreSQL restart test");
        return;
    };
    restart_keeps_the_game(&database.url).await;
    database.drop_database().await;
}
