//! The limits on one-time codes that do not depend on the address (docs/security.md#accounts):
//! wrong codes tried at one target (a tournament's co-director invitations, a board
//! table's relay invite) and on the whole server, each counted whatever the address, each
//! refilling over the hour; a director's new code starts its target afresh.

use crate::common::{config_with, TestServer};
use serde_json::{json, Value};

use super::*;

/// A tournament of `director` with one board table in play (two players), for relays.
async fn board_tournament(server: &crate::common::Remote, director: &str) -> String {
    let id = server
        .create_tournament(
            director,
            json!({"name": "Boards", "rounds": 1, "setup": "outer"}),
        )
        .await;
    server.join_tournament(&id, "A").await;
    server.join_tournament(&id, "B").await;
    server.pair_next_round(director, &id).await;
    let (status, r) = server
        .put(
            &format!("/api/tournaments/{id}/rounds/1/played-at"),
            director,
            json!({"played_at": "board"}),
        )
        .await;
    assert_eq!(status, 200, "{r}");
    let (status, r) = server
        .post(
            &format!("/api/tournaments/{id}/rounds/1/start"),
            director,
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{r}");
    id
}

fn limited_message(answer: &(u16, Value)) -> String {
    assert_eq!(refusal(answer), (429, "rate_limited"), "{answer:?}");
    answer.1["error"]["message"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn wrong_codes_at_one_target_are_limited_whatever_the_address() {
    let server = TestServer::start_with(config_with(|l| {
        l.codes_per_ip_per_minute = 10;
        l.code_failures_per_target_per_hour = 4;
        l.trusted_proxy = vec!["127.0.0.1".into()];
    }))
    .await;
    let (director, _) = server.session("TD").await;
    let (guest, _) = server.session("Guest").await;

    // A tournament's co-director invitations: four wrong codes from four addresses, then
    // even the right one is refused (a guess must not be testable), at this tournament only.
    let club = server
        .create_tournament(&director, json!({"name": "Club", "setup": "outer"}))
        .await;
    let other = server
        .create_tournament(&director, json!({"name": "Other", "setup": "outer"}))
        .await;
    let (status, invite) = server
        .post(
            &format!("/api/tournaments/{club}/co-director-invites"),
            &director,
            json!({}),
        )
        .await;
    assert_eq!(status, 201, "{invite}");
    let accept = |tournament: String, from: String, code: String| {
        let (server, guest) = (&server, &guest);
        async move {
            server
                .post_from(
                    &format!("/api/tournaments/{tournament}/co-directors/accept"),
                    guest,
                    &from,
                    json!({"code": code}),
                )
                .await
        }
    };
    for i in 0..4 {
        let wrong = accept(club.clone(), format!("203.0.113.{i}"), "0000-0000".into()).await;
        assert_eq!(refusal(&wrong), (400, "bad_code"), "{wrong:?}");
    }
    let right = invite["code"].as_str().unwrap().to_owned();
    let held = accept(club.clone(), "203.0.113.50".into(), right.clone()).await;
    assert_eq!(
        limited_message(&held),
        "this tournament's invitation codes were tried wrongly 4 times in the last hour: ask the director for a new code"
    );
    let elsewhere = accept(other.clone(), "203.0.113.51".into(), "0000-0000".into()).await;
    assert_eq!(
        refusal(&elsewhere),
        (400, "bad_code"),
        "another tournament is its own target"
    );
    // A new invitation starts the tournament's count afresh.
    let (status, invite) = server
        .post(
            &format!("/api/tournaments/{club}/co-director-invites"),
            &director,
            json!({}),
        )
        .await;
    assert_eq!(status, 201, "{invite}");
    let (status, r) = accept(
        club.clone(),
        "203.0.113.52".into(),
        invite["code"].as_str().unwrap().to_owned(),
    )
    .await;
    assert_eq!(status, 200, "{r}");

    // A board table's relay invite: the table is the target.
    let boards = board_tournament(&server, &director).await;
    let (status, invite) = server
        .post(
            &format!("/api/tournaments/{boards}/tables/1/1/relay-invite"),
            &director,
            json!({}),
        )
        .await;
    assert_eq!(status, 201, "{invite}");
    let claim = |from: String, code: String| {
        let (server, guest, boards) = (&server, &guest, &boards);
        async move {
            server
                .post_from(
                    &format!("/api/tournaments/{boards}/tables/1/1/relay"),
                    guest,
                    &from,
                    json!({"code": code}),
                )
                .await
        }
    };
    for i in 0..4 {
        let wrong = claim(format!("198.51.100.{i}"), "0000-0000".into()).await;
        assert_eq!(refusal(&wrong), (400, "bad_code"), "{wrong:?}");
    }
    let held = claim(
        "198.51.100.50".into(),
        invite["code"].as_str().unwrap().to_owned(),
    )
    .await;
    assert_eq!(
        limited_message(&held),
        "this table's relay code was tried wrongly 4 times in the last hour: ask the director for a new code"
    );
    let (status, invite) = server
        .post(
            &format!("/api/tournaments/{boards}/tables/1/1/relay-invite"),
            &director,
            json!({}),
        )
        .await;
    assert_eq!(status, 201, "{invite}");
    let (status, r) = claim(
        "198.51.100.51".into(),
        invite["code"].as_str().unwrap().to_owned(),
    )
    .await;
    assert_eq!(status, 200, "{r}");
    server.stop().await;
}

#[tokio::test]
async fn wrong_codes_on_the_whole_server_are_limited_whatever_the_address() {
    let server = TestServer::start_with(config_with(|l| {
        l.codes_per_ip_per_minute = 10;
        l.code_failures_per_hour = 6;
        l.trusted_proxy = vec!["127.0.0.1".into()];
    }))
    .await;
    let (kato, _) = server.session("Kato").await;
    let (status, code) = server.post("/api/link-codes", &kato, json!({})).await;
    assert_eq!(status, 201, "{code}");
    // Six addresses, one wrong code each: none is over its own limit.
    for i in 0..6 {
        let wrong = server
            .post_from(
                "/api/link",
                "",
                &format!("2001:db8:{i}::1"),
                json!({"code": "0000-0000"}),
            )
            .await;
        assert_eq!(refusal(&wrong), (400, "bad_code"), "{wrong:?}");
    }
    let held = server
        .post_from(
            "/api/link",
            "",
            "2001:db8:99::1",
            json!({"code": code["code"]}),
        )
        .await;
    assert_eq!(
        limited_message(&held),
        "6 wrong codes were tried on this server in the last hour: wait a few minutes and try again"
    );
    // The other code routes share the count.
    let (director, _) = server.session("TD").await;
    let club = server
        .create_tournament(&director, json!({"name": "Club", "setup": "outer"}))
        .await;
    let held = server
        .post_from(
            &format!("/api/tournaments/{club}/co-directors/accept"),
            &kato,
            "2001:db8:98::1",
            json!({"code": "0000-0000"}),
        )
        .await;
    assert_eq!(refusal(&held), (429, "rate_limited"), "{held:?}");
    server.stop().await;
}
