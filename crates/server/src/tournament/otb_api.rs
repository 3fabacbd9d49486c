//! The calls of over-the-board play (docs/protocol.md#over-the-board-addition,
//! docs/rules.md#57-over-the-board-play-and-relays): where a round's tables are played,
//! players added by name, a board table's sheet entered and initialled from phones, its
//! relay invited and named, and the QR codes of the printed sheets. Each handler checks who
//! asks and how often; the tournament's task checks what they may do, and logs it.

use std::collections::HashMap;

use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, put};
use axum::{Json, Router};
use serde::Deserialize;
use uuid::Uuid;

use crate::game::extract::find_game;
use crate::game::table::RelayAction;
use crate::http::codes::{new_code_for, try_code, CodeTarget};
use crate::http::error::ApiError;
use crate::http::extract::{ClientAddress, JsonBody};
use crate::metrics::Limit;
use crate::people::accounts_api::origin;
use crate::people::codes::{new_link_code, qr_svg, typed_code_hash, LINK_CODE_CHARACTERS};
use crate::people::extract::SignedIn;
use crate::state::AppState;
use crate::tournament::actor::BoardCommand;
use crate::tournament::api::RoundNumber;
use crate::tournament::extract::{PlayerHere, TournamentAt};
use crate::tournament::log::BoardAction;
use crate::tournament::state::RELAY_INVITE_MS;
use omweso_protocol::clock::now_ms;
use omweso_protocol::over_the_board::{
    AddPlayer, BoardResult, BoardSheetRequest, ClaimRelay, PrintCodes, QrLink, RelayDone,
    RelayInvite, RelayRequest, SetPlayedAt, TableQr,
};
use omweso_protocol::tournament::{PlayerView, RoundView};
use omweso_protocol::ErrorCode;

/// The routes of this module, merged into the server's router.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route(
            "/api/tournaments/{id}/rounds/{n}/played-at",
            put(set_played_at),
        )
        .route("/api/tournaments/{id}/players", post(add_player))
        .route(
            "/api/tournaments/{id}/tables/{round}/{table}/sheet",
            post(board_sheet),
        )
        .route(
            "/api/tournaments/{id}/tables/{round}/{table}/relay-invite",
            post(invite_relay),
        )
        .route(
            "/api/tournaments/{id}/tables/{round}/{table}/relay",
            post(claim_relay).delete(remove_relay),
        )
        .route(
            "/api/tournaments/{id}/tables/{round}/{table}/relay/act",
            post(relay_act),
        )
        .route("/api/tournaments/{id}/qr", get(print_codes))
}

/// A table in the path: `{round}` and `{table}`, both from 1; `not_found` otherwise.
pub struct TableAt {
    pub round: u32,
    pub table: u32,
}

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for TableAt {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &S,
    ) -> Result<Self, ApiError> {
        #[derive(Deserialize)]
        struct TablePath {
            round: String,
            table: String,
        }
        let Path(TablePath { round, table }) = Path::<TablePath>::from_request_parts(parts, state)
            .await
            .map_err(|_| ApiError::not_found("table"))?;
        let number = |text: &str| text.parse::<u32>().ok().filter(|&n| n >= 1);
        match (number(&round), number(&table)) {
            (Some(round), Some(table)) => Ok(TableAt { round, table }),
            _ => Err(ApiError::not_found("table")),
        }
    }
}

/// One over-the-board change more for `person` this minute, or the refusal saying so.
fn may_change(state: &AppState, person: Uuid) -> Result<(), ApiError> {
    if state.limiters.board_changes_per_session.allow(person) {
        return Ok(());
    }
    Err(ApiError::limited(
        Limit::BoardChangesPerSession,
        format!(
            "at most {} over-the-board changes a minute; wait a moment and try again",
            state.config.limits.board_changes_per_session_per_minute
        ),
    ))
}

