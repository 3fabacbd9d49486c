//! The task that owns one tournament (Alice Ryhl's actor pattern), as a game's task owns
//! its table. HTTP handlers and sockets reach it through a bounded channel; it owns the
//! [`Tournament`], its log's next number, the round clock, the sockets' outgoing queues,
//! and the latest board of every table, so nothing is shared and no lock is held across
//! an `.await`.
//!
//! Every change is an [`Entry`]: applied to the state, saved (with the games a round's
//! start or a replay creates, in the same transaction), and only then answered and
//! published, each event encoded once for every watcher. The games are watched: their
//! news comes back on a bounded channel; moves become boards, sent every [`BOARD_EVERY`]
//! as one `boards` message holding every table that changed (`board` when only one did);
//! an end becomes a `GameEnd` entry. Who of the tournament is
//! here (its sockets, and the players at their games) is sent as `presence`, in the same
//! batches as the boards.
//!
//! The task by job: this file is what the rest of the server holds (the
//! [`TournamentHandle`], its [`Command`]s, the [`Services`]) and the task's state; [`run`]
//! its loop and timers, [`commands`] what it does with each command, [`games`] its games
//! watched, ended and stopped, [`people`] the co-directors, renames and device codes,
//! [`board`] the tables played over the board (their sheets and relays),
//! [`persist`] a change saved, [`presence`] who is here, and
//! [`fanout`] what its sockets are sent. The connections and recent events are a
//! [`Room`].

mod board;
mod commands;
mod fanout;
mod games;
mod people;
mod persist;
mod presence;
mod run;
mod seeding;

pub use board::BoardCommand;
pub use persist::row;

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{mpsc, oneshot, watch};
use tokio::time::Instant;
use uuid::Uuid;

use super::log::{LoggedPairing, SheetAction};
use super::state::{Place, Refusal, Tournament};
use crate::game::news::TableNews;
use crate::game::registry::Registry;
pub use crate::room::Gone;
use crate::room::{Handle, Room, SocketCommand};
use crate::store::Writer;
use omweso_protocol::tournament::{
    BoardView, CoDirectorView, DirectorAction, RoundView, SheetView, TournamentSnapshot,
};

/// Commands a tournament's channel holds; senders wait when it is full.
pub const COMMAND_QUEUE: usize = 256;
/// Game news the tournament's channel holds. Move news is dropped when it is full (the
/// next one carries the board anyway); a game's end is never dropped.
pub const NEWS_QUEUE: usize = 4096;
/// Recent events kept for `?v=` resumption.
pub const RECENT_EVENTS: usize = 512;
/// How often the boards that changed are sent: every table's at once, in one message, so
/// that a watcher gets one frame per period, whatever the number of tables; so a table's
/// board is sent at most five times a second, at most this long after its move (a game's
/// end is sent at once, with whatever else changed).
pub const BOARD_EVERY: Duration = Duration::from_millis(200);
/// A tournament socket's outgoing queue: the boards (one message a period, and one a
/// game's end) and the events, so that a watcher keeping up is never dropped for the
/// number of tables or games ending at once.
pub const TOURNAMENT_OUTGOING_QUEUE: usize = 1024;
/// How long a finished tournament without sockets stays loaded after its last command.
const IDLE_UNLOAD: Duration = Duration::from_secs(60);
/// The standings are sent at most this often while games end (each game's end changes
/// them; at a thousand players they are 150 KB, and a round's 500 ends sent every watcher
/// 100 MB of them).
pub const STANDINGS_EVERY: Duration = Duration::from_secs(2);
/// How long after a game's end its standings wait for others ending at the same moment.
const STANDINGS_GATHER: Duration = Duration::from_millis(250);
/// How long after a failed save a deadline is tried again.
const RETRY_MS: u64 = 1000;

