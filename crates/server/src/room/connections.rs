//! A room's connections: each socket's bounded outgoing queue with what the room knows of
//! it (a game's seat, a tournament's player). A frame is encoded once by the room and
//! queued on every connection; a connection whose queue is full is dropped rather than
//! slowing the room (dropping its queue ends the socket's writer, which closes the socket;
//! the client resyncs when it reconnects).

use std::collections::HashMap;

use axum::extract::ws::Utf8Bytes;

use super::outgoing::{ConnId, Outgoing};
use super::sink::Sink;
use crate::metrics::{count, METRICS};

/// One socket of a room: where its frames go (its outgoing queue, or its node's, for a
/// socket on another node), and `who`, what the room keeps of it.
#[derive(Debug)]
pub struct Connection<T> {
    tx: Sink,
    pub who: T,
}

/// The open connections of a room, by number.
#[derive(Debug)]
pub struct Connections<T> {
    open: HashMap<ConnId, Connection<T>>,
    next: ConnId,
}

impl<T> Default for Connections<T> {
    fn default() -> Self {
        Connections {
            open: HashMap::new(),
            next: 1,
        }
    }
}

impl<T> Connections<T> {
    /// Adds a connection whose messages go on `tx`; its number.
    pub fn add(&mut self, tx: impl Into<Sink>, who: T) -> ConnId {
        let id = self.next;
        self.next += 1;
        self.open.insert(id, Connection { tx: tx.into(), who });
        id
    }

    /// Removes connection `id` (its socket closed); what the room kept of it, if it was
    /// still open.
    pub fn remove(&mut self, id: ConnId) -> Option<T> {
        self.open.remove(&id).map(|c| c.who)
    }

    #[must_use]
    pub fn get(&self, id: ConnId) -> Option<&T> {
        self.open.get(&id).map(|c| &c.who)
    }

    pub fn get_mut(&mut self, id: ConnId) -> Option<&mut T> {
        self.open.get_mut(&id).map(|c| &mut c.who)
    }

    /// Every open connection's number and what the room keeps of it.
    pub fn iter(&self) -> impl Iterator<Item = (ConnId, &T)> {
        self.open.iter().map(|(&id, c)| (id, &c.who))
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.open.is_empty()
    }

    /// Queues `text` for connection `id` alone. A connection whose queue is full is
    /// removed: what the room kept of it is returned, for its own bookkeeping.
    pub fn send(&mut self, id: ConnId, text: Utf8Bytes) -> Option<T> {
        let full = self
            .open
            .get(&id)
            .is_some_and(|c| c.tx.try_send(Outgoing::Text(text)).is_err());
        if full {
            self.remove(id)
        } else {
            None
        }
    }

    /// Queues `text` (encoded once) for every connection: on each local socket's queue,
    /// and once on the room's subject for all its sockets on other nodes (each node
    /// subscribed to it hands it to its own). Those too slow to keep up (their queue full;
    /// all the remote ones when the node's queue to NATS is) are counted, removed, and
    /// returned with what the room kept of them.
    pub fn broadcast(&mut self, text: &Utf8Bytes) -> Vec<(ConnId, T)> {
        let mut remote = None;
        let mut slow: Vec<ConnId> = Vec::new();
        for (&id, c) in &self.open {
            match &c.tx {
                Sink::Local(tx) => {
                    if tx.try_send(Outgoing::Text(text.clone())).is_err() {
                        slow.push(id);
                    }
                }
                Sink::Remote(conn) => remote = Some(std::sync::Arc::clone(conn)),
            }
        }
        if let Some(remote) = remote {
            if remote.try_broadcast(text).is_err() {
                slow.extend(
                    self.open
                        .iter()
                        .filter(|(_, c)| c.tx.is_remote())
                        .map(|(&id, _)| id),
                );
            }
        }
        slow.into_iter()
            .filter_map(|id| {
                count(&METRICS.dropped_slow_clients);
                self.remove(id).map(|who| (id, who))
            })
            .collect()
    }

