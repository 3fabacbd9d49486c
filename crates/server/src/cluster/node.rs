//! This node among several: its identity, its NATS connection and queue, and the leases
//! it claims for its rooms (docs/scaling.md). A node that cannot renew its own heartbeat
//! within the lease's time stops ([`upkeep`]): by then another node may hold its rooms, and
//! a node that kept serving them would fork their games.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use uuid::Uuid;

use super::credentials::{without_credentials, Credentials, CredentialsError};
use super::forwards::Forwards;
use super::gateway::Gateway;
use super::route::{Outbox, RoomRoute};
use super::seal::Seal;
use super::wire::RoomName;
use crate::config::ClusterCredentials;
use crate::store::lease::{Claim, Lease, LeaseKind};
use crate::store::{Store, StoreError};
use omweso_protocol::clock::now_ms;

/// Why a node could not join the others.
#[derive(Debug, thiserror::Error)]
pub enum JoinError {
    #[error("several nodes need PostgreSQL (the leases are in the database they share); {0} is an SQLite file: remove --nats-url to run one node on it")]
    NotShared(String),
    #[error("{0}")]
    Credentials(#[from] CredentialsError),
    #[error("could not connect to NATS at {url}: {source}")]
    Nats {
        url: String,
        source: async_nats::ConnectError,
    },
    #[error("could not register the node in the database: {0}")]
    Store(#[from] StoreError),
}

/// Where a room is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// On this node (already, or it may take it: nobody live holds it).
    Here,
    /// On this live node.
    There(Uuid),
}

/// How long the room's node has to answer (a forwarded request, a socket's opening): one
/// that does not (paused, dying) is given up on, and the next request asks the store who
/// holds the room by then.
pub const ANSWER_WITHIN: Duration = Duration::from_secs(5);
/// How long an answer about who holds a room is trusted without asking the store again.
const OWNER_CACHE: Duration = Duration::from_secs(1);

pub struct Cluster {
    pub node: Uuid,
    pub name: String,
    pub started_at_ms: i64,
    pub client: async_nats::Client,
    /// Signs what this node sends the others, and checks what they send it.
    pub seal: Arc<Seal>,
    pub outbox: Outbox,
    pub gateway: Gateway,
    pub store: Store,
    /// How long a heartbeat holds: a node silent this long is taken over.
    pub ttl: Duration,
    /// When the first heartbeat was sent (the lease holds from then).
    pub joined: Instant,
    /// The requests this node forwards to others, waiting at once.
    pub forwards: Forwards,
    owners: Mutex<HashMap<RoomName, (Uuid, Instant)>>,
    /// The live nodes at the last look (the upkeep's: a node gone since is noticed once).
    seen: Mutex<std::collections::HashSet<Uuid>>,
}

impl std::fmt::Debug for Cluster {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cluster")
            .field("node", &self.node)
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

impl Cluster {
    /// Connects to NATS at `url` with the node's `credentials` and registers this node (a
    /// fresh id for this process) in `store` with its first heartbeat.
    pub async fn join(
        url: &str,
        name: &str,
        credentials: &ClusterCredentials,
        store: Store,
        ttl: Duration,
    ) -> Result<Arc<Cluster>, JoinError> {
        if store.backend() != "postgres" {
            return Err(JoinError::NotShared(store.backend().to_owned()));
        }
        let credentials = Credentials::from_settings(url, credentials)?;
        let shown = without_credentials(url);
        let options = async_nats::ConnectOptions::new()
            .name(format!("omweso {name}"))
            .request_timeout(Some(ANSWER_WITHIN));
        let client = credentials
            .apply(options)
            .connect(url)
            .await
            .map_err(|source| JoinError::Nats {
                url: shown.clone(),
                source,
            })?;
        if !client.server_info().auth_required {
            tracing::warn!(
                url = shown,
                "this NATS server lets anyone in without credentials: whoever reaches it can read what the nodes send each other (though not forge it); give it a password (docs/scaling.md#trust-between-nodes)"
            );
        }
        let node = Uuid::new_v4();
        let seal = Arc::new(Seal::new(&credentials.secret, node));
        let joined = Instant::now();
        let started_at_ms = ms(now_ms());
        store
            .heartbeat(node, name, started_at_ms, started_at_ms, ttl_ms(ttl))
            .await?;
        let (outbox, _publisher) = Outbox::start(client.clone(), Arc::clone(&seal));
        let gateway = Gateway::new(client.clone(), node, Arc::clone(&seal));
        tracing::info!(%node, name, "joined the other nodes");
        Ok(Arc::new(Cluster {
            node,
            name: name.to_owned(),
            started_at_ms,
            client,
            seal,
            outbox,
            gateway,
            store,
            ttl,
            joined,
            forwards: Forwards::default(),
            owners: Mutex::new(HashMap::new()),
            seen: Mutex::new(std::collections::HashSet::new()),
        }))
    }

