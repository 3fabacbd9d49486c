//! One account on several devices: log-in rotates nothing of the others, each device is
//! signed out on its own (its sockets closed), "everywhere else" keeps this one; a link
//! code moves a guest to another phone; tokens revoked or expired are refused; a session
//! fixed before log-in is not the one after.

use std::time::Duration;

use crate::common::{config_with, TestServer};
use serde_json::json;

use super::*;

#[tokio::test]
async fn an_account_signs_in_on_several_devices_and_signs_each_out() {
    for (url, pg) in databases().await {
        let server = TestServer::start(&url).await;
        let made = sign_up(&server, None, "Nakato").await;
        let laptop = token(&made);
        // The phone logs in carrying a session it was given before (fixed by someone
        // else, say): that token is signed out, and the account's is a new one.
        let (planted, _) = server.session("").await;
        let (status, phone_session) = server
            .post(
                "/api/login",
                &planted,
                json!({"username": "nakato", "password": PASSWORD}),
            )
            .await;
        assert_eq!(status, 200, "{phone_session}");
        let phone = token(&phone_session);
        assert_ne!(phone, planted);
        assert_eq!(
            refusal(&server.get("/api/me", &planted).await),
            (401, "no_session")
        );
        assert_eq!(phone_session["player_id"], made["player_id"]);
        assert_ne!(phone_session["device_id"], made["device_id"]);
        let tablet = token(&log_in(&server, "NAKATO").await);

        let (status, list) = server.get("/api/devices", &phone).await;
        assert_eq!(status, 200, "{list}");
        let devices = list["devices"].as_array().unwrap();
        assert_eq!(devices.len(), 3);
        let current: Vec<bool> = devices
            .iter()
            .map(|d| d["current"].as_bool().unwrap())
            .collect();
        assert_eq!(current.iter().filter(|c| **c).count(), 1);
        let this = devices.iter().find(|d| d["current"] == true).unwrap();
        assert_eq!(this["id"], phone_session["device_id"]);

        // The phone signs the laptop out: the laptop's token and socket stop at once.
        let (_, me) = server.get("/api/me", &laptop).await;
        assert_eq!(me["username"], "Nakato");
        let mut lobby = server.socket_at(&format!("/ws/lobby?token={laptop}")).await;
        lobby.recv().await;
        let laptop_id = made["device_id"].as_str().unwrap();
        let (status, _) = server
            .delete(&format!("/api/devices/{laptop_id}"), &phone)
            .await;
        assert_eq!(status, 204);
        assert_eq!(
            refusal(&server.get("/api/me", &laptop).await),
            (401, "no_session")
        );
        let frame = lobby.close_frame().await.expect("a close frame");
        assert_eq!(u16::from(frame.code), 1008, "{}", frame.reason);
        // Another person's device, or one already gone: not found.
        let (stranger, _) = server.session("Stranger").await;
        let not_theirs = server
            .delete(
                &format!(
                    "/api/devices/{}",
                    phone_session["device_id"].as_str().unwrap()
                ),
                &stranger,
            )
            .await;
        assert_eq!(refusal(&not_theirs), (404, "not_found"));
        assert_eq!(
            refusal(
                &server
                    .delete(&format!("/api/devices/{laptop_id}"), &phone)
                    .await
            ),
            (404, "not_found")
        );

        // Everywhere else: the tablet goes, the phone stays.
        let (status, _) = server.delete("/api/devices", &phone).await;
        assert_eq!(status, 204);
        assert_eq!(
            refusal(&server.get("/api/me", &tablet).await),
            (401, "no_session")
        );
        let (status, list) = server.get("/api/devices", &phone).await;
        assert_eq!(
            (status, list["devices"].as_array().unwrap().len()),
            (200, 1)
        );
        server.stop().await;
        if let Some(pg) = pg {
            pg.drop_database().await;
        }
    }
}

