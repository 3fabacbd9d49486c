//! The persistence layer against real databases.
//!
//! Every test body is written once and run against an SQLite file in the temp directory
//! (always), `sqlite::memory:` (where the test does not reopen the database), and a fresh
//! PostgreSQL database when `TEST_POSTGRES_URL` is set (required on CI:
//! `crate::common::postgres_admin_url`), e.g.
//!
//! ```sh
//! TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/postgres cargo test -p omweso-server --test integration store::
//! ```
//!
//! For PostgreSQL each test creates its own database `omweso_test_<uuid>` through that URL
//! and drops it afterwards (best effort). `latency_report` is ignored by default; run it with
//! `-- --ignored --nocapture` to print the append latencies.

use std::collections::BTreeSet;
use std::future::Future;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use omweso_server::store::{
    hash_token, ActionRow, GameRow, SessionChange, SessionRow, Store, StoreError,
    TournamentEntryRow, TournamentRow, Write, Writer, MAX_BATCH,
};
use sqlx::Connection;
use uuid::Uuid;

// ---------------------------------------------------------------------------------------
// The databases each test runs against.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    SqliteFile,
    SqliteMemory,
    Postgres,
}

/// Every backend: for tests that only use the store they open.
const ALL: &[Kind] = &[Kind::SqliteFile, Kind::SqliteMemory, Kind::Postgres];
/// Backends whose database outlives a store: for tests that reopen it or touch it directly.
const PERSISTENT: &[Kind] = &[Kind::SqliteFile, Kind::Postgres];

/// One database prepared for one test.
#[derive(Clone, Debug)]
struct TestDb {
    kind: Kind,
    url: String,
}

impl TestDb {
    async fn open(&self) -> Store {
        match Store::open(&self.url).await {
            Ok(store) => store,
            Err(e) => panic!("opening {:?}: {e}", self.kind),
        }
    }

    /// Runs one statement on the database behind the store's back.
    async fn raw(&self, sqlite_sql: &str, pg_sql: &str) {
        match self.kind {
            Kind::SqliteFile => {
                let mut c = sqlx::SqliteConnection::connect(&self.url).await.unwrap();
                sqlx::query(sqlite_sql).execute(&mut c).await.unwrap();
                c.close().await.unwrap();
            }
            Kind::Postgres => {
                let mut c = sqlx::PgConnection::connect(&self.url).await.unwrap();
                sqlx::query(pg_sql).execute(&mut c).await.unwrap();
                c.close().await.unwrap();
            }
            Kind::SqliteMemory => panic!("an in-memory database cannot be reached from outside"),
        }
    }
}

/// Removes an SQLite database file and its WAL companions, even if the test panicked.
struct TempFile(PathBuf);

impl Drop for TempFile {
    fn drop(&mut self) {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            let mut path = self.0.clone().into_os_string();
            path.push(suffix);
            let _ = std::fs::remove_file(path);
        }
    }
}

fn temp_sqlite() -> (TempFile, String) {
    let path = std::env::temp_dir().join(format!("omweso-store-test-{}.db", Uuid::new_v4()));
    let url = format!("sqlite://{}", path.display());
    (TempFile(path), url)
}

/// `url` with its database name replaced by `db`.
fn with_database(url: &str, db: &str) -> String {
    let (scheme, rest) = url
        .split_once("://")
        .expect("TEST_POSTGRES_URL has a scheme");
    let (before_query, query) = match rest.split_once('?') {
        Some((before, query)) => (before, Some(query)),
        None => (rest, None),
    };
    let authority = before_query.split('/').next().unwrap_or_default();
    let mut out = format!("{scheme}://{authority}/{db}");
    if let Some(query) = query {
        out.push('?');
        out.push_str(query);
    }
    out
}

async fn create_pg_database(admin_url: &str) -> (String, String) {
    let name = format!("omweso_test_{}", Uuid::new_v4().simple());
    let mut admin = sqlx::PgConnection::connect(admin_url)
        .await
        .expect("connect to TEST_POSTGRES_URL");
    sqlx::query(&format!("CREATE DATABASE \"{name}\""))
        .execute(&mut admin)
        .await
        .expect("CREATE DATABASE");
    let _ = admin.close().await;
    let url = with_database(admin_url, &name);
    (name, url)
}

async fn drop_pg_database(admin_url: &str, name: &str) {
    match sqlx::PgConnection::connect(admin_url).await {
        Ok(mut admin) => {
            let dropped = sqlx::query(&format!("DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)"))
                .execute(&mut admin)
                .await;
            if let Err(e) = dropped {
                eprintln!("could not drop test database {name}: {e}");
            }
            let _ = admin.close().await;
        }
        Err(e) => eprintln!("could not drop test database {name}: {e}"),
    }
}

