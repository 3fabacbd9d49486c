//! The task that owns one live game (Alice Ryhl's actor pattern). Sockets and HTTP
//! handlers talk to it only through a bounded channel; it owns the [`Table`], the
//! connections' outgoing queues and the recent events, so nothing is shared and no lock is
//! held across an `.await`.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::Utf8Bytes;
use omweso_rules::Side;
use serde_json::Value;
use tokio::sync::{mpsc, oneshot, watch};
use tokio::time::Instant;
use uuid::Uuid;

use super::computer::{ComputerPlayer, ComputerServices};
use super::legal;
use super::lobby::Lobby;
use super::log::Entry;
use super::news::{TableNews, Watchers};
use super::table::{Action, Refusal, Seat, Table};
use crate::http::address::AddressKey;
use crate::metrics::{count, METRICS};
use crate::pools::engine::EnginePool;
use crate::pools::search::Asker;
use crate::store::{ActionRow, GameRow, Write, Writer};
use omweso_protocol::clock::now_ms;
use omweso_protocol::{ClientMessage, ErrorCode, Event, Frame, Legal, Snapshot, Status};

/// Commands a game's channel holds at most; senders wait when it is full.
pub const COMMAND_QUEUE: usize = 256;
/// Messages a connection's outgoing queue holds; a connection that falls this far behind
/// is dropped (it resyncs when it reconnects) rather than slowing the table.
pub const OUTGOING_QUEUE: usize = 128;
/// Recent events kept for `?v=` resumption.
pub const RECENT_EVENTS: usize = 512;
/// How long after a deadline's change could not be saved it is tried again.
const TIMER_RETRY_MS: u64 = 1000;
/// How long after a failed removal of an expired game it is tried again.
const EXPIRY_RETRY_MS: u64 = 60_000;
/// How often `crowd` may be sent: joins and leaves are batched.
const CROWD_EVERY: Duration = Duration::from_millis(250);

