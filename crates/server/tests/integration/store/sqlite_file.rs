//! An SQLite file: reopened with everything, checkpointed under constant writes.

use omweso_server::store::{hash_token, ActionRow, Writer};
use sqlx::Connection;
use std::time::{Duration, Instant};

use super::*;

#[tokio::test]
async fn an_sqlite_file_keeps_everything_across_reopening() {
    for_each_db(&[Kind::SqliteFile], |db| async move {
        let store = db.open().await;
        assert_eq!(store.backend(), "sqlite");
        let (token, s) = session("Kato", 10);
        let g1 = game("playing", 20);
        let mut g2 = game("setup", 30);
        store.insert_session(&s).await.unwrap();
        store.insert_game(&g1).await.unwrap();
        store.insert_game(&g2).await.unwrap();
        g2.status = "finished".into();
        g2.outcome_json = Some("{}".into());
        store.update_game(&g2).await.unwrap();
        let log: Vec<ActionRow> = (0..50).map(|seq| action(g1.id, seq)).collect();
        store.append_actions(&log[..10]).await.unwrap();
        let (writer, task) = Writer::spawn(store.clone(), 16);
        for a in &log[10..] {
            writer.append(a.clone()).await.unwrap();
        }
        writer.shutdown().await;
        task.await.unwrap();
        store.close().await;

        // The WAL journal mode is stored in the file.
        let mut c = sqlx::SqliteConnection::connect(&db.url).await.unwrap();
        let mode: String = sqlx::query_scalar("PRAGMA journal_mode")
            .fetch_one(&mut c)
            .await
            .unwrap();
        assert_eq!(mode, "wal");
        c.close().await.unwrap();

        let store = db.open().await;
        assert_eq!(
            store
                .session_by_token_hash(&hash_token(&token))
                .await
                .unwrap(),
            Some(s)
        );
        assert_eq!(store.game(g1.id).await.unwrap(), Some(g1.clone()));
        assert_eq!(store.game(g2.id).await.unwrap(), Some(g2));
        assert_eq!(store.unfinished_games().await.unwrap(), vec![g1.clone()]);
        assert_eq!(store.actions(g1.id).await.unwrap(), log);
        store.close().await;
    })
    .await;
}

/// The checkpoint sequence number in an SQLite write-ahead log's header (bytes 12..16, big
/// endian): SQLite adds one each time it starts the log again from its beginning.
fn wal_restarts(db_path: &str) -> u32 {
    let header = std::fs::read(format!("{db_path}-wal")).expect("the -wal file");
    u32::from_be_bytes(header[12..16].try_into().expect("a WAL header"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_sqlite_file_is_checkpointed_and_its_log_restarted_under_constant_writes() {
    // Commits never checkpoint (docs/performance.md): a thread copies the log back into the
    // database every second, and SQLite starts the log again from its beginning only after
    // a checkpoint that reached its end. Under writes that never pause, the thread's copy
    // never does (commits overtake it), so the writer finishes it between two commits.
    // Without that the log would only restart at the writer's 10 s fallback: it must
    // restart well before (about 1 to 2 s on an idle machine; 8 s allows for other tests
    // sharing the cores and the checkpointer's lowest priority), with nothing lost and the
    // pages reaching the database file.
    const APPENDERS: usize = 8;
    for_each_db(&[Kind::SqliteFile], |db| async move {
        let path = db
            .url
            .strip_prefix("sqlite://")
            .expect("a file URL")
            .to_owned();
        let store = db.open().await;
        let mut games = Vec::new();
        for _ in 0..APPENDERS {
            games.push(new_game(&store).await);
        }
        let (writer, task) = Writer::spawn(store.clone(), 64);
        writer.append(action(games[0], 0)).await.unwrap();
        let restarts_before = wal_restarts(&path);
        let db_bytes_before = std::fs::metadata(&path).unwrap().len();
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let mut appenders = Vec::new();
        for (i, &g) in games.iter().enumerate() {
            let (writer, stop) = (writer.clone(), stop.clone());
            appenders.push(tokio::spawn(async move {
                let mut seq = i64::from(i == 0);
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    writer.append(action(g, seq)).await.unwrap();
                    seq += 1;
                }
                seq
            }));
        }
        let started = Instant::now();
        while wal_restarts(&path) == restarts_before && started.elapsed() < Duration::from_secs(8) {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let restarted_after = started.elapsed();
        let restarted = wal_restarts(&path) != restarts_before;
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        let mut written = Vec::new();
        for a in appenders {
            written.push(a.await.unwrap());
        }
        assert!(restarted, "the log did not restart in {restarted_after:?}");
        assert!(
            std::fs::metadata(&path).unwrap().len() > db_bytes_before,
            "nothing was copied into the database file"
        );
        for (&g, &count) in games.iter().zip(&written) {
            let log = store.actions(g).await.unwrap();
            let expected: Vec<ActionRow> = (0..count).map(|s| action(g, s)).collect();
            assert_eq!(log, expected);
        }
        writer.shutdown().await;
        task.await.unwrap();
        store.close().await;
    })
    .await;
}
