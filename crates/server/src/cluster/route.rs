//! How a room reaches its sockets on other nodes: the node's one ordered queue to NATS
//! ([`Outbox`], drained by a single publishing task, so that everything a node publishes
//! leaves in the order its rooms queued it), and each room's subject on it
//! ([`RoomRoute`]): a broadcast is published there once, whatever the number of nodes and
//! sockets watching; a frame for one socket is published there too, addressed to it
//! ([`RemoteConn`]), so that every frame of a room reaches a watching node in the room's
//! own order (one subject, one subscription). Each message is sealed as it leaves
//! (`seal`): signed once, however many nodes read it.

use std::sync::Arc;

use async_nats::HeaderMap;
use axum::extract::ws::Utf8Bytes;
use bytes::Bytes;
use tokio::sync::mpsc;
use uuid::Uuid;

use super::seal::Seal;
use super::wire::{self, RemoteKey, RoomName};
use crate::metrics::{count, METRICS};
pub use crate::room::outgoing::Full;
use crate::room::outgoing::Outgoing;
use crate::room::sink::RemoteSink;

/// One message to publish.
#[derive(Debug)]
pub struct Publish {
    pub subject: async_nats::Subject,
    pub headers: Option<HeaderMap>,
    pub payload: Bytes,
}

/// The node's queue to NATS: bounded; a room that finds it full drops its remote sockets
/// as too slow (their clients reconnect and catch up), as a full socket queue does.
#[derive(Clone, Debug)]
pub struct Outbox {
    tx: mpsc::Sender<Publish>,
}

/// How many messages may wait for NATS before rooms count their remote sockets as slow.
pub const OUTBOX_QUEUE: usize = 16_384;

impl Outbox {
    /// The queue, and the task publishing it on `client`, each message sealed with `seal`,
    /// until every sender is dropped.
    #[must_use]
    pub fn start(
        client: async_nats::Client,
        seal: Arc<Seal>,
    ) -> (Outbox, tokio::task::JoinHandle<()>) {
        let (tx, mut rx) = mpsc::channel::<Publish>(OUTBOX_QUEUE);
        let task = tokio::spawn(async move {
            while let Some(message) = rx.recv().await {
                let mut headers = message.headers.unwrap_or_default();
                seal.sign(&message.subject, &mut headers, &message.payload);
                let sent = client
                    .publish_with_headers(message.subject, headers, message.payload)
                    .await;
                if let Err(error) = sent {
                    count(&METRICS.cluster_publish_failures);
                    tracing::warn!(%error, "could not publish to NATS");
                }
            }
            let _ = client.flush().await;
        });
        (Outbox { tx }, task)
    }

    /// A queue nothing publishes, and its receiving end (tests look at what would be
    /// published).
    #[cfg(test)]
    pub(crate) fn for_tests(capacity: usize) -> (Outbox, mpsc::Receiver<Publish>) {
        let (tx, rx) = mpsc::channel(capacity);
        (Outbox { tx }, rx)
    }

    /// Queues `message` without waiting.
    pub fn try_send(&self, message: Publish) -> Result<(), Full> {
        self.tx.try_send(message).map_err(|_| {
            count(&METRICS.cluster_outbox_full);
            Full
        })
    }

    /// The route of room `room` through this queue.
    #[must_use]
    pub fn route(&self, room: RoomName) -> RoomRoute {
        RoomRoute {
            subject: wire::room_subject(room).into(),
            outbox: self.clone(),
        }
    }
}

/// A room's subject, through the node's queue.
#[derive(Clone, Debug)]
pub struct RoomRoute {
    subject: Arc<str>,
    outbox: Outbox,
}

impl RoomRoute {
    /// Publishes `text` for every socket of the room on other nodes.
    pub fn try_broadcast(&self, text: Utf8Bytes) -> Result<(), Full> {
        self.outbox.try_send(Publish {
            subject: async_nats::Subject::from(&*self.subject),
            headers: None,
            payload: Bytes::copy_from_slice(text.as_str().as_bytes()),
        })
    }

