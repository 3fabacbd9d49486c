//! This node's rooms, as the cluster asks them: declared here and answered by the games
//! and the tournaments (`node_rooms.rs`, beside `state.rs` at the top), so that the
//! cluster's room gateway and takeover, beneath every concern, name none. (Its HTTP
//! forwarding, `forward.rs`, still reads the server's state: which node holds a room.) The cluster reads what crosses NATS and
//! hands each room what its task takes: a socket of another node to connect, that
//! socket's messages, round trips and close, the live nodes, and an orphaned room to take
//! over.

use std::collections::HashSet;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use bytes::Bytes;
use uuid::Uuid;

use super::wire::RoomName;
use crate::room::{ConnId, Sink};
use crate::store::lease::Lease;
use crate::store::StoreError;

/// A future these answers come as (the trait is used as `dyn`).
pub type Answer<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// What a socket of another node sends its room.
#[derive(Debug)]
pub enum RemoteMessage {
    /// A client's message as its socket's node received it (checked there; the room's
    /// side decodes it again, having crossed a network, once it knows the room takes it).
    Client(Bytes),
    /// A ping's round trip, measured by the socket's node.
    Latency { round_trip_ms: u64 },
    /// The socket closed.
    Disconnect,
}

/// This node's rooms, games and tournaments.
pub trait LocalRooms: Send + Sync {
    /// Connects a socket of another node (its frames go to `sink`) to `room`, as
    /// `player` (or a watcher), caught up after version `resume_after`; the room is loaded
    /// here if nobody holds it. Its number in the room, or why not.
    fn connect(
        &self,
        room: RoomName,
        player: Option<Uuid>,
        resume_after: Option<u64>,
        sink: Sink,
    ) -> Answer<'_, Result<ConnId, &'static str>>;

    /// Passes connection `conn`'s `message` to `room`, when the room is here.
    fn relay(&self, room: RoomName, conn: ConnId, message: RemoteMessage) -> Answer<'_, ()>;

    /// Tells every room here which nodes live (a room forgets the sockets of the others).
    fn nodes_live(&self, live: Arc<HashSet<Uuid>>) -> Answer<'_, ()>;

    /// Loads the room of an orphaned `lease` here, taking it over.
    fn take_over<'a>(&'a self, lease: &'a Lease) -> Answer<'a, Result<TakeOver, StoreError>>;
}

/// What came of taking an orphaned room over.
#[derive(Debug, PartialEq, Eq)]
pub enum TakeOver {
    /// Loaded here: this node holds it now.
    Taken,
    /// No such room any more (a game removed unstarted, a tournament that never began):
    /// its lease is given back, so that orphans never pile up.
    Gone,
    /// Not now: another room's to take with it (a tournament's game goes with its
    /// tournament), or it could not be loaded; looked at again next time.
    NotNow,
}
