//! The limits on tries (docs/security.md#accounts): log-in attempts per address and per
//! account, link codes tried per address, accounts made per address; a wrong username and
//! a wrong password read the same.

use crate::common::{config_with, TestServer};
use serde_json::json;

use super::*;

#[tokio::test]
async fn log_in_attempts_are_limited_per_address_and_per_account() {
    let server = TestServer::start_with(config_with(|l| {
        l.logins_per_ip_per_minute = 4;
        l.logins_per_account_per_hour = 6;
        l.codes_per_ip_per_minute = 3;
        l.trusted_proxy = vec!["127.0.0.1".into()];
    }))
    .await;
    sign_up(&server, None, "Wasswa").await;
    let attempt = |from: &'static str, username: &'static str, password: &'static str| {
        let server = &server;
        async move {
            server
                .post_from(
                    "/api/login",
                    "",
                    from,
                    json!({"username": username, "password": password}),
                )
                .await
        }
    };
    // Unknown username and wrong password: the same answer.
    let unknown = attempt("203.0.113.1", "nobody", PASSWORD).await;
    let wrong = attempt("203.0.113.1", "wasswa", "not the password").await;
    assert_eq!(refusal(&unknown), (401, "bad_credentials"));
    assert_eq!(unknown.1, wrong.1);
    assert_eq!(unknown.1["error"]["message"], "wrong username or password");
    attempt("203.0.113.1", "wasswa", "no").await;
    attempt("203.0.113.1", "wasswa", "no").await;
    // The fifth from this address in the minute, even with the right password.
    let limited = attempt("203.0.113.1", "wasswa", PASSWORD).await;
    assert_eq!(refusal(&limited), (429, "rate_limited"));
    assert_eq!(
        limited.1["error"]["message"],
        "this address tried to log in 4 times in the last minute; wait a minute"
    );
    // Other addresses, other IPv6 /64s: the account has had 3 wrong passwords; a right
    // one counts for nothing; 3 more wrong, then none from a device that never logged in
    // to it, the right password included (docs/security.md#accounts).
    let v6 = attempt("2001:db8:1::1", "wasswa", "no").await;
    assert_eq!(v6.0, 401, "{}", v6.1);
    assert_eq!(attempt("2001:db8:1::2", "wasswa", "no").await.0, 401);
    assert_eq!(attempt("2001:db8:2::1", "wasswa", PASSWORD).await.0, 200);
    assert_eq!(attempt("2001:db8:2::2", "wasswa", "no").await.0, 401);
    let account_limited = attempt("2001:db8:3::1", "wasswa", PASSWORD).await;
    assert_eq!(refusal(&account_limited), (429, "rate_limited"));
    assert!(account_limited.1["error"]["message"]
        .as_str()
        .unwrap()
        .starts_with("this account had 6 wrong passwords in the last hour"));

    // Link codes tried from one address: 3 a minute.
    for _ in 0..3 {
        let tried = server
            .post_from(
                "/api/link",
                "",
                "198.51.100.7",
                json!({"code": "0000-0000"}),
            )
            .await;
        assert_eq!(refusal(&tried), (400, "bad_code"));
    }
    let guessing = server
        .post_from(
            "/api/link",
            "",
            "198.51.100.7",
            json!({"code": "0000-0001"}),
        )
        .await;
    assert_eq!(refusal(&guessing), (429, "rate_limited"));
    server.stop().await;
}

#[tokio::test]
async fn accounts_made_from_one_address_are_limited() {
    let server = TestServer::start_with(config_with(|l| {
        l.accounts_per_ip_per_hour = 2;
        l.trusted_proxy = vec!["127.0.0.1".into()];
    }))
    .await;
    for name in ["one1", "two2"] {
        let (status, _) = server
            .post_from(
                "/api/account",
                "",
                "192.0.2.9",
                json!({"username": name, "password": PASSWORD}),
            )
            .await;
        assert_eq!(status, 201);
    }
    let third = server
        .post_from(
            "/api/account",
            "",
            "192.0.2.9",
            json!({"username": "three3", "password": PASSWORD}),
        )
        .await;
    assert_eq!(refusal(&third), (429, "rate_limited"));
    server.stop().await;
}

/// Name changes are limited per person (each one is written to every unfinished tournament
/// the person is in).
#[tokio::test]
async fn renames_are_limited_per_person() {
    let server =
        TestServer::start_with(config_with(|l| l.renames_per_session_per_minute = 2)).await;
    let (kato, _) = server.session("Kato").await;
    for name in ["Kato A", "Kato B"] {
        let (status, r) = server.patch("/api/me", &kato, json!({"name": name})).await;
        assert_eq!(status, 200, "{r}");
    }
    let third = server
        .patch("/api/me", &kato, json!({"name": "Kato C"}))
        .await;
    assert_eq!(refusal(&third), (429, "rate_limited"));
    assert_eq!(
        third.1["error"]["message"],
        "you changed your name 2 times in the last minute; wait a little"
    );
    // Another person is not held back by Kato's renames.
    let (nakato, _) = server.session("Nakato").await;
    assert_eq!(
        server
            .patch("/api/me", &nakato, json!({"name": "Nakato B"}))
            .await
            .0,
        200
    );
    server.stop().await;
}

/// `--link-codes-per-session-per-minute`: the link codes one person makes a minute; the
/// next is refused 429 `rate_limited`, saying so, and another person is not held back.
#[tokio::test]
async fn link_codes_are_limited_per_person() {
    let server =
        TestServer::start_with(config_with(|l| l.link_codes_per_session_per_minute = 2)).await;
    let (kato, _) = server.session("Kato").await;
    for _ in 0..2 {
        let (status, r) = server.post("/api/link-codes", &kato, json!({})).await;
        assert_eq!(status, 201, "{r}");
    }
    let third = server.post("/api/link-codes", &kato, json!({})).await;
    assert_eq!(refusal(&third), (429, "rate_limited"));
    assert_eq!(
        third.1["error"]["message"],
        "2 link codes were made in the last minute; use one of them"
    );
    let (nakato, _) = server.session("Nakato").await;
    let (status, r) = server.post("/api/link-codes", &nakato, json!({})).await;
    assert_eq!(status, 201, "{r}");
    server.stop().await;
}
