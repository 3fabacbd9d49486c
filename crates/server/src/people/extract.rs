//! The session a request is made as (axum extractors): signed in, maybe signed in, any
//! device (a limited one's too). Refused as the API documents (`no_session`,
//! `limited_device`).

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::HeaderMap;
use uuid::Uuid;

use crate::cluster::forward::Forwarded;
use crate::http::error::ApiError;
use crate::people::{token_from, Session};
use crate::state::AppState;
use crate::store::hash_token;

/// The session a request is made as: its token from `Authorization: Bearer`, else the
/// session cookie; for a request another node forwarded, the session that node found for
/// it (`cluster::forward::Forwarded`). Refused with `no_session` (401) when there is none
/// or it is unknown, and with `limited_device` (403) for a device a tournament's director
/// linked, which is its person in that tournament only: the routes that take such a
/// device name it ([`AnySession`], [`PlayerHere`]) and check the tournament themselves, so
/// that a new route is closed to it unless it says otherwise (docs/security.md#accounts).
#[derive(Debug)]
pub struct SignedIn {
    pub session: Session,
    /// The hash of the token it was found by, to record the session's use with.
    token_hash: String,
}

impl SignedIn {
    pub fn player_id(&self) -> Uuid {
        self.session.player_id
    }

    /// Records that this session created or joined something (it then lasts the longer
    /// idle time, docs/security.md). The call it follows has succeeded: a failure to
    /// record it is logged, not answered.
    pub async fn mark_used(&self, state: &AppState) {
        if let Err(error) = state.sessions.mark_used(&self.token_hash).await {
            tracing::warn!(%error, "could not record a session's use");
        }
    }
}

impl FromRequestParts<AppState> for SignedIn {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let signed_in = match forwarded_session(parts) {
            Some(forwarded) => forwarded?,
            None => any_session(state, &parts.headers).await?,
        };
        refuse_limited(signed_in)
    }
}

/// The session of a read that needs none (watching a game needs no name,
/// docs/protocol.md): the person when the request carries a session the server knows, else
/// `None`: no session at all, or one signed out or expired, which a read does not fail for.
#[derive(Debug)]
pub struct MaybeSignedIn(pub Option<Session>);

impl FromRequestParts<AppState> for MaybeSignedIn {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        if let Some(forwarded) = forwarded_session(parts) {
            return Ok(MaybeSignedIn(forwarded.ok().map(|s| s.session)));
        }
        let Some(token) = token_from(&parts.headers) else {
            return Ok(MaybeSignedIn(None));
        };
        Ok(MaybeSignedIn(state.sessions.find(&token).await?))
    }
}

/// The session of a request's headers, refused to a limited device as [`SignedIn`] is.
pub async fn signed_in(state: &AppState, headers: &HeaderMap) -> Result<SignedIn, ApiError> {
    refuse_limited(any_session(state, headers).await?)
}

/// `signed_in`, unless it is a device limited to one tournament.
fn refuse_limited(signed_in: SignedIn) -> Result<SignedIn, ApiError> {
    match signed_in.session.only_tournament {
        None => Ok(signed_in),
        Some(_) => Err(ApiError::limited_device(&signed_in.session.name)),
    }
}

/// For a request another node forwarded: the session that node found for it (`None`:
/// not a forwarded request; `Some(Err)`: forwarded without one).
pub(crate) fn forwarded_session(parts: &Parts) -> Option<Result<SignedIn, ApiError>> {
    let forwarded = parts.extensions.get::<Forwarded>()?;
    Some(
        forwarded
            .session
            .clone()
            .map(|found| SignedIn {
                session: Session {
                    player_id: found.player_id,
                    name: found.name,
                    username: found.username,
                    device_id: found.device_id,
                    only_tournament: found.only_tournament,
                },
                token_hash: found.token_hash,
            })
            .ok_or_else(ApiError::unauthorized),
    )
}

/// The session of a request's headers, a limited device's too: for the routes that check
/// its tournament themselves.
pub async fn any_session(state: &AppState, headers: &HeaderMap) -> Result<SignedIn, ApiError> {
    let token = token_from(headers).ok_or_else(ApiError::unauthorized)?;
    let session = state
        .sessions
        .find(&token)
        .await?
        .ok_or_else(ApiError::unauthorized)?;
    Ok(SignedIn {
        session,
        token_hash: hash_token(&token),
    })
}

/// Any session, a limited device's included (`GET /api/me`, which says what it is
/// limited to; a game's snapshot, which checks the game's tournament).
#[derive(Debug)]
pub struct AnySession(pub SignedIn);

impl FromRequestParts<AppState> for AnySession {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        match forwarded_session(parts) {
            Some(forwarded) => forwarded.map(AnySession),
            None => any_session(state, &parts.headers).await.map(AnySession),
        }
    }
}
