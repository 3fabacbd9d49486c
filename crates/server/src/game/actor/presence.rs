//! Who is at the table: the game's connections (players in their seats and spectators),
//! what a connecting client is sent first, and the presence the table logs.

use std::sync::atomic::Ordering;

use axum::extract::ws::Utf8Bytes;
use omweso_rules::Side;
use uuid::Uuid;

use super::{connection_gauge, Actor, Viewer, OUTGOING_QUEUE};
use crate::game::log::Entry;
use crate::game::news::TableNews;
use crate::room::{ConnId, Outgoing};
use omweso_protocol::clock::now_ms;
use omweso_protocol::Frame;

impl Actor {
    /// Notes whether the person facing the computer is at the table (after every command).
    pub(super) fn watch_person(&mut self) {
        let Some((computer, _)) = self.table.computer() else {
            return;
        };
        if self.connected()[computer.other().index()] {
            self.person_away_since = None;
        } else if self.person_away_since.is_none() {
            self.person_away_since = Some(now_ms());
        }
    }

    /// Tells the table which seated players have a connection open, logging each change
    /// (the grace for coming back is the table's, rebuilt from the log after a restart).
    /// A change the store refuses is undone, and tried again after the next command.
    /// Watchers (a tournament showing who is here) hear of each change of who has a
    /// connection open, the game over or not: its players stay on its page after its end.
    pub(super) async fn sync_presence(&mut self) {
        self.watch_person();
        let connected = self.connected();
        for side in Side::ALL {
            let here = connected[side.index()];
            // This runs after every command: the savepoint is taken only for a change.
            if !self.table.presence_changes(side, here) {
                continue;
            }
            let now = now_ms();
            let before = self.table.savepoint();
            // The second player arriving may start the first turn's count (a `count`).
            let events = self.table.set_present(side, here, now).unwrap_or_default();
            let entry = Entry::Presence { side, here };
            if self.commit(entry, now, events, None).await.is_err() {
                self.table.rollback(before);
            }
        }
        if connected != self.told_present && !self.watchers.is_empty() {
            self.tell_watchers();
        }
    }

    /// The game's news for its watchers, with who of its seats has a connection open now
    /// (the table's own presence stops changing once the game is over).
    pub(super) fn news(&self) -> TableNews {
        TableNews {
            present: self.connected(),
            ..TableNews::of(&self.table)
        }
    }

    /// Tells every watcher the game's news as it stands.
    pub(super) fn tell_watchers(&mut self) {
        self.told_present = self.connected();
        let news = self.news();
        self.watchers.tell(&news);
    }

    /// A player joined: their sockets opened before (as a spectator's) now hold the seat,
    /// and each gets the state as its player sees it (`you` set).
    pub(super) async fn seat_open_sockets(&mut self, player: Uuid, side: Side) {
        let upgraded: Vec<ConnId> = self
            .room
            .connections
            .iter()
            .filter(|(_, v)| v.player == Some(player) && v.seat != Some(side))
            .map(|(id, _)| id)
            .collect();
        if upgraded.is_empty() {
            return;
        }
        let state: Utf8Bytes = Frame::state(self.snapshot(Some(side)).await)
            .to_text()
            .into();
        for id in upgraded {
            if let Some(viewer) = self.room.connections.get_mut(id) {
                connection_gauge(viewer.seat).fetch_sub(1, Ordering::Relaxed);
                viewer.seat = Some(side);
                connection_gauge(viewer.seat).fetch_add(1, Ordering::Relaxed);
            }
            if let Some(gone) = self.room.connections.send(id, state.clone()) {
                self.left(&gone);
            }
        }
        self.crowd_dirty = true;
    }

    /// A socket opens: counted (and seated, if its player has a seat), then sent what it
    /// missed or the state, and who is here.
    pub(super) async fn connect(
        &mut self,
        player: Option<Uuid>,
        resume_after: Option<u64>,
        tx: crate::room::Sink,
    ) -> ConnId {
        let seat = player.and_then(|p| self.table.seat_of(p));
        // Counted before the state is sent: a player's own page shows them at the
        // table from its first snapshot, not "not connected" until the next crowd.
        connection_gauge(seat).fetch_add(1, Ordering::Relaxed);
        let conn = self
            .room
            .connections
            .add(tx.clone(), Viewer { player, seat });
        self.catch_up(&tx, seat, resume_after).await;
        self.crowd_dirty = true;
        conn
    }

    /// What a (re)connecting client gets first: the events it missed, or the state.
    async fn catch_up(&mut self, tx: &crate::room::Sink, seat: Option<Side>, after: Option<u64>) {
        // More missed events than the connection's queue holds (with the `crowd` after
        // them) would be cut short: the state is sent instead.
        let at_most = (OUTGOING_QUEUE - 1) as u64;
        self.ratings_read_again_if_rated_over().await;
        if !self.room.catch_up(tx, after, self.table.version(), at_most) {
            let state = Frame::state(self.snapshot(seat).await).to_text();
            let _ = tx.try_send(Outgoing::Text(state.into()));
        } else if let Some(ratings) = self.ratings_on_resume() {
            // The events missed do not carry a sheet's rating (docs/protocol.md#ratings-addition).
            let _ = tx.try_send(Outgoing::Text(ratings.to_text().into()));
        }
        let crowd = Frame::crowd(self.spectators(), self.connected()).to_text();
        let _ = tx.try_send(Outgoing::Text(crowd.into()));
    }

    /// Which seats have their player here: a socket open, or the computer.
    pub(super) fn connected(&self) -> [bool; 2] {
        let mut connected = [false; 2];
        for (_, viewer) in self.room.connections.iter() {
            if let Some(side) = viewer.seat {
                connected[side.index()] = true;
            }
        }
        if let Some((side, _)) = self.table.computer() {
            connected[side.index()] = true;
        }
        connected
    }

    pub(super) fn spectators(&self) -> usize {
        self.room
            .connections
            .iter()
            .filter(|(_, v)| v.seat.is_none())
            .count()
    }

    /// A socket closed.
    pub(super) fn drop_conn(&mut self, conn: ConnId) {
        if let Some(gone) = self.room.connections.remove(conn) {
            self.left(&gone);
        }
    }

    /// A connection is gone (closed, or dropped for being slow): uncounted; the table
    /// hears of a seat left empty after this command (`sync_presence`).
    pub(super) fn left(&mut self, gone: &Viewer) {
        connection_gauge(gone.seat).fetch_sub(1, Ordering::Relaxed);
        self.crowd_dirty = true;
    }

    /// Sends `frame` to connection `conn` alone.
    pub(super) fn reply(&mut self, conn: ConnId, frame: Frame) {
        if let Some(gone) = self.room.connections.send(conn, frame.to_text().into()) {
            self.left(&gone);
        }
    }

    /// Queues `text` (encoded once) on every connection; those too slow are dropped.
    pub(super) fn broadcast(&mut self, text: &Utf8Bytes) {
        let slow = self.room.connections.broadcast(text);
        self.dropped_slow(slow);
    }

    /// Connections dropped for being too slow to keep up.
    pub(super) fn dropped_slow(&mut self, slow: Vec<(ConnId, Viewer)>) {
        for (id, gone) in slow {
            tracing::debug!(game = %self.table.id(), conn = id, "dropping a client too slow to keep up");
            self.left(&gone);
        }
    }

    /// Closes every socket (the game is going away, or the server is stopping).
    pub(super) fn close_all(&mut self, code: u16, reason: &'static str) {
        for gone in self.room.connections.close_all(code, reason) {
            connection_gauge(gone.seat).fetch_sub(1, Ordering::Relaxed);
        }
    }
}
