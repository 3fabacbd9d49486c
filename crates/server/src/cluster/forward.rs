//! HTTP requests about a room held by another node (`/api/games/{id}/...`,
//! `/api/tournaments/{id}/...`) are answered by that node: the request crosses NATS to it
//! (request/reply), its router answers as if the client had asked it, and the answer
//! comes back (docs/scaling.md). Everything else is answered by the node asked.
//!
//! What crosses NATS is sealed and encrypted (`seal`): the request (its method, path,
//! headers, client address, body) and its answer. Its token does not cross at all: the
//! node asked finds the request's session, and sends its person and device instead.
//!
//! A forwarded request is held to the limits of one answered here, checked before any of
//! its body is read: the API's largest body (`BODY_LIMIT`: an announced length past it
//! is refused from the headers, a body sent in chunks is read no further), the request's
//! time (`http::edge::time_limit`, around this), and the forwarded requests one address,
//! and all of them, may have waiting on this node at once (`forwards`).

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

use super::forwards::too_large;
use super::node::Place::{Here, There};
use super::node::{Cluster, ANSWER_WITHIN};
use super::wire::{self, ForwardedSession, HttpAnswerHead, HttpRequestHead, RoomName};
use crate::http::accept::ClientIp;
use crate::http::error::ApiError;
use crate::http::limits::BODY_LIMIT;
use crate::http::token::token_from;
use crate::state::AppState;
use crate::store::hash_token;
use omweso_protocol::ErrorCode;

/// NATS's default largest message, less room for the headers.
const MAX_ANSWER: usize = 1024 * 1024 - 16 * 1024;
/// Forwarded requests answered at once on a node; the rest wait.
const ANSWERS_AT_ONCE: usize = 256;

/// Marks a request another node forwarded here: it is answered here, never sent on, as
/// the session that node found for it (`people::extract::SignedIn` reads it from here, not
/// from the request's headers, which no longer carry its token).
#[derive(Clone, Debug)]
pub struct Forwarded {
    pub session: Option<ForwardedSession>,
}

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
        crate::store::lease::LeaseKind::Game => state.games.loaded(room.id).is_some(),
        crate::store::lease::LeaseKind::Tournament => state.tournaments.loaded(room.id).is_some(),
    };
    match cluster.locate(room, loaded).await {
        Ok(There(owner)) => {
            let place = match cluster.forwards.take(&request) {
                Ok(place) => place,
                Err(refusal) => return refusal.into_response(),
            };
            let answer = match forward(&state, &cluster, owner, request).await {
                Ok(response) => response,
                Err(refusal) => {
                    if refusal.code == ErrorCode::Unavailable {
                        cluster.forget(room);
                    }
                    refusal.into_response()
                }
            };
            drop(place);
            answer
        }
        Ok(Here) => next.run(request).await,
        Err(error) => ApiError::internal(&error).into_response(),
    }
}

/// The headers a forwarded request does not carry: its session travels as the person and
/// device it names (no token crosses NATS), and its answer is compressed here, once, for
/// the client.
fn stays_here(name: &HeaderName) -> bool {
    use axum::http::header::{ACCEPT_ENCODING, AUTHORIZATION, COOKIE};
    name == ACCEPT_ENCODING || name == AUTHORIZATION || name == COOKIE
}

