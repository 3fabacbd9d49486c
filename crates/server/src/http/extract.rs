//! What a request names, read once for every handler (axum extractors): the session it is
//! made as, the game or the tournament its path names, its JSON body and its client's
//! address. Each refuses as the API documents (`no_session`, `not_found`, `bad_body`), so
//! a handler starts from what it needs and says only what is its own.

use axum::extract::{FromRequest, FromRequestParts, RawPathParams, Request};
use axum::http::request::Parts;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use uuid::Uuid;

use crate::game::actor::GameHandle;
use crate::http::accept::ClientIp;
use crate::http::error::ApiError;
use crate::refusal::Refusal;
use crate::session::{token_from, Session};
use crate::state::AppState;
use crate::tournament::actor::{Command, TournamentHandle};
use omweso_protocol::ErrorCode;

/// The session a request is made as: its token from `Authorization: Bearer`, else the
/// session cookie. Refused with `no_session` (401) when there is none or it is unknown.
#[derive(Debug)]
pub struct SignedIn {
    pub session: Session,
    /// The token it was found by, to record the session's use with.
    token: String,
}

impl SignedIn {
    pub fn player_id(&self) -> Uuid {
        self.session.player_id
    }

    /// Records that this session created or joined something (it then lasts the longer
    /// idle time, docs/security.md). The call it follows has succeeded: a failure to
    /// record it is logged, not answered.
    pub async fn mark_used(&self, state: &AppState) {
        if let Err(error) = state.sessions.mark_used(&self.token).await {
            tracing::warn!(%error, "could not record a session's use");
        }
    }
}

impl FromRequestParts<AppState> for SignedIn {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        signed_in(state, &parts.headers).await
    }
}

/// The session of a request's headers (for the socket upgrades, which read them before
/// choosing what to answer).
pub async fn signed_in(state: &AppState, headers: &HeaderMap) -> Result<SignedIn, ApiError> {
    let token = token_from(headers).ok_or_else(ApiError::unauthorized)?;
    let session = state
        .sessions
        .find(&token)
        .await?
        .ok_or_else(ApiError::unauthorized)?;
    Ok(SignedIn { session, token })
}

/// An id as the server writes it: lowercase and hyphenated. Other spellings of the same
/// UUID (braces, `urn:uuid:`, no hyphens, capitals) are not found, so that everything has
/// one address.
pub fn id_as_written(text: &str, what: &str) -> Result<Uuid, ApiError> {
    match text.parse::<Uuid>() {
        Ok(id) if id.hyphenated().to_string() == text => Ok(id),
        _ => Err(ApiError::not_found(what)),
    }
}

/// The `{id}` of the request's path.
async fn path_id(parts: &mut Parts, state: &AppState, what: &str) -> Result<Uuid, ApiError> {
    let params = RawPathParams::from_request_parts(parts, state)
        .await
        .map_err(|_| ApiError::not_found(what))?;
    let text = params
        .iter()
        .find_map(|(name, value)| (name == "id").then_some(value))
        .ok_or_else(|| ApiError::not_found(what))?;
    id_as_written(text, what)
}

/// The game the path's `{id}` names, loaded if it is not in memory. `not_found` for an id
/// spelled otherwise than the server writes it, or no such game.
pub struct GameAt(pub GameHandle);

impl FromRequestParts<AppState> for GameAt {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let id = path_id(parts, state, "game").await?;
        find_game(state, id).await.map(GameAt)
    }
}

/// The game `id`, loaded if it is not in memory; `not_found` if there is none.
pub async fn find_game(state: &AppState, id: Uuid) -> Result<GameHandle, ApiError> {
    use crate::game::registry::LoadError;
    match state.games.get(id).await {
        Ok(Some(handle)) => Ok(handle),
        Ok(None) => Err(ApiError::not_found("game")),
        // Several nodes: it is changing hands at this moment.
        Err(LoadError::Elsewhere { .. } | LoadError::Moving { .. }) => Err(moving()),
        Err(error) => Err(ApiError::internal(&error)),
    }
}

/// The id the path's `{id}` names, as written (a game whose final snapshot is read from
/// the store without loading it).
pub struct GameId(pub Uuid);

impl FromRequestParts<AppState> for GameId {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        Ok(GameId(path_id(parts, state, "game").await?))
    }
}

/// The tournament the path's `{id}` names. It is found (and loaded, if it is not in memory)
/// only when the handler first asks it something, after every other check of the request
/// (its session, its body, a round's number): a request that is wrong in several ways is
/// answered for the cheapest, and a bad one does not load a tournament. `not_found` for an
/// id spelled otherwise than the server writes it, or no such tournament.
pub struct TournamentAt {
    state: AppState,
    /// The id as written in the path; `None` when it is not one the server writes.
    id: Option<Uuid>,
}

impl FromRequestParts<AppState> for TournamentAt {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        Ok(TournamentAt {
            state: state.clone(),
            id: path_id(parts, state, "tournament").await.ok(),
        })
    }
}

