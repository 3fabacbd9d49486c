//! Issue 41, finding 13: 40 addresses sending 20 log-ins each (each within its own
//! limits) got 659 of 800 answered 503, and a real user's log-in waited 5.1 s: passwords
//! were hashed two at a time for everybody, first come, first served. Now the turns go by
//! address, then session: a newcomer waits for at most one check of each other address.
//!
//! Counted, not timed: when the owner's log-in is answered, most of the flood queued
//! before it must still be waiting (first come, first served, none would be).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use serde_json::json;

use crate::common::{config_with, Remote, TestServer};

const PASSWORD: &str = "seeds in the outer row at dusk";

#[tokio::test]
async fn a_persons_log_in_is_not_kept_waiting_behind_other_addresses_floods() {
    let server = TestServer::start_with(config_with(|limits| {
        limits.trusted_proxy = vec!["127.0.0.1".into()];
    }))
    .await;
    let (guest, _) = server.session("Owner").await;
    let (status, made) = server
        .post(
            "/api/account",
            &guest,
            json!({"username": "owner", "password": PASSWORD}),
        )
        .await;
    assert_eq!(status, 201, "{made}");

    // Four addresses, eight log-ins each, all at once (to usernames nobody has: each is
    // hashed all the same).
    let answered = Arc::new(AtomicUsize::new(0));
    let mut flood = Vec::new();
    for address in 0..4 {
        for n in 0..8 {
            let server = Remote::new(server.addr);
            let answered = Arc::clone(&answered);
            flood.push(tokio::spawn(async move {
                let (status, _) = server
                    .post_from(
                        "/api/login",
                        "",
                        &format!("198.51.100.{}", address + 1),
                        json!({"username": format!("nobody{address}x{n}"), "password": PASSWORD}),
                    )
                    .await;
                answered.fetch_add(1, Ordering::SeqCst);
                status
            }));
        }
    }
    // Once they are all in (the first few answered, most still waiting), the owner logs
    // in from an address of their own.
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    let before = answered.load(Ordering::SeqCst);
    assert!(
        before <= 8,
        "the flood was mostly answered already ({before} of 32)"
    );
    let (status, answer) = server
        .post_from(
            "/api/login",
            "",
            "203.0.113.7",
            json!({"username": "owner", "password": PASSWORD}),
        )
        .await;
    assert_eq!(status, 200, "{answer}");
    let after = answered.load(Ordering::SeqCst);
    // In turns: the two running, then at most one of each flooding address before the
    // owner's, and while the owner's password is checked the other turn may finish two
    // more: at most 8 answered meanwhile (first come, first served: all of the 24 or
    // more still waiting).
    assert!(
        after <= before + 2 + 4 + 2,
        "the owner waited behind {} of the flood's log-ins",
        after - before
    );
    for request in flood {
        assert!([401, 503].contains(&request.await.unwrap()));
    }
    server.stop().await;
}