/// A message for one connection.
#[derive(Clone, Debug)]
pub enum Outgoing {
    Text(Utf8Bytes),
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
    /// Stop the game now and decide it on material (a tournament round's deadline).
    /// Stop the game now, decided on material; the reply is its news once stopped.
    Adjudicate {
        reply: oneshot::Sender<Result<TableNews, Refusal>>,
    },
    /// The game's news as it stands, without watching.
    News {
        reply: oneshot::Sender<TableNews>,
    },
    /// Send `tx` the game's news after every change; the reply is the news as it stands.
    Watch {
        tx: mpsc::Sender<TableNews>,
        reply: oneshot::Sender<TableNews>,
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
    /// A handle whose commands arrive on `tx`'s receiver (socket tests without a game).
    #[cfg(test)]
    pub(crate) fn for_tests(tx: mpsc::Sender<Command>) -> GameHandle {
        GameHandle {
            id: Uuid::nil(),
            tx,
        }
    }

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

    pub async fn snapshot(&self, viewer: Option<Uuid>) -> Result<Snapshot, Gone> {
        self.ask(|reply| Command::Snapshot { viewer, reply }).await
    }

    /// Ends the game now on material (RULES.md 5.3): saved, then published to its sockets
    /// and watchers like any action. Refused if the game is over or cannot be saved.
    pub async fn adjudicate(&self) -> Result<Result<TableNews, Refusal>, Gone> {
        self.ask(|reply| Command::Adjudicate { reply }).await
    }

    /// The game's news as it stands (a watcher that missed an end asks for it).
    pub async fn news(&self) -> Result<TableNews, Gone> {
        self.ask(|reply| Command::News { reply }).await
    }

    /// Sends `tx` the game's news after every change from now on (any number of watchers
    /// may watch one game); answers the news as it stands. The game may still unload once
    /// it is over and no socket is open: a watcher hears the end first.
    pub async fn watch(&self, tx: mpsc::Sender<TableNews>) -> Result<TableNews, Gone> {
        self.ask(|reply| Command::Watch { tx, reply }).await
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
    /// The session's player, so that joining later gives this socket the seat too.
    player: Option<Uuid>,
    seat: Option<Side>,
}

/// What every game's task shares with the rest of the server.
#[derive(Clone)]
pub struct Services {
    pub writer: Writer,
    pub shutdown: watch::Receiver<bool>,
    pub pool: EnginePool,
    pub lobby: Lobby,
    /// How long a game may stay unstarted (nobody joined, or the free setup not done)
    /// before it is removed.
    pub open_game_ttl_ms: u64,
    /// Where the computer thinks, in games against it.
    pub computer: ComputerServices,
    /// How long the person facing the computer may stay away before playing anything,
    /// before the game is removed (its place given back).
    pub computer_no_show_ms: u64,
}

/// Why a game is removed before it was played.
#[derive(Clone, Copy, Debug)]
enum Removal {
    /// Nobody started it in time.
    Expired,
    /// Its person never came (or left before playing anything) against the computer.
    NoShow,
}

impl Removal {
    fn reason(self) -> &'static str {
        match self {
            Removal::Expired => "this game expired: nobody started it in time",
            Removal::NoShow => {
                "this game against the computer was removed: its player did not come to it in time"
            }
        }
    }
}

/// Spawns the task owning `table`, whose log already holds `next_seq` entries; a table
/// rebuilt from its log (`resumed`) is taken up again first ([`Table::resume`]).
/// `address`: where its creator asked from, when known (a game just created): a game
/// against the computer counts against it and its searches wait in its turns.
pub fn spawn(
    table: Table,
    next_seq: i64,
    mut services: Services,
    resumed: bool,
    address: Option<AddressKey>,
) -> GameHandle {
    let (tx, rx) = mpsc::channel(COMMAND_QUEUE);
    let id = table.id();
    let shutdown = services.shutdown.clone();
    services.computer.pool = services
        .computer
        .pool
        .asking_for(Asker::of(address, table.creator()));
    // Away since its creation, or since the restart that reloaded it.
    let person_away_since = Some(if resumed {
        now_ms()
    } else {
        table.created_at_ms()
    });
    let actor = Actor {
        table,
        rx,
        conns: HashMap::new(),
        next_conn: 1,
        recent: VecDeque::new(),
        services,
        next_seq,
        crowd_dirty: false,
        crowd_sent: Instant::now(),
        watchers: Watchers::default(),
        legal: None,
        expired: false,
        timers_held_until: 0,
        expiry_retry_at: 0,
        computer: ComputerPlayer::default(),
        person_away_since,
    };
    actor
        .services
        .lobby
        .list_new(actor.table.summary(0), address);
    tokio::spawn(actor.run(shutdown, resumed));
    GameHandle { id, tx }
}

struct Actor {
    table: Table,
    rx: mpsc::Receiver<Command>,
    conns: HashMap<ConnId, Conn>,
    next_conn: ConnId,
    recent: VecDeque<(u64, Utf8Bytes)>,
    services: Services,
    next_seq: i64,
    crowd_dirty: bool,
    crowd_sent: Instant,
    /// The server's own watchers (tournaments), told after every change published.
    watchers: Watchers,
    /// What the players may do at this version of the game: listed once per version
    /// (while the move is being saved), however many look.
    legal: Option<(u64, Arc<Legal>)>,
    /// The table's deadlines are not fired before this (ms since the epoch): the store
    /// refused the last one's change.
    timers_held_until: u64,
    /// Removed for nobody starting it in time: the task ends.
    expired: bool,
    /// Not before this is the removal tried again (ms since the epoch; 0: no failure).
    expiry_retry_at: u64,
    /// The computer's search or answer, in a game against it.
    computer: ComputerPlayer,
    /// Since when the person facing the computer has had no socket open (ms since the
    /// epoch; `None` while they have one).
    person_away_since: Option<u64>,
}

impl Actor {
    async fn run(mut self, mut shutdown: watch::Receiver<bool>, resumed: bool) {
        let id = self.table.id();
        tracing::debug!(game = %id, "game loaded");
        if resumed {
            self.resume().await;
        }
        loop {
            self.computer_turn().await;
            let wake = self.next_wake();
            tokio::select! {
                command = self.rx.recv() => match command {
                    Some(command) => {
                    self.handle(command).await;
                    self.sync_presence().await;
                }
                    None => break,
                },
                () = sleep_until(wake) => {
                    self.on_timer().await;
                    self.sync_presence().await;
                }
                thought = self.computer.thought() => self.computer.heard(thought, id),
                _ = shutdown.changed() => {
                    self.close_all(1001, "the server is restarting; reconnect in a moment");
                    break;
                }
            }
            if self.expired {
                break;
            }
            // A finished game nobody watches is unloaded; it is reloaded from the store
            // when asked for again.
            if self.table.status().is_over() && self.conns.is_empty() {
                break;
            }
        }
        self.services.lobby.remove(id);
        tracing::debug!(game = %id, "game unloaded");
    }

