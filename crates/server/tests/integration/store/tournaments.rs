//! Tournaments and their logs: round trips, listing, transactions, reopening.

use omweso_server::store::{
    hash_token, StoreError, TournamentEntryRow, TournamentRow, Write, Writer,
};
use uuid::Uuid;

use super::*;

#[tokio::test]
async fn tournaments_and_their_logs_round_trip_and_update() {
    for_each_db(ALL, |db| async move {
        let store = db.open().await;
        let mut t = tournament("open", 1_700_000_000_000);
        let other = tournament("open", 1_700_000_000_001);
        store.insert_tournament(&t).await.unwrap();
        store.insert_tournament(&other).await.unwrap();
        assert_eq!(store.tournament(t.id).await.unwrap(), Some(t.clone()));
        assert_eq!(store.tournament(Uuid::new_v4()).await.unwrap(), None);

        // Appended out of order, in several calls, mixed with another tournament's.
        store
            .append_tournament_entries(&[entry(t.id, 2), entry(other.id, 0), entry(t.id, 0)])
            .await
            .unwrap();
        store
            .append_tournament_entries(&[entry(t.id, 1)])
            .await
            .unwrap();
        store.append_tournament_entries(&[]).await.unwrap();
        assert_eq!(
            store.tournament_log(t.id).await.unwrap(),
            [entry(t.id, 0), entry(t.id, 1), entry(t.id, 2)]
        );
        assert_eq!(
            store.tournament_log(other.id).await.unwrap(),
            [entry(other.id, 0)]
        );
        // Every value as written, down to the text of the payload.
        let first = &store.tournament_log(t.id).await.unwrap()[0];
        assert_eq!(first.tournament_id, t.id);
        assert_eq!(first.seq, 0);
        assert_eq!(first.at_ms, 1_700_000_000_000);
        assert_eq!(first.kind, "created");
        assert_eq!(first.payload_json, r#"{"round":1,"note":"é \"quoted\" ✓"}"#);
        assert!(store
            .tournament_log(Uuid::new_v4())
            .await
            .unwrap()
            .is_empty());

        // Every mutable column changes.
        t.name = "Kampala open, second edition".into();
        t.ruleset = "oware".into();
        t.system = "swiss".into();
        t.status = "running".into();
        t.players = 7;
        t.round = 3;
        t.updated_at_ms = 1_700_000_999_999;
        store.update_tournament(&t).await.unwrap();
        assert_eq!(store.tournament(t.id).await.unwrap(), Some(t.clone()));

        // The immutable ones do not.
        let mut changed = t.clone();
        changed.director = Uuid::new_v4();
        changed.created_at_ms = 5;
        store.update_tournament(&changed).await.unwrap();
        assert_eq!(store.tournament(t.id).await.unwrap(), Some(t.clone()));
        assert_eq!(store.tournament(other.id).await.unwrap(), Some(other));

        // A tournament id is unique.
        let err = store.insert_tournament(&t).await.unwrap_err();
        assert!(err.is_conflict(), "{err}");
        store.close().await;
    })
    .await;
}

#[tokio::test]
async fn tournaments_are_listed_by_status_and_the_unfinished_oldest_first() {
    for_each_db(ALL, |db| async move {
        let store = db.open().await;
        let statuses = ["open", "finished", "running", "open", "finished"];
        let mut all = Vec::new();
        // Inserted out of creation order, to see the ordering come from created_at_ms.
        for (i, status) in statuses.iter().enumerate().rev() {
            let t = tournament(status, 2_000 + i as i64);
            store.insert_tournament(&t).await.unwrap();
            all.push(t);
        }
        all.sort_by_key(|t| t.created_at_ms);

        let unfinished = store.unfinished_tournaments().await.unwrap();
        assert_eq!(
            unfinished,
            [all[0].clone(), all[2].clone(), all[3].clone()],
            "oldest first, finished left out"
        );

        // A tournament that finishes drops out.
        let mut done = all[0].clone();
        done.status = "finished".into();
        store.update_tournament(&done).await.unwrap();
        assert_eq!(
            store.unfinished_tournaments().await.unwrap(),
            [all[2].clone(), all[3].clone()]
        );

        // Newest first, only the asked statuses, at most `limit`.
        let created =
            |ts: Vec<TournamentRow>| ts.iter().map(|t| t.created_at_ms).collect::<Vec<_>>();
        assert_eq!(
            created(store.tournaments(&["finished"], 10).await.unwrap()),
            [2_004, 2_001, 2_000]
        );
        assert_eq!(
            created(store.tournaments(&["open", "running"], 10).await.unwrap()),
            [2_003, 2_002]
        );
        let newest = store
            .tournaments(&["open", "running", "finished"], 2)
            .await
            .unwrap();
        assert_eq!(newest, [all[4].clone(), all[3].clone()]);
        assert!(store.tournaments(&[], 10).await.unwrap().is_empty());
        assert!(store.tournaments(&["open"], 0).await.unwrap().is_empty());
        assert!(store
            .tournaments(&["nonesuch"], 5)
            .await
            .unwrap()
            .is_empty());
        store.close().await;
    })
    .await;
}

#[tokio::test]
async fn a_duplicate_tournament_entry_refuses_the_whole_transaction() {
    for_each_db(ALL, |db| async move {
        let store = db.open().await;
        let t = tournament("running", 1);
        store
            .write(&[
                Write::InsertTournament(t.clone()),
                Write::AppendTournamentEntry(entry(t.id, 0)),
                Write::AppendTournamentEntry(entry(t.id, 1)),
            ])
            .await
            .unwrap();

        // The pairing of a game and its log entry, where the entry's seq is already taken:
        // nothing of the call is written, neither the game nor its first action nor the
        // other entries.
        let g = game("playing", 2);
        let mut advanced = t.clone();
        advanced.round = 1;
        advanced.updated_at_ms = 3;
        let err = store
            .write(&[
                Write::InsertGame(g.clone()),
                Write::AppendAction(action(g.id, 0)),
                Write::AppendTournamentEntry(entry(t.id, 2)),
                Write::AppendTournamentEntry(entry(t.id, 1)),
                Write::UpdateTournament(advanced),
            ])
            .await
            .unwrap_err();
        assert!(err.is_conflict(), "{err}");
        assert_eq!(store.game(g.id).await.unwrap(), None);
        assert!(store.actions(g.id).await.unwrap().is_empty());
        assert_eq!(store.tournament(t.id).await.unwrap(), Some(t.clone()));
        assert_eq!(
            store.tournament_log(t.id).await.unwrap(),
            [entry(t.id, 0), entry(t.id, 1)]
        );

        // A duplicate inside the call itself is refused the same way.
        let err = store
            .write(&[
                Write::InsertGame(g.clone()),
                Write::AppendTournamentEntry(entry(t.id, 2)),
                Write::AppendTournamentEntry(entry(t.id, 2)),
            ])
            .await
            .unwrap_err();
        assert!(err.is_conflict(), "{err}");
        assert_eq!(store.game(g.id).await.unwrap(), None);
        assert_eq!(store.tournament_log(t.id).await.unwrap().len(), 2);

        // So is an entry of a tournament that does not exist (not as a conflict: the
        // foreign key).
        let err = store
            .write(&[
                Write::InsertGame(g.clone()),
                Write::AppendTournamentEntry(entry(t.id, 2)),
                Write::AppendTournamentEntry(entry(Uuid::new_v4(), 0)),
            ])
            .await
            .unwrap_err();
        assert!(
            matches!(err, StoreError::Database(_) | StoreError::Sqlite(_)) && !err.is_conflict(),
            "{err}"
        );
        assert_eq!(store.game(g.id).await.unwrap(), None);
        assert_eq!(store.tournament_log(t.id).await.unwrap().len(), 2);

        // Through the Writer, a caller's refused writes leave the others' in place.
        let (writer, task) = Writer::spawn(store.clone(), 16);
        let refused = writer.write(vec![
            Write::InsertGame(g.clone()),
            Write::AppendTournamentEntry(entry(t.id, 0)),
        ]);
        let accepted = writer.write(vec![Write::AppendTournamentEntry(entry(t.id, 2))]);
        let (refused, accepted) = tokio::join!(refused, accepted);
        assert!(refused.unwrap_err().is_conflict());
        accepted.unwrap();
        assert_eq!(store.game(g.id).await.unwrap(), None);
        assert_eq!(
            store.tournament_log(t.id).await.unwrap(),
            [entry(t.id, 0), entry(t.id, 1), entry(t.id, 2)]
        );
        writer.shutdown().await;
        task.await.unwrap();
        store.close().await;
    })
    .await;
}

#[tokio::test]
async fn an_update_of_a_missing_tournament_is_not_found_and_rolls_back() {
    for_each_db(ALL, |db| async move {
        let store = db.open().await;
        let missing = tournament("running", 1);
        let err = store.update_tournament(&missing).await.unwrap_err();
        match &err {
            StoreError::NotFound(what) => assert_eq!(*what, format!("tournament {}", missing.id)),
            other => panic!("expected NotFound, got {other:?}"),
        }
        assert_eq!(store.tournament(missing.id).await.unwrap(), None);

        // With everything else a transaction can hold: none of it is written.
        let (token, kato) = session("Kato", 2);
        let t = tournament("open", 3);
        let g = game("playing", 4);
        let err = store
            .write(&[
                Write::InsertSession(kato),
                Write::InsertTournament(t.clone()),
                Write::AppendTournamentEntry(entry(t.id, 0)),
                Write::InsertGame(g.clone()),
                Write::AppendAction(action(g.id, 0)),
                Write::UpdateTournament(missing.clone()),
            ])
            .await
            .unwrap_err();
        assert!(matches!(err, StoreError::NotFound(_)), "{err}");
        assert_eq!(
            store
                .session_by_token_hash(&hash_token(&token))
                .await
                .unwrap(),
            None
        );
        assert_eq!(store.tournament(t.id).await.unwrap(), None);
        assert!(store.tournament_log(t.id).await.unwrap().is_empty());
        assert_eq!(store.game(g.id).await.unwrap(), None);
        assert!(store.actions(g.id).await.unwrap().is_empty());
        assert!(store.unfinished_tournaments().await.unwrap().is_empty());
        store.close().await;
    })
    .await;
}

#[tokio::test]
async fn a_tournament_is_written_before_its_log_and_updates_whatever_the_order() {
    for_each_db(ALL, |db| async move {
        let store = db.open().await;
        let t = tournament("open", 10);
        let g = game("setup", 11);
        let mut running = t.clone();
        running.status = "running".into();
        running.players = 2;
        running.round = 1;
        running.updated_at_ms = 12;
        let mut started = g.clone();
        started.status = "playing".into();
        started.north = Some(Uuid::new_v4());
        started.updated_at_ms = 12;
        // Listed backwards: every update and log entry before the row it names exists.
        store
            .write(&[
                Write::UpdateTournament(running.clone()),
                Write::UpdateGame(started.clone()),
                Write::AppendTournamentEntry(entry(t.id, 1)),
                Write::AppendAction(action(g.id, 0)),
                Write::AppendTournamentEntry(entry(t.id, 0)),
                Write::InsertGame(g.clone()),
                Write::InsertTournament(t.clone()),
            ])
            .await
            .unwrap();
        assert_eq!(store.tournament(t.id).await.unwrap(), Some(running.clone()));
        assert_eq!(
            store.tournament_log(t.id).await.unwrap(),
            [entry(t.id, 0), entry(t.id, 1)]
        );
        assert_eq!(store.game(g.id).await.unwrap(), Some(started));
        assert_eq!(store.actions(g.id).await.unwrap(), [action(g.id, 0)]);
        assert_eq!(store.unfinished_tournaments().await.unwrap(), [running]);

        // The same through the Writer (on an SQLite file, its own connection), next to a
        // caller whose writes may share the transaction and name the new game.
        let (writer, task) = Writer::spawn(store.clone(), 16);
        let t2 = tournament("open", 20);
        let g2 = game("playing", 21);
        let first = writer.write(vec![
            Write::AppendTournamentEntry(entry(t2.id, 0)),
            Write::InsertGame(g2.clone()),
            Write::InsertTournament(t2.clone()),
        ]);
        let second = writer.write(vec![Write::AppendAction(action(g2.id, 0))]);
        let (first, second) = tokio::join!(first, second);
        first.unwrap();
        second.unwrap();
        assert_eq!(store.tournament(t2.id).await.unwrap(), Some(t2.clone()));
        assert_eq!(
            store.tournament_log(t2.id).await.unwrap(),
            [entry(t2.id, 0)]
        );
        assert_eq!(store.game(g2.id).await.unwrap(), Some(g2.clone()));
        assert_eq!(store.actions(g2.id).await.unwrap(), [action(g2.id, 0)]);
        writer.shutdown().await;
        task.await.unwrap();
        store.close().await;
    })
    .await;
}

#[tokio::test]
async fn tournaments_survive_reopening_and_corrupt_ones_are_reported() {
    for_each_db(PERSISTENT, |db| async move {
        let store = db.open().await;
        let t = tournament("running", 1);
        let done = tournament("finished", 2);
        store.insert_tournament(&t).await.unwrap();
        store.insert_tournament(&done).await.unwrap();
        let log: Vec<TournamentEntryRow> = (0..20).map(|seq| entry(t.id, seq)).collect();
        store.append_tournament_entries(&log).await.unwrap();
        store.close().await;

        let store = db.open().await;
        assert_eq!(store.tournament_log(t.id).await.unwrap(), log);
        assert_eq!(store.tournament(done.id).await.unwrap(), Some(done));
        assert_eq!(store.unfinished_tournaments().await.unwrap(), [t]);

        // A director that is not a UUID: reported, naming the column.
        let insert = "INSERT INTO tournaments (id, name, ruleset, system, director, status, \
                      players, round, created_at_ms, updated_at_ms) VALUES \
                      ('8d0f3b8e-1c51-4c36-9f8e-3f8c2a9d2b10', 'x', 'omweso', 'swiss', \
                      'nobody', 'open', 0, 0, 3, 3)";
        db.raw(insert, insert).await;
        match store.unfinished_tournaments().await {
            Err(StoreError::Corrupt(message)) => {
                assert!(message.contains("tournaments.director"), "{message}")
            }
            other => panic!("expected Corrupt, got {other:?}"),
        }
        store.close().await;
    })
    .await;
}
