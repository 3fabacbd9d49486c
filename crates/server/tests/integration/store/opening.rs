//! Opening a store: migrations from a newer server, corrupt rows, memory databases, bad URLs, the ping; the latency report.

use omweso_server::store::{ActionRow, Store, StoreError, Writer, MAX_BATCH};
use std::time::{Duration, Instant};
use uuid::Uuid;

use super::*;

#[tokio::test]
async fn a_database_migrated_by_a_newer_server_is_refused() {
    for_each_db(PERSISTENT, |db| async move {
        let store = db.open().await;
        let g = game("playing", 1);
        store.insert_game(&g).await.unwrap();
        store.close().await;
        // Opening again is fine: the migrations are already applied.
        db.open().await.close().await;

        db.raw(
            "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time) \
             VALUES (99999, 'from the future', TRUE, X'00', 0)",
            "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time) \
             VALUES (99999, 'from the future', TRUE, '\\x00'::bytea, 0)",
        )
        .await;
        match Store::open(&db.url).await {
            Err(StoreError::TooNew { found, known }) => {
                assert_eq!(found, 99999);
                assert!((1..99999).contains(&known));
                let message = StoreError::TooNew { found, known }.to_string();
                assert_eq!(
                    message,
                    format!(
                        "the database schema is at version 99999, newer than this server \
                         understands ({known}); upgrade the server"
                    )
                );
            }
            Err(e) => panic!("expected TooNew, got {e}"),
            Ok(_) => panic!("expected TooNew, the store opened"),
        }
        // Nothing was touched.
        db.raw(
            "DELETE FROM _sqlx_migrations WHERE version = 99999",
            "DELETE FROM _sqlx_migrations WHERE version = 99999",
        )
        .await;
        let store = db.open().await;
        assert_eq!(store.game(g.id).await.unwrap(), Some(g));
        store.close().await;
    })
    .await;
}

#[tokio::test]
async fn undecodable_rows_are_reported_as_corrupt_naming_the_column() {
    for_each_db(PERSISTENT, |db| async move {
        let store = db.open().await;
        let insert = "INSERT INTO games (id, ruleset, setup, config_json, south, north, creator, \
                      status, outcome_json, created_at_ms, updated_at_ms) VALUES \
                      ('not-a-uuid', 'omweso', 'outer', '{}', NULL, NULL, \
                      '8d0f3b8e-1c51-4c36-9f8e-3f8c2a9d2b10', 'playing', NULL, 1, 1)";
        db.raw(insert, insert).await;
        match store.unfinished_games().await {
            Err(StoreError::Corrupt(message)) => {
                assert!(message.contains("games.id"), "{message}")
            }
            other => panic!("expected Corrupt, got {other:?}"),
        }
        if db.kind == Kind::SqliteFile {
            // SQLite lets a wrongly typed value in; it is caught when read.
            let id = Uuid::new_v4();
            db.raw(
                &format!(
                    "INSERT INTO games (id, ruleset, setup, config_json, creator, status, \
                     created_at_ms, updated_at_ms) VALUES ('{id}', 'omweso', 'outer', '{{}}', \
                     '{id}', 'finished', 'yesterday', 1)"
                ),
                "",
            )
            .await;
            match store.game(id).await {
                Err(StoreError::Corrupt(message)) => {
                    assert!(message.contains("games.created_at_ms"), "{message}")
                }
                other => panic!("expected Corrupt, got {other:?}"),
            }
        }
        store.close().await;
    })
    .await;
}

#[tokio::test]
async fn in_memory_sqlite_works_and_each_is_its_own() {
    let a = Store::open("sqlite::memory:").await.unwrap();
    let b = Store::open("sqlite::memory:").await.unwrap();
    assert_eq!(a.backend(), "sqlite");
    let g = game("playing", 1);
    a.insert_game(&g).await.unwrap();
    // Many operations, some concurrent, all see the same database.
    let mut tasks = Vec::new();
    for seq in 0..20 {
        let a = a.clone();
        let id = g.id;
        tasks.push(tokio::spawn(async move {
            a.append_actions(&[action(id, seq)]).await
        }));
    }
    for t in tasks {
        t.await.unwrap().unwrap();
    }
    assert_eq!(a.actions(g.id).await.unwrap().len(), 20);
    assert_eq!(a.unfinished_games().await.unwrap(), vec![g.clone()]);
    assert_eq!(b.game(g.id).await.unwrap(), None);
    assert!(b.unfinished_games().await.unwrap().is_empty());
    a.close().await;
    b.close().await;
}

#[tokio::test]
async fn bad_urls_are_refused() {
    for url in [
        "mysql://root:secret@localhost/omweso",
        "omweso.db",
        "",
        "sqlite:",
    ] {
        match Store::open(url).await {
            Err(StoreError::BadUrl(message)) => assert!(!message.contains("secret"), "{message}"),
            Err(e) => panic!("{url:?}: expected BadUrl, got {e}"),
            Ok(_) => panic!("{url:?}: expected BadUrl, the store opened"),
        }
    }
}

#[tokio::test]
async fn ping_and_backend() {
    for_each_db(ALL, |db| async move {
        let store = db.open().await;
        let expected = match db.kind {
            Kind::Postgres => "postgres",
            _ => "sqlite",
        };
        assert_eq!(store.backend(), expected);
        let latency = store.ping().await.unwrap();
        assert!(latency < crate::common::PATIENCE, "{latency:?}");
        store.close().await;
    })
    .await;
}

/// Prints the latency of `append_actions` for a batch of 256 and of one append through the
/// `Writer` (run with `-- --ignored --nocapture`).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "a measurement, not a check; run with --ignored --nocapture"]
async fn latency_report() {
    fn median(mut samples: Vec<Duration>) -> Duration {
        samples.sort();
        samples[samples.len() / 2]
    }
    for_each_db(PERSISTENT, |db| async move {
        let store = db.open().await;
        let g = new_game(&store).await;
        let mut seq = 0;
        let mut batch_times = Vec::new();
        for _ in 0..30 {
            let batch: Vec<ActionRow> = (seq..seq + 256).map(|s| action(g, s)).collect();
            seq += 256;
            let start = Instant::now();
            store.append_actions(&batch).await.unwrap();
            batch_times.push(start.elapsed());
        }
        let (writer, task) = Writer::spawn(store.clone(), 2 * MAX_BATCH);
        let mut single_times = Vec::new();
        for _ in 0..200 {
            let start = Instant::now();
            writer.append(action(g, seq)).await.unwrap();
            seq += 1;
            single_times.push(start.elapsed());
        }
        // Throughput with 50 concurrent appenders (group commit at work).
        let start = Instant::now();
        let mut appenders = Vec::new();
        for t in 0..50 {
            let writer = writer.clone();
            let first = seq + t * 100;
            appenders.push(tokio::spawn(async move {
                for s in first..first + 100 {
                    writer.append(action(g, s)).await.unwrap();
                }
            }));
        }
        for a in appenders {
            a.await.unwrap();
        }
        let concurrent = start.elapsed();
        writer.shutdown().await;
        task.await.unwrap();
        println!(
            "{:?}: append_actions(256) median {:?}; one Writer::append median {:?}; \
             50 tasks x 100 appends: {:?} ({:.0} actions/s)",
            db.kind,
            median(batch_times),
            median(single_times),
            concurrent,
            5000.0 / concurrent.as_secs_f64()
        );
        store.close().await;
    })
    .await;
}