/// Runs `test` once per backend of `kinds` (PostgreSQL only if `TEST_POSTGRES_URL` is set,
/// which CI requires), each on a database of its own, cleaning up after each run even when
/// it panics.
async fn for_each_db<F, Fut>(kinds: &[Kind], test: F)
where
    F: Fn(TestDb) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    for &kind in kinds {
        match kind {
            Kind::SqliteFile => {
                let (_file, url) = temp_sqlite();
                run(test(TestDb { kind, url })).await;
            }
            Kind::SqliteMemory => {
                let url = "sqlite::memory:".to_string();
                run(test(TestDb { kind, url })).await;
            }
            Kind::Postgres => {
                let Some(admin_url) = crate::common::postgres_admin_url() else {
                    eprintln!("TEST_POSTGRES_URL is not set: skipping this test's PostgreSQL run");
                    continue;
                };
                let (name, url) = create_pg_database(&admin_url).await;
                let outcome = tokio::spawn(test(TestDb { kind, url })).await;
                drop_pg_database(&admin_url, &name).await;
                rethrow(outcome);
            }
        }
    }
}

async fn run(test: impl Future<Output = ()> + Send + 'static) {
    rethrow(tokio::spawn(test).await);
}

fn rethrow(outcome: Result<(), tokio::task::JoinError>) {
    if let Err(e) = outcome {
        match e.try_into_panic() {
            Ok(panic) => std::panic::resume_unwind(panic),
            Err(e) => panic!("test task failed: {e}"),
        }
    }
}

// ---------------------------------------------------------------------------------------
// Sample rows.

fn session(name: &str, created_at_ms: i64) -> (String, SessionRow) {
    let token = format!("token-{}", Uuid::new_v4().simple());
    let row = SessionRow {
        player_id: Uuid::new_v4(),
        token_hash: hash_token(&token),
        name: name.to_string(),
        created_at_ms,
        last_seen_ms: created_at_ms,
        used: false,
    };
    (token, row)
}

fn game(status: &str, created_at_ms: i64) -> GameRow {
    GameRow {
        id: Uuid::new_v4(),
        ruleset: "omweso".into(),
        setup: "outer".into(),
        config_json: r#"{"referee_seconds":3,"move_limit_seconds":180,"sowing_pace":4}"#.into(),
        south: Some(Uuid::new_v4()),
        north: None,
        creator: Uuid::new_v4(),
        status: status.into(),
        outcome_json: None,
        created_at_ms,
        updated_at_ms: created_at_ms,
        final_json: None,
    }
}

