//! The one error type of the HTTP API, mapped to `{"error":{"code","message"}}` with its
//! status. Internal details are logged, never sent.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;

#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: &'static str,
    pub message: String,
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
        }
    }

    pub fn bad_request(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, code, message)
    }

    pub fn unauthorized() -> ApiError {
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            "no_session",
            "make a session first (POST /api/session) and send its cookie or its token as a bearer",
        )
    }

    pub fn not_found(what: &str) -> ApiError {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "not_found",
            format!("no such {what}"),
        )
    }

    /// A limit of docs/security.md was reached.
    pub fn limited(limit: crate::metrics::Limit, message: impl Into<String>) -> ApiError {
        limit.refused();
        ApiError::new(StatusCode::TOO_MANY_REQUESTS, "rate_limited", message)
    }

    /// A failure inside the server: logged in full, answered in general terms.
    pub fn internal(error: &dyn std::fmt::Display) -> ApiError {
        tracing::error!(%error, "internal error");
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "unavailable",
            "the server could not do this just now; try again",
        )
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({"error": {"code": self.code, "message": self.message}});
        (self.status, Json(body)).into_response()
    }
}

impl From<crate::store::StoreError> for ApiError {
    fn from(error: crate::store::StoreError) -> ApiError {
        ApiError::internal(&error)
    }
}
