//! An account's e-mail address and password reset by mail over HTTP
//! (docs/protocol.md#e-mail-and-password-reset), over `crate::people::email` and
//! `crate::mail`. Every call but `GET /api/account` and `DELETE /api/account/email` is
//! refused with `409 email_off` when the server sends no mail. A request only queues its
//! mail: SMTP never holds it up.

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use axum::routing::{get, post, put};
use axum::{Json, Router};

use crate::address::AddressKey;
use crate::http::codes::may_try_code;
use crate::http::error::ApiError;
use crate::http::extract::{ClientAddress, JsonBody};
use crate::mail::{parse_address, Mail, MailError};
use crate::metrics::Limit;
use crate::people::accounts_api::{logged_in, may_check_password, password_checked, refused};
use crate::people::extract::SignedIn;
use crate::people::names::username_key;
use crate::people::password_turn::password_turn;
use crate::people::{device_label, token_from};
use crate::state::AppState;
use omweso_protocol::accounts::{AccountInfo, EmailChange, EmailReset, EmailResetConfirm, UseCode};
use omweso_protocol::ErrorCode;

/// The routes of this file, merged into the server's router.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/account", get(account))
        .route("/api/account/email", put(set_email).delete(remove_email))
        .route("/api/account/email/verify", post(verify_email))
        .route("/api/login/email-reset", post(ask_reset))
        .route("/api/login/email-reset/confirm", post(confirm_reset))
}

