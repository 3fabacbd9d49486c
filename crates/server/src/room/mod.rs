//! What a game's task and a tournament's task share as a room that sockets watch: the
//! handle the rest of the server reaches it by ([`handle`]), the
//! connections with their bounded outgoing queues and the fan-out of a frame encoded once
//! ([`connections`]), the recent versioned events a client reconnecting with `?v=` is
//! caught up from ([`history`]), and the one timer helper every task's loop sleeps on
//! ([`wake`]). Each task keeps what is its own (a game's seats, a tournament's presence)
//! as the data of its connections.

pub mod connections;
pub mod handle;
pub mod history;
pub mod outgoing;
pub mod sink;
pub mod wake;

use axum::extract::ws::Utf8Bytes;

pub use connections::{Connection, Connections};
pub use handle::{Gone, Handle, SocketCommand};
pub use history::History;
pub use outgoing::{ConnId, Outgoing};
pub use sink::Sink;

/// The close reason (code 1012) of a room, game or tournament, that another node took
/// over: the client reconnects and is routed there.
pub(crate) const MOVED: &str = "this moved to another server; reconnect in a moment";

/// A room: its connections (with what the room keeps of each, `T`) and its recent events.
#[derive(Debug)]
pub struct Room<T> {
    pub connections: Connections<T>,
    pub history: History,
}

impl<T> Room<T> {
    /// A room without connections, keeping at most `max_events` recent events and
    /// `max_bytes` bytes of them.
    #[must_use]
    pub fn new(max_events: usize, max_bytes: usize) -> Room<T> {
        Room {
            connections: Connections::default(),
            history: History::new(max_events, max_bytes),
        }
    }

    /// Keeps the event of version `version` (encoded once as `text`) and sends it to every
    /// connection; those too slow are removed and returned (see
    /// [`Connections::broadcast`]).
    pub fn publish(&mut self, version: u64, text: Utf8Bytes) -> Vec<(ConnId, T)> {
        self.history.push(version, text.clone());
        self.connections.broadcast(&text)
    }

    /// Queues on `tx` the events a client that saw version `after` missed, the room being
    /// at `version`; `false` (nothing queued) when it must be sent the state instead: no
    /// `after`, or [`History::missed`] says so.
    pub fn catch_up(&self, tx: &Sink, after: Option<u64>, version: u64, at_most: u64) -> bool {
        let Some(missed) = after.and_then(|after| self.history.missed(after, version, at_most))
        else {
            return false;
        };
        for text in missed {
            let _ = tx.try_send(Outgoing::Text(text));
        }
        true
    }
}