async fn forward(
    state: &AppState,
    cluster: &Cluster,
    owner: Uuid,
    request: Request,
) -> Result<Response, ApiError> {
    let (parts, body) = request.into_parts();
    let session = match token_from(&parts.headers) {
        Some(token) => state
            .sessions
            .find(&token)
            .await
            .map_err(|error| ApiError::internal(&error))?
            .map(|session| ForwardedSession {
                player_id: session.player_id,
                name: session.name,
                username: session.username,
                device_id: session.device_id,
                token_hash: hash_token(&token),
                only_tournament: session.only_tournament,
            }),
        None => None,
    };
    let body = axum::body::to_bytes(body, BODY_LIMIT)
        .await
        .map_err(
            |error| match crate::http::body_budget::over_budget(&error) {
                Some(over) => crate::http::edge::over_body_budget(state, over),
                None => too_large(),
            },
        )?;
    let head = HttpRequestHead {
        method: parts.method.as_str().to_owned(),
        uri: parts
            .uri
            .path_and_query()
            .map_or("/", |p| p.as_str())
            .to_owned(),
        client: parts.extensions.get::<ClientIp>().map(|ip| ip.0),
        headers: parts
            .headers
            .iter()
            .filter(|(name, _)| !stays_here(name))
            .filter_map(|(name, value)| {
                Some((name.as_str().to_owned(), value.to_str().ok()?.to_owned()))
            })
            .collect(),
        session,
    };
    let payload = Bytes::from(cluster.seal.encrypt(&wire::pack(&head, &body)));
    let subject = wire::http_subject(owner);
    let mut headers = HeaderMap::new();
    cluster.seal.sign(&subject, &mut headers, &payload);
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
            .request_with_headers(subject, headers, payload),
    )
    .await
    .map_err(|_| unavailable("timed out".into()))?
    .map_err(|e| unavailable(e.to_string()))?;
    cluster
        .seal
        .verify(&answer.subject, answer.headers.as_ref(), &answer.payload)
        .map_err(|refusal| unavailable(refusal.to_string()))?;
    let plain = cluster
        .seal
        .decrypt(&answer.payload)
        .map_err(|refusal| unavailable(refusal.to_string()))?;
    let (head, body): (HttpAnswerHead, &[u8]) =
        wire::unpack(&plain).ok_or_else(|| unavailable("an unreadable answer".into()))?;
    let status = StatusCode::from_u16(head.status)
        .map_err(|_| unavailable(format!("an answer of status {}", head.status)))?;
    let mut response = Response::new(Body::from(body.to_vec()));
    *response.status_mut() = status;
    copy_headers(&head.headers, response.headers_mut());
    Ok(response)
}

/// Headers received as text pairs, those HTTP allows.
fn copy_headers(from: &[(String, String)], to: &mut axum::http::HeaderMap) {
    for (name, value) in from {
        if let (Ok(name), Ok(value)) = (
            HeaderName::from_bytes(name.as_bytes()),
            HeaderValue::from_str(value),
        ) {
            to.append(name, value);
        }
    }
}

/// Answers the requests other nodes forward here with `router`, until the subscription
/// ends. A request not sealed by a node of the cluster, or replayed, is not answered at
/// all (`seal`); nor is one for a path no node forwards (a game's or a tournament's).
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
                let Some(request) = opened(
                    &cluster,
                    &message.subject,
                    message.headers.as_ref(),
                    &message.payload,
                ) else {
                    return;
                };
                let payload = Bytes::from(answer(&cluster, router, request).await);
                let _ = cluster.publish(reply, HeaderMap::new(), payload).await;
                drop(permit);
            });
        }
    });
    Ok(())
}

/// A forwarded request as its node sent it, once its seal is checked and its payload
/// decrypted; `None` (refused, and logged by the seal) otherwise.
fn opened(
    cluster: &Cluster,
    subject: &str,
    headers: Option<&HeaderMap>,
    payload: &[u8],
) -> Option<Request> {
    cluster.seal.verify(subject, headers, payload).ok()?;
    let plain = cluster
        .seal
        .decrypt(payload)
        .map_err(|refusal| cluster.seal.refused(subject, &refusal))
        .ok()?;
    let (head, body): (HttpRequestHead, &[u8]) = wire::unpack(&plain)?;
    request_of(head, Bytes::copy_from_slice(body))
}

/// The router's answer to a forwarded request, packed and encrypted for NATS.
async fn answer(cluster: &Cluster, router: Router, request: Request) -> Vec<u8> {
    let response = match router.oneshot(request).await {
        Ok(response) => response,
        Err(never) => match never {},
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
    let head = HttpAnswerHead {
        status: status.as_u16(),
        headers: parts
            .headers
            .iter()
            .filter(|(name, _)| {
                *name != axum::http::header::CONTENT_LENGTH
                    && *name != axum::http::header::TRANSFER_ENCODING
            })
            .filter_map(|(name, value)| {
                Some((name.as_str().to_owned(), value.to_str().ok()?.to_owned()))
            })
            .collect(),
    };
    cluster.seal.encrypt(&wire::pack(&head, &body))
}

/// The request a node forwarded, for this node's router; `None` for a method, path or
/// header that does not read, or a path no node forwards.
fn request_of(head: HttpRequestHead, body: Bytes) -> Option<Request> {
    let method = Method::from_bytes(head.method.as_bytes()).ok()?;
    let uri: axum::http::Uri = head.uri.parse().ok()?;
    room_of(uri.path())?;
    let mut request = Request::new(Body::from(body));
    *request.method_mut() = method;
    *request.uri_mut() = uri;
    copy_headers(&head.headers, request.headers_mut());
    if let Some(ip) = head.client {
        request.extensions_mut().insert(ClientIp(ip));
    }
    request.extensions_mut().insert(Forwarded {
        session: head.session,
    });
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
