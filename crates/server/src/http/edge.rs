//! What every HTTP request passes through before and after its handler: the time limit,
//! the Origin and content-type checks on calls that change state (cross-site request
//! forgery), the security headers of every answer, and a JSON error body on every refusal
//! (axum's own rejections, 404s and 405s included), as docs/protocol.md promises.

use std::time::Duration;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Router;
use tower_http::set_header::SetResponseHeaderLayer;

use crate::address::AddressKey;
use crate::config::ServeConfig;
use crate::http::accept::ClientIp;
use crate::http::body_budget::Over;
use crate::http::edge_state::EdgeState;
use crate::http::error::ApiError;
use crate::metrics::Limit;
use omweso_protocol::ErrorCode;

/// Pages may load only this server's own scripts, styles and images, talk only to it, and
/// may not be framed (clickjacking).
const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
     style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; \
     object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// The most of a plain-text refusal's body kept as its JSON message.
const MESSAGE_MAX: usize = 512;

/// Is `origin` this server's own (the request's host, over http or https) or one of the
/// configured public origins? The scheme is part of the origin: `x://host` is not ours.
#[must_use]
pub fn origin_allowed(config: &ServeConfig, headers: &HeaderMap, origin: &str) -> bool {
    let origin = origin.trim_end_matches('/');
    if config
        .public_origin
        .iter()
        .any(|allowed| allowed.trim_end_matches('/') == origin)
    {
        return true;
    }
    let Some(host) = headers.get(header::HOST).and_then(|h| h.to_str().ok()) else {
        return false;
    };
    let Some((scheme, origin_host)) = origin.split_once("://") else {
        return false;
    };
    matches!(scheme, "http" | "https") && origin_host.eq_ignore_ascii_case(host)
}

/// Is the public origin https? Then cookies are `Secure`.
#[must_use]
pub fn served_over_https(config: &ServeConfig) -> bool {
    config
        .public_origin
        .iter()
        .any(|origin| origin.starts_with("https://"))
}

/// Refuses a state-changing `/api` call from another site's page (its `Origin` is not
/// ours), and one whose body is not JSON (a form or `text/plain` post, which a foreign
/// page can send without the browser asking first).
pub async fn guard_state_changes<S: EdgeState>(
    State(state): State<S>,
    request: Request,
    next: Next,
) -> Response {
    let changes_state = !matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    );
    if changes_state && request.uri().path().starts_with("/api/") {
        if let Err(refusal) = check_state_change(state.config(), request.headers()) {
            return refusal.into_response();
        }
    }
    next.run(request).await
}

fn check_state_change(config: &ServeConfig, headers: &HeaderMap) -> Result<(), ApiError> {
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or("");
        if !origin_allowed(config, headers, origin) {
            return Err(ApiError::new(
                ErrorCode::BadOrigin,
                format!("calls from pages of {} are not allowed", short(origin)),
            ));
        }
    }
    let has_body = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|length| length.to_str().ok())
        .is_some_and(|length| length.trim() != "0")
        || headers.contains_key(header::TRANSFER_ENCODING);
    if has_body {
        let json = headers
            .get(header::CONTENT_TYPE)
            .and_then(|t| t.to_str().ok())
            .and_then(|t| t.split(';').next())
            .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"));
        if !json {
            return Err(ApiError::new(
                ErrorCode::BadContentType,
                "a request body must be JSON, sent with Content-Type: application/json",
            ));
        }
    }
    Ok(())
}

/// Whether a request may carry a body to charge: not for a method without one, nor for
/// one that says its body is empty (`Content-Length: 0`) or says nothing of one (neither a
/// length nor a transfer encoding). Its bytes are charged as they arrive
/// ([`within_body_budget`]).
fn has_body(request: &Request) -> bool {
    if matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    ) {
        return false;
    }
    match request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok())
    {
        Some(length) => length > 0,
        None => request.headers().contains_key(header::TRANSFER_ENCODING),
    }
}

