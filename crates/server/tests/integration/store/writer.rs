//! The group-commit writer: concurrent appends, atomic groups, each caller its own result, shutdown.

use omweso_server::store::{hash_token, ActionRow, StoreError, Write, Writer, MAX_BATCH};
use std::collections::BTreeSet;
use std::time::Duration;
use uuid::Uuid;

use super::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn writer_commits_concurrent_appends_and_loses_none() {
    const TASKS: i64 = 50;
    const PER_TASK: i64 = 20;
    const GAMES: i64 = 5;
    for_each_db(ALL, |db| async move {
        let store = db.open().await;
        let mut games = Vec::new();
        for _ in 0..GAMES {
            games.push(new_game(&store).await);
        }
        let (writer, task) = Writer::spawn(store.clone(), 2 * MAX_BATCH);
        let mut appenders = Vec::new();
        for t in 0..TASKS {
            let writer = writer.clone();
            let g = games[(t % GAMES) as usize];
            let first_seq = (t / GAMES) * PER_TASK;
            appenders.push(tokio::spawn(async move {
                for seq in first_seq..first_seq + PER_TASK {
                    writer.append(action(g, seq)).await.unwrap();
                }
            }));
        }
        for a in appenders {
            a.await.unwrap();
        }
        drop(writer);
        task.await.unwrap();

        let per_game = TASKS / GAMES * PER_TASK;
        for g in games {
            let log = store.actions(g).await.unwrap();
            let expected: Vec<ActionRow> = (0..per_game).map(|seq| action(g, seq)).collect();
            assert_eq!(log, expected);
        }
        store.close().await;
    })
    .await;
}

