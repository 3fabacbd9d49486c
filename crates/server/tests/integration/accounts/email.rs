//! Password reset by e-mail (docs/accounts.md#e-mail) against a real SMTP server: Python's
//! `smtpd` on a free port, which writes each mail it receives as a line of JSON that the
//! test reads the links from. An address set, verified by its link, then a reset link that
//! signs out every device and works once; an unknown or unverified account gets the same
//! 202 and no mail; a server without SMTP refuses the calls and says so.

use std::process::Stdio;
use std::time::Duration;

use crate::common::{config_with, TestServer, PATIENCE};
use omweso_server::config::ServeConfig;
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, BufReader, Lines};
use tokio::process::{Child, ChildStdout, Command};

use super::*;

const NEW_PASSWORD: &str = "the akakyala capture of a lifetime";
const ORIGIN: &str = "http://omweso.test";

/// An SMTP server that takes every mail and hands it to the test: Python's `smtpd`
/// (3.11 and earlier), started on a free port of 127.0.0.1, killed when dropped.
struct MailCatcher {
    port: u16,
    mails: Lines<BufReader<ChildStdout>>,
    _child: Child,
}

/// Each mail as a line of JSON: its envelope's recipients, its subject, its body decoded.
const CATCHER: &str = r#"
import asyncore, email, email.policy, json, smtpd, sys

class Catcher(smtpd.SMTPServer):
    def process_message(self, peer, mailfrom, rcpttos, data, **kwargs):
        message = email.message_from_bytes(data, policy=email.policy.default)
        print(json.dumps({"from": mailfrom, "to": rcpttos, "header_from": str(message["from"]),
                          "subject": str(message["subject"]), "body": message.get_content()}),
              flush=True)

server = Catcher(("127.0.0.1", 0), None, decode_data=False)
print(server.socket.getsockname()[1], flush=True)
asyncore.loop()
"#;