    /// When an unstarted game is removed, if it is one (or when to try again, after the
    /// store refused the removal).
    /// A timed arrangement is ended by the grace, a tournament game by its round's end.
    fn expiry(&self) -> Option<u64> {
        let open = self.table.status() == Status::Setup
            && !self.table.grace_runs()
            && self.table.config().stop_at_ms.is_none();
        open.then(|| {
            let due = self.table.created_at_ms() + self.services.open_game_ttl_ms;
            due.max(self.expiry_retry_at)
        })
    }

    /// When a game against the computer whose person has played nothing yet and is away
    /// is removed: the no-show time after they left (or after its creation, if they never
    /// came), whatever the time control's disconnect grace. Once they have played, the
    /// grace is the time control's, as in any game.
    fn no_show(&self) -> Option<u64> {
        let waiting = self.table.computer().is_some()
            && !self.table.status().is_over()
            && !self.table.person_has_played();
        let since = self.person_away_since.filter(|_| waiting)?;
        Some((since + self.services.computer_no_show_ms).max(self.expiry_retry_at))
    }

    /// Notes whether the person facing the computer is at the table (after every command).
    fn watch_person(&mut self) {
        let Some((computer, _)) = self.table.computer() else {
            return;
        };
        if self.connected()[computer.other().index()] {
            self.person_away_since = None;
        } else if self.person_away_since.is_none() {
            self.person_away_since = Some(now_ms());
        }
    }

    /// After a restart: the game goes on from its log with the time the server was down
    /// counting against nobody ([`Table::resume`]). A game not over logs it, so that
    /// the next replay rebuilds the same deadlines and event versions; if the store
    /// refuses, the game goes on and only a later replay would differ (logged).
    async fn resume(&mut self) {
        let now = now_ms();
        self.table.resume(now);
        // Logged for every game not over: a restart changes every table (nobody is at it
        // any more), set up or playing, and the replay must see the same.
        if self.table.status().is_over() {
            return;
        }
        let saved = persist(
            &self.services,
            &self.table,
            self.next_seq,
            Entry::Resume,
            now,
            false,
        )
        .await;
        match saved {
            Ok(()) => self.next_seq += 1,
            Err(_) => tracing::error!(
                game = %self.table.id(),
                "could not log the game's resumption: a later replay may differ from this run"
            ),
        }
    }

    /// Removes a game nobody started in time, or whose person facing the computer did not
    /// come: its row and log, and its sockets.
    async fn expire(&mut self, why: Removal) {
        let id = self.table.id();
        match self
            .services
            .writer
            .write(vec![Write::DeleteGame(id)])
            .await
        {
            Ok(()) => {
                count(match why {
                    Removal::Expired => &METRICS.games_expired,
                    Removal::NoShow => &METRICS.computer_no_shows,
                });
                self.close_all(1000, why.reason());
                self.expired = true;
            }
            Err(error) => {
                // Not in a loop against a store that is down: once a minute.
                self.expiry_retry_at = now_ms() + EXPIRY_RETRY_MS;
                tracing::error!(game = %id, %error, "could not remove an expired game");
            }
        }
    }

    fn next_wake(&self) -> Option<Instant> {
        let now = now_ms();
        let table = self
            .table
            .next_deadline()
            .map(|at| at.max(self.timers_held_until));
        let at_ms = [table, self.expiry(), self.no_show()]
            .into_iter()
            .flatten()
            .min();
        let mut wake =
            at_ms.map(|at| Instant::now() + Duration::from_millis(at.saturating_sub(now)));
        if self.crowd_dirty {
            let crowd = self.crowd_sent + CROWD_EVERY;
            wake = Some(wake.map_or(crowd, |w| w.min(crowd)));
        }
        if let Some(computer) = self.computer.wake() {
            wake = Some(wake.map_or(computer, |w| w.min(computer)));
        }
        wake
    }

