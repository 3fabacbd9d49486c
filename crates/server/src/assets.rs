//! The browser client (`web/`), served by the binary itself: read from disk in debug builds
//! (edit and reload), embedded in release builds (one file to deploy).

use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use rust_embed::RustEmbed;

#[derive(RustEmbed)]
#[folder = "../../web/"]
#[exclude = "node_modules/*"]
#[exclude = "tests/*"]
#[exclude = "test-artifacts/*"]
#[exclude = "package.json"]
#[exclude = "package-lock.json"]
#[exclude = "tsconfig.json"]
#[exclude = ".*"]
struct Web;

fn file(path: &str, cache: &'static str) -> Response {
    match Web::get(path) {
        Some(content) => (
            [
                (header::CONTENT_TYPE, content.metadata.mimetype().to_owned()),
                (header::CACHE_CONTROL, cache.to_owned()),
                (header::X_CONTENT_TYPE_OPTIONS, "nosniff".to_owned()),
            ],
            content.data,
        )
            .into_response(),
        None => (StatusCode::NOT_FOUND, "not found").into_response(),
    }
}

/// The one page (`/` and `/g/{id}`); it routes on the path itself.
pub async fn page() -> Response {
    file("index.html", "no-cache")
}

/// `/static/{*path}`: the page's scripts, styles and images.
pub async fn asset(axum::extract::Path(path): axum::extract::Path<String>) -> Response {
    if path.split('/').any(|part| part == "..") {
        return (StatusCode::NOT_FOUND, "not found").into_response();
    }
    // Revalidated every time: the files are small and a stale script after an upgrade
    // would speak the wrong protocol.
    file(&path, "no-cache")
}
