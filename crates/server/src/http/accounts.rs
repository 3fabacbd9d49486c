//! Persons, accounts and devices over HTTP (docs/protocol.md#persons-accounts-and-devices-addition):
//! guest sessions, sign-up, log-in, recovery, the devices list, link codes and the name.
//! Each answer that signs a device in sets the session cookie; the same token comes in the
//! body for clients that send it as a bearer.

use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use uuid::Uuid;

use crate::http::address::AddressKey;
use crate::http::error::ApiError;
use crate::http::extract::{ClientAddress, JsonBody, SignedIn};
use crate::metrics::Limit;
use crate::session::accounts::{AccountError, LinkCode};
use crate::session::names::username_key;
use crate::session::password::PasswordError;
use crate::session::{device_label, token_from, CreateError, Session, COOKIE};
use crate::state::AppState;
use omweso_protocol::accounts::{
    AccountCreated, Credentials, DeviceInfo, DeviceList, LinkCodeInfo, PasswordChange,
    PasswordOnly, Recovery, RecoveryCodes, Rename, UseCode,
};
use omweso_protocol::http::{NewSession, SessionInfo};
use omweso_protocol::ErrorCode;

/// `POST /api/session`: a new guest. Limited per address (an IPv6 /64) and on the whole
/// server (docs/security.md). A request made as a session replaces it: the old device is
/// signed out, so its token is worthless (the web client renames with `PATCH /api/me`).
pub async fn create_session(
    State(state): State<AppState>,
    ClientAddress(ip): ClientAddress,
    headers: HeaderMap,
    JsonBody(request): JsonBody<NewSession>,
) -> Result<Response, ApiError> {
    let address = AddressKey::of(ip);
    let limits = &state.config.limits;
    if !state.limiters.sessions_per_ip.allow(address) {
        return Err(ApiError::limited(
            Limit::SessionsPerIp,
            format!(
                "this address made {} sessions in the last minute; wait a little",
                limits.sessions_per_ip_per_minute
            ),
        ));
    }
    may_make_a_session(&state)?;
    let (session, token) = state
        .sessions
        .create(request.name.as_deref(), &device_label(&headers))
        .await
        .map_err(|error| match error {
            CreateError::Name(message) => ApiError::bad_request(ErrorCode::BadName, message),
            CreateError::Store(error) => ApiError::internal(&error),
        })?;
    if let Some(old) = token_from(&headers) {
        state.sessions.revoke(&old).await?;
    }
    Ok(signed_in(&state, StatusCode::OK, &session, token))
}

/// Takes one of the sessions the whole server makes a minute, or refuses it.
fn may_make_a_session(state: &AppState) -> Result<(), ApiError> {
    if state.limiters.sessions.allow(()) {
        return Ok(());
    }
    Err(ApiError::limited(
        Limit::Sessions,
        format!(
            "the server made {} sessions in the last minute, as many as it makes; try again in a few seconds",
            state.config.limits.sessions_per_minute
        ),
    ))
}

/// The answer that signs a device in: the session with its token, and the cookie.
pub(crate) fn signed_in(
    state: &AppState,
    status: StatusCode,
    session: &Session,
    token: String,
) -> Response {
    let cookie = session_cookie(state, &token, "Max-Age=31536000");
    (
        status,
        [(header::SET_COOKIE, cookie)],
        Json(info(session, Some(token))),
    )
        .into_response()
}

fn info(session: &Session, token: Option<String>) -> SessionInfo {
    SessionInfo {
        token,
        player_id: session.player_id,
        name: session.name.clone(),
        username: session.username.clone(),
        device_id: Some(session.device_id),
    }
}

/// The session cookie holding `token` (empty: a cookie that removes it), with `max_age`.
fn session_cookie(state: &AppState, token: &str, max_age: &str) -> String {
    let secure = if crate::http::edge::served_over_https(&state.config) {
        "; Secure"
    } else {
        ""
    };
    format!("{COOKIE}={token}; Path=/; HttpOnly; SameSite=Lax; {max_age}{secure}")
}

