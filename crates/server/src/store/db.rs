//! [`Store`]: the database, SQLite or PostgreSQL, behind one API.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use sqlx::postgres::PgPool;
use sqlx::sqlite::SqlitePool;
use uuid::Uuid;

use super::connect::{
    classify, open_postgres, open_sqlite_file, open_sqlite_memory, sqlite_options, Target,
    SQLITE_READ_CONNECTIONS,
};
use super::params::bind_params;
use super::rows::{
    ActionRow, ByKind, GameRow, SessionRow, TournamentEntryRow, TournamentRow, Write,
};
use super::sql::MAX_ROWS_PER_INSERT;
use super::sqlite_writes::SqliteWrites;
use super::{lease_sql, migrations, sql, StoreError};

/// The server's database: sessions, games and every game's action log, tournaments and
/// every tournament's log.
///
/// Cheap to clone (the connection pool is shared). Open it with [`Store::open`]; it runs the
/// migrations first.
///
/// # SQLite durability
///
/// An SQLite file is opened in WAL mode with `synchronous=FULL`: every commit fsyncs the
/// write-ahead log before it returns, so a committed action survives a process crash *and*
/// an OS crash or power loss. That is what "a move is durable before it is acknowledged"
/// asks. `synchronous=NORMAL` (with WAL) would also survive a process crash, but could lose
/// the last transactions to a power loss while the players were already told their moves
/// were played. The price of FULL is one fsync per transaction, which the
/// [`Writer`](super::Writer) spreads over every action that arrives meanwhile (group
/// commit). Foreign keys are enforced, the busy timeout is 10 s, and the file is created if
/// missing. Every write goes through one connection, used synchronously by the thread that
/// writes (see `sqlite_writes.rs` for why it is not sqlx's), reads through a pool of their
/// own (see `SQLITE_READ_CONNECTIONS`).
///
/// `sqlite::memory:` holds the database in a single connection that is never recycled (an
/// in-memory SQLite database lives only as long as its connection): good for tests and
/// throwaway servers, gone when the process ends.
#[derive(Clone, Debug)]
pub struct Store {
    /// Queries, and the migrations.
    pub(crate) reads: Pool,
    /// Inserts and updates.
    writes: Writes,
    /// An in-memory database's second connection, which keeps it alive when the pool
    /// replaces its own (`connect::open_sqlite_memory`); closed with the store.
    memory_keeper: Option<Arc<Mutex<Option<sqlx::SqliteConnection>>>>,
}

/// Where a store's writes go.
#[derive(Clone, Debug)]
enum Writes {
    /// The same pool as the reads: PostgreSQL, and an in-memory SQLite database (whose
    /// one connection is the database).
    Pool(Pool),
    /// An SQLite file: its one write connection, taken out (`None`) when the store is
    /// closed. The lock is held for a transaction, a finishing checkpoint, or closing, and
    /// only ever by a thread that may block (the writer's, or `spawn_blocking`'s).
    SqliteFile(Arc<Mutex<Option<SqliteWrites>>>),
}

/// The read pool of either backend: what a concern's queries (`impl Store` in its own
/// folder) run on, through [`with_pool!`].
#[derive(Clone, Debug)]
pub(crate) enum Pool {
    Sqlite(SqlitePool),
    Postgres(PgPool),
}

/// How long closing the store waits for read connections still lent out.
const POOL_CLOSE_WAIT: std::time::Duration = std::time::Duration::from_secs(3);

/// Runs the same code against a [`Pool`] of either backend: the body is compiled once per
/// backend, with `$pool` bound to a `&SqlitePool` or a `&PgPool`. Named by the concerns
/// whose queries sit in their own folders (`archive/store.rs`, `people/store.rs`).
macro_rules! with_pool {
    ($which:expr, $pool:ident => $body:expr) => {
        match $which {
            $crate::store::db::Pool::Sqlite($pool) => $body,
            $crate::store::db::Pool::Postgres($pool) => $body,
        }
    };
}
pub(crate) use with_pool;

mod leases;

