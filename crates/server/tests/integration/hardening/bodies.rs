//! Issue 41, finding 9: slow bodies sent across 8 addresses took a server from 107 to 609
//! MB (and a probe game's p99 to 1.6 s): each body was bounded, but not how many arrive at
//! once (2,048 connections an address, 20,000 in all). Now a body's bytes are taken from a
//! budget of its address and one of the server as they arrive, and given back when it is
//! answered; past either, the request is refused. As they arrive, not as announced: the
//! re-run of the attacks held the whole server's budget with bodies announced and never
//! sent, from 32 addresses, and refused every other visitor's small request.

use std::time::Duration;

use serde_json::json;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

use super::ONE_AT_A_TIME;
use crate::common::probe::LatencyProbe;
use crate::common::{config_with, Remote, TestServer};

/// A request that says it has a body of `length` bytes and sends `sent` of them (spaces,
/// as a JSON body may begin), then waits: held open by the returned stream.
async fn slow_body(server: &Remote, length: usize, sent: usize) -> TcpStream {
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    let head = format!(
        "POST /api/session HTTP/1.1\r\nHost: {}\r\nX-Forwarded-For: {ATTACKER}\r\n\
         Content-Type: application/json\r\nContent-Length: {length}\r\n\r\n",
        server.addr
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(&vec![b' '; sent]).await.unwrap();
    stream
}

/// The slow bodies' address (the server trusts the test's proxy header); the probe game
/// plays from the test's own.
const ATTACKER: &str = "198.51.100.9";

/// Until a small POST from the slow bodies' address is answered with `status` (the slow
/// bodies are taken in as the server reads their heads).
async fn until_refused(server: &Remote, status: u16) -> serde_json::Value {
    for _ in 0..200 {
        let (got, answer) = server
            .post_from("/api/session", "", ATTACKER, json!({"name": "Kato"}))
            .await;
        if got == status {
            return answer;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("never refused with {status}");
}

#[tokio::test]
async fn an_addresss_slow_bodies_hold_its_budget_and_no_more() {
    let _one = ONE_AT_A_TIME.lock().await;
    let server = TestServer::start_with(config_with(|limits| {
        limits.body_bytes_per_ip = 128 * 1024;
        limits.trusted_proxy = vec!["127.0.0.1".into()];
    }))
    .await;
    let probe = LatencyProbe::start(&server).await;
    // All but their last byte sent: 131,070 bytes held, the address's budget but for 2.
    let held: Vec<TcpStream> = vec![
        slow_body(&server, 64 * 1024, 64 * 1024 - 1).await,
        slow_body(&server, 64 * 1024, 64 * 1024 - 1).await,
    ];
    let answer = until_refused(&server, 429).await;
    assert_eq!(
        answer["error"]["message"],
        "this address is sending 128 KiB of requests at once already; wait for them to be answered"
    );
    // A request without a body is not held back, nor one from another address.
    let (status, _) = server.get("/api/leaderboards/oware", "").await;
    assert_eq!(status, 200);
    let (status, made) = server
        .post_anonymous("/api/session", json!({"name": "Nakato"}))
        .await;
    assert_eq!(status, 200, "{made}");
    // One slow body's client goes: its bytes come back.
    drop(held);
    let (status, made) = until_status(&server, 200).await;
    assert_eq!(status, 200, "{made}");
    probe
        .finish_when_enough("slow bodies from one address")
        .await;
    server.stop().await;
}

async fn until_status(server: &Remote, status: u16) -> (u16, serde_json::Value) {
    for _ in 0..500 {
        let (got, answer) = server
            .post_from("/api/session", "", ATTACKER, json!({"name": "Kato"}))
            .await;
        if got == status {
            return (got, answer);
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("never answered {status}");
}

#[tokio::test]
async fn the_servers_budget_holds_whatever_the_addresses() {
    let server = TestServer::start_with(config_with(|limits| {
        limits.body_bytes = 128 * 1024;
        limits.trusted_proxy = vec!["127.0.0.1".into()];
    }))
    .await;
    let _held = [
        slow_body(&server, 64 * 1024, 64 * 1024 - 1).await,
        slow_body(&server, 64 * 1024, 64 * 1024 - 1).await,
    ];
    let answer = until_refused(&server, 503).await;
    assert_eq!(
        answer["error"]["message"],
        "the server is receiving as much as it can at once; try again in a moment"
    );
    server.stop().await;
}

/// Bodies announced and never sent hold nothing: 64 connections from one address each
/// announce a 64 KiB body (4 MiB in all, 32 times the server's budget here) and send none
/// of it, and every other visitor's request, and the attackers' own small ones, are
/// answered. Before, they held the whole budget and a bystander's log-in was refused 503.
#[tokio::test]
async fn bodies_announced_and_not_sent_hold_nothing() {
    let server = TestServer::start_with(config_with(|limits| {
        limits.body_bytes = 128 * 1024;
        limits.trusted_proxy = vec!["127.0.0.1".into()];
    }))
    .await;
    let mut held = Vec::new();
    for _ in 0..64 {
        held.push(slow_body(&server, 64 * 1024, 0).await);
    }
    // The server has read every head (a request answered after them on a new
    // connection is read after them), and holds no byte for them.
    for _ in 0..20 {
        let (status, made) = server
            .post_anonymous("/api/session", json!({"name": "Nakato"}))
            .await;
        assert_eq!(status, 200, "{made}");
        let (status, made) = server
            .post_from("/api/session", "", ATTACKER, json!({"name": "Kato"}))
            .await;
        assert_eq!(status, 200, "{made}");
    }
    drop(held);
    server.stop().await;
}