/// The middleware: the request's body charged to the budgets as its bytes arrive
/// (`body_budget::Budgeted`), and what it took held until the request is answered; a
/// body past a budget fails, and whoever reads it answers [`over_body_budget`].
pub async fn within_body_budget<S: EdgeState>(
    State(state): State<S>,
    request: Request,
    next: Next,
) -> Response {
    if !has_body(&request) {
        return next.run(request).await;
    }
    let ip = request
        .extensions()
        .get::<ClientIp>()
        .map_or(std::net::IpAddr::from([0, 0, 0, 0]), |ip| ip.0);
    let (parts, body) = request.into_parts();
    let (body, charging) =
        crate::http::body_budget::Budgeted::wrap(body, state.body_budget(), AddressKey::of(ip));
    let request = Request::from_parts(parts, body);
    let response = next.run(request).await;
    // Held until answered: the handler holds the bytes read until then.
    drop(charging);
    response
}

/// A body refused for passing a budget of the bytes being received, as the API answers it:
/// the address's (429, `body_bytes_per_ip`) or the server's (503, counted as `body_bytes`).
pub fn over_body_budget(state: &impl EdgeState, over: Over) -> ApiError {
    match over {
        Over::Address => ApiError::limited(
            Limit::BodyBytesPerIp,
            format!(
                "this address is sending {} KiB of requests at once already; wait for them to be answered",
                state.body_budget().per_address / 1024
            ),
        ),
        Over::Server => {
            Limit::BodyBytes.refused();
            ApiError::new(
                ErrorCode::Unavailable,
                "the server is receiving as much as it can at once; try again in a moment",
            )
        }
    }
}

/// Answers 408 when a request (its body included) takes longer than the configured time.
pub async fn time_limit<S: EdgeState>(
    State(state): State<S>,
    request: Request,
    next: Next,
) -> Response {
    let limit = Duration::from_secs_f64(state.config().limits.request_seconds);
    match tokio::time::timeout(limit, next.run(request)).await {
        Ok(response) => response,
        Err(_) => {
            crate::metrics::count(&crate::metrics::METRICS.request_timeouts);
            ApiError::new(ErrorCode::Timeout, "the request took too long to arrive").into_response()
        }
    }
}

/// The security headers of every answer, pages, API calls, refusals and socket upgrades
/// alike (docs/security.md), each set by a `tower-http` layer that replaces any the
/// handler set: the content security policy, no framing, no content-type sniffing, the
/// referrer kept to this site, and HSTS when the public origin is https.
pub fn with_security_headers<S>(router: Router<S>, config: &ServeConfig) -> Router<S>
where
    S: Clone + Send + Sync + 'static,
{
    let hsts = served_over_https(config).then(|| HeaderValue::from_static("max-age=31536000"));
    router
        .layer(SetResponseHeaderLayer::overriding(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CONTENT_SECURITY_POLICY),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            header::X_FRAME_OPTIONS,
            HeaderValue::from_static("DENY"),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            header::REFERRER_POLICY,
            HeaderValue::from_static("same-origin"),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            header::STRICT_TRANSPORT_SECURITY,
            hsts,
        ))
}

/// Gives every refusal that is not JSON yet (axum's rejections, an unknown path or
/// method) the protocol's JSON error body.
pub async fn json_refusals(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|t| t.as_bytes().starts_with(b"application/json"));
    if (status.is_client_error() || status.is_server_error()) && !is_json {
        let body = std::mem::replace(response.body_mut(), Body::empty());
        let text = axum::body::to_bytes(body, MESSAGE_MAX * 4)
            .await
            .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
            .unwrap_or_default();
        let message = if text.trim().is_empty() {
            status.canonical_reason().unwrap_or("refused").to_owned()
        } else {
            short(text.trim()).to_owned()
        };
        let headers = response.headers().clone();
        response = ApiError::with_status(status, message).into_response();
        for name in [header::ALLOW, header::RETRY_AFTER] {
            if let Some(value) = headers.get(&name) {
                response.headers_mut().insert(name, value.clone());
            }
        }
    }
    response
}

