//! [`SqliteWrites`]: the one connection that writes to an SQLite file, used synchronously
//! on the caller's thread (the [`Writer`](super::Writer)'s own).
//!
//! Why not sqlx for this: sqlx's SQLite driver runs each connection on a worker thread of
//! its own and reaches it through channels, so every statement of a transaction (and the
//! pool's check before handing the connection out, and BEGIN, and COMMIT) is a round trip
//! between two threads. Under load, with both cores busy with sockets, each of those
//! hand-offs waited for the scheduler: a group commit of 30 rows took 4.5 ms, 1.5 to 2 ms
//! of it getting the connection and beginning (docs/performance.md). Here the whole
//! transaction runs on the thread that asked for it, with cached prepared statements, and
//! only the fsync waits. Reads, migrations and PostgreSQL stay on sqlx.

use std::path::Path;
use std::time::{Duration, Instant};

use rusqlite::{params, params_from_iter, Connection, TransactionBehavior};

use super::checkpointer::{passive_checkpoint, Checkpointer};
use super::params::{Param, Statement};
use super::rated::{self, pending_of, rating_from, stored_result, Pending, RecordIo, StoredResult};
use super::rows::{ByKind, Write};
use super::{lease_sql, rating_sql};
use super::{sql, StoreError};
use crate::metrics::METRICS;
use omweso_ratings::Rating;

/// How long a write waits for another connection's lock (a migration, a tool holding the
/// file) before failing.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);
/// Should the checkpointer not get to run (it has the lowest priority, and the machine may
/// be busy), the writer checkpoints on its own this often, so the log cannot grow without
/// bound.
const FINISH_AT_THE_LATEST: Duration = Duration::from_secs(10);
/// The size the log file is cut back to when it starts again (SQLite's
/// `journal_size_limit`), so that one burst does not keep its disk space for ever.
const WAL_FILE_LIMIT_BYTES: i64 = 64 << 20;

/// An SQLite file's write connection: WAL, `synchronous=FULL`, foreign keys enforced, and
/// its log copied back into the database by a [`Checkpointer`] rather than by commits.
#[derive(Debug)]
pub(crate) struct SqliteWrites {
    checkpointer: Checkpointer,
    conn: Connection,
    finished_at: Instant,
}

