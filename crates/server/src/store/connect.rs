//! Connecting to a database: what a URL names (an SQLite file, an in-memory SQLite database,
//! PostgreSQL) and the pools each is opened with (their sizes, timeouts and SQLite's
//! pragmas). `Store::open` (db.rs) runs the migrations on what this opens.

use std::str::FromStr;
use std::time::Duration;

use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};

use super::StoreError;

/// How long an SQLite connection waits for another connection's write lock before failing.
pub(super) const SQLITE_BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// Reading connections to an SQLite file (WAL: readers never wait for the writer).
///
/// Writes have a connection of their own ([`SqliteWrites`]), and only one. SQLite takes one
/// writer at a time, and a connection that finds the write lock taken polls for it with
/// sleeps (its busy handler: 1, 2, 5, 10... up to 100 ms), so several writing connections
/// made the group commit sleep behind a game insert that took a millisecond
/// (docs/performance.md).
pub(super) const SQLITE_READ_CONNECTIONS: u32 = 8;

pub(super) const PG_CONNECTIONS: u32 = 16;

pub(super) const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(15);

/// What a database URL names.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Target {
    SqliteFile,
    SqliteMemory,
    Postgres,
}

pub(super) fn classify(url: &str) -> Result<Target, StoreError> {
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        return Ok(Target::Postgres);
    }
    if let Some(rest) = url.strip_prefix("sqlite:") {
        let rest = rest.strip_prefix("//").unwrap_or(rest);
        let (path, params) = match rest.split_once('?') {
            Some((path, params)) => (path, Some(params)),
            None => (rest, None),
        };
        let memory_mode = params.is_some_and(|p| p.split('&').any(|kv| kv == "mode=memory"));
        if path == ":memory:" || memory_mode {
            return Ok(Target::SqliteMemory);
        }
        if path.is_empty() {
            return Err(StoreError::BadUrl(format!(
                "{url:?} names no SQLite file (use sqlite://PATH or sqlite::memory:)"
            )));
        }
        return Ok(Target::SqliteFile);
    }
    let scheme = url.split_once(':').map_or("", |(scheme, _)| scheme);
    Err(StoreError::BadUrl(format!(
        "unsupported scheme {scheme:?}: expected sqlite::memory:, sqlite://PATH, sqlite:PATH \
         or postgres://..."
    )))
}

pub(super) fn sqlite_options(url: &str) -> Result<SqliteConnectOptions, StoreError> {
    Ok(SqliteConnectOptions::from_str(url)
        .map_err(|e| StoreError::BadUrl(format!("{url:?}: {e}")))?
        .foreign_keys(true)
        .busy_timeout(SQLITE_BUSY_TIMEOUT))
}

/// An in-memory database: the pool's one connection, and a second that the store keeps
/// for its life. sqlx names the database for its options (shared among their
/// connections), and it lives while any connection to it is open; the pool's connection
/// is replaced when a query on it is cut off (a request whose client went away), and
/// without a second one the replacement opened an empty database: every later request
/// failed with "no such table" (seen in the browser suite).
pub(super) async fn open_sqlite_memory(
    url: &str,
) -> Result<(SqlitePool, sqlx::SqliteConnection), StoreError> {
    use sqlx::ConnectOptions;
    let options = sqlite_options(url)?;
    let keeper = options.connect().await?;
    let pool = SqlitePoolOptions::new()
        .max_connections(1)
        .min_connections(1)
        .idle_timeout(None)
        .max_lifetime(None)
        .acquire_timeout(ACQUIRE_TIMEOUT)
        .connect_with(options)
        .await?;
    Ok((pool, keeper))
}

pub(super) async fn open_sqlite_file(
    url: &str,
    connections: u32,
) -> Result<SqlitePool, StoreError> {
    let options = sqlite_options(url)?
        .create_if_missing(true)
        .journal_mode(SqliteJournalMode::Wal)
        .synchronous(SqliteSynchronous::Full);
    Ok(SqlitePoolOptions::new()
        .max_connections(connections)
        .acquire_timeout(ACQUIRE_TIMEOUT)
        .connect_with(options)
        .await?)
}

pub(super) async fn open_postgres(url: &str) -> Result<PgPool, StoreError> {
    // The URL is not repeated in the error: it may hold a password.
    let options = PgConnectOptions::from_str(url)
        .map_err(|e| StoreError::BadUrl(format!("invalid postgres URL: {e}")))?;
    let pool = PgPoolOptions::new()
        .max_connections(PG_CONNECTIONS)
        .acquire_timeout(ACQUIRE_TIMEOUT)
        .connect_with(options)
        .await?;
    Ok(pool)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_classified() {
        assert_eq!(classify("sqlite::memory:").ok(), Some(Target::SqliteMemory));
        assert_eq!(
            classify("sqlite://x.db?mode=memory").ok(),
            Some(Target::SqliteMemory)
        );
        assert_eq!(
            classify("sqlite://omweso.db").ok(),
            Some(Target::SqliteFile)
        );
        assert_eq!(classify("sqlite:omweso.db").ok(), Some(Target::SqliteFile));
        assert_eq!(
            classify("sqlite:///tmp/o.db").ok(),
            Some(Target::SqliteFile)
        );
        assert_eq!(classify("postgres://u@h/db").ok(), Some(Target::Postgres));
        assert_eq!(classify("postgresql://u@h/db").ok(), Some(Target::Postgres));
        for bad in [
            "sqlite:",
            "sqlite://",
            "mysql://u:secret@h/db",
            "omweso.db",
            "",
        ] {
            match classify(bad) {
                Err(StoreError::BadUrl(message)) => assert!(!message.contains("secret")),
                other => panic!("{bad:?} gave {other:?}"),
            }
        }
    }
}
