//! `GET /ws/games/{id}`: one task per socket, a thin pipe between the client and the game's
//! actor. The reader decodes and forwards; the writer drains the connection's bounded
//! queue (fed by the actor) and pings to measure latency for the referee.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap};
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use tokio::sync::mpsc;
// tokio's clock is the system's in the server; in tests it can be paused and advanced, so
// the rate limit and the ping round trips are exact there.
use tokio::time::Instant;

use crate::game::actor::{Command, ConnId, GameHandle, Outgoing, OUTGOING_QUEUE};
use crate::http::error::ApiError;
use crate::metrics::{count, Limit, METRICS};
use crate::state::AppState;
use omweso_protocol::{self, ErrorCode, Frame, MAX_FRAME_BYTES};

/// Frames larger than this are refused by the WebSocket layer itself; up to it, the
/// server reads the frame and answers `too_large` past [`MAX_FRAME_BYTES`].
const HARD_FRAME_LIMIT: usize = 4 * MAX_FRAME_BYTES;
/// The socket's read buffer (see `upgrade`).
const READ_BUFFER: usize = 4 * 1024;

pub async fn upgrade(
    ws: WebSocketUpgrade,
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    ip: Option<axum::Extension<crate::http::accept::ClientIp>>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    check_origin(&state, &headers)?;
    let id = crate::http::games::game_id(&id)?;
    let handle = match state.games.get(id).await {
        Ok(Some(handle)) => handle,
        Ok(None) => return Err(ApiError::not_found("game")),
        Err(error) => return Err(ApiError::internal(&error)),
    };
    let token = query
        .get("token")
        .cloned()
        .or_else(|| crate::session::token_from(&headers));
    let player = match token {
        Some(token) => state.sessions.find(&token).await?.map(|s| s.player_id),
        None => None,
    };
    let resume_after = match query.get("v") {
        Some(v) => Some(v.parse::<u64>().map_err(|_| {
            ApiError::bad_request(
                ErrorCode::BadVersion,
                "v is the last event version seen: a whole number",
            )
        })?),
        None => None,
    };
    let places = hold_places(&state, crate::http::games::client_ip(ip), player)?;
    let limits = &state.config.limits;
    let settings = Settings {
        rate: state.config.rate_limit.max(1),
        ping_every: Duration::from_secs_f64(limits.ping_seconds),
        write_timeout: Duration::from_secs_f64(limits.socket_write_seconds),
    };
    let tracker = state.sockets.clone();
    Ok(ws
        // tungstenite's default 128 KiB read buffer is resident for every socket; client
        // frames are small (16 KiB at most accepted), and the buffer still grows for a
        // larger one up to the hard limit.
        .read_buffer_size(READ_BUFFER)
        .max_message_size(HARD_FRAME_LIMIT)
        .max_frame_size(HARD_FRAME_LIMIT)
        .on_upgrade(move |socket| {
            tracker.track_future(async move {
                connection(socket, handle, player, resume_after, settings, &places.end).await;
                // Given back here, when the socket ends. Named whole, so that the block owns all
                // of `places`: with edition 2021's precise captures it took only `places.end`, and
                // the holds in the caps were given back as soon as the upgrade was answered.
                drop(places);
            })
        }))
}

/// A socket's places in the per-address and per-session counts, given back when it closes,
/// and what tells it that its session ended (signed out or replaced: it is closed with
/// 1008 [`SIGNED_OUT`]).
pub(crate) struct Places {
    _ip: crate::http::limits::Held<crate::http::address::AddressKey>,
    _session: Option<crate::http::limits::Held<uuid::Uuid>>,
    pub(crate) end: crate::session::SessionEnd,
}

/// The close reason of a socket whose session was signed out or replaced.
pub(crate) const SIGNED_OUT: &str = "the session was signed out";