/// A guest moves to another phone with a link code, no account needed; the code works
/// once; the phone's earlier session (the one it came with: a fixed session) is signed
/// out, not kept.
#[tokio::test]
async fn a_link_code_makes_another_device_the_same_person_once() {
    let server = TestServer::start("sqlite::memory:").await;
    let (guest, guest_id) = server.session("Kato").await;
    let (status, code) = server.post("/api/link-codes", &guest, json!({})).await;
    assert_eq!(status, 201, "{code}");
    let shown = code["code"].as_str().unwrap();
    assert_eq!(shown.len(), 9);
    assert!(code["qr_svg"].as_str().unwrap().contains("<svg"));
    assert_eq!(
        code["url"].as_str().unwrap(),
        format!(
            "http://{}/link?code={}",
            server.addr,
            shown.replace('-', "")
        )
    );
    // The new phone came with a session of its own (the silent guest of the lobby).
    let (phone_before, _) = server.session("").await;
    let (status, linked) = server
        .post(
            "/api/link",
            &phone_before,
            json!({"code": shown.to_lowercase()}),
        )
        .await;
    assert_eq!(status, 200, "{linked}");
    assert_eq!(linked["player_id"], guest_id.as_str());
    assert_eq!(linked["name"], "Kato");
    let phone = token(&linked);
    assert_ne!(phone, phone_before);
    assert_eq!(
        refusal(&server.get("/api/me", &phone_before).await),
        (401, "no_session")
    );
    let (_, me) = server.get("/api/me", &phone).await;
    assert_eq!(me["player_id"], guest_id.as_str());
    // Both devices work; the code does not work twice, nor does a wrong one.
    let (_, me) = server.get("/api/me", &guest).await;
    assert_eq!(me["player_id"], guest_id.as_str());
    let again = server
        .post_anonymous("/api/link", json!({"code": shown}))
        .await;
    assert_eq!(refusal(&again), (400, "bad_code"));
    assert_eq!(
        again.1["error"]["message"],
        "this code is wrong, used already or expired; ask for a new one"
    );
    let wrong = server
        .post_anonymous("/api/link", json!({"code": "0000-0000"}))
        .await;
    assert_eq!(refusal(&wrong), (400, "bad_code"));
    let garbled = server
        .post_anonymous("/api/link", json!({"code": "not a code"}))
        .await;
    assert_eq!(refusal(&garbled), (400, "bad_code"));
    server.stop().await;
}

/// A name change renames the person on every device instead of making a new guest; a
/// device signed out is refused at once.
#[tokio::test]
async fn a_rename_keeps_the_person_and_a_signed_out_token_is_refused() {
    let server = TestServer::start("sqlite::memory:").await;
    let made = sign_up(&server, None, "Okello").await;
    let first = token(&made);
    let second = token(&log_in(&server, "okello").await);
    let (status, renamed) = server
        .patch("/api/me", &second, json!({"name": "Okello P."}))
        .await;
    assert_eq!(status, 200, "{renamed}");
    assert_eq!(
        (renamed["name"].as_str(), &renamed["player_id"]),
        (Some("Okello P."), &made["player_id"])
    );
    let (_, me) = server.get("/api/me", &first).await;
    assert_eq!(
        me["name"], "Okello P.",
        "the other device sees the new name"
    );
    let bad = server
        .patch("/api/me", &first, json!({"name": "A\u{202e}B"}))
        .await;
    assert_eq!(refusal(&bad), (400, "bad_name"));

    let (status, _) = server.delete("/api/session", &second).await;
    assert_eq!(status, 204);
    assert_eq!(
        refusal(&server.get("/api/me", &second).await),
        (401, "no_session")
    );
    assert_eq!(server.get("/api/me", &first).await.0, 200);
    server.stop().await;
}

/// A device unused past the idle time is refused; the account outlives it.
#[tokio::test]
async fn an_expired_token_is_refused_and_the_account_logs_in_again() {
    let server = TestServer::start_with(config_with(|l| {
        // A used session idles out after 2 s.
        l.session_idle_days = 2.0 / 86_400.0;
    }))
    .await;
    let made = sign_up(&server, None, "Okello").await;
    tokio::time::sleep(Duration::from_millis(2_500)).await;
    assert_eq!(
        refusal(&server.get("/api/me", &token(&made)).await),
        (401, "no_session")
    );
    let back = log_in(&server, "okello").await;
    assert_eq!(back["player_id"], made["player_id"]);
    server.stop().await;
}

/// A link code made before does not outlive a sign-out everywhere else, a new password or
/// a guest becoming an account: whoever kept one back cannot come in with it.
#[tokio::test]
async fn link_codes_made_before_die_with_a_sign_out_everywhere_or_an_account() {
    let server = TestServer::start("sqlite::memory:").await;
    let code = |token: String| {
        let server = &server;
        async move {
            let (status, made) = server.post("/api/link-codes", &token, json!({})).await;
            assert_eq!(status, 201, "{made}");
            made["code"].as_str().unwrap().to_owned()
        }
    };
    let used = |code: String| {
        let server = &server;
        async move {
            server
                .post_anonymous("/api/link", json!({"code": code}))
                .await
        }
    };
    // A guest's code, then the guest makes an account.
    let (guest, _) = server.session("Kato").await;
    let kept = code(guest.clone()).await;
    let made = sign_up(&server, Some(&guest), "kato").await;
    assert_eq!(refusal(&used(kept).await), (400, "bad_code"));
    // An account's code, then "sign out everywhere else".
    let here = token(&made);
    let kept = code(here.clone()).await;
    let (status, _) = server.delete("/api/devices", &here).await;
    assert_eq!(status, 204);
    assert_eq!(refusal(&used(kept).await), (400, "bad_code"));
    // A fresh one still works.
    assert_eq!(used(code(here).await).await.0, 200);
    server.stop().await;
}
