//! `GET /ws/lobby`: the lobby, pushed (an addition). The socket sends the `lobby` frame the
//! shared feed (`lobby::feed`) last encoded, then each new one; the writer is the game
//! socket's own (batched flushes, pings, write timeouts). A socket whose client reads
//! slowly skips to the latest frame: its queue holds one. The client only ever sends
//! `ping`.
//!
//! A session is required, as for `GET /api/games?list=` and `GET /api/tournaments?list=`,
//! whose lists it pushes: the same data is open to the same callers, and the socket counts
//! against its session's socket limit like the others.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::extract::ws::{WebSocket, WebSocketUpgrade};
use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use futures_util::StreamExt;
use tokio::sync::{mpsc, watch};

use crate::http::error::ApiError;
use crate::lobby::feed::LobbyText;
use crate::room::Outgoing;
use crate::socket::connection::{self, Pings};
use crate::socket::upgrade::{admit_session, check_origin, open, Admitted};
use crate::state::AppState;
use omweso_protocol::lobby::LobbyFrame;

/// A lobby socket's outgoing queue: the frame waiting to be written. The feed is read
/// again only once there is room, so a slow socket gets the latest lobby, not a backlog.
pub const LOBBY_OUTGOING_QUEUE: usize = 1;

/// What the socket answers: `pong` to a `ping`, an `error` to anything else.
const ANSWERS: connection::PingOnly = connection::PingOnly {
    pong: || LobbyFrame::pong().to_text(),
    refuse: |code, message| LobbyFrame::error(code, message).to_text(),
    only_ping: "a lobby socket only takes ping",
};

pub async fn upgrade(
    ws: WebSocketUpgrade,
    State(state): State<AppState>,
    Query(query): Query<HashMap<String, String>>,
    ip: Option<axum::Extension<crate::http::accept::ClientIp>>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    check_origin(&state, &headers)?;
    let admitted = admit_session(&state, &query, &headers, ip).await?;
    let feed = state.lobby_feed.clone();
    let shutdown = state.shutdown.clone();
    Ok(open(ws, &state, admitted, move |socket, admitted| {
        connection(socket, feed, shutdown, admitted)
    }))
}

/// The lobby's socket, for as long as it is open; its places are given back when it ends.
async fn connection(
    socket: WebSocket,
    feed: watch::Receiver<LobbyText>,
    shutdown: watch::Receiver<bool>,
    admitted: Admitted,
) {
    let Admitted {
        places, settings, ..
    } = admitted;
    let end = &places.end;
    let (tx, rx) = mpsc::channel(LOBBY_OUTGOING_QUEUE);
    let (sink, mut stream) = socket.split();
    let pings = Arc::new(Mutex::new(Pings::default()));
    let (local_tx, local_rx) = mpsc::channel(16);
    let mut writer = tokio::spawn(connection::write(
        sink,
        rx,
        local_rx,
        pings.clone(),
        settings,
    ));
    // Whichever stops first ends the connection: the reader (the client closed or broke
    // the protocol) or the writer (the client stopped reading or answering pings, or the
    // server's close went out); `forward` never ends by itself.
    let writer_done = tokio::select! {
        () = connection::read_pings(&mut stream, &local_tx, &pings, settings.rate, &ANSWERS) => false,
        () = forward(feed, &tx, shutdown) => false,
        _ = &mut writer => true,
        () = end.ended() => {
            let _ = local_tx.try_send(connection::Local::Close(1008, connection::SIGNED_OUT));
            false
        }
    };
    // The reader's own last word (the echo of a close) goes first: the writer stops on
    // it, before it could take the end of the feed for a slow client.
    drop(local_tx);
    drop(tx);
    if !writer_done {
        let _ = writer.await;
    }
}

/// Queues the latest lobby whenever it changes, until the server stops (then a close
/// frame, 1001). It waits for room on the queue before it reads the latest text, so a
/// socket that writes slowly skips the frames it had no room for. Never returns.
async fn forward(
    mut feed: watch::Receiver<LobbyText>,
    tx: &mpsc::Sender<Outgoing>,
    mut shutdown: watch::Receiver<bool>,
) {
    loop {
        let permit = tokio::select! {
            permit = tx.reserve() => permit.ok(),
            _ = shutdown.wait_for(|stop| *stop) => None,
        };
        let Some(permit) = permit else { break };
        // Cloned out at once: the watch's lock is not held past this line.
        let latest = feed.borrow_and_update().clone();
        if let Some(text) = latest {
            permit.send(Outgoing::Text(text));
        }
        let go_on = tokio::select! {
            changed = feed.changed() => changed.is_ok(),
            _ = shutdown.wait_for(|stop| *stop) => false,
        };
        if !go_on {
            break;
        }
    }
    // The server is stopping (or the feed with it): the writer sends the close and ends,
    // which ends the connection.
    let _ = tx
        .send(Outgoing::Close(
            1001,
            "the server is restarting; reconnect in a moment",
        ))
        .await;
    std::future::pending::<()>().await;
}