/// The tournament the path names, found first (a missing one is not found and costs
/// nothing), then one of `by`'s over-the-board changes this minute.
async fn found_and_counted(
    state: &AppState,
    tournament: &TournamentAt,
    by: Uuid,
) -> Result<crate::tournament::actor::TournamentHandle, ApiError> {
    let handle = tournament.handle().await?;
    may_change(state, by)?;
    Ok(handle)
}

/// An over-the-board change by `by`, counted as [`found_and_counted`] says, then asked of
/// the tournament's task: its answer, or its refusal with its code.
async fn board_change<T>(
    state: &AppState,
    tournament: &TournamentAt,
    by: Uuid,
    command: impl FnOnce(
        tokio::sync::oneshot::Sender<Result<T, omweso_protocol::refusal::Refusal>>,
    ) -> BoardCommand,
) -> Result<T, ApiError> {
    found_and_counted(state, tournament, by).await?;
    tournament.change(|reply| command(reply).into()).await
}

/// `PUT /api/tournaments/{id}/rounds/{n}/played-at`: where a round's tables are played.
async fn set_played_at(
    State(state): State<AppState>,
    signed_in: SignedIn,
    tournament: TournamentAt,
    RoundNumber(round): RoundNumber,
    JsonBody(request): JsonBody<SetPlayedAt>,
) -> Result<Json<RoundView>, ApiError> {
    let by = signed_in.player_id();
    let view = board_change(&state, &tournament, by, |reply| BoardCommand::PlayedAt {
        by,
        round,
        table: request.table,
        played_at: request.played_at,
        reply,
    })
    .await?;
    Ok(Json(view))
}

/// `POST /api/tournaments/{id}/players {"name"}`: a director adds a player without a
/// device (a new person, who can be given a device later by a device code).
async fn add_player(
    State(state): State<AppState>,
    signed_in: SignedIn,
    tournament: TournamentAt,
    JsonBody(request): JsonBody<AddPlayer>,
) -> Result<Response, ApiError> {
    let by = signed_in.player_id();
    let name = request.name.trim();
    if name.is_empty() {
        return Err(ApiError::bad_request(
            ErrorCode::BadName,
            "give the player's name",
        ));
    }
    let name = crate::people::clean_name(Some(name))
        .map_err(|why| ApiError::bad_request(ErrorCode::BadName, why))?;
    let player = Uuid::new_v4();
    let view: PlayerView = board_change(&state, &tournament, by, |reply| BoardCommand::AddPlayer {
        by,
        player,
        name,
        reply,
    })
    .await?;
    Ok((StatusCode::CREATED, Json(view)).into_response())
}

/// `POST /api/tournaments/{id}/tables/{round}/{table}/sheet`: a board table's result
/// entered, initialled or disputed: by the table's players (a device a director linked for
/// one of them too) or a director.
async fn board_sheet(
    State(state): State<AppState>,
    here: PlayerHere,
    tournament: TournamentAt,
    TableAt { round, table }: TableAt,
    JsonBody(request): JsonBody<BoardSheetRequest>,
) -> Result<Json<RoundView>, ApiError> {
    let by = here.player_id();
    found_and_counted(&state, &tournament, by).await?;
    // A director's entry makes the sheet at once: a limited device is its player only,
    // never a director (whom it may also be: a co-director who plays).
    if here.limited && matches!(request, BoardSheetRequest::Enter { .. }) {
        let directs = tournament
            .read(|reply| crate::tournament::actor::Command::Directs { person: by, reply })
            .await?;
        if directs {
            here.not_directing()?;
        }
    }
    let action = match request {
        BoardSheetRequest::Enter {
            winner,
            victory,
            seeds,
            seeds_on_board,
        } => BoardAction::Enter {
            result: BoardResult {
                winner,
                victory,
                seeds,
                seeds_on_board,
            },
            // The tournament's task says whether the caller enters it as a player.
            as_player: false,
        },
        BoardSheetRequest::Confirm => BoardAction::Confirm,
        BoardSheetRequest::ConfirmFor { player } => BoardAction::ConfirmFor { player },
        BoardSheetRequest::Dispute { reason } => BoardAction::Dispute {
            reason: crate::tournament::admission::clean_reason_text(&reason)?,
        },
    };
    let view = tournament
        .change(|reply| {
            BoardCommand::Sheet {
                by,
                round,
                table,
                action,
                reply,
            }
            .into()
        })
        .await?;
    Ok(Json(view))
}

