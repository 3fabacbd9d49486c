//! The game a request's path names (axum extractors), loaded if it is not in memory.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use uuid::Uuid;

use crate::game::actor::GameHandle;
use crate::http::error::ApiError;
use crate::http::extract::{moving, path_id};
use crate::state::AppState;

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