    /// The computer's part, after every change and wake: plays its answer once its least
    /// delay is over, then starts on whatever it has to do next (a search on the pool),
    /// dropping what the game has moved past.
    async fn computer_turn(&mut self) {
        if self.table.computer().is_none() {
            return;
        }
        let version = self.table.version();
        if let Some((side, action)) = self.computer.take_due(version) {
            self.play_computer(side, action).await;
        }
        self.computer.look(&self.table, &self.services.computer);
    }

    /// Plays the computer's action as its seat, exactly as a person's is played: the
    /// table checks it, it is saved, then shown.
    async fn play_computer(&mut self, side: Side, action: Action) {
        let version = self.table.version();
        let before = self.table.savepoint();
        let now = now_ms();
        match self.table.act(side, &action, now) {
            Err(refusal) => {
                tracing::error!(game = %self.table.id(), %version, ?action, message = %refusal.message, "the table refused the computer's move");
                self.computer.refused(version);
            }
            Ok(events) => {
                let entry = Entry::Act {
                    side,
                    action: action.clone(),
                };
                match self.commit(entry, now, events, None).await {
                    Ok(()) => count(&METRICS.computer_moves),
                    Err(_) => {
                        self.table.rollback(before);
                        self.computer.save_failed(version, side, action);
                    }
                }
            }
        }
    }

