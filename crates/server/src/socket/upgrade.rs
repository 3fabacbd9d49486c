//! What every socket's upgrade does before the socket opens, written once for the game,
//! tournament and lobby sockets: the `Origin` check, the session's player from the token
//! (`?token=` or the cookie), the last version seen (`?v=`), the socket's places in the
//! per-address and per-session counts, how the socket is run, and the WebSocket layer's
//! buffer and frame limits.

use std::collections::HashMap;
use std::future::Future;
use std::time::Duration;

use axum::extract::ws::{WebSocket, WebSocketUpgrade};
use axum::http::{header, HeaderMap};
use axum::response::Response;
use uuid::Uuid;

use crate::http::accept::ClientIp;
use crate::http::error::ApiError;
use crate::metrics::Limit;
use crate::socket::connection::{Settings, HARD_FRAME_LIMIT, READ_BUFFER};
use crate::state::AppState;
use omweso_protocol::ErrorCode;

/// A client let in to a socket: who it is, where it resumes, and its places.
pub(crate) struct Admitted {
    /// The session's player (none: a visitor without a session, or an unknown token).
    pub(crate) player: Option<Uuid>,
    /// The last event version the client saw (`?v=`), to be caught up from.
    pub(crate) resume_after: Option<u64>,
    pub(crate) places: Places,
    pub(crate) settings: Settings,
}

/// The room a socket opens on: a device a director linked for a tournament's player opens
/// only that tournament's and its games' (docs/security.md#accounts).
#[derive(Clone, Copy, Debug)]
pub(crate) enum RoomOf {
    Game(Uuid),
    Tournament(Uuid),
}

/// Lets a client in to a room's socket (a game's or a tournament's), anyone, with or
/// without a session: its player from its token, its `?v=`, and its places. A limited
/// device is refused (`403 limited_device`) outside its tournament.
pub(crate) async fn admit(
    state: &AppState,
    query: &HashMap<String, String>,
    headers: &HeaderMap,
    ip: Option<axum::Extension<ClientIp>>,
    room: RoomOf,
) -> Result<Admitted, ApiError> {
    let session = match session_player(state, query, headers).await? {
        Some(session) => Some(in_room(state, session, room).await?),
        None => None,
    };
    let resume_after = resume_after(query)?;
    let places = hold_places(state, crate::http::extract::client_ip(ip), session.as_ref())?;
    Ok(Admitted {
        player: session.map(|s| s.player_id),
        resume_after,
        places,
        settings: settings(state),
    })
}

/// Lets a client with a session in (the lobby socket, whose lists the same callers may
/// read): 401 without a token or with one that names no session. No `?v=`: the lobby is
/// sent whole.
pub(crate) async fn admit_session(
    state: &AppState,
    query: &HashMap<String, String>,
    headers: &HeaderMap,
    ip: Option<axum::Extension<ClientIp>>,
) -> Result<Admitted, ApiError> {
    let session = session_player(state, query, headers)
        .await?
        .ok_or_else(ApiError::unauthorized)?;
    if session.only_tournament.is_some() {
        return Err(ApiError::limited_device(&session.name));
    }
    let places = hold_places(state, crate::http::extract::client_ip(ip), Some(&session))?;
    Ok(Admitted {
        player: Some(session.player_id),
        resume_after: None,
        places,
        settings: settings(state),
    })
}

/// Opens the socket with the WebSocket layer's limits, tracked so that the server waits
/// for it when stopping, and runs `run` on it with the client admitted. `run` owns the
/// `Admitted` whole, places included, so the places are held until the socket ends (a
/// closure that named only `places.end` would capture that field alone, and give the
/// caps' holds back as soon as the upgrade answered).
pub(crate) fn open<F, Fut>(
    ws: WebSocketUpgrade,
    state: &AppState,
    admitted: Admitted,
    run: F,
) -> Response
where
    F: FnOnce(WebSocket, Admitted) -> Fut + Send + 'static,
    Fut: Future<Output = ()> + Send + 'static,
{
    let tracker = state.sockets.clone();
    ws
        // tungstenite's default 128 KiB read buffer is resident for every socket; client
        // frames are small (16 KiB at most accepted), and the buffer still grows for a
        // larger one up to the hard limit.
        .read_buffer_size(READ_BUFFER)
        .max_message_size(HARD_FRAME_LIMIT)
        .max_frame_size(HARD_FRAME_LIMIT)
        .on_upgrade(move |socket| tracker.track_future(run(socket, admitted)))
}

