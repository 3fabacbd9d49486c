//! The tournament calls of the HTTP API (`shared/PROTOCOL.md`, "Tournaments"). Each
//! handler checks who asks and hands the change to the tournament's task, which checks
//! what is asked (who may do what, RULES.md 5) and answers once it is saved.

use crate::metrics::Limit;
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use std::collections::HashMap;
use uuid::Uuid;

use crate::http::error::ApiError;
use crate::http::games::{body, session};
use crate::state::AppState;
use crate::tournament::actor::{Command, TournamentHandle};
use crate::tournament::export;
use crate::tournament::log::SheetAction;
use crate::tournament::settings::Settings;
use crate::tournament::state::Refusal;
use omweso_protocol::tournament::{
    EditRound, ForbiddenPairs, NewTournament, SheetRequest, TournamentCreated, TournamentJoined,
    TournamentList, TournamentStatus, WithdrawRequest,
};
use omweso_protocol::ErrorCode;

/// A tournament id as the server writes it (lowercase, hyphenated).
pub fn tournament_id(text: &str) -> Result<Uuid, ApiError> {
    match text.parse::<Uuid>() {
        Ok(id) if id.hyphenated().to_string() == text => Ok(id),
        _ => Err(ApiError::not_found("tournament")),
    }
}

pub async fn tournament(state: &AppState, id: &str) -> Result<TournamentHandle, ApiError> {
    let id = tournament_id(id)?;
    match state.tournaments.get(id).await {
        Ok(Some(handle)) => Ok(handle),
        Ok(None) => Err(ApiError::not_found("tournament")),
        Err(error) => Err(ApiError::internal(&error)),
    }
}

fn refused(refusal: Refusal) -> ApiError {
    ApiError::new(refusal.code, refusal.message)
}

fn gone(error: crate::tournament::actor::Gone) -> ApiError {
    ApiError::internal(&error)
}

pub async fn create(
    State(state): State<AppState>,
    ip: Option<axum::Extension<crate::http::accept::ClientIp>>,
    headers: HeaderMap,
    bytes: axum::body::Bytes,
) -> Result<Response, ApiError> {
    let session = session(&state, &headers).await?;
    let request: NewTournament = body(&bytes)?;
    let settings = Settings::from_request(request, state.config.limits.min_round_minutes)
        .map_err(|message| ApiError::bad_request(ErrorCode::BadSettings, message))?;
    may_create_tournament(&state, session.player_id, crate::http::games::client_ip(ip))?;
    may_hold_another(&state, session.player_id).await?;
    let handle = state
        .tournaments
        .create(settings, session.player_id, session.name)
        .await
        .map_err(|error| ApiError::internal(&error))?;
    let id = handle.id();
    crate::http::games::mark_used(&state, &headers).await;
    Ok((
        StatusCode::CREATED,
        Json(TournamentCreated {
            tournament_id: id,
            url: format!("/t/{id}"),
        }),
    )
        .into_response())
}

/// The creation rates (docs/security.md): a session and an address create only so many
/// tournaments a minute. Checked after the settings, so a mistyped form costs nothing.
fn may_create_tournament(
    state: &AppState,
    player: uuid::Uuid,
    ip: std::net::IpAddr,
) -> Result<(), ApiError> {
    let limits = &state.config.limits;
    crate::http::games::CreationRates {
        what: "tournaments",
        per_session: (
            &state.limiters.tournaments_per_session,
            limits.tournaments_per_session_per_minute,
            Limit::TournamentsPerSession,
        ),
        per_ip: (
            &state.limiters.tournaments_per_ip,
            limits.tournaments_per_ip_per_minute,
            Limit::TournamentsPerIp,
        ),
    }
    .take(player, ip)
}

