//! What a node does every beat while it runs among others (docs/scaling.md): renews its
//! heartbeat, and stops if it could not for as long as the lease lasts (its rooms may be
//! another node's by now); closes its sockets watching rooms of nodes that died, so their
//! clients reconnect to the rooms' new holders; and takes over the rooms of dead nodes,
//! tournaments first (a tournament loads its own games), from their logs.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::oneshot;

use super::lease::LeaseKind;
use super::node::{ms, Cluster};
use crate::metrics::{count, METRICS};
use crate::state::AppState;
use omweso_protocol::clock::now_ms;

/// How often a node beats: a fifth of the lease, so that a few slow beats in a row do not
/// lose it.
fn beat(ttl: Duration) -> Duration {
    (ttl / 5).max(Duration::from_millis(100))
}

/// Runs the node's upkeep until the server stops; `lost` is told (once) when the node
/// could not renew its heartbeat in time and must stop.
pub fn spawn(state: AppState, cluster: Arc<Cluster>, lost: oneshot::Sender<()>) {
    let mut stopped = state.shutdown.clone();
    tokio::spawn(async move {
        let mut lost = Some(lost);
        let mut renewed = Instant::now();
        let every = beat(cluster.ttl);
        loop {
            tokio::select! {
                () = tokio::time::sleep(every) => {}
                _ = stopped.wait_for(|stop| *stop) => return,
            }
            match cluster.heartbeat().await {
                Ok(()) => renewed = Instant::now(),
                Err(error) => tracing::warn!(%error, "could not renew this node's heartbeat"),
            }
            // A margin of one beat: the others count from the last renewal they saw.
            if renewed.elapsed() + every >= cluster.ttl {
                tracing::error!(
                    "this node could not renew its heartbeat in time: its rooms may be held by another node now; stopping"
                );
                if let Some(lost) = lost.take() {
                    let _ = lost.send(());
                }
                return;
            }
            if let Err(error) = sweep(&state, &cluster).await {
                tracing::warn!(%error, "could not look for the rooms of stopped nodes");
            }
        }
    });
}

/// One look at the other nodes: sockets on dead nodes' rooms closed, their rooms taken.
async fn sweep(state: &AppState, cluster: &Cluster) -> Result<(), crate::store::StoreError> {
    let now = ms(now_ms());
    let live: HashSet<_> = cluster
        .store
        .live_nodes(now)
        .await?
        .into_iter()
        .map(|n| n.node)
        .collect();
    let closed = cluster.gateway.close_orphans(&live);
    if closed > 0 {
        tracing::info!(closed, "sockets on rooms of a stopped node closed");
    }
    let mut orphans = cluster.store.orphaned_leases(now, 200).await?;
    // Tournaments first: one loads the games it has in play, here.
    orphans.sort_by_key(|lease| lease.kind != LeaseKind::Tournament);
    for lease in orphans {
        let taken = match lease.kind {
            LeaseKind::Tournament => state
                .tournaments
                .get(lease.id)
                .await
                .is_ok_and(|t| t.is_some()),
            LeaseKind::Game => {
                // A tournament's game is its tournament holder's to take (with it).
                if let Some(tournament) = tournament_of(state, lease.id).await? {
                    if state.tournaments.loaded(tournament).is_none() {
                        continue;
                    }
                }
                state.games.get(lease.id).await.is_ok_and(|g| g.is_some())
            }
        };
        if taken {
            count(&METRICS.cluster_takeovers);
            tracing::info!(kind = ?lease.kind, id = %lease.id, from = %lease.node, "took over a room of a stopped node");
        }
    }
    Ok(())
}

async fn tournament_of(
    state: &AppState,
    game: uuid::Uuid,
) -> Result<Option<uuid::Uuid>, crate::store::StoreError> {
    Ok(state
        .store
        .game(game)
        .await?
        .and_then(|row| row.archive.tournament_id))
}