/// The session: from `?token=`, else the session cookie; none without a token or when the
/// token names no session (a visitor, who may watch).
async fn session_player(
    state: &AppState,
    query: &HashMap<String, String>,
    headers: &HeaderMap,
) -> Result<Option<crate::people::Session>, ApiError> {
    let token = query
        .get("token")
        .cloned()
        .or_else(|| crate::people::token_from(headers));
    Ok(match token {
        Some(token) => state.sessions.find(&token).await?,
        None => None,
    })
}

/// `session`, if it may open a socket on `room`: a limited device only on its
/// tournament's (a game's tournament read from its row only for such a device).
async fn in_room(
    state: &AppState,
    session: crate::people::Session,
    room: RoomOf,
) -> Result<crate::people::Session, ApiError> {
    let Some(only) = session.only_tournament else {
        return Ok(session);
    };
    let tournament = match room {
        RoomOf::Tournament(id) => Some(id),
        RoomOf::Game(id) => state
            .games
            .row(id)
            .await?
            .and_then(|row| row.archive.tournament_id),
    };
    if tournament == Some(only) {
        Ok(session)
    } else {
        Err(ApiError::limited_device(&session.name))
    }
}

/// `?v=`: the last event version the client saw; refused unless a whole number.
fn resume_after(query: &HashMap<String, String>) -> Result<Option<u64>, ApiError> {
    query
        .get("v")
        .map(|v| {
            v.parse::<u64>().map_err(|_| {
                ApiError::bad_request(
                    ErrorCode::BadVersion,
                    "v is the last event version seen: a whole number",
                )
            })
        })
        .transpose()
}

/// How a socket is run, from the server's settings.
fn settings(state: &AppState) -> Settings {
    let limits = &state.config.limits;
    Settings {
        rate: state.config.rate_limit.max(1),
        ping_every: Duration::from_secs_f64(limits.ping_seconds),
        write_timeout: Duration::from_secs_f64(limits.socket_write_seconds),
    }
}

/// A socket's places in the per-address and per-session counts, given back when it closes,
/// and what tells it that its session ended (signed out or replaced: it is closed with
/// 1008 [`SIGNED_OUT`](crate::socket::connection::SIGNED_OUT)).
pub(crate) struct Places {
    _ip: crate::http::limits::Held<crate::address::AddressKey>,
    _session: Option<crate::http::limits::Held<Uuid>>,
    pub(crate) end: crate::people::SessionEnd,
}

fn hold_places(
    state: &AppState,
    ip: std::net::IpAddr,
    session: Option<&crate::people::Session>,
) -> Result<Places, ApiError> {
    let limits = &state.config.limits;
    let Some(by_ip) = state
        .limiters
        .sockets_per_ip
        .try_hold(crate::address::AddressKey::of(ip), limits.sockets_per_ip)
    else {
        return Err(ApiError::limited(
            Limit::SocketsPerIp,
            format!(
                "this address has {} game sockets open; close some first",
                limits.sockets_per_ip
            ),
        ));
    };
    let by_session = match session {
        Some(session) => {
            let Some(held) = state
                .limiters
                .sockets_per_session
                .try_hold(session.player_id, limits.sockets_per_session)
            else {
                return Err(ApiError::limited(
                    Limit::SocketsPerSession,
                    format!(
                        "your session has {} game sockets open; close some first",
                        limits.sockets_per_session
                    ),
                ));
            };
            Some(held)
        }
        None => None,
    };
    Ok(Places {
        _ip: by_ip,
        _session: by_session,
        end: state.sessions.watch_end(session),
    })
}

/// A browser may only open a game socket from this server's own pages or a configured
/// public origin (scheme included); clients without an `Origin` header (bots, tools) are
/// not browsers.
pub(crate) fn check_origin(state: &AppState, headers: &HeaderMap) -> Result<(), ApiError> {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return Ok(());
    };
    let origin = origin.to_str().unwrap_or("");
    if crate::http::edge::origin_allowed(&state.config, headers, origin) {
        Ok(())
    } else {
        Err(ApiError::new(
            ErrorCode::BadOrigin,
            format!("sockets from {origin} are not allowed"),
        ))
    }
}
