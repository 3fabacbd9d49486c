//! A request's body sent to one node about a game another node holds is bounded before it
//! is read, as the same request to the game's own node is (issue 41, item 7): slow 1 MiB
//! bodies through the forwarding node took it from 56 to 813 MB, because it read each
//! whole body (up to 1 MiB) before any check. Real nodes on PostgreSQL and NATS
//! (`cluster.rs`), raw TCP for the bodies a client library would not send.

use std::time::Duration;

use omweso_testkit::Remote;
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::cluster::{node, node_with, with_database};

/// The API's largest body (docs/security.md: an HTTP body, 64 KiB).
const BODY_LIMIT: usize = 64 * 1024;

/// Sends `head` (a request's line and headers, without the blank line) and `body`, then
/// reads the answer's status line for at most `within`; `None` when none came.
async fn status_after(
    stream: &mut TcpStream,
    head: &str,
    body: &[u8],
    within: Duration,
) -> Option<String> {
    stream
        .write_all(format!("{head}\r\n\r\n").as_bytes())
        .await
        .unwrap();
    // A refusal may close the connection while the body is still being sent.
    let _ = stream.write_all(body).await;
    status_line(stream, within).await
}

async fn status_line(stream: &mut TcpStream, within: Duration) -> Option<String> {
    let mut read = Vec::new();
    let mut buffer = [0u8; 4096];
    let deadline = tokio::time::Instant::now() + within;
    loop {
        if let Some(end) = read.windows(2).position(|w| w == b"\r\n") {
            return Some(String::from_utf8_lossy(&read[..end]).into_owned());
        }
        let n = tokio::time::timeout_at(deadline, stream.read(&mut buffer))
            .await
            .ok()?
            .ok()?;
        if n == 0 {
            return None;
        }
        read.extend_from_slice(&buffer[..n]);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_for_another_nodes_game_is_bounded_before_it_is_read() {
    with_database("omweso_cluster_bodies", |database_url, nats| async move {
        let a = node(&database_url, &nats, "a");
        let b = node(&database_url, &nats, "b");
        let (a, b) = (Remote::new(a.addr), Remote::new(b.addr));
        let (south, _) = a.session("South").await;
        let (north, _) = b.session("North").await;
        let game = a.create(&south, json!({"ruleset":"oware"})).await;
        let join = format!(
            "POST /api/games/{game}/join HTTP/1.1\r\nHost: {}\r\n\
             Content-Type: application/json\r\nAuthorization: Bearer {north}",
            b.addr
        );

        // A length past the limit is refused from the headers alone, before any byte of
        // the body is read.
        let mut stream = TcpStream::connect(b.addr).await.unwrap();
        let status = status_after(
            &mut stream,
            &format!("{join}\r\nContent-Length: 200000"),
            b"",
            Duration::from_secs(3),
        )
        .await;
        assert_eq!(
            status.as_deref(),
            Some("HTTP/1.1 413 Payload Too Large"),
            "a 200,000-byte body announced, none sent"
        );

        // A chunked body is read no further than the limit.
        let mut stream = TcpStream::connect(b.addr).await.unwrap();
        let chunk = vec![b' '; 8 * 1024];
        let mut body = Vec::new();
        for _ in 0..(BODY_LIMIT / chunk.len() + 2) {
            body.extend_from_slice(format!("{:x}\r\n", chunk.len()).as_bytes());
            body.extend_from_slice(&chunk);
            body.extend_from_slice(b"\r\n");
        }
        let status = status_after(
            &mut stream,
            &format!("{join}\r\nTransfer-Encoding: chunked"),
            &body,
            Duration::from_secs(3),
        )
        .await;
        assert_eq!(
            status.as_deref(),
            Some("HTTP/1.1 413 Payload Too Large"),
            "80 KiB of an unfinished chunked body"
        );

        // The request itself still passes, with its body, and is answered by the game's
        // node.
        let (status, joined) = b
            .post(&format!("/api/games/{game}/join"), &north, json!({}))
            .await;
        assert_eq!(status, 200, "{joined}");
    })
    .await;
}

/// Forwarded requests one address may have waiting at once (docs/security.md).
const FORWARDS_PER_ADDRESS: usize = 32;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_holds_a_bounded_number_of_forwarded_requests() {
    with_database("omweso_cluster_forwards", |database_url, nats| async move {
        let a = node(&database_url, &nats, "a");
        // Behind a proxy on this machine: the clients are told apart by X-Forwarded-For.
        let b = node_with(&database_url, &nats, "b", &["--trusted-proxy", "127.0.0.1"]);
        let (a, b) = (Remote::new(a.addr), Remote::new(b.addr));
        let (south, _) = a.session("South").await;
        let game = a.create(&south, json!({"ruleset":"oware"})).await;
        let slow = |from: &str| {
            format!(
                "POST /api/games/{game}/join HTTP/1.1\r\nHost: {}\r\n\
                 Content-Type: application/json\r\nX-Forwarded-For: {from}\r\n\
                 Content-Length: 1000",
                b.addr
            )
        };
        // Slow bodies from one address: each is waited for, up to the bound.
        let mut held = Vec::new();
        for _ in 0..FORWARDS_PER_ADDRESS {
            let mut stream = TcpStream::connect(b.addr).await.unwrap();
            let head = format!("{}\r\n\r\n{{", slow("203.0.113.7"));
            stream.write_all(head.as_bytes()).await.unwrap();
            held.push(stream);
        }
        tokio::time::sleep(Duration::from_millis(300)).await;
        for stream in &mut held {
            let status = status_line(stream, Duration::from_millis(1)).await;
            assert_eq!(status, None, "a body still arriving is waited for");
        }
        // The next from that address is refused at once, without reading its body.
        let mut stream = TcpStream::connect(b.addr).await.unwrap();
        let status = status_after(
            &mut stream,
            &slow("203.0.113.7"),
            b"{",
            Duration::from_secs(3),
        )
        .await;
        assert_eq!(
            status.as_deref(),
            Some("HTTP/1.1 429 Too Many Requests"),
            "one request past the address's bound"
        );
        // Another address is answered as ever.
        let mut stream = TcpStream::connect(b.addr).await.unwrap();
        let status = status_after(
            &mut stream,
            &format!(
                "GET /api/games/{game} HTTP/1.1\r\nHost: {}\r\nX-Forwarded-For: 198.51.100.9\r\n\
                 Authorization: Bearer {south}",
                b.addr
            ),
            b"",
            Duration::from_secs(5),
        )
        .await;
        assert_eq!(status.as_deref(), Some("HTTP/1.1 200 OK"));
        // Places come back: once the slow clients give up, the address is answered again.
        drop(held);
        tokio::time::sleep(Duration::from_millis(300)).await;
        let mut stream = TcpStream::connect(b.addr).await.unwrap();
        let status = status_after(
            &mut stream,
            &format!(
                "GET /api/games/{game} HTTP/1.1\r\nHost: {}\r\nX-Forwarded-For: 203.0.113.7\r\n\
                 Authorization: Bearer {south}",
                b.addr
            ),
            b"",
            Duration::from_secs(5),
        )
        .await;
        assert_eq!(status.as_deref(), Some("HTTP/1.1 200 OK"));
    })
    .await;
}
