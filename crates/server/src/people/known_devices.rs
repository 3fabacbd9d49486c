//! A device's mark that it logged in to an account (docs/security.md#accounts): a random
//! key in an HttpOnly cookie sent only to the log-in calls, stored as its SHA-256 with
//! whose it is. Wrong passwords tried from elsewhere hold back devices without the mark
//! (the account's bound); a device with it logs in within a bound of its own. So someone
//! who knows a username (it is public) and spends its tries does not lock its owner out
//! of the phone they always use.

use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::Response;
use rand::RngCore;
use uuid::Uuid;

use crate::state::AppState;
use crate::store::{hash_token, KnownDeviceRow};

/// The cookie holding the mark.
pub const COOKIE: &str = "omweso_known";

/// The mark's key a request carries, if any.
fn key_from(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, v)| *k == COOKIE && !v.is_empty() && v.len() <= 128)
        .map(|(_, v)| v.to_owned())
}

/// The hash of the request's mark and whose it is, if it carries one that is stored. A
/// mark not read counts as none: the account's own bound applies.
async fn marked(state: &AppState, headers: &HeaderMap) -> Option<(String, Uuid)> {
    let hash = hash_token(&key_from(headers)?);
    match state.sessions.store().known_device(&hash).await {
        Ok(owner) => owner.map(|owner| (hash, owner)),
        Err(error) => {
            tracing::warn!(%error, "could not read a device's mark");
            None
        }
    }
}

/// The hash of the request's mark when it is the mark of the account `username`: the key
/// its own bound counts by. Read only when the request carries a mark.
pub async fn mark_of(state: &AppState, headers: &HeaderMap, username: &str) -> Option<String> {
    let (hash, owner) = marked(state, headers).await?;
    match state.sessions.person_by_username(username).await {
        Ok(Some(person)) if person.id == owner => Some(hash),
        Ok(_) => None,
        Err(error) => {
            tracing::warn!(%error, "could not read the account a device's mark names");
            None
        }
    }
}

/// Marks the device that just signed in to `person`'s account (`answer` sets the
/// cookie), unless it carries that person's mark already. A mark not written is logged:
/// the device is signed in either way.
pub async fn mark(state: &AppState, headers: &HeaderMap, person: Uuid, answer: &mut Response) {
    if marked(state, headers)
        .await
        .is_some_and(|(_, owner)| owner == person)
    {
        return;
    }
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    let key = hex::encode(bytes);
    let row = KnownDeviceRow {
        key_hash: hash_token(&key),
        person_id: person,
        created_at_ms: i64::try_from(omweso_protocol::clock::now_ms()).unwrap_or(i64::MAX),
    };
    let written = state.sessions.mark_device(row).await;
    if let Err(error) = written {
        tracing::warn!(%error, "could not store a device's mark");
        return;
    }
    let secure = if crate::http::edge::served_over_https(&state.config) {
        "; Secure"
    } else {
        ""
    };
    let cookie = format!(
        "{COOKIE}={key}; Path=/api/login; HttpOnly; SameSite=Lax; Max-Age={}{secure}",
        crate::store::rows::KNOWN_DEVICE_DAYS * 24 * 60 * 60
    );
    if let Ok(value) = HeaderValue::from_str(&cookie) {
        answer.headers_mut().append(header::SET_COOKIE, value);
    }
}
