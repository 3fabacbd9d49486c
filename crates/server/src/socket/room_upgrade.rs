//! The upgrade of a room's socket, a game's or a tournament's, written once: the `Origin`
//! checked, the id read as the server writes it, then either the room's node is another
//! (the socket relayed from there, `socket::remote`) or the room is found here and
//! watched; the client is let in ([`admit`]) on either path, after the room was found,
//! so that a missing room costs no place.

use std::collections::HashMap;
use std::future::Future;
use std::sync::Arc;

use axum::extract::ws::{WebSocket, WebSocketUpgrade};
use axum::extract::{FromRequestParts, Path, Query};
use axum::http::request::Parts;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use uuid::Uuid;

use crate::cluster::node::Cluster;
use crate::cluster::wire::RoomName;
use crate::http::accept::ClientIp;
use crate::http::error::ApiError;
use crate::http::extract::id_as_written;
use crate::socket::remote::elsewhere;
use crate::socket::upgrade::{admit, check_origin, open, Admitted, RoomOf};
use crate::state::AppState;

/// What an upgrade request to a room's socket carries, as the handlers' extractors read it.
pub(crate) struct RoomRequest {
    pub(crate) ws: WebSocketUpgrade,
    pub(crate) state: AppState,
    /// The path's `{id}`, as written.
    pub(crate) id: String,
    pub(crate) query: HashMap<String, String>,
    pub(crate) ip: Option<axum::Extension<ClientIp>>,
    pub(crate) headers: HeaderMap,
}

impl FromRequestParts<AppState> for RoomRequest {
    /// The WebSocket layer's own refusal (not an upgrade, a bad path or query).
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Response> {
        let ws = WebSocketUpgrade::from_request_parts(parts, state)
            .await
            .map_err(IntoResponse::into_response)?;
        let Path(id) = Path::<String>::from_request_parts(parts, state)
            .await
            .map_err(IntoResponse::into_response)?;
        let Query(query) = Query::<HashMap<String, String>>::from_request_parts(parts, state)
            .await
            .map_err(IntoResponse::into_response)?;
        Ok(RoomRequest {
            ws,
            state: state.clone(),
            id,
            query,
            ip: parts
                .extensions
                .get::<ClientIp>()
                .cloned()
                .map(axum::Extension),
            headers: parts.headers.clone(),
        })
    }
}

/// Which room a socket opens: its kind's word for a refusal (`"game"`), its name among
/// nodes and its name for the limited devices' check.
pub(crate) struct RoomKind {
    pub(crate) what: &'static str,
    pub(crate) name: fn(Uuid) -> RoomName,
    pub(crate) of: fn(Uuid) -> RoomOf,
}

/// Opens the socket: on the room's node, `remote` runs it; here, `find` finds the room's
/// handle and `local` runs the socket on it.
pub(crate) async fn open_room<H, Found, Local, LocalRun, Remote, RemoteRun>(
    request: RoomRequest,
    kind: RoomKind,
    find: impl FnOnce(AppState, Uuid) -> Found,
    local: Local,
    remote: Remote,
) -> Result<Response, ApiError>
where
    H: Send + 'static,
    Found: Future<Output = Result<H, ApiError>>,
    Local: FnOnce(WebSocket, H, Admitted) -> LocalRun + Send + 'static,
    LocalRun: Future<Output = ()> + Send + 'static,
    Remote:
        FnOnce(WebSocket, Arc<Cluster>, (RoomName, Uuid), Admitted) -> RemoteRun + Send + 'static,
    RemoteRun: Future<Output = ()> + Send + 'static,
{
    let RoomRequest {
        ws,
        state,
        id,
        query,
        ip,
        headers,
    } = request;
    check_origin(&state, &headers)?;
    let id = id_as_written(&id, kind.what)?;
    let room = (kind.name)(id);
    if let Some((cluster, owner)) = elsewhere(&state, room).await? {
        let admitted = admit(&state, &query, &headers, ip, (kind.of)(id)).await?;
        return Ok(open(ws, &state, admitted, move |socket, admitted| {
            remote(socket, cluster, (room, owner), admitted)
        }));
    }
    let handle = find(state.clone(), id).await?;
    let admitted = admit(&state, &query, &headers, ip, (kind.of)(id)).await?;
    Ok(open(ws, &state, admitted, move |socket, admitted| {
        local(socket, handle, admitted)
    }))
}