pub(crate) fn hold_places(
    state: &AppState,
    ip: std::net::IpAddr,
    player: Option<uuid::Uuid>,
) -> Result<Places, ApiError> {
    let limits = &state.config.limits;
    let Some(by_ip) = state.limiters.sockets_per_ip.try_hold(
        crate::http::address::AddressKey::of(ip),
        limits.sockets_per_ip,
    ) else {
        return Err(ApiError::limited(
            Limit::SocketsPerIp,
            format!(
                "this address has {} game sockets open; close some first",
                limits.sockets_per_ip
            ),
        ));
    };
    let by_session = match player {
        Some(player) => {
            let Some(held) = state
                .limiters
                .sockets_per_session
                .try_hold(player, limits.sockets_per_session)
            else {
                return Err(ApiError::limited(
                    Limit::SocketsPerSession,
                    format!(
                        "your session has {} game sockets open; close some first",
                        limits.sockets_per_session
                    ),
                ));
            };
            Some(held)
        }
        None => None,
    };
    Ok(Places {
        _ip: by_ip,
        _session: by_session,
        end: state.sessions.watch_end(player),
    })
}

/// A browser may only open a game socket from this server's own pages or a configured
/// public origin (scheme included); clients without an `Origin` header (bots, tools) are
/// not browsers.
pub(crate) fn check_origin(state: &AppState, headers: &HeaderMap) -> Result<(), ApiError> {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return Ok(());
    };
    let origin = origin.to_str().unwrap_or("");
    if crate::http::edge::origin_allowed(&state.config, headers, origin) {
        Ok(())
    } else {
        Err(ApiError::new(
            ErrorCode::BadOrigin,
            format!("sockets from {origin} are not allowed"),
        ))
    }
}

/// How a socket is run.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Settings {
    /// Client messages (and pongs) a second, bursts of twice as many.
    pub(crate) rate: u32,
    pub(crate) ping_every: Duration,
    pub(crate) write_timeout: Duration,
}

/// A token bucket: `rate` messages a second, bursts of twice that.
pub(crate) struct RateLimit {
    tokens: f64,
    rate: f64,
    last: Instant,
}

impl RateLimit {
    pub(crate) fn new(rate: u32) -> RateLimit {
        RateLimit {
            tokens: f64::from(rate) * 2.0,
            rate: f64::from(rate),
            last: Instant::now(),
        }
    }