pub enum Command {
    Snapshot {
        viewer: Option<Uuid>,
        reply: oneshot::Sender<TournamentSnapshot>,
    },
    /// The whole state (for the exports).
    State {
        reply: oneshot::Sender<Box<Tournament>>,
    },
    Join {
        player: Uuid,
        name: String,
        reply: oneshot::Sender<Result<(), Refusal>>,
    },
    Withdraw {
        player: Uuid,
        by: Uuid,
        reply: oneshot::Sender<Result<(), Refusal>>,
    },
    PairNext {
        by: Uuid,
        reply: oneshot::Sender<Result<RoundView, Refusal>>,
    },
    EditRound {
        by: Uuid,
        round: u32,
        pairings: Vec<LoggedPairing>,
        confirm_breach: bool,
        reply: oneshot::Sender<Result<RoundView, Refusal>>,
    },
    StartRound {
        by: Uuid,
        round: u32,
        reply: oneshot::Sender<Result<RoundView, Refusal>>,
    },
    EndRound {
        by: Uuid,
        round: u32,
        reply: oneshot::Sender<Result<RoundView, Refusal>>,
    },
    /// The director's new list of forbidden pairs; answers the list as kept.
    ForbiddenPairs {
        by: Uuid,
        pairs: Vec<[Uuid; 2]>,
        reply: oneshot::Sender<Result<Vec<[Uuid; 2]>, Refusal>>,
    },
    Sheet {
        by: Uuid,
        game_id: Uuid,
        action: SheetAction,
        reply: oneshot::Sender<Result<SheetView, Refusal>>,
    },
    /// The director names `player` (found by username, named `name`) a co-director;
    /// answers the co-directors.
    AddCoDirector {
        by: Uuid,
        player: Uuid,
        name: String,
        reply: oneshot::Sender<Result<Vec<CoDirectorView>, Refusal>>,
    },
    /// The director makes a one-time co-director invite; only its code's hash is kept.
    InviteCoDirector {
        by: Uuid,
        code_hash: String,
        expires_at_ms: u64,
        reply: oneshot::Sender<Result<(), Refusal>>,
    },
    /// `player` (named `name`) uses an invite's code (by its hash) to become co-director.
    AcceptCoDirectorInvite {
        player: Uuid,
        name: String,
        code_hash: String,
        reply: oneshot::Sender<Result<Vec<CoDirectorView>, Refusal>>,
    },
    RemoveCoDirector {
        by: Uuid,
        player: Uuid,
        reply: oneshot::Sender<Result<Vec<CoDirectorView>, Refusal>>,
    },
    /// A person of the tournament changed their name (the session's rename calls it for
    /// each unfinished tournament in which [`Tournament::people`] has them).
    Rename {
        player: Uuid,
        name: String,
        reply: oneshot::Sender<Result<(), Refusal>>,
    },
    /// A director is about to give `player` a code for a new device: checked and logged
    /// (without the code) before the code is made.
    DeviceCode {
        by: Uuid,
        player: Uuid,
        reply: oneshot::Sender<Result<(), Refusal>>,
    },
    /// A director's code for `player` was used (a device is theirs, in this tournament
    /// only): logged, so the console shows the code as used; answers where the player is
    /// now and the tournament's name.
    DeviceLinked {
        player: Uuid,
        reply: oneshot::Sender<Result<(Place, String), Refusal>>,
    },
    /// For the console, if `by` directs: each player with when a director's code last
    /// gave them a device, and whether the tournament is over.
    NewDevices {
        by: Uuid,
        reply: oneshot::Sender<Result<NewDevices, Refusal>>,
    },
    /// Whether `person` directs the tournament (its director or a co-director).
    Directs {
        person: Uuid,
        reply: oneshot::Sender<bool>,
    },
    /// Every director's action, for a director or co-director.
    Actions {
        by: Uuid,
        reply: oneshot::Sender<Result<Vec<DirectorAction>, Refusal>>,
    },
    /// Over-the-board play: where tables are played, their sheets, relays.
    Board(BoardCommand),
    /// A socket opening or closing (`room::SocketCommand`).
    Socket(SocketCommand),
}

/// What the rest of the server holds to reach a tournament.
pub type TournamentHandle = Handle<Command>;

/// The players the console may give a new device, as [`Command::NewDevices`] answers.
#[derive(Clone, Debug)]
pub struct NewDevices {
    /// Each player: id, name and when a director's code last gave them a device.
    pub players: Vec<(Uuid, String, Option<u64>)>,
    pub finished: bool,
}

impl From<SocketCommand> for Command {
    fn from(command: SocketCommand) -> Command {
        Command::Socket(command)
    }
}

/// What every tournament's task shares with the rest of the server.
#[derive(Clone)]
pub struct Services {
    pub writer: Writer,
    pub games: Arc<Registry>,
    pub shutdown: watch::Receiver<bool>,
    /// Told when a tournament's lobby line (its summary) changes.
    pub lobby: Arc<crate::lobby::changes::LobbyChanges>,
    /// Games the server keeps in memory at most: a round that would pass it is refused
    /// whole, before any of its games is created (docs/security.md).
    pub live_games: usize,
    /// How long a tournament that never starts its first round is kept, ms.
    pub open_tournament_ms: u64,
    /// The thread every tournament's pairing runs on.
    pub pairing: super::pairing_worker::PairingWorker,
    /// To rebuild a tournament from its log after a change could not be saved.
    pub store: crate::store::Store,
    /// This node among several (docs/scaling.md); `None` on a server alone.
    pub cluster: Option<Arc<crate::cluster::node::Cluster>>,
}

/// A pairing a director asks for.
#[derive(Clone, Debug, PartialEq)]
enum PairingAsk {
    /// The next round, by the rules.
    Next,
    /// Round `round` as the director wrote it.
    Edit {
        round: u32,
        pairings: Vec<LoggedPairing>,
        confirm_breach: bool,
    },
}

