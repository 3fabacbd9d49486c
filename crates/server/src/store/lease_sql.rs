//! The statements of the cluster's tables (`migrations/0009_leases.sql`): nodes'
//! heartbeats, leases, and the fence a transaction checks first
//! (docs/scaling.md#leases-and-fencing). Portable between the two databases but for the
//! fence, whose PostgreSQL form locks the lease row.

use crate::store::lease::Lease;

use super::StoreError;

/// A node's heartbeat: `$1` node, `$2` name, `$3` started at, `$4` expires at. The row is
/// made at the first one and renewed by the next.
pub(crate) const HEARTBEAT: &str = "INSERT INTO cluster_nodes (node_id, name, started_at_ms, \
     expires_at_ms) VALUES ($1, $2, $3, $4) ON CONFLICT (node_id) DO UPDATE SET \
     name = excluded.name, started_at_ms = excluded.started_at_ms, \
     expires_at_ms = excluded.expires_at_ms";

/// Node `$1` stops: it is gone at once (every heartbeat time is after 0).
pub(crate) const LEAVE: &str = "UPDATE cluster_nodes SET expires_at_ms = 0 WHERE node_id = $1";

/// The rows of nodes gone before `$1` that hold no lease (a node's row is left behind
/// at every process start; these are no longer of use to anyone).
pub(crate) const FORGET_NODES: &str = "DELETE FROM cluster_nodes WHERE expires_at_ms < $1 \
     AND NOT EXISTS (SELECT 1 FROM leases WHERE leases.node_id = cluster_nodes.node_id)";

/// The nodes alive at `$1`, by id.
pub(crate) const LIVE_NODES: &str = "SELECT node_id, name, started_at_ms, expires_at_ms \
     FROM cluster_nodes WHERE expires_at_ms > $1 ORDER BY node_id";

/// The lease of kind `$1` on `$2`, with its holder's row when it has one (NULLs when not).
pub(crate) const LEASE_AND_HOLDER: &str = "SELECT l.node_id, l.epoch, n.name, \
     n.started_at_ms, n.expires_at_ms FROM leases l \
     LEFT JOIN cluster_nodes n ON n.node_id = l.node_id WHERE l.kind = $1 AND l.id = $2";

/// A first lease, epoch 1: `$1` kind, `$2` id, `$3` node, `$4` when. Changes nothing when
/// another claim inserted it first (on PostgreSQL it waits for that one to end).
pub(crate) const INSERT_LEASE: &str = "INSERT INTO leases (kind, id, node_id, epoch, \
     acquired_at_ms) VALUES ($1, $2, $3, 1, $4) ON CONFLICT (kind, id) DO NOTHING";

/// A takeover, compare-and-set: the lease of kind `$1` on `$2` becomes node `$3`'s, at the
/// next epoch, from `$4`, only if it is still node `$5`'s at epoch `$6` (what the claim
/// read). On PostgreSQL a concurrent change makes it wait, then test the row that change
/// committed, so of two takeovers from the same read one changes nothing.
pub(crate) const TAKE_OVER: &str = "UPDATE leases SET node_id = $3, epoch = epoch + 1, \
     acquired_at_ms = $4 WHERE kind = $1 AND id = $2 AND node_id = $5 AND epoch = $6";

/// The leases whose holder is gone at `$1` (its heartbeat expired, or it has no row),
/// oldest acquired first, at most `$2`.
pub(crate) const ORPHANED_LEASES: &str = "SELECT l.kind, l.id, l.node_id, l.epoch \
     FROM leases l LEFT JOIN cluster_nodes n ON n.node_id = l.node_id \
     WHERE n.node_id IS NULL OR n.expires_at_ms <= $1 \
     ORDER BY l.acquired_at_ms, l.kind, l.id LIMIT $2";

/// Node `$1`'s leases, by kind and id.
pub(crate) const LEASES_OF: &str =
    "SELECT kind, id, node_id, epoch FROM leases WHERE node_id = $1 ORDER BY kind, id";

/// Deletes the lease of kind `$1` on `$2` if it is still node `$3`'s at epoch `$4`.
pub(crate) const RELEASE: &str =
    "DELETE FROM leases WHERE kind = $1 AND id = $2 AND node_id = $3 AND epoch = $4";

/// A fence (`Write::Fence`): a row when the lease of kind `$1` on `$2` is node `$3`'s at
/// epoch `$4`. On an SQLite database one transaction writes at a time, so nothing can
/// take the lease over between this check and the commit.
pub(crate) const FENCE_SQLITE: &str =
    "SELECT epoch FROM leases WHERE kind = $1 AND id = $2 AND node_id = $3 AND epoch = $4";

/// [`FENCE_SQLITE`] on PostgreSQL, holding the row with a shared lock until the
/// transaction ends. A takeover is an UPDATE of that row, whose lock conflicts with
/// FOR SHARE: it waits until the fenced transaction has committed, so the writes checked
/// here cannot commit after a takeover (else a node could append to a log that another
/// node already owns and has read). The other way round, a check that finds the takeover's
/// UPDATE in progress waits for it, then tests the row it committed and finds it no longer
/// this node's. FOR SHARE and not FOR KEY SHARE: the takeover changes no key column, so its
/// lock (FOR NO KEY UPDATE) would not wait for a FOR KEY SHARE. Shared locks do not
/// conflict with one another, so transactions fenced by the same lease never wait for
/// each other here.
pub(crate) const FENCE_POSTGRES: &str = "SELECT epoch FROM leases WHERE kind = $1 AND id = $2 \
     AND node_id = $3 AND epoch = $4 FOR SHARE";

/// The refusal of a transaction fenced by `lease`.
pub(crate) fn fenced(lease: &Lease) -> StoreError {
    StoreError::Fenced {
        kind: lease.kind,
        id: lease.id,
        epoch: lease.epoch,
    }
}
