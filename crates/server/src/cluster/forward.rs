//! HTTP requests about a room held by another node (`/api/games/{id}/...`,
//! `/api/tournaments/{id}/...`) are answered by that node: the request crosses NATS to it
//! (request/reply), its router answers as if the client had asked it, and the answer
//! comes back (docs/scaling.md). Everything else is answered by the node asked.

use std::sync::Arc;

use async_nats::HeaderMap;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderName, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Router;
use bytes::Bytes;
use futures_util::StreamExt;
use tokio::sync::Semaphore;
use tower::ServiceExt;
use uuid::Uuid;

use super::node::{Cluster, Place, ANSWER_WITHIN};
use super::wire::{self, RoomName};
use crate::http::accept::ClientIp;
use crate::http::error::ApiError;
use crate::state::AppState;
use omweso_protocol::ErrorCode;

/// The most a forwarded request's body may be (the API's own limit is 64 KiB but for
/// reading a game file).
const MAX_REQUEST: usize = 1024 * 1024;
/// NATS's default largest message, less room for the headers.
const MAX_ANSWER: usize = 1024 * 1024 - 16 * 1024;
/// Forwarded requests answered at once on a node; the rest wait.
const ANSWERS_AT_ONCE: usize = 256;

/// Marks a request another node forwarded here: it is answered here, never sent on.
#[derive(Clone, Copy, Debug)]
pub struct Forwarded;

/// The room a request's path names, if it is one another node could hold.
#[must_use]
pub fn room_of(path: &str) -> Option<RoomName> {
    let mut parts = path.trim_start_matches('/').split('/');
    if parts.next() != Some("api") {
        return None;
    }
    let kind = parts.next()?;
    let id: Uuid = parts.next()?.parse().ok()?;
    match kind {
        "games" => Some(RoomName::game(id)),
        "tournaments" => Some(RoomName::tournament(id)),
        _ => None,
    }
}

/// The middleware: answers here, or forwards to the node holding the room.
pub async fn to_owner(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let Some(cluster) = state.cluster.clone() else {
        return next.run(request).await;
    };
    if request.extensions().get::<Forwarded>().is_some() {
        return next.run(request).await;
    }
    let Some(room) = room_of(request.uri().path()) else {
        return next.run(request).await;
    };
    let loaded = match room.kind {
        super::lease::LeaseKind::Game => state.games.loaded(room.id).is_some(),
        super::lease::LeaseKind::Tournament => state.tournaments.loaded(room.id).is_some(),
    };
    match cluster.locate(room, loaded).await {
        Ok(Place::There(owner)) => match forward(&cluster, owner, request).await {
            Ok(response) => response,
            Err(refusal) => {
                cluster.forget(room);
                refusal.into_response()
            }
        },
        Ok(Place::Here) => next.run(request).await,
        Err(error) => ApiError::internal(&error).into_response(),
    }
}

async fn forward(cluster: &Cluster, owner: Uuid, request: Request) -> Result<Response, ApiError> {
    let (parts, body) = request.into_parts();
    let body = axum::body::to_bytes(body, MAX_REQUEST).await.map_err(|_| {
        ApiError::new(
            ErrorCode::TooLarge,
            format!("a request may carry at most {MAX_REQUEST} bytes"),
        )
    })?;
    let mut headers = HeaderMap::new();
    headers.insert(wire::HTTP_METHOD, parts.method.as_str());
    headers.insert(
        wire::HTTP_URI,
        parts.uri.path_and_query().map_or("/", |p| p.as_str()),
    );
    if let Some(ClientIp(ip)) = parts.extensions.get::<ClientIp>() {
        headers.insert(wire::HTTP_CLIENT, ip.to_string().as_str());
    }
    for (name, value) in &parts.headers {
        // The answer is compressed here, once, for the client.
        if name == axum::http::header::ACCEPT_ENCODING {
            continue;
        }
        if let Ok(value) = value.to_str() {
            headers.append(format!("{}{}", wire::HTTP_HEADER, name.as_str()), value);
        }
    }
    let unavailable = |why: String| {
        tracing::debug!(%owner, why, "a forwarded request failed");
        ApiError::new(
            ErrorCode::Unavailable,
            "the server holding this game or tournament did not answer; try again in a moment",
        )
    };
    let answer = tokio::time::timeout(
        ANSWER_WITHIN,
        cluster
            .client
            .request_with_headers(wire::http_subject(owner), headers, body),
    )
    .await
    .map_err(|_| unavailable("timed out".into()))?
    .map_err(|e| unavailable(e.to_string()))?;
    let answer_headers = answer.headers.unwrap_or_default();
    let status = answer_headers
        .get(wire::HTTP_STATUS)
        .and_then(|s| s.as_str().parse::<u16>().ok())
        .and_then(|s| StatusCode::from_u16(s).ok())
        .ok_or_else(|| unavailable("an answer without a status".into()))?;
    let mut response = Response::new(Body::from(answer.payload));
    *response.status_mut() = status;
    copy_headers(&answer_headers, response.headers_mut());
    Ok(response)
}