#[tokio::test]
async fn mixed_writes_are_applied_together_or_not_at_all() {
    for_each_db(ALL, |db| async move {
        let store = db.open().await;
        let (token, kato) = session("Kato", 5);
        let mut g = game("setup", 10);
        // Listed in an awkward order: the update and the log before the game exists.
        let mut started = g.clone();
        started.status = "playing".into();
        started.north = Some(Uuid::new_v4());
        store
            .write(&[
                Write::UpdateGame(started.clone()),
                Write::AppendAction(action(g.id, 1)),
                Write::AppendAction(action(g.id, 0)),
                Write::InsertGame(g.clone()),
                Write::InsertSession(kato.clone()),
            ])
            .await
            .unwrap();
        assert_eq!(store.game(g.id).await.unwrap(), Some(started.clone()));
        assert_eq!(
            store.actions(g.id).await.unwrap(),
            [action(g.id, 0), action(g.id, 1)]
        );
        assert_eq!(
            store
                .session_by_token_hash(&hash_token(&token))
                .await
                .unwrap(),
            Some(kato)
        );

        // One refused write (an update of a game that does not exist) refuses them all.
        let other = game("setup", 11);
        g.status = "finished".into();
        let err = store
            .write(&[
                Write::InsertGame(other.clone()),
                Write::AppendAction(action(g.id, 2)),
                Write::UpdateGame(g.clone()),
                Write::UpdateGame(game("playing", 12)),
            ])
            .await
            .unwrap_err();
        assert!(matches!(err, StoreError::NotFound(_)), "{err}");
        assert_eq!(store.game(other.id).await.unwrap(), None);
        assert_eq!(store.game(g.id).await.unwrap(), Some(started));
        assert_eq!(store.actions(g.id).await.unwrap().len(), 2);
        store.write(&[]).await.unwrap();
        store.close().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_writer_commits_each_callers_writes_atomically() {
    for_each_db(ALL, |db| async move {
        let store = db.open().await;
        let (writer, task) = Writer::spawn(store.clone(), 1024);
        // Games created with their first entry, next to a caller whose writes fail as a
        // whole (its second entry duplicates its first).
        let mut calls = Vec::new();
        for i in 0..30 {
            let writer = writer.clone();
            let g = game("playing", i);
            let writes = if i == 13 {
                vec![
                    Write::InsertGame(g.clone()),
                    Write::AppendAction(action(g.id, 0)),
                    Write::AppendAction(action(g.id, 0)),
                ]
            } else {
                vec![
                    Write::InsertGame(g.clone()),
                    Write::AppendAction(action(g.id, 0)),
                ]
            };
            calls.push((
                i,
                g.id,
                tokio::spawn(async move { writer.write(writes).await }),
            ));
        }
        for (i, id, call) in calls {
            let result = call.await.unwrap();
            if i == 13 {
                assert!(result.unwrap_err().is_conflict());
                assert_eq!(store.game(id).await.unwrap(), None);
                assert!(store.actions(id).await.unwrap().is_empty());
            } else {
                result.unwrap();
                assert_eq!(store.actions(id).await.unwrap(), [action(id, 0)]);
            }
        }
        writer.shutdown().await;
        task.await.unwrap();
        store.close().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn writer_gives_each_caller_its_own_result() {
    for_each_db(ALL, |db| async move {
        let store = db.open().await;
        let g = new_game(&store).await;
        store.append_actions(&[action(g, 7)]).await.unwrap();
        let (writer, task) = Writer::spawn(store.clone(), 1024);
        // Many appends at once, so that they share transactions; one duplicates seq 7.
        let mut appends = Vec::new();
        for seq in 0..40 {
            let writer = writer.clone();
            appends.push((
                seq,
                tokio::spawn(async move { writer.append(action(g, seq)).await }),
            ));
        }
        for (seq, append) in appends {
            let result = append.await.unwrap();
            if seq == 7 {
                let err = result.unwrap_err();
                assert!(err.is_conflict(), "{err}");
            } else {
                result.unwrap();
            }
        }
        let expected: Vec<ActionRow> = (0..40).map(|seq| action(g, seq)).collect();
        assert_eq!(store.actions(g).await.unwrap(), expected);
        writer.shutdown().await;
        task.await.unwrap();
        store.close().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn writer_shutdown_flushes_then_refuses() {
    for_each_db(ALL, |db| async move {
        let store = db.open().await;
        let g = new_game(&store).await;
        let (writer, task) = Writer::spawn(store.clone(), 64);
        let mut appends = Vec::new();
        for seq in 0..100 {
            let writer = writer.clone();
            appends.push(tokio::spawn(
                async move { writer.append(action(g, seq)).await },
            ));
        }
        // Let them queue, then shut down while appends may still be arriving.
        tokio::task::yield_now().await;
        let other_handle = writer.clone();
        writer.shutdown().await;
        let mut written = BTreeSet::new();
        for (seq, append) in appends.into_iter().enumerate() {
            match append.await.unwrap() {
                Ok(()) => {
                    written.insert(seq as i64);
                }
                Err(StoreError::Closed) => {}
                Err(e) => panic!("append {seq}: {e}"),
            }
        }
        // The writer has ended; every handle now refuses, and what was acknowledged is stored.
        task.await.unwrap();
        let err = other_handle.append(action(g, 1000)).await.unwrap_err();
        assert!(matches!(err, StoreError::Closed), "{err}");
        let stored: BTreeSet<i64> = store
            .actions(g)
            .await
            .unwrap()
            .iter()
            .map(|a| a.seq)
            .collect();
        assert_eq!(stored, written);
        other_handle.shutdown().await; // already ended: returns at once

        // Dropping every handle ends the task too, after writing what was queued.
        let (writer, task) = Writer::spawn(store.clone(), 8);
        writer.append(action(g, 2000)).await.unwrap();
        drop(writer);
        tokio::time::timeout(Duration::from_secs(10), task)
            .await
            .expect("the writer task ends when its handles are dropped")
            .unwrap();
        assert_eq!(
            store.actions(g).await.unwrap().last().map(|a| a.seq),
            Some(2000)
        );
        store.close().await;
    })
    .await;
}