impl MailCatcher {
    async fn start() -> MailCatcher {
        let mut child = Command::new("python3")
            .args(["-W", "ignore", "-c", CATCHER])
            .stdout(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("python3 runs (the tests' SMTP server)");
        let stdout = child.stdout.take().expect("its output");
        let mut mails = BufReader::new(stdout).lines();
        let port = tokio::time::timeout(PATIENCE, mails.next_line())
            .await
            .expect("the SMTP server starts")
            .expect("its output reads")
            .expect("it prints its port")
            .trim()
            .parse()
            .expect("a port");
        MailCatcher {
            port,
            mails,
            _child: child,
        }
    }

    /// The next mail received, within the tests' patience.
    async fn next(&mut self) -> Value {
        let line = tokio::time::timeout(PATIENCE, self.mails.next_line())
            .await
            .expect("a mail arrives")
            .expect("its output reads")
            .expect("the SMTP server is running");
        serde_json::from_str(&line).expect("a mail as JSON")
    }

    /// Asserts that no mail arrives within `wait`.
    async fn none_within(&mut self, wait: Duration) {
        if let Ok(line) = tokio::time::timeout(wait, self.mails.next_line()).await {
            panic!("no mail was due, but one came: {line:?}");
        }
    }

    /// A server's settings that send mail here.
    fn config(&self, database_url: &str) -> ServeConfig {
        let mut config = ServeConfig::for_tests(database_url);
        self.point(&mut config);
        config
    }

    fn point(&self, config: &mut ServeConfig) {
        config.smtp_url = format!("smtp://127.0.0.1:{}", self.port);
        config.smtp_from = "Omweso <noreply@omweso.test>".into();
        config.public_origin = vec![ORIGIN.into()];
    }
}

/// The code of the link `{ORIGIN}/account?{what}=CODE` in `mail`'s body.
fn code_in(mail: &Value, what: &str) -> String {
    let body = mail["body"].as_str().expect("a body");
    let start = format!("{ORIGIN}/account?{what}=");
    let at = body
        .find(&start)
        .unwrap_or_else(|| panic!("no {start} in {body}"));
    let code: String = body[at + start.len()..]
        .chars()
        .take_while(char::is_ascii_alphanumeric)
        .collect();
    assert_eq!(code.len(), 16, "{body}");
    code
}

#[tokio::test]
async fn an_address_verified_by_its_link_resets_the_password_once_and_signs_out_everywhere() {
    for (url, pg) in databases().await {
        let mut catcher = MailCatcher::start().await;
        let server = TestServer::start_with(catcher.config(&url)).await;
        let made = sign_up(&server, None, "Nakato").await;
        let first = token(&made);
        let second = token(&log_in(&server, "nakato").await);

        let (status, account) = account_of(&server, &first).await;
        assert_eq!(status, 200, "{account}");
        assert_eq!(
            account,
            json!({"username":"Nakato","email_verified":false,"email_enabled":true})
        );
        let (guest, _) = server.session("Guest").await;
        assert_eq!(
            account_of(&server, &guest).await,
            (200, json!({"email_verified":false,"email_enabled":true}))
        );
        let set = |token: String, email: &'static str, password: &'static str| {
            let server = &server;
            async move {
                server
                    .put(
                        "/api/account/email",
                        &token,
                        json!({"email": email, "password": password}),
                    )
                    .await
            }
        };
        assert_eq!(
            refusal(&set(guest.clone(), "g@example.org", PASSWORD).await),
            (409, "not_account")
        );
        assert_eq!(
            refusal(&set(first.clone(), "kato@example.org", NEW_PASSWORD).await),
            (401, "bad_credentials")
        );
        let bad = set(first.clone(), "kato at example", PASSWORD).await;
        assert_eq!(refusal(&bad), (400, "bad_email"));
        assert_eq!(
            bad.1["error"]["message"],
            "\"kato at example\" is not an e-mail address like name@example.org"
        );
        assert_eq!(
            set(first.clone(), " kato@example.org ", PASSWORD).await,
            (204, Value::Null)
        );
        let mail = catcher.next().await;
        assert_eq!(mail["to"], json!(["kato@example.org"]));
        assert_eq!(mail["from"], "noreply@omweso.test");
        assert_eq!(mail["header_from"], "Omweso <noreply@omweso.test>");
        assert_eq!(mail["subject"], "Omweso: confirm your e-mail address");
        let verify = code_in(&mail, "verify");
        assert_eq!(
            mail["body"],
            format!(
                "Hello Nakato,\n\n\
                 Open this link to confirm that this is your address on Omweso:\n\n\
                 {ORIGIN}/account?verify={verify}\n\n\
                 It works once, for 24 hours. Once confirmed, you can have a link to set a new\n\
                 password sent here if you forget yours.\n\n\
                 If you did not ask for this, ignore this mail: nothing is sent here again\n\
                 unless the address is confirmed.\n"
            )
        );
        assert_eq!(
            account_of(&server, &first).await.1,
            json!({"username":"Nakato","email":"kato@example.org","email_verified":false,"email_enabled":true})
        );

        // Not verified yet: a reset sends nothing (the next mail is the later one).
        let reset = |username: &'static str| {
            let server = &server;
            async move {
                server
                    .post_anonymous("/api/login/email-reset", json!({"username": username}))
                    .await
            }
        };
        assert_eq!(reset("nakato").await, (202, Value::Null));

        // The link works from any device (no session), once.
        let verified = server
            .post_anonymous("/api/account/email/verify", json!({"code": verify}))
            .await;
        assert_eq!(verified, (204, Value::Null));
        let again = server
            .post_anonymous("/api/account/email/verify", json!({"code": verify}))
            .await;
        assert_eq!(refusal(&again), (400, "bad_code"));
        assert_eq!(
            account_of(&server, &second).await.1,
            json!({"username":"Nakato","email":"kato@example.org","email_verified":true,"email_enabled":true})
        );

        // An unknown username: the same 202, and no mail (the next one is Nakato's).
        assert_eq!(reset("nobody").await, (202, Value::Null));
        assert_eq!(reset("NAKATO").await, (202, Value::Null));
        let mail = catcher.next().await;
        assert_eq!(mail["to"], json!(["kato@example.org"]));
        assert_eq!(mail["subject"], "Omweso: set a new password");
        let code = code_in(&mail, "reset");
        // Greeted by the username as stored, not as the request spelled it.
        assert_eq!(
            mail["body"],
            format!(
                "Hello Nakato,\n\n\
                 Someone, probably you, asked to set a new password for this account.\n\
                 Open this link to choose one:\n\n\
                 {ORIGIN}/account?reset={code}\n\n\
                 It works once, for 30 minutes, and signs the account out on every\n\
                 device. If you did not ask for this, ignore this mail: your password\n\
                 stays as it is.\n"
            )
        );

        let confirm = |code: String, password: &'static str| {
            let server = &server;
            async move {
                server
                    .post_anonymous(
                        "/api/login/email-reset/confirm",
                        json!({"code": code, "password": password}),
                    )
                    .await
            }
        };
        // A weak password is refused before the code is spent.
        assert_eq!(
            refusal(&confirm(code.clone(), "nakato1234").await),
            (400, "weak_password")
        );
        let (status, signed_in) = confirm(code.to_lowercase(), NEW_PASSWORD).await;
        assert_eq!(status, 200, "{signed_in}");
        assert_eq!(signed_in["player_id"], made["player_id"]);
        assert_eq!(signed_in["username"], "Nakato");
        let here = token(&signed_in);
        assert_eq!(server.get("/api/me", &here).await.0, 200);
        for old in [&first, &second] {
            assert_eq!(
                refusal(&server.get("/api/me", old).await),
                (401, "no_session")
            );
        }
        assert_eq!(
            refusal(&confirm(code, NEW_PASSWORD).await),
            (400, "bad_code")
        );
        let old = server
            .post_anonymous(
                "/api/login",
                json!({"username": "nakato", "password": PASSWORD}),
            )
            .await;
        assert_eq!(refusal(&old), (401, "bad_credentials"));
        let (status, _) = server
            .post_anonymous(
                "/api/login",
                json!({"username": "nakato", "password": NEW_PASSWORD}),
            )
            .await;
        assert_eq!(status, 200);

