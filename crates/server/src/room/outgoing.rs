//! What a room sends a connection, and how it names one: the words the room's parts (its
//! connections, the sink to another node) share, apart from the room itself.

use axum::extract::ws::Utf8Bytes;

/// A message for one connection.
#[derive(Clone, Debug)]
pub enum Outgoing {
    Text(Utf8Bytes),
    /// Close the socket with this code and reason.
    Close(u16, &'static str),
}

/// A connection's number in its room (never reused while the room's task runs).
pub type ConnId = u64;

/// A frame could not be queued: the socket's queue, or its node's queue to the other
/// nodes, is full (or closed).
#[derive(Debug, PartialEq, Eq)]
pub struct Full;
