//! The sockets of this node watching rooms held by other nodes. Each such room is
//! subscribed to once, however many of this node's sockets watch it: a broadcast crosses
//! NATS once per node and is handed here to every socket's own queue; a frame addressed
//! to one socket goes to it alone. Requests to the room's owner (a socket opening, a
//! client's message, closing) are sent from here too (docs/scaling.md), each sealed
//! (`seal`); a frame or an answer that is not is refused.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use async_nats::HeaderMap;
use axum::extract::ws::Utf8Bytes;
use bytes::Bytes;
use futures_util::StreamExt;
use tokio::sync::{mpsc, watch};
use uuid::Uuid;

use super::seal::Seal;
use super::wire::RemoteKey;
use super::wire::{self, RoomName};
use crate::metrics::{count, METRICS};
use crate::room::{ConnId, Outgoing};

/// Why a room held by another node could not be watched.
#[derive(Debug, thiserror::Error)]
pub enum RemoteError {
    #[error("could not subscribe to the room: {0}")]
    Subscribe(String),
    #[error("the node holding the room did not answer: {0}")]
    Request(String),
    #[error("the node holding the room refused: {0}")]
    Refused(String),
}

#[derive(Clone)]
pub struct Gateway {
    client: async_nats::Client,
    node: Uuid,
    seal: Arc<Seal>,
    rooms: Arc<Mutex<HashMap<RoomName, Watched>>>,
    next_key: Arc<AtomicU64>,
}

/// A room watched from here: its holder, this node's sockets on it, and the task reading
/// its subject.
struct Watched {
    owner: Uuid,
    sockets: HashMap<u64, Watcher>,
    /// `Some(true)` once the subscription is made, `Some(false)` if it failed.
    ready: watch::Receiver<Option<bool>>,
    reader: Option<tokio::task::AbortHandle>,
}

/// One of this node's sockets on a room: its queue, and whether the room has sent it its
/// first frame (what it missed, or the state). Broadcasts published before the room
/// connected it would come before that catch-up: they are not given to it until then
/// (what they carry is in the catch-up).
struct Watcher {
    tx: mpsc::Sender<Outgoing>,
    caught_up: bool,
}

impl Watcher {
    fn new(tx: mpsc::Sender<Outgoing>) -> Watcher {
        Watcher {
            tx,
            caught_up: false,
        }
    }
}

/// One socket watching a remote room; dropping it stops the watch (and the room's
/// subscription with the last socket).
pub struct Watching {
    gateway: Gateway,
    pub room: RoomName,
    pub owner: Uuid,
    pub key: u64,
}

impl Drop for Watching {
    fn drop(&mut self) {
        self.gateway.unwatch(self.room, self.key);
    }
}

impl Gateway {
    #[must_use]
    pub fn new(client: async_nats::Client, node: Uuid, seal: Arc<Seal>) -> Gateway {
        Gateway {
            client,
            node,
            seal,
            rooms: Arc::new(Mutex::new(HashMap::new())),
            next_key: Arc::new(AtomicU64::new(1)),
        }
    }

