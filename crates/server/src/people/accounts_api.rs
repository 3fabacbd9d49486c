//! Persons, accounts and devices over HTTP (docs/protocol.md#persons-accounts-and-devices-addition):
//! guest sessions, sign-up, log-in, recovery, the devices list, link codes and the name.
//! Each answer that signs a device in sets the session cookie; the same token comes in the
//! body for clients that send it as a bearer.

use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use uuid::Uuid;

use crate::address::AddressKey;
use crate::http::codes::try_code;
use crate::http::error::ApiError;
use crate::http::extract::{ClientAddress, JsonBody};
use crate::http::failures::Attempt;
use crate::metrics::Limit;
use crate::people::accounts::{AccountError, LinkCode};
use crate::people::extract::{AnySession, SignedIn};
use crate::people::known_devices;
use crate::people::names::username_key;
use crate::people::password::PasswordError;
use crate::people::password_turn::password_turn;
use crate::people::{device_label, token_from, CreateError, Session, COOKIE};
use crate::state::AppState;
use omweso_protocol::accounts::{
    AccountCreated, Credentials, DeviceInfo, DeviceList, LinkCodeInfo, Linked, PasswordChange,
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
    let body = info(session, Some(token.clone()));
    with_session_cookie(state, status, &token, body)
}

/// The answer that signs a device in to an account by its password or a code (a log-in,
/// a recovery, a password reset by mail): the session, and the device marked as one that
/// logged in to that person (`known_devices`), so that wrong passwords tried elsewhere do
/// not hold it back.
pub(crate) async fn logged_in(
    state: &AppState,
    headers: &HeaderMap,
    session: &Session,
    token: String,
) -> Response {
    let mut answer = signed_in(state, StatusCode::OK, session, token);
    known_devices::mark(state, headers, session.player_id, &mut answer).await;
    answer
}

/// `body` answered with `status` and the cookie of the session `token`.
fn with_session_cookie(
    state: &AppState,
    status: StatusCode,
    token: &str,
    body: impl serde::Serialize,
) -> Response {
    let cookie = session_cookie(state, token, "Max-Age=31536000");
    (status, [(header::SET_COOKIE, cookie)], Json(body)).into_response()
}