impl Store {
    /// Opens the database at `url` and brings its schema up to date.
    ///
    /// `url` is `sqlite::memory:`, `sqlite://PATH` or `sqlite:PATH` (the file is created if
    /// missing), or `postgres://...` / `postgresql://...`.
    ///
    /// Refuses, with [`StoreError::TooNew`], a database that a newer server has migrated
    /// (an applied migration newer than the newest this binary embeds), before touching it.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        let target = classify(url)?;
        let mut memory_keeper = None;
        let reads = match target {
            // Creates the file and switches it to WAL.
            Target::SqliteFile => {
                Pool::Sqlite(open_sqlite_file(url, SQLITE_READ_CONNECTIONS).await?)
            }
            Target::SqliteMemory => {
                let (pool, keeper) = open_sqlite_memory(url).await?;
                memory_keeper = Some(Arc::new(Mutex::new(Some(keeper))));
                Pool::Sqlite(pool)
            }
            Target::Postgres => Pool::Postgres(open_postgres(url).await?),
        };
        let mut store = Store {
            reads: reads.clone(),
            writes: Writes::Pool(reads),
            memory_keeper,
        };
        if let Err(e) = store.migrate().await {
            store.close().await;
            return Err(e);
        }
        if target == Target::SqliteFile {
            // Opened once the schema is there: it only ever inserts and updates.
            let path = sqlite_options(url)?.get_filename().to_owned();
            let opened = tokio::task::spawn_blocking(move || SqliteWrites::open(&path)).await;
            match opened {
                Ok(Ok(writes)) => {
                    store.writes = Writes::SqliteFile(Arc::new(Mutex::new(Some(writes))));
                }
                Ok(Err(e)) => {
                    store.close().await;
                    return Err(e);
                }
                Err(join) if join.is_panic() => std::panic::resume_unwind(join.into_panic()),
                Err(_) => {
                    // The runtime is shutting down.
                    store.close().await;
                    return Err(StoreError::Closed);
                }
            }
        }
        tracing::info!(backend = store.backend(), "database ready");
        Ok(store)
    }

    async fn migrate(&self) -> Result<(), StoreError> {
        let known = migrations::newest_known();
        if let Some(found) = self.newest_applied_migration().await? {
            if found > known {
                return Err(StoreError::TooNew { found, known });
            }
        }
        let migrator = migrations::migrator().await?;
        with_pool!(&self.reads, pool => migrator.run(pool).await?);
        Ok(())
    }

    /// The newest version recorded in `_sqlx_migrations`, or `None` for a database that has
    /// never been migrated.
    async fn newest_applied_migration(&self) -> Result<Option<i64>, StoreError> {
        let has_table: i64 = match &self.reads {
            Pool::Sqlite(pool) => {
                sqlx::query_scalar(sql::SQLITE_HAS_MIGRATIONS_TABLE)
                    .fetch_one(pool)
                    .await?
            }
            Pool::Postgres(pool) => {
                sqlx::query_scalar(sql::PG_HAS_MIGRATIONS_TABLE)
                    .fetch_one(pool)
                    .await?
            }
        };
        if has_table == 0 {
            return Ok(None);
        }
        let newest: Option<i64> = with_pool!(&self.reads, pool => {
            sqlx::query_scalar(sql::NEWEST_APPLIED_MIGRATION).fetch_one(pool).await?
        });
        Ok(newest)
    }

    /// Closes every connection, waiting for those in use to be returned. (For an
    /// `sqlite::memory:` store this discards the data.)
    pub async fn close(&self) {
        if let Writes::SqliteFile(file) = &self.writes {
            // Closing joins the checkpointer and closes a connection: blocking, so off the
            // runtime's workers (and the lock may wait for a commit in progress). The last
            // read connection to close, below, copies the log back and removes it.
            let file = Arc::clone(file);
            let closed = tokio::task::spawn_blocking(move || {
                let writes = file.lock().unwrap_or_else(PoisonError::into_inner).take();
                if let Some(writes) = writes {
                    writes.close();
                }
            });
            if let Err(join) = closed.await {
                if join.is_panic() {
                    std::panic::resume_unwind(join.into_panic());
                }
            }
        }
        // Closing waits for every connection lent out to come back. Everything written is
        // committed by now (the writer stopped first), so a read still holding one (a slow
        // export, a load cut short) must not hold the process: it is closed on return.
        let closed = with_pool!(&self.reads, pool => {
            tokio::time::timeout(POOL_CLOSE_WAIT, pool.close()).await
        });
        if closed.is_err() {
            tracing::warn!(
                seconds = POOL_CLOSE_WAIT.as_secs(),
                "a read connection was still lent out when the store closed"
            );
        }
        let keeper = self
            .memory_keeper
            .as_ref()
            .and_then(|keeper| keeper.lock().unwrap_or_else(PoisonError::into_inner).take());
        if let Some(keeper) = keeper {
            use sqlx::Connection;
            let _ = keeper.close().await;
        }
    }

    /// `"sqlite"` or `"postgres"`.
    pub fn backend(&self) -> &'static str {
        match self.reads {
            Pool::Sqlite(_) => "sqlite",
            Pool::Postgres(_) => "postgres",
        }
    }

    /// Runs a trivial query and returns how long it took (for health checks).
    pub async fn ping(&self) -> Result<Duration, StoreError> {
        let start = Instant::now();
        with_pool!(&self.reads, pool => {
            sqlx::query(sql::PING).fetch_one(pool).await?;
        });
        Ok(start.elapsed())
    }

    // ----- sessions -----

    /// Stores a new guest person with its first device. An id or `token_hash` already
    /// present is refused ([`StoreError::is_conflict`]).
    pub async fn insert_session(&self, s: &SessionRow) -> Result<(), StoreError> {
        self.write(&[Write::InsertSession(s.clone())]).await
    }

    /// The device session whose token hashes to `token_hash` ([`hash_token`](super::hash_token)),
    /// with its person; none for a disabled account.
    pub async fn session_by_token_hash(
        &self,
        token_hash: &str,
    ) -> Result<Option<SessionRow>, StoreError> {
        with_pool!(&self.reads, pool => {
            let row = sqlx::query(sql::SESSION_BY_TOKEN_HASH)
                .bind(token_hash)
                .fetch_optional(pool)
                .await?;
            row.as_ref().map(SessionRow::from_row).transpose()
        })
    }

    // ----- games -----

    /// Stores a new game. An id already present is refused ([`StoreError::is_conflict`]).
    pub async fn insert_game(&self, g: &GameRow) -> Result<(), StoreError> {
        self.write(&[Write::InsertGame(g.clone())]).await
    }

    /// Rewrites the game `g.id`: every column but the immutable `id`, `creator` and
    /// `created_at_ms`. [`StoreError::NotFound`] if there is no such game.
    pub async fn update_game(&self, g: &GameRow) -> Result<(), StoreError> {
        self.write(&[Write::UpdateGame(g.clone())]).await
    }

    /// Applies `writes` in one transaction: either all of them are committed or none is.
    /// Returns once the transaction is committed (durably: see [`Store`]).
    ///
    /// They are applied by kind, whatever their order in the slice: sessions, new games,
    /// new tournaments, games' log entries, tournaments' log entries, game updates,
    /// tournament updates, then deletions, so a game or tournament created in the same
    /// call is there before its log and its updates (the [`Writer`](super::Writer) merges
    /// many callers' writes into one call, and no write ever depends on a later one).
    /// A [`Write::Fence`] is checked before all of them: the whole call is refused
    /// ([`StoreError::Fenced`]) when its lease is no longer current.
    /// Refused as a whole, with nothing written, when any one is: a key already taken
    /// ([`StoreError::is_conflict`]: a session, game or tournament id, a `(game_id, seq)`
    /// or `(tournament_id, seq)`), a log entry of an unknown game or tournament, an update
    /// of a game or tournament that does not exist ([`StoreError::NotFound`]).
    pub async fn write(&self, writes: &[Write]) -> Result<(), StoreError> {
        if writes.is_empty() {
            return Ok(());
        }
        match &self.writes {
            Writes::Pool(pool) => write_pool(pool, writes).await,
            Writes::SqliteFile(file) => {
                // The connection blocks: off the runtime's workers.
                let file = Arc::clone(file);
                let writes = writes.to_vec();
                let written = tokio::task::spawn_blocking(move || {
                    let result = write_file(&file, &writes);
                    finish_checkpoint(&file);
                    result
                });
                match written.await {
                    Ok(result) => result,
                    Err(join) if join.is_panic() => std::panic::resume_unwind(join.into_panic()),
                    Err(_) => Err(StoreError::Closed),
                }
            }
        }
    }

    /// [`write`](Store::write) for a thread that may block (the [`Writer`](super::Writer)'s):
    /// an SQLite file is written on this very thread, with no hand-off to another; the
    /// other databases are driven on `runtime`.
    pub(crate) fn write_blocking(
        &self,
        writes: &[Write],
        runtime: &tokio::runtime::Handle,
    ) -> Result<(), StoreError> {
        if writes.is_empty() {
            return Ok(());
        }
        match &self.writes {
            Writes::SqliteFile(file) => write_file(file, writes),
            Writes::Pool(_) => runtime.block_on(self.write(writes)),
        }
    }

    /// Called by the [`Writer`](super::Writer) after each commit, on its thread: the
    /// housekeeping that must happen between two commits (for an SQLite file, finishing
    /// a checkpoint now and then; see `SqliteWrites::finish_checkpoint`).
    pub(crate) fn after_commit_blocking(&self) {
        if let Writes::SqliteFile(file) = &self.writes {
            finish_checkpoint(file);
        }
    }

    /// The game `id`, if stored.
    pub async fn game(&self, id: Uuid) -> Result<Option<GameRow>, StoreError> {
        let text = sql::game_by_id();
        with_pool!(&self.reads, pool => {
            let row = sqlx::query(&text)
                .bind(id.to_string())
                .fetch_optional(pool)
                .await?;
            row.as_ref().map(GameRow::from_row).transpose()
        })
    }

    /// Every game whose status is neither `finished` nor `annulled`, oldest first: the games
    /// to bring back after a restart.
    pub async fn unfinished_games(&self) -> Result<Vec<GameRow>, StoreError> {
        let text = sql::unfinished_games();
        with_pool!(&self.reads, pool => {
            let rows = sqlx::query(&text).fetch_all(pool).await?;
            rows.iter().map(GameRow::from_row).collect()
        })
    }

    /// At most `limit` games whose status is one of `statuses`, newest (by creation) first.
    /// No statuses or a `limit` below 1 give an empty list.
    pub async fn recent_games(
        &self,
        statuses: &[&str],
        limit: i64,
    ) -> Result<Vec<GameRow>, StoreError> {
        if statuses.is_empty() || limit < 1 {
            return Ok(Vec::new());
        }
        let text = sql::recent_games(statuses.len());
        with_pool!(&self.reads, pool => {
            let mut query = sqlx::query(&text);
            for status in statuses {
                query = query.bind(*status);
            }
            let rows = query.bind(limit).fetch_all(pool).await?;
            rows.iter().map(GameRow::from_row).collect()
        })
    }

    // ----- actions -----

    /// Appends `actions` (to one game or several) in a single transaction: either every row
    /// is committed or none is. A `(game_id, seq)` already present, or twice in the slice,
    /// refuses the whole call ([`StoreError::is_conflict`]); an unknown `game_id` too.
    /// Returns once the transaction is committed (durably: see [`Store`]).
    pub async fn append_actions(&self, actions: &[ActionRow]) -> Result<(), StoreError> {
        let writes: Vec<Write> = actions.iter().cloned().map(Write::AppendAction).collect();
        self.write(&writes).await
    }

    /// The whole log of the game `game_id`, by `seq`.
    pub async fn actions(&self, game_id: Uuid) -> Result<Vec<ActionRow>, StoreError> {
        with_pool!(&self.reads, pool => {
            let rows = sqlx::query(sql::ACTIONS_OF_GAME)
                .bind(game_id.to_string())
                .fetch_all(pool)
                .await?;
            rows.iter().map(ActionRow::from_row).collect()
        })
    }

    // ----- tournaments -----

    /// Stores a new tournament. An id already present is refused
    /// ([`StoreError::is_conflict`]).
    pub async fn insert_tournament(&self, t: &TournamentRow) -> Result<(), StoreError> {
        self.write(&[Write::InsertTournament(t.clone())]).await
    }

    /// Rewrites the tournament `t.id`: every column but the immutable `id`, `director` and
    /// `created_at_ms`. [`StoreError::NotFound`] if there is no such tournament.
    pub async fn update_tournament(&self, t: &TournamentRow) -> Result<(), StoreError> {
        self.write(&[Write::UpdateTournament(t.clone())]).await
    }

    /// Appends `entries` (to one tournament's log or several) in a single transaction:
    /// either every one is committed or none is. A `(tournament_id, seq)` already present,
    /// or twice in the slice, refuses the whole call ([`StoreError::is_conflict`]); an
    /// unknown `tournament_id` too.
    pub async fn append_tournament_entries(
        &self,
        entries: &[TournamentEntryRow],
    ) -> Result<(), StoreError> {
        let writes: Vec<Write> = entries
            .iter()
            .cloned()
            .map(Write::AppendTournamentEntry)
            .collect();
        self.write(&writes).await
    }

    /// The tournament `id`, if stored.
    pub async fn tournament(&self, id: Uuid) -> Result<Option<TournamentRow>, StoreError> {
        let text = sql::tournament_by_id();
        with_pool!(&self.reads, pool => {
            let row = sqlx::query(&text)
                .bind(id.to_string())
                .fetch_optional(pool)
                .await?;
            row.as_ref().map(TournamentRow::from_row).transpose()
        })
    }

    /// At most `limit` tournaments whose status is one of `statuses`, newest (by creation)
    /// first. No statuses or a `limit` below 1 give an empty list.
    pub async fn tournaments(
        &self,
        statuses: &[&str],
        limit: i64,
    ) -> Result<Vec<TournamentRow>, StoreError> {
        if statuses.is_empty() || limit < 1 {
            return Ok(Vec::new());
        }
        let text = sql::recent_tournaments(statuses.len());
        with_pool!(&self.reads, pool => {
            let mut query = sqlx::query(&text);
            for status in statuses {
                query = query.bind(*status);
            }
            let rows = query.bind(limit).fetch_all(pool).await?;
            rows.iter().map(TournamentRow::from_row).collect()
        })
    }

    /// Every tournament not `finished`, oldest first: the tournaments to bring back after
    /// a restart.
    pub async fn unfinished_tournaments(&self) -> Result<Vec<TournamentRow>, StoreError> {
        let text = sql::unfinished_tournaments();
        with_pool!(&self.reads, pool => {
            let rows = sqlx::query(&text).fetch_all(pool).await?;
            rows.iter().map(TournamentRow::from_row).collect()
        })
    }

    /// How many tournaments are unfinished (open or running): in all, and directed by
    /// `director`.
    pub async fn unfinished_tournament_counts(
        &self,
        director: Uuid,
    ) -> Result<(u64, u64), StoreError> {
        with_pool!(&self.reads, pool => {
            let row = sqlx::query(sql::UNFINISHED_TOURNAMENT_COUNTS)
                .bind(director.to_string())
                .fetch_one(pool)
                .await?;
            let all: i64 = sqlx::Row::try_get(&row, 0)?;
            let mine: i64 = sqlx::Row::try_get(&row, 1)?;
            Ok((u64::try_from(all).unwrap_or(0), u64::try_from(mine).unwrap_or(0)))
        })
    }

    /// The whole log of the tournament `id`, by `seq`.
    pub async fn tournament_log(&self, id: Uuid) -> Result<Vec<TournamentEntryRow>, StoreError> {
        with_pool!(&self.reads, pool => {
            let rows = sqlx::query(sql::TOURNAMENT_LOG)
                .bind(id.to_string())
                .fetch_all(pool)
                .await?;
            rows.iter().map(TournamentEntryRow::from_row).collect()
        })
    }
}

