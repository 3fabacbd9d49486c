//! The clients: a slot's game set-up over HTTP, the two players and the spectators, each
//! socket on a task of its own.

use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use omweso_rules::Side;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};
use tokio_util::sync::CancellationToken;

use super::Ctx;
use omweso_protocol::client::{DecideRequest, MoveRequest};
use omweso_protocol::server::Envelope;
use omweso_protocol::{
    ClientMessage, ErrorCode, Event, Frame, Played, Reply, Request, ServerMessage, Snapshot, Status,
};

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// A game where nothing arrives for this long although a move is due has stalled.
const STALL: Duration = Duration::from_secs(20);
/// The same in a game against the computer.
const BOT_STALL: Duration = Duration::from_secs(300);
/// HTTP calls, handshakes and first messages wait at most this long.
const SETUP_TIMEOUT: Duration = Duration::from_secs(30);
/// How long to wait before resending an action refused with `rate_limited`.
const RATE_LIMIT_BACKOFF: Duration = Duration::from_millis(60);

/// Counts an open socket until dropped.
pub(crate) struct Counted(Arc<Ctx>);

impl Counted {
    pub(crate) fn new(ctx: &Arc<Ctx>) -> Counted {
        ctx.stats.conn_opened();
        Counted(ctx.clone())
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        self.0.stats.conn_closed();
    }
}

/// An open socket and the first message it got (the `state`).
struct Socket {
    ws: Ws,
    _counted: Counted,
    first: Box<Snapshot>,
}

/// How a socket's task ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Exit {
    /// The game ended.
    Ended,
    /// The run is over.
    Stopped,
    /// The game was given up (another of its sockets failed).
    Aborted,
    /// The server closed the socket, or it failed.
    Dropped,
    /// Nothing came for [`STALL`] though a move was due.
    Stalled,
}

/// Send times of a game's actions, by the version their `played` event will have.
#[derive(Default)]
struct Sent(Mutex<Vec<(u64, Instant)>>);

impl Sent {
    fn put(&self, version: u64, at: Instant) {
        if let Ok(mut s) = self.0.lock() {
            s.retain(|&(v, _)| v != version);
            s.push((version, at));
        }
    }

    /// The send time of the action whose event has `version`; older entries are dropped.
    fn take(&self, version: u64) -> Option<Instant> {
        let mut s = self.0.lock().ok()?;
        let found = s.iter().find(|&&(v, _)| v == version).map(|&(_, at)| at);
        s.retain(|&(v, _)| v > version);
        found
    }

    fn forget(&self, version: u64) {
        if let Ok(mut s) = self.0.lock() {
            s.retain(|&(v, _)| v != version);
        }
    }
}

/// One slot: keeps a game going until the run stops, starting a new one when it ends.
pub(crate) async fn slot(ctx: Arc<Ctx>, index: usize) {
    keep_playing(ctx, index, false).await;
}

/// One slot of games against the computer (`--bot-games`): one player, South, moving as
/// soon as it may; its figures are kept apart from the human games'.
pub(crate) async fn bot_slot(ctx: Arc<Ctx>, index: usize) {
    keep_playing(ctx, index, true).await;
}

