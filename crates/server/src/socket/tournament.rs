//! `GET /ws/tournaments/{id}`: one socket shows a whole tournament. The tournament's task
//! queues `state`, its versioned events and the live `board` of every table on the
//! connection's bounded queue; the writer is the game socket's own (batched flushes,
//! pings, write timeouts). The client only ever sends `ping`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::ws::{WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use tokio::sync::mpsc;

use crate::http::error::ApiError;
use crate::socket::connection::{self, Pings, Settings};
use crate::state::AppState;
use crate::tournament::actor::{Command, TournamentHandle, TOURNAMENT_OUTGOING_QUEUE};
use omweso_protocol::tournament::TournamentFrame;
use omweso_protocol::{ErrorCode, MAX_FRAME_BYTES};

pub async fn upgrade(
    ws: WebSocketUpgrade,
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    ip: Option<axum::Extension<crate::http::accept::ClientIp>>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    connection::check_origin(&state, &headers)?;
    let handle = crate::http::tournaments::tournament(&state, &id).await?;
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
    let places = connection::hold_places(&state, crate::http::games::client_ip(ip), player)?;
    let limits = &state.config.limits;
    let settings = Settings {
        rate: state.config.rate_limit.max(1),
        ping_every: Duration::from_secs_f64(limits.ping_seconds),
        write_timeout: Duration::from_secs_f64(limits.socket_write_seconds),
    };
    let tracker = state.sockets.clone();
    Ok(ws
        .read_buffer_size(4 * 1024)
        .max_message_size(4 * MAX_FRAME_BYTES)
        .max_frame_size(4 * MAX_FRAME_BYTES)
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

async fn connection(
    socket: WebSocket,
    tournament: TournamentHandle,
    player: Option<uuid::Uuid>,
    resume_after: Option<u64>,
    settings: Settings,
    end: &crate::session::SessionEnd,
) {
    let (tx, rx) = mpsc::channel(TOURNAMENT_OUTGOING_QUEUE);
    let (mut sink, mut stream) = socket.split();
    let conn = tournament
        .ask(|reply| Command::Connect {
            player,
            resume_after,
            tx,
            reply,
        })
        .await;
    let Ok(conn) = conn else {
        let _ = tokio::time::timeout(
            settings.write_timeout,
            sink.send(connection::close(
                1001,
                "the tournament is not available; reconnect in a moment",
            )),
        )
        .await;
        return;
    };
    let pings = Arc::new(Mutex::new(Pings::default()));
    let (local_tx, local_rx) = mpsc::channel(16);
    let mut writer = tokio::spawn(connection::write(
        sink,
        rx,
        local_rx,
        pings.clone(),
        settings,
    ));
    let writer_done = tokio::select! {
        () = connection::read_pings(&mut stream, &local_tx, &pings, settings.rate, &ANSWERS) => false,
        _ = &mut writer => true,
        () = end.ended() => {
            let _ = local_tx.try_send(connection::Local::Close(1008, connection::SIGNED_OUT));
            false
        }
    };
    let _ = tournament.send(Command::Disconnect { conn }).await;
    drop(local_tx);
    if !writer_done {
        let _ = writer.await;
    }
}

/// What the socket answers: `pong` to a `ping`, an `error` to anything else.
const ANSWERS: connection::PingOnly = connection::PingOnly {
    pong: || TournamentFrame::pong().to_text(),
    refuse: |code, message| TournamentFrame::error(code, message).to_text(),
    only_ping: "a tournament socket only takes ping; play on the game's own socket",
};