        // A reset done voids the account's other reset links.
        assert_eq!(reset("nakato").await.0, 202);
        assert_eq!(reset("nakato").await.0, 202);
        let earlier = code_in(&catcher.next().await, "reset");
        let later = code_in(&catcher.next().await, "reset");
        assert_eq!(confirm(later, PASSWORD).await.0, 200);
        assert_eq!(
            refusal(&confirm(earlier, NEW_PASSWORD).await),
            (400, "bad_code")
        );

        // The address removed: no more reset mail.
        let (_, relogged) = server
            .post_anonymous(
                "/api/login",
                json!({"username": "nakato", "password": PASSWORD}),
            )
            .await;
        let relogged = token(&relogged);
        assert_eq!(
            server.delete("/api/account/email", &relogged).await,
            (204, Value::Null)
        );
        assert_eq!(
            account_of(&server, &relogged).await.1,
            json!({"username":"Nakato","email_verified":false,"email_enabled":true})
        );
        assert_eq!(reset("nakato").await, (202, Value::Null));
        catcher.none_within(Duration::from_millis(500)).await;
        server.stop().await;
        if let Some(pg) = pg {
            pg.drop_database().await;
        }
    }
}

#[tokio::test]
async fn without_smtp_the_calls_are_refused_and_the_account_says_mail_is_off() {
    let server = TestServer::start("sqlite::memory:").await;
    let made = sign_up(&server, None, "Okello").await;
    let me = token(&made);
    assert_eq!(
        account_of(&server, &me).await,
        (
            200,
            json!({"username":"Okello","email_verified":false,"email_enabled":false})
        )
    );
    let off = server
        .put(
            "/api/account/email",
            &me,
            json!({"email": "okello@example.org", "password": PASSWORD}),
        )
        .await;
    assert_eq!(refusal(&off), (409, "email_off"));
    assert_eq!(
        off.1["error"]["message"],
        "this server sends no e-mail: its operator has not set it up"
    );
    for (path, body) in [
        (
            "/api/account/email/verify",
            json!({"code": "ABCDEFGHJKMNPQRS"}),
        ),
        ("/api/login/email-reset", json!({"username": "okello"})),
        (
            "/api/login/email-reset/confirm",
            json!({"code": "ABCDEFGHJKMNPQRS", "password": NEW_PASSWORD}),
        ),
    ] {
        let answer = server.post_anonymous(path, body).await;
        assert_eq!(refusal(&answer), (409, "email_off"), "{path}");
    }
    // What is stored can be removed whatever the settings.
    assert_eq!(
        server.delete("/api/account/email", &me).await,
        (204, Value::Null)
    );
    server.stop().await;
}

