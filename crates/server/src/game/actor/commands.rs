//! What the game's task does with each command: a player's action, a join, a
//! connection, an adjudication, a watcher.

use serde_json::Value;
use tokio::time::Instant;

use super::{Actor, Command};
use crate::game::log::Entry;
use crate::game::table::{Action, Refusal, RelayAction};
use crate::metrics::{count, METRICS};
use crate::room::{ConnId, SocketCommand};
use omweso_protocol::clock::now_ms;
use omweso_protocol::{ClientMessage, ErrorCode, Frame};

impl Actor {
    pub(super) async fn handle(&mut self, command: Command) {
        match command {
            Command::Join {
                seat,
                account,
                reply,
            } => {
                let before = self.table.savepoint();
                let now = now_ms();
                let result = match self.table.join(seat.clone(), now) {
                    Ok((side, events)) if events.is_empty() => Ok(side),
                    Ok((side, events)) => {
                        let casual = self.table.config().rated && !account;
                        if casual {
                            self.table.make_casual();
                        }
                        let entry = Entry::Join {
                            seat: seat.clone(),
                            casual,
                        };
                        match self.commit(entry, now, events, None).await {
                            Ok(()) => {
                                self.seat_open_sockets(seat.player, side).await;
                                Ok(side)
                            }
                            Err(refusal) => {
                                self.table.rollback(before);
                                Err(refusal)
                            }
                        }
                    }
                    Err(refusal) => Err(refusal),
                };
                let _ = reply.send(result);
            }
            Command::Snapshot { viewer, reply } => {
                self.ratings_read_again_if_rated_over().await;
                let you = viewer.and_then(|p| self.table.seat_of(p));
                let snapshot = self.snapshot(you).await;
                let _ = reply.send(snapshot);
            }
            Command::Socket(SocketCommand::Connect {
                player,
                resume_after,
                tx,
                reply,
            }) => {
                let conn = self.connect(player, resume_after, tx).await;
                let _ = reply.send(conn);
            }
            Command::Socket(SocketCommand::Disconnect { conn }) => self.drop_conn(conn),
            Command::Socket(SocketCommand::NodesLive { live }) => {
                for (_, gone) in self.room.connections.remove_remote_not_in(&live) {
                    self.left(&gone);
                }
            }
            Command::Latency {
                conn,
                round_trip_ms,
            } => {
                if let Some(side) = self.room.connections.get(conn).and_then(|v| v.seat) {
                    self.table.set_latency(side, round_trip_ms);
                }
            }
            Command::Client { conn, id, message } => self.client(conn, id, message).await,
            Command::Adjudicate { reply } => {
                let result = self.adjudicate().await.map(|()| self.news());
                let _ = reply.send(result);
            }
            Command::Relay { action, reply } => {
                let _ = reply.send(self.relay(action).await);
            }
            Command::News { reply } => {
                let _ = reply.send(self.news());
            }
            Command::RatingsChanged => self.ratings_changed().await,
            Command::Watch { tx, reply } => {
                self.watchers.add(tx);
                self.told_present = self.connected();
                let _ = reply.send(self.news());
            }
        }
    }

    /// Ends the game on material, durably, then shows it; undone if it cannot be saved.
    pub(super) async fn adjudicate(&mut self) -> Result<(), Refusal> {
        let before = self.table.savepoint();
        let now = now_ms();
        let events = self.table.adjudicate(now)?;
        let committed = self.commit(Entry::Adjudicate, now, events, None).await;
        if committed.is_err() {
            self.table.rollback(before);
        }
        committed
    }

    /// The relay's entry, durably, then shown; undone if it cannot be saved.
    pub(super) async fn relay(&mut self, action: RelayAction) -> Result<u64, Refusal> {
        // A copy of the whole table, history included (an undo shortens it, which a
        // savepoint cannot give back); a relay enters a move every few seconds at most.
        let before = self.table.clone();
        let now = now_ms();
        let events = self.table.relay(&action, now)?;
        let is_move = matches!(
            action,
            RelayAction::Move { .. } | RelayAction::Decide { .. }
        );
        match self
            .commit(Entry::Relay { action }, now, events, None)
            .await
        {
            Ok(()) => {
                if is_move {
                    count(&METRICS.moves);
                }
                Ok(self.table.version())
            }
            Err(refusal) => {
                self.table = before;
                Err(refusal)
            }
        }
    }

    pub(super) async fn client(&mut self, conn: ConnId, id: Option<Value>, message: ClientMessage) {
        let Some(action) = Action::from_message(message) else {
            return self.reply(conn, Frame::pong());
        };
        let Some(side) = self.room.connections.get(conn).and_then(|v| v.seat) else {
            let refusal = Frame::error(
                id,
                ErrorCode::Spectator,
                "you are watching this game; only its players may play",
            );
            return self.reply(conn, refusal);
        };
        if self.table.config().relayed {
            let refusal = Frame::error(
                id,
                ErrorCode::RelayedGame,
                "this game is played on a wooden board: its moves are entered by the table's relay, not from here",
            );
            return self.reply(conn, refusal);
        }
        let started = Instant::now();
        let is_play = matches!(action, Action::Move { .. } | Action::Decide { .. });
        let before = self.table.savepoint();
        let now = now_ms();
        match self.table.act(side, &action, now) {
            Err(refusal) => {
                count(&METRICS.refused_messages);
                self.reply(conn, Frame::error(id, refusal.code, refusal.message));
            }
            Ok(events) => {
                let entry = Entry::Act { side, action };
                match self
                    .commit(entry, now, events, Some((conn, id.clone())))
                    .await
                {
                    Ok(()) => {
                        if is_play {
                            count(&METRICS.moves);
                            METRICS.move_latency.observe(started.elapsed());
                        }
                    }
                    Err(refusal) => {
                        self.table.rollback(before);
                        self.reply(conn, Frame::error(id, refusal.code, refusal.message));
                    }
                }
            }
        }
    }
}
