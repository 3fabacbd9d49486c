//! This node's rooms, for the sockets of other nodes: a socket opening there is connected
//! here as a remote connection (its frames go out on the room's subject, addressed to it);
//! its client's messages, round trips and close come here and go to the room's task as a
//! local socket's would (docs/scaling.md). Only what a node of the cluster sealed is
//! believed (`seal`); the answers are sealed too.

use std::sync::Arc;

use async_nats::HeaderMap;
use bytes::Bytes;
use futures_util::StreamExt;
use tokio::sync::{mpsc, Semaphore};
use uuid::Uuid;

use super::local_rooms::{LocalRooms, RemoteMessage};
use super::node::Cluster;
use super::wire::{self, RoomName};
use crate::metrics::{count, METRICS};
use crate::room::{ConnId, Sink};

/// Openings handled at once (each may load a room); the rest wait in NATS's buffer.
const CONNECTS_AT_ONCE: usize = 64;

/// Takes other nodes' requests for this node's rooms until the subscription ends.
pub async fn serve(
    rooms: Arc<dyn LocalRooms>,
    cluster: Arc<Cluster>,
) -> Result<(), async_nats::SubscribeError> {
    let mut requests = cluster
        .client
        .subscribe(wire::rooms_subject(cluster.node))
        .await?;
    let connects = Arc::new(Semaphore::new(CONNECTS_AT_ONCE));
    tokio::spawn(async move {
        let mut relays = Relays::default();
        while let Some(message) = requests.next().await {
            // Only a node of the cluster is believed (`seal`): not a socket of a made-up
            // node as someone's player, nor a message sent again.
            if cluster
                .seal
                .verify(&message.subject, message.headers.as_ref(), &message.payload)
                .is_err()
            {
                continue;
            }
            let Some(headers) = message.headers.clone() else {
                continue;
            };
            let op = header(&headers, wire::OP).unwrap_or_default();
            let Some(room) = header(&headers, wire::ROOM).and_then(|r| wire::parse_room(&r)) else {
                continue;
            };
            if op == "connect" {
                // Never waited for here: every room's messages come through this loop.
                let Ok(permit) = Arc::clone(&connects).try_acquire_owned() else {
                    if let Some(reply) = message.reply {
                        let mut headers = HeaderMap::new();
                        headers.insert(wire::ERROR, "busy; reconnect in a moment");
                        let _ = cluster.publish(reply, headers, Bytes::new()).await;
                    }
                    continue;
                };
                let (rooms, cluster) = (Arc::clone(&rooms), Arc::clone(&cluster));
                tokio::spawn(async move {
                    let answer = connect(&*rooms, &cluster, room, &headers).await;
                    if let Some(reply) = message.reply {
                        let (headers, payload) = match answer {
                            Ok(conn) => (HeaderMap::new(), Bytes::from(conn.to_string())),
                            Err(why) => {
                                let mut headers = HeaderMap::new();
                                headers.insert(wire::ERROR, why);
                                (headers, Bytes::new())
                            }
                        };
                        let _ = cluster.publish(reply, headers, payload).await;
                    }
                    drop(permit);
                });
                continue;
            }
            let Some(conn) = header(&headers, wire::CONN).and_then(|c| c.parse::<ConnId>().ok())
            else {
                continue;
            };
            relays.pass(
                &rooms,
                room,
                Relay {
                    conn,
                    op,
                    headers,
                    payload: message.payload,
                },
            );
        }
    });
    Ok(())
}

/// A remote socket's message, round trip or close, for its room.
struct Relay {
    conn: ConnId,
    op: String,
    headers: HeaderMap,
    payload: Bytes,
}

/// Each room's relays, in the order they came, through a bounded queue of the room's own:
/// one room slow to take them never holds up the others'.
#[derive(Default)]
struct Relays {
    rooms: std::collections::HashMap<RoomName, mpsc::Sender<Relay>>,
}

/// A room's relays waiting at most (a client sends 20 a second at most).
const RELAY_QUEUE: usize = 256;

impl Relays {
    fn pass(&mut self, rooms: &Arc<dyn LocalRooms>, room: RoomName, relay: Relay) {
        if self.rooms.len() > 10_000 {
            self.rooms.retain(|_, tx| !tx.is_closed());
        }
        let tx = self
            .rooms
            .entry(room)
            .and_modify(|tx| {
                if tx.is_closed() {
                    *tx = spawn_relay(Arc::clone(rooms), room);
                }
            })
            .or_insert_with(|| spawn_relay(Arc::clone(rooms), room));
        match tx.try_send(relay) {
            Ok(()) => {}
            // A socket's close is never dropped (the room would keep it for ever): it waits
            // its turn, after what is queued (many sockets closing at once: a tournament's
            // watchers leaving together).
            Err(mpsc::error::TrySendError::Full(relay)) if relay.op == "disconnect" => {
                let tx = tx.clone();
                tokio::spawn(async move { tx.send(relay).await });
            }
            Err(_) => {
                count(&METRICS.cluster_relays_dropped);
                tracing::warn!(
                    ?room,
                    "a room's relays are full; a remote socket's message was dropped"
                );
            }
        }
    }
}

/// The task passing `room`'s relays to it in order; it ends once idle for a minute.
fn spawn_relay(rooms: Arc<dyn LocalRooms>, room: RoomName) -> mpsc::Sender<Relay> {
    let (tx, mut rx) = mpsc::channel::<Relay>(RELAY_QUEUE);
    tokio::spawn(async move {
        while let Ok(Some(relay)) = tokio::time::timeout(RELAY_IDLE, rx.recv()).await {
            if let Some(message) = remote_message(&relay.op, &relay.headers, &relay.payload) {
                rooms.relay(room, relay.conn, message).await;
            }
        }
    });
    tx
}

const RELAY_IDLE: std::time::Duration = std::time::Duration::from_secs(60);

fn header(headers: &HeaderMap, name: &str) -> Option<String> {
    headers.get(name).map(|v| v.as_str().to_owned())
}

/// Connects a socket of another node to `room`, loading it here if nobody holds it.
async fn connect(
    rooms: &dyn LocalRooms,
    cluster: &Cluster,
    room: RoomName,
    headers: &HeaderMap,
) -> Result<ConnId, &'static str> {
    let to = header(headers, wire::TO)
        .and_then(|t| wire::parse_remote_key(&t))
        .ok_or("no socket named")?;
    let player = header(headers, wire::PLAYER).and_then(|p| p.parse::<Uuid>().ok());
    let resume_after = header(headers, wire::RESUME).and_then(|v| v.parse::<u64>().ok());
    let sink = Sink::Remote(Arc::new(cluster.route(room).to(to)));
    rooms.connect(room, player, resume_after, sink).await
}

/// A remote socket's message, round trip or close, as its room takes it; `None` for what
/// is not one (dropped).
fn remote_message(op: &str, headers: &HeaderMap, payload: &Bytes) -> Option<RemoteMessage> {
    match op {
        "client" => Some(RemoteMessage::Client(payload.clone())),
        "latency" => {
            let round_trip_ms = header(headers, wire::LATENCY)?.parse().ok()?;
            Some(RemoteMessage::Latency { round_trip_ms })
        }
        "disconnect" => Some(RemoteMessage::Disconnect),
        _ => None,
    }
}
