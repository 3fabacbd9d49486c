//! Recovery without e-mail: a recovery code sets a new password once and signs every
//! other device out; a password change signs the other devices out; new codes void the old.

use crate::common::TestServer;
use serde_json::json;

use super::*;

const NEW_PASSWORD: &str = "the akakyala capture of a lifetime";

#[tokio::test]
async fn a_recovery_code_sets_a_new_password_once_and_signs_out_everywhere() {
    for (url, pg) in databases().await {
        let server = TestServer::start(&url).await;
        let made = sign_up(&server, None, "Apio").await;
        let old_device = token(&made);
        let code = made["recovery_codes"][3].as_str().unwrap().to_owned();
        let recover = |code: String, password: &'static str| {
            let server = &server;
            async move {
                server
                    .post_anonymous(
                        "/api/login/recovery",
                        json!({"username": "apio", "code": code, "password": password}),
                    )
                    .await
            }
        };
        // A weak new password is refused before the code is spent.
        assert_eq!(
            refusal(&recover(code.clone(), "apio1234").await),
            (400, "weak_password")
        );
        let (status, recovered) = recover(code.to_uppercase(), NEW_PASSWORD).await;
        assert_eq!(status, 200, "{recovered}");
        assert_eq!(recovered["player_id"], made["player_id"]);
        assert_eq!(
            refusal(&server.get("/api/me", &old_device).await),
            (401, "no_session")
        );
        assert_eq!(
            refusal(&recover(code, NEW_PASSWORD).await),
            (400, "bad_code")
        );
        // The old password no longer logs in; the new one does.
        let old = server
            .post_anonymous(
                "/api/login",
                json!({"username": "apio", "password": PASSWORD}),
            )
            .await;
        assert_eq!(refusal(&old), (401, "bad_credentials"));
        let (status, _) = server
            .post_anonymous(
                "/api/login",
                json!({"username": "apio", "password": NEW_PASSWORD}),
            )
            .await;
        assert_eq!(status, 200);

        // A password change keeps this device, signs out the others.
        let here = token(&recovered);
        let (_, other) = server
            .post_anonymous(
                "/api/login",
                json!({"username": "apio", "password": NEW_PASSWORD}),
            )
            .await;
        let other = token(&other);
        let wrong = server
            .put(
                "/api/account/password",
                &here,
                json!({"current": PASSWORD, "password": PASSWORD}),
            )
            .await;
        assert_eq!(refusal(&wrong), (401, "bad_credentials"));
        let (status, _) = server
            .put(
                "/api/account/password",
                &here,
                json!({"current": NEW_PASSWORD, "password": PASSWORD}),
            )
            .await;
        assert_eq!(status, 204);
        assert_eq!(server.get("/api/me", &here).await.0, 200);
        assert_eq!(
            refusal(&server.get("/api/me", &other).await),
            (401, "no_session")
        );

        // New recovery codes void the old.
        let (status, renewed) = server
            .post(
                "/api/account/recovery-codes",
                &here,
                json!({"password": PASSWORD}),
            )
            .await;
        assert_eq!(status, 200, "{renewed}");
        let fresh = renewed["recovery_codes"][0].as_str().unwrap().to_owned();
        let voided = made["recovery_codes"][0].as_str().unwrap().to_owned();
        assert_eq!(
            refusal(&recover(voided, NEW_PASSWORD).await),
            (400, "bad_code")
        );
        assert_eq!(recover(fresh, NEW_PASSWORD).await.0, 200);

        // A guest has no password to change.
        let (guest, _) = server.session("Guest").await;
        let none = server
            .put(
                "/api/account/password",
                &guest,
                json!({"current": "x", "password": NEW_PASSWORD}),
            )
            .await;
        assert_eq!(refusal(&none), (409, "not_account"));
        server.stop().await;
        if let Some(pg) = pg {
            pg.drop_database().await;
        }
    }
}