/// `POST /api/tournaments/{id}/tables/{round}/{table}/relay-invite`: a one-time code that
/// makes whoever uses it the table's relay, with its address and QR code.
async fn invite_relay(
    State(state): State<AppState>,
    headers: HeaderMap,
    signed_in: SignedIn,
    tournament: TournamentAt,
    TableAt { round, table }: TableAt,
) -> Result<Response, ApiError> {
    let by = signed_in.player_id();
    let handle = found_and_counted(&state, &tournament, by).await?;
    let (code, code_hash) = new_link_code();
    let expires_at_ms = now_ms() + RELAY_INVITE_MS;
    tournament
        .change(|reply| {
            BoardCommand::InviteRelay {
                by,
                round,
                table,
                code_hash,
                expires_at_ms,
                reply,
            }
            .into()
        })
        .await?;
    new_code_for(&state, CodeTarget::Table(handle.id(), round, table));
    let url = format!(
        "{}/t/{}/relay/{round}/{table}#code={}",
        origin(&state, &headers),
        handle.id(),
        code.replace('-', "")
    );
    let invite = RelayInvite {
        qr_svg: qr_svg(&url),
        url,
        code,
        expires_at_ms,
    };
    Ok((StatusCode::CREATED, Json(invite)).into_response())
}

/// `POST /api/tournaments/{id}/tables/{round}/{table}/relay`: the caller becomes the
/// table's relay, by an invite's code, or as a director without one.
async fn claim_relay(
    State(state): State<AppState>,
    ClientAddress(ip): ClientAddress,
    signed_in: SignedIn,
    tournament: TournamentAt,
    TableAt { round, table }: TableAt,
    JsonBody(request): JsonBody<ClaimRelay>,
) -> Result<Json<RoundView>, ApiError> {
    let person = signed_in.player_id();
    let handle = found_and_counted(&state, &tournament, person).await?;
    let tried = match request.code {
        Some(_) => Some(try_code(
            &state,
            ip,
            Some(CodeTarget::Table(handle.id(), round, table)),
        )?),
        None => None,
    };
    let named = async {
        let code_hash = match request.code.as_deref() {
            Some(code) => Some(typed_code_hash(code, LINK_CODE_CHARACTERS).ok_or_else(|| {
                ApiError::bad_request(
                    ErrorCode::BadCode,
                    "a relay code is 8 letters and digits, like ABCD-EF23",
                )
            })?),
            None => None,
        };
        let by = code_hash.is_none().then_some(person);
        let relay = Some((person, signed_in.session.name.clone()));
        tournament
            .change(|reply| {
                BoardCommand::NameRelay {
                    round,
                    table,
                    relay,
                    by,
                    code_hash,
                    reply,
                }
                .into()
            })
            .await
    }
    .await;
    if let Some(tried) = tried {
        tried.answered(&named);
    }
    Ok(Json(named?))
}

