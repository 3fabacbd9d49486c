//! The store's side of several nodes on one database (docs/scaling.md#leases-and-fencing):
//! the nodes' heartbeats, and the leases that make one node the owner of a game or a
//! tournament. The statements are `lease_sql`; the fence a transaction checks first is in
//! the two write paths (`write_pool` in db.rs, and `sqlite_writes.rs`).
//!
//! Writes go where the store's other writes go: PostgreSQL (and `sqlite::memory:`) through
//! the pool, an SQLite file through its one write connection (see `sqlite_writes.rs`: a
//! second writing connection would make the group commit sleep in SQLite's busy handler).

use std::future::Future;
use std::sync::{Arc, Mutex, PoisonError};

use uuid::Uuid;

use super::{finish_checkpoint, Store, Writes};
use crate::store::lease::{Claim, Lease, LeaseKind, NodeRow};
use crate::store::lease_sql;
use crate::store::params::{any, bind_params, uuid, Param, Statement};
use crate::store::rated::ready;
use crate::store::rows::RowExt;
use crate::store::sqlite_writes::{execute_by_name, SqliteWrites};
use crate::store::StoreError;

/// How many times a claim reads the lease again after losing its compare-and-set to
/// another claim. Each loss means another claim changed the row meanwhile, which a claim
/// by a live node only does once (the winner is then live, and the next read answers
/// `Held`); the bound is for claimants that keep taking the lease from one another.
const CLAIM_ATTEMPTS: u32 = 64;

impl Store {
    /// Node `node`'s heartbeat at `now_ms`: its row (made at the first one, with `name` and
    /// `started_at_ms`) is alive until `now_ms + ttl_ms`.
    pub async fn heartbeat(
        &self,
        node: Uuid,
        name: &str,
        started_at_ms: i64,
        now_ms: i64,
        ttl_ms: i64,
    ) -> Result<(), StoreError> {
        self.run_statement(any(
            lease_sql::HEARTBEAT,
            vec![
                uuid(node),
                Param::Text(Some(name.to_owned())),
                Param::Int(started_at_ms),
                Param::Int(now_ms.saturating_add(ttl_ms)),
            ],
        ))
        .await?;
        Ok(())
    }

    /// Node `node` stops cleanly: its row expires at once, so that other nodes take its
    /// leases over without waiting for its heartbeat to run out. (No row: nothing to do.)
    pub async fn leave(&self, node: Uuid) -> Result<(), StoreError> {
        self.run_statement(any(lease_sql::LEAVE, vec![uuid(node)]))
            .await?;
        Ok(())
    }

    /// Deletes the rows of nodes gone before `before_ms` that hold no lease; how many.
    pub async fn forget_nodes(&self, before_ms: i64) -> Result<u64, StoreError> {
        self.run_statement(any(lease_sql::FORGET_NODES, vec![Param::Int(before_ms)]))
            .await
    }

    /// The nodes alive at `now_ms` (their heartbeat expires after it), by node id.
    pub async fn live_nodes(&self, now_ms: i64) -> Result<Vec<NodeRow>, StoreError> {
        with_pool!(&self.reads, pool => {
            let rows = sqlx::query(lease_sql::LIVE_NODES)
                .bind(now_ms)
                .fetch_all(pool)
                .await?;
            rows.iter().map(node_row).collect()
        })
    }

