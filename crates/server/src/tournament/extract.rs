//! The tournament a request's path names (axum extractors), found only when the handler
//! first asks it something; and the session of a request about it (a device limited to
//! that tournament included).

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use uuid::Uuid;

use crate::http::error::ApiError;
use crate::http::extract::{moving, path_id};
use crate::people::extract::{any_session, forwarded_session, SignedIn};
use crate::state::AppState;
use crate::tournament::actor::{Command, TournamentHandle};
use crate::tournament::registry::Tournaments;
use omweso_protocol::refusal::Refusal;

/// The session of a request about the tournament its path's `{id}` names: any device,
/// or one limited to that tournament (`limited`: then it acts as the player only, never
/// as a director: the handler refuses what only a director does).
#[derive(Debug)]
pub struct PlayerHere {
    pub signed_in: SignedIn,
    pub limited: bool,
}

impl FromRequestParts<AppState> for PlayerHere {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let signed_in = match forwarded_session(parts) {
            Some(forwarded) => forwarded?,
            None => any_session(state, &parts.headers).await?,
        };
        let Some(only) = signed_in.session.only_tournament else {
            return Ok(PlayerHere {
                signed_in,
                limited: false,
            });
        };
        let here = path_id(parts, state, "tournament").await.ok();
        if here != Some(only) {
            return Err(ApiError::limited_device(&signed_in.session.name));
        }
        Ok(PlayerHere {
            signed_in,
            limited: true,
        })
    }
}

impl PlayerHere {
    pub fn player_id(&self) -> Uuid {
        self.signed_in.player_id()
    }

    /// Refuses a limited device what only a director does.
    pub fn not_directing(&self) -> Result<(), ApiError> {
        if self.limited {
            Err(ApiError::limited_device(&self.signed_in.session.name))
        } else {
            Ok(())
        }
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
    find_in(&state.tournaments, id).await
}

/// Tournament `id`'s task among `tournaments`, as [`find_tournament`] answers.
pub async fn find_in(tournaments: &Tournaments, id: Uuid) -> Result<TournamentHandle, ApiError> {
    match tournaments.get(id).await {
        Ok(Some(handle)) => Ok(handle),
        Ok(None) => Err(ApiError::not_found("tournament")),
        Err(crate::tournament::registry::LoadError::Elsewhere { .. }) => Err(moving()),
        Err(error) => Err(ApiError::internal(&error)),
    }
}

impl TournamentAt {
    /// The id the path names, as written (the tournament may not exist).
    pub fn id(&self) -> Option<Uuid> {
        self.id
    }

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