/// `DELETE /api/session` (sign out this device): its token is worthless at once (its row
/// deleted, its sockets closed with 1008) and the cookie is removed. 204.
pub async fn sign_out(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let token = token_from(&headers).ok_or_else(ApiError::unauthorized)?;
    if !state.sessions.revoke(&token).await? {
        return Err(ApiError::unauthorized());
    }
    let cookie = session_cookie(&state, "", "Max-Age=0");
    Ok((StatusCode::NO_CONTENT, [(header::SET_COOKIE, cookie)]).into_response())
}

/// `GET /api/me`: who the request is made as.
pub async fn me(signed_in: SignedIn) -> Json<SessionInfo> {
    Json(info(&signed_in.session, None))
}

/// `PATCH /api/me`: renames the person, on every device, in every unfinished tournament
/// they are in; their seats, sheets and console stay theirs. A game keeps the names its
/// players had when it was joined, as a score sheet does.
pub async fn rename(
    State(state): State<AppState>,
    signed_in: SignedIn,
    JsonBody(request): JsonBody<Rename>,
) -> Result<Json<SessionInfo>, ApiError> {
    let name = crate::session::names::clean_name(Some(&request.name))
        .map_err(|message| ApiError::bad_request(ErrorCode::BadName, message))?;
    let person = signed_in.player_id();
    if !state.limiters.renames_per_session.allow(person) {
        return Err(ApiError::limited(
            Limit::RenamesPerSession,
            format!(
                "you changed your name {} times in the last minute; wait a little",
                state.config.limits.renames_per_session_per_minute
            ),
        ));
    }
    state.sessions.rename(person, &name).await?;
    crate::http::people::rename_in_tournaments(&state, person, &name).await;
    let mut session = signed_in.session;
    session.name = name;
    Ok(Json(info(&session, None)))
}

/// `POST /api/account`: makes an account; made as a guest, the guest becomes it. 201
/// with the new token and the recovery codes, shown this once.
pub async fn sign_up(
    State(state): State<AppState>,
    ClientAddress(ip): ClientAddress,
    headers: HeaderMap,
    JsonBody(request): JsonBody<Credentials>,
) -> Result<Response, ApiError> {
    if !state.limiters.accounts_per_ip.allow(AddressKey::of(ip)) {
        return Err(ApiError::limited(
            Limit::AccountsPerIp,
            format!(
                "this address made {} accounts in the last hour; try again later",
                state.config.limits.accounts_per_ip_per_hour
            ),
        ));
    }
    // An account made with no session is a new person and device as `POST /api/session`
    // makes: it counts in the server's sessions a minute too.
    let current = token_from(&headers);
    if current.is_none() {
        may_make_a_session(&state)?;
    }
    let made = state
        .sessions
        .sign_up(
            current.as_deref(),
            &request.username,
            &request.password,
            &device_label(&headers),
        )
        .await
        .map_err(refused)?;
    let cookie = session_cookie(&state, &made.token, "Max-Age=31536000");
    let session = &made.session;
    let body = AccountCreated {
        token: made.token.clone(),
        player_id: session.player_id,
        name: session.name.clone(),
        username: session.username.clone().unwrap_or_default(),
        device_id: session.device_id,
        recovery_codes: made.recovery_codes,
    };
    Ok((
        StatusCode::CREATED,
        [(header::SET_COOKIE, cookie)],
        Json(body),
    )
        .into_response())
}

/// Takes one log-in attempt from `ip` on `username`, or refuses it.
pub(crate) fn may_try_log_in(
    state: &AppState,
    ip: std::net::IpAddr,
    username: &str,
) -> Result<(), ApiError> {
    may_try(state, ip, username, &state.limiters.logins_per_account)
}

/// Takes one recovery attempt from `ip` on `username`, or refuses it: per address as
/// log-ins, per account in a bucket of its own, so that someone who spends an account's
/// log-in tries (its username is public) does not also lock its owner out of recovery.
fn may_try_recovery(
    state: &AppState,
    ip: std::net::IpAddr,
    username: &str,
) -> Result<(), ApiError> {
    may_try(state, ip, username, &state.limiters.recoveries_per_account)
}

