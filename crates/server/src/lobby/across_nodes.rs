//! The lobby across nodes: each node publishes the games it holds (the newest open ones
//! and the newest played ones, as the lobby lists them) on `omweso.lobby.<node>` when they
//! change, and at least every [`REPUBLISH`]; every node shows its own games with the
//! others' latest (`lobby::games::Lobby::set_others`), and forgets a node that stopped
//! publishing. Each publication is sealed (`seal`): a node believes only a node's own
//! lists, sealed by it. One subject per node, a few kilobytes a second in all.

use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use futures_util::StreamExt;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::games::Lobby;
use crate::cluster::node::Cluster;
use omweso_protocol::lobby::GameSummary;

/// The longest a node's lists go unpublished (the others drop a node silent for
/// `lobby::others::OTHERS_KEPT`).
pub const REPUBLISH: Duration = Duration::from_secs(2);
/// How often a node looks whether its lists changed.
const LOOK_EVERY: Duration = Duration::from_millis(250);
/// The most a publication may be (two lists of at most `LIST_MAX` summaries are far less).
const MAX_BYTES: usize = 512 * 1024;

#[derive(Serialize, Deserialize, PartialEq)]
struct Lists {
    open: Vec<GameSummary>,
    live: Vec<GameSummary>,
    /// The node's count of its tournaments' changes: when it moves, the tournament lists
    /// (read from the store) are read again.
    tournaments: u64,
}

const PREFIX: &str = "omweso.lobby.";

/// Publishes this node's lists and takes the others', until the server stops.
pub async fn spawn(
    lobby: Lobby,
    cluster: Arc<Cluster>,
    mut stopped: tokio::sync::watch::Receiver<bool>,
) -> Result<(), async_nats::SubscribeError> {
    let mut others = cluster.client.subscribe(format!("{PREFIX}*")).await?;
    let me = cluster.node;
    let receiving = lobby.clone();
    let seal = Arc::clone(&cluster.seal);
    tokio::spawn(async move {
        let mut tournaments_seen: std::collections::HashMap<Uuid, u64> =
            std::collections::HashMap::new();
        while let Some(message) = others.next().await {
            let Ok(sender) =
                seal.verify(&message.subject, message.headers.as_ref(), &message.payload)
            else {
                continue;
            };
            let Some(node) = message
                .subject
                .strip_prefix(PREFIX)
                .and_then(|n| n.parse::<Uuid>().ok())
            else {
                continue;
            };
            // A node publishes its own lists only.
            if node == me || node != sender || message.payload.len() > MAX_BYTES {
                continue;
            }
            match serde_json::from_slice::<Lists>(&message.payload) {
                Ok(lists) => {
                    if tournaments_seen.insert(node, lists.tournaments) != Some(lists.tournaments) {
                        receiving.changes().tournaments_changed_elsewhere();
                    }
                    if tournaments_seen.len() > 1024 {
                        tournaments_seen.clear();
                    }
                    let mut games = lists.open;
                    games.extend(lists.live);
                    receiving.set_others(node, games);
                }
                Err(error) => tracing::debug!(%error, %node, "an unreadable lobby from a node"),
            }
        }
    });
    tokio::spawn(async move {
        let subject = format!("{PREFIX}{me}");
        let mut last: Option<Lists> = None;
        let mut published = Instant::now();
        loop {
            tokio::select! {
                () = tokio::time::sleep(LOOK_EVERY) => {}
                _ = stopped.wait_for(|stop| *stop) => break,
            }
            lobby.forget_silent_others();
            let lists = Lists {
                open: lobby.list_own(true),
                live: lobby.list_own(false),
                tournaments: lobby.changes().tournament_changes(),
            };
            if last.as_ref() == Some(&lists) && published.elapsed() < REPUBLISH {
                continue;
            }
            let Ok(json) = serde_json::to_vec(&lists) else {
                continue;
            };
            if cluster
                .publish(
                    subject.clone().into(),
                    async_nats::HeaderMap::new(),
                    Bytes::from(json),
                )
                .await
                .is_ok()
            {
                published = Instant::now();
                last = Some(lists);
            }
        }
    });
    Ok(())
}
