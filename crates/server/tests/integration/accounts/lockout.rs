//! An attacker who knows a username (it is public) and spends its tries must not lock the
//! owner out of what proves them (docs/security.md#accounts): a valid recovery code, a
//! password change from a device signed in, a log-in from a device that logged in to the
//! account before. Only wrong passwords count against the account, and a guess is still
//! bounded: from a device the account never logged in on, the account takes so many wrong
//! passwords an hour whatever the addresses, and a known device takes its own.

use crate::common::{config_with, TestServer};
use serde_json::{json, Value};

use super::*;

/// A log-in from `from`, carrying the cookie `known` (a device's mark that it logged in
/// to the account before), if any: the answer and the mark it was given, if any.
async fn log_in_from(
    server: &crate::common::Remote,
    from: &str,
    known: Option<&str>,
    username: &str,
    password: &str,
) -> ((u16, Value), Option<String>) {
    let mut request = server
        .http
        .post(server.url("/api/login"))
        .header("x-forwarded-for", from)
        .json(&json!({"username": username, "password": password}));
    if let Some(known) = known {
        request = request.header("cookie", format!("omweso_known={known}"));
    }
    let response = request.send().await.unwrap();
    let mark = known_mark(response.headers());
    let status = response.status().as_u16();
    let body = response.json().await.unwrap_or(Value::Null);
    ((status, body), mark)
}