/// The places (docs/security.md): a director runs only so many unfinished tournaments at
/// once, and the server only so many in all, so that neither a flood of creations nor the
/// rounds they would start can fill the server. Counted in the store, where every
/// tournament's status is kept; two creations at the same instant may both pass, which
/// the creation rate bounds.
async fn may_hold_another(state: &AppState, director: uuid::Uuid) -> Result<(), ApiError> {
    let limits = &state.config.limits;
    let (all, mine) = state
        .store
        .unfinished_tournament_counts(director)
        .await
        .map_err(|error| ApiError::internal(&error))?;
    if mine >= limits.unfinished_tournaments_per_director as u64 {
        return Err(ApiError::limited(
            Limit::UnfinishedTournamentsPerDirector,
            format!(
                "you direct {mine} unfinished tournaments, the most one director may run at once; finish one (or wait for an unstarted one to expire) first"
            ),
        ));
    }
    if all >= limits.unfinished_tournaments as u64 {
        return Err(ApiError::limited(
            Limit::UnfinishedTournaments,
            "the server holds as many unfinished tournaments as it allows; try again later",
        ));
    }
    Ok(())
}

pub async fn list(
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Json<TournamentList>, ApiError> {
    session(&state, &headers).await?;
    let status = match query.get("list").map(String::as_str) {
        Some("open") => TournamentStatus::Open,
        Some("running") => TournamentStatus::Running,
        Some("finished") => TournamentStatus::Finished,
        _ => {
            return Err(ApiError::bad_request(
                ErrorCode::BadList,
                "list must be \"open\", \"running\" or \"finished\"",
            ))
        }
    };
    Ok(Json(TournamentList {
        tournaments: state.tournaments.list(status).await?,
    }))
}

pub async fn get(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let session = session(&state, &headers).await?;
    let handle = tournament(&state, &id).await?;
    let viewer = Some(session.player_id);
    let snapshot = handle
        .ask(|reply| Command::Snapshot { viewer, reply })
        .await
        .map_err(gone)?;
    Ok(Json(snapshot).into_response())
}

pub async fn join(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<TournamentJoined>, ApiError> {
    let session = session(&state, &headers).await?;
    let handle = tournament(&state, &id).await?;
    let player = session.player_id;
    let name = session.name;
    handle
        .ask(|reply| Command::Join {
            player,
            name,
            reply,
        })
        .await
        .map_err(gone)?
        .map_err(refused)?;
    crate::http::games::mark_used(&state, &headers).await;
    Ok(Json(TournamentJoined { player_id: player }))
}

pub async fn withdraw(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    bytes: axum::body::Bytes,
) -> Result<Json<serde_json::Value>, ApiError> {
    let session = session(&state, &headers).await?;
    let request: WithdrawRequest = body(&bytes)?;
    let handle = tournament(&state, &id).await?;
    let by = session.player_id;
    let player = request.player_id.unwrap_or(by);
    handle
        .ask(|reply| Command::Withdraw { player, by, reply })
        .await
        .map_err(gone)?
        .map_err(refused)?;
    Ok(Json(serde_json::json!({})))
}

pub async fn pair(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let session = session(&state, &headers).await?;
    let handle = tournament(&state, &id).await?;
    may_pair(&state, session.player_id)?;
    let by = session.player_id;
    let round = handle
        .ask(|reply| Command::PairNext { by, reply })
        .await
        .map_err(gone)?
        .map_err(refused)?;
    Ok((StatusCode::CREATED, Json(round)).into_response())
}

/// The pairing calls a session makes a minute (docs/security.md): each may run a whole
/// weighted matching, so a director (or anyone looping the call) gets a few a minute,
/// more than any round needs.
fn may_pair(state: &AppState, player: uuid::Uuid) -> Result<(), ApiError> {
    let per_minute = state.config.limits.pairings_per_session_per_minute;
    if state.limiters.pairings_per_session.allow(player) {
        return Ok(());
    }
    Err(ApiError::limited(
        Limit::PairingsPerSession,
        format!("at most {per_minute} pairings a minute; wait a moment and pair again"),
    ))
}

fn round_number(text: &str) -> Result<u32, ApiError> {
    text.parse::<u32>()
        .ok()
        .filter(|&n| n >= 1)
        .ok_or_else(|| ApiError::not_found("round"))
}

pub async fn edit_round(
    State(state): State<AppState>,
    Path((id, n)): Path<(String, String)>,
    headers: HeaderMap,
    bytes: axum::body::Bytes,
) -> Result<Response, ApiError> {
    let session = session(&state, &headers).await?;
    let request: EditRound = body(&bytes)?;
    let round = round_number(&n)?;
    let handle = tournament(&state, &id).await?;
    may_pair(&state, session.player_id)?;
    let by = session.player_id;
    let pairings = request
        .pairings
        .iter()
        .map(|p| (p.first, p.second))
        .collect();
    let confirm_breach = request.confirm_breach;
    let round = handle
        .ask(|reply| Command::EditRound {
            by,
            round,
            pairings,
            confirm_breach,
            reply,
        })
        .await
        .map_err(gone)?
        .map_err(refused)?;
    Ok(Json(round).into_response())
}

pub async fn start_round(
    State(state): State<AppState>,
    Path((id, n)): Path<(String, String)>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let session = session(&state, &headers).await?;
    let round = round_number(&n)?;
    let handle = tournament(&state, &id).await?;
    let by = session.player_id;
    let round = handle
        .ask(|reply| Command::StartRound { by, round, reply })
        .await
        .map_err(gone)?
        .map_err(refused)?;
    Ok(Json(round).into_response())
}

pub async fn end_round(
    State(state): State<AppState>,
    Path((id, n)): Path<(String, String)>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let session = session(&state, &headers).await?;
    let round = round_number(&n)?;
    let handle = tournament(&state, &id).await?;
    let by = session.player_id;
    let round = handle
        .ask(|reply| Command::EndRound { by, round, reply })
        .await
        .map_err(gone)?
        .map_err(refused)?;
    Ok(Json(round).into_response())
}

pub async fn sheet(
    State(state): State<AppState>,
    Path((id, game)): Path<(String, String)>,
    headers: HeaderMap,
    bytes: axum::body::Bytes,
) -> Result<Response, ApiError> {
    let session = session(&state, &headers).await?;
    let request: SheetRequest = body(&bytes)?;
    let game_id = crate::http::games::game_id(&game)?;
    let handle = tournament(&state, &id).await?;
    let by = session.player_id;
    let action = match request {
        SheetRequest::Confirm => SheetAction::Confirm,
        SheetRequest::Dispute { reason } => SheetAction::Dispute { reason },
        SheetRequest::Correct { result, reason } => SheetAction::Correct {
            outcome: result,
            reason,
        },
    };
    let sheet = handle
        .ask(|reply| Command::Sheet {
            by,
            game_id,
            action,
            reply,
        })
        .await
        .map_err(gone)?
        .map_err(refused)?;
    Ok(Json(sheet).into_response())
}

/// `PUT /api/tournaments/{id}/forbidden-pairs`: the director replaces the list.
pub async fn forbidden_pairs(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    bytes: axum::body::Bytes,
) -> Result<Json<ForbiddenPairs>, ApiError> {
    let session = session(&state, &headers).await?;
    let request: ForbiddenPairs = body(&bytes)?;
    let handle = tournament(&state, &id).await?;
    let by = session.player_id;
    let pairs = request.forbidden_pairs;
    let kept = handle
        .ask(|reply| Command::ForbiddenPairs { by, pairs, reply })
        .await
        .map_err(gone)?
        .map_err(refused)?;
    Ok(Json(ForbiddenPairs {
        forbidden_pairs: kept,
    }))
}

/// `standings.csv`, `sheets.csv` or `tournament.trf`.
pub async fn export(
    State(state): State<AppState>,
    Path((id, file)): Path<(String, String)>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    session(&state, &headers).await?;
    let kind = match file.as_str() {
        "standings.csv" => export::Kind::StandingsCsv,
        "sheets.csv" => export::Kind::SheetsCsv,
        "tournament.trf" => export::Kind::Trf,
        _ => return Err(ApiError::not_found("export")),
    };
    let handle = tournament(&state, &id).await?;
    let t = handle
        .ask(|reply| Command::State { reply })
        .await
        .map_err(gone)?;
    let text = export::render(&t, kind);
    let content_type = match kind {
        export::Kind::Trf => "text/plain; charset=utf-8",
        _ => "text/csv; charset=utf-8",
    };
    let disposition = format!("attachment; filename=\"{file}\"");
    Ok((
        [
            (header::CONTENT_TYPE, content_type.to_owned()),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        text,
    )
        .into_response())
}
