//! Persons, accounts and devices against the real server (docs/accounts.md,
//! docs/protocol.md#persons-accounts-and-devices-addition): a guest who becomes an account keeps
//! everything, live game included; log-in on several devices, each signed out on its own;
//! link codes and recovery codes that work once; the limits on tries; tokens revoked,
//! expired and rotated. On SQLite, and on PostgreSQL when `TEST_POSTGRES_URL` is set.

mod code_limits;
mod devices;
mod email;
mod guest_to_account;
mod limits;
mod lockout;
mod password_turns;
mod recovery;

use crate::common::Remote;
use serde_json::{json, Value};

/// A password zxcvbn rates at its best.
pub(super) const PASSWORD: &str = "seeds in the outer row at dusk";

/// Makes the account `username` as the guest `token` (or as nobody): the answer.
pub(super) async fn sign_up(server: &Remote, token: Option<&str>, username: &str) -> Value {
    let body = json!({"username": username, "password": PASSWORD});
    let (status, made) = match token {
        Some(token) => server.post("/api/account", token, body).await,
        None => server.post_anonymous("/api/account", body).await,
    };
    assert_eq!(status, 201, "{made}");
    made
}

/// Logs in to `username` on a new device: its token.
pub(super) async fn log_in(server: &Remote, username: &str) -> Value {
    let (status, signed_in) = server
        .post_anonymous(
            "/api/login",
            json!({"username": username, "password": PASSWORD}),
        )
        .await;
    assert_eq!(status, 200, "{signed_in}");
    signed_in
}

pub(super) fn token(body: &Value) -> String {
    body["token"].as_str().expect("a token").to_owned()
}

/// The code of a refusal, with its status.
pub(super) fn refusal(answer: &(u16, Value)) -> (u16, &str) {
    (answer.0, answer.1["error"]["code"].as_str().unwrap_or(""))
}

/// Every backend the tests run on: SQLite in memory, and PostgreSQL when configured.
pub(super) async fn databases() -> Vec<(String, Option<omweso_testkit::FreshPostgres>)> {
    let mut urls = vec![("sqlite::memory:".to_owned(), None)];
    if let Some(pg) = omweso_testkit::FreshPostgres::create("omweso_accounts").await {
        urls.push((pg.url.clone(), Some(pg)));
    }
    urls
}
