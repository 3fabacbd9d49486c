//! The task that owns one live game (Alice Ryhl's actor pattern). Sockets and HTTP
//! handlers talk to it only through a bounded channel; it owns the [`Table`], the
//! connections' outgoing queues and the recent events, so nothing is shared and no lock is
//! held across an `.await`.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::time::Duration;

use omweso_rules::Side;
use serde_json::Value;
use tokio::sync::{mpsc, oneshot, watch};
use tokio::time::Instant;
use uuid::Uuid;

use super::events::{Event, Snapshot};
use super::log::Entry;
use super::table::{Action, Refusal, Seat, Status, Table};
use crate::clock::now_ms;
use crate::metrics::{count, METRICS};
use crate::protocol::{self, ClientMessage};
use crate::store::{ActionRow, GameRow, Write, Writer};

/// Commands a game's channel holds at most; senders wait when it is full.
pub const COMMAND_QUEUE: usize = 256;
/// Messages a connection's outgoing queue holds; a connection that falls this far behind
/// is dropped (it resyncs when it reconnects) rather than slowing the table.
pub const OUTGOING_QUEUE: usize = 128;
/// Recent events kept for `?v=` resumption.
pub const RECENT_EVENTS: usize = 512;
/// How often `crowd` may be sent: joins and leaves are batched.
const CROWD_EVERY: Duration = Duration::from_millis(250);

/// A message for one connection.
#[derive(Clone, Debug)]
pub enum Outgoing {
    Text(Arc<str>),
    /// Close the socket with this code and reason.
    Close(u16, &'static str),
}

pub type ConnId = u64;

pub enum Command {
    Join {
        seat: Seat,
        reply: oneshot::Sender<Result<Side, Refusal>>,
    },
    Snapshot {
        viewer: Option<Uuid>,
        reply: oneshot::Sender<Snapshot>,
    },
    Connect {
        player: Option<Uuid>,
        resume_after: Option<u64>,
        tx: mpsc::Sender<Outgoing>,
        reply: oneshot::Sender<ConnId>,
    },
    Disconnect {
        conn: ConnId,
    },
    Client {
        conn: ConnId,
        id: Option<Value>,
        message: ClientMessage,
    },
    Latency {
        conn: ConnId,
        round_trip_ms: u64,
    },
    Preview {
        player: Uuid,
        action: super::table::Action,
        reply: oneshot::Sender<Result<Vec<Event>, Refusal>>,
    },
}

/// What the rest of the server holds to reach a game.
#[derive(Clone, Debug)]
pub struct GameHandle {
    id: Uuid,
    tx: mpsc::Sender<Command>,
}

/// The game's task has ended (the game was unloaded or the server is stopping).
#[derive(Debug, thiserror::Error)]
#[error("the game is not loaded")]
pub struct Gone;

impl GameHandle {
    #[must_use]
    pub fn id(&self) -> Uuid {
        self.id
    }

    #[must_use]
    pub fn is_closed(&self) -> bool {
        self.tx.is_closed()
    }

    pub async fn send(&self, command: Command) -> Result<(), Gone> {
        self.tx.send(command).await.map_err(|_| Gone)
    }

    async fn ask<T>(&self, make: impl FnOnce(oneshot::Sender<T>) -> Command) -> Result<T, Gone> {
        let (reply, answer) = oneshot::channel();
        self.send(make(reply)).await?;
        answer.await.map_err(|_| Gone)
    }

    pub async fn join(&self, seat: Seat) -> Result<Result<Side, Refusal>, Gone> {
        self.ask(|reply| Command::Join { seat, reply }).await
    }

    pub async fn preview(
        &self,
        player: Uuid,
        action: super::table::Action,
    ) -> Result<Result<Vec<Event>, Refusal>, Gone> {
        self.ask(|reply| Command::Preview {
            player,
            action,
            reply,
        })
        .await
    }

    pub async fn snapshot(&self, viewer: Option<Uuid>) -> Result<Snapshot, Gone> {
        self.ask(|reply| Command::Snapshot { viewer, reply }).await
    }