    /// Removes the connections of sockets on nodes not in `live` (a node that died takes
    /// its sockets with it, and nobody tells the room they closed); what the room kept of
    /// each.
    pub fn remove_remote_not_in(
        &mut self,
        live: &std::collections::HashSet<uuid::Uuid>,
    ) -> Vec<(ConnId, T)> {
        let gone: Vec<ConnId> = self
            .open
            .iter()
            .filter(|(_, c)| match &c.tx {
                Sink::Remote(conn) => !live.contains(&conn.node()),
                Sink::Local(_) => false,
            })
            .map(|(&id, _)| id)
            .collect();
        gone.into_iter()
            .filter_map(|id| self.remove(id).map(|who| (id, who)))
            .collect()
    }

    /// Closes every connection with `code` and `reason` (the room is going away) and
    /// forgets them; what the room kept of each.
    pub fn close_all(&mut self, code: u16, reason: &'static str) -> Vec<T> {
        self.open
            .drain()
            .map(|(_, c)| {
                let _ = c.tx.try_send(Outgoing::Close(code, reason));
                c.who
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::sync::mpsc;

    fn text(message: &Outgoing) -> &str {
        match message {
            Outgoing::Text(text) => text.as_str(),
            Outgoing::Close(..) => "close",
        }
    }

    #[test]
    fn a_broadcast_reaches_everyone_and_drops_only_the_full_queues() {
        let mut room = Connections::default();
        let (fast_tx, mut fast_rx) = mpsc::channel(4);
        let (slow_tx, mut slow_rx) = mpsc::channel(1);
        let fast = room.add(fast_tx, "fast");
        let slow = room.add(slow_tx, "slow");
        assert_eq!((fast, slow), (1, 2));
        assert!(room.broadcast(&"one".into()).is_empty());
        assert_eq!(room.broadcast(&"two".into()), vec![(slow, "slow")]);
        assert_eq!(
            room.iter().map(|(id, _)| id).collect::<Vec<_>>(),
            vec![fast]
        );
        assert_eq!(text(&fast_rx.try_recv().unwrap()), "one");
        assert_eq!(text(&fast_rx.try_recv().unwrap()), "two");
        assert_eq!(text(&slow_rx.try_recv().unwrap()), "one");
        // The slow queue was dropped with its connection: its writer sees the end.
        assert!(slow_rx.try_recv().is_err());
        assert!(slow_rx.is_closed());
    }

    #[test]
    fn a_message_for_one_goes_to_that_one_only() {
        let mut room = Connections::default();
        let (a_tx, mut a_rx) = mpsc::channel(1);
        let (b_tx, mut b_rx) = mpsc::channel(1);
        let a = room.add(a_tx, 'a');
        room.add(b_tx, 'b');
        assert_eq!(room.send(a, "hello".into()), None);
        assert_eq!(text(&a_rx.try_recv().unwrap()), "hello");
        assert!(b_rx.try_recv().is_err());
        // Full again: removed, and what the room kept of it given back.
        assert_eq!(room.send(a, "x".into()), None);
        assert_eq!(room.send(a, "y".into()), Some('a'));
        assert_eq!(room.get(a), None);
        // An unknown connection: nothing.
        assert_eq!(room.send(99, "z".into()), None);
    }

    #[test]
    fn closing_all_sends_each_its_close_and_forgets_them() {
        let mut room = Connections::default();
        let (a_tx, mut a_rx) = mpsc::channel(2);
        room.add(a_tx, 7);
        let mut closed = room.close_all(1001, "bye");
        closed.sort_unstable();
        assert_eq!(closed, vec![7]);
        assert!(room.is_empty());
        match a_rx.try_recv().unwrap() {
            Outgoing::Close(code, reason) => assert_eq!((code, reason), (1001, "bye")),
            Outgoing::Text(text) => panic!("a close was expected, not {text}"),
        }
        // Numbers are not reused.
        let (b_tx, _b_rx) = mpsc::channel(1);
        assert_eq!(room.add(b_tx, 8), 2);
    }
}