/// Spawns the task owning `tournament`, whose log holds `next_seq` entries, and has it
/// watch its games in play (after a restart: and record those that ended meanwhile).
pub fn spawn(tournament: Tournament, next_seq: i64, services: Services) -> TournamentHandle {
    let (tx, rx) = mpsc::channel(COMMAND_QUEUE);
    let (news_tx, news_rx) = mpsc::channel(NEWS_QUEUE);
    let (adjudications_tx, adjudications_rx) = mpsc::channel(ADJUDICATIONS_QUEUE);
    let id = tournament.id();
    let shutdown = services.shutdown.clone();
    let actor = Actor {
        t: tournament,
        rx,
        news_tx,
        news_rx,
        services,
        next_seq,
        room: Room::new(RECENT_EVENTS, RECENT_BYTES),
        socket_players: HashMap::new(),
        presence_sent: Vec::new(),
        presence_dirty: false,
        boards: HashMap::new(),
        news: HashMap::new(),
        at_games: HashMap::new(),
        dirty: HashSet::new(),
        boards_sent: Instant::now(),
        standings_due: None,
        standings_sent: Instant::now() - STANDINGS_EVERY,
        state_frame: None,
        adjudicating: HashSet::new(),
        adjudications_tx,
        adjudications_rx,
        adjudicate_retry_at: 0,
        watching: HashSet::new(),
        rewatch_at: 0,
        held_until: 0,
        expiry_retry_at: 0,
        last_pairing_refusal: None,
        stale_until: None,
        last_command: Instant::now(),
        to_watch: Vec::new(),
    };
    tokio::spawn(actor.run(shutdown));
    Handle::new("tournament", id, tx)
}

/// Events kept for `?v=` resumption hold at most this many bytes in all (a standings
/// event of a large field is large).
const RECENT_BYTES: usize = 4 << 20;

struct Actor {
    t: Tournament,
    rx: mpsc::Receiver<Command>,
    news_tx: mpsc::Sender<TableNews>,
    news_rx: mpsc::Receiver<TableNews>,
    services: Services,
    next_seq: i64,
    /// The sockets, each with its session's player (counted in `socket_players`), and the
    /// recent events.
    room: Room<Option<Uuid>>,
    /// Open sockets by the session's player: the players and the director among them
    /// are present.
    socket_players: HashMap<Uuid, usize>,
    /// The last `presence` sent to every socket (sorted).
    presence_sent: Vec<Uuid>,
    /// Something presence depends on changed since it was last sent: it is looked at
    /// again with the next batch of boards.
    presence_dirty: bool,
    /// Each game's latest board (encoded when it is sent).
    boards: HashMap<Uuid, BoardView>,
    /// Each game's latest news (the facts an adjudication falls back on).
    news: HashMap<Uuid, TableNews>,
    /// Which seats of each game of the tournament have a connection open, as the game
    /// last told (in play or over: players stay on a finished game's page); a game nobody
    /// is at is left out.
    at_games: HashMap<Uuid, [bool; 2]>,
    /// Games whose board changed since the last send.
    dirty: HashSet<Uuid>,
    boards_sent: Instant,
    /// When the standings changed by games' ends are next sent (`None`: none waiting).
    standings_due: Option<Instant>,
    /// When they were last sent.
    standings_sent: Instant,
    /// The `state` frame of the current version as a spectator sees it (`you` null), so
    /// that every socket connecting does not build and encode the whole snapshot again.
    state_frame: Option<(u64, String)>,
    /// Games asked to stop at the round's deadline, their answer not yet in.
    adjudicating: HashSet<Uuid>,
    /// The answers of the games asked to stop (each asked by a task of its own, so that
    /// every game of a round stops at once and this task goes on serving).
    adjudications_tx: mpsc::Sender<Adjudication>,
    adjudications_rx: mpsc::Receiver<Adjudication>,
    /// Not before this are games whose stop failed asked again (ms since the epoch).
    adjudicate_retry_at: u64,
    /// The games in play this task watches (a failed watch is tried again).
    watching: HashSet<Uuid>,
    /// Not before this are games in play that are not watched asked again.
    rewatch_at: u64,
    /// The round clock is not fired before this (ms): its last change could not be saved.
    held_until: u64,
    /// After the store refused to remove an expired tournament: not before then again.
    expiry_retry_at: u64,
    /// A change could not be saved and the state could not be rebuilt from the log yet:
    /// when to try again. Meanwhile every change is refused.
    stale_until: Option<u64>,
    /// The last pairing refused, the question and the version it was asked at.
    last_pairing_refusal: Option<(u64, PairingAsk, Refusal)>,
    last_command: Instant,
    /// Replays created since the loop last looked: to watch.
    to_watch: Vec<Uuid>,
}

/// What a game asked to stop answered.
enum Adjudication {
    /// Stopped (or over already): its news, with its outcome.
    Ended(Box<TableNews>),
    /// It could not be asked or could not save its stop: ask again later.
    Retry(Uuid),
    /// No such game in the store: adjudicated here, from its last news.
    Missing(Uuid),
}

/// At most this many games' answers wait for the task (their tasks wait beyond).
const ADJUDICATIONS_QUEUE: usize = 1024;

/// The write that lists `person` among the people of tournament `id` as `role` (for their
/// page: `http::people`), committed with the log entry that makes them so.
pub fn in_tournament(person: Uuid, id: Uuid, role: &str, at_ms: u64) -> crate::store::Write {
    crate::store::Write::Session(crate::store::SessionChange::InTournament {
        person_id: person,
        tournament_id: id,
        role: role.to_owned(),
        at_ms: i64::try_from(at_ms).unwrap_or(i64::MAX),
    })
}