    fn rooms(&self) -> std::sync::MutexGuard<'_, HashMap<RoomName, Watched>> {
        self.rooms.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Starts watching `room`, held by `owner`, for a socket whose frames go on `tx`:
    /// returns once the room's subject is subscribed (so nothing its owner sends after
    /// this is missed).
    pub async fn watch(
        &self,
        room: RoomName,
        owner: Uuid,
        tx: mpsc::Sender<Outgoing>,
    ) -> Result<Watching, RemoteError> {
        let key = self.next_key.fetch_add(1, Ordering::Relaxed);
        let (mut ready, first) = {
            let mut rooms = self.rooms();
            match rooms.get_mut(&room).filter(|w| w.owner == owner) {
                Some(watched) => {
                    watched.sockets.insert(key, Watcher::new(tx));
                    (watched.ready.clone(), None)
                }
                None => {
                    let (ready_tx, ready) = watch::channel(None);
                    let mut sockets = HashMap::new();
                    sockets.insert(key, Watcher::new(tx));
                    let stale = rooms.insert(
                        room,
                        Watched {
                            owner,
                            sockets,
                            ready: ready.clone(),
                            reader: None,
                        },
                    );
                    close_watched(stale, "the room moved to another server; reconnect");
                    (ready, Some(ready_tx))
                }
            }
        };
        let watching = Watching {
            gateway: self.clone(),
            room,
            owner,
            key,
        };
        if let Some(ready_tx) = first {
            match self.client.subscribe(wire::room_subject(room)).await {
                Ok(subscriber) => {
                    let reader = tokio::spawn(read_room(
                        subscriber,
                        Arc::clone(&self.rooms),
                        room,
                        (self.node, Arc::clone(&self.seal)),
                    ));
                    let mut rooms = self.rooms();
                    // The entry this subscription was made for: it may have been replaced
                    // meanwhile (its holder died, or the room moved), and that one has its
                    // own reader.
                    match rooms
                        .get_mut(&room)
                        .filter(|w| w.ready.same_channel(&ready))
                    {
                        Some(watched) => watched.reader = Some(reader.abort_handle()),
                        None => reader.abort(),
                    }
                    drop(rooms);
                    let _ = ready_tx.send(Some(true));
                }
                Err(error) => {
                    let _ = ready_tx.send(Some(false));
                    return Err(RemoteError::Subscribe(error.to_string()));
                }
            }
        }
        match ready.wait_for(Option::is_some).await.map(|r| *r) {
            Ok(Some(true)) => Ok(watching),
            _ => Err(RemoteError::Subscribe(
                "the room's subscription failed".into(),
            )),
        }
    }

    fn unwatch(&self, room: RoomName, key: u64) {
        let mut rooms = self.rooms();
        let Some(watched) = rooms.get_mut(&room) else {
            return;
        };
        watched.sockets.remove(&key);
        if watched.sockets.is_empty() {
            if let Some(reader) = watched.reader.take() {
                reader.abort();
            }
            rooms.remove(&room);
        }
    }

    /// Closes this node's sockets on rooms whose holder is not among `live` nodes (it
    /// died): their clients reconnect and find the room on the node that takes it over.
    pub fn close_orphans(&self, live: &HashSet<Uuid>) -> usize {
        let mut rooms = self.rooms();
        let gone: Vec<RoomName> = rooms
            .iter()
            .filter(|(_, w)| !live.contains(&w.owner))
            .map(|(room, _)| *room)
            .collect();
        let mut closed = 0;
        for room in gone {
            let watched = rooms.remove(&room);
            closed += watched.as_ref().map_or(0, |w| w.sockets.len());
            close_watched(
                watched,
                "the server holding this game stopped; reconnect in a moment",
            );
        }
        closed
    }

    /// The sockets of this node on rooms of other nodes.
    #[must_use]
    pub fn sockets(&self) -> usize {
        self.rooms().values().map(|w| w.sockets.len()).sum()
    }

    /// Asks `owner` to open a connection of `room` for this node's socket `key`; the
    /// connection's number there.
    pub async fn connect(
        &self,
        watching: &Watching,
        player: Option<Uuid>,
        resume_after: Option<u64>,
    ) -> Result<ConnId, RemoteError> {
        let mut headers = self.headers(watching, "connect");
        let from = wire::remote_key(RemoteKey {
            node: self.node,
            key: watching.key,
        });
        headers.insert(wire::TO, from.as_str());
        if let Some(player) = player {
            headers.insert(wire::PLAYER, player.to_string().as_str());
        }
        if let Some(after) = resume_after {
            headers.insert(wire::RESUME, after.to_string().as_str());
        }
        let subject = wire::rooms_subject(watching.owner);
        self.seal.sign(&subject, &mut headers, &[]);
        let answer = self
            .client
            .request_with_headers(subject, headers, Bytes::new())
            .await
            .map_err(|e| RemoteError::Request(e.to_string()))?;
        self.seal
            .verify(&answer.subject, answer.headers.as_ref(), &answer.payload)
            .map_err(|refusal| {
                RemoteError::Refused(format!("its answer was refused: {refusal}"))
            })?;
        if let Some(error) = answer.headers.as_ref().and_then(|h| h.get(wire::ERROR)) {
            return Err(RemoteError::Refused(error.to_string()));
        }
        std::str::from_utf8(&answer.payload)
            .ok()
            .and_then(|text| text.parse().ok())
            .ok_or_else(|| RemoteError::Refused("an unreadable connection number".into()))
    }