async fn keep_playing(ctx: Arc<Ctx>, index: usize, computer: bool) {
    let salt = if computer { 0xB0B0_B0B0 } else { 0 };
    let mut rng = SmallRng::seed_from_u64(
        ctx.seed ^ salt ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15),
    );
    let mut sessions: Option<[String; 2]> = None;
    let mut first = true;
    let mut failures = 0u32;
    while !ctx.stop.is_cancelled() {
        let setup = {
            // Only the first games queue for a permit, so that a thousand slots do not
            // all connect at the same instant. A finished game's replacement starts at
            // once: those come spread over time by themselves, and queueing them kept
            // half the slots empty once games ended hundreds of times a second.
            let permit = if first {
                tokio::select! {
                    permit = ctx.setups.acquire() => Some(permit),
                    () = ctx.stop.cancelled() => break,
                }
            } else {
                None
            };
            let setup = tokio::select! {
                setup = set_up(&ctx, index, &mut sessions, computer) => setup,
                () = ctx.stop.cancelled() => break,
            };
            drop(permit);
            setup
        };
        let game = match setup {
            Ok(game) => game,
            Err(e) => {
                failures += 1;
                ctx.stats
                    .note(format!("slot {index}: setting up a game failed: {e}"));
                let backoff = Duration::from_millis(200 * u64::from(failures.min(10)));
                tokio::select! {
                    () = tokio::time::sleep(backoff) => continue,
                    () = ctx.stop.cancelled() => break,
                }
            }
        };
        failures = 0;
        if first {
            first = false;
            if ctx.started.fetch_add(1, Ordering::AcqRel) + 1 == ctx.games {
                ctx.all_started.notify_one();
            }
        }
        if computer {
            let exit = play(&ctx, game, &mut rng).await;
            if exit == Exit::Ended {
                ctx.stats.bot_games_finished.fetch_add(1, Ordering::Relaxed);
            }
            continue;
        }
        ctx.stats.games_started.fetch_add(1, Ordering::Relaxed);
        if ctx.stats.measuring() {
            ctx.stats
                .games_started_in_window
                .fetch_add(1, Ordering::Relaxed);
        }
        ctx.stats.active_games.fetch_add(1, Ordering::Relaxed);
        let exit = play(&ctx, game, &mut rng).await;
        ctx.stats.active_games.fetch_sub(1, Ordering::Relaxed);
        match exit {
            Exit::Ended => {
                ctx.stats.games_finished.fetch_add(1, Ordering::Relaxed);
                if ctx.stats.measuring() {
                    ctx.stats
                        .games_finished_in_window
                        .fetch_add(1, Ordering::Relaxed);
                }
            }
            Exit::Stopped => {}
            Exit::Aborted | Exit::Dropped | Exit::Stalled => {
                ctx.stats.games_abandoned.fetch_add(1, Ordering::Relaxed);
            }
        }
    }
    // A slot that never got a game still counts, so the run does not wait for it.
    if first && ctx.started.fetch_add(1, Ordering::AcqRel) + 1 == ctx.games {
        ctx.all_started.notify_one();
    }
}

/// Sets up one game as a slot sets up a replacement for a finished one (a new game, its
/// join, and every socket opened up to its `state`, with the sessions of `tokens`), then
/// closes its sockets: one game's turnover, which the load run measures apart from the
/// moves (`turnover_probe` in loadgen.rs).
pub(crate) async fn set_up_and_close(ctx: &Arc<Ctx>, tokens: &[String; 2]) -> Result<(), String> {
    let game = set_up(ctx, usize::MAX, &mut Some(tokens.clone()), false).await?;
    let sockets = game
        .spectators
        .into_iter()
        .chain(game.north)
        .chain([game.south]);
    for mut socket in sockets {
        close(&mut socket.ws).await;
    }
    Ok(())
}

/// Two guest sessions, as a slot makes for its games.
pub(crate) async fn sessions(ctx: &Arc<Ctx>, name: &str) -> Result<[String; 2], String> {
    let mut tokens = [String::new(), String::new()];
    for (i, side) in ["s", "n"].iter().enumerate() {
        let body = json!({"name": format!("{name}{side}")});
        let r = http(ctx, "POST", "/api/session", None, Some(body)).await?;
        tokens[i] = r["token"]
            .as_str()
            .ok_or("the session has no token")?
            .to_owned();
    }
    Ok(tokens)
}

/// A game with every socket open: spectators first, then North, then South (who moves
/// first), so that every socket sees the first move. Against the computer, North is the
/// computer's seat, and no socket.
struct Game {
    id: String,
    tokens: [String; 2],
    spectators: Vec<Socket>,
    north: Option<Socket>,
    south: Socket,
}