    async fn handle(&mut self, command: Command) {
        match command {
            Command::Join { seat, reply } => {
                let before = self.table.savepoint();
                let now = now_ms();
                let result = match self.table.join(seat.clone(), now) {
                    Ok((side, events)) if events.is_empty() => Ok(side),
                    Ok((side, events)) => match self
                        .commit(Entry::Join { seat: seat.clone() }, now, events, None)
                        .await
                    {
                        Ok(()) => {
                            self.seat_open_sockets(seat.player, side).await;
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
                let snapshot = self.snapshot(you).await;
                let _ = reply.send(snapshot);
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
                // Counted before the state is sent: a player's own page shows them at the
                // table from its first snapshot, not "not connected" until the next crowd.
                connection_gauge(seat).fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                self.conns.insert(
                    conn,
                    Conn {
                        tx: tx.clone(),
                        player,
                        seat,
                    },
                );
                self.catch_up(&tx, seat, resume_after).await;
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
            Command::Adjudicate { reply } => {
                let result = self.adjudicate().await.map(|()| TableNews::of(&self.table));
                let _ = reply.send(result);
            }
            Command::News { reply } => {
                let _ = reply.send(TableNews::of(&self.table));
            }
            Command::Watch { tx, reply } => {
                self.watchers.add(tx);
                let _ = reply.send(TableNews::of(&self.table));
            }
        }
    }

    /// Ends the game on material, durably, then shows it; undone if it cannot be saved.
    async fn adjudicate(&mut self) -> Result<(), Refusal> {
        let before = self.table.savepoint();
        let now = now_ms();
        let events = self.table.adjudicate(now)?;
        let committed = self.commit(Entry::Adjudicate, now, events, None).await;
        if committed.is_err() {
            self.table.rollback(before);
        }
        committed
    }

    /// Tells the table which seated players have a connection open, logging each change
    /// (the grace for coming back is the table's, rebuilt from the log after a restart).
    /// A change the store refuses is undone, and tried again after the next command.
    /// Watchers (a tournament showing who is here) hear of each change saved.
    async fn sync_presence(&mut self) {
        self.watch_person();
        let connected = self.connected();
        let mut told = self.table.present();
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
            let published = !events.is_empty();
            let entry = Entry::Presence { side, here };
            if self.commit(entry, now, events, None).await.is_err() {
                self.table.rollback(before);
            } else if published {
                // The watchers heard of it with the event.
                told = self.table.present();
            }
        }
        if self.table.present() != told && !self.watchers.is_empty() {
            self.watchers.tell(&TableNews::of(&self.table));
        }
    }

    /// A player joined: their sockets opened before (as a spectator's) now hold the seat,
    /// and each gets the state as its player sees it (`you` set).
    async fn seat_open_sockets(&mut self, player: Uuid, side: Side) {
        let upgraded: Vec<ConnId> = self
            .conns
            .iter()
            .filter(|(_, c)| c.player == Some(player) && c.seat != Some(side))
            .map(|(&id, _)| id)
            .collect();
        if upgraded.is_empty() {
            return;
        }
        let state: Utf8Bytes = Frame::state(self.snapshot(Some(side)).await)
            .to_text()
            .into();
        for id in upgraded {
            if let Some(conn) = self.conns.get_mut(&id) {
                connection_gauge(conn.seat).fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
                conn.seat = Some(side);
                connection_gauge(conn.seat).fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if conn.tx.try_send(Outgoing::Text(state.clone())).is_err() {
                    self.drop_conn(id);
                }
            }
        }
        self.crowd_dirty = true;
    }

    /// What a (re)connecting client gets first: the events it missed, or the state.
    async fn catch_up(
        &mut self,
        tx: &mpsc::Sender<Outgoing>,
        seat: Option<Side>,
        after: Option<u64>,
    ) {
        let version = self.table.version();
        let missed: Option<Vec<Utf8Bytes>> = after.and_then(|after| {
            if after > version {
                return None;
            }
            if after == version {
                return Some(Vec::new());
            }
            let oldest = self.recent.front().map(|(v, _)| *v)?;
            // More missed events than the connection's queue holds (with the `crowd`
            // after them) would be cut short: the state is sent instead.
            let fits = version - after < (OUTGOING_QUEUE - 1) as u64;
            (oldest <= after + 1 && fits).then(|| {
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
                let state = Frame::state(self.snapshot(seat).await).to_text();
                let _ = tx.try_send(Outgoing::Text(state.into()));
            }
        }
        let crowd = Frame::crowd(self.spectators(), self.connected()).to_text();
        let _ = tx.try_send(Outgoing::Text(crowd.into()));
    }

    /// Which seats have their player here: a socket open, or the computer.
    fn connected(&self) -> [bool; 2] {
        let mut connected = [false; 2];
        for conn in self.conns.values() {
            if let Some(side) = conn.seat {
                connected[side.index()] = true;
            }
        }
        if let Some((side, _)) = self.table.computer() {
            connected[side.index()] = true;
        }
        connected
    }

    fn spectators(&self) -> usize {
        self.conns.values().filter(|c| c.seat.is_none()).count()
    }

    async fn snapshot(&mut self, you: Option<Side>) -> Snapshot {
        let legal = self.legal().await;
        self.table
            .snapshot(you, self.connected(), self.spectators(), &legal)
    }

    /// What the players may do now: from the cache when this version was listed already,
    /// else listed on the engine pool (never on the async workers).
    async fn legal(&mut self) -> Arc<Legal> {
        let version = self.table.version();
        if let Some((_, cached)) = self.legal.as_ref().filter(|(v, _)| *v == version) {
            return cached.clone();
        }
        let listed = Arc::new(list_legal(&self.services.pool, &self.table).await);
        self.legal = Some((version, listed.clone()));
        listed
    }

    /// Saves `entry` (the action that made `events`) and, once it is durable, sends the
    /// events out, each that opens a turn with what the players may now do. The listing
    /// runs on the engine pool while the store commits, so it adds nothing to a move's
    /// latency unless it takes longer than the commit.
    async fn commit(
        &mut self,
        entry: Entry,
        now: u64,
        mut events: Vec<(u64, Event)>,
        ack: Option<(ConnId, Option<Value>)>,
    ) -> Result<(), Refusal> {
        let row_changed = events.iter().any(|(_, e)| {
            matches!(
                e,
                Event::Joined { .. } | Event::Started { .. } | Event::End { .. }
            )
        });
        let pool = self.services.pool.clone();
        let opens_turn = events.iter_mut().any(|(_, e)| e.legal_mut().is_some());
        let listing = async {
            if opens_turn {
                Some(list_legal(&pool, &self.table).await)
            } else {
                None
            }
        };
        let (saved, listed) = tokio::join!(
            persist(
                &self.services,
                &self.table,
                self.next_seq,
                entry,
                now,
                row_changed
            ),
            listing
        );
        saved?;
        self.next_seq += 1;
        // Durable first, then acknowledged, then shown to everyone.
        if let Some((conn, id)) = ack {
            self.reply(conn, Frame::ack(id));
        }
        if let Some(listed) = listed {
            for (_, event) in &mut events {
                if let Some(legal) = event.legal_mut() {
                    legal.clone_from(&listed);
                }
            }
            self.legal = Some((self.table.version(), Arc::new(listed)));
        }
        self.publish(events);
        Ok(())
    }

    fn drop_conn(&mut self, conn: ConnId) {
        let Some(gone) = self.conns.remove(&conn) else {
            return;
        };
        connection_gauge(gone.seat).fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
        // The table hears of a seat left empty after this command (`sync_presence`).
        self.crowd_dirty = true;
    }

    fn reply(&mut self, conn: ConnId, frame: Frame) {
        if let Some(c) = self.conns.get(&conn) {
            if c.tx
                .try_send(Outgoing::Text(frame.to_text().into()))
                .is_err()
            {
                self.drop_conn(conn);
            }
        }
    }

    async fn client(&mut self, conn: ConnId, id: Option<Value>, message: ClientMessage) {
        let Some(action) = Action::from_message(message) else {
            return self.reply(conn, Frame::pong());
        };
        let Some(side) = self.conns.get(&conn).and_then(|c| c.seat) else {
            let refusal = Frame::error(
                id,
                ErrorCode::Spectator,
                "you are watching this game; only its players may play",
            );
            return self.reply(conn, refusal);
        };
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

    async fn on_timer(&mut self) {
        let now = now_ms();
        let due = self.table.next_deadline().is_some_and(|at| now >= at);
        if due && now >= self.timers_held_until {
            let before = self.table.savepoint();
            let events = self.table.tick(now);
            if !events.is_empty() {
                if let Err(refusal) = self.commit(Entry::Tick, now, events, None).await {
                    // Undone, and tried again in a second: a deadline is not lost because
                    // the store was down when it passed, nor retried in a busy loop.
                    self.table.rollback(before);
                    self.timers_held_until = now + TIMER_RETRY_MS;
                    tracing::error!(game = %self.table.id(), "{}", refusal.message);
                }
            }
        }
        if self.crowd_dirty && self.crowd_sent + CROWD_EVERY <= Instant::now() {
            self.crowd_dirty = false;
            self.crowd_sent = Instant::now();
            let crowd: Utf8Bytes = Frame::crowd(self.spectators(), self.connected())
                .to_text()
                .into();
            self.broadcast(&crowd);
            self.services
                .lobby
                .update(self.table.summary(self.spectators()));
        }
        if self.expiry().is_some_and(|at| now >= at) {
            self.expire(Removal::Expired).await;
        } else if self.no_show().is_some_and(|at| now >= at) {
            self.expire(Removal::NoShow).await;
        }
    }

    fn publish(&mut self, events: Vec<(u64, Event)>) {
        if events.is_empty() {
            // A change nobody sees (a presence entry saved alone): no news.
            return;
        }
        // A move changes only the lobby's move count: set in place, without rebuilding
        // the summary (this runs for every move of every game).
        let reseated = events.iter().any(|(_, e)| {
            matches!(
                e,
                Event::Joined { .. } | Event::Started { .. } | Event::End { .. }
            )
        });
        for (v, event) in events {
            match &event {
                Event::Steal { .. } => count(&METRICS.steals),
                Event::End { outcome, .. } => {
                    count(&METRICS.games_ended);
                    if matches!(outcome, omweso_rules::Outcome::Annulled { .. }) {
                        count(&METRICS.annulments);
                    }
                }
                _ => {}
            }
            let message: Utf8Bytes = Frame::event(v, event).to_text().into();
            self.recent.push_back((v, message.clone()));
            if self.recent.len() > RECENT_EVENTS {
                self.recent.pop_front();
            }
            self.broadcast(&message);
        }
        if !self.watchers.is_empty() {
            self.watchers.tell(&TableNews::of(&self.table));
        }
        if reseated {
            self.services
                .lobby
                .update(self.table.summary(self.spectators()));
        } else {
            self.services
                .lobby
                .set_moves(self.table.id(), self.table.moves_played());
        }
    }

    fn broadcast(&mut self, message: &Utf8Bytes) {
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

/// What the players of `table` may do now: listed here when that is cheap (the usual
/// position, cheaper than the hand-off), else on the engine pool, never holding this
/// worker for long.
async fn list_legal(pool: &EnginePool, table: &Table) -> Legal {
    let query = table.legal_query();
    if query.sides.is_empty() {
        return Legal::default();
    }
    if let Some(listed) = legal::list_within(&query, legal::INLINE_LISTING_WORK) {
        count(&METRICS.legal_listed_inline);
        return listed;
    }
    count(&METRICS.legal_listed_on_pool);
    // The pool is gone only while the server shuts down: no moves are shown then.
    pool.run(move || legal::list(&query))
        .await
        .unwrap_or_default()
}

/// Appends `entry`, the log's entry number `seq`, to the game's log, with the game's row
/// when `row_changed` (its seats, status or outcome), in one transaction; returns once it
/// is committed.
async fn persist(
    services: &Services,
    table: &Table,
    seq: i64,
    entry: Entry,
    now: u64,
    row_changed: bool,
) -> Result<(), Refusal> {
    let id = table.id();
    // Never a silent default on the save path: an action that cannot be encoded is
    // refused (and logged), not stored empty and acknowledged.
    let payload_json = serde_json::to_string(&entry).map_err(|error| {
        tracing::error!(game = %id, %error, "could not encode an action");
        unavailable()
    })?;
    let row = ActionRow {
        game_id: id,
        seq,
        at_ms: i64::try_from(now).unwrap_or(i64::MAX),
        side: None,
        kind: entry.kind().to_owned(),
        payload_json,
    };
    let mut writes = vec![Write::AppendAction(row)];
    if row_changed {
        writes.push(Write::UpdateGame(row_with_final_snapshot(table)?));
    }
    let started = Instant::now();
    let appended = services.writer.write(writes).await;
    METRICS.database_latency.observe(started.elapsed());
    appended.map_err(|error| {
        tracing::error!(game = %id, %error, "could not save an action");
        unavailable()
    })
}

/// The game's row, with its final snapshot once it is over (reads of a finished game
/// answer from it instead of replaying the log).
fn row_with_final_snapshot(table: &Table) -> Result<GameRow, Refusal> {
    let final_json = if table.status().is_over() {
        let last = table.snapshot(None, [false; 2], 0, &Legal::default());
        Some(serde_json::to_string(&last).map_err(|error| {
            tracing::error!(game = %table.id(), %error, "could not encode the final snapshot");
            unavailable()
        })?)
    } else {
        None
    };
    game_row(table, final_json).map_err(|error| {
        tracing::error!(game = %table.id(), %error, "could not encode the game's row");
        unavailable()
    })
}

async fn sleep_until(wake: Option<Instant>) {
    match wake {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

/// The store's row for a table, with its final snapshot (JSON) once it is over.
pub fn game_row(table: &Table, final_json: Option<String>) -> Result<GameRow, serde_json::Error> {
    let now = i64::try_from(now_ms()).unwrap_or(i64::MAX);
    let setup = match table.config().setup {
        omweso_protocol::config::SetupKind::Outer => "outer",
        omweso_protocol::config::SetupKind::Even => "even",
        omweso_protocol::config::SetupKind::Free => "free",
    };
    let outcome_json = match table.outcome() {
        Some(outcome) => Some(serde_json::to_string(&outcome)?),
        None => None,
    };
    Ok(GameRow {
        id: table.id(),
        ruleset: table.config().ruleset.to_string(),
        setup: setup.to_owned(),
        config_json: serde_json::to_string(table.config())?,
        south: table.seat(Side::South).map(|s| s.player),
        north: table.seat(Side::North).map(|s| s.player),
        creator: table.creator(),
        status: table.status().name().to_owned(),
        outcome_json,
        created_at_ms: i64::try_from(table.created_at_ms()).unwrap_or(i64::MAX),
        updated_at_ms: now,
        final_json,
    })
}

/// The refusal when the server could not save or compute something.
fn unavailable() -> Refusal {
    Refusal {
        code: ErrorCode::Unavailable,
        message: "the server could not save this; nothing was played, try again".into(),
    }
}

/// The connection gauge for a seat (players) or none (spectators).
fn connection_gauge(seat: Option<Side>) -> &'static std::sync::atomic::AtomicI64 {
    match seat {
        Some(_) => METRICS.player_connections.inner(),
        None => METRICS.spectator_connections.inner(),
    }
}