/// `POST /api/tournaments/{id}/tables/{round}/{table}/relay/act`: what the relay saw
/// sown on the wooden board, for whichever side is to play, checked by the rules engine
/// in the table's game; `undo` takes back their last entry. Answers the game's version.
async fn relay_act(
    State(state): State<AppState>,
    signed_in: SignedIn,
    tournament: TournamentAt,
    TableAt { round, table }: TableAt,
    JsonBody(request): JsonBody<RelayRequest>,
) -> Result<Json<RelayDone>, ApiError> {
    let by = signed_in.player_id();
    tournament.handle().await?;
    if !state.limiters.relay_entries_per_session.allow(by) {
        return Err(ApiError::limited(
            Limit::RelayEntriesPerSession,
            format!(
                "at most {} relay entries a minute; wait a moment and enter it again",
                state.config.limits.relay_entries_per_session_per_minute
            ),
        ));
    }
    let game_id = tournament
        .change(|reply| {
            BoardCommand::RelayGame {
                by,
                round,
                table,
                reply,
            }
            .into()
        })
        .await?;
    let game = find_game(&state, game_id).await?;
    let action = match request {
        RelayRequest::Move { notation } => RelayAction::Move { notation },
        RelayRequest::Decide { choice } => RelayAction::Decide { choice },
        RelayRequest::Arrange { side, pits } => RelayAction::Arrange { side, pits },
        RelayRequest::Resign { side } => RelayAction::Resign { side },
        // Refused by the game itself once it is over (its result is the table's entry
        // then): checked in its task, with nothing between the look and the undo.
        RelayRequest::Undo => RelayAction::Undo,
    };
    let version = game
        .relay(action)
        .await
        .map_err(|gone| ApiError::internal(&gone))??;
    Ok(Json(RelayDone { version }))
}

/// `DELETE /api/tournaments/{id}/tables/{round}/{table}/relay`: a director removes the
/// table's relay (the game it entered stays, and a new relay goes on with it).
async fn remove_relay(
    State(state): State<AppState>,
    signed_in: SignedIn,
    tournament: TournamentAt,
    TableAt { round, table }: TableAt,
) -> Result<Json<RoundView>, ApiError> {
    let by = signed_in.player_id();
    let view = board_change(&state, &tournament, by, |reply| BoardCommand::NameRelay {
        round,
        table,
        relay: None,
        by: Some(by),
        code_hash: None,
        reply,
    })
    .await?;
    Ok(Json(view))
}

/// `GET /api/tournaments/{id}/qr?round=N`: the QR codes of the printed sheets of round N
/// (each opens its table's sheet entry on a phone) and the tournament's own (the wall's
/// pairings). Anyone signed in may print them (the addresses are the public pages'), as
/// often as the over-the-board changes' limit allows.
async fn print_codes(
    State(state): State<AppState>,
    headers: HeaderMap,
    signed_in: SignedIn,
    tournament: TournamentAt,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Json<PrintCodes>, ApiError> {
    // A round's codes are hundreds of SVGs: counted like a change, per person.
    let handle = found_and_counted(&state, &tournament, signed_in.player_id()).await?;
    let id = handle.id();
    let round = match query.get("round") {
        None => None,
        Some(text) => Some(
            text.parse::<u32>()
                .ok()
                .filter(|&n| n >= 1)
                .ok_or_else(|| {
                    ApiError::bad_request(
                        ErrorCode::BadRequest,
                        "round must be a round's number, from 1",
                    )
                })?,
        ),
    };
    let snapshot = tournament
        .read(|reply| crate::tournament::actor::Command::Snapshot {
            viewer: None,
            reply,
        })
        .await?;
    let site = origin(&state, &headers);
    let tables = match round {
        None => Vec::new(),
        Some(number) => {
            let Some(round) = snapshot.rounds.iter().find(|r| r.number == number) else {
                return Err(ApiError::not_found("round"));
            };
            round
                .pairings
                .iter()
                .filter(|p| p.second.is_some())
                .map(|p| {
                    let url = format!("{site}/t/{id}/sheet/{number}/{}", p.table);
                    TableQr {
                        round: number,
                        table: p.table,
                        qr_svg: qr_svg(&url),
                        url,
                    }
                })
                .collect()
        }
    };
    let url = format!("{site}/t/{id}");
    Ok(Json(PrintCodes {
        tournament: QrLink {
            qr_svg: qr_svg(&url),
            url,
        },
        tables,
    }))
}
