//! The calls about who runs a tournament and who plays in it as a person
//! (docs/protocol.md#tournaments, docs/tournaments.md "Directors"): co-directors named by
//! username or through a one-time invite, removed; the directors' actions; a code that
//! gives a player who lost their device another one (a device that is the player in this
//! tournament only), and which players may be given one. Each handler checks who asks; the
//! tournament's task checks what they may do, and logs it.

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use serde::Deserialize;

use crate::http::codes::{new_code_for, try_code, CodeTarget};
use crate::http::error::ApiError;
use crate::http::extract::{id_as_written, ClientAddress, JsonBody};
use crate::people::accounts_api::{link_code_info, may_make_link_code};
use crate::people::codes::{new_link_code, typed_code_hash, LINK_CODE_CHARACTERS};
use crate::people::extract::SignedIn;
use crate::state::AppState;
use crate::tournament::actor::Command;
use crate::tournament::extract::TournamentAt;
use crate::tournament::state::INVITE_MS;
use omweso_protocol::accounts::{LinkCodeInfo, NewDeviceView, NewDevices};
use omweso_protocol::clock::now_ms;
use omweso_protocol::tournament::{
    AcceptCoDirectorInvite, AddCoDirector, CoDirectorInvite, CoDirectorList, DirectorActions,
};
use omweso_protocol::ErrorCode;

/// The routes of this module, merged into the server's router.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/tournaments/{id}/co-directors", post(add_co_director))
        .route(
            "/api/tournaments/{id}/co-directors/accept",
            post(accept_invite),
        )
        .route(
            "/api/tournaments/{id}/co-directors/{player_id}",
            delete(remove_co_director),
        )
        .route(
            "/api/tournaments/{id}/co-director-invites",
            post(invite_co_director),
        )
        .route("/api/tournaments/{id}/actions", get(actions))
        .route(
            "/api/tournaments/{id}/players/{player_id}/link-code",
            post(link_code),
        )
        .route("/api/tournaments/{id}/new-devices", get(new_devices))
}

/// A code as typed, read as every one-time code is (`people::codes`: case, dashes and
/// spaces aside; I and L are 1, O is 0), hashed as the log keeps it.
fn code_hash(typed: &str) -> Result<String, ApiError> {
    typed_code_hash(typed, LINK_CODE_CHARACTERS).ok_or_else(|| {
        ApiError::bad_request(
            ErrorCode::BadCode,
            "an invite code is 8 letters and digits, like ABCD-EF23",
        )
    })
}

/// `POST /api/tournaments/{id}/co-directors {"username"}`: the director names an account.
async fn add_co_director(
    State(state): State<AppState>,
    signed_in: SignedIn,
    tournament: TournamentAt,
    JsonBody(request): JsonBody<AddCoDirector>,
) -> Result<Json<CoDirectorList>, ApiError> {
    // Only the director names co-directors: refused before the username is looked up, so
    // that nobody else learns from the answer which usernames exist.
    let by = signed_in.player_id();
    let snapshot = tournament
        .read(|reply| Command::Snapshot {
            viewer: None,
            reply,
        })
        .await?;
    if snapshot.director != by {
        return Err(ApiError::new(
            ErrorCode::NotDirector,
            "only the director who created the tournament may name co-directors",
        ));
    }
    let Some(person) = state.sessions.person_by_username(&request.username).await? else {
        return Err(ApiError::new(
            ErrorCode::NotFound,
            format!("no account has the username {:?}", request.username.trim()),
        ));
    };
    let co_directors = tournament
        .change(|reply| Command::AddCoDirector {
            by,
            player: person.id,
            name: person.name,
            reply,
        })
        .await?;
    Ok(Json(CoDirectorList { co_directors }))
}

/// `POST /api/tournaments/{id}/co-director-invites`: a one-time code for a guest. The
/// tournament's wrong invitation codes so far no longer hold it back.
async fn invite_co_director(
    State(state): State<AppState>,
    signed_in: SignedIn,
    tournament: TournamentAt,
) -> Result<Response, ApiError> {
    let (code, code_hash) = new_link_code();
    let expires_at_ms = now_ms() + INVITE_MS;
    let by = signed_in.player_id();
    tournament
        .change(|reply| Command::InviteCoDirector {
            by,
            code_hash,
            expires_at_ms,
            reply,
        })
        .await?;
    if let Some(id) = tournament.id() {
        new_code_for(&state, CodeTarget::Invitations(id));
    }
    Ok((
        StatusCode::CREATED,
        Json(CoDirectorInvite {
            code,
            expires_at_ms,
        }),
    )
        .into_response())
}