impl SqliteWrites {
    /// Opens the database file at `path`, which must exist with its schema migrated (the
    /// store's sqlx pool does that first), and starts its [`Checkpointer`].
    pub(crate) fn open(path: &Path) -> Result<SqliteWrites, StoreError> {
        let conn = Connection::open(path)?;
        conn.busy_timeout(BUSY_TIMEOUT)?;
        // journal_mode answers with the mode now in force; WAL is what makes a commit one
        // append and one fsync, and lets the readers go on while it happens.
        let mode: String = conn.query_row("PRAGMA journal_mode = WAL", [], |row| row.get(0))?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(StoreError::Unsupported(format!(
                "{}: the database stays in journal mode {mode:?}, not WAL",
                path.display()
            )));
        }
        // FULL: the log is fsynced at every commit, so a committed move survives a power
        // loss too, not only a crash of the process (see `Store`).
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        // Commits never checkpoint: the checkpointer and `finish_checkpoint` do.
        conn.pragma_update(None, "wal_autocheckpoint", 0)?;
        conn.pragma_update(None, "journal_size_limit", WAL_FILE_LIMIT_BYTES)?;
        let checkpointer = Checkpointer::start(path)?;
        Ok(SqliteWrites {
            checkpointer,
            conn,
            finished_at: Instant::now(),
        })
    }

    /// Stops the checkpointer, then closes the connection. (The store's read connections
    /// close after it; the last of them copies the whole log back and removes it.)
    pub(crate) fn close(mut self) {
        self.checkpointer.stop();
        if let Err((_, error)) = self.conn.close() {
            tracing::warn!(%error, "closing the SQLite write connection");
        }
    }

    /// Called by the writer after each commit: when the checkpointer has made a pass (or
    /// has not been heard from for [`FINISH_AT_THE_LATEST`]), copies the rest of the log
    /// into the database file, so that the log starts again from its beginning. Between
    /// two commits of the only writer nothing is appended meanwhile, and as the
    /// checkpointer has just copied nearly everything, little is left: about what was
    /// committed during its pass.
    pub(crate) fn finish_checkpoint(&mut self) {
        let asked = self.checkpointer.take_finish_request();
        if !asked && self.finished_at.elapsed() < FINISH_AT_THE_LATEST {
            return;
        }
        let started = Instant::now();
        let result = passive_checkpoint(&self.conn);
        METRICS.database_checkpoint.observe(started.elapsed());
        match result {
            // The checkpointer is in the middle of a pass (starved, at its priority):
            // try again after the next commit rather than in another 10 s.
            Ok(progress) if progress.busy => {}
            // Incomplete only if a reader still uses the log's end; the next pass asks
            // again.
            Ok(_) => self.finished_at = started,
            Err(error) => {
                self.finished_at = started;
                tracing::warn!(%error, "SQLite checkpoint failed; will retry");
            }
        }
    }

    /// Applies `writes` in one transaction (see [`Store::write`](super::Store::write) for
    /// the order and the refusals); returns once it is durably committed. On any error the
    /// transaction is rolled back and nothing is written.
    pub(crate) fn write(&mut self, writes: &[Write]) -> Result<(), StoreError> {
        if writes.is_empty() {
            return Ok(());
        }
        let by_kind = ByKind::of(writes);
        // IMMEDIATE takes the write lock at BEGIN, so the transaction cannot fail halfway
        // for want of it; dropping `tx` unfinished rolls it back.
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        // First, before anything is written. This connection is the file's only writer
        // and holds its lock from BEGIN, so no takeover can commit until this ends.
        if !by_kind.fences.is_empty() {
            let mut check = tx.prepare_cached(lease_sql::FENCE_SQLITE)?;
            for lease in by_kind.fences {
                let held = check.exists(params![
                    lease.kind.as_str(),
                    lease.id.to_string(),
                    lease.node.to_string(),
                    lease.epoch
                ])?;
                if !held {
                    return Err(lease_sql::fenced(lease));
                }
            }
        }
        let statements = by_kind
            .sessions
            .iter()
            .flat_map(|s| s.insert_statements())
            .chain(by_kind.session_changes.iter().flat_map(|c| c.statements()));
        for statement in statements {
            let changed =
                execute_by_name(&mut tx.prepare_cached(statement.sql)?, &statement.params)?;
            if let (0, Some(what)) = (changed, statement.must_change) {
                return Err(StoreError::NotFound(what.to_owned()));
            }
        }
        if !by_kind.games.is_empty() {
            let mut insert = tx.prepare_cached(sql::INSERT_GAME)?;
            for g in by_kind.games {
                insert.execute(params_from_iter(g.insert_params()))?;
            }
        }
        if !by_kind.tournaments.is_empty() {
            let mut insert = tx.prepare_cached(sql::INSERT_TOURNAMENT)?;
            for t in by_kind.tournaments {
                insert.execute(params_from_iter(t.insert_params()))?;
            }
        }
        if !by_kind.actions.is_empty() {
            // One row a statement: in-process, a prepared insert costs a few microseconds,
            // and there is no round trip to save by batching rows.
            let mut insert = tx.prepare_cached(sql::insert_actions(1, false))?;
            for a in by_kind.actions {
                insert.execute(params_from_iter(a.insert_params()))?;
            }
        }
        if !by_kind.tournament_entries.is_empty() {
            let mut insert = tx.prepare_cached(sql::INSERT_TOURNAMENT_ENTRY)?;
            for e in by_kind.tournament_entries {
                insert.execute(params_from_iter(e.insert_params()))?;
            }
        }
        if !by_kind.game_updates.is_empty() {
            let mut update = tx.prepare_cached(sql::UPDATE_GAME)?;
            for g in by_kind.game_updates {
                if execute_by_name(&mut update, &g.update_params())? == 0 {
                    return Err(StoreError::NotFound(format!("game {}", g.id)));
                }
            }
        }
        if !by_kind.tournament_updates.is_empty() {
            let mut update = tx.prepare_cached(sql::UPDATE_TOURNAMENT)?;
            for t in by_kind.tournament_updates {
                if execute_by_name(&mut update, &t.update_params())? == 0 {
                    return Err(StoreError::NotFound(format!("tournament {}", t.id)));
                }
            }
        }
        for write in by_kind.rates {
            rated::ready(rated::apply(&mut RusqliteRecord(&tx), write))?;
        }
        for id in by_kind.deletions {
            for statement in [sql::DELETE_GAME_ACTIONS, sql::DELETE_GAME] {
                tx.prepare_cached(statement)?
                    .execute(params![id.to_string()])?;
            }
        }
        for id in by_kind.tournament_deletions {
            for statement in [
                sql::DELETE_TOURNAMENT_LOG,
                sql::DELETE_TOURNAMENT_PEOPLE,
                sql::DELETE_TOURNAMENT,
            ] {
                tx.prepare_cached(statement)?
                    .execute(params![id.to_string()])?;
            }
        }
        tx.commit()?;
        Ok(())
    }
}

