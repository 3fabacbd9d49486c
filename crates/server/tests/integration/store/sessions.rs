//! Sessions: stored by their token hash, seen used, revoked and expired.

use omweso_server::store::{hash_token, SessionChange, SessionRow, Write};
use uuid::Uuid;

use super::*;

#[tokio::test]
async fn sessions_round_trip_and_are_found_by_token_hash() {
    assert_eq!(
        hash_token("abc"),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
    for_each_db(ALL, |db| async move {
        let store = db.open().await;
        let (token, kato) = session("Kato", 1_700_000_000_123);
        let (_, nakato) = session("Nakato ✓ 'quote'", 1_700_000_000_456);
        store.insert_session(&kato).await.unwrap();
        store.insert_session(&nakato).await.unwrap();

        let found = store
            .session_by_token_hash(&hash_token(&token))
            .await
            .unwrap();
        assert_eq!(found, Some(kato.clone()));
        let found = store
            .session_by_token_hash(&nakato.token_hash)
            .await
            .unwrap();
        assert_eq!(found, Some(nakato.clone()));
        assert_eq!(
            store
                .session_by_token_hash(&hash_token("nobody"))
                .await
                .unwrap(),
            None
        );

        // The token hash is unique.
        let mut twin = session("Twin", 1).1;
        twin.token_hash = kato.token_hash.clone();
        let err = store.insert_session(&twin).await.unwrap_err();
        assert!(err.is_conflict(), "{err}");
        store.close().await;
    })
    .await;
}

/// Sessions are seen, used, revoked and expired (docs/security.md, sessions), on every
/// backend; a session stored before migration 4 counts as used and as seen when the
/// server first sweeps, not at its creation (or every old session would expire at once).
#[tokio::test]
async fn sessions_are_seen_used_revoked_and_expired() {
    for_each_db(PERSISTENT, |db| async move {
        let store = db.open().await;
        let (_, fresh) = session("Fresh", 1_000);
        let (_, idle) = session("Idle", 1_000);
        let (_, player) = session("Player", 1_000);
        let (gone_token, gone) = session("Gone", 1_000);
        let write = |change| {
            let store = store.clone();
            async move { store.write(&[Write::Session(change)]).await }
        };
        for row in [&fresh, &idle, &player, &gone] {
            store.insert_session(row).await.unwrap();
        }
        // A session from before the migration: no last use, counted as used.
        let old_id = Uuid::new_v4();
        let old_insert = format!(
            "INSERT INTO sessions (player_id, token_hash, name, created_at_ms) \
             VALUES ('{old_id}', 'old-hash', 'Old', 5)"
        );
        db.raw(&old_insert, &old_insert).await;
        let old = store
            .session_by_token_hash("old-hash")
            .await
            .unwrap()
            .unwrap();
        assert_eq!((old.last_seen_ms, old.used), (5, true), "{old:?}");

        write(SessionChange::Seen {
            player_id: fresh.player_id,
            at_ms: 90_000,
        })
        .await
        .unwrap();
        write(SessionChange::Used {
            player_id: player.player_id,
            at_ms: 20_000,
        })
        .await
        .unwrap();
        write(SessionChange::Revoke(gone.player_id)).await.unwrap();
        // Changes to a session that is gone are no error.
        write(SessionChange::Seen {
            player_id: gone.player_id,
            at_ms: 1,
        })
        .await
        .unwrap();
        let read = |row: &SessionRow| {
            let hash = row.token_hash.clone();
            let store = store.clone();
            async move { store.session_by_token_hash(&hash).await.unwrap() }
        };
        let fresh_now = read(&fresh).await.unwrap();
        assert_eq!((fresh_now.last_seen_ms, fresh_now.used), (90_000, false));
        let player_now = read(&player).await.unwrap();
        assert_eq!((player_now.last_seen_ms, player_now.used), (20_000, true));
        assert_eq!(
            store
                .session_by_token_hash(&hash_token(&gone_token))
                .await
                .unwrap(),
            None
        );

        // At 100 s: unused sessions last 50 s, used ones 85 s.
        write(SessionChange::Expire {
            now_ms: 100_000,
            before_ms: 15_000,
            unused_before_ms: 50_000,
        })
        .await
        .unwrap();
        assert!(read(&fresh).await.is_some(), "unused, seen 10 s ago");
        assert_eq!(read(&idle).await, None, "unused, seen 99 s ago");
        assert!(read(&player).await.is_some(), "used, seen 80 s ago");
        let old = store
            .session_by_token_hash("old-hash")
            .await
            .unwrap()
            .unwrap();
        assert_eq!(old.last_seen_ms, 100_000, "seen at the sweep, not expired");
        write(SessionChange::Expire {
            now_ms: 200_000,
            before_ms: 115_000,
            unused_before_ms: 150_000,
        })
        .await
        .unwrap();
        assert_eq!(read(&fresh).await, None);
        assert_eq!(read(&player).await, None);
        assert_eq!(store.session_by_token_hash("old-hash").await.unwrap(), None);
        store.close().await;
    })
    .await;
}