fn may_try(
    state: &AppState,
    ip: std::net::IpAddr,
    username: &str,
    per_account: &crate::http::limits::Rates<String>,
) -> Result<(), ApiError> {
    let limits = &state.config.limits;
    if !state.limiters.logins_per_ip.allow(AddressKey::of(ip)) {
        return Err(ApiError::limited(
            Limit::LoginsPerIp,
            format!(
                "this address tried to log in {} times in the last minute; wait a minute",
                limits.logins_per_ip_per_minute
            ),
        ));
    }
    if !per_account.allow(username_key(username.trim())) {
        return Err(ApiError::limited(
            Limit::LoginsPerAccount,
            format!(
                "this account was tried {} times in the last hour; wait, or use a link code from one of your devices",
                limits.logins_per_account_per_hour
            ),
        ));
    }
    Ok(())
}

/// `POST /api/login`: a new device of the account. The device's session so far is
/// signed out.
pub async fn log_in(
    State(state): State<AppState>,
    ClientAddress(ip): ClientAddress,
    headers: HeaderMap,
    JsonBody(request): JsonBody<Credentials>,
) -> Result<Response, ApiError> {
    may_try_log_in(&state, ip, &request.username)?;
    let (session, token) = state
        .sessions
        .log_in(
            token_from(&headers).as_deref(),
            &request.username,
            &request.password,
            &device_label(&headers),
        )
        .await
        .map_err(refused)?;
    Ok(signed_in(&state, StatusCode::OK, &session, token))
}

/// `POST /api/login/recovery`: a new password with a recovery code; every other device
/// of the account is signed out.
pub async fn recover(
    State(state): State<AppState>,
    ClientAddress(ip): ClientAddress,
    headers: HeaderMap,
    JsonBody(request): JsonBody<Recovery>,
) -> Result<Response, ApiError> {
    may_try_recovery(&state, ip, &request.username)?;
    let (session, token) = state
        .sessions
        .recover(
            token_from(&headers).as_deref(),
            &request.username,
            &request.code,
            &request.password,
            &device_label(&headers),
        )
        .await
        .map_err(refused)?;
    Ok(signed_in(&state, StatusCode::OK, &session, token))
}

/// `PUT /api/account/password`: 204; the account's other devices are signed out.
pub async fn change_password(
    State(state): State<AppState>,
    ClientAddress(ip): ClientAddress,
    signed_in: SignedIn,
    JsonBody(request): JsonBody<PasswordChange>,
) -> Result<StatusCode, ApiError> {
    let username = signed_in.session.username.clone().unwrap_or_default();
    may_try_log_in(&state, ip, &username)?;
    state
        .sessions
        .change_password(&signed_in.session, &request.current, &request.password)
        .await
        .map_err(refused)?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/account/recovery-codes`: a new set; the old ones stop working.
pub async fn renew_recovery_codes(
    State(state): State<AppState>,
    ClientAddress(ip): ClientAddress,
    signed_in: SignedIn,
    JsonBody(request): JsonBody<PasswordOnly>,
) -> Result<Json<RecoveryCodes>, ApiError> {
    let username = signed_in.session.username.clone().unwrap_or_default();
    may_try_log_in(&state, ip, &username)?;
    let recovery_codes = state
        .sessions
        .renew_recovery_codes(&signed_in.session, &request.password)
        .await
        .map_err(refused)?;
    Ok(Json(RecoveryCodes { recovery_codes }))
}

/// `GET /api/devices`: the person's devices, the most recently used first.
pub async fn devices(
    State(state): State<AppState>,
    signed_in: SignedIn,
) -> Result<Json<DeviceList>, ApiError> {
    let current = signed_in.session.device_id;
    let devices = state
        .sessions
        .store()
        .devices_of(signed_in.player_id())
        .await?
        .into_iter()
        .map(|d| DeviceInfo {
            id: d.id,
            label: d.label,
            created_at_ms: d.created_at_ms,
            last_seen_ms: d.last_seen_ms,
            current: d.id == current,
        })
        .collect();
    Ok(Json(DeviceList { devices }))
}

/// `DELETE /api/devices/{id}`: signs that device of the person out. 204.
pub async fn sign_out_device(
    State(state): State<AppState>,
    signed_in: SignedIn,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    let device = crate::http::extract::id_as_written(&id, "device")?;
    if !state
        .sessions
        .revoke_device(signed_in.player_id(), device)
        .await?
    {
        return Err(ApiError::not_found("device"));
    }
    Ok(StatusCode::NO_CONTENT)
}

/// `DELETE /api/devices`: signs out every device of the person but this one. 204.
pub async fn sign_out_others(
    State(state): State<AppState>,
    signed_in: SignedIn,
) -> Result<StatusCode, ApiError> {
    state
        .sessions
        .revoke_all(
            signed_in.player_id(),
            Some(signed_in.session.device_id),
            Vec::new(),
        )
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/link-codes`: a one-time code (and its QR code) that makes another device
/// this person; a guest's too.
pub async fn make_link_code(
    State(state): State<AppState>,
    headers: HeaderMap,
    signed_in: SignedIn,
) -> Result<(StatusCode, Json<LinkCodeInfo>), ApiError> {
    let person = signed_in.player_id();
    may_make_link_code(&state, person)?;
    let code = state.sessions.issue_link_code(person, person).await?;
    signed_in.mark_used(&state).await;
    Ok((
        StatusCode::CREATED,
        Json(link_code_info(&state, &headers, code)),
    ))
}

/// Takes one link code of `person`'s rate, or refuses it.
pub fn may_make_link_code(state: &AppState, person: Uuid) -> Result<(), ApiError> {
    if state.limiters.link_codes_per_session.allow(person) {
        Ok(())
    } else {
        Err(ApiError::limited(
            Limit::LinkCodesPerSession,
            format!(
                "{} link codes were made in the last minute; use one of them",
                state.config.limits.link_codes_per_session_per_minute
            ),
        ))
    }
}

/// A link code as the API answers it: with the address that uses it and its QR code.
pub fn link_code_info(state: &AppState, headers: &HeaderMap, code: LinkCode) -> LinkCodeInfo {
    let url = format!(
        "{}/link?code={}",
        origin(state, headers),
        code.code.replace('-', "")
    );
    LinkCodeInfo {
        qr_svg: crate::session::codes::qr_svg(&url),
        url,
        code: code.code,
        expires_at_ms: code.expires_at_ms,
    }
}

/// The address the server is reached at: its first public origin, else the request's
/// `Host` over http.
pub fn origin(state: &AppState, headers: &HeaderMap) -> String {
    if let Some(origin) = state.config.public_origin.first() {
        return origin.trim_end_matches('/').to_owned();
    }
    let host = headers
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .filter(|h| {
            h.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | ':' | '-' | '[' | ']'))
        })
        .unwrap_or("localhost");
    format!("http://{host}")
}