fn info(session: &Session, token: Option<String>) -> SessionInfo {
    SessionInfo {
        token,
        player_id: session.player_id,
        name: session.name.clone(),
        username: session.username.clone(),
        device_id: Some(session.device_id),
        only_tournament: session.only_tournament,
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

/// `GET /api/me`: who the request is made as (a limited device too: it learns which
/// tournament it is limited to).
pub async fn me(AnySession(signed_in): AnySession) -> Json<SessionInfo> {
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
    let name = crate::people::names::clean_name(Some(&request.name))
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
    state.their_tournaments().carry_rename(person, &name).await;
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
    let _turn = password_turn(&state, ip, None).await?;
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
    let session = &made.session;
    let body = AccountCreated {
        token: made.token.clone(),
        player_id: session.player_id,
        name: session.name.clone(),
        username: session.username.clone().unwrap_or_default(),
        device_id: session.device_id,
        recovery_codes: made.recovery_codes,
    };
    let mut answer = with_session_cookie(&state, StatusCode::CREATED, &made.token, body);
    known_devices::mark(&state, &headers, session.player_id, &mut answer).await;
    Ok(answer)
}

/// Takes one log-in, recovery or password-change attempt from `ip`, or refuses it: the
/// per-address bound, counted before any password is checked.
pub(crate) fn may_try_from(state: &AppState, ip: std::net::IpAddr) -> Result<(), ApiError> {
    if state.limiters.logins_per_ip.allow(AddressKey::of(ip)) {
        return Ok(());
    }
    Err(ApiError::limited(
        Limit::LoginsPerIp,
        format!(
            "this address tried to log in {} times in the last minute; wait a minute",
            state.config.limits.logins_per_ip_per_minute
        ),
    ))
}

/// Takes one log-in's place among the wrong passwords it may still try: the device's own,
/// when it carries the mark of having logged in to this account before, else the
/// account's (whatever the address). Only a wrong password keeps its place; so an
/// attacker who spends the account's places holds back devices that never logged in to
/// it, never the owner's.
async fn may_try_password(
    state: &AppState,
    headers: &HeaderMap,
    username: &str,
) -> Result<Attempt<String>, ApiError> {
    let limiters = &state.limiters;
    if let Some(mark) = known_devices::mark_of(state, headers, username).await {
        return limiters
            .login_failures_per_known_device
            .try_take(mark)
            .ok_or_else(|| {
                ApiError::limited(
                    Limit::LoginsPerKnownDevice,
                    format!(
                        "this device had {} wrong passwords for this account in the last hour; wait, or use a recovery code",
                        limiters.login_failures_per_known_device.per_hour()
                    ),
                )
            });
    }
    limiters
        .login_failures_per_account
        .try_take(username_key(username.trim()))
        .ok_or_else(|| {
            ApiError::limited(
                Limit::LoginsPerAccount,
                format!(
                    "this account had {} wrong passwords in the last hour: log in from a device you used before, use a recovery code or a link code from one of your devices, or wait",
                    limiters.login_failures_per_account.per_hour()
                ),
            )
        })
}

/// Takes one check of a signed-in device's password (a change, new recovery codes, an
/// e-mail address): per address, and among the device's own wrong passwords, so that a
/// stolen session cannot guess the password without bound and nobody else's guesses hold
/// the owner back.
pub(crate) fn may_check_password(
    state: &AppState,
    ip: std::net::IpAddr,
    signed_in: &SignedIn,
) -> Result<Attempt<Uuid>, ApiError> {
    may_try_from(state, ip)?;
    let failures = &state.limiters.password_failures_per_device;
    failures
        .try_take(signed_in.session.device_id)
        .ok_or_else(|| {
            ApiError::limited(
                Limit::PasswordChecksPerDevice,
                format!(
                    "this device had {} wrong passwords in the last hour; wait, or use a recovery code",
                    failures.per_hour()
                ),
            )
        })
}

/// `result` of a password check taken by `attempt`: only a wrong password keeps its place.
pub(crate) fn password_checked<K, T>(
    attempt: Attempt<K>,
    result: Result<T, AccountError>,
) -> Result<T, ApiError>
where
    K: std::hash::Hash + Eq + Clone,
{
    match result {
        Err(AccountError::BadCredentials) => {
            drop(attempt);
            Err(refused(AccountError::BadCredentials))
        }
        other => {
            attempt.succeeded();
            other.map_err(refused)
        }
    }
}

/// `POST /api/login`: a new device of the account. The device's session so far is
/// signed out; the device is marked as having logged in to the account.
pub async fn log_in(
    State(state): State<AppState>,
    ClientAddress(ip): ClientAddress,
    headers: HeaderMap,
    JsonBody(request): JsonBody<Credentials>,
) -> Result<Response, ApiError> {
    may_try_from(&state, ip)?;
    let attempt = may_try_password(&state, &headers, &request.username).await?;
    let _turn = password_turn(&state, ip, None).await?;
    let result = state
        .sessions
        .log_in(
            token_from(&headers).as_deref(),
            &request.username,
            &request.password,
            &device_label(&headers),
        )
        .await;
    let (session, token) = password_checked(attempt, result)?;
    Ok(logged_in(&state, &headers, &session, token).await)
}

/// `POST /api/login/recovery`: a new password with a recovery code; every other device
/// of the account is signed out. Bounded per address only: a code is 80 bits, beyond any
/// guessing (docs/security.md#accounts), and a bound per account would let anyone who
/// knows the username lock its owner out of their own codes.
pub async fn recover(
    State(state): State<AppState>,
    ClientAddress(ip): ClientAddress,
    headers: HeaderMap,
    JsonBody(request): JsonBody<Recovery>,
) -> Result<Response, ApiError> {
    may_try_from(&state, ip)?;
    let _turn = password_turn(&state, ip, None).await?;
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
    Ok(logged_in(&state, &headers, &session, token).await)
}

/// `PUT /api/account/password`: 204; the account's other devices are signed out.
pub async fn change_password(
    State(state): State<AppState>,
    ClientAddress(ip): ClientAddress,
    signed_in: SignedIn,
    JsonBody(request): JsonBody<PasswordChange>,
) -> Result<StatusCode, ApiError> {
    let attempt = may_check_password(&state, ip, &signed_in)?;
    let _turn = password_turn(&state, ip, Some(signed_in.player_id())).await?;
    let result = state
        .sessions
        .change_password(&signed_in.session, &request.current, &request.password)
        .await;
    password_checked(attempt, result)?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/account/recovery-codes`: a new set; the old ones stop working.
pub async fn renew_recovery_codes(
    State(state): State<AppState>,
    ClientAddress(ip): ClientAddress,
    signed_in: SignedIn,
    JsonBody(request): JsonBody<PasswordOnly>,
) -> Result<Json<RecoveryCodes>, ApiError> {
    let attempt = may_check_password(&state, ip, &signed_in)?;
    let _turn = password_turn(&state, ip, Some(signed_in.player_id())).await?;
    let result = state
        .sessions
        .renew_recovery_codes(&signed_in.session, &request.password)
        .await;
    let recovery_codes = password_checked(attempt, result)?;
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
            only_tournament: d.tournament_id,
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
    let code = state.sessions.issue_link_code(person, person, None).await?;
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
        qr_svg: crate::people::codes::qr_svg(&url),
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

/// `POST /api/link`: a link code makes this device the code's person (its session so far
/// is signed out); a director's code, made for a tournament's player, makes it that
/// player in that tournament only, and the answer says where the player is now. A relay
/// invite's code is found, not used: the answer names its table and the relay's page,
/// which claims it. Every code typed here counts in the server's wrong codes when wrong.
pub async fn use_link_code(
    State(state): State<AppState>,
    ClientAddress(ip): ClientAddress,
    headers: HeaderMap,
    JsonBody(request): JsonBody<UseCode>,
) -> Result<Response, ApiError> {
    let tried = try_code(&state, ip, None)?;
    let answer = link_or_relay(&state, &headers, &request.code).await;
    tried.answered(&answer);
    answer
}

async fn link_or_relay(
    state: &AppState,
    headers: &HeaderMap,
    typed: &str,
) -> Result<Response, ApiError> {
    let linked = state
        .sessions
        .use_link_code(
            token_from(headers).as_deref(),
            typed,
            &device_label(headers),
        )
        .await
        .map_err(refused)?;
    let Some((session, token)) = linked else {
        let relay = state.their_tournaments().relay_invite(typed).await?;
        return Ok(Json(Linked::Relay(relay)).into_response());
    };
    let place = match session.only_tournament {
        Some(tournament) => {
            state
                .their_tournaments()
                .linked_player_place(tournament, session.player_id)
                .await
        }
        None => None,
    };
    let body = Linked::Device {
        session: info(&session, Some(token.clone())),
        place,
    };
    Ok(with_session_cookie(state, StatusCode::OK, &token, body))
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
        AccountError::LimitedDevice(_) => ErrorCode::LimitedDevice,
        AccountError::Busy(PasswordError::Busy | PasswordError::Failed) => ErrorCode::Unavailable,
        AccountError::Store(error) => return ApiError::internal(error),
    };
    ApiError::new(code, error.to_string())
}