impl SqliteWrites {
    /// Runs `work` in one transaction of this connection (IMMEDIATE: it holds the file's
    /// write lock from the start, so what it reads stays true until it commits); commits
    /// when `work` succeeds, rolls back when it fails. For the statements that are not
    /// [`Write`]s: the nodes' heartbeats and the leases (`db/leases.rs`).
    pub(crate) fn transaction<T>(
        &mut self,
        work: impl FnOnce(&rusqlite::Transaction<'_>) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let done = work(&tx)?;
        tx.commit()?;
        Ok(done)
    }
}

/// Runs `statement` with `values` bound to its `$1`, `$2`, ... by name rather than by
/// position: SQLite numbers `$N` parameters in the order they first appear in the text,
/// and in the updates `$1` (the id) comes last, in the WHERE clause. Returns the number of
/// rows changed.
pub(crate) fn execute_by_name(
    statement: &mut rusqlite::CachedStatement<'_>,
    values: &[Param<'_>],
) -> rusqlite::Result<usize> {
    let names: Vec<String> = (1..=values.len()).map(|i| format!("${i}")).collect();
    let named: Vec<(&str, &dyn rusqlite::ToSql)> = names
        .iter()
        .zip(values)
        .map(|(name, value)| (name.as_str(), value as &dyn rusqlite::ToSql))
        .collect();
    statement.execute(&named[..])
}

/// The SQLite file's side of [`RecordIo`]: its transaction, every step a blocking call (so
/// every future is ready when first polled; [`rated::ready`] runs them).
struct RusqliteRecord<'a>(&'a rusqlite::Transaction<'a>);

impl RecordIo for RusqliteRecord<'_> {
    const ANONYMOUS_PLACEHOLDERS: bool = true;

    async fn take_seq(&mut self) -> Result<i64, StoreError> {
        Ok(self
            .0
            .prepare_cached(rating_sql::TAKE_SEQ)?
            .query_row([], |row| row.get(0))?)
    }

    async fn find(&mut self, key: uuid::Uuid) -> Result<Option<StoredResult>, StoreError> {
        let mut query = self.0.prepare_cached(&rating_sql::FIND_RESULT)?;
        let mut rows = query.query(params![key.to_string()])?;
        match rows.next()? {
            Some(row) => result_of(row).map(Some),
            None => Ok(None),
        }
    }

    async fn results_from(
        &mut self,
        ruleset: &str,
        seq: i64,
        limit: i64,
    ) -> Result<Vec<StoredResult>, StoreError> {
        let mut query = self.0.prepare_cached(&rating_sql::RESULTS_FROM)?;
        let mut rows = query.query(params![ruleset, seq, limit])?;
        let mut found = Vec::new();
        while let Some(row) = rows.next()? {
            found.push(result_of(row)?);
        }
        Ok(found)
    }

    async fn pair_counted(
        &mut self,
        ruleset: &str,
        (a, b): (uuid::Uuid, uuid::Uuid),
        (since, until): (i64, i64),
    ) -> Result<i64, StoreError> {
        let mut query = self.0.prepare_cached(rating_sql::PAIR_COUNTED_SINCE)?;
        let (a, b) = (a.to_string(), b.to_string());
        Ok(query.query_row(params![ruleset, a, b, b, a, since, until], |row| row.get(0))?)
    }

    async fn pending(&mut self, ruleset: &str) -> Result<Option<Pending>, StoreError> {
        let mut query = self.0.prepare_cached(rating_sql::PENDING)?;
        let mut rows = query.query(params![ruleset])?;
        match rows.next()? {
            Some(row) => {
                let also: String = row.get(1)?;
                pending_of(row.get(0)?, &also).map(Some)
            }
            None => Ok(None),
        }
    }

    async fn ratings_before(
        &mut self,
        ruleset: &str,
        seq: i64,
        persons: &[uuid::Uuid],
    ) -> Result<Vec<(uuid::Uuid, Rating)>, StoreError> {
        if persons.is_empty() {
            return Ok(Vec::new());
        }
        let mut query = self
            .0
            .prepare(&rating_sql::states_before(persons.len(), true))?;
        let params: Vec<Box<dyn rusqlite::ToSql>> = [
            Box::new(ruleset.to_owned()) as Box<dyn rusqlite::ToSql>,
            Box::new(seq),
        ]
        .into_iter()
        .chain(
            persons
                .iter()
                .map(|p| Box::new(p.to_string()) as Box<dyn rusqlite::ToSql>),
        )
        .collect();
        let mut rows = query.query(params_from_iter(params))?;
        let mut found = Vec::new();
        while let Some(row) = rows.next()? {
            let text: String = row.get(0)?;
            let person = uuid::Uuid::parse_str(&text).map_err(|e| {
                StoreError::Corrupt(format!(
                    "rating_history.person: {text:?} is not a UUID: {e}"
                ))
            })?;
            let rating = rating_from(
                row.get(1)?,
                row.get(2)?,
                row.get(3)?,
                row.get(4)?,
                row.get(5)?,
            )?;
            found.push((person, rating));
        }
        Ok(found)
    }

    async fn rated_persons(&mut self, ruleset: &str) -> Result<Vec<uuid::Uuid>, StoreError> {
        let mut query = self.0.prepare_cached(rating_sql::RATED_PERSONS)?;
        let mut rows = query.query(params![ruleset])?;
        let mut found = Vec::new();
        while let Some(row) = rows.next()? {
            let text: String = row.get(0)?;
            found.push(uuid::Uuid::parse_str(&text).map_err(|e| {
                StoreError::Corrupt(format!("ratings.person: {text:?} is not a UUID: {e}"))
            })?);
        }
        Ok(found)
    }

    async fn run(&mut self, statement: Statement) -> Result<u64, StoreError> {
        let changed = execute_by_name(
            &mut self.0.prepare_cached(statement.sql)?,
            &statement.params,
        )?;
        Ok(changed as u64)
    }

    async fn run_in_order(
        &mut self,
        sql: &str,
        params: Vec<Param<'static>>,
    ) -> Result<u64, StoreError> {
        // By position, not by name as `run`: SQLite finds a name by a scan of all of them,
        // quadratic in a statement of thousands. Not cached: each size is its own text.
        let changed = self.0.prepare(sql)?.execute(params_from_iter(params))?;
        Ok(changed as u64)
    }
}

/// A rated result from a row of `rating_sql::RESULT_COLUMNS`, in their order.
fn result_of(row: &rusqlite::Row<'_>) -> Result<StoredResult, StoreError> {
    let key: String = row.get(0)?;
    let south: String = row.get(3)?;
    let north: String = row.get(4)?;
    stored_result(
        &key,
        row.get(1)?,
        row.get(2)?,
        &south,
        &north,
        (row.get(5)?, row.get(7)?),
        row.get(6)?,
    )
}
