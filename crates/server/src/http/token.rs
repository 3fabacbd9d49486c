//! The session token a request carries: the edge reads it the same way for every
//! concern (the people's extractors, a request forwarded to another node).

use axum::http::HeaderMap;

/// The session cookie's name.
pub const COOKIE: &str = "omweso_session";

/// The token a request carries: `Authorization: Bearer`, else the session cookie.
#[must_use]
pub fn token_from(headers: &HeaderMap) -> Option<String> {
    if let Some(bearer) = headers
        .get(axum::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
    {
        return Some(bearer.trim().to_owned());
    }
    headers
        .get_all(axum::http::header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == COOKIE)
        .map(|(_, v)| v.to_owned())
}
