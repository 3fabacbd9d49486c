//! The task that owns one live game (Alice Ryhl's actor pattern). Sockets and HTTP
//! handlers talk to it only through a bounded channel; it owns the [`Table`], the
//! connections' outgoing queues and the recent events, so nothing is shared and no lock is
//! held across an `.await`.
//!
//! The task by job: this file is what the rest of the server holds (the [`GameHandle`],
//! its [`Command`]s, the [`Services`]) and the task's state; [`run`] its loop and timers,
//! [`commands`] what it does with each command, [`presence`] who is at the table and what
//! a connecting socket is sent first, [`commit`] a change saved then shown, [`persist`]
//! the store's rows. The connections and recent events are a [`Room`].

mod commands;
mod commit;
mod persist;
mod presence;
mod ratings;
mod run;
mod seat_ratings;

pub use persist::game_row;

use std::sync::Arc;
use std::time::Duration;

use omweso_rules::Side;
use serde_json::Value;
use tokio::sync::{mpsc, oneshot, watch};
use tokio::time::Instant;
use uuid::Uuid;

use super::computer::{ComputerPlayer, ComputerServices};
use super::news::{TableNews, Watchers};
use super::table::{Refusal, RelayAction, Seat, Table};
use crate::address::AddressKey;
use crate::lobby::games::Lobby;
use crate::metrics::METRICS;
use crate::pools::engine::EnginePool;
use crate::pools::search::Asker;
pub use crate::room::Gone;
use crate::room::{ConnId, Handle, Room, SocketCommand};
use crate::store::Writer;
use omweso_protocol::clock::now_ms;
use omweso_protocol::{ClientMessage, Legal, Snapshot};

/// What a game's [`Gone`] says it is.
const ROOM_KIND: &str = "game";
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

pub enum Command {
    Join {
        seat: Seat,
        /// The person who sits has an account (a rated game stays rated only then).
        account: bool,
        reply: oneshot::Sender<Result<Side, Refusal>>,
    },
    Snapshot {
        viewer: Option<Uuid>,
        reply: oneshot::Sender<Snapshot>,
    },
    /// A socket opening or closing (`room::SocketCommand`).
    Socket(SocketCommand),
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
    /// The relay of a relayed game enters `action`; the reply is the game's version
    /// after it, once it is saved.
    Relay {
        action: RelayAction,
        reply: oneshot::Sender<Result<u64, Refusal>>,
    },
    /// The game's news as it stands, without watching.
    News {
        reply: oneshot::Sender<TableNews>,
    },
    /// The game's rated result was written or changed by someone else (its tournament's
    /// sheet, made or corrected): read the seats' ratings again and tell the sockets.
    RatingsChanged,
    /// Send `tx` the game's news after every change; the reply is the news as it stands.
    Watch {
        tx: mpsc::Sender<TableNews>,
        reply: oneshot::Sender<TableNews>,
    },
}

/// What the rest of the server holds to reach a game.
pub type GameHandle = Handle<Command>;

impl GameHandle {
    /// A handle whose commands arrive on `tx`'s receiver (socket tests without a game).
    #[cfg(test)]
    pub(crate) fn for_tests(tx: mpsc::Sender<Command>) -> GameHandle {
        Handle::new(ROOM_KIND, Uuid::nil(), tx)
    }

    /// Seats `seat`'s person, who has an account or not (`account`): a rated game whose
    /// second player is not one becomes casual (docs/ratings.md#what-is-rated).
    pub async fn join(&self, seat: Seat, account: bool) -> Result<Result<Side, Refusal>, Gone> {
        self.ask(|reply| Command::Join {
            seat,
            account,
            reply,
        })
        .await
    }

    pub async fn snapshot(&self, viewer: Option<Uuid>) -> Result<Snapshot, Gone> {
        self.ask(|reply| Command::Snapshot { viewer, reply }).await
    }

    /// Ends the game now on material (docs/rules.md#53-rounds): saved, then published to its sockets
    /// and watchers like any action. Refused if the game is over or cannot be saved.
    pub async fn adjudicate(&self) -> Result<Result<TableNews, Refusal>, Gone> {
        self.ask(|reply| Command::Adjudicate { reply }).await
    }

    /// Carries out the relay's `action` in a relayed game (docs/rules.md#57-over-the-board-play-and-relays):
    /// saved, then published like any action; answers the game's version after it.
    /// Refused in a game not relayed, and as the action itself would be. Who may relay is
    /// the caller's to check (the tournament's).
    pub async fn relay(&self, action: RelayAction) -> Result<Result<u64, Refusal>, Gone> {
        self.ask(|reply| Command::Relay { action, reply }).await
    }

    /// Tells the game its rated result was just written or changed elsewhere (a rated
    /// tournament's sheet): its sockets are sent the seats' ratings as they now stand
    /// (`ratings`, docs/protocol.md#ratings-addition).
    pub async fn ratings_changed(&self) -> Result<(), Gone> {
        self.send(Command::RatingsChanged).await
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
}

impl From<SocketCommand> for Command {
    fn from(command: SocketCommand) -> Command {
        Command::Socket(command)
    }
}

/// What the game keeps of a connection.
struct Viewer {
    /// The session's player, so that joining later gives this socket the seat too.
    player: Option<Uuid>,
    /// The seat it plays (none: a spectator's).
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
    /// The store, for reads (the seats' ratings); every write goes through `writer`.
    pub store: crate::store::Store,
    /// This node among several (docs/scaling.md); `None` on a server alone.
    pub cluster: Option<std::sync::Arc<crate::cluster::node::Cluster>>,
    /// How long a finished game stays in memory after the last thing asked of it (a
    /// socket closing, a request), before it unloads.
    pub finished_linger: std::time::Duration,
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
        // Bounded in number only: a game's events are small.
        room: Room::new(RECENT_EVENTS, usize::MAX),
        services,
        next_seq,
        crowd_dirty: false,
        crowd_sent: Instant::now(),
        watchers: Watchers::default(),
        told_present: [false; 2],
        legal: None,
        expired: false,
        timers_held_until: 0,
        expiry_retry_at: 0,
        computer: ComputerPlayer::default(),
        person_away_since,
        ratings: seat_ratings::SeatRatings::default(),
        last_asked: Instant::now(),
        asked_since_loaded: false,
    };
    actor
        .services
        .lobby
        .list_new(actor.table.summary(0), address);
    tokio::spawn(actor.run(shutdown, resumed));
    Handle::new(ROOM_KIND, id, tx)
}

struct Actor {
    table: Table,
    rx: mpsc::Receiver<Command>,
    /// The sockets at the table and the recent events.
    room: Room<Viewer>,
    services: Services,
    next_seq: i64,
    crowd_dirty: bool,
    crowd_sent: Instant,
    /// The server's own watchers (tournaments), told after every change published.
    watchers: Watchers,
    /// Which seats had a connection open when the watchers were last told.
    told_present: [bool; 2],
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
    /// The ratings the seats show, as last read from the store.
    ratings: seat_ratings::SeatRatings,
    /// When the game was last asked anything (a command of any kind): a finished game
    /// nobody watches unloads `finished_linger` after it.
    last_asked: Instant,
    /// Whether anything was asked of it since its task started (`run::unwatched_until`).
    asked_since_loaded: bool,
}

/// The connection gauge for a seat (players) or none (spectators).
fn connection_gauge(seat: Option<Side>) -> &'static std::sync::atomic::AtomicI64 {
    match seat {
        Some(_) => METRICS.player_connections.inner(),
        None => METRICS.spectator_connections.inner(),
    }
}
