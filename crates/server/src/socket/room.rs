//! A socket watching a room (a game's or a tournament's task), written once for both:
//! connected to the room (which queues what the client missed, or the state), then run
//! as a reader and a writer until the client closes, the writer stops (the client no
//! longer reads or answers pings, or the room closed the queue) or the session ends; the
//! room is told it closed.

use std::sync::{Arc, Mutex};

use axum::extract::ws::{Message, WebSocket};
use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use tokio::sync::mpsc;

use crate::people::SessionEnd;
use crate::room::{ConnId, Handle, Outgoing, SocketCommand};
use crate::socket::connection::{self, Local, Pings, Settings, SIGNED_OUT};
use crate::socket::upgrade::{Admitted, Places};

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

impl Visit {
    /// The visit of an admitted socket to a room whose connections queue `queue` frames,
    /// closed with `unavailable` when the room cannot be reached; with the socket's
    /// settings and its places (held until it closes).
    pub(crate) fn of(
        admitted: Admitted,
        queue: usize,
        unavailable: &'static str,
    ) -> (Visit, Settings, Places) {
        let Admitted {
            player,
            resume_after,
            places,
            settings,
        } = admitted;
        let visit = Visit {
            player,
            resume_after,
            queue,
            unavailable,
        };
        (visit, settings, places)
    }
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
    let (mut sink, stream) = socket.split();
    let Ok(conn) = room.connect(visit.player, visit.resume_after, tx).await else {
        unavailable(&mut sink, &visit, settings).await;
        return;
    };
    let transport = Transport {
        sink,
        stream,
        rx,
        settings,
    };
    let read = async |stream: &mut _, local: &_, pings: &_| read(stream, conn, local, pings).await;
    serve(transport, end, read, async || room.disconnect(conn).await).await;
}

/// Closes a socket whose room could not be reached (1001, the visit's reason): the
/// client reconnects in a moment.
pub(crate) async fn unavailable(
    sink: &mut SplitSink<WebSocket, Message>,
    visit: &Visit,
    settings: Settings,
) {
    let _ = tokio::time::timeout(
        settings.write_timeout,
        sink.send(connection::close(1001, visit.unavailable)),
    )
    .await;
}

/// A socket's two halves and the queue its room fills, ready to be served.
pub(crate) struct Transport {
    pub(crate) sink: SplitSink<WebSocket, Message>,
    pub(crate) stream: SplitStream<WebSocket>,
    pub(crate) rx: mpsc::Receiver<Outgoing>,
    pub(crate) settings: Settings,
}

/// Serves a connected socket, the same whether its room is here or on another node:
/// the writer drains the room's queue (and the reader's own, for its refusals and
/// closes); whichever stops first ends the connection: the reader when the client closes
/// or breaks the protocol, the writer when the client stops answering pings or reading
/// (a reader left waiting on a silent client would keep its player "connected"), or the
/// session ending. Then `closed` tells the room, before the writer's last flush.
pub(crate) async fn serve<R, D>(transport: Transport, end: &SessionEnd, read: R, closed: D)
where
    R: AsyncFnOnce(&mut SplitStream<WebSocket>, &mpsc::Sender<Local>, &Mutex<Pings>),
    D: AsyncFnOnce(),
{
    let Transport {
        sink,
        mut stream,
        rx,
        settings,
    } = transport;
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
    let writer_done = tokio::select! {
        () = read(&mut stream, &local_tx, &pings) => false,
        _ = &mut writer => true,
        () = end.ended() => {
            let _ = local_tx.try_send(Local::Close(1008, SIGNED_OUT));
            false
        }
    };
    closed().await;
    drop(local_tx);
    if !writer_done {
        let _ = writer.await;
    }
}