/// `POST /api/tournaments/{id}/co-directors/accept {"code"}`: the caller becomes one.
async fn accept_invite(
    State(state): State<AppState>,
    ClientAddress(ip): ClientAddress,
    signed_in: SignedIn,
    tournament: TournamentAt,
    JsonBody(request): JsonBody<AcceptCoDirectorInvite>,
) -> Result<Json<CoDirectorList>, ApiError> {
    let id = tournament
        .id()
        .ok_or_else(|| ApiError::not_found("tournament"))?;
    let tried = try_code(&state, ip, Some(CodeTarget::Invitations(id)))?;
    let accepted = async {
        let code_hash = code_hash(&request.code)?;
        let player = signed_in.player_id();
        let name = signed_in.session.name.clone();
        tournament
            .change(|reply| Command::AcceptCoDirectorInvite {
                player,
                name,
                code_hash,
                reply,
            })
            .await
    }
    .await;
    tried.answered(&accepted);
    let co_directors = accepted?;
    // A guest who directs is kept like one who plays (an unused guest is swept away).
    signed_in.mark_used(&state).await;
    Ok(Json(CoDirectorList { co_directors }))
}

/// A person of a path (`{player_id}`), as the server writes ids.
#[derive(Deserialize)]
struct PersonPath {
    player_id: String,
}

/// `DELETE /api/tournaments/{id}/co-directors/{player_id}`: only the director.
async fn remove_co_director(
    signed_in: SignedIn,
    tournament: TournamentAt,
    Path(PersonPath { player_id }): Path<PersonPath>,
) -> Result<Json<CoDirectorList>, ApiError> {
    let player = id_as_written(&player_id, "co-director")?;
    let by = signed_in.player_id();
    let co_directors = tournament
        .change(|reply| Command::RemoveCoDirector { by, player, reply })
        .await?;
    Ok(Json(CoDirectorList { co_directors }))
}

/// `GET /api/tournaments/{id}/actions`: every director's action (directors only).
async fn actions(
    signed_in: SignedIn,
    tournament: TournamentAt,
) -> Result<Json<DirectorActions>, ApiError> {
    let by = signed_in.player_id();
    let actions = tournament
        .change(|reply| Command::Actions { by, reply })
        .await?;
    Ok(Json(DirectorActions { actions }))
}

/// `POST /api/tournaments/{id}/players/{player_id}/link-code`: a director gives a player
/// who lost their device a one-time code that makes another device them. Logged (who
/// gave it to whom, never the code) before the code is made, so that a refusal makes
/// none.
async fn link_code(
    State(state): State<AppState>,
    headers: HeaderMap,
    signed_in: SignedIn,
    tournament: TournamentAt,
    Path(PersonPath { player_id }): Path<PersonPath>,
) -> Result<Json<LinkCodeInfo>, ApiError> {
    let player = id_as_written(&player_id, "player")?;
    let by = signed_in.player_id();
    // Only a guest: a code would make its holder the person everywhere, and an account
    // has its own ways back (its password, a recovery code, another of its devices) that
    // no director should be able to go around.
    match state.sessions.store().person(player).await? {
        Some(person) if person.username.is_some() => {
            return Err(ApiError::new(
                ErrorCode::AlreadyAccount,
                account_words(&person.name),
            ))
        }
        Some(_) => {}
        None => return Err(ApiError::new(ErrorCode::NotInTournament, NO_RECORD)),
    }
    may_make_link_code(&state, by)?;
    let handle = tournament.handle().await?;
    tournament
        .change(|reply| Command::DeviceCode { by, player, reply })
        .await?;
    // The device it links is the player here only (docs/security.md#accounts).
    let code = state
        .sessions
        .issue_link_code(player, by, Some(handle.id()))
        .await?;
    Ok(Json(link_code_info(&state, &headers, code)))
}

/// `GET /api/tournaments/{id}/new-devices`: for the console, which players a director may
/// give a code for a new device, why not the others, and when a code was last used for
/// each.
async fn new_devices(
    State(state): State<AppState>,
    signed_in: SignedIn,
    tournament: TournamentAt,
) -> Result<Json<NewDevices>, ApiError> {
    let by = signed_in.player_id();
    let found = tournament
        .change(|reply| Command::NewDevices { by, reply })
        .await?;
    let ids: Vec<uuid::Uuid> = found.players.iter().map(|(id, _, _)| *id).collect();
    let accounts = state.sessions.store().accounts_among(&ids).await?;
    let players = found
        .players
        .into_iter()
        .map(|(player_id, name, linked_at_ms)| {
            let why_not = if found.finished {
                Some("the tournament is over: they get back with their own account, or a link code from another of their devices".to_owned())
            } else {
                match accounts.get(&player_id) {
                    Some(true) => Some(account_words(&name)),
                    Some(false) => None,
                    None => Some(NO_RECORD.to_owned()),
                }
            };
            NewDeviceView {
                player_id,
                may_give: why_not.is_none(),
                why_not,
                linked_at_ms,
            }
        })
        .collect();
    Ok(Json(NewDevices { players }))
}

/// Why a player with an account gets no code from a director.
fn account_words(name: &str) -> String {
    format!("{name} has an account: they log in on the new device (or use a recovery code)")
}

/// Why a player of an old tournament gets no code.
const NO_RECORD: &str =
    "that player has no record to give a device to (they played before devices were kept)";