async fn set_up(
    ctx: &Arc<Ctx>,
    index: usize,
    sessions: &mut Option<[String; 2]>,
    computer: bool,
) -> Result<Game, String> {
    if computer {
        return set_up_against_computer(ctx, index, sessions).await;
    }
    let tokens = match sessions {
        Some(tokens) => tokens.clone(),
        None => {
            let tokens = self::sessions(ctx, &format!("lg{index}")).await?;
            *sessions = Some(tokens.clone());
            tokens
        }
    };
    let created = http(
        ctx,
        "POST",
        "/api/games",
        Some(&tokens[0]),
        Some(json!({"ruleset": ctx.ruleset})),
    )
    .await?;
    let id = created["game_id"]
        .as_str()
        .ok_or("the new game has no id")?
        .to_owned();
    let joined = http(
        ctx,
        "POST",
        &format!("/api/games/{id}/join"),
        Some(&tokens[1]),
        None,
    )
    .await?;
    if joined["seat"] != "n" {
        return Err(format!("joined as {} rather than n", joined["seat"]));
    }
    let mut spectators = Vec::with_capacity(ctx.spectators);
    for _ in 0..ctx.spectators {
        spectators.push(connect(ctx, &id, None).await?);
    }
    let north = connect(ctx, &id, Some(&tokens[1])).await?;
    let south = connect(ctx, &id, Some(&tokens[0])).await?;
    Ok(Game {
        id,
        tokens,
        spectators,
        north: Some(north),
        south,
    })
}

/// A game against the computer at `--bot-level`, its one player South.
async fn set_up_against_computer(
    ctx: &Arc<Ctx>,
    index: usize,
    sessions: &mut Option<[String; 2]>,
) -> Result<Game, String> {
    let tokens = match sessions {
        Some(tokens) => tokens.clone(),
        None => {
            let name = json!({"name": format!("lgbot{index}")});
            let r = http(ctx, "POST", "/api/session", None, Some(name)).await?;
            let token = r["token"].as_str().ok_or("the session has no token")?;
            let tokens = [token.to_owned(), String::new()];
            *sessions = Some(tokens.clone());
            tokens
        }
    };
    let body = json!({
        "ruleset": ctx.ruleset,
        "seat": "first",
        "opponent": {"computer": {"level": ctx.bot_level}},
    });
    let created = http(ctx, "POST", "/api/games", Some(&tokens[0]), Some(body)).await?;
    let id = created["game_id"]
        .as_str()
        .ok_or("the new game has no id")?
        .to_owned();
    let south = connect(ctx, &id, Some(&tokens[0])).await?;
    Ok(Game {
        id,
        tokens,
        spectators: Vec::new(),
        north: None,
        south,
    })
}

