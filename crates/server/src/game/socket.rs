//! `GET /ws/games/{id}`: a game's socket, a thin pipe between the client and the game's
//! task. The upgrade admits it (`upgrade::admit`: the token, `?v=`, the places), the
//! room runner (`room::watch`) connects it to the game and runs the transport's writer;
//! the reader here decodes each frame and forwards it to the game as a `Command`.

use std::sync::{Arc, Mutex};

use axum::extract::ws::{Message, WebSocket};
use axum::response::Response;
use futures_util::StreamExt;
use tokio::sync::mpsc;
// tokio's clock is the system's in the server; in tests it can be paused and advanced, so
// the rate limit and the ping round trips are exact there.

use crate::cluster::gateway::{Gateway, Watching};
use crate::cluster::node::Cluster;
use crate::cluster::wire::RoomName;
use crate::game::actor::{Command, GameHandle, OUTGOING_QUEUE};
use crate::game::extract::find_game;
use crate::http::error::ApiError;
use crate::metrics::{count, METRICS};
use crate::room::ConnId;
use crate::socket::connection::{protocol_error_close, Local, Pings, RateLimit};
use crate::socket::remote::watch_remote;
use crate::socket::room::{watch, Visit};
use crate::socket::room_upgrade::{open_room, RoomKind, RoomRequest};
use crate::socket::upgrade::{Admitted, RoomOf};
use crate::state::AppState;
use omweso_protocol::{self, ErrorCode, Frame, Request};

/// The close reason of a socket whose game cannot be reached.
const UNAVAILABLE: &str = "the game is not available; reconnect in a moment";

/// `GET /ws/games/{id}`: the game's socket ([`open_room`]).
pub(crate) async fn upgrade(request: RoomRequest) -> Result<Response, ApiError> {
    let kind = RoomKind {
        what: "game",
        name: RoomName::game,
        of: RoomOf::Game,
    };
    let find = async |state: AppState, id| find_game(&state, id).await;
    open_room(request, kind, find, connection, remote_connection).await
}

/// A game socket whose game another node holds.
async fn remote_connection(
    socket: WebSocket,
    cluster: Arc<Cluster>,
    at: (RoomName, uuid::Uuid),
    admitted: Admitted,
) {
    let (visit, settings, places) = Visit::of(admitted, OUTGOING_QUEUE, UNAVAILABLE);
    let gateway = cluster.gateway.clone();
    let read = async |stream: &mut _, watching: &_, conn, local: &_, pings: &_| {
        let inbox = RemoteGame {
            gateway: &gateway,
            watching,
        };
        read(stream, &inbox, conn, local, pings, settings.rate).await;
    };
    watch_remote(socket, cluster, at, visit, settings, &places.end, read).await;
}

/// Where a game socket's reader sends the client's messages and round trips: the game's
/// task, here or on the node holding it.
pub(crate) trait GameInbox {
    /// Whether the game still takes messages.
    async fn client(&self, conn: ConnId, text: &str, request: Request) -> bool;
    async fn latency(&self, conn: ConnId, round_trip_ms: u64);
}

impl GameInbox for GameHandle {
    async fn client(&self, conn: ConnId, _text: &str, request: Request) -> bool {
        let command = Command::Client {
            conn,
            id: request.id,
            message: request.message,
        };
        self.send(command).await.is_ok()
    }

    async fn latency(&self, conn: ConnId, round_trip_ms: u64) {
        let _ = self
            .send(Command::Latency {
                conn,
                round_trip_ms,
            })
            .await;
    }
}

/// A game on another node, through this node's gateway.
struct RemoteGame<'a> {
    gateway: &'a Gateway,
    watching: &'a Watching,
}

impl GameInbox for RemoteGame<'_> {
    async fn client(&self, conn: ConnId, text: &str, _request: Request) -> bool {
        self.gateway.client(self.watching, conn, text).await
    }

    async fn latency(&self, conn: ConnId, round_trip_ms: u64) {
        self.gateway
            .latency(self.watching, conn, round_trip_ms)
            .await;
    }
}

/// The game's socket, for as long as it is open; its places are given back when it ends.
async fn connection(socket: WebSocket, game: GameHandle, admitted: Admitted) {
    let (visit, settings, places) = Visit::of(admitted, OUTGOING_QUEUE, UNAVAILABLE);
    let read = async |stream: &mut _, conn, local: &_, pings: &_| {
        read(stream, &game, conn, local, pings, settings.rate).await;
    };
    watch(socket, &game, visit, settings, &places.end, read).await;
}

/// Reads the client's frames until it closes or breaks the protocol. Generic over the
/// stream so that tests drive it with plain values, without a network (as axum's
/// `testing-websockets` example).
pub(crate) async fn read<S>(
    stream: &mut S,
    game: &impl GameInbox,
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
                        game.latency(conn, round_trip_ms).await;
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
                if !game.client(conn, text.as_str(), request).await {
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
