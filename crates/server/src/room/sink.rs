//! Where a room queues a connection's frames: the socket's own bounded queue when the
//! socket is on this node, or, for a socket on another node, the way there the cluster
//! gives it ([`RemoteSink`]: the room's NATS subject, docs/scaling.md). The room's code
//! sends the same way to both, and names no transport between nodes.

use std::fmt;
use std::sync::Arc;

use axum::extract::ws::Utf8Bytes;
use tokio::sync::mpsc;
use uuid::Uuid;

pub use super::outgoing::Full;
use super::outgoing::Outgoing;

/// A socket of the room on another node, as the cluster reaches it: each of a room's
/// remote sockets shares the room's one way to the other nodes.
pub trait RemoteSink: fmt::Debug + Send + Sync {
    /// Queues `message` for this socket alone, without waiting.
    fn try_send(&self, message: Outgoing) -> Result<(), Full>;

    /// Queues `text` once for every socket of the room on other nodes (each node hands it
    /// to its own), without waiting.
    fn try_broadcast(&self, text: &Utf8Bytes) -> Result<(), Full>;

    /// The node the socket is on.
    fn node(&self) -> Uuid;
}

/// A connection's outgoing side.
#[derive(Clone, Debug)]
pub enum Sink {
    /// A socket of this node: its bounded queue (full: the connection is too slow).
    Local(mpsc::Sender<Outgoing>),
    /// A socket of another node.
    Remote(Arc<dyn RemoteSink>),
}

impl Sink {
    /// Queues `message` without waiting.
    pub fn try_send(&self, message: Outgoing) -> Result<(), Full> {
        match self {
            Sink::Local(tx) => tx.try_send(message).map_err(|_| Full),
            Sink::Remote(conn) => conn.try_send(message),
        }
    }

    /// Whether the socket is on another node.
    #[must_use]
    pub fn is_remote(&self) -> bool {
        matches!(self, Sink::Remote(_))
    }
}

impl From<mpsc::Sender<Outgoing>> for Sink {
    fn from(tx: mpsc::Sender<Outgoing>) -> Sink {
        Sink::Local(tx)
    }
}