/// `POST /api/link`: this device becomes the code's person; its session so far is
/// signed out.
pub async fn use_link_code(
    State(state): State<AppState>,
    ClientAddress(ip): ClientAddress,
    headers: HeaderMap,
    JsonBody(request): JsonBody<UseCode>,
) -> Result<Response, ApiError> {
    may_try_code(&state, ip)?;
    let (session, token) = state
        .sessions
        .use_link_code(
            token_from(&headers).as_deref(),
            &request.code,
            &device_label(&headers),
        )
        .await
        .map_err(refused)?;
    Ok(signed_in(&state, StatusCode::OK, &session, token))
}

/// Takes one try of a one-time code from `ip`, or refuses it.
pub fn may_try_code(state: &AppState, ip: std::net::IpAddr) -> Result<(), ApiError> {
    if state.limiters.codes_per_ip.allow(AddressKey::of(ip)) {
        Ok(())
    } else {
        Err(ApiError::limited(
            Limit::CodesPerIp,
            format!(
                "this address tried {} codes in the last minute; wait a minute",
                state.config.limits.codes_per_ip_per_minute
            ),
        ))
    }
}

/// An account refusal as the API answers it.
pub(crate) fn refused(error: AccountError) -> ApiError {
    let code = match &error {
        AccountError::Username(_) => ErrorCode::BadUsername,
        AccountError::UsernameTaken => ErrorCode::UsernameTaken,
        AccountError::Password(_) => ErrorCode::WeakPassword,
        AccountError::AlreadyAccount => ErrorCode::AlreadyAccount,
        AccountError::NotAccount => ErrorCode::NotAccount,
        AccountError::BadCredentials => ErrorCode::BadCredentials,
        AccountError::Disabled => ErrorCode::AccountDisabled,
        AccountError::BadCode => ErrorCode::BadCode,
        AccountError::Busy(PasswordError::Busy | PasswordError::Failed) => ErrorCode::Unavailable,
        AccountError::Store(error) => return ApiError::internal(error),
    };
    ApiError::new(code, error.to_string())
}