#[tokio::test]
async fn mail_asked_for_an_account_is_limited_whether_or_not_it_exists() {
    let mut catcher = MailCatcher::start().await;
    let mut config = config_with(|l| {
        l.mails_per_account_per_hour = 2;
        l.mails_per_ip_per_hour = 5;
    });
    catcher.point(&mut config);
    let server = TestServer::start_with(config).await;
    let reset = |username: &'static str| {
        let server = &server;
        async move {
            server
                .post_anonymous("/api/login/email-reset", json!({"username": username}))
                .await
        }
    };
    assert_eq!(reset("nobody").await.0, 202);
    assert_eq!(reset("Nobody").await.0, 202);
    let third = reset("NOBODY").await;
    assert_eq!(refusal(&third), (429, "rate_limited"));
    assert_eq!(
        third.1["error"]["message"],
        "2 mails were asked for this account in the last hour; use the last one, or try again later"
    );
    assert_eq!(reset("someone").await.0, 202);
    assert_eq!(reset("another").await.0, 202);
    let sixth = reset("yet_another").await;
    assert_eq!(refusal(&sixth), (429, "rate_limited"));
    assert_eq!(
        sixth.1["error"]["message"],
        "this address asked for 5 mails in the last hour; try again later"
    );
    catcher.none_within(Duration::from_millis(300)).await;
    server.stop().await;
}

#[tokio::test]
async fn an_smtp_server_that_does_not_answer_holds_up_no_request() {
    // A port nothing listens on: the mail fails in the background, the request answers.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = closed.local_addr().unwrap().port();
    drop(closed);
    let mut config = ServeConfig::for_tests("sqlite::memory:");
    config.smtp_url = format!("smtp://127.0.0.1:{port}");
    config.smtp_from = "noreply@omweso.test".into();
    config.public_origin = vec![ORIGIN.into()];
    let server = TestServer::start_with(config).await;
    let me = token(&sign_up(&server, None, "Auma").await);
    let started = std::time::Instant::now();
    let (status, _) = server
        .put(
            "/api/account/email",
            &me,
            json!({"email": "auma@example.org", "password": PASSWORD}),
        )
        .await;
    assert_eq!(status, 204);
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    server.stop().await;
}

/// `GET /api/account` as `token`, with its joining date checked (a number, for a person)
/// and taken out, so that the rest compares exactly.
async fn account_of(server: &crate::common::Remote, token: &str) -> (u16, Value) {
    let (status, mut account) = server.get("/api/account", token).await;
    if let Some(fields) = account.as_object_mut() {
        if let Some(since) = fields.remove("member_since_ms") {
            assert!(since.as_i64().is_some_and(|ms| ms > 0), "{since}");
        }
    }
    (status, account)
}

/// Without a session, `GET /api/account` says only whether the server sends mail (for a
/// visitor who forgot their password).
#[tokio::test]
async fn a_visitor_learns_only_whether_mail_is_sent() {
    let server = TestServer::start("sqlite::memory:").await;
    assert_eq!(
        server.get("/api/account", "").await,
        (
            200,
            json!({"email_verified": false, "email_enabled": false})
        )
    );
    server.stop().await;
}
