//! `GET /ws/games/{id}`: one task per socket, a thin pipe between the client and the game's
//! actor. The reader decodes and forwards; the writer drains the connection's bounded
//! queue (fed by the actor) and pings to measure latency for the referee.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap};
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use tokio::sync::mpsc;

use crate::error::ApiError;
use crate::game::actor::{Command, ConnId, GameHandle, Outgoing, OUTGOING_QUEUE};
use crate::protocol::{self, MAX_FRAME_BYTES};
use crate::state::AppState;

/// How often the server pings a socket (its round trip feeds the referee's allowance).
const PING_EVERY: Duration = Duration::from_secs(5);
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
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    check_origin(&state, &headers)?;
    let id = crate::api::game_id(&id)?;
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
                "bad_version",
                "v is the last event version seen: a whole number",
            )
        })?),
        None => None,
    };
    let rate = state.config.rate_limit.max(1);
    let tracker = state.sockets.clone();
    Ok(ws
        // tungstenite's default 128 KiB read buffer is resident for every socket; client
        // frames are small (16 KiB at most accepted), and the buffer still grows for a
        // larger one up to the hard limit.
        .read_buffer_size(READ_BUFFER)
        .max_message_size(HARD_FRAME_LIMIT)
        .max_frame_size(HARD_FRAME_LIMIT)
        .on_upgrade(move |socket| {
            tracker.track_future(connection(socket, handle, player, resume_after, rate))
        }))
}

/// A browser may only open a game socket from this server's own pages or a configured
/// public origin; clients without an `Origin` header (bots, tools) are not browsers.
fn check_origin(state: &AppState, headers: &HeaderMap) -> Result<(), ApiError> {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return Ok(());
    };
    let origin = origin.to_str().unwrap_or("");
    if crate::edge::origin_allowed(&state.config, headers, origin) {
        Ok(())
    } else {
        Err(ApiError::new(
            axum::http::StatusCode::FORBIDDEN,
            "bad_origin",
            format!("sockets from {origin} are not allowed"),
        ))
    }
}

/// A token bucket: `rate` messages a second, bursts of twice that.
struct RateLimit {
    tokens: f64,
    rate: f64,
    last: Instant,
}

impl RateLimit {
    fn new(rate: u32) -> RateLimit {
        RateLimit {
            tokens: f64::from(rate) * 2.0,
            rate: f64::from(rate),
            last: Instant::now(),
        }
    }

    fn allow(&mut self) -> bool {
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

async fn connection(
    socket: WebSocket,
    game: GameHandle,
    player: Option<uuid::Uuid>,
    resume_after: Option<u64>,
    rate: u32,
) {
    let (tx, rx) = mpsc::channel(OUTGOING_QUEUE);
    let (mut sink, mut stream) = socket.split();
    let Ok(conn) = game.connect(player, resume_after, tx).await else {
        let _ = sink
            .send(close(
                1001,
                "the game is not available; reconnect in a moment",
            ))
            .await;
        return;
    };
    // Answers the reader gives itself (refusals of undecodable frames) go through a small
    // queue of their own, so the actor's queue closing still ends the writer.
    let (local_tx, local_rx) = mpsc::channel(16);
    let writer = tokio::spawn(write(sink, rx, local_rx));
    read(&mut stream, &game, conn, &local_tx, rate).await;
    let _ = game.send(Command::Disconnect { conn }).await;
    drop(local_tx);
    let _ = writer.await;
}

async fn read(
    stream: &mut futures_util::stream::SplitStream<WebSocket>,
    game: &GameHandle,
    conn: ConnId,
    local: &mpsc::Sender<String>,
    rate: u32,
) {
    let mut limit = RateLimit::new(rate);
    while let Some(Ok(frame)) = stream.next().await {
        let text = match frame {
            Message::Text(text) => text,
            Message::Binary(_) => {
                let _ = local.try_send(protocol::error(
                    None,
                    "bad_message",
                    "messages are JSON text frames",
                ));
                continue;
            }
            Message::Pong(payload) => {
                if let Some(sent) = payload_ms(&payload) {
                    let round_trip_ms = crate::clock::now_ms().saturating_sub(sent);
                    let _ = game
                        .send(Command::Latency {
                            conn,
                            round_trip_ms,
                        })
                        .await;
                }
                continue;
            }
            Message::Ping(_) => continue,
            Message::Close(_) => break,
        };
        match protocol::decode(text.as_str()) {
            // Decoded first, so that the refusal names the message it refuses.
            Ok(request) if !limit.allow() => {
                let _ = local.try_send(protocol::error(
                    request.id.as_ref(),
                    "rate_limited",
                    "too many messages; slow down",
                ));
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
                let _ = local.try_send(protocol::error(e.id.as_ref(), e.code, &e.message));
            }
        }
    }
}

fn payload_ms(payload: &[u8]) -> Option<u64> {
    Some(u64::from_be_bytes(payload.try_into().ok()?))
}

fn close(code: u16, reason: &'static str) -> Message {
    Message::Close(Some(CloseFrame {
        code,
        reason: Utf8Bytes::from_static(reason),
    }))
}

async fn write(
    mut sink: futures_util::stream::SplitSink<WebSocket, Message>,
    mut from_game: mpsc::Receiver<Outgoing>,
    mut local: mpsc::Receiver<String>,
) {
    let mut ping = tokio::time::interval(PING_EVERY);
    loop {
        let first = tokio::select! {
            outgoing = from_game.recv() => outgoing,
            text = local.recv() => match text {
                Some(text) => Some(Outgoing::Text(text.into())),
                None => return,
            },
            _ = ping.tick() => {
                let ping = Message::Ping(crate::clock::now_ms().to_be_bytes().to_vec().into());
                if sink.send(ping).await.is_err() {
                    return;
                }
                continue;
            }
        };
        // Everything already queued goes out in one flush: one write and one TCP segment
        // for an `ack` and its `played`, instead of one each.
        let mut next = first;
        loop {
            match next {
                Some(Outgoing::Text(text)) => {
                    if sink
                        .feed(Message::Text(Utf8Bytes::from(text.as_ref())))
                        .await
                        .is_err()
                    {
                        return;
                    }
                }
                Some(Outgoing::Close(code, reason)) => {
                    let _ = sink.send(close(code, reason)).await;
                    return;
                }
                None => {
                    // The game dropped this connection: it could not keep up.
                    let _ = sink
                        .send(close(1008, "too slow to keep up; reconnect to resync"))
                        .await;
                    return;
                }
            }
            next = match from_game.try_recv() {
                Ok(outgoing) => Some(outgoing),
                Err(mpsc::error::TryRecvError::Empty) => break,
                Err(mpsc::error::TryRecvError::Disconnected) => None,
            };
        }
        if sink.flush().await.is_err() {
            return;
        }
    }
}