    /// Forwards a client's message (its text, as received) on connection `conn`.
    pub async fn client(&self, watching: &Watching, conn: ConnId, text: &str) -> bool {
        let mut headers = self.headers(watching, "client");
        headers.insert(wire::CONN, conn.to_string().as_str());
        self.publish(watching, headers, Bytes::copy_from_slice(text.as_bytes()))
            .await
    }

    /// Forwards a measured round trip of connection `conn`.
    pub async fn latency(&self, watching: &Watching, conn: ConnId, round_trip_ms: u64) -> bool {
        let mut headers = self.headers(watching, "latency");
        headers.insert(wire::CONN, conn.to_string().as_str());
        headers.insert(wire::LATENCY, round_trip_ms.to_string().as_str());
        self.publish(watching, headers, Bytes::new()).await
    }

    /// Tells the owner connection `conn` closed.
    pub async fn disconnect(&self, watching: &Watching, conn: ConnId) {
        let mut headers = self.headers(watching, "disconnect");
        headers.insert(wire::CONN, conn.to_string().as_str());
        self.publish(watching, headers, Bytes::new()).await;
    }

    fn headers(&self, watching: &Watching, op: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(wire::OP, op);
        headers.insert(wire::ROOM, wire::room_header(watching.room).as_str());
        headers
    }

    async fn publish(&self, watching: &Watching, mut headers: HeaderMap, payload: Bytes) -> bool {
        let subject = wire::rooms_subject(watching.owner);
        self.seal.sign(&subject, &mut headers, &payload);
        let sent = self
            .client
            .publish_with_headers(subject, headers, payload)
            .await;
        if sent.is_err() {
            count(&METRICS.cluster_publish_failures);
        }
        sent.is_ok()
    }
}

fn close_watched(watched: Option<Watched>, reason: &'static str) {
    if let Some(mut watched) = watched {
        if let Some(reader) = watched.reader.take() {
            reader.abort();
        }
        for (_, watcher) in watched.sockets.drain() {
            let _ = watcher.tx.try_send(Outgoing::Close(1012, reason));
        }
    }
}

/// Hands each frame of `room`'s subject to this node's sockets on it, in the order the
/// owner published them; a frame not sealed by a node of the cluster (`seal`) is dropped.
async fn read_room(
    mut subscriber: async_nats::Subscriber,
    rooms: Arc<Mutex<HashMap<RoomName, Watched>>>,
    room: RoomName,
    (node, seal): (Uuid, Arc<Seal>),
) {
    while let Some(message) = subscriber.next().await {
        count(&METRICS.cluster_frames_received);
        if seal
            .verify(&message.subject, message.headers.as_ref(), &message.payload)
            .is_err()
        {
            continue;
        }
        let Ok(text) = String::from_utf8(message.payload.to_vec()) else {
            continue;
        };
        let headers = message.headers.as_ref();
        let to = headers
            .and_then(|h| h.get(wire::TO))
            .and_then(|v| wire::parse_remote_key(v.as_str()));
        let close = headers
            .and_then(|h| h.get(wire::CLOSE))
            .and_then(|v| v.as_str().parse::<u16>().ok());
        let mut rooms = rooms.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(watched) = rooms.get_mut(&room) else {
            return;
        };
        match to {
            Some(to) if to.node != node => {}
            Some(to) => {
                let outgoing = match close {
                    Some(code) => Outgoing::Close(code, wire::close_reason(&text)),
                    None => Outgoing::Text(Utf8Bytes::from(text)),
                };
                let closing = matches!(outgoing, Outgoing::Close(..));
                let full = watched.sockets.get_mut(&to.key).is_some_and(|watcher| {
                    watcher.caught_up = true;
                    watcher.tx.try_send(outgoing).is_err()
                });
                if full || closing {
                    // Dropping its queue ends the socket's writer; the socket then tells
                    // the owner it closed.
                    watched.sockets.remove(&to.key);
                }
            }
            None => {
                let text = Utf8Bytes::from(text);
                watched.sockets.retain(|_, watcher| {
                    if !watcher.caught_up {
                        return true;
                    }
                    let kept = watcher.tx.try_send(Outgoing::Text(text.clone())).is_ok();
                    if !kept {
                        count(&METRICS.dropped_slow_clients);
                    }
                    kept
                });
            }
        }
    }
}
