//! What a request names that is no concern's own, read once for every handler (axum
//! extractors): an id as the server writes it, its JSON body and its client's address.
//! Each concern has its own beside its routes: the session (`people::extract`), the game
//! (`game::extract`), the tournament (`tournament::extract`). Each refuses as the API
//! documents (`no_session`, `not_found`, `bad_body`), so a handler starts from what it
//! needs and says only what is its own.

use axum::extract::{FromRequest, FromRequestParts, RawPathParams, Request};
use axum::http::request::Parts;
use axum::response::{IntoResponse, Response};
use uuid::Uuid;

use crate::http::accept::ClientIp;
use crate::http::edge_state::EdgeState;
use crate::http::error::ApiError;
use omweso_protocol::ErrorCode;

/// An id as the server writes it: lowercase and hyphenated. Other spellings of the same
/// UUID (braces, `urn:uuid:`, no hyphens, capitals) are not found, so that everything has
/// one address.
pub fn id_as_written(text: &str, what: &str) -> Result<Uuid, ApiError> {
    match text.parse::<Uuid>() {
        Ok(id) if id.hyphenated().to_string() == text => Ok(id),
        _ => Err(ApiError::not_found(what)),
    }
}

/// The `{id}` of the request's path.
pub(crate) async fn path_id<S: Send + Sync>(
    parts: &mut Parts,
    state: &S,
    what: &str,
) -> Result<Uuid, ApiError> {
    let params = RawPathParams::from_request_parts(parts, state)
        .await
        .map_err(|_| ApiError::not_found(what))?;
    let text = params
        .iter()
        .find_map(|(name, value)| (name == "id").then_some(value))
        .ok_or_else(|| ApiError::not_found(what))?;
    id_as_written(text, what)
}

/// A room changing hands between nodes (docs/scaling.md): asked again in a moment, it is
/// answered by the node holding it.
pub(crate) fn moving() -> ApiError {
    ApiError::new(
        omweso_protocol::ErrorCode::Unavailable,
        "this game or tournament is moving to another server; try again in a moment",
    )
}

/// A JSON body of `T`, answering a 400 (`bad_body`) that says what is wrong. An empty
/// body reads as `{}`, so a call whose fields are all optional needs none.
pub struct JsonBody<T>(pub T);

impl<S: EdgeState, T: serde::de::DeserializeOwned> FromRequest<S> for JsonBody<T> {
    /// A body too long or cut off is axum's refusal, which the edge gives the JSON error
    /// body of every refusal (`edge::json_refusals`).
    type Rejection = Response;

    async fn from_request(request: Request, state: &S) -> Result<Self, Response> {
        let bytes = axum::body::Bytes::from_request(request, state)
            .await
            .map_err(|rejection| {
                // A body that passed the bytes being received at once is refused as the
                // edge refuses it, not as a bad body.
                match crate::http::body_budget::over_budget(&rejection) {
                    Some(over) => crate::http::edge::over_body_budget(state, over).into_response(),
                    None => rejection.into_response(),
                }
            })?;
        body(&bytes)
            .map(JsonBody)
            .map_err(IntoResponse::into_response)
    }
}

/// Parses a JSON body, answering a 400 that says what is wrong.
pub(crate) fn body<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    let read = if bytes.iter().all(u8::is_ascii_whitespace) {
        serde_json::from_str("{}")
    } else {
        serde_json::from_slice(bytes)
    };
    read.map_err(|e| ApiError::bad_request(ErrorCode::BadBody, e.to_string()))
}

/// The client's address (set by the accept loop; unspecified for a router served some
/// other way, which then shares one budget).
pub struct ClientAddress(pub std::net::IpAddr);

impl<S: Send + Sync> FromRequestParts<S> for ClientAddress {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        let ip = parts.extensions.get::<ClientIp>().copied();
        Ok(ClientAddress(client_ip(ip.map(axum::Extension))))
    }
}

/// The client's address from the accept loop's extension (unspecified without one).
pub fn client_ip(ip: Option<axum::Extension<ClientIp>>) -> std::net::IpAddr {
    ip.map_or(std::net::IpAddr::from([0, 0, 0, 0]), |ip| ip.0 .0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_is_found_only_as_the_server_writes_it() {
        let id = Uuid::now_v7();
        let written = id.hyphenated().to_string();
        assert_eq!(id_as_written(&written, "game").unwrap(), id);
        for other in [
            written.to_uppercase(),
            format!("{{{written}}}"),
            format!("urn:uuid:{written}"),
            id.simple().to_string(),
            "nope".to_owned(),
        ] {
            let refusal = id_as_written(&other, "tournament").unwrap_err();
            assert_eq!(refusal.code, ErrorCode::NotFound, "{other}");
            assert_eq!(refusal.message, "no such tournament");
        }
    }

    #[test]
    fn an_empty_body_reads_as_an_empty_object_and_a_bad_one_says_why() {
        #[derive(serde::Deserialize, Debug, PartialEq)]
        struct Named {
            name: Option<String>,
        }
        assert_eq!(body::<Named>(b" \n").unwrap(), Named { name: None });
        let refusal = body::<Named>(b"{\"name\": 3}").unwrap_err();
        assert_eq!(refusal.code, ErrorCode::BadBody);
        assert!(
            refusal.message.starts_with("invalid type: integer `3`"),
            "{}",
            refusal.message
        );
    }
}