    /// Node `node` claims the lease of `kind` `id` at `now_ms`, in one transaction:
    ///
    /// - no lease: it is `node`'s at epoch 1: [`Claim::Mine`];
    /// - `node` holds it: [`Claim::Mine`] with the same epoch, nothing changed;
    /// - its holder is gone (heartbeat expired at `now_ms`, or no row): taken over, `node`'s
    ///   at the next epoch: [`Claim::Mine`];
    /// - a live other node holds it: [`Claim::Held`] naming it.
    ///
    /// Why compare-and-set rather than a row lock (SELECT ... FOR UPDATE): the read takes
    /// no lock, so the claims that change nothing (the holder's own, or a live other
    /// holder's) never wait for the holder's writes in flight, which hold the row shared
    /// (`lease_sql::FENCE_POSTGRES`); only a takeover's UPDATE waits for them, which is
    /// the point. The INSERT and the UPDATE change the row only if it is still as read (no
    /// row; this holder at this epoch), so of two nodes claiming at the same moment exactly
    /// one changes it, and the other reads it again (a new statement of a READ COMMITTED
    /// transaction sees what the winner committed) and answers from that.
    pub async fn claim(
        &self,
        kind: LeaseKind,
        id: Uuid,
        node: Uuid,
        now_ms: i64,
    ) -> Result<Claim, StoreError> {
        match &self.writes {
            Writes::Pool(pool) => with_pool!(pool, pool => {
                // Dropped unfinished on an error: rolled back.
                let mut tx = pool.begin().await?;
                let claim = claim_in(&mut SqlxLeases(&mut *tx), kind, id, node, now_ms).await?;
                tx.commit().await?;
                Ok(claim)
            }),
            Writes::SqliteFile(file) => {
                in_sqlite_file(file, move |tx| {
                    ready(claim_in(&mut RusqliteLeases(tx), kind, id, node, now_ms))
                })
                .await
            }
        }
    }

    /// The lease of `kind` `id`, with its holder's row (`None` when the holder has none).
    pub async fn lease(
        &self,
        kind: LeaseKind,
        id: Uuid,
    ) -> Result<Option<(Lease, Option<NodeRow>)>, StoreError> {
        with_pool!(&self.reads, pool => {
            let row = sqlx::query(lease_sql::LEASE_AND_HOLDER)
                .bind(kind.as_str())
                .bind(id.to_string())
                .fetch_optional(pool)
                .await?;
            let Some(row) = row else {
                return Ok(None);
            };
            let holder = Holder::from_row(&row)?;
            let lease = Lease {
                kind,
                id,
                node: holder.node,
                epoch: holder.epoch,
            };
            Ok(Some((lease, holder.row)))
        })
    }

    /// At most `limit` leases whose holder is gone at `now_ms` (its heartbeat expired, or
    /// it has no row), the oldest acquired first: what the live nodes take over.
    pub async fn orphaned_leases(&self, now_ms: i64, limit: i64) -> Result<Vec<Lease>, StoreError> {
        if limit < 1 {
            return Ok(Vec::new());
        }
        with_pool!(&self.reads, pool => {
            let rows = sqlx::query(lease_sql::ORPHANED_LEASES)
                .bind(now_ms)
                .bind(limit)
                .fetch_all(pool)
                .await?;
            rows.iter().map(lease_row).collect()
        })
    }

    /// Every lease node `node` holds, by kind and id.
    pub async fn leases_of(&self, node: Uuid) -> Result<Vec<Lease>, StoreError> {
        with_pool!(&self.reads, pool => {
            let rows = sqlx::query(lease_sql::LEASES_OF)
                .bind(node.to_string())
                .fetch_all(pool)
                .await?;
            rows.iter().map(lease_row).collect()
        })
    }

    /// Gives `lease` up (a finished game unloaded): deletes it only if it still has this
    /// node and epoch. Whether it did (false: it had been taken over, or released).
    pub async fn release(&self, lease: &Lease) -> Result<bool, StoreError> {
        let deleted = self
            .run_statement(any(
                lease_sql::RELEASE,
                vec![
                    Param::Str(Some(lease.kind.as_str())),
                    uuid(lease.id),
                    uuid(lease.node),
                    Param::Int(lease.epoch),
                ],
            ))
            .await?;
        Ok(deleted > 0)
    }

    /// Runs one statement where the store writes, in a transaction of its own; the
    /// number of rows it changed.
    async fn run_statement(&self, statement: Statement) -> Result<u64, StoreError> {
        match &self.writes {
            Writes::Pool(pool) => with_pool!(pool, pool => {
                Ok(bind_params!(sqlx::query(statement.sql), statement.params)
                    .execute(pool)
                    .await?
                    .rows_affected())
            }),
            Writes::SqliteFile(file) => {
                in_sqlite_file(file, move |tx| {
                    let changed =
                        execute_by_name(&mut tx.prepare_cached(statement.sql)?, &statement.params)?;
                    Ok(changed as u64)
                })
                .await
            }
        }
    }
}