    pub async fn connect(
        &self,
        player: Option<Uuid>,
        resume_after: Option<u64>,
        tx: mpsc::Sender<Outgoing>,
    ) -> Result<ConnId, Gone> {
        self.ask(|reply| Command::Connect {
            player,
            resume_after,
            tx,
            reply,
        })
        .await
    }
}

struct Conn {
    tx: mpsc::Sender<Outgoing>,
    seat: Option<Side>,
}

/// Spawns the task owning `table`, whose log already holds `next_seq` entries.
pub fn spawn(
    table: Table,
    next_seq: i64,
    writer: Writer,
    shutdown: watch::Receiver<bool>,
) -> GameHandle {
    let (tx, rx) = mpsc::channel(COMMAND_QUEUE);
    let id = table.id();
    // A game being played when it is loaded (after a restart) has nobody connected yet:
    // each player's grace for coming back starts now.
    let away = if table.status() == Status::Playing {
        Some(now_ms())
    } else {
        None
    };
    let actor = Actor {
        table,
        rx,
        conns: HashMap::new(),
        next_conn: 1,
        recent: VecDeque::new(),
        writer,
        next_seq,
        crowd_dirty: false,
        crowd_sent: Instant::now(),
        away_since: [away, away],
    };
    tokio::spawn(actor.run(shutdown));
    GameHandle { id, tx }
}

struct Actor {
    table: Table,
    rx: mpsc::Receiver<Command>,
    conns: HashMap<ConnId, Conn>,
    next_conn: ConnId,
    recent: VecDeque<(u64, Arc<str>)>,
    writer: Writer,
    next_seq: i64,
    crowd_dirty: bool,
    crowd_sent: Instant,
    /// When each seated player's last connection went away during play.
    away_since: [Option<u64>; 2],
}

impl Actor {
    async fn run(mut self, mut shutdown: watch::Receiver<bool>) {
        let id = self.table.id();
        tracing::debug!(game = %id, "game loaded");
        loop {
            let wake = self.next_wake();
            tokio::select! {
                command = self.rx.recv() => match command {
                    Some(command) => self.handle(command).await,
                    None => break,
                },
                () = sleep_until(wake) => self.on_timer().await,
                _ = shutdown.changed() => {
                    self.close_all(1001, "the server is restarting; reconnect in a moment");
                    break;
                }
            }
            // A finished game nobody watches is unloaded; it is reloaded from the store
            // when asked for again.
            if self.table.status().is_over() && self.conns.is_empty() {
                break;
            }
        }
        tracing::debug!(game = %id, "game unloaded");
    }

    fn next_wake(&self) -> Option<Instant> {
        let now = now_ms();
        let grace = super::config::ms(self.table.config().time_control.disconnect_grace_seconds);
        let table = self.table.next_deadline();
        let away = self
            .away_since
            .iter()
            .flatten()
            .map(|since| since + grace)
            .min();
        let at_ms = [table, away].into_iter().flatten().min();
        let mut wake =
            at_ms.map(|at| Instant::now() + Duration::from_millis(at.saturating_sub(now)));
        if self.crowd_dirty {
            let crowd = self.crowd_sent + CROWD_EVERY;
            wake = Some(wake.map_or(crowd, |w| w.min(crowd)));
        }
        wake
    }

    async fn handle(&mut self, command: Command) {
        match command {
            Command::Join { seat, reply } => {
                let before = self.table.savepoint();
                let now = now_ms();
                let result = match self.table.join(seat.clone(), now) {
                    Ok((side, events)) if events.is_empty() => Ok(side),
                    Ok((side, events)) => match self.persist(Entry::Join { seat }, now, true).await
                    {
                        Ok(()) => {
                            self.publish(events);
                            Ok(side)
                        }
                        Err(refusal) => {
                            self.table.rollback(before);
                            Err(refusal)
                        }
                    },
                    Err(refusal) => Err(refusal),
                };
                let _ = reply.send(result);
            }
            Command::Snapshot { viewer, reply } => {
                let you = viewer.and_then(|p| self.table.seat_of(p));
                let _ = reply.send(self.snapshot(you));
            }
            Command::Connect {
                player,
                resume_after,
                tx,
                reply,
            } => {
                let conn = self.next_conn;
                self.next_conn += 1;
                let seat = player.and_then(|p| self.table.seat_of(p));
                self.catch_up(&tx, seat, resume_after);
                connection_gauge(seat).fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                self.conns.insert(conn, Conn { tx, seat });
                if let Some(side) = seat {
                    self.away_since[side.index()] = None;
                }
                self.crowd_dirty = true;
                let _ = reply.send(conn);
            }
            Command::Disconnect { conn } => self.drop_conn(conn),
            Command::Latency {
                conn,
                round_trip_ms,
            } => {
                if let Some(side) = self.conns.get(&conn).and_then(|c| c.seat) {
                    self.table.set_latency(side, round_trip_ms);
                }
            }
            Command::Client { conn, id, message } => self.client(conn, id, message).await,
            Command::Preview {
                player,
                action,
                reply,
            } => {
                let result = match self.table.seat_of(player) {
                    Some(side) => self.table.preview(side, &action, now_ms()),
                    None => Err(Refusal {
                        code: "spectator",
                        message: "only the game's players can preview their moves".into(),
                    }),
                };
                let _ = reply.send(result);
            }
        }
    }