/// The tournament `id`, loaded if it is not in memory; `not_found` if there is none.
pub async fn find_tournament(state: &AppState, id: Uuid) -> Result<TournamentHandle, ApiError> {
    match state.tournaments.get(id).await {
        Ok(Some(handle)) => Ok(handle),
        Ok(None) => Err(ApiError::not_found("tournament")),
        Err(crate::tournament::registry::LoadError::Elsewhere { .. }) => Err(moving()),
        Err(error) => Err(ApiError::internal(&error)),
    }
}

/// A room changing hands between nodes (docs/scaling.md): asked again in a moment, it is
/// answered by the node holding it.
fn moving() -> ApiError {
    ApiError::new(
        omweso_protocol::ErrorCode::Unavailable,
        "this game or tournament is moving to another server; try again in a moment",
    )
}

impl TournamentAt {
    /// The tournament's task, found now.
    pub async fn handle(&self) -> Result<TournamentHandle, ApiError> {
        let id = self.id.ok_or_else(|| ApiError::not_found("tournament"))?;
        find_tournament(&self.state, id).await
    }

    /// Asks the tournament's task for something it may refuse: its refusal is answered
    /// with its code, and a task that is gone (the server stopping) as unavailable.
    pub async fn change<T>(
        &self,
        make: impl FnOnce(tokio::sync::oneshot::Sender<Result<T, Refusal>>) -> Command,
    ) -> Result<T, ApiError> {
        Ok(self.read(make).await??)
    }

    /// Asks the tournament's task for something it always answers (a view of it).
    pub async fn read<T>(
        &self,
        make: impl FnOnce(tokio::sync::oneshot::Sender<T>) -> Command,
    ) -> Result<T, ApiError> {
        self.handle()
            .await?
            .ask(make)
            .await
            .map_err(|gone| ApiError::internal(&gone))
    }
}

/// A JSON body of `T`, answering a 400 (`bad_body`) that says what is wrong. An empty
/// body reads as `{}`, so a call whose fields are all optional needs none.
pub struct JsonBody<T>(pub T);

impl<T: serde::de::DeserializeOwned> FromRequest<AppState> for JsonBody<T> {
    /// A body too long or cut off is axum's refusal, which the edge gives the JSON error
    /// body of every refusal (`edge::json_refusals`).
    type Rejection = Response;

    async fn from_request(request: Request, state: &AppState) -> Result<Self, Response> {
        let bytes = axum::body::Bytes::from_request(request, state)
            .await
            .map_err(IntoResponse::into_response)?;
        body(&bytes)
            .map(JsonBody)
            .map_err(IntoResponse::into_response)
    }
}

/// Parses a JSON body, answering a 400 that says what is wrong.
pub(crate) fn body<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    let read = if bytes.iter().all(u8::is_ascii_whitespace) {
        serde_json::from_str("{}")
    } else {
        serde_json::from_slice(bytes)
    };
    read.map_err(|e| ApiError::bad_request(ErrorCode::BadBody, e.to_string()))
}

/// The client's address (set by the accept loop; unspecified for a router served some
/// other way, which then shares one budget).
pub struct ClientAddress(pub std::net::IpAddr);

impl<S: Send + Sync> FromRequestParts<S> for ClientAddress {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        let ip = parts.extensions.get::<ClientIp>().copied();
        Ok(ClientAddress(client_ip(ip.map(axum::Extension))))
    }
}

/// The client's address from the accept loop's extension (unspecified without one).
pub fn client_ip(ip: Option<axum::Extension<ClientIp>>) -> std::net::IpAddr {
    ip.map_or(std::net::IpAddr::from([0, 0, 0, 0]), |ip| ip.0 .0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_is_found_only_as_the_server_writes_it() {
        let id = Uuid::now_v7();
        let written = id.hyphenated().to_string();
        assert_eq!(id_as_written(&written, "game").unwrap(), id);
        for other in [
            written.to_uppercase(),
            format!("{{{written}}}"),
            format!("urn:uuid:{written}"),
            id.simple().to_string(),
            "nope".to_owned(),
        ] {
            let refusal = id_as_written(&other, "tournament").unwrap_err();
            assert_eq!(refusal.code, ErrorCode::NotFound, "{other}");
            assert_eq!(refusal.message, "no such tournament");
        }
    }

    #[test]
    fn an_empty_body_reads_as_an_empty_object_and_a_bad_one_says_why() {
        #[derive(serde::Deserialize, Debug, PartialEq)]
        struct Named {
            name: Option<String>,
        }
        assert_eq!(body::<Named>(b" \n").unwrap(), Named { name: None });
        let refusal = body::<Named>(b"{\"name\": 3}").unwrap_err();
        assert_eq!(refusal.code, ErrorCode::BadBody);
        assert!(
            refusal.message.starts_with("invalid type: integer `3`"),
            "{}",
            refusal.message
        );
    }
}