/// The HTTP headers carried as `H-<name>` NATS headers.
fn copy_headers(from: &HeaderMap, to: &mut axum::http::HeaderMap) {
    for (name, values) in from.iter() {
        let name: &str = name.as_ref();
        let Some(name) = name.strip_prefix(wire::HTTP_HEADER) else {
            continue;
        };
        let Ok(name) = HeaderName::from_bytes(name.as_bytes()) else {
            continue;
        };
        for value in values {
            if let Ok(value) = HeaderValue::from_str(value.as_str()) {
                to.append(name.clone(), value);
            }
        }
    }
}

/// Answers the requests other nodes forward here with `router`, until the subscription
/// ends.
pub async fn serve(
    router: Router,
    cluster: Arc<Cluster>,
) -> Result<(), async_nats::SubscribeError> {
    let mut requests = cluster
        .client
        .subscribe(wire::http_subject(cluster.node))
        .await?;
    let at_once = Arc::new(Semaphore::new(ANSWERS_AT_ONCE));
    tokio::spawn(async move {
        while let Some(message) = requests.next().await {
            let Ok(permit) = Arc::clone(&at_once).acquire_owned().await else {
                break;
            };
            let (router, cluster) = (router.clone(), Arc::clone(&cluster));
            tokio::spawn(async move {
                let Some(reply) = message.reply else {
                    return;
                };
                let (headers, payload) = answer(router, message.headers, message.payload).await;
                let _ = cluster
                    .client
                    .publish_with_headers(reply, headers, payload)
                    .await;
                drop(permit);
            });
        }
    });
    Ok(())
}

/// The router's answer to a forwarded request, as NATS headers and payload.
async fn answer(router: Router, headers: Option<HeaderMap>, body: Bytes) -> (HeaderMap, Bytes) {
    let response = match request_of(headers.unwrap_or_default(), body) {
        Some(request) => match router.oneshot(request).await {
            Ok(response) => response,
            Err(never) => match never {},
        },
        None => {
            ApiError::new(ErrorCode::BadMessage, "an unreadable forwarded request").into_response()
        }
    };
    let (parts, body) = response.into_parts();
    let (status, body) = match axum::body::to_bytes(body, MAX_ANSWER).await {
        Ok(body) => (parts.status, body),
        Err(_) => (
            StatusCode::BAD_GATEWAY,
            Bytes::from_static(
                b"{\"error\":{\"code\":\"unavailable\",\"message\":\"the answer is too large to pass between the servers; ask again in a moment\"}}",
            ),
        ),
    };
    let mut headers = HeaderMap::new();
    headers.insert(wire::HTTP_STATUS, status.as_u16().to_string().as_str());
    for (name, value) in &parts.headers {
        if name == axum::http::header::CONTENT_LENGTH
            || name == axum::http::header::TRANSFER_ENCODING
        {
            continue;
        }
        if let Ok(value) = value.to_str() {
            headers.append(format!("{}{}", wire::HTTP_HEADER, name.as_str()), value);
        }
    }
    (headers, body)
}

fn request_of(headers: HeaderMap, body: Bytes) -> Option<Request> {
    let method = Method::from_bytes(headers.get(wire::HTTP_METHOD)?.as_str().as_bytes()).ok()?;
    let uri: axum::http::Uri = headers.get(wire::HTTP_URI)?.as_str().parse().ok()?;
    let mut request = Request::new(Body::from(body));
    *request.method_mut() = method;
    *request.uri_mut() = uri;
    copy_headers(&headers, request.headers_mut());
    if let Some(ip) = headers
        .get(wire::HTTP_CLIENT)
        .and_then(|ip| ip.as_str().parse().ok())
    {
        request.extensions_mut().insert(ClientIp(ip));
    }
    request.extensions_mut().insert(Forwarded);
    Some(request)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_game_or_a_tournament_path_names_a_room() {
        let id = "00000000-0000-0000-0000-00000000002a";
        let uuid: Uuid = id.parse().unwrap();
        assert_eq!(
            room_of(&format!("/api/games/{id}/moves")),
            Some(RoomName::game(uuid))
        );
        assert_eq!(
            room_of(&format!("/api/games/{id}")),
            Some(RoomName::game(uuid))
        );
        assert_eq!(
            room_of(&format!("/api/tournaments/{id}/rounds/2/start")),
            Some(RoomName::tournament(uuid))
        );
        assert_eq!(room_of("/api/games"), None);
        assert_eq!(room_of("/api/games/not-an-id"), None);
        assert_eq!(room_of(&format!("/api/players/{id}")), None);
        assert_eq!(room_of(&format!("/g/{id}")), None);
    }
}
