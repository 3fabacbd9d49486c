//! This node's games and tournaments as the cluster reaches them
//! (`cluster::local_rooms`): beside `state.rs` at the top, since it names both registries
//! and the cluster, which names neither.

use std::collections::HashSet;
use std::sync::Arc;

use uuid::Uuid;

use crate::cluster::local_rooms::{Answer, LocalRooms, RemoteMessage, TakeOver};
use crate::cluster::wire::RoomName;
use crate::game::actor::Command as GameCommand;
use crate::room::{ConnId, Handle, Sink, SocketCommand};
use crate::state::AppState;
use crate::store::lease::{Lease, LeaseKind};
use crate::store::StoreError;

impl LocalRooms for AppState {
    fn connect(
        &self,
        room: RoomName,
        player: Option<Uuid>,
        resume_after: Option<u64>,
        sink: Sink,
    ) -> Answer<'_, Result<ConnId, &'static str>> {
        Box::pin(connect(self, room, player, resume_after, sink))
    }

    fn relay(&self, room: RoomName, conn: ConnId, message: RemoteMessage) -> Answer<'_, ()> {
        Box::pin(relay(self, room, conn, message))
    }

    fn nodes_live(&self, live: Arc<HashSet<Uuid>>) -> Answer<'_, ()> {
        Box::pin(nodes_live(self, live))
    }

    fn take_over<'a>(&'a self, lease: &'a Lease) -> Answer<'a, Result<TakeOver, StoreError>> {
        Box::pin(take_over(self, lease))
    }
}

async fn connect(
    state: &AppState,
    room: RoomName,
    player: Option<Uuid>,
    resume_after: Option<u64>,
    sink: Sink,
) -> Result<ConnId, &'static str> {
    let not_here = "the room is not on this node";
    match room.kind {
        LeaseKind::Game => {
            let game = state
                .games
                .get(room.id)
                .await
                .map_err(|_| not_here)?
                .ok_or("no such game")?;
            game.connect(player, resume_after, sink)
                .await
                .map_err(|_| not_here)
        }
        LeaseKind::Tournament => {
            let tournament = state
                .tournaments
                .get(room.id)
                .await
                .map_err(|_| not_here)?
                .ok_or("no such tournament")?;
            tournament
                .connect(player, resume_after, sink)
                .await
                .map_err(|_| not_here)
        }
    }
}

/// A remote socket's message, round trip or close, to its room's task. A tournament's
/// socket sends nothing but its close (its watchers only listen).
async fn relay(state: &AppState, room: RoomName, conn: ConnId, message: RemoteMessage) {
    match room.kind {
        LeaseKind::Game => {
            let Some(game) = state.games.loaded(room.id) else {
                return;
            };
            let command = match message {
                RemoteMessage::Client(payload) => {
                    // Checked and decoded by the socket's node already; decoded again here
                    // (the message crossed a network).
                    let Some(request) = std::str::from_utf8(&payload)
                        .ok()
                        .and_then(|text| omweso_protocol::decode(text).ok())
                    else {
                        return;
                    };
                    GameCommand::Client {
                        conn,
                        id: request.id,
                        message: request.message,
                    }
                }
                RemoteMessage::Latency { round_trip_ms } => GameCommand::Latency {
                    conn,
                    round_trip_ms,
                },
                RemoteMessage::Disconnect => {
                    GameCommand::Socket(SocketCommand::Disconnect { conn })
                }
            };
            let _ = game.send(command).await;
        }
        LeaseKind::Tournament => {
            if let RemoteMessage::Disconnect = message {
                if let Some(tournament) = state.tournaments.loaded(room.id) {
                    tournament.disconnect(conn).await;
                }
            }
        }
    }
}

async fn nodes_live(state: &AppState, live: Arc<HashSet<Uuid>>) {
    tell_live(state.games.all_loaded(), &live).await;
    tell_live(state.tournaments.all_loaded(), &live).await;
}

/// Tells each room of `rooms` which nodes live.
async fn tell_live<C: From<SocketCommand>>(rooms: Vec<Handle<C>>, live: &Arc<HashSet<Uuid>>) {
    for room in rooms {
        let live = Arc::clone(live);
        let _ = room.send(SocketCommand::NodesLive { live }.into()).await;
    }
}

/// Loads an orphaned room here. Tournaments are taken first (the sweep's order), and a
/// tournament's game goes with its tournament: only the tournament's holder takes it.
async fn take_over(state: &AppState, lease: &Lease) -> Result<TakeOver, StoreError> {
    let found = match lease.kind {
        LeaseKind::Tournament => match state.tournaments.get(lease.id).await {
            Ok(found) => found.is_some(),
            Err(crate::tournament::registry::LoadError::Store(error)) => return Err(error),
            Err(_) => return Ok(TakeOver::NotNow),
        },
        LeaseKind::Game => {
            if let Some(tournament) = tournament_of(state, lease.id).await? {
                if state.tournaments.loaded(tournament).is_none() {
                    return Ok(TakeOver::NotNow);
                }
            }
            match state.games.get(lease.id).await {
                Ok(found) => found.is_some(),
                Err(crate::game::registry::LoadError::Store(error)) => return Err(error),
                Err(_) => return Ok(TakeOver::NotNow),
            }
        }
    };
    Ok(if found {
        TakeOver::Taken
    } else {
        TakeOver::Gone
    })
}

async fn tournament_of(state: &AppState, game: Uuid) -> Result<Option<Uuid>, StoreError> {
    Ok(state
        .store
        .game(game)
        .await?
        .and_then(|row| row.archive.tournament_id))
}
