//! Games and their action logs: round trips, updates, deletion, what is unfinished.

use omweso_server::store::{ActionRow, GameRow, StoreError, Write, Writer};
use uuid::Uuid;

use super::*;

#[tokio::test]
async fn games_round_trip_and_update() {
    for_each_db(ALL, |db| async move {
        let store = db.open().await;
        let mut g = game("setup", 1_700_000_000_000);
        store.insert_game(&g).await.unwrap();
        assert_eq!(store.game(g.id).await.unwrap(), Some(g.clone()));
        assert_eq!(store.game(Uuid::new_v4()).await.unwrap(), None);

        // Every mutable column changes.
        g.ruleset = "mweiso".into();
        g.setup = "even".into();
        g.config_json = r#"{"referee_seconds":null}"#.into();
        g.south = None;
        g.north = Some(Uuid::new_v4());
        g.status = "finished".into();
        g.outcome_json = Some(r#"{"winner":"n","victory":"resigned"}"#.into());
        g.updated_at_ms = 1_700_000_999_999;
        g.final_json = Some(r#"{"status":"finished"}"#.into());
        store.update_game(&g).await.unwrap();
        assert_eq!(store.game(g.id).await.unwrap(), Some(g.clone()));

        // The immutable ones do not.
        let mut changed = g.clone();
        changed.creator = Uuid::new_v4();
        changed.created_at_ms = 5;
        store.update_game(&changed).await.unwrap();
        assert_eq!(store.game(g.id).await.unwrap(), Some(g.clone()));

        // Updating a game that does not exist is an error, not a silent no-op.
        let missing = game("playing", 1);
        let err = store.update_game(&missing).await.unwrap_err();
        assert!(matches!(err, StoreError::NotFound(_)), "{err}");
        assert_eq!(store.game(missing.id).await.unwrap(), None);

        // A game id is unique.
        let err = store.insert_game(&g).await.unwrap_err();
        assert!(err.is_conflict(), "{err}");
        store.close().await;
    })
    .await;
}

#[tokio::test]
async fn deleting_a_game_removes_it_and_its_log_and_nothing_else() {
    for_each_db(ALL, |db| async move {
        let store = db.open().await;
        let gone = game("setup", 1_700_000_000_000);
        let kept = game("setup", 1_700_000_000_001);
        store
            .write(&[
                Write::InsertGame(gone.clone()),
                Write::InsertGame(kept.clone()),
                Write::AppendAction(action(gone.id, 0)),
                Write::AppendAction(action(gone.id, 1)),
                Write::AppendAction(action(kept.id, 0)),
            ])
            .await
            .unwrap();
        store.write(&[Write::DeleteGame(gone.id)]).await.unwrap();
        assert_eq!(store.game(gone.id).await.unwrap(), None);
        assert!(store.actions(gone.id).await.unwrap().is_empty());
        assert_eq!(store.game(kept.id).await.unwrap(), Some(kept.clone()));
        assert_eq!(store.actions(kept.id).await.unwrap().len(), 1);
        // Through the writer too (the SQLite file's own connection).
        let (writer, task) = Writer::spawn(store.clone(), 16);
        writer
            .write(vec![Write::DeleteGame(kept.id)])
            .await
            .unwrap();
        assert_eq!(store.game(kept.id).await.unwrap(), None);
        assert!(store.actions(kept.id).await.unwrap().is_empty());
        writer.shutdown().await;
        task.await.unwrap();
        store.close().await;
    })
    .await;
}

#[tokio::test]
async fn unfinished_games_exclude_finished_and_annulled_and_recent_games_filter() {
    for_each_db(ALL, |db| async move {
        let store = db.open().await;
        let statuses = [
            "playing", "finished", "setup", "annulled", "playing", "finished",
        ];
        let mut games = Vec::new();
        // Inserted out of creation order, to see the ordering come from created_at_ms.
        for (i, status) in statuses.iter().enumerate().rev() {
            let g = game(status, 1_000 + i as i64);
            store.insert_game(&g).await.unwrap();
            games.push(g);
        }
        games.sort_by_key(|g| g.created_at_ms);

        let unfinished = store.unfinished_games().await.unwrap();
        let expected: Vec<GameRow> = games
            .iter()
            .filter(|g| g.status != "finished" && g.status != "annulled")
            .cloned()
            .collect();
        assert_eq!(
            unfinished, expected,
            "oldest first, finished and annulled left out"
        );

        // A game that finishes drops out.
        let mut done = expected[0].clone();
        done.status = "annulled".into();
        store.update_game(&done).await.unwrap();
        assert_eq!(
            store.unfinished_games().await.unwrap(),
            expected[1..].to_vec()
        );

        // recent_games: newest first, only the asked statuses, at most `limit`.
        let recent = store.recent_games(&["finished"], 10).await.unwrap();
        let created: Vec<i64> = recent.iter().map(|g| g.created_at_ms).collect();
        assert_eq!(created, [1_005, 1_001]);
        let recent = store
            .recent_games(&["playing", "annulled"], 10)
            .await
            .unwrap();
        let created: Vec<i64> = recent.iter().map(|g| g.created_at_ms).collect();
        assert_eq!(created, [1_004, 1_003, 1_000]);
        let recent = store
            .recent_games(&["playing", "annulled", "setup", "finished"], 2)
            .await
            .unwrap();
        let created: Vec<i64> = recent.iter().map(|g| g.created_at_ms).collect();
        assert_eq!(created, [1_005, 1_004]);
        assert_eq!(recent[0], *games.last().unwrap());
        assert!(store.recent_games(&[], 10).await.unwrap().is_empty());
        assert!(store
            .recent_games(&["playing"], 0)
            .await
            .unwrap()
            .is_empty());
        assert!(store
            .recent_games(&["nonesuch"], 5)
            .await
            .unwrap()
            .is_empty());
        store.close().await;
    })
    .await;
}

#[tokio::test]
async fn actions_come_back_in_order_and_a_failing_batch_writes_nothing() {
    for_each_db(ALL, |db| async move {
        let store = db.open().await;
        let g = new_game(&store).await;
        let other = new_game(&store).await;

        // Appended out of order, in several calls, mixed with another game's.
        store
            .append_actions(&[action(g, 2), action(other, 0), action(g, 0)])
            .await
            .unwrap();
        store.append_actions(&[action(g, 1)]).await.unwrap();
        store.append_actions(&[]).await.unwrap();
        let log = store.actions(g).await.unwrap();
        assert_eq!(log, vec![action(g, 0), action(g, 1), action(g, 2)]);
        assert_eq!(store.actions(other).await.unwrap(), vec![action(other, 0)]);
        assert!(store.actions(Uuid::new_v4()).await.unwrap().is_empty());

        // A batch whose last row duplicates a stored (game_id, seq): none of it is stored.
        let batch: Vec<ActionRow> = (3..10)
            .map(|seq| action(g, seq))
            .chain([action(g, 1)])
            .collect();
        let err = store.append_actions(&batch).await.unwrap_err();
        assert!(err.is_conflict(), "{err}");
        assert_eq!(store.actions(g).await.unwrap().len(), 3);

        // A duplicate inside the batch itself, past the first INSERT statement.
        let mut batch: Vec<ActionRow> = (3..303).map(|seq| action(g, seq)).collect();
        batch.push(action(g, 300));
        let err = store.append_actions(&batch).await.unwrap_err();
        assert!(err.is_conflict(), "{err}");
        assert_eq!(store.actions(g).await.unwrap().len(), 3);

        // An action for a game that does not exist is refused too, with its batch.
        let err = store
            .append_actions(&[action(g, 3), action(Uuid::new_v4(), 0)])
            .await
            .unwrap_err();
        assert!(
            matches!(err, StoreError::Database(_) | StoreError::Sqlite(_)) && !err.is_conflict(),
            "{err}"
        );
        assert_eq!(store.actions(g).await.unwrap().len(), 3);

        // A large batch (cut into several INSERTs) goes in whole.
        let batch: Vec<ActionRow> = (3..303).map(|seq| action(g, seq)).collect();
        store.append_actions(&batch).await.unwrap();
        let log = store.actions(g).await.unwrap();
        let expected: Vec<ActionRow> = (0..303).map(|seq| action(g, seq)).collect();
        assert_eq!(log, expected);
        store.close().await;
    })
    .await;
}
