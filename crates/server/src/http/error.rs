//! The one error type of the HTTP API, mapped to `{"error":{"code","message"}}` with its
//! status. Internal details are logged, never sent.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;

use omweso_protocol::http::{ErrorBody, ErrorDetail};
use omweso_protocol::ErrorCode;

#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: ErrorCode,
    pub message: String,
}

impl ApiError {
    /// A refusal with `code`, answered with the code's status.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status: code.status(),
            code,
            message: message.into(),
        }
    }

    /// A refusal axum or hyper made with `status` and no code of ours.
    pub fn with_status(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code: ErrorCode::for_status(status),
            message: message.into(),
        }
    }

    pub fn bad_request(code: ErrorCode, message: impl Into<String>) -> ApiError {
        ApiError::new(code, message)
    }

    pub fn unauthorized() -> ApiError {
        ApiError::new(
            ErrorCode::NoSession,
            "make a session first (POST /api/session) and send its cookie or its token as a bearer",
        )
    }

    /// A device a tournament's director linked for the player `name` asked for something
    /// outside that tournament, or for what only the person's own devices do.
    pub fn limited_device(name: &str) -> ApiError {
        ApiError::new(
            ErrorCode::LimitedDevice,
            format!(
                "this device was linked by a tournament's director: it is {name} in that tournament only; sign it out to do anything else here"
            ),
        )
    }

    pub fn not_found(what: &str) -> ApiError {
        ApiError::new(ErrorCode::NotFound, format!("no such {what}"))
    }

    /// A limit of docs/security.md was reached.
    pub fn limited(limit: crate::metrics::Limit, message: impl Into<String>) -> ApiError {
        limit.refused();
        ApiError::new(ErrorCode::RateLimited, message)
    }

    /// A failure inside the server: logged in full, answered in general terms.
    pub fn internal(error: &dyn std::fmt::Display) -> ApiError {
        tracing::error!(%error, "internal error");
        ApiError::new(
            ErrorCode::Unavailable,
            "the server could not do this just now; try again",
        )
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = ErrorBody {
            error: ErrorDetail {
                code: self.code,
                message: self.message,
            },
        };
        (self.status, Json(body)).into_response()
    }
}

/// A refusal of a game, a tournament or the analysis board, answered with its code and its
/// message (held to its cap when it was made: `Refusal::new`).
impl From<omweso_protocol::refusal::Refusal> for ApiError {
    fn from(refusal: omweso_protocol::refusal::Refusal) -> ApiError {
        ApiError::new(refusal.code, refusal.message)
    }
}

impl From<crate::store::StoreError> for ApiError {
    fn from(error: crate::store::StoreError) -> ApiError {
        ApiError::internal(&error)
    }
}