    /// The connection `to` (a socket of another node) of this room.
    #[must_use]
    pub fn to(&self, to: RemoteKey) -> RemoteConn {
        RemoteConn {
            route: self.clone(),
            to,
        }
    }
}

/// A remote socket of a room.
#[derive(Clone, Debug)]
pub struct RemoteConn {
    route: RoomRoute,
    to: RemoteKey,
}

impl RemoteSink for RemoteConn {
    fn node(&self) -> Uuid {
        self.to.node
    }

    /// Published once on the room's subject, not addressed: every node watching hands it
    /// to its own sockets of the room.
    fn try_broadcast(&self, text: &Utf8Bytes) -> Result<(), Full> {
        self.route.try_broadcast(text.clone())
    }

    /// Published on the room's subject, addressed to this socket alone.
    fn try_send(&self, message: Outgoing) -> Result<(), Full> {
        let mut headers = HeaderMap::new();
        headers.insert(wire::TO, wire::remote_key(self.to).as_str());
        let payload = match message {
            Outgoing::Text(text) => Bytes::copy_from_slice(text.as_str().as_bytes()),
            Outgoing::Close(code, reason) => {
                headers.insert(wire::CLOSE, code.to_string().as_str());
                Bytes::from_static(reason.as_bytes())
            }
        };
        self.route.outbox.try_send(Publish {
            subject: async_nats::Subject::from(&*self.route.subject),
            headers: Some(headers),
            payload,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A room's broadcast reaches its sockets on other nodes through this route: once on
    /// the room's subject, whatever their number; a frame for one is addressed to it.
    #[test]
    fn a_broadcast_crosses_to_other_nodes_once_and_a_dead_nodes_sockets_are_forgotten() {
        use crate::cluster::wire::{self, RemoteKey, RoomName};
        use crate::room::sink::Sink;
        use crate::room::{ConnId, Connections};
        use tokio::sync::mpsc;

        let (outbox, mut published) = Outbox::for_tests(8);
        let room = RoomName::game(Uuid::from_u128(1));
        let route = outbox.route(room);
        let (b, c) = (Uuid::from_u128(0xb), Uuid::from_u128(0xc));
        let mut conns = Connections::default();
        let (local_tx, mut local_rx) = mpsc::channel(4);
        conns.add(local_tx, "local");
        // Three sockets of node b, one of node c.
        for (node, key) in [(b, 1), (b, 2), (b, 3), (c, 1)] {
            let remote = route.to(RemoteKey { node, key });
            conns.add(Sink::Remote(Arc::new(remote)), "remote");
        }
        assert!(conns.broadcast(&"e1".into()).is_empty());
        // Once on the room's subject for all four remote sockets, not addressed.
        let message = published.try_recv().unwrap();
        assert_eq!(message.subject.as_str(), wire::room_subject(room));
        assert!(message.headers.is_none());
        assert_eq!(&message.payload[..], b"e1");
        assert!(published.try_recv().is_err());
        assert!(matches!(local_rx.try_recv().unwrap(), Outgoing::Text(t) if t.as_str() == "e1"));
        // A frame for one remote socket is addressed to it, on the same subject.
        assert_eq!(conns.send(5, "you".into()), None);
        let message = published.try_recv().unwrap();
        let to = message.headers.unwrap().get(wire::TO).unwrap().to_string();
        assert_eq!(to, wire::remote_key(RemoteKey { node: c, key: 1 }));
        // Node b died: its three sockets are forgotten, c's and the local one stay.
        let live = std::collections::HashSet::from([c]);
        let mut gone: Vec<ConnId> = conns
            .remove_remote_not_in(&live)
            .into_iter()
            .map(|(id, _)| id)
            .collect();
        gone.sort_unstable();
        assert_eq!(gone, vec![2, 3, 4]);
        let mut left: Vec<ConnId> = conns.iter().map(|(id, _)| id).collect();
        left.sort_unstable();
        assert_eq!(left, vec![1, 5]);
    }
}
