//! `GET /ws/tournaments/{id}`: one socket shows a whole tournament. The tournament's task
//! queues `state`, its versioned events and the live `board` of every table on the
//! connection's bounded queue; the writer is the game socket's own (batched flushes,
//! pings, write timeouts). The client only ever sends `ping`.

use axum::extract::ws::WebSocket;
use axum::response::Response;

use crate::cluster::wire::RoomName;
use crate::http::error::ApiError;
use crate::socket::connection::{self};
use crate::socket::room::{watch, Visit};
use crate::socket::room_upgrade::{open_room, RoomKind, RoomRequest};
use crate::socket::upgrade::{Admitted, RoomOf};
use crate::state::AppState;
use crate::tournament::actor::{TournamentHandle, TOURNAMENT_OUTGOING_QUEUE};
use crate::tournament::extract::find_tournament;
use omweso_protocol::tournament::TournamentFrame;

/// The close reason of a socket whose tournament cannot be reached.
const UNAVAILABLE: &str = "the tournament is not available; reconnect in a moment";

/// `GET /ws/tournaments/{id}`: the tournament's socket ([`open_room`]).
pub(crate) async fn upgrade(request: RoomRequest) -> Result<Response, ApiError> {
    let kind = RoomKind {
        what: "tournament",
        name: RoomName::tournament,
        of: RoomOf::Tournament,
    };
    let find = async |state: AppState, id| find_tournament(&state, id).await;
    open_room(request, kind, find, connection, remote_connection).await
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
