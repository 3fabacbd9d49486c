//! The web files as a slow phone gets them, from the real server on port 0: compressed as
//! the request accepts (and decoding to the exact file), kept a year under their versioned
//! URL, the page revalidated by its ETag, the old unversioned URLs still served, paths out
//! of the folder refused, and the security headers on every answer.

use std::io::Read;
use std::path::PathBuf;

use crate::common::{Remote, TestServer};
use futures_util::StreamExt;
use reqwest::header::{HeaderMap, HeaderValue};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

const IMMUTABLE: &str = "public, max-age=31536000, immutable";

/// A file of `web/` as it is on disk.
fn web_file(path: &str) -> Vec<u8> {
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../web")
        .join(path);
    std::fs::read(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()))
}

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_end(&mut out)
        .unwrap();
    out
}

fn unbrotli(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    brotli::Decompressor::new(bytes, 4096)
        .read_to_end(&mut out)
        .unwrap();
    out
}

/// The exact security headers of an answer of the tests' (plain http) server.
fn assert_security_headers(headers: &HeaderMap, what: &str) {
    crate::common::assert_security_headers(headers, false, what);
}

/// GET `path` with these request headers: status, headers, body as sent.
async fn get(
    server: &Remote,
    path: &str,
    headers: &[(&'static str, &str)],
) -> (u16, HeaderMap, Vec<u8>) {
    let mut request = server.http.get(server.url(path));
    for (name, value) in headers {
        request = request.header(*name, HeaderValue::from_str(value).unwrap());
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    (status, headers, response.bytes().await.unwrap().to_vec())
}

/// The `/static/v/<version>/` prefix the page points at.
fn versioned_prefix(page: &str) -> String {
    let at = page
        .find("/static/v/")
        .expect("a versioned URL in the page");
    let version: String = page[at + "/static/v/".len()..]
        .chars()
        .take_while(char::is_ascii_hexdigit)
        .collect();
    assert_eq!(version.len(), 16, "{page}");
    format!("/static/v/{version}/")
}

#[tokio::test]
async fn the_files_come_compressed_as_asked_and_decode_to_the_file() {
    let server = TestServer::start("sqlite::memory:").await;
    for path in ["app.js", "style.css", "director/pairing.js", "index.html"] {
        let file = web_file(path);
        let url = format!("/static/{path}");

        let (status, headers, body) = get(&server, &url, &[("accept-encoding", "gzip")]).await;
        assert_eq!(status, 200, "{path}");
        assert_eq!(headers["content-encoding"], "gzip", "{path}");
        assert_eq!(headers["vary"], "accept-encoding", "{path}");
        assert!(
            body.len() < file.len(),
            "{path}: {} of {}",
            body.len(),
            file.len()
        );
        assert_eq!(gunzip(&body), file, "{path}");
        assert_security_headers(&headers, &url);

        // Chromium's own header: brotli wins.
        let (status, headers, body) = get(
            &server,
            &url,
            &[("accept-encoding", "gzip, deflate, br, zstd")],
        )
        .await;
        assert_eq!(status, 200, "{path}");
        assert_eq!(headers["content-encoding"], "br", "{path}");
        assert_eq!(unbrotli(&body), file, "{path}");

        // Weights are honoured: gzip preferred here.
        let (_, headers, body) = get(&server, &url, &[("accept-encoding", "br;q=0.5, gzip")]).await;
        assert_eq!(headers["content-encoding"], "gzip", "{path}");
        assert_eq!(gunzip(&body), file, "{path}");

        // Not asked: not compressed, the exact file.
        for asked in [&[][..], &[("accept-encoding", "identity")][..]] {
            let (status, headers, body) = get(&server, &url, asked).await;
            assert_eq!(status, 200, "{path}");
            assert!(headers.get("content-encoding").is_none(), "{path}");
            assert_eq!(body, file, "{path}");
            assert_eq!(headers["cache-control"], "no-cache", "{path}");
        }
    }
    // Too small to gain (the icon is 563 bytes; compressed it still is sent as it is only
    // when not smaller): whatever is sent decodes to the file.
    let icon = web_file("icon.svg");
    let (_, headers, body) = get(&server, "/static/icon.svg", &[("accept-encoding", "br")]).await;
    match headers.get("content-encoding").map(|v| v.to_str().unwrap()) {
        Some("br") => assert_eq!(unbrotli(&body), icon),
        None => assert_eq!(body, icon),
        other => panic!("icon.svg in {other:?}"),
    }
    server.stop().await;
}

#[tokio::test]
async fn versioned_files_are_immutable_and_the_page_is_revalidated() {
    let server = TestServer::start("sqlite::memory:").await;
    let (status, headers, body) = get(&server, "/", &[]).await;
    assert_eq!(status, 200);
    assert_eq!(headers["cache-control"], "no-cache");
    assert!(headers["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/html"));
    let page = String::from_utf8(body).unwrap();
    let prefix = versioned_prefix(&page);
    assert!(
        page.contains(&format!(
            "<script type=\"module\" src=\"{prefix}app.js\"></script>"
        )),
        "{page}"
    );
    assert!(
        page.contains(&format!(
            "<link rel=\"stylesheet\" href=\"{prefix}style.css\">"
        )),
        "{page}"
    );
    assert!(!page.contains("\"/static/app.js"), "{page}");

    // The versioned file: the same bytes, kept a year.
    let (status, headers, body) = get(&server, &format!("{prefix}app.js"), &[]).await;
    assert_eq!(status, 200);
    assert_eq!(headers["cache-control"], IMMUTABLE);
    assert_eq!(body, web_file("app.js"));
    assert_security_headers(&headers, "versioned app.js");
    let (_, headers, body) = get(
        &server,
        &format!("{prefix}board/board.js"),
        &[("accept-encoding", "br")],
    )
    .await;
    assert_eq!(headers["cache-control"], IMMUTABLE);
    assert_eq!(unbrotli(&body), web_file("board/board.js"));
    // Another version's URL (a page from before an upgrade) gets today's file, not kept.
    let (status, headers, body) = get(&server, "/static/v/0000000000000000/app.js", &[]).await;
    assert_eq!(status, 200);
    assert_eq!(headers["cache-control"], "no-cache");
    assert_eq!(body, web_file("app.js"));

    // The page answered 304 to its ETag, with the security headers; another ETag gets it all.
    for path in [
        "/",
        "/g/01a207ca-6673-7465-be6d-b8e5b92ddd4e",
        "/t/new",
        "/analysis",
    ] {
        let (status, headers, body) = get(&server, path, &[("accept-encoding", "gzip")]).await;
        assert_eq!(status, 200, "{path}");
        assert_eq!(headers["content-encoding"], "gzip", "{path}");
        assert!(
            String::from_utf8(gunzip(&body)).unwrap().contains(&prefix),
            "{path}"
        );
        let etag = headers["etag"].to_str().unwrap().to_owned();
        assert!(etag.starts_with("W/\""), "{path}: {etag}");
        let (status, headers, body) = get(
            &server,
            path,
            &[("accept-encoding", "gzip"), ("if-none-match", &etag)],
        )
        .await;
        assert_eq!(status, 304, "{path}");
        assert!(body.is_empty(), "{path}");
        assert_eq!(headers["etag"], etag.as_str(), "{path}");
        assert_eq!(headers["cache-control"], "no-cache", "{path}");
        assert_security_headers(&headers, &format!("304 {path}"));
        let (status, _, _) = get(&server, path, &[("if-none-match", "W/\"stale\"")]).await;
        assert_eq!(status, 200, "{path}");
    }

    // The unversioned URL still serves, revalidated by its own ETag.
    let (status, headers, body) = get(&server, "/static/app.js", &[]).await;
    assert_eq!(status, 200);
    assert_eq!(headers["cache-control"], "no-cache");
    assert_eq!(body, web_file("app.js"));
    let etag = headers["etag"].to_str().unwrap().to_owned();
    let (status, headers, _) = get(&server, "/static/app.js", &[("if-none-match", &etag)]).await;
    assert_eq!(status, 304);
    assert_security_headers(&headers, "304 /static/app.js");
    server.stop().await;
}

#[tokio::test]
async fn each_route_preloads_its_own_modules() {
    let server = TestServer::start("sqlite::memory:").await;
    let page = |path: &'static str| {
        let server = &server;
        async move { String::from_utf8(get(server, path, &[]).await.2).unwrap() }
    };
    let lobby = page("/").await;
    let prefix = versioned_prefix(&lobby);
    let preloads = |page: &str| -> Vec<String> {
        page.lines()
            .filter_map(|line| {
                line.trim()
                    .strip_prefix("<link rel=\"modulepreload\" href=\"")
            })
            .map(|rest| {
                rest.trim_end_matches("\">")
                    .trim_start_matches(&prefix)
                    .to_owned()
            })
            .collect()
    };
    let lobby_modules = preloads(&lobby);
    assert_eq!(lobby_modules[0], "lobby/lobby.js", "{lobby}");
    for module in [
        "core/ui.js",
        "core/api.js",
        "core/session.js",
        "lobby/gameform.js",
    ] {
        assert!(
            lobby_modules.contains(&module.to_owned()),
            "{module}: {lobby_modules:?}"
        );
    }
    for module in [
        "director/console.js",
        "analysis/analysis.js",
        "game/gameview.js",
        "tournament/tournament.js",
        "board/board.js",
    ] {
        assert!(
            !lobby_modules.contains(&module.to_owned()),
            "{module}: {lobby_modules:?}"
        );
    }
    assert!(!lobby.contains("director.css"), "{lobby}");

    let tournament = page("/t/new").await;
    assert_eq!(preloads(&tournament)[0], "tournament/tournament.js");
    // The console is loaded by the page only for the director (web/tournament/tournament.js).
    assert!(preloads(&tournament).contains(&"tournament/tables.js".to_owned()));
    assert!(!preloads(&tournament)
        .iter()
        .any(|module| module.starts_with("director/")));
    assert!(tournament.contains(&format!(
        "<link rel=\"stylesheet\" href=\"{prefix}director.css\">"
    )));
    let game = page("/g/01a207ca-6673-7465-be6d-b8e5b92ddd4e").await;
    assert_eq!(preloads(&game)[0], "game/gameview.js");
    assert!(preloads(&game).contains(&"board/board.js".to_owned()));
    assert!(!preloads(&game)
        .iter()
        .any(|module| module.starts_with("director/")));
    let analysis = page("/analysis").await;
    assert_eq!(preloads(&analysis)[0], "analysis/analysis.js");
    // Every hint names a file that is served, kept a year.
    for module in preloads(&tournament)
        .iter()
        .chain(&preloads(&game))
        .chain(&preloads(&analysis))
    {
        let (status, headers, _) = get(&server, &format!("{prefix}{module}"), &[]).await;
        assert_eq!(status, 200, "{module}");
        assert_eq!(headers["cache-control"], IMMUTABLE, "{module}");
    }
    server.stop().await;
}

/// A request line sent as is (an HTTP client would resolve the `..` itself): the status.
async fn raw_status(server: &Remote, target: &str) -> (u16, String) {
    let mut stream = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    let request = format!(
        "GET {target} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
        server.addr
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.unwrap();
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let status = answer
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("{target}: {answer}"));
    (status, answer)
}

#[tokio::test]
async fn paths_out_of_the_folder_and_unserved_files_are_refused() {
    let server = TestServer::start("sqlite::memory:").await;
    let version = versioned_prefix(&String::from_utf8(get(&server, "/", &[]).await.2).unwrap());
    for target in [
        "/static/../Cargo.toml".to_owned(),
        "/static/%2e%2e/Cargo.toml".to_owned(),
        "/static/..%2fCargo.toml".to_owned(),
        "/static/v/x/../../Cargo.toml".to_owned(),
        format!("{version}../../../Cargo.toml"),
        format!("{version}%2e%2e/%2e%2e/Cargo.toml"),
        "/static//etc/passwd".to_owned(),
        "/static/%2fetc%2fpasswd".to_owned(),
        "/static/package.json".to_owned(),
        "/static/tests/e2e.test.js".to_owned(),
        "/static/tools/pageload.js".to_owned(),
        "/static/node_modules/ws/package.json".to_owned(),
        format!("{version}package.json"),
        "/static/v/".to_owned(),
        "/static/".to_owned(),
    ] {
        let (status, answer) = raw_status(&server, &target).await;
        assert_eq!(status, 404, "{target}: {answer}");
        assert!(
            answer.contains("content-security-policy:"),
            "{target}: {answer}"
        );
        assert!(
            answer.contains("x-frame-options: DENY"),
            "{target}: {answer}"
        );
        assert!(
            !answer.contains("[workspace]") && !answer.contains("root:"),
            "{target}"
        );
    }
    server.stop().await;
}

#[tokio::test]
async fn api_answers_are_compressed_when_asked_and_sockets_are_not_touched() {
    let server = TestServer::start("sqlite::memory:").await;
    let (kato, _) = server.session("Kato").await;
    for _ in 0..3 {
        server.create(&kato, json!({"ruleset": "oware"})).await;
    }
    let bearer = format!("Bearer {kato}");
    let auth = ("authorization", bearer.as_str());
    let (status, headers, plain) = get(&server, "/api/games?list=open", &[auth]).await;
    assert_eq!(status, 200);
    assert!(headers.get("content-encoding").is_none());
    let listed: Value = serde_json::from_slice(&plain).unwrap();
    assert_eq!(listed["games"].as_array().unwrap().len(), 3);
    assert!(plain.len() > 256, "{}", plain.len());
    let (status, headers, body) = get(
        &server,
        "/api/games?list=open",
        &[auth, ("accept-encoding", "gzip")],
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(headers["content-encoding"], "gzip");
    assert_eq!(
        serde_json::from_slice::<Value>(&gunzip(&body)).unwrap(),
        listed
    );
    assert_security_headers(&headers, "compressed JSON");
    let (_, headers, body) = get(
        &server,
        "/api/games?list=open",
        &[auth, ("accept-encoding", "br")],
    )
    .await;
    assert_eq!(headers["content-encoding"], "br");
    assert_eq!(
        serde_json::from_slice::<Value>(&unbrotli(&body)).unwrap(),
        listed
    );
    // A small answer is sent as it is.
    let (_, headers, body) = get(&server, "/healthz", &[("accept-encoding", "gzip")]).await;
    assert!(
        headers.get("content-encoding").is_none(),
        "{}",
        String::from_utf8_lossy(&body)
    );

    // A socket asked for with Accept-Encoding opens and speaks as ever.
    let mut request = format!("ws://{}/ws/lobby?token={kato}", server.addr)
        .into_client_request()
        .unwrap();
    request.headers_mut().insert(
        "accept-encoding",
        HeaderValue::from_static("gzip, deflate, br"),
    );
    let (mut ws, response) = tokio_tungstenite::connect_async(request).await.unwrap();
    assert_eq!(response.status(), 101);
    assert!(response.headers().get("content-encoding").is_none());
    let first = tokio::time::timeout(std::time::Duration::from_secs(5), ws.next())
        .await
        .expect("the lobby pushes its lists")
        .unwrap()
        .unwrap();
    let message: Value = serde_json::from_str(first.to_text().unwrap()).unwrap();
    assert_eq!(message["t"], "lobby");
    assert!(message["d"]["open_games"].is_array(), "{message}");
    server.stop().await;
}