/// A claim's steps, in its transaction (see [`Store::claim`]).
async fn claim_in<Io: LeaseIo>(
    io: &mut Io,
    kind: LeaseKind,
    id: Uuid,
    node: Uuid,
    now_ms: i64,
) -> Result<Claim, StoreError> {
    let mine = |epoch| {
        Claim::Mine(Lease {
            kind,
            id,
            node,
            epoch,
        })
    };
    for _ in 0..CLAIM_ATTEMPTS {
        match io.holder(kind, id).await? {
            None => {
                let insert = statement(lease_sql::INSERT_LEASE, kind, id, node, now_ms, vec![]);
                if io.run(insert).await? == 1 {
                    return Ok(mine(1));
                }
            }
            Some(holder) if holder.node == node => return Ok(mine(holder.epoch)),
            Some(Holder {
                node: other,
                row: Some(row),
                ..
            }) if row.expires_at_ms > now_ms => {
                return Ok(Claim::Held {
                    node: other,
                    name: row.name,
                })
            }
            Some(gone) => {
                let take_over = statement(
                    lease_sql::TAKE_OVER,
                    kind,
                    id,
                    node,
                    now_ms,
                    vec![uuid(gone.node), Param::Int(gone.epoch)],
                );
                if io.run(take_over).await? == 1 {
                    return Ok(mine(gone.epoch.saturating_add(1)));
                }
            }
        }
        // Another claim changed the row between the read and the write: read it again.
    }
    Err(StoreError::Contended {
        kind,
        id,
        attempts: CLAIM_ATTEMPTS,
    })
}

/// `sql` with `$1` kind, `$2` id, `$3` node, `$4` now, then `more`.
fn statement(
    sql: &'static str,
    kind: LeaseKind,
    id: Uuid,
    node: Uuid,
    now_ms: i64,
    more: Vec<Param<'static>>,
) -> Statement {
    let mut params = vec![
        Param::Str(Some(kind.as_str())),
        uuid(id),
        uuid(node),
        Param::Int(now_ms),
    ];
    params.extend(more);
    any(sql, params)
}

/// A lease's holder and epoch as a claim reads them, with the holder's row if it has one.
#[derive(Debug)]
struct Holder {
    node: Uuid,
    epoch: i64,
    row: Option<NodeRow>,
}

impl Holder {
    /// From a row of [`lease_sql::LEASE_AND_HOLDER`].
    fn from_row(row: &impl RowExt) -> Result<Holder, StoreError> {
        const T: &str = "leases";
        let node = row.uuid(T, "node_id")?;
        let name = row.opt_text("cluster_nodes", "name")?;
        let started = row.opt_int("cluster_nodes", "started_at_ms")?;
        let expires = row.opt_int("cluster_nodes", "expires_at_ms")?;
        let node_row = holder_row(node, name, started, expires);
        Ok(Holder {
            node,
            epoch: row.int(T, "epoch")?,
            row: node_row,
        })
    }
}

fn node_row(row: &impl RowExt) -> Result<NodeRow, StoreError> {
    const T: &str = "cluster_nodes";
    Ok(NodeRow {
        node: row.uuid(T, "node_id")?,
        name: row.text(T, "name")?,
        started_at_ms: row.int(T, "started_at_ms")?,
        expires_at_ms: row.int(T, "expires_at_ms")?,
    })
}

/// From a row of `kind, id, node_id, epoch`.
fn lease_row(row: &impl RowExt) -> Result<Lease, StoreError> {
    const T: &str = "leases";
    let kind = row.text(T, "kind")?;
    Ok(Lease {
        kind: LeaseKind::parse(&kind).map_err(|e| StoreError::Corrupt(format!("{T}.kind: {e}")))?,
        id: row.uuid(T, "id")?,
        node: row.uuid(T, "node_id")?,
        epoch: row.int(T, "epoch")?,
    })
}

/// What a claim reads and writes, in the transaction of one write path.
trait LeaseIo {
    /// The lease of `kind` `id` and its holder ([`lease_sql::LEASE_AND_HOLDER`]).
    fn holder(
        &mut self,
        kind: LeaseKind,
        id: Uuid,
    ) -> impl Future<Output = Result<Option<Holder>, StoreError>>;
    /// Runs a statement; the number of rows it changed.
    fn run(&mut self, statement: Statement) -> impl Future<Output = Result<u64, StoreError>>;
}