    /// Publishes `payload` on `subject`, sealed (a request's answer, a lobby's lists).
    pub async fn publish(
        &self,
        subject: async_nats::Subject,
        mut headers: async_nats::HeaderMap,
        payload: bytes::Bytes,
    ) -> Result<(), async_nats::PublishError> {
        self.seal.sign(&subject, &mut headers, &payload);
        self.client
            .publish_with_headers(subject, headers, payload)
            .await
    }

    /// The room's subject, through this node's queue.
    #[must_use]
    pub fn route(&self, room: RoomName) -> RoomRoute {
        self.outbox.route(room)
    }

    /// Takes `room` for this node if nobody live holds it (or it holds it already).
    pub async fn claim(&self, kind: LeaseKind, id: Uuid) -> Result<Claim, StoreError> {
        let claim = self.store.claim(kind, id, self.node, ms(now_ms())).await?;
        if let Claim::Held { node, .. } = &claim {
            self.remember(RoomName { kind, id }, *node);
        }
        Ok(claim)
    }

    /// Takes room `kind` `id` for this node when it runs among others (`cluster`), as a
    /// registry does before it loads or creates a game or a tournament: `Ok(None)` on a
    /// node alone, this node's lease, or `Err((node, name))`: the live node that holds it.
    pub(crate) async fn take(
        cluster: Option<&Cluster>,
        kind: LeaseKind,
        id: Uuid,
    ) -> Result<Result<Option<Lease>, (Uuid, String)>, StoreError> {
        let Some(cluster) = cluster else {
            return Ok(Ok(None));
        };
        Ok(match cluster.claim(kind, id).await? {
            Claim::Mine(lease) => Ok(Some(lease)),
            Claim::Held { node, name } => Err((node, name)),
        })
    }

    /// Where `room` is played, for a request or a socket that is not sure: here when it is
    /// loaded here (`loaded`), when nobody holds it, or when its holder is no longer live;
    /// else on its holder.
    pub async fn locate(&self, room: RoomName, loaded: bool) -> Result<Place, StoreError> {
        if loaded {
            return Ok(Place::Here);
        }
        if let Some(node) = self.remembered(room) {
            return Ok(Place::There(node));
        }
        let now = ms(now_ms());
        Ok(match self.store.lease(room.kind, room.id).await? {
            Some((lease, Some(holder)))
                if lease.node != self.node && holder.expires_at_ms > now =>
            {
                self.remember(room, lease.node);
                Place::There(lease.node)
            }
            _ => Place::Here,
        })
    }

    /// The live nodes at the upkeep's last look.
    pub(crate) fn live_nodes_seen(
        &self,
    ) -> std::sync::MutexGuard<'_, std::collections::HashSet<Uuid>> {
        self.seen.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Forgets who held `room` (a request to it failed: ask the store again).
    pub fn forget(&self, room: RoomName) {
        self.owners_map().remove(&room);
    }

    fn remember(&self, room: RoomName, node: Uuid) {
        let mut owners = self.owners_map();
        if owners.len() > 100_000 {
            owners.clear();
        }
        owners.insert(room, (node, Instant::now()));
    }

    fn remembered(&self, room: RoomName) -> Option<Uuid> {
        let owners = self.owners_map();
        owners
            .get(&room)
            .filter(|(_, at)| at.elapsed() < OWNER_CACHE)
            .map(|(node, _)| *node)
    }

    fn owners_map(&self) -> std::sync::MutexGuard<'_, HashMap<RoomName, (Uuid, Instant)>> {
        self.owners.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Renews this node's heartbeat.
    pub async fn heartbeat(&self) -> Result<(), StoreError> {
        self.store
            .heartbeat(
                self.node,
                &self.name,
                self.started_at_ms,
                ms(now_ms()),
                ttl_ms(self.ttl),
            )
            .await
    }

    /// Leaves: the node's heartbeat is expired at once, so that the others take its
    /// rooms over without waiting (a clean stop, after its rooms wrote their last).
    pub async fn leave(&self) {
        if let Err(error) = self.store.leave(self.node).await {
            tracing::warn!(%error, "could not tell the other nodes this one stopped");
        }
        let _ = self.client.flush().await;
    }

    /// Gives back the lease of a room this node unloaded for good (a finished game).
    pub async fn release(&self, lease: &Lease) {
        if let Err(error) = self.store.release(lease).await {
            tracing::debug!(%error, "could not give back a lease");
        }
    }
}

pub fn ms(at: u64) -> i64 {
    i64::try_from(at).unwrap_or(i64::MAX)
}

fn ttl_ms(ttl: Duration) -> i64 {
    i64::try_from(ttl.as_millis()).unwrap_or(i64::MAX)
}
