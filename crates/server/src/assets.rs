//! The browser client (`web/`), served by the binary itself: read from disk in debug builds
//! (edit and reload), embedded in release builds (one file to deploy).
//!
//! For a phone on a slow line: every text file is sent compressed (brotli or gzip, as the
//! browser accepts; compressed once, `compressed`), the page's files under a versioned URL
//! (`/static/v/<version>/<path>`, `site`) that the browser keeps for a year without asking
//! again, and the page itself revalidated each time (an `ETag`, answered `304`) and carrying
//! preload hints for its route (`page`). The unversioned `/static/<path>` still serves
//! every file, revalidated each time.

mod compressed;
mod imports;
mod negotiate;
mod page;
mod site;

use axum::extract::Path;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode, Uri};
use axum::response::{IntoResponse, Response};

use compressed::Served;

/// A versioned file never changes: any cache may keep it for a year, and need not ask.
const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// Kept, but asked about before each use (a `304` when unchanged).
const REVALIDATE: &str = "no-cache";

/// Compresses every file ahead of the first visitors, one at a time in the background: in
/// a release build, whose files are fixed (about a second of one core at brotli's best). A
/// debug build compresses each file when first asked: tests start many servers.
pub fn warm() {
    if cfg!(debug_assertions) {
        return;
    }
    tokio::spawn(async {
        for path in site::paths() {
            if let Some(file) = site::file(&path) {
                compressed::served(&path, &file.mime, file.content).await;
            }
        }
    });
}

/// The one page (`/`, `/g/{id}`, `/t/{id}`, `/analysis`); it routes on the path itself.
pub async fn page(uri: Uri, headers: HeaderMap) -> Response {
    let Some(template) = site::file("index.html") else {
        return not_found();
    };
    let site = site::current(true);
    let html = page::render(
        &String::from_utf8_lossy(&template.content),
        &site,
        uri.path(),
    );
    // The name keeps the pages of different routes apart in the cache of compressed forms.
    let kind = format!("page:{}", uri.path().split('/').nth(1).unwrap_or(""));
    let served = compressed::served(&kind, &template.mime, html.into()).await;
    respond(&served, &headers, REVALIDATE)
}

/// `/static/{*path}`: the page's scripts, styles and images; `/static/v/{version}/{*path}`
/// the same files under the current version, kept for a year.
pub async fn asset(Path(path): Path<String>, headers: HeaderMap) -> Response {
    let (path, cache) = match path
        .strip_prefix("v/")
        .and_then(|rest| rest.split_once('/'))
    {
        // A page of an older version (a server upgraded under it) may still ask for its
        // files: it gets today's, revalidated, so that no cache keeps them as that version's.
        Some((version, rest)) if version == site::current(false).version => (rest, IMMUTABLE),
        Some((_, rest)) => (rest, REVALIDATE),
        None => (path.as_str(), REVALIDATE),
    };
    if !safe(path) {
        return not_found();
    }
    let Some(file) = site::file(path) else {
        return not_found();
    };
    let served = compressed::served(path, &file.mime, file.content).await;
    respond(&served, &headers, cache)
}

/// A path of plain names: no `..` (nor `.`), no empty part, no backslash or NUL.
fn safe(path: &str) -> bool {
    !path.is_empty()
        && path.split('/').all(|part| {
            !part.is_empty() && part != "." && part != ".." && !part.contains(['\\', '\0'])
        })
}

fn not_found() -> Response {
    (StatusCode::NOT_FOUND, "not found").into_response()
}

/// `served` in the coding the request accepts, or `304` when the request's
/// `If-None-Match` already names it.
fn respond(served: &Served, request: &HeaderMap, cache: &'static str) -> Response {
    let mut headers = HeaderMap::new();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    if let Ok(etag) = HeaderValue::from_str(&served.etag) {
        headers.insert(header::ETAG, etag);
    }
    if not_modified(request, &served.etag) {
        return (StatusCode::NOT_MODIFIED, headers).into_response();
    }
    let accept = request
        .get(header::ACCEPT_ENCODING)
        .and_then(|value| value.to_str().ok());
    let (body, encoding) = served.body(negotiate::preferred(accept));
    if let Ok(mime) = HeaderValue::from_str(&served.mime) {
        headers.insert(header::CONTENT_TYPE, mime);
    }
    if let Some(coding) = encoding.header() {
        headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static(coding));
    }
    (headers, body).into_response()
}

/// Does `If-None-Match` name `etag` (or say `*`)? Compared weakly (RFC 9110 13.1.2): the
/// `W/` prefixes are ignored.
fn not_modified(request: &HeaderMap, etag: &str) -> bool {
    let ours = etag.trim_start_matches("W/");
    request
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .map(str::trim)
        .any(|tag| tag == "*" || tag.trim_start_matches("W/") == ours)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_paths_are_served() {
        for path in ["app.js", "img/icon.svg", "a.b.js"] {
            assert!(safe(path), "{path}");
        }
        for path in [
            "",
            "../Cargo.toml",
            "a/../b",
            "./app.js",
            "a//b",
            "/etc/passwd",
            "a\\b",
            "a\0b",
            "a/",
        ] {
            assert!(!safe(path), "{path:?}");
        }
    }

    #[test]
    fn if_none_match_is_compared_weakly() {
        let with = |value: &str| {
            let mut headers = HeaderMap::new();
            headers.insert(header::IF_NONE_MATCH, HeaderValue::from_str(value).unwrap());
            headers
        };
        let etag = "W/\"abc\"";
        assert!(not_modified(&with("W/\"abc\""), etag));
        assert!(not_modified(&with("\"abc\""), etag));
        assert!(not_modified(&with("\"x\", W/\"abc\""), etag));
        assert!(not_modified(&with("*"), etag));
        assert!(!not_modified(&with("W/\"abd\""), etag));
        assert!(!not_modified(&with("abc"), etag));
        assert!(!not_modified(&HeaderMap::new(), etag));
    }
}
