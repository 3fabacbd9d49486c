//! A socket watching a room (a game's or a tournament's task), written once for both:
//! connected to the room (which queues what the client missed, or the state), then run
//! as a reader and a writer until the client closes, the writer stops (the client no
//! longer reads or answers pings, or the room closed the queue) or the session ends; the
//! room is told it closed.

use std::sync::{Arc, Mutex};

use axum::extract::ws::WebSocket;
use futures_util::stream::SplitStream;
use futures_util::{SinkExt, StreamExt};
use tokio::sync::mpsc;

use crate::room::{ConnId, Handle, SocketCommand};
use crate::session::SessionEnd;
use crate::socket::connection::{self, Local, Pings, Settings, SIGNED_OUT};

/// Who connects to a room, and how.
pub(crate) struct Visit {
    /// The session's player (none: a visitor).
    pub(crate) player: Option<uuid::Uuid>,
    /// The last event version the client saw (`?v=`).
    pub(crate) resume_after: Option<u64>,
    /// The connection's outgoing queue (the room drops a connection that fills it).
    pub(crate) queue: usize,
    /// The close reason (1001) when the room cannot be reached.
    pub(crate) unavailable: &'static str,
}

/// Runs `socket` as a connection of `room` until either side stops; `read` reads the
/// client's frames (given the connection's number, the reader's own queue to the writer,
/// and the pings awaiting an answer) until it closes or breaks the protocol.
pub(crate) async fn watch<C, R>(
    socket: WebSocket,
    room: &Handle<C>,
    visit: Visit,
    settings: Settings,
    end: &SessionEnd,
    read: R,
) where
    C: From<SocketCommand>,
    R: AsyncFnOnce(&mut SplitStream<WebSocket>, ConnId, &mpsc::Sender<Local>, &Mutex<Pings>),
{
    let (tx, rx) = mpsc::channel(visit.queue);
    let (mut sink, mut stream) = socket.split();
    let Ok(conn) = room.connect(visit.player, visit.resume_after, tx).await else {
        let _ = tokio::time::timeout(
            settings.write_timeout,
            sink.send(connection::close(1001, visit.unavailable)),
        )
        .await;
        return;
    };
    let pings = Arc::new(Mutex::new(Pings::default()));
    // Answers the reader gives itself (refusals of undecodable frames, closes) go through
    // a small queue of their own, so the room's queue closing still ends the writer.
    let (local_tx, local_rx) = mpsc::channel(16);
    let mut writer = tokio::spawn(connection::write(
        sink,
        rx,
        local_rx,
        pings.clone(),
        settings,
    ));
    // Whichever stops first ends the connection: the reader when the client closes or
    // breaks the protocol, the writer when the client stops answering pings or reading
    // (a reader left waiting on a silent client would keep its player "connected").
    let writer_done = tokio::select! {
        () = read(&mut stream, conn, &local_tx, &pings) => false,
        _ = &mut writer => true,
        () = end.ended() => {
            let _ = local_tx.try_send(Local::Close(1008, SIGNED_OUT));
            false
        }
    };
    room.disconnect(conn).await;
    drop(local_tx);
    if !writer_done {
        let _ = writer.await;
    }
}
