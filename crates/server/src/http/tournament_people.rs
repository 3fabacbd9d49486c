//! The calls about who runs a tournament and who plays in it as a person
//! (docs/protocol.md#tournaments, docs/tournaments.md "Directors"): co-directors named by
//! username or through a one-time invite, removed; the directors' actions; a code that
//! gives a player who lost their device another one. Each handler checks who asks; the
//! tournament's task checks what they may do, and logs it.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use rand::RngCore;
use serde::Deserialize;

use crate::http::error::ApiError;
use crate::http::extract::{id_as_written, JsonBody, SignedIn, TournamentAt};
use crate::state::AppState;
use crate::store::hash_token;
use crate::tournament::actor::Command;
use crate::tournament::state::INVITE_MS;
use omweso_protocol::clock::now_ms;
use omweso_protocol::tournament::{
    AcceptCoDirectorInvite, AddCoDirector, CoDirectorInvite, CoDirectorList, DeviceLinkCode,
    DirectorActions,
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
}

/// The letters of an invite's code: Crockford's base32 (no I, L, O or U to misread).
const CODE_ALPHABET: &[u8] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/// The longest code accepted as typed (8 letters, a dash, spaces around).
const MAX_CODE_CHARS: usize = 32;

/// A new invite code, `XXXX-XXXX`: 40 random bits, good once and for a day.
fn new_code() -> String {
    let mut bytes = [0u8; 8];
    rand::rng().fill_bytes(&mut bytes);
    let letters: String = bytes
        .iter()
        .map(|b| char::from(CODE_ALPHABET[usize::from(*b) % CODE_ALPHABET.len()]))
        .collect();
    format!("{}-{}", &letters[..4], &letters[4..])
}

/// A code as typed, read as Crockford's base32 does (case, dashes and spaces aside; I
/// and L are 1, O is 0), then hashed as the log keeps it.
fn code_hash(typed: &str) -> Result<String, ApiError> {
    if typed.chars().count() > MAX_CODE_CHARS {
        return Err(ApiError::bad_request(
            ErrorCode::BadRequest,
            "an invite code is 8 letters and digits, like ABCD-EF23",
        ));
    }
    let letters: String = typed
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .map(|c| match c.to_ascii_uppercase() {
            'I' | 'L' => '1',
            'O' => '0',
            c => c,
        })
        .collect();
    if letters.len() != 8 || !letters.bytes().all(|b| CODE_ALPHABET.contains(&b)) {
        return Err(ApiError::bad_request(
            ErrorCode::BadRequest,
            "an invite code is 8 letters and digits, like ABCD-EF23",
        ));
    }
    Ok(hash_token(&letters))
}

/// `POST /api/tournaments/{id}/co-directors {"username"}`: the director names an account.
async fn add_co_director(
    State(state): State<AppState>,
    signed_in: SignedIn,
    tournament: TournamentAt,
    JsonBody(request): JsonBody<AddCoDirector>,
) -> Result<Json<CoDirectorList>, ApiError> {
    tournament.handle().await?;
    let Some(person) = state.sessions.person_by_username(&request.username).await? else {
        return Err(ApiError::new(
            ErrorCode::NotFound,
            format!("no account has the username {:?}", request.username.trim()),
        ));
    };
    let by = signed_in.player_id();
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

/// `POST /api/tournaments/{id}/co-director-invites`: a one-time code for a guest.
async fn invite_co_director(
    signed_in: SignedIn,
    tournament: TournamentAt,
) -> Result<Response, ApiError> {
    let code = new_code();
    let code_hash = code_hash(&code)?;
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
    signed_in: SignedIn,
    tournament: TournamentAt,
    JsonBody(request): JsonBody<AcceptCoDirectorInvite>,
) -> Result<Json<CoDirectorList>, ApiError> {
    let code_hash = code_hash(&request.code)?;
    let player = signed_in.player_id();
    let name = signed_in.session.name.clone();
    let co_directors = tournament
        .change(|reply| Command::AcceptCoDirectorInvite {
            player,
            name,
            code_hash,
            reply,
        })
        .await?;
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
    signed_in: SignedIn,
    tournament: TournamentAt,
    Path(PersonPath { player_id }): Path<PersonPath>,
) -> Result<Json<DeviceLinkCode>, ApiError> {
    let player = id_as_written(&player_id, "player")?;
    let by = signed_in.player_id();
    tournament
        .change(|reply| Command::DeviceCode { by, player, reply })
        .await?;
    let code = state.sessions.issue_link_code(player, by).await?;
    Ok(Json(DeviceLinkCode {
        code: code.code,
        expires_at_ms: code.expires_at_ms,
        qr_svg: code.qr_svg,
        url: code.url,
    }))
}
