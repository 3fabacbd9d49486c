//! The tournament calls of the HTTP API (docs/protocol.md#tournaments). Each
//! handler checks who asks and hands the change to the tournament's task, which checks
//! what is asked (who may do what, docs/rules.md#5-tournaments) and answers once it is saved.

use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use std::collections::HashMap;

use crate::http::error::ApiError;
use crate::http::extract::{id_as_written, ClientAddress, JsonBody};
use crate::metrics::Limit;
use crate::people::extract::SignedIn;
use crate::state::AppState;
use crate::tournament::actor::Command;
use crate::tournament::export;
use crate::tournament::extract::{PlayerHere, TournamentAt};
use crate::tournament::log::SheetAction;
use crate::tournament::settings::Settings;
use omweso_protocol::tournament::{
    EditRound, ForbiddenPairs, NewTournament, RoundView, SheetRequest, SheetView,
    TournamentCreated, TournamentJoined, TournamentList, TournamentSnapshot, TournamentStatus,
    WithdrawRequest,
};
use omweso_protocol::ErrorCode;

pub async fn create(
    State(state): State<AppState>,
    ClientAddress(ip): ClientAddress,
    signed_in: SignedIn,
    JsonBody(request): JsonBody<NewTournament>,
) -> Result<Response, ApiError> {
    let settings = Settings::from_request(request, state.config.limits.min_round_minutes)
        .map_err(|message| ApiError::bad_request(ErrorCode::BadSettings, message))?;
    let director = signed_in.player_id();
    may_create_tournament(&state, director, ip)?;
    may_hold_another(&state, director).await?;
    let handle = state
        .tournaments
        .create(settings, director, signed_in.session.name.clone())
        .await
        .map_err(|error| ApiError::internal(&error))?;
    let id = handle.id();
    signed_in.mark_used(&state).await;
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
    crate::game::api::CreationRates {
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
    _: SignedIn,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Json<TournamentList>, ApiError> {
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

/// A tournament's page, as the viewer sees it (a device a director linked for one of its
/// players too).
pub async fn get(
    here: PlayerHere,
    tournament: TournamentAt,
) -> Result<Json<TournamentSnapshot>, ApiError> {
    let viewer = Some(here.player_id());
    let snapshot = tournament
        .read(|reply| Command::Snapshot { viewer, reply })
        .await?;
    Ok(Json(snapshot))
}

pub async fn join(
    State(state): State<AppState>,
    signed_in: SignedIn,
    tournament: TournamentAt,
) -> Result<Json<TournamentJoined>, ApiError> {
    let player = signed_in.player_id();
    let name = signed_in.session.name.clone();
    tournament
        .change(|reply| Command::Join {
            player,
            name,
            reply,
        })
        .await?;
    signed_in.mark_used(&state).await;
    Ok(Json(TournamentJoined { player_id: player }))
}

/// A player withdraws (a device a director linked for them too), or a director withdraws
/// one.
pub async fn withdraw(
    here: PlayerHere,
    tournament: TournamentAt,
    JsonBody(request): JsonBody<WithdrawRequest>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let by = here.player_id();
    let player = request.player_id.unwrap_or(by);
    if player != by {
        here.not_directing()?;
    }
    tournament
        .change(|reply| Command::Withdraw { player, by, reply })
        .await?;
    Ok(Json(serde_json::json!({})))
}

pub async fn pair(
    State(state): State<AppState>,
    signed_in: SignedIn,
    tournament: TournamentAt,
) -> Result<Response, ApiError> {
    let by = signed_in.player_id();
    // Found first, so that a call for no tournament spends none of the pairing budget.
    tournament.handle().await?;
    may_pair(&state, by)?;
    let round = tournament
        .change(|reply| Command::PairNext { by, reply })
        .await?;
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

/// A round's number in the path (`{n}`, from 1): `not_found` for anything else.
pub struct RoundNumber(pub u32);

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for RoundNumber {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &S,
    ) -> Result<Self, ApiError> {
        #[derive(Deserialize)]
        struct RoundPath {
            n: String,
        }
        let Path(RoundPath { n }) = Path::<RoundPath>::from_request_parts(parts, state)
            .await
            .map_err(|_| ApiError::not_found("round"))?;
        n.parse::<u32>()
            .ok()
            .filter(|&n| n >= 1)
            .map(RoundNumber)
            .ok_or_else(|| ApiError::not_found("round"))
    }
}

pub async fn edit_round(
    State(state): State<AppState>,
    signed_in: SignedIn,
    tournament: TournamentAt,
    RoundNumber(round): RoundNumber,
    JsonBody(request): JsonBody<EditRound>,
) -> Result<Json<RoundView>, ApiError> {
    let by = signed_in.player_id();
    // Found first, so that a call for no tournament spends none of the pairing budget.
    tournament.handle().await?;
    may_pair(&state, by)?;
    let pairings = request
        .pairings
        .iter()
        .map(|p| (p.first, p.second))
        .collect();
    let confirm_breach = request.confirm_breach;
    let round = tournament
        .change(|reply| Command::EditRound {
            by,
            round,
            pairings,
            confirm_breach,
            reply,
        })
        .await?;
    Ok(Json(round))
}

pub async fn start_round(
    signed_in: SignedIn,
    tournament: TournamentAt,
    RoundNumber(round): RoundNumber,
) -> Result<Json<RoundView>, ApiError> {
    let by = signed_in.player_id();
    let round = tournament
        .change(|reply| Command::StartRound { by, round, reply })
        .await?;
    Ok(Json(round))
}

pub async fn end_round(
    signed_in: SignedIn,
    tournament: TournamentAt,
    RoundNumber(round): RoundNumber,
) -> Result<Json<RoundView>, ApiError> {
    let by = signed_in.player_id();
    let round = tournament
        .change(|reply| Command::EndRound { by, round, reply })
        .await?;
    Ok(Json(round))
}

/// The game of a sheet's path (`{game_id}`), as the server writes game ids.
#[derive(Deserialize)]
pub struct SheetPath {
    game_id: String,
}

/// A sheet confirmed or disputed by its players (a device a director linked for one of
/// them too), or corrected by a director.
pub async fn sheet(
    here: PlayerHere,
    tournament: TournamentAt,
    Path(SheetPath { game_id }): Path<SheetPath>,
    JsonBody(request): JsonBody<SheetRequest>,
) -> Result<Json<SheetView>, ApiError> {
    let game_id = id_as_written(&game_id, "game")?;
    let by = here.player_id();
    if matches!(request, SheetRequest::Correct { .. }) {
        here.not_directing()?;
    }
    let action = match request {
        SheetRequest::Confirm => SheetAction::Confirm,
        SheetRequest::Dispute { reason } => SheetAction::Dispute { reason },
        SheetRequest::Correct {
            result,
            reason,
            seeds,
            adjudicated,
        } => SheetAction::Correct {
            outcome: result,
            reason,
            seeds: seeds.map(|s| [s.first, s.second]),
            adjudicated,
        },
    };
    let sheet = tournament
        .change(|reply| Command::Sheet {
            by,
            game_id,
            action,
            reply,
        })
        .await?;
    Ok(Json(sheet))
}

/// `PUT /api/tournaments/{id}/forbidden-pairs`: the director replaces the list.
pub async fn forbidden_pairs(
    signed_in: SignedIn,
    tournament: TournamentAt,
    JsonBody(request): JsonBody<ForbiddenPairs>,
) -> Result<Json<ForbiddenPairs>, ApiError> {
    let by = signed_in.player_id();
    let pairs = request.forbidden_pairs;
    let kept = tournament
        .change(|reply| Command::ForbiddenPairs { by, pairs, reply })
        .await?;
    Ok(Json(ForbiddenPairs {
        forbidden_pairs: kept,
    }))
}

/// The file of an export's path (`{file}`).
#[derive(Deserialize)]
pub struct ExportPath {
    file: String,
}

/// `standings.csv`, `sheets.csv` or `tournament.trf`; or the tournament's games as a game
/// file, `games.ogn` or `games.ndjson` (`http::game_exports`).
pub async fn export(
    State(state): State<AppState>,
    signed_in: SignedIn,
    tournament: TournamentAt,
    Path(ExportPath { file }): Path<ExportPath>,
    ClientAddress(ip): ClientAddress,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let games = match file.as_str() {
        "games.ogn" => Some(crate::archive::export::Format::Ogn),
        "games.ndjson" => Some(crate::archive::export::Format::Ndjson),
        _ => None,
    };
    if let Some(format) = games {
        crate::archive::exports_api::may_export(&state, ip)?;
        let place = crate::archive::exports_api::may_stream_export(&state, ip)?;
        let t = tournament.read(|reply| Command::State { reply }).await?;
        let asker = crate::archive::exports_api::asker(ip, &signed_in);
        let name = t.settings().name.clone();
        let ids = t
            .game_tables()
            .into_iter()
            .map(|(id, round, board)| {
                let place = crate::archive::game_file::TournamentRound {
                    name: name.clone(),
                    round,
                    board,
                };
                (id, Some(place))
            })
            .collect();
        return Ok(crate::archive::exports_api::tournament(
            &state,
            &headers,
            (asker, place),
            ids,
            format,
        ));
    }
    let kind = match file.as_str() {
        "standings.csv" => export::Kind::StandingsCsv,
        "sheets.csv" => export::Kind::SheetsCsv,
        "tournament.trf" => export::Kind::Trf,
        _ => return Err(ApiError::not_found("export")),
    };
    let t = tournament.read(|reply| Command::State { reply }).await?;
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