/// The device's mark set by an answer (`Set-Cookie: omweso_known=...`).
fn known_mark(headers: &reqwest::header::HeaderMap) -> Option<String> {
    headers
        .get_all(reqwest::header::SET_COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find_map(|v| v.strip_prefix("omweso_known="))
        .map(|v| v.split(';').next().unwrap_or_default().to_owned())
}

#[tokio::test]
async fn an_attackers_failures_do_not_lock_the_owner_out_of_what_proves_them() {
    let server = TestServer::start_with(config_with(|l| {
        l.logins_per_ip_per_minute = 100;
        l.logins_per_account_per_hour = 6;
        l.trusted_proxy = vec!["127.0.0.1".into()];
    }))
    .await;
    // The owner makes the account on their phone, which is marked as theirs.
    let response = server
        .http
        .post(server.url("/api/account"))
        .header("x-forwarded-for", "192.0.2.10")
        .json(&json!({"username": "Nambi", "password": PASSWORD}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 201);
    let phone_mark = known_mark(response.headers()).expect("the phone is marked as Nambi's");
    let made: Value = response.json().await.unwrap();
    let phone = token(&made);
    let recovery = made["recovery_codes"][0].as_str().unwrap().to_owned();

    // The attacker: wrong passwords from many addresses, then fake recovery codes.
    for i in 0..6 {
        let (answer, mark) =
            log_in_from(&server, &format!("203.0.113.{i}"), None, "nambi", "guess").await;
        assert_eq!(refusal(&answer), (401, "bad_credentials"), "try {i}");
        assert_eq!(mark, None, "a failure marks nothing");
    }
    // Now the account takes no more tries from devices it never logged in on: the right
    // password included, so that a guess cannot be tested.
    let (bounded, _) = log_in_from(&server, "203.0.113.99", None, "nambi", PASSWORD).await;
    assert_eq!(refusal(&bounded), (429, "rate_limited"), "{bounded:?}");
    assert_eq!(
        bounded.1["error"]["message"],
        "this account had 6 wrong passwords in the last hour: log in from a device you used before, use a recovery code or a link code from one of your devices, or wait"
    );
    for i in 0..31 {
        let (status, r) = server
            .post_from(
                "/api/login/recovery",
                "",
                &format!("198.51.100.{i}"),
                json!({"username": "nambi", "code": format!("aaaa-bbbb-cccc-{:04}", i), "password": PASSWORD}),
            )
            .await;
        assert_eq!(refusal(&(status, r.clone())), (400, "bad_code"), "{r}");
    }

    // The owner, signed in on the phone, changes the password: the device proves them.
    let (status, r) = server
        .put(
            "/api/account/password",
            &phone,
            json!({"current": PASSWORD, "password": "a quiet pit on the north row"}),
        )
        .await;
    assert_eq!(status, 204, "{r}");
    // The phone, signed out, logs in again with the new password: it logged in before.
    let (status, _) = server.delete("/api/session", &phone).await;
    assert_eq!(status, 204);
    let (again, _) = log_in_from(
        &server,
        "192.0.2.10",
        Some(&phone_mark),
        "nambi",
        "a quiet pit on the north row",
    )
    .await;
    assert_eq!(again.0, 200, "{again:?}");
    // Another address, the same mark: it is the device, not the address, that counts.
    let (elsewhere, _) = log_in_from(
        &server,
        "2001:db8:9::1",
        Some(&phone_mark),
        "nambi",
        "a quiet pit on the north row",
    )
    .await;
    assert_eq!(elsewhere.0, 200, "{elsewhere:?}");
    // A mark of another account's device counts for nothing here.
    let (status, _) = server
        .post_anonymous(
            "/api/account",
            json!({"username": "Other", "password": PASSWORD}),
        )
        .await;
    assert_eq!(status, 201);
    let ((status, _), other_mark) =
        log_in_from(&server, "192.0.2.20", None, "other", PASSWORD).await;
    assert_eq!(status, 200);
    let (not_hers, _) = log_in_from(
        &server,
        "192.0.2.20",
        other_mark.as_deref(),
        "nambi",
        "a quiet pit on the north row",
    )
    .await;
    assert_eq!(refusal(&not_hers), (429, "rate_limited"), "{not_hers:?}");

    // A valid recovery code works after 31 fake ones.
    let (status, recovered) = server
        .post_from(
            "/api/login/recovery",
            "",
            "192.0.2.30",
            json!({"username": "nambi", "code": recovery, "password": "the seeds come home at night"}),
        )
        .await;
    assert_eq!(status, 200, "{recovered}");

    // A stolen mark is bounded too: its own wrong passwords, as many as the account's.
    for i in 0..6 {
        let (answer, _) = log_in_from(
            &server,
            "203.0.113.200",
            Some(&phone_mark),
            "nambi",
            "guess",
        )
        .await;
        assert_eq!(refusal(&answer), (401, "bad_credentials"), "try {i}");
    }
    let (stolen, _) = log_in_from(
        &server,
        "203.0.113.201",
        Some(&phone_mark),
        "nambi",
        "the seeds come home at night",
    )
    .await;
    assert_eq!(refusal(&stolen), (429, "rate_limited"), "{stolen:?}");
    server.stop().await;
}

#[tokio::test]
async fn a_signed_in_device_checks_its_password_within_its_own_bound() {
    let server = TestServer::start_with(config_with(|l| {
        l.logins_per_ip_per_minute = 100;
        l.logins_per_account_per_hour = 3;
        l.trusted_proxy = vec!["127.0.0.1".into()];
    }))
    .await;
    let made = sign_up(&server, None, "Okot").await;
    let stolen = token(&made);
    let owner = token(&log_in(&server, "okot").await);
    // A stolen session guessing the current password: its own three wrong tries.
    for _ in 0..3 {
        let wrong = server
            .put(
                "/api/account/password",
                &stolen,
                json!({"current": "guess", "password": "a quiet pit on the north row"}),
            )
            .await;
        assert_eq!(refusal(&wrong), (401, "bad_credentials"));
    }
    let bounded = server
        .put(
            "/api/account/password",
            &stolen,
            json!({"current": PASSWORD, "password": "a quiet pit on the north row"}),
        )
        .await;
    assert_eq!(refusal(&bounded), (429, "rate_limited"), "{bounded:?}");
    // The owner's other device is not held by it, nor is the account's log-in.
    let (status, r) = server
        .post(
            "/api/account/recovery-codes",
            &owner,
            json!({"password": PASSWORD}),
        )
        .await;
    assert_eq!(status, 200, "{r}");
    log_in(&server, "okot").await;
    server.stop().await;
}