    pub(crate) fn allow(&mut self) -> bool {
        let now = Instant::now();
        let refill = now.duration_since(self.last).as_secs_f64() * self.rate;
        self.tokens = (self.tokens + refill).min(self.rate * 2.0);
        self.last = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// Pings the writer sent and the reader has not seen answered. A pong counts only if it
/// echoes the nonce of a ping the server sent (a made-up pong cannot buy the referee's
/// latency allowance), and a socket that leaves [`MISSED_PINGS`] pings in a row
/// unanswered is dropped (it no longer reads, so its player is not really there).
#[derive(Debug, Default)]
pub(crate) struct Pings {
    outstanding: VecDeque<(u64, Instant)>,
}

/// Unanswered pings after which a socket is dropped.
const MISSED_PINGS: usize = 3;

impl Pings {
    /// Records a new ping; `None` when [`MISSED_PINGS`] are already unanswered.
    fn send(&mut self) -> Option<u64> {
        if self.outstanding.len() >= MISSED_PINGS {
            return None;
        }
        let nonce = rand::random::<u64>();
        self.outstanding.push_back((nonce, Instant::now()));
        Some(nonce)
    }

    /// The round trip of the ping `payload` answers (it, and any older ping, count as
    /// answered: a client may answer only the newest); `None` for a pong of no ping of ours.
    pub(crate) fn answer(&mut self, payload: &[u8]) -> Option<Duration> {
        let nonce = u64::from_be_bytes(payload.try_into().ok()?);
        let at = self.outstanding.iter().position(|(n, _)| *n == nonce)?;
        let sent = self.outstanding[at].1;
        self.outstanding.drain(..=at);
        Some(sent.elapsed())
    }
}

/// What the reader asks the writer to send.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Local {
    Text(String),
    /// The client closed: finish the closing handshake (the close frame is echoed).
    EchoClose,
    /// The client broke the protocol: close with this code.
    Close(u16, &'static str),
}

async fn connection(
    socket: WebSocket,
    game: GameHandle,
    player: Option<uuid::Uuid>,
    resume_after: Option<u64>,
    settings: Settings,
    end: &crate::session::SessionEnd,
) {
    let (tx, rx) = mpsc::channel(OUTGOING_QUEUE);
    let (mut sink, mut stream) = socket.split();
    let Ok(conn) = game.connect(player, resume_after, tx).await else {
        let _ = tokio::time::timeout(
            settings.write_timeout,
            sink.send(close(
                1001,
                "the game is not available; reconnect in a moment",
            )),
        )
        .await;
        return;
    };
    let pings = Arc::new(Mutex::new(Pings::default()));
    // Answers the reader gives itself (refusals of undecodable frames, closes) go through
    // a small queue of their own, so the actor's queue closing still ends the writer.
    let (local_tx, local_rx) = mpsc::channel(16);
    let mut writer = tokio::spawn(write(sink, rx, local_rx, pings.clone(), settings));
    // Whichever stops first ends the connection: the reader when the client closes or
    // breaks the protocol, the writer when the client stops answering pings or reading
    // (a reader left waiting on a silent client would keep its player "connected").
    let writer_done = tokio::select! {
        () = read(&mut stream, &game, conn, &local_tx, &pings, settings.rate) => false,
        _ = &mut writer => true,
        () = end.ended() => {
            let _ = local_tx.try_send(Local::Close(1008, SIGNED_OUT));
            false
        }
    };
    let _ = game.send(Command::Disconnect { conn }).await;
    drop(local_tx);
    if !writer_done {
        let _ = writer.await;
    }
}

/// Reads the client's frames until it closes or breaks the protocol. Generic over the
/// stream so that tests drive it with plain values, without a network (as axum's
/// `testing-websockets` example).
async fn read<S>(
    stream: &mut S,
    game: &GameHandle,
    conn: ConnId,
    local: &mpsc::Sender<Local>,
    pings: &Mutex<Pings>,
    rate: u32,
) where
    S: futures_util::Stream<Item = Result<Message, axum::Error>> + Unpin,
{
    let mut limit = RateLimit::new(rate);
    while let Some(frame) = stream.next().await {
        let frame = match frame {
            Ok(frame) => frame,
            Err(error) => {
                let (code, reason) = protocol_error_close(error);
                let _ = local.try_send(Local::Close(code, reason));
                break;
            }
        };
        let text = match frame {
            Message::Text(text) => text,
            Message::Binary(_) => {
                let refusal =
                    Frame::error(None, ErrorCode::BadMessage, "messages are JSON text frames");
                let _ = local.try_send(Local::Text(refusal.to_text()));
                continue;
            }
            Message::Pong(payload) => {
                // Pongs count against the message rate like any frame.
                let answered = if limit.allow() {
                    pings.lock().ok().and_then(|mut p| p.answer(&payload))
                } else {
                    None
                };
                match answered {
                    Some(round_trip) => {
                        let round_trip_ms =
                            u64::try_from(round_trip.as_millis()).unwrap_or(u64::MAX);
                        let _ = game
                            .send(Command::Latency {
                                conn,
                                round_trip_ms,
                            })
                            .await;
                    }
                    None => count(&METRICS.ignored_pongs),
                }
                continue;
            }
            Message::Ping(_) => continue,
            Message::Close(_) => {
                let _ = local.try_send(Local::EchoClose);
                break;
            }
        };
        match omweso_protocol::decode(text.as_str()) {
            // Decoded first, so that the refusal names the message it refuses.
            Ok(request) if !limit.allow() => {
                let refusal = Frame::error(
                    request.id,
                    ErrorCode::RateLimited,
                    "too many messages; slow down",
                );
                let _ = local.try_send(Local::Text(refusal.to_text()));
            }
            Ok(request) => {
                let command = Command::Client {
                    conn,
                    id: request.id,
                    message: request.message,
                };
                if game.send(command).await.is_err() {
                    break;
                }
            }
            Err(e) => {
                let refusal = Frame::error(e.id, e.code, e.message);
                let _ = local.try_send(Local::Text(refusal.to_text()));
            }
        }
    }
}

/// What a socket that only takes `ping` answers (the tournament's, the lobby's): each
/// writes its own frame type.
pub(crate) struct PingOnly {
    pub(crate) pong: fn() -> String,
    pub(crate) refuse: fn(ErrorCode, String) -> String,
    /// Why anything but `ping` is refused.
    pub(crate) only_ping: &'static str,
}

/// Reads the frames of a socket that only takes `ping`: it is answered, anything else
/// refused saying why, every frame (pongs too) within the message rate.
pub(crate) async fn read_pings<S>(
    stream: &mut S,
    local: &mpsc::Sender<Local>,
    pings: &Mutex<Pings>,
    rate: u32,
    answers: &PingOnly,
) where
    S: futures_util::Stream<Item = Result<Message, axum::Error>> + Unpin,
{
    let mut limit = RateLimit::new(rate);
    while let Some(frame) = stream.next().await {
        let text = match frame {
            Ok(Message::Text(text)) => text,
            Ok(Message::Binary(_)) => {
                let refusal = (answers.refuse)(
                    ErrorCode::BadMessage,
                    "messages are JSON text frames".into(),
                );
                let _ = local.try_send(Local::Text(refusal));
                continue;
            }
            Ok(Message::Pong(payload)) => {
                if limit.allow() {
                    let _ = pings.lock().ok().and_then(|mut p| p.answer(&payload));
                }
                continue;
            }
            Ok(Message::Ping(_)) => continue,
            Ok(Message::Close(_)) => {
                let _ = local.try_send(Local::EchoClose);
                break;
            }
            Err(error) => {
                let (code, reason) = protocol_error_close(error);
                let _ = local.try_send(Local::Close(code, reason));
                break;
            }
        };
        let answer = if !limit.allow() {
            (answers.refuse)(
                ErrorCode::RateLimited,
                "too many messages; slow down".into(),
            )
        } else {
            match omweso_protocol::decode(text.as_str()) {
                Ok(request)
                    if matches!(request.message, omweso_protocol::ClientMessage::Ping(_)) =>
                {
                    (answers.pong)()
                }
                Ok(_) => (answers.refuse)(ErrorCode::UnknownType, answers.only_ping.into()),
                Err(e) => (answers.refuse)(e.code, e.message),
            }
        };
        let _ = local.try_send(Local::Text(answer));
    }
}

/// The close code RFC 6455 gives a broken frame: 1009 too big, 1007 not UTF-8, 1002 any
/// other protocol error.
pub(crate) fn protocol_error_close(error: axum::Error) -> (u16, &'static str) {
    let inner = error.into_inner();
    match inner.downcast_ref::<tungstenite::Error>() {
        Some(tungstenite::Error::Capacity(_)) => (1009, "the frame is too large"),
        Some(tungstenite::Error::Utf8(_)) => (1007, "a text frame must be UTF-8"),
        _ => (1002, "the frame breaks the WebSocket protocol"),
    }
}

pub(crate) fn close(code: u16, reason: &'static str) -> Message {
    Message::Close(Some(CloseFrame {
        code,
        reason: Utf8Bytes::from_static(reason),
    }))
}

/// Why the writer stopped.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Stop {
    /// The socket is done (closed, or a write failed).
    Done,
    /// A write did not complete in time: the client does not read.
    TimedOut,
}

/// Writes what the game and the reader queue for this connection, and pings, until the
/// socket is done; returns why it stopped. Generic over the sink, like [`read`].
pub(crate) async fn write<K>(
    mut sink: K,
    mut from_game: mpsc::Receiver<Outgoing>,
    mut local: mpsc::Receiver<Local>,
    pings: Arc<Mutex<Pings>>,
    settings: Settings,
) -> Stop
where
    K: futures_util::Sink<Message> + Unpin,
{
    let mut ping = tokio::time::interval(settings.ping_every);
    ping.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    // The first tick is at once: the first ping goes out with the first messages.
    let timeout = settings.write_timeout;
    let stop = loop {
        let first = tokio::select! {
            // The reader's own messages first: its echo of a client's close is queued
            // before the game lets go of this connection, and must win that race.
            biased;
            text = local.recv() => match text {
                Some(Local::Text(text)) => Some(Outgoing::Text(text.into())),
                Some(Local::EchoClose) => {
                    // tungstenite queued the echo when the close arrived; closing the sink
                    // flushes it.
                    let _ = tokio::time::timeout(timeout, sink.close()).await;
                    break Stop::Done;
                }
                Some(Local::Close(code, reason)) => Some(Outgoing::Close(code, reason)),
                None => break Stop::Done,
            },
            outgoing = from_game.recv() => outgoing,
            _ = ping.tick() => {
                let nonce = pings.lock().ok().and_then(|mut p| p.send());
                let Some(nonce) = nonce else {
                    count(&METRICS.dropped_silent_sockets);
                    let _ = tokio::time::timeout(
                        timeout,
                        sink.send(close(1008, "no answer to three pings")),
                    )
                    .await;
                    break Stop::Done;
                };
                let ping = Message::Ping(nonce.to_be_bytes().to_vec().into());
                match tokio::time::timeout(timeout, sink.send(ping)).await {
                    Ok(Ok(())) => continue,
                    Ok(Err(_)) => break Stop::Done,
                    Err(_) => break Stop::TimedOut,
                }
            }
        };
        // Everything already queued goes out in one flush: one write and one TCP segment
        // for an `ack` and its `played`, instead of one each.
        let mut next = first;
        let flushed = loop {
            match next {
                Some(Outgoing::Text(text)) => {
                    // Shared with the game's other sockets: a count goes up, nothing is copied.
                    let message = Message::Text(text);
                    match tokio::time::timeout(timeout, sink.feed(message)).await {
                        Ok(Ok(())) => {}
                        Ok(Err(_)) => break Err(Stop::Done),
                        Err(_) => break Err(Stop::TimedOut),
                    }
                }
                Some(Outgoing::Close(code, reason)) => {
                    let _ = tokio::time::timeout(timeout, sink.send(close(code, reason))).await;
                    break Err(Stop::Done);
                }
                None => {
                    // The game dropped this connection: it could not keep up.
                    let _ = tokio::time::timeout(
                        timeout,
                        sink.send(close(1008, "too slow to keep up; reconnect to resync")),
                    )
                    .await;
                    break Err(Stop::Done);
                }
            }
            next = match from_game.try_recv() {
                Ok(outgoing) => Some(outgoing),
                Err(mpsc::error::TryRecvError::Empty) => break Ok(()),
                Err(mpsc::error::TryRecvError::Disconnected) => None,
            };
        };
        if let Err(stop) = flushed {
            break stop;
        }
        match tokio::time::timeout(timeout, sink.flush()).await {
            Ok(Ok(())) => {}
            Ok(Err(_)) => break Stop::Done,
            Err(_) => break Stop::TimedOut,
        }
    };
    if matches!(stop, Stop::TimedOut) {
        count(&METRICS.dropped_write_timeouts);
    }
    stop
}

#[cfg(test)]
#[path = "connection_tests.rs"]
mod tests;