    /// What a (re)connecting client gets first: the events it missed, or the state.
    fn catch_up(&self, tx: &mpsc::Sender<Outgoing>, seat: Option<Side>, after: Option<u64>) {
        let version = self.table.version();
        let missed: Option<Vec<Arc<str>>> = after.and_then(|after| {
            if after > version {
                return None;
            }
            if after == version {
                return Some(Vec::new());
            }
            let oldest = self.recent.front().map(|(v, _)| *v)?;
            (oldest <= after + 1).then(|| {
                self.recent
                    .iter()
                    .filter(|(v, _)| *v > after)
                    .map(|(_, m)| m.clone())
                    .collect()
            })
        });
        match missed {
            Some(messages) => {
                for message in messages {
                    let _ = tx.try_send(Outgoing::Text(message));
                }
            }
            None => {
                let state = protocol::state(&self.snapshot(seat));
                let _ = tx.try_send(Outgoing::Text(state.into()));
            }
        }
        let crowd = protocol::crowd(self.spectators(), self.connected());
        let _ = tx.try_send(Outgoing::Text(crowd.into()));
    }

    fn connected(&self) -> [bool; 2] {
        let mut connected = [false; 2];
        for conn in self.conns.values() {
            if let Some(side) = conn.seat {
                connected[side.index()] = true;
            }
        }
        connected
    }

    fn spectators(&self) -> usize {
        self.conns.values().filter(|c| c.seat.is_none()).count()
    }

    fn snapshot(&self, you: Option<Side>) -> Snapshot {
        self.table
            .snapshot(you, self.connected(), self.spectators())
    }

    fn drop_conn(&mut self, conn: ConnId) {
        let Some(gone) = self.conns.remove(&conn) else {
            return;
        };
        connection_gauge(gone.seat).fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
        if let Some(side) = gone.seat {
            let still_here = self.conns.values().any(|c| c.seat == Some(side));
            if !still_here && self.table.status() == Status::Playing {
                self.away_since[side.index()] = Some(now_ms());
            }
        }
        self.crowd_dirty = true;
    }

    fn reply(&mut self, conn: ConnId, text: String) {
        if let Some(c) = self.conns.get(&conn) {
            if c.tx.try_send(Outgoing::Text(text.into())).is_err() {
                self.drop_conn(conn);
            }
        }
    }

    async fn client(&mut self, conn: ConnId, id: Option<Value>, message: ClientMessage) {
        let action = match message {
            ClientMessage::Ping => return self.reply(conn, protocol::pong()),
            ClientMessage::Act(action) => action,
        };
        let Some(side) = self.conns.get(&conn).and_then(|c| c.seat) else {
            let text = protocol::error(
                id.as_ref(),
                "spectator",
                "you are watching this game; only its players may play",
            );
            return self.reply(conn, text);
        };
        let started = Instant::now();
        let is_play = matches!(action, Action::Move { .. } | Action::Decide { .. });
        let before = self.table.savepoint();
        let now = now_ms();
        match self.table.act(side, &action, now) {
            Err(refusal) => {
                count(&METRICS.refused_messages);
                let text = protocol::error(id.as_ref(), refusal.code, &refusal.message);
                self.reply(conn, text);
            }
            Ok(events) => {
                let changed_status = events
                    .iter()
                    .any(|(_, e)| matches!(e, Event::End { .. } | Event::Started { .. }));
                let entry = Entry::Act { side, action };
                match self.persist(entry, now, changed_status).await {
                    Ok(()) => {
                        // Durable first, then acknowledged and shown to everyone.
                        self.reply(conn, protocol::ack(id.as_ref()));
                        self.publish(events);
                        if is_play {
                            count(&METRICS.moves);
                            METRICS.move_latency.observe(started.elapsed());
                        }
                    }
                    Err(refusal) => {
                        self.table.rollback(before);
                        let text = protocol::error(id.as_ref(), refusal.code, &refusal.message);
                        self.reply(conn, text);
                    }
                }
            }
        }
    }

    async fn on_timer(&mut self) {
        let now = now_ms();
        let events = self.table.tick(now);
        if !events.is_empty() {
            let ended = events.iter().any(|(_, e)| matches!(e, Event::End { .. }));
            if let Err(refusal) = self.persist(Entry::Tick, now, ended).await {
                tracing::error!(game = %self.table.id(), "{}", refusal.message);
            }
            self.publish(events);
        }
        let grace = super::config::ms(self.table.config().time_control.disconnect_grace_seconds);
        for side in Side::ALL {
            let overdue = self.away_since[side.index()].is_some_and(|since| now >= since + grace);
            if overdue {
                self.away_since[side.index()] = None;
                let events = self.table.abandon(side);
                if !events.is_empty() {
                    if let Err(refusal) = self.persist(Entry::Abandon { side }, now, true).await {
                        tracing::error!(game = %self.table.id(), "{}", refusal.message);
                    }
                    self.publish(events);
                }
            }
        }
        if self.crowd_dirty && self.crowd_sent + CROWD_EVERY <= Instant::now() {
            self.crowd_dirty = false;
            self.crowd_sent = Instant::now();
            let crowd: Arc<str> = protocol::crowd(self.spectators(), self.connected()).into();
            self.broadcast(&crowd);
        }
    }