/// [`Store::write`] through sqlx: one round trip per statement, so actions go in multi-row
/// inserts.
async fn write_pool(pool: &Pool, writes: &[Write]) -> Result<(), StoreError> {
    let numbered = matches!(pool, Pool::Postgres(_));
    let by_kind = ByKind::of(writes);
    with_pool!(pool, pool => {
        // On any error `tx` is dropped unfinished, which rolls the transaction back.
        let mut tx = pool.begin().await?;
        // First, before anything is written (see `lease_sql::FENCE_POSTGRES` for the lock).
        let fence = if numbered {
            lease_sql::FENCE_POSTGRES
        } else {
            lease_sql::FENCE_SQLITE
        };
        for lease in &by_kind.fences {
            let held = sqlx::query(fence)
                .bind(lease.kind.as_str())
                .bind(lease.id.to_string())
                .bind(lease.node.to_string())
                .bind(lease.epoch)
                .fetch_optional(&mut *tx)
                .await?;
            if held.is_none() {
                return Err(lease_sql::fenced(lease));
            }
        }
        let statements = by_kind
            .sessions
            .iter()
            .flat_map(|s| s.insert_statements())
            .chain(by_kind.session_changes.iter().flat_map(|c| c.statements()));
        for statement in statements {
            let changed = bind_params!(sqlx::query(statement.sql), statement.params)
                .execute(&mut *tx)
                .await?
                .rows_affected();
            if let (0, Some(what)) = (changed, statement.must_change) {
                return Err(StoreError::NotFound(what.to_owned()));
            }
        }
        for g in &by_kind.games {
            bind_params!(sqlx::query(sql::INSERT_GAME), g.insert_params())
                .execute(&mut *tx)
                .await?;
        }
        for t in &by_kind.tournaments {
            bind_params!(sqlx::query(sql::INSERT_TOURNAMENT), t.insert_params())
                .execute(&mut *tx)
                .await?;
        }
        let mut rest = &by_kind.actions[..];
        while !rest.is_empty() {
            let n = insert_size(rest.len());
            let (chunk, tail) = rest.split_at(n);
            rest = tail;
            let params = chunk.iter().flat_map(|a| a.insert_params());
            bind_params!(sqlx::query(sql::insert_actions(n, numbered)), params)
                .execute(&mut *tx)
                .await?;
        }
        for e in &by_kind.tournament_entries {
            bind_params!(sqlx::query(sql::INSERT_TOURNAMENT_ENTRY), e.insert_params())
                .execute(&mut *tx)
                .await?;
        }
        for g in &by_kind.game_updates {
            let updated = bind_params!(sqlx::query(sql::UPDATE_GAME), g.update_params())
                .execute(&mut *tx)
                .await?
                .rows_affected();
            if updated == 0 {
                return Err(StoreError::NotFound(format!("game {}", g.id)));
            }
        }
        for t in &by_kind.tournament_updates {
            let updated = bind_params!(sqlx::query(sql::UPDATE_TOURNAMENT), t.update_params())
                .execute(&mut *tx)
                .await?
                .rows_affected();
            if updated == 0 {
                return Err(StoreError::NotFound(format!("tournament {}", t.id)));
            }
        }
        for write in &by_kind.rates {
            super::rated::apply(&mut super::rated_sqlx::SqlxRecord(&mut *tx), write).await?;
        }
        for id in &by_kind.deletions {
            for statement in [sql::DELETE_GAME_ACTIONS, sql::DELETE_GAME] {
                sqlx::query(statement)
                    .bind(id.to_string())
                    .execute(&mut *tx)
                    .await?;
            }
        }
        for id in &by_kind.tournament_deletions {
            for statement in [
                sql::DELETE_TOURNAMENT_LOG,
                sql::DELETE_TOURNAMENT_PEOPLE,
                sql::DELETE_TOURNAMENT,
            ] {
                sqlx::query(statement)
                    .bind(id.to_string())
                    .execute(&mut *tx)
                    .await?;
            }
        }
        tx.commit().await?;
    });
    Ok(())
}

