//! A socket on this node watching a room held by another node (docs/scaling.md): the
//! same transport as a local socket's (`room::watch`), with the room reached through the
//! gateway: its frames come from the room's subject, the client's messages go to its
//! owner over NATS.

use std::sync::{Arc, Mutex};

use axum::extract::ws::WebSocket;
use futures_util::stream::SplitStream;
use futures_util::StreamExt;
use tokio::sync::mpsc;
use uuid::Uuid;

use crate::cluster::gateway::Watching;
use crate::cluster::node::{Cluster, Place};
use crate::cluster::wire::RoomName;
use crate::http::error::ApiError;
use crate::people::SessionEnd;
use crate::room::ConnId;
use crate::socket::connection::{Local, Pings, Settings};
use crate::socket::room::{serve, unavailable, Transport, Visit};
use crate::state::AppState;
use crate::store::lease::LeaseKind;

/// The node holding `room`, when it is another live node (several nodes,
/// docs/scaling.md); `None` when it is played here.
pub(crate) async fn elsewhere(
    state: &AppState,
    room: RoomName,
) -> Result<Option<(Arc<Cluster>, uuid::Uuid)>, ApiError> {
    let Some(cluster) = state.cluster.clone() else {
        return Ok(None);
    };
    let loaded = match room.kind {
        LeaseKind::Game => state.games.loaded(room.id).is_some(),
        LeaseKind::Tournament => state.tournaments.loaded(room.id).is_some(),
    };
    match cluster.locate(room, loaded).await {
        Ok(Place::There(owner)) => Ok(Some((cluster, owner))),
        Ok(Place::Here) => Ok(None),
        Err(error) => Err(ApiError::internal(&error)),
    }
}

/// Runs `socket` as a connection of `room`, held by node `owner`, until either side stops;
/// `read` reads the client's frames (given the watch, for forwarding them).
pub(crate) async fn watch_remote<R>(
    socket: WebSocket,
    cluster: Arc<Cluster>,
    (room, owner): (RoomName, Uuid),
    visit: Visit,
    settings: Settings,
    end: &SessionEnd,
    read: R,
) where
    R: AsyncFnOnce(
        &mut SplitStream<WebSocket>,
        &Watching,
        ConnId,
        &mpsc::Sender<Local>,
        &Mutex<Pings>,
    ),
{
    let (tx, rx) = mpsc::channel(visit.queue);
    let (mut sink, stream) = socket.split();
    let opened = match cluster.gateway.watch(room, owner, tx).await {
        Ok(watching) => {
            match cluster
                .gateway
                .connect(&watching, visit.player, visit.resume_after)
                .await
            {
                Ok(conn) => Ok((watching, conn)),
                Err(error) => Err(error),
            }
        }
        Err(error) => Err(error),
    };
    let (watching, conn) = match opened {
        Ok(opened) => opened,
        Err(error) => {
            tracing::debug!(%error, ?room, %owner, "a socket could not reach the room's node");
            // Asked again on the client's next try.
            cluster.forget(room);
            unavailable(&mut sink, &visit, settings).await;
            return;
        }
    };
    let transport = Transport {
        sink,
        stream,
        rx,
        settings,
    };
    let read = async |stream: &mut _, local: &_, pings: &_| {
        read(stream, &watching, conn, local, pings).await;
    };
    let closed = async || cluster.gateway.disconnect(&watching, conn).await;
    serve(transport, end, read, closed).await;
}