/// `GET /api/account`: the username, address and joining date (a guest has no username or
/// address), and whether the server sends mail: what the account page needs. Open without
/// a session too (a visitor who forgot their password asks whether a reset can be
/// mailed): then only `email_enabled` says anything.
pub async fn account(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Json<AccountInfo>, ApiError> {
    let signed_in = crate::people::extract::signed_in(&state, &headers)
        .await
        .ok();
    let person = match &signed_in {
        Some(signed_in) => state.store.person(signed_in.player_id()).await?,
        None => None,
    };
    let email_enabled = state.mailer.enabled();
    Ok(Json(match person {
        Some(p) => AccountInfo {
            email_verified: p.email.is_some() && p.email_verified_at_ms.is_some(),
            username: p.username,
            email: p.email,
            member_since_ms: Some(p.created_at_ms),
            email_enabled,
        },
        None => AccountInfo {
            username: None,
            email: None,
            email_verified: false,
            member_since_ms: None,
            email_enabled,
        },
    }))
}

/// `PUT /api/account/email`: stores the address, unverified, and mails it the link that
/// verifies it. Needs the account's password (a stolen session must not be able to point
/// the account's resets at another mailbox). 204.
pub async fn set_email(
    State(state): State<AppState>,
    ClientAddress(ip): ClientAddress,
    signed_in: SignedIn,
    JsonBody(request): JsonBody<EmailChange>,
) -> Result<StatusCode, ApiError> {
    mail_is_on(&state)?;
    let address = parse_address(&request.email)
        .map_err(|message| ApiError::new(ErrorCode::BadEmail, message))?;
    let username = signed_in.session.username.clone().unwrap_or_default();
    let attempt = may_check_password(&state, ip, &signed_in)?;
    if let Err(refusal) = may_mail(&state, ip, &username) {
        attempt.succeeded();
        return Err(refusal);
    }
    let _turn = password_turn(&state, ip, Some(signed_in.player_id())).await?;
    let result = state
        .sessions
        .set_email(&signed_in.session, &address, &request.password)
        .await;
    let made = password_checked(attempt, result)?;
    let link = state.mailer.link(&format!("/account?verify={}", made.code));
    let username = &made.username;
    state
        .mailer
        .send(Mail {
            to: address,
            subject: "Omweso: confirm your e-mail address".to_owned(),
            body: format!(
                "Hello {username},\n\n\
                 Open this link to confirm that this is your address on Omweso:\n\n\
                 {link}\n\n\
                 It works once, for 24 hours. Once confirmed, you can have a link to set a new\n\
                 password sent here if you forget yours.\n\n\
                 If you did not ask for this, ignore this mail: nothing is sent here again\n\
                 unless the address is confirmed.\n"
            ),
        })
        .map_err(not_sent)?;
    Ok(StatusCode::NO_CONTENT)
}

/// `DELETE /api/account/email`: forgets the address (and its links). Works with mail off
/// too: what is stored can always be removed. 204.
pub async fn remove_email(
    State(state): State<AppState>,
    signed_in: SignedIn,
) -> Result<StatusCode, ApiError> {
    state
        .sessions
        .remove_email(&signed_in.session)
        .await
        .map_err(refused)?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/account/email/verify`: the code of the mailed link verifies the address,
/// from whatever device opened it (no session needed: the code proves the mailbox). 204.
pub async fn verify_email(
    State(state): State<AppState>,
    ClientAddress(ip): ClientAddress,
    JsonBody(request): JsonBody<UseCode>,
) -> Result<StatusCode, ApiError> {
    mail_is_on(&state)?;
    may_try_code(&state, ip)?;
    state
        .sessions
        .verify_email(&request.code)
        .await
        .map_err(refused)?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/login/email-reset`: mails a reset link to the account's verified address.
/// Always 202 once allowed, whether or not the account or an address exists, so that the
/// answer tells nobody which usernames have one.
pub async fn ask_reset(
    State(state): State<AppState>,
    ClientAddress(ip): ClientAddress,
    JsonBody(request): JsonBody<EmailReset>,
) -> Result<StatusCode, ApiError> {
    mail_is_on(&state)?;
    may_mail(&state, ip, &request.username)?;
    match state.sessions.issue_reset(&request.username).await {
        Ok(Some(made)) => match parse_address(&made.email) {
            Ok(to) => {
                let link = state.mailer.link(&format!("/account?reset={}", made.code));
                let username = &made.username;
                let mail = Mail {
                    to,
                    subject: "Omweso: set a new password".to_owned(),
                    body: format!(
                        "Hello {username},\n\n\
                         Someone, probably you, asked to set a new password for this account.\n\
                         Open this link to choose one:\n\n\
                         {link}\n\n\
                         It works once, for 30 minutes, and signs the account out on every\n\
                         device. If you did not ask for this, ignore this mail: your password\n\
                         stays as it is.\n"
                    ),
                };
                // Queue full: the person asks again; the answer stays the same.
                let _ = state.mailer.send(mail);
            }
            Err(error) => tracing::warn!(%error, "a stored e-mail address does not read"),
        },
        Ok(None) => {}
        Err(error) => return Err(ApiError::internal(&error)),
    }
    Ok(StatusCode::ACCEPTED)
}

/// `POST /api/login/email-reset/confirm`: a new password with the reset link's code; every
/// device of the account is signed out and this one logs in (answered like log-in).
pub async fn confirm_reset(
    State(state): State<AppState>,
    ClientAddress(ip): ClientAddress,
    headers: HeaderMap,
    JsonBody(request): JsonBody<EmailResetConfirm>,
) -> Result<Response, ApiError> {
    mail_is_on(&state)?;
    may_try_code(&state, ip)?;
    let _turn = password_turn(&state, ip, None).await?;
    let (session, token) = state
        .sessions
        .reset_password(
            token_from(&headers).as_deref(),
            &request.code,
            &request.password,
            &device_label(&headers),
        )
        .await
        .map_err(refused)?;
    Ok(logged_in(&state, &headers, &session, token).await)
}

/// Refuses an e-mail call when the server sends no mail.
fn mail_is_on(state: &AppState) -> Result<(), ApiError> {
    if state.mailer.enabled() {
        Ok(())
    } else {
        Err(ApiError::new(
            ErrorCode::EmailOff,
            MailError::Off.to_string(),
        ))
    }
}

/// Takes one mail of `ip`'s rate and of `username`'s (counted whether or not the account
/// exists, so that a refusal tells nothing either), or refuses it.
fn may_mail(state: &AppState, ip: std::net::IpAddr, username: &str) -> Result<(), ApiError> {
    let limits = &state.config.limits;
    if !state.limiters.mails_per_ip.allow(AddressKey::of(ip)) {
        return Err(ApiError::limited(
            Limit::MailsPerIp,
            format!(
                "this address asked for {} mails in the last hour; try again later",
                limits.mails_per_ip_per_hour
            ),
        ));
    }
    if !state
        .limiters
        .mails_per_account
        .allow(username_key(username.trim()))
    {
        return Err(ApiError::limited(
            Limit::MailsPerAccount,
            format!(
                "{} mails were asked for this account in the last hour; use the last one, or try again later",
                limits.mails_per_account_per_hour
            ),
        ));
    }
    Ok(())
}

/// A mail the queue refused.
fn not_sent(error: MailError) -> ApiError {
    match error {
        MailError::Off => ApiError::new(ErrorCode::EmailOff, error.to_string()),
        MailError::Busy => ApiError::new(ErrorCode::Unavailable, error.to_string()),
    }
}