fn action(game_id: Uuid, seq: i64) -> ActionRow {
    ActionRow {
        game_id,
        seq,
        at_ms: 1_700_000_000_000 + seq,
        side: if seq % 3 == 0 {
            None
        } else {
            Some(if seq % 2 == 0 { "s" } else { "n" }.into())
        },
        kind: "move".into(),
        payload_json: format!(r#"{{"move":"E{}","note":"é \"quoted\" ✓"}}"#, seq % 8 + 1),
    }
}

async fn new_game(store: &Store) -> Uuid {
    let g = game("playing", 1);
    store.insert_game(&g).await.unwrap();
    g.id
}

fn tournament(status: &str, created_at_ms: i64) -> TournamentRow {
    TournamentRow {
        id: Uuid::new_v4(),
        name: "Kampala open ✓ 'quoted'".into(),
        ruleset: "omweso".into(),
        system: "round_robin".into(),
        director: Uuid::new_v4(),
        status: status.into(),
        players: 6,
        round: 0,
        created_at_ms,
        updated_at_ms: created_at_ms,
    }
}

fn entry(tournament_id: Uuid, seq: i64) -> TournamentEntryRow {
    TournamentEntryRow {
        tournament_id,
        seq,
        at_ms: 1_700_000_000_000 + seq,
        kind: if seq == 0 { "created" } else { "result" }.into(),
        payload_json: format!(r#"{{"round":{},"note":"é \"quoted\" ✓"}}"#, seq / 3 + 1),
    }
}

// ---------------------------------------------------------------------------------------
// Tests.

#[tokio::test]
async fn sessions_round_trip_and_are_found_by_token_hash() {
    assert_eq!(
        hash_token("abc"),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
    for_each_db(ALL, |db| async move {
        let store = db.open().await;
        let (token, kato) = session("Kato", 1_700_000_000_123);
        let (_, nakato) = session("Nakato ✓ 'quote'", 1_700_000_000_456);
        store.insert_session(&kato).await.unwrap();
        store.insert_session(&nakato).await.unwrap();

        let found = store
            .session_by_token_hash(&hash_token(&token))
            .await
            .unwrap();
        assert_eq!(found, Some(kato.clone()));
        let found = store
            .session_by_token_hash(&nakato.token_hash)
            .await
            .unwrap();
        assert_eq!(found, Some(nakato.clone()));
        assert_eq!(
            store
                .session_by_token_hash(&hash_token("nobody"))
                .await
                .unwrap(),
            None
        );

        // The token hash is unique.
        let mut twin = session("Twin", 1).1;
        twin.token_hash = kato.token_hash.clone();
        let err = store.insert_session(&twin).await.unwrap_err();
        assert!(err.is_conflict(), "{err}");
        store.close().await;
    })
    .await;
}

/// Sessions are seen, used, revoked and expired (docs/security.md, sessions), on every
/// backend; a session stored before migration 4 counts as used and as seen when the
/// server first sweeps, not at its creation (or every old session would expire at once).
#[tokio::test]
async fn sessions_are_seen_used_revoked_and_expired() {
    for_each_db(PERSISTENT, |db| async move {
        let store = db.open().await;
        let (_, fresh) = session("Fresh", 1_000);
        let (_, idle) = session("Idle", 1_000);
        let (_, player) = session("Player", 1_000);
        let (gone_token, gone) = session("Gone", 1_000);
        let write = |change| {
            let store = store.clone();
            async move { store.write(&[Write::Session(change)]).await }
        };
        for row in [&fresh, &idle, &player, &gone] {
            store.insert_session(row).await.unwrap();
        }
        // A session from before the migration: no last use, counted as used.
        let old_id = Uuid::new_v4();
        let old_insert = format!(
            "INSERT INTO sessions (player_id, token_hash, name, created_at_ms) \
             VALUES ('{old_id}', 'old-hash', 'Old', 5)"
        );
        db.raw(&old_insert, &old_insert).await;
        let old = store
            .session_by_token_hash("old-hash")
            .await
            .unwrap()
            .unwrap();
        assert_eq!((old.last_seen_ms, old.used), (5, true), "{old:?}");

        write(SessionChange::Seen {
            player_id: fresh.player_id,
            at_ms: 90_000,
        })
        .await
        .unwrap();
        write(SessionChange::Used {
            player_id: player.player_id,
            at_ms: 20_000,
        })
        .await
        .unwrap();
        write(SessionChange::Revoke(gone.player_id)).await.unwrap();
        // Changes to a session that is gone are no error.
        write(SessionChange::Seen {
            player_id: gone.player_id,
            at_ms: 1,
        })
        .await
        .unwrap();
        let read = |row: &SessionRow| {
            let hash = row.token_hash.clone();
            let store = store.clone();
            async move { store.session_by_token_hash(&hash).await.unwrap() }
        };
        let fresh_now = read(&fresh).await.unwrap();
        assert_eq!((fresh_now.last_seen_ms, fresh_now.used), (90_000, false));
        let player_now = read(&player).await.unwrap();
        assert_eq!((player_now.last_seen_ms, player_now.used), (20_000, true));
        assert_eq!(
            store
                .session_by_token_hash(&hash_token(&gone_token))
                .await
                .unwrap(),
            None
        );

        // At 100 s: unused sessions last 50 s, used ones 85 s.
        write(SessionChange::Expire {
            now_ms: 100_000,
            before_ms: 15_000,
            unused_before_ms: 50_000,
        })
        .await
        .unwrap();
        assert!(read(&fresh).await.is_some(), "unused, seen 10 s ago");
        assert_eq!(read(&idle).await, None, "unused, seen 99 s ago");
        assert!(read(&player).await.is_some(), "used, seen 80 s ago");
        let old = store
            .session_by_token_hash("old-hash")
            .await
            .unwrap()
            .unwrap();
        assert_eq!(old.last_seen_ms, 100_000, "seen at the sweep, not expired");
        write(SessionChange::Expire {
            now_ms: 200_000,
            before_ms: 115_000,
            unused_before_ms: 150_000,
        })
        .await
        .unwrap();
        assert_eq!(read(&fresh).await, None);
        assert_eq!(read(&player).await, None);
        assert_eq!(store.session_by_token_hash("old-hash").await.unwrap(), None);
        store.close().await;
    })
    .await;
}

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
