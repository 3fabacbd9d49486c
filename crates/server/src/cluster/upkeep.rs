//! What a node does every beat while it runs among others (docs/scaling.md): renews its
//! heartbeat, and stops if it could not for as long as the lease lasts (its rooms may be
//! another node's by now); closes its sockets watching rooms of nodes that died, so their
//! clients reconnect to the rooms' new holders; and takes over the rooms of dead nodes,
//! tournaments first (a tournament loads its own games), from their logs.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::{oneshot, watch};

use super::local_rooms::{LocalRooms, TakeOver};
use super::node::{ms, Cluster};
use crate::metrics::{count, METRICS};
use crate::store::lease::LeaseKind;
use omweso_protocol::clock::now_ms;

/// The longest one takeover is waited for in a look.
const TAKEOVER_LIMIT: Duration = Duration::from_secs(5);

/// How often a node deletes the rows of nodes long gone, and how long gone they must be.
const FORGET_EVERY: Duration = Duration::from_secs(300);
const FORGET_AFTER_MS: i64 = 3_600_000;

/// How often a node beats: a fifth of the lease, so that a few slow beats in a row do not
/// lose it.
fn beat(ttl: Duration) -> Duration {
    (ttl / 5).max(Duration::from_millis(100))
}

/// Renews the node's heartbeat until the server stops; `lost` is told (once) when the
/// node could not renew it in time and must stop.
pub fn spawn_heartbeat(
    mut stopped: watch::Receiver<bool>,
    cluster: Arc<Cluster>,
    lost: oneshot::Sender<()>,
) {
    tokio::spawn(async move {
        let mut lost = Some(lost);
        let mut renewed = cluster.joined;
        let every = beat(cluster.ttl);
        loop {
            tokio::select! {
                () = tokio::time::sleep(every) => {}
                _ = stopped.wait_for(|stop| *stop) => return,
            }
            // Judged before renewing: a node that was paused (or starved) past its lease
            // may have lost its rooms even if the database answers it now.
            if renewed.elapsed() + every >= cluster.ttl {
                tracing::error!(
                    "this node could not renew its heartbeat in time: its rooms may be held by another node now; stopping"
                );
                if let Some(lost) = lost.take() {
                    let _ = lost.send(());
                }
                return;
            }
            // The heartbeat holds from when it was sent, not from when it was answered.
            // Waited for no longer than the lease still holds: a database that does not
            // answer must not keep this node past it.
            let sent = Instant::now();
            let within = cluster.ttl.saturating_sub(renewed.elapsed());
            match tokio::time::timeout(within, cluster.heartbeat()).await {
                Ok(Ok(())) => renewed = sent,
                Ok(Err(error)) => tracing::warn!(%error, "could not renew this node's heartbeat"),
                Err(_) => {
                    tracing::warn!("the database did not answer this node's heartbeat in time")
                }
            }
        }
    });
}

/// Looks for the rooms of stopped nodes every beat, until the server stops: apart from
/// the heartbeat, so that taking many rooms over (each replayed from its log) never
/// delays this node's own heartbeat.
pub fn spawn_sweep(
    rooms: Arc<dyn LocalRooms>,
    mut stopped: watch::Receiver<bool>,
    cluster: Arc<Cluster>,
) {
    tokio::spawn(async move {
        let every = beat(cluster.ttl);
        let mut forgotten = Instant::now();
        loop {
            tokio::select! {
                () = tokio::time::sleep(every) => {}
                _ = stopped.wait_for(|stop| *stop) => return,
            }
            if let Err(error) = sweep(&*rooms, &cluster).await {
                tracing::warn!(%error, "could not look for the rooms of stopped nodes");
            }
            // Every process start leaves a row; those gone long ago and holding nothing
            // are deleted now and then.
            if forgotten.elapsed() >= FORGET_EVERY {
                forgotten = Instant::now();
                let before = ms(now_ms()).saturating_sub(FORGET_AFTER_MS);
                if let Err(error) = cluster.store.forget_nodes(before).await {
                    tracing::debug!(%error, "could not forget the rows of stopped nodes");
                }
            }
        }
    });
}

/// One look at the other nodes: sockets on dead nodes' rooms closed, their rooms taken.
async fn sweep(rooms: &dyn LocalRooms, cluster: &Cluster) -> Result<(), crate::store::StoreError> {
    let now = ms(now_ms());
    let live: HashSet<_> = cluster
        .store
        .live_nodes(now)
        .await?
        .into_iter()
        .map(|n| n.node)
        .collect();
    // A node gone since the last look: this node's rooms forget its sockets.
    let gone = {
        let mut known = cluster.live_nodes_seen();
        let gone = known.iter().any(|node| !live.contains(node));
        known.clone_from(&live);
        gone
    };
    if gone {
        rooms.nodes_live(Arc::new(live.clone())).await;
    }
    let closed = cluster.gateway.close_orphans(&live);
    if closed > 0 {
        tracing::info!(closed, "sockets on rooms of a stopped node closed");
    }
    let mut orphans = cluster.store.orphaned_leases(now, 200).await?;
    // Tournaments first: one loads the games it has in play, here.
    orphans.sort_by_key(|lease| lease.kind != LeaseKind::Tournament);
    for lease in orphans {
        // Each takeover is bounded: a room whose lease row is locked by a cut-off node's
        // transaction is tried again at the next look, not waited for.
        let taken = tokio::time::timeout(TAKEOVER_LIMIT, take_over(rooms, cluster, &lease)).await;
        match taken {
            Ok(Ok(true)) => {
                count(&METRICS.cluster_takeovers);
                tracing::info!(kind = ?lease.kind, id = %lease.id, from = %lease.node, "took over a room of a stopped node");
            }
            Ok(Ok(false)) => {}
            Ok(Err(error)) => tracing::warn!(%error, id = %lease.id, "could not take a room over"),
            Err(_) => {
                tracing::warn!(id = %lease.id, "taking a room over took too long; trying again later")
            }
        }
    }
    Ok(())
}

/// Takes one orphaned room over; whether it did. A room that no longer exists gives its
/// lease back ([`TakeOver::Gone`]), so that orphans never pile up.
async fn take_over(
    rooms: &dyn LocalRooms,
    cluster: &Cluster,
    lease: &crate::store::lease::Lease,
) -> Result<bool, crate::store::StoreError> {
    match rooms.take_over(lease).await? {
        TakeOver::Taken => Ok(true),
        TakeOver::Gone => {
            cluster.store.release(lease).await?;
            Ok(false)
        }
        TakeOver::NotNow => Ok(false),
    }
}