    /// Appends `entry` to the game's log, with the game's row when `row_changed` (its seats,
    /// status or outcome), in one transaction; returns once it is committed.
    async fn persist(&mut self, entry: Entry, now: u64, row_changed: bool) -> Result<(), Refusal> {
        let row = ActionRow {
            game_id: self.table.id(),
            seq: self.next_seq,
            at_ms: i64::try_from(now).unwrap_or(i64::MAX),
            side: None,
            kind: entry.kind().to_owned(),
            payload_json: serde_json::to_string(&entry).unwrap_or_default(),
        };
        let mut writes = vec![Write::AppendAction(row)];
        if row_changed {
            writes.push(Write::UpdateGame(game_row(&self.table)));
        }
        let started = Instant::now();
        let appended = self.writer.write(writes).await;
        METRICS.database_latency.observe(started.elapsed());
        match appended {
            Ok(()) => {
                self.next_seq += 1;
                Ok(())
            }
            Err(error) => {
                tracing::error!(game = %self.table.id(), %error, "could not save an action");
                Err(Refusal {
                    code: "unavailable",
                    message: "the server could not save this; nothing was played, try again".into(),
                })
            }
        }
    }

    fn publish(&mut self, events: Vec<(u64, Event)>) {
        if events
            .iter()
            .any(|(_, e)| matches!(e, Event::Started { .. }))
        {
            // A seated player not here when play begins has the same grace as one who
            // left: the clock for coming back starts now.
            let connected = self.connected();
            let now = now_ms();
            for side in Side::ALL {
                if !connected[side.index()] {
                    self.away_since[side.index()] = Some(now);
                }
            }
        }
        for (v, event) in events {
            match &event {
                Event::Steal { .. } => count(&METRICS.steals),
                Event::End { outcome } => {
                    count(&METRICS.games_ended);
                    if matches!(outcome, omweso_rules::Outcome::Annulled { .. }) {
                        count(&METRICS.annulments);
                    }
                }
                _ => {}
            }
            let message: Arc<str> = event.message(v).into();
            self.recent.push_back((v, message.clone()));
            if self.recent.len() > RECENT_EVENTS {
                self.recent.pop_front();
            }
            self.broadcast(&message);
        }
    }

    fn broadcast(&mut self, message: &Arc<str>) {
        let mut slow = Vec::new();
        for (&id, conn) in &self.conns {
            if conn.tx.try_send(Outgoing::Text(message.clone())).is_err() {
                slow.push(id);
            }
        }
        for id in slow {
            // Dropping its queue ends the socket's writer, which closes the socket.
            tracing::debug!(game = %self.table.id(), conn = id, "dropping a client too slow to keep up");
            count(&METRICS.dropped_slow_clients);
            self.drop_conn(id);
        }
    }

    fn close_all(&mut self, code: u16, reason: &'static str) {
        for conn in self.conns.values() {
            let _ = conn.tx.try_send(Outgoing::Close(code, reason));
            connection_gauge(conn.seat).fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
        }
        self.conns.clear();
    }
}

async fn sleep_until(wake: Option<Instant>) {
    match wake {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

/// The store's row for a table.
#[must_use]
pub fn game_row(table: &Table) -> GameRow {
    let now = i64::try_from(now_ms()).unwrap_or(i64::MAX);
    let creator = table
        .seat(Side::South)
        .or(table.seat(Side::North))
        .map(|s| s.player)
        .unwrap_or_default();
    GameRow {
        id: table.id(),
        ruleset: table.config().ruleset.to_string(),
        setup: serde_json::to_value(table.config().setup)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default(),
        config_json: serde_json::to_string(table.config()).unwrap_or_default(),
        south: table.seat(Side::South).map(|s| s.player),
        north: table.seat(Side::North).map(|s| s.player),
        creator,
        status: table.status().name().to_owned(),
        outcome_json: table.outcome().and_then(|o| serde_json::to_string(&o).ok()),
        created_at_ms: now,
        updated_at_ms: now,
    }
}

/// The connection gauge for a seat (players) or none (spectators).
fn connection_gauge(seat: Option<Side>) -> &'static std::sync::atomic::AtomicI64 {
    match seat {
        Some(_) => &METRICS.player_connections,
        None => &METRICS.spectator_connections,
    }
}
