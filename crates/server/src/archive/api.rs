//! The archive of finished games (docs/protocol.md#the-archive-addition), for anyone:
//! `GET /api/archive` searches it a page at a time, `GET /api/archive/{id}` is one
//! finished game's entry (its permanent page reads it). No session is needed; each address
//! has a rate of them (docs/security.md#the-archive).

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::Json;
use omweso_protocol::archive::{ArchiveGame, ArchivePage, ArchiveQuery};
use omweso_protocol::ErrorCode;

use crate::address::AddressKey;
use crate::archive::names::{self, NamesError};
use crate::archive::search::{self, archive_game, cursor_text};
use crate::game::extract::GameId;
use crate::http::error::ApiError;
use crate::http::extract::ClientAddress;
use crate::metrics::Limit;
use crate::state::AppState;

/// `GET /api/archive`: one page of the finished games the query asks for, the most
/// recently ended first.
pub async fn search(
    State(state): State<AppState>,
    ClientAddress(ip): ClientAddress,
    query: Result<Query<ArchiveQuery>, QueryRejection>,
) -> Result<Json<ArchivePage>, ApiError> {
    let Query(query) = query
        .map_err(|rejection| ApiError::bad_request(ErrorCode::BadRequest, rejection.body_text()))?;
    let asked =
        search::parse(query).map_err(|e| ApiError::bad_request(ErrorCode::BadRequest, e))?;
    may_read(&state, ip)?;
    let store = state.sessions.store();
    // A name nobody has (or an account never seen) finds no games: not a refusal, since a
    // visitor's search is no mistake (docs/protocol.md#the-archive-addition).
    let Some(wanted) = names::resolve(store, asked)
        .await
        .map_err(|error| match error {
            NamesError::Store(error) => ApiError::from(error),
            NamesError::TooMany(message) => ApiError::bad_request(ErrorCode::BadRequest, message),
        })?
    else {
        return Ok(Json(ArchivePage {
            games: Vec::new(),
            next: None,
        }));
    };
    let found = store.archive_search(&wanted).await?;
    Ok(Json(ArchivePage {
        games: found.entries.iter().filter_map(archive_game).collect(),
        next: found.next.map(cursor_text),
    }))
}

/// `GET /api/archive/{id}`: the finished game's entry; `not_found` while it is not over.
pub async fn entry(
    State(state): State<AppState>,
    ClientAddress(ip): ClientAddress,
    GameId(id): GameId,
) -> Result<Json<ArchiveGame>, ApiError> {
    may_read(&state, ip)?;
    let entry = state.sessions.store().archive_entry(id).await?;
    entry
        .as_ref()
        .and_then(archive_game)
        .map(Json)
        .ok_or_else(|| ApiError::not_found("finished game"))
}

/// Takes one read of the archive from `ip`, or refuses it.
fn may_read(state: &AppState, ip: std::net::IpAddr) -> Result<(), ApiError> {
    if state
        .limiters
        .archive_searches_per_ip
        .allow(AddressKey::of(ip))
    {
        Ok(())
    } else {
        Err(ApiError::limited(
            Limit::ArchiveSearchesPerIp,
            format!(
                "this address searched the archive {} times in the last minute; wait a minute",
                state.config.limits.archive_searches_per_ip_per_minute
            ),
        ))
    }
}
