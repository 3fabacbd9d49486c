//! The clients: a slot's game set-up over HTTP, the two players and the spectators, each
//! socket on a task of its own.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use futures_util::StreamExt;
use omweso_rules::Side;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde_json::json;
use tokio_tungstenite::tungstenite::Message;
use tokio_util::sync::CancellationToken;

use super::player::Player;
use super::socket::{client_config, close, http, quickack, Counted, Exit, Sent, Socket};
use super::stats::Ctx;
use omweso_protocol::server::Envelope;
use omweso_protocol::{Frame, Reply, ServerMessage};

/// HTTP calls, handshakes and first messages wait at most this long.
const SETUP_TIMEOUT: Duration = Duration::from_secs(30);

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
        let player = Player::new(
            ctx.clone(),
            sent.clone(),
            game.id.clone(),
            game.tokens[me.index()].clone(),
            me,
            against_computer,
            SmallRng::seed_from_u64(rng.random()),
        );
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
