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

mod archive;
mod games;
mod leases;
mod opening;
mod ratings;
mod sessions;
mod sqlite_file;
mod tournaments;
mod writer;

use std::future::Future;
use std::path::PathBuf;

use omweso_server::store::{
    hash_token, ActionRow, ArchiveColumns, GameRow, SessionRow, Store, TournamentEntryRow,
    TournamentRow,
};
use sqlx::Connection;
use uuid::Uuid;

// ---------------------------------------------------------------------------------------
// The databases each test runs against.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    SqliteFile,
    SqliteMemory,
    Postgres,
}

/// Every backend: for tests that only use the store they open.
pub(super) const ALL: &[Kind] = &[Kind::SqliteFile, Kind::SqliteMemory, Kind::Postgres];
/// Backends whose database outlives a store: for tests that reopen it or touch it directly.
pub(super) const PERSISTENT: &[Kind] = &[Kind::SqliteFile, Kind::Postgres];

/// One database prepared for one test.
#[derive(Clone, Debug)]
pub(super) struct TestDb {
    pub(super) kind: Kind,
    pub(super) url: String,
}

impl TestDb {
    pub(super) async fn open(&self) -> Store {
        match Store::open(&self.url).await {
            Ok(store) => store,
            Err(e) => panic!("opening {:?}: {e}", self.kind),
        }
    }

    /// Runs one statement on the database behind the store's back.
    pub(super) async fn raw(&self, sqlite_sql: &str, pg_sql: &str) {
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
pub(super) struct TempFile(PathBuf);

impl Drop for TempFile {
    fn drop(&mut self) {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            let mut path = self.0.clone().into_os_string();
            path.push(suffix);
            let _ = std::fs::remove_file(path);
        }
    }
}

pub(super) fn temp_sqlite() -> (TempFile, String) {
    let path = std::env::temp_dir().join(format!("omweso-store-test-{}.db", Uuid::new_v4()));
    let url = format!("sqlite://{}", path.display());
    (TempFile(path), url)
}

/// `url` with its database name replaced by `db`.
pub(super) fn with_database(url: &str, db: &str) -> String {
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

pub(super) async fn create_pg_database(admin_url: &str) -> (String, String) {
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

pub(super) async fn drop_pg_database(admin_url: &str, name: &str) {
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
pub(super) async fn for_each_db<F, Fut>(kinds: &[Kind], test: F)
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

pub(super) async fn run(test: impl Future<Output = ()> + Send + 'static) {
    rethrow(tokio::spawn(test).await);
}

pub(super) fn rethrow(outcome: Result<(), tokio::task::JoinError>) {
    if let Err(e) = outcome {
        match e.try_into_panic() {
            Ok(panic) => std::panic::resume_unwind(panic),
            Err(e) => panic!("test task failed: {e}"),
        }
    }
}

// ---------------------------------------------------------------------------------------
// Sample rows.

pub(super) fn session(name: &str, created_at_ms: i64) -> (String, SessionRow) {
    let token = format!("token-{}", Uuid::new_v4().simple());
    let row = SessionRow {
        player_id: Uuid::new_v4(),
        device_id: Uuid::new_v4(),
        token_hash: hash_token(&token),
        name: name.to_string(),
        username: None,
        label: "Chrome on Android".into(),
        created_at_ms,
        last_seen_ms: created_at_ms,
        used: false,
        tournament_id: None,
    };
    (token, row)
}

pub(super) fn game(status: &str, created_at_ms: i64) -> GameRow {
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
        archive: ArchiveColumns::default(),
    }
}

pub(super) fn action(game_id: Uuid, seq: i64) -> ActionRow {
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

pub(super) async fn new_game(store: &Store) -> Uuid {
    let g = game("playing", 1);
    store.insert_game(&g).await.unwrap();
    g.id
}

pub(super) fn tournament(status: &str, created_at_ms: i64) -> TournamentRow {
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

pub(super) fn entry(tournament_id: Uuid, seq: i64) -> TournamentEntryRow {
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