/// A sqlx transaction's connection (PostgreSQL, SQLite in memory).
struct SqlxLeases<'a, C>(&'a mut C);

macro_rules! impl_lease_io {
    ($($connection:ty),*) => {$(
        impl LeaseIo for SqlxLeases<'_, $connection> {
            async fn holder(
                &mut self,
                kind: LeaseKind,
                id: Uuid,
            ) -> Result<Option<Holder>, StoreError> {
                let row = sqlx::query(lease_sql::LEASE_AND_HOLDER)
                    .bind(kind.as_str())
                    .bind(id.to_string())
                    .fetch_optional(&mut *self.0)
                    .await?;
                row.as_ref().map(Holder::from_row).transpose()
            }

            async fn run(&mut self, statement: Statement) -> Result<u64, StoreError> {
                Ok(bind_params!(sqlx::query(statement.sql), statement.params)
                    .execute(&mut *self.0)
                    .await?
                    .rows_affected())
            }
        }
    )*};
}

impl_lease_io!(sqlx::SqliteConnection, sqlx::PgConnection);

/// An SQLite file's write connection, in a transaction: every step a blocking call, so
/// every future is ready when first polled ([`ready`] runs them).
struct RusqliteLeases<'a>(&'a rusqlite::Transaction<'a>);

impl LeaseIo for RusqliteLeases<'_> {
    async fn holder(&mut self, kind: LeaseKind, id: Uuid) -> Result<Option<Holder>, StoreError> {
        let mut query = self.0.prepare_cached(lease_sql::LEASE_AND_HOLDER)?;
        let mut rows = query.query(rusqlite::params![kind.as_str(), id.to_string()])?;
        let Some(row) = rows.next()? else {
            return Ok(None);
        };
        let text: String = row.get(0)?;
        let node = Uuid::parse_str(&text).map_err(|e| {
            StoreError::Corrupt(format!("leases.node_id: {text:?} is not a UUID: {e}"))
        })?;
        let name: Option<String> = row.get(2)?;
        let started: Option<i64> = row.get(3)?;
        let expires: Option<i64> = row.get(4)?;
        let node_row = holder_row(node, name, started, expires);
        Ok(Some(Holder {
            node,
            epoch: row.get(1)?,
            row: node_row,
        }))
    }

    async fn run(&mut self, statement: Statement) -> Result<u64, StoreError> {
        let changed = execute_by_name(
            &mut self.0.prepare_cached(statement.sql)?,
            &statement.params,
        )?;
        Ok(changed as u64)
    }
}

/// Runs `work` in a transaction of an SQLite file's write connection, on a blocking
/// thread (the connection blocks; the lock may wait for a group commit in progress).
async fn in_sqlite_file<T: Send + 'static>(
    file: &Arc<Mutex<Option<SqliteWrites>>>,
    work: impl FnOnce(&rusqlite::Transaction<'_>) -> Result<T, StoreError> + Send + 'static,
) -> Result<T, StoreError> {
    let file = Arc::clone(file);
    let done = tokio::task::spawn_blocking(move || {
        let result = {
            let mut writes = file.lock().unwrap_or_else(PoisonError::into_inner);
            match writes.as_mut() {
                Some(connection) => connection.transaction(work),
                None => Err(StoreError::Closed),
            }
        };
        finish_checkpoint(&file);
        result
    });
    match done.await {
        Ok(result) => result,
        Err(join) if join.is_panic() => std::panic::resume_unwind(join.into_panic()),
        Err(_) => Err(StoreError::Closed),
    }
}

/// The holder's node row, from the columns of a lease's outer join with `cluster_nodes`
/// (all `None`: the holder has no row).
fn holder_row(
    node: Uuid,
    name: Option<String>,
    started: Option<i64>,
    expires: Option<i64>,
) -> Option<NodeRow> {
    match (name, started, expires) {
        (Some(name), Some(started_at_ms), Some(expires_at_ms)) => Some(NodeRow {
            node,
            name,
            started_at_ms,
            expires_at_ms,
        }),
        _ => None,
    }
}