/// At most [`MESSAGE_MAX`] bytes of `text`, cut at a character boundary.
fn short(text: &str) -> &str {
    if text.len() <= MESSAGE_MAX {
        return text;
    }
    let mut end = MESSAGE_MAX;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(host: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::HOST, host.parse().unwrap());
        headers
    }

    #[test]
    fn an_origin_is_ours_only_with_our_host_and_a_web_scheme() {
        let mut config = ServeConfig::for_tests("sqlite::memory:");
        let ours = headers("omweso.example:8080");
        assert!(origin_allowed(&config, &ours, "http://omweso.example:8080"));
        assert!(origin_allowed(
            &config,
            &ours,
            "https://omweso.example:8080"
        ));
        assert!(origin_allowed(
            &config,
            &ours,
            "https://OMWESO.example:8080"
        ));
        for foreign in [
            "x://omweso.example:8080",
            "HTTP://omweso.example:8080",
            "http://omweso.example",
            "http://omweso.example:8080.evil",
            "http://evil.example",
            "omweso.example:8080",
            "null",
            "",
        ] {
            assert!(!origin_allowed(&config, &ours, foreign), "{foreign}");
        }
        config.public_origin = vec!["https://omweso.org".into()];
        assert!(origin_allowed(&config, &ours, "https://omweso.org"));
        assert!(!origin_allowed(&config, &ours, "http://omweso.org"));
        assert!(served_over_https(&config));
    }

    #[test]
    fn state_changes_need_our_origin_and_a_json_body() {
        let config = ServeConfig::for_tests("sqlite::memory:");
        let mut h = headers("127.0.0.1:8080");
        assert!(check_state_change(&config, &h).is_ok(), "a tool, no body");
        h.insert(header::ORIGIN, "http://evil.example".parse().unwrap());
        assert_eq!(
            check_state_change(&config, &h).unwrap_err().code,
            ErrorCode::BadOrigin
        );
        h.insert(header::ORIGIN, "http://127.0.0.1:8080".parse().unwrap());
        assert!(check_state_change(&config, &h).is_ok());
        h.insert(header::CONTENT_LENGTH, "2".parse().unwrap());
        h.insert(header::CONTENT_TYPE, "text/plain".parse().unwrap());
        let refusal = check_state_change(&config, &h).unwrap_err();
        assert_eq!(
            refusal.status,
            axum::http::StatusCode::UNSUPPORTED_MEDIA_TYPE
        );
        h.insert(
            header::CONTENT_TYPE,
            "application/json; charset=utf-8".parse().unwrap(),
        );
        assert!(check_state_change(&config, &h).is_ok());
    }

    /// The headers `with_security_headers` gives an answer of `router` to `GET /`.
    async fn headers_of(router: Router, config: &ServeConfig) -> HeaderMap {
        use tower_service::Service;
        let mut app = with_security_headers(router, config);
        let request = Request::builder().uri("/").body(Body::empty()).unwrap();
        app.call(request).await.unwrap().headers().clone()
    }

    #[tokio::test]
    async fn every_answer_carries_the_security_headers_and_https_adds_hsts() {
        // A handler that sets its own, weaker, framing header: the layer replaces it.
        let page = Router::new().route(
            "/",
            axum::routing::get(|| async { ([(header::X_FRAME_OPTIONS, "SAMEORIGIN")], "page") }),
        );
        let refusal = Router::new().route(
            "/",
            axum::routing::get(|| async { ApiError::not_found("thing") }),
        );
        let mut config = ServeConfig::for_tests("sqlite::memory:");
        for router in [page.clone(), refusal] {
            let headers = headers_of(router, &config).await;
            assert_eq!(
                headers[header::CONTENT_SECURITY_POLICY],
                "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
                 connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; \
                 form-action 'self'; frame-ancestors 'none'"
            );
            assert_eq!(headers.get_all(header::X_FRAME_OPTIONS).iter().count(), 1);
            assert_eq!(headers[header::X_FRAME_OPTIONS], "DENY");
            assert_eq!(headers[header::X_CONTENT_TYPE_OPTIONS], "nosniff");
            assert_eq!(headers[header::REFERRER_POLICY], "same-origin");
            assert_eq!(headers.get(header::STRICT_TRANSPORT_SECURITY), None);
        }
        config.public_origin = vec!["https://omweso.org".into()];
        let headers = headers_of(page, &config).await;
        assert_eq!(
            headers[header::STRICT_TRANSPORT_SECURITY],
            "max-age=31536000"
        );
    }
}
