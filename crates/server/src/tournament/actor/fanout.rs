//! What the tournament's sockets are sent: what a connecting one missed (or the state),
//! the events, the batched boards and who is here.

use axum::extract::ws::Utf8Bytes;
use std::collections::HashSet;
use tokio::time::Instant;
use uuid::Uuid;

use super::{Actor, TOURNAMENT_OUTGOING_QUEUE};
use crate::room::{ConnId, Outgoing};
use omweso_protocol::tournament::{BoardView, TournamentEvent, TournamentFrame};

impl Actor {
    /// Sends every table whose board changed since the last send, its latest board only,
    /// as one message for every watcher (`boards`, or `board` for a single table: see
    /// [`TournamentFrame::live_boards`]); and who is here, if that changed. One message a
    /// period, not one per table: a hundred tables and a thousand watchers made a hundred
    /// thousand frames a period, each queued and written on its own.
    pub(super) fn flush_boards(&mut self) {
        self.boards_sent = Instant::now();
        let changed: Vec<BoardView> = self
            .dirty
            .drain()
            .filter_map(|game_id| self.boards.get(&game_id).cloned())
            .collect();
        if let Some(frame) = TournamentFrame::live_boards(changed) {
            // Encoded once, whatever the number of watchers.
            let text: Utf8Bytes = frame.to_text().into();
            self.broadcast(&text);
        }
        if std::mem::take(&mut self.presence_dirty) {
            let presence = self.presence();
            if presence != self.presence_sent {
                let text: Utf8Bytes = TournamentFrame::presence(presence.clone()).to_text().into();
                self.presence_sent = presence;
                self.broadcast(&text);
            }
        }
    }

    pub(super) fn publish(&mut self, events: &[(u64, TournamentEvent)]) {
        for (v, event) in events {
            let message: Utf8Bytes = TournamentFrame::event(*v, event.clone()).to_text().into();
            let slow = self.room.publish(*v, message);
            self.dropped_slow(slow);
        }
        // Boards of games no longer in play are not sent to newcomers.
        let in_play: HashSet<Uuid> = self.t.games_in_play().iter().map(|g| g.0).collect();
        self.boards.retain(|id, _| in_play.contains(id));
        self.news.retain(|id, _| in_play.contains(id));
        self.watching.retain(|id| in_play.contains(id));
        // A player who joins may have the socket open already; a player whose game ended
        // is no longer at it.
        self.presence_dirty = true;
    }

    /// What a (re)connecting client gets first: the events it missed, or the state; who is
    /// here; then the board of every table in play, in one message.
    pub(super) fn catch_up(
        &mut self,
        tx: &crate::room::Sink,
        player: Option<Uuid>,
        after: Option<u64>,
    ) {
        let at_most = (TOURNAMENT_OUTGOING_QUEUE / 2) as u64;
        if !self.room.catch_up(tx, after, self.t.version(), at_most) {
            let _ = tx.try_send(Outgoing::Text(self.state_text(player).into()));
        }
        // Who is here now, this connection counted (the others hear of it with the next
        // batch).
        let presence = TournamentFrame::presence(self.presence()).to_text();
        let _ = tx.try_send(Outgoing::Text(presence.into()));
        // Every table in play in one message, as a period's changes are sent.
        let boards: Vec<BoardView> = self.boards.values().cloned().collect();
        if let Some(frame) = TournamentFrame::live_boards(boards) {
            let _ = tx.try_send(Outgoing::Text(frame.to_text().into()));
        }
    }

    /// The `state` frame for `viewer`: built and encoded once per version (as a spectator
    /// sees it) and shared, with the viewer's own id put in its one top-level `"you"`.
    pub(super) fn state_text(&mut self, viewer: Option<Uuid>) -> String {
        let version = self.t.version();
        if self.state_frame.as_ref().is_none_or(|(v, _)| *v != version) {
            let text = TournamentFrame::state(self.t.snapshot(None)).to_text();
            self.state_frame = Some((version, text));
        }
        let shared = self
            .state_frame
            .as_ref()
            .map_or("", |(_, text)| text.as_str());
        match viewer.filter(|v| self.t.player_index(*v).is_some()) {
            // Field names are written unescaped and every string's quotes are escaped, so
            // the first `"you":null` is the snapshot's own field.
            Some(viewer) => shared.replacen("\"you\":null", &format!("\"you\":\"{viewer}\""), 1),
            None => shared.to_owned(),
        }
    }

    /// Queues `text` (encoded once) on every socket; those too slow are dropped.
    pub(super) fn broadcast(&mut self, text: &Utf8Bytes) {
        let slow = self.room.connections.broadcast(text);
        self.dropped_slow(slow);
    }

    /// Sockets dropped for being too slow to keep up (the client resyncs when it
    /// reconnects).
    fn dropped_slow(&mut self, slow: Vec<(ConnId, Option<Uuid>)>) {
        for (_, player) in slow {
            self.left(player);
        }
    }

    /// Closes every socket (the tournament is going away, or the server is stopping).
    pub(super) fn close_all(&mut self, code: u16, reason: &'static str) {
        self.room.connections.close_all(code, reason);
        self.socket_players.clear();
    }
}
