//! `GET /ws/tournaments/{id}`: one socket shows a whole tournament. The tournament's task
//! queues `state`, its versioned events and the live `board` of every table on the
//! connection's bounded queue; the writer is the game socket's own (batched flushes,
//! pings, write timeouts). The client only ever sends `ping`.

use std::collections::HashMap;

use axum::extract::ws::{WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::Response;

use crate::cluster::wire::RoomName;
use crate::http::error::ApiError;
use crate::http::extract::{find_tournament, id_as_written};
use crate::socket::connection::{self};
use crate::socket::room::{watch, Visit};
use crate::socket::upgrade::{admit, check_origin, open, Admitted};
use crate::state::AppState;
use crate::tournament::actor::{TournamentHandle, TOURNAMENT_OUTGOING_QUEUE};
use omweso_protocol::tournament::TournamentFrame;

/// The close reason of a socket whose tournament cannot be reached.
const UNAVAILABLE: &str = "the tournament is not available; reconnect in a moment";

pub async fn upgrade(
    ws: WebSocketUpgrade,
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    ip: Option<axum::Extension<crate::http::accept::ClientIp>>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    check_origin(&state, &headers)?;
    let id = id_as_written(&id, "tournament")?;
    if let Some((cluster, owner)) =
        crate::socket::remote::elsewhere(&state, RoomName::tournament(id)).await?
    {
        let admitted = admit(&state, &query, &headers, ip).await?;
        return Ok(open(ws, &state, admitted, move |socket, admitted| {
            remote_connection(socket, cluster, (RoomName::tournament(id), owner), admitted)
        }));
    }
    let handle = find_tournament(&state, id).await?;
    let admitted = admit(&state, &query, &headers, ip).await?;
    Ok(open(ws, &state, admitted, move |socket, admitted| {
        connection(socket, handle, admitted)
    }))
}

/// The tournament's socket, for as long as it is open; its places are given back when it
/// ends.
async fn connection(socket: WebSocket, tournament: TournamentHandle, admitted: Admitted) {
    let (visit, settings, places) = Visit::of(admitted, TOURNAMENT_OUTGOING_QUEUE, UNAVAILABLE);
    let read = async |stream: &mut _, _conn, local: &_, pings: &_| {
        connection::read_pings(stream, local, pings, settings.rate, &ANSWERS).await;
    };
    watch(socket, &tournament, visit, settings, &places.end, read).await;
}

/// A tournament socket whose tournament another node holds: its frames come through the
/// gateway; the client only pings, answered here.
async fn remote_connection(
    socket: WebSocket,
    cluster: std::sync::Arc<crate::cluster::node::Cluster>,
    at: (RoomName, uuid::Uuid),
    admitted: Admitted,
) {
    let (visit, settings, places) = Visit::of(admitted, TOURNAMENT_OUTGOING_QUEUE, UNAVAILABLE);
    let read = async |stream: &mut _, _watching: &_, _conn, local: &_, pings: &_| {
        connection::read_pings(stream, local, pings, settings.rate, &ANSWERS).await;
    };
    crate::socket::remote::watch_remote(socket, cluster, at, visit, settings, &places.end, read)
        .await;
}

/// What the socket answers: `pong` to a `ping`, an `error` to anything else.
const ANSWERS: connection::PingOnly = connection::PingOnly {
    pong: || TournamentFrame::pong().to_text(),
    refuse: |code, message| TournamentFrame::error(code, message).to_text(),
    only_ping: "a tournament socket only takes ping; play on the game's own socket",
};