/// One HTTP call; a refusal is counted by its status and code.
pub(crate) async fn http(
    ctx: &Ctx,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> Result<Value, String> {
    let url = format!("{}{path}", ctx.base);
    let mut request = match method {
        "GET" => ctx.http.get(url),
        _ => ctx.http.post(url),
    };
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.map_err(|e| {
        ctx.stats.error("http_failed");
        format!("{method} {path}: {e}")
    })?;
    let status = response.status();
    let value: Value = response.json().await.unwrap_or(Value::Null);
    if !status.is_success() {
        let code = value["error"]["code"].as_str().unwrap_or("no_code");
        ctx.stats.error(&format!("http_{}_{code}", status.as_u16()));
        return Err(format!("{method} {path}: {status} {value}"));
    }
    Ok(value)
}

/// The clients' socket settings: tungstenite's default read buffer is 128 KiB, all of it
/// touched on every read; the server's messages are a few KiB at most (the buffer grows for
/// a larger one).
pub(crate) fn client_config() -> WebSocketConfig {
    WebSocketConfig::default()
        .read_buffer_size(4 * 1024)
        .write_buffer_size(0)
}

/// Opens a game socket (as a player with `token`, else as a spectator) and waits for its
/// `state`.
async fn connect(ctx: &Arc<Ctx>, game: &str, token: Option<&str>) -> Result<Socket, String> {
    let host = ctx.base.strip_prefix("http://").unwrap_or(&ctx.base);
    let url = match token {
        Some(token) => format!("ws://{host}/ws/games/{game}?token={token}"),
        None => format!("ws://{host}/ws/games/{game}"),
    };
    let (mut ws, _) = tokio::time::timeout(
        SETUP_TIMEOUT,
        tokio_tungstenite::connect_async_with_config(url, Some(client_config()), true),
    )
    .await
    .map_err(|_| "the socket handshake timed out".to_owned())?
    .map_err(|e| {
        ctx.stats.error("ws_connect_failed");
        format!("socket: {e}")
    })?;
    let counted = Counted::new(ctx);
    let deadline = tokio::time::Instant::now() + SETUP_TIMEOUT;
    loop {
        let frame = tokio::time::timeout_at(deadline, ws.next())
            .await
            .map_err(|_| "no state within 30 s".to_owned())?;
        match frame {
            Some(Ok(Message::Text(text))) => {
                let frame: Frame = serde_json::from_str(text.as_str())
                    .map_err(|e| format!("an unreadable message: {e}"))?;
                if let ServerMessage::Reply(Reply::State(snapshot)) = frame.message {
                    return Ok(Socket {
                        ws,
                        _counted: counted,
                        first: snapshot,
                    });
                }
            }
            Some(Ok(Message::Close(frame))) => {
                return Err(format!("the server closed the socket: {frame:?}"))
            }
            Some(Ok(_)) => {}
            Some(Err(e)) => return Err(format!("socket: {e}")),
            None => return Err("the socket closed before its state".into()),
        }
    }
}

/// Plays a game whose seats are already taken by the sessions of `tokens` (a tournament's
/// game, created seated): opens both players' sockets, learns each one's seat from its
/// `state` (a replayed game swaps who moves first), and plays it to its end.
pub(crate) async fn play_seated(
    ctx: &Arc<Ctx>,
    game_id: &str,
    tokens: [String; 2],
    rng: &mut SmallRng,
) -> Result<Exit, String> {
    let a = connect(ctx, game_id, Some(&tokens[0])).await?;
    let b = connect(ctx, game_id, Some(&tokens[1])).await?;
    let (south, north, tokens) = match (a.first.you, b.first.you) {
        (Some(Side::South), Some(Side::North)) => (a, b, tokens),
        (Some(Side::North), Some(Side::South)) => {
            let [t0, t1] = tokens;
            (b, a, [t1, t0])
        }
        seats => return Err(format!("game {game_id}: the two sessions sit at {seats:?}")),
    };
    let game = Game {
        id: game_id.to_owned(),
        tokens,
        spectators: Vec::new(),
        north: Some(north),
        south,
    };
    Ok(play(ctx, game, rng).await)
}

/// Plays a set-up game to its end (or until the run stops).
async fn play(ctx: &Arc<Ctx>, game: Game, rng: &mut SmallRng) -> Exit {
    let cancel = ctx.stop.child_token();
    let sent = Arc::new(Sent::default());
    let mut watchers = Vec::with_capacity(game.spectators.len());
    for socket in game.spectators {
        let (ctx, cancel) = (ctx.clone(), cancel.clone());
        watchers.push(tokio::spawn(spectate(ctx, socket, cancel)));
    }
    let mut players = Vec::with_capacity(2);
    let against_computer = game.north.is_none();
    let sockets = [(Side::North, game.north), (Side::South, Some(game.south))];
    for (me, socket) in sockets {
        let Some(socket) = socket else { continue };
        let player = Player {
            against_computer,
            // A computer game's answer may queue behind many searches (level 8: about a
            // second each, on as many threads as cores).
            stall: if against_computer { BOT_STALL } else { STALL },
            last_action: None,
            ctx: ctx.clone(),
            sent: sent.clone(),
            game_id: game.id.clone(),
            token: game.tokens[me.index()].clone(),
            me,
            version: 0,
            outstanding: None,
            over: false,
            next_id: 0,
            rng: SmallRng::seed_from_u64(rng.random()),
            budget: Some(720),
            acked: None,
        };
        let cancel = cancel.clone();
        players.push(tokio::spawn(async move {
            let exit = player.run(socket, &cancel).await;
            if exit != Exit::Ended {
                // The game cannot go on without this player.
                cancel.cancel();
            }
            exit
        }));
    }
    let mut exit = Exit::Ended;
    for player in players {
        let e = player.await.unwrap_or(Exit::Dropped);
        if e != Exit::Ended && (exit == Exit::Ended || exit == Exit::Aborted) {
            exit = e;
        }
    }
    for watcher in watchers {
        let _ = watcher.await;
    }
    if ctx.stop.is_cancelled() && exit != Exit::Ended {
        Exit::Stopped
    } else {
        exit
    }
}

/// Asks the kernel to ACK what arrives on this socket at once rather than delaying the ACK
/// (it falls back to delayed ACKs by itself, so this is repeated after every read).
fn quickack(ws: &Ws) {
    #[cfg(target_os = "linux")]
    if let MaybeTlsStream::Plain(tcp) = ws.get_ref() {
        use std::os::fd::AsRawFd;
        let one: libc::c_int = 1;
        // SAFETY: setsockopt reads an int from a valid pointer; the fd is the open socket.
        unsafe {
            libc::setsockopt(
                tcp.as_raw_fd(),
                libc::IPPROTO_TCP,
                libc::TCP_QUICKACK,
                std::ptr::from_ref(&one).cast(),
                std::mem::size_of::<libc::c_int>() as libc::socklen_t,
            );
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = ws;
}

/// Waits for the close handshake briefly, so the server sees a clean close.
async fn close(ws: &mut Ws) {
    let _ = tokio::time::timeout(Duration::from_secs(2), async {
        if ws.close(None).await.is_ok() {
            while let Some(Ok(_)) = ws.next().await {}
        }
    })
    .await;
}

/// A spectator: reads every event, checks the versions follow one another, leaves at the
/// end.
async fn spectate(ctx: Arc<Ctx>, socket: Socket, cancel: CancellationToken) -> Exit {
    let Socket {
        mut ws,
        _counted,
        first,
    } = socket;
    let mut version = first.version;
    let exit = loop {
        let frame = tokio::select! {
            () = cancel.cancelled() => break Exit::Stopped,
            frame = ws.next() => frame,
        };
        if ctx.quickack {
            quickack(&ws);
        }
        match frame {
            Some(Ok(Message::Text(text))) => {
                // A spectator reads only the envelope: which message, which version.
                let Ok(message) = serde_json::from_str::<Envelope>(text.as_str()) else {
                    ctx.stats.error("unreadable_message");
                    continue;
                };
                if let Some(v) = message.v {
                    if message.t != "state" && v != version + 1 {
                        ctx.stats.version_gaps.fetch_add(1, Ordering::Relaxed);
                    }
                    version = v;
                }
                match message.t.as_str() {
                    "end" => break Exit::Ended,
                    "error" => ctx.stats.error("spectator_error"),
                    _ => {}
                }
            }
            Some(Ok(Message::Close(_)) | Err(_)) | None => {
                if !cancel.is_cancelled() {
                    ctx.stats.dropped.fetch_add(1, Ordering::Relaxed);
                }
                return Exit::Dropped;
            }
            Some(Ok(_)) => {}
        }
    };
    close(&mut ws).await;
    exit
}

/// A frame read as a `played` event in brief: what a player needs to time it and to pick
/// its next move; the laps, the position, the clock and what each start does are skipped.
/// Any other frame fails to read as one (no `d.by`) or has another `t`.
#[derive(serde::Deserialize)]
struct PlayedFrame {
    t: String,
    v: u64,
    d: PlayedBrief,
}

#[derive(serde::Deserialize)]
struct PlayedBrief {
    by: Side,
    #[serde(default)]
    pending: bool,
    #[serde(default)]
    outcome: Option<serde::de::IgnoredAny>,
    #[serde(default)]
    legal: LegalBrief,
}

#[derive(Default, serde::Deserialize)]
struct LegalBrief {
    #[serde(default)]
    s: Option<MovesBrief>,
    #[serde(default)]
    n: Option<MovesBrief>,
}

#[derive(serde::Deserialize)]
struct MovesBrief {
    moves: Vec<String>,
}

/// An action waiting for its `ack` or `error`.
struct Outstanding {
    frame: String,
    id: String,
    /// The version its `played` event will have.
    expected: u64,
    /// When its frame was written.
    sent: Option<Instant>,
}

struct Player {
    /// The opponent is the computer: its answers are timed apart from the human games'.
    against_computer: bool,
    /// How long nothing may come while a move is due.
    stall: Duration,
    /// When this player last acted (against the computer: its answer is timed from there).
    last_action: Option<Instant>,
    ctx: Arc<Ctx>,
    sent: Arc<Sent>,
    game_id: String,
    token: String,
    me: Side,
    /// The last event version seen.
    version: u64,
    outstanding: Option<Outstanding>,
    over: bool,
    next_id: u64,
    rng: SmallRng,
    /// The sowing budget the server explores moves under (the move limit at its pace).
    budget: Option<u64>,
    /// When the `ack` of the last action arrived, until its `played` event comes.
    acked: Option<Instant>,
}

impl Player {
    async fn run(mut self, socket: Socket, cancel: &CancellationToken) -> Exit {
        let Socket {
            mut ws,
            _counted,
            first,
        } = socket;
        let exit = match self.main(&mut ws, first, cancel).await {
            Ok(exit) | Err(exit) => exit,
        };
        if exit == Exit::Dropped {
            if !cancel.is_cancelled() {
                self.ctx.stats.dropped.fetch_add(1, Ordering::Relaxed);
            }
            return exit;
        }
        if exit == Exit::Stalled {
            self.ctx.stats.stalled.fetch_add(1, Ordering::Relaxed);
        }
        close(&mut ws).await;
        exit
    }

    async fn main(
        &mut self,
        ws: &mut Ws,
        first: Box<Snapshot>,
        cancel: &CancellationToken,
    ) -> Result<Exit, Exit> {
        let tc = first.time_control;
        self.budget = tc
            .move_limit_seconds
            .map(|limit| (limit * tc.sowing_pace).floor() as u64);
        self.snapshot(ws, &first).await?;
        let mut deadline = tokio::time::Instant::now() + self.stall;
        loop {
            if self.over {
                // Only the `end` is still to come.
                deadline = deadline.min(tokio::time::Instant::now() + Duration::from_secs(5));
            }
            let frame = tokio::select! {
                () = cancel.cancelled() => {
                    return Ok(if self.ctx.stop.is_cancelled() { Exit::Stopped } else { Exit::Aborted });
                }
                frame = tokio::time::timeout_at(deadline, ws.next()) => frame,
            };
            if self.ctx.quickack {
                quickack(ws);
            }
            let frame = match frame {
                Ok(frame) => frame,
                Err(_) if self.over => return Ok(Exit::Ended),
                Err(_) => return Ok(Exit::Stalled),
            };
            match frame {
                Some(Ok(Message::Text(text))) => {
                    deadline = tokio::time::Instant::now() + self.stall;
                    if let Some(exit) = self.on_text(ws, text.as_str(), cancel).await? {
                        return Ok(exit);
                    }
                }
                Some(Ok(Message::Close(_)) | Err(_)) | None => return Err(Exit::Dropped),
                Some(Ok(_)) => {}
            }
        }
    }

    async fn on_text(
        &mut self,
        ws: &mut Ws,
        text: &str,
        cancel: &CancellationToken,
    ) -> Result<Option<Exit>, Exit> {
        let received = Instant::now();
        // Most frames are `played` events: read those in brief (the full frame buffers
        // every field before it knows the message's type, which made the generator, not
        // the server, the bottleneck of a closed loop).
        if let Ok(played) = serde_json::from_str::<PlayedFrame>(text) {
            if played.t == "played" {
                return self.on_played(ws, played, received, cancel).await;
            }
        }
        let Ok(frame) = serde_json::from_str::<Frame>(text) else {
            self.ctx.stats.error("unreadable_message");
            return Ok(None);
        };
        let stats = &self.ctx.stats;
        let event = match frame.message {
            ServerMessage::Reply(Reply::State(snapshot)) => {
                return self.snapshot(ws, &snapshot).await.map(|()| None);
            }
            ServerMessage::Reply(Reply::Ack(ack)) => {
                if self.is_mine(ack.id.as_ref()) {
                    let sent = self.outstanding.take().and_then(|o| o.sent);
                    if let Some(sent) = sent.filter(|_| !self.against_computer) {
                        stats.ack_latency(sent, received);
                    }
                    self.acked = Some(received);
                }
                return Ok(None);
            }
            ServerMessage::Reply(Reply::Error(error)) => {
                let code = error.code;
                stats.error(code.as_str());
                let mine = match &error.id {
                    Some(id) => self.is_mine(Some(id)),
                    // A refusal the server made before reading the frame (rate limit).
                    None => code == ErrorCode::RateLimited,
                };
                if let (true, Some(o)) = (mine, self.outstanding.take()) {
                    self.sent.forget(o.expected);
                    match code {
                        ErrorCode::RateLimited => {
                            tokio::time::sleep(RATE_LIMIT_BACKOFF).await;
                            if !cancel.is_cancelled() {
                                self.transmit(ws, o).await?;
                            }
                        }
                        ErrorCode::GameOver => self.over = true,
                        _ => {
                            stats.note(format!("refused {}: {text}", o.frame));
                            self.resync(ws).await?;
                        }
                    }
                }
                return Ok(None);
            }
            ServerMessage::Reply(_) => return Ok(None),
            ServerMessage::Event(event) => event,
        };
        let v = frame.v.unwrap_or(0);
        if v <= self.version {
            // Already covered by a snapshot fetched after an error.
            return Ok(None);
        }
        self.version = v;
        match event {
            Event::Played(played) => {
                let Played {
                    by,
                    pending,
                    outcome,
                    legal,
                    ..
                } = played;
                let mine = legal.side(self.me).map(|l| &l.moves[..]);
                return self
                    .played(
                        ws,
                        v,
                        by,
                        pending,
                        outcome.is_some(),
                        mine,
                        received,
                        cancel,
                    )
                    .await;
            }
            Event::Decision { by, options, .. } if by == self.me && !cancel.is_cancelled() => {
                if options.is_empty() {
                    self.resync(ws).await?;
                } else {
                    let choice = options[self.rng.random_range(0..options.len())].clone();
                    self.act(ws, ClientMessage::Decide(DecideRequest { choice }))
                        .await?;
                }
            }
            Event::End { .. } => {
                self.over = true;
                return Ok(Some(Exit::Ended));
            }
            _ => {}
        }
        Ok(None)
    }

    /// A `played` event read in brief.
    async fn on_played(
        &mut self,
        ws: &mut Ws,
        frame: PlayedFrame,
        received: Instant,
        cancel: &CancellationToken,
    ) -> Result<Option<Exit>, Exit> {
        if frame.v <= self.version {
            return Ok(None);
        }
        self.version = frame.v;
        let d = frame.d;
        let mine = match self.me {
            Side::South => d.legal.s.as_ref(),
            Side::North => d.legal.n.as_ref(),
        };
        let mine = mine.map(|l| &l.moves[..]);
        self.played(
            ws,
            frame.v,
            d.by,
            d.pending,
            d.outcome.is_some(),
            mine,
            received,
            cancel,
        )
        .await
    }

    /// The `played` event of version `v`, by `by`: timed when it answers the opponent's
    /// action, and answered with a move of `mine` when it is this player's turn.
    #[allow(clippy::too_many_arguments)]
    async fn played(
        &mut self,
        ws: &mut Ws,
        v: u64,
        by: Side,
        pending: bool,
        ends: bool,
        mine: Option<&[String]>,
        received: Instant,
        cancel: &CancellationToken,
    ) -> Result<Option<Exit>, Exit> {
        let stats = &self.ctx.stats;
        if by == self.me {
            self.outstanding = None;
            if let (Some(at), Some(on_acked)) = (self.acked.take(), &self.ctx.on_acked) {
                on_acked(&self.game_id, v, at);
            }
        } else if self.against_computer {
            if let Some(at) = self.last_action.take() {
                stats.bot_answer(at, received);
            }
        } else {
            match self.sent.take(v) {
                Some(at) => stats.latency(at, received),
                None => {
                    stats.unmatched.fetch_add(1, Ordering::Relaxed);
                }
            }
            if stats.measuring() {
                stats.plays.fetch_add(1, Ordering::Relaxed);
                if !pending {
                    stats.moves.fetch_add(1, Ordering::Relaxed);
                }
            }
            if !pending {
                stats.moves_total.fetch_add(1, Ordering::Relaxed);
            }
        }
        if ends {
            self.over = true;
            return Ok(None);
        }
        if !pending && !cancel.is_cancelled() {
            // The server's list of what we may do: a random start of it (the
            // decision points are answered as the server asks).
            if let Some(mv) = self.pick(mine) {
                self.act(ws, ClientMessage::Move(MoveRequest { mv }))
                    .await?;
            }
        }
        Ok(None)
    }

    /// The start of a random move of `moves` (`None` when there is none).
    fn pick(&mut self, moves: Option<&[String]>) -> Option<String> {
        let moves = moves.filter(|m| !m.is_empty())?;
        let mv = &moves[self.rng.random_range(0..moves.len())];
        Some(
            mv.split_once('/')
                .map_or(mv.as_str(), |(start, _)| start)
                .to_owned(),
        )
    }

    fn is_mine(&self, id: Option<&Value>) -> bool {
        match (&self.outstanding, id.and_then(Value::as_str)) {
            (Some(o), Some(id)) => o.id == id,
            _ => false,
        }
    }

    /// Acts on a snapshot (the `state` on connect, or one fetched after a refusal).
    async fn snapshot(&mut self, ws: &mut Ws, snapshot: &Snapshot) -> Result<(), Exit> {
        self.version = snapshot.version;
        match snapshot.status {
            Status::Playing => {}
            Status::Finished | Status::Annulled => {
                self.over = true;
                return Ok(());
            }
            Status::Setup => return Ok(()),
        }
        if let Some(options) = &snapshot.pending {
            if snapshot.to_move == Some(self.me) && !options.is_empty() {
                let choice = options[self.rng.random_range(0..options.len())].clone();
                return self
                    .act(ws, ClientMessage::Decide(DecideRequest { choice }))
                    .await;
            }
            return Ok(());
        }
        if snapshot.to_move.is_some_and(|side| side != self.me) {
            // The referee's steal is open (a tournament game whose first mover connected
            // late): `legal` lists the thief's moves too, but a player of this generator
            // never steals, so that the two never race for the same turn.
            return Ok(());
        }
        // Mweiso's opening has no single side to move: the server lists both sides then.
        let moves = snapshot.legal.side(self.me).map(|l| &l.moves[..]);
        if let Some(mv) = self.pick(moves) {
            return self.act(ws, ClientMessage::Move(MoveRequest { mv })).await;
        }
        Ok(())
    }

    /// After a refusal: fetch the snapshot over HTTP and act on it.
    async fn resync(&mut self, ws: &mut Ws) -> Result<(), Exit> {
        let path = format!("/api/games/{}", self.game_id);
        let Ok(value) = http(&self.ctx, "GET", &path, Some(&self.token), None).await else {
            return Ok(());
        };
        let Ok(snapshot) = serde_json::from_value::<Snapshot>(value) else {
            return Ok(());
        };
        self.snapshot(ws, &snapshot).await
    }

    async fn act(&mut self, ws: &mut Ws, message: ClientMessage) -> Result<(), Exit> {
        if !self.ctx.think.is_zero() {
            tokio::time::sleep(self.ctx.think).await;
        }
        self.next_id += 1;
        let id = self.next_id.to_string();
        let frame = Request {
            message,
            id: Some(Value::String(id.clone())),
        }
        .to_text();
        let outstanding = Outstanding {
            frame,
            id,
            expected: self.version + 1,
            sent: None,
        };
        self.transmit(ws, outstanding).await
    }

    /// Writes an action's frame, noting when, for the opponent to measure.
    async fn transmit(&mut self, ws: &mut Ws, mut o: Outstanding) -> Result<(), Exit> {
        let now = Instant::now();
        self.sent.put(o.expected, now);
        self.last_action = Some(now);
        o.sent = Some(now);
        let frame = o.frame.clone();
        self.outstanding = Some(o);
        ws.send(Message::Text(frame.into()))
            .await
            .map_err(|_| Exit::Dropped)
    }
}
