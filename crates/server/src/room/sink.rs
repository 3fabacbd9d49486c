//! Where a room queues a connection's frames: the socket's own bounded queue when the
//! socket is on this node, or the room's NATS subject, addressed to the socket, when it is
//! on another node (docs/scaling.md). The room's code sends the same way to both.

use axum::extract::ws::Utf8Bytes;
use tokio::sync::mpsc;

use super::outgoing::Outgoing;
pub use crate::cluster::route::Full;
use crate::cluster::route::{RemoteConn, RoomRoute};

/// A connection's outgoing side.
#[derive(Clone, Debug)]
pub enum Sink {
    /// A socket of this node: its bounded queue (full: the connection is too slow).
    Local(mpsc::Sender<Outgoing>),
    /// A socket of another node: frames cross NATS on the room's subject, addressed to it.
    Remote(RemoteConn),
}

impl Sink {
    /// Queues `message` without waiting.
    pub fn try_send(&self, message: Outgoing) -> Result<(), Full> {
        match self {
            Sink::Local(tx) => tx.try_send(message).map_err(|_| Full),
            Sink::Remote(conn) => conn.try_send(message),
        }
    }

    /// The route of a remote connection's room (a broadcast reaches every remote
    /// connection of a room through it, once).
    #[must_use]
    pub fn route(&self) -> Option<&RoomRoute> {
        match self {
            Sink::Local(_) => None,
            Sink::Remote(conn) => Some(conn.route()),
        }
    }
}

impl From<mpsc::Sender<Outgoing>> for Sink {
    fn from(tx: mpsc::Sender<Outgoing>) -> Sink {
        Sink::Local(tx)
    }
}

/// A broadcast's text for the remote connections of a room: sent once on `route`.
pub(crate) fn broadcast_remote(route: &RoomRoute, text: &Utf8Bytes) -> Result<(), Full> {
    route.try_broadcast(text.clone())
}