/// After a commit on an SQLite file: see `SqliteWrites::finish_checkpoint`.
fn finish_checkpoint(file: &Mutex<Option<SqliteWrites>>) {
    if let Some(writes) = file.lock().unwrap_or_else(PoisonError::into_inner).as_mut() {
        writes.finish_checkpoint();
    }
}

/// [`Store::write`] on an SQLite file's own write connection, on this thread.
fn write_file(file: &Mutex<Option<SqliteWrites>>, writes: &[Write]) -> Result<(), StoreError> {
    let mut file = file.lock().unwrap_or_else(PoisonError::into_inner);
    match file.as_mut() {
        Some(connection) => connection.write(writes),
        None => Err(StoreError::Closed),
    }
}

/// The number of rows for the next INSERT: the largest power of two, at most
/// [`MAX_ROWS_PER_INSERT`], not above `remaining`.
fn insert_size(remaining: usize) -> usize {
    if remaining >= MAX_ROWS_PER_INSERT {
        MAX_ROWS_PER_INSERT
    } else {
        // remaining >= 1 here, so ilog2 is defined.
        1 << remaining.ilog2()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inserts_are_cut_in_powers_of_two() {
        let mut sizes = Vec::new();
        let mut rest = 256 + 37;
        while rest > 0 {
            let n = insert_size(rest);
            sizes.push(n);
            rest -= n;
        }
        assert_eq!(sizes, [128, 128, 32, 4, 1]);
    }

    /// The pool's one connection to an in-memory database closed (as sqlx closes one whose
    /// query was cut off): its replacement opens the same database, not an empty one.
    /// Before, every later query failed with "no such table".
    #[tokio::test]
    async fn an_in_memory_database_outlives_its_pools_connection() {
        let store = Store::open("sqlite::memory:").await.expect("opens");
        let id = Uuid::from_u128(7);
        assert!(store.game(id).await.expect("the games table").is_none());
        let Pool::Sqlite(pool) = &store.reads else {
            panic!("an SQLite pool");
        };
        let connection = pool.acquire().await.expect("the pool's connection");
        connection.close().await.expect("closed");
        assert!(store
            .game(id)
            .await
            .expect("the games table still")
            .is_none());
        store.close().await;
    }
}
