//! Persons and devices: stored by their token hash, seen, used, revoked and expired;
//! accounts, link and recovery codes; the upgrade from sessions.

use omweso_server::store::{
    hash_token, KnownDeviceRow, LinkCodeRow, NewDevice, RelayCodeRow, SessionChange, SessionRow,
    StoreError, Write,
};
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

/// Devices are seen, used, revoked and expired (docs/security.md#sessions), on every
/// backend: an unused guest's device expires sooner, and the guest with it.
#[tokio::test]
async fn sessions_are_seen_used_revoked_and_expired() {
    for_each_db(ALL, |db| async move {
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
        write(SessionChange::Seen {
            device_id: fresh.device_id,
            at_ms: 90_000,
        })
        .await
        .unwrap();
        write(SessionChange::Used {
            device_id: player.device_id,
            person_id: player.player_id,
            at_ms: 20_000,
        })
        .await
        .unwrap();
        write(SessionChange::Revoke(gone.device_id)).await.unwrap();
        // Changes to a device that is gone are no error.
        write(SessionChange::Seen {
            device_id: gone.device_id,
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
        // The unused guests with no device left are gone; the used one stays on record.
        assert_eq!(store.person(idle.player_id).await.unwrap(), None);
        assert_eq!(store.person(gone.player_id).await.unwrap(), None);
        write(SessionChange::Expire {
            now_ms: 200_000,
            before_ms: 115_000,
            unused_before_ms: 150_000,
        })
        .await
        .unwrap();
        assert_eq!(read(&fresh).await, None);
        assert_eq!(read(&player).await, None);
        let kept = store.person(player.player_id).await.unwrap().unwrap();
        assert_eq!((kept.name.as_str(), kept.username), ("Player", None));
        store.close().await;
    })
    .await;
}

/// A guest becomes an account in place; usernames are unique by key; a person holds many
/// devices, signed out one by one or all but one; a link code and a recovery code work
/// once; a disabled account's devices find no session.
#[tokio::test]
async fn persons_hold_accounts_devices_and_one_time_codes() {
    for_each_db(ALL, |db| async move {
        let store = db.open().await;
        let write = |changes: Vec<SessionChange>| {
            let store = store.clone();
            async move {
                let writes: Vec<Write> = changes.into_iter().map(Write::Session).collect();
                store.write(&writes).await
            }
        };
        let (_, kato) = session("Kato", 1_000);
        let (_, other) = session("Other", 1_000);
        store.insert_session(&kato).await.unwrap();
        store.insert_session(&other).await.unwrap();
        let account = |person_id, username: &str, key: &str| SessionChange::MakeAccount {
            person_id,
            username: username.into(),
            username_key: key.into(),
            password_hash: "$argon2id$fake".into(),
            recovery_hashes: vec!["r1".into(), "r2".into()],
        };
        write(vec![account(kato.player_id, "Kato", "kato")])
            .await
            .unwrap();
        let person = store.person_by_username_key("kato").await.unwrap().unwrap();
        assert_eq!(person.id, kato.player_id);
        assert_eq!(person.username.as_deref(), Some("Kato"));
        assert_eq!(person.password_hash.as_deref(), Some("$argon2id$fake"));
        // The same key for another person: a conflict, nothing written.
        let taken = write(vec![account(other.player_id, "KATO", "kato")])
            .await
            .unwrap_err();
        assert!(taken.is_conflict(), "{taken}");
        assert_eq!(
            store
                .person(other.player_id)
                .await
                .unwrap()
                .unwrap()
                .username,
            None
        );
        // An account cannot be made twice.
        let twice = write(vec![account(kato.player_id, "Kato2", "kato2")])
            .await
            .unwrap_err();
        assert!(
            matches!(twice, StoreError::NotFound(ref what) if what == "guest"),
            "{twice}"
        );

        // A second and a third device; signing out all but the second.
        let device = |label: &str, hash: &str| NewDevice {
            id: Uuid::new_v4(),
            person_id: kato.player_id,
            token_hash: hash.into(),
            label: label.into(),
            at_ms: 2_000,
            tournament_id: None,
        };
        let phone = device("Phone", "phone-hash");
        let laptop = device("Laptop", "laptop-hash");
        write(vec![
            SessionChange::AddDevice(phone.clone()),
            SessionChange::AddDevice(laptop.clone()),
        ])
        .await
        .unwrap();
        let listed: Vec<String> = store
            .devices_of(kato.player_id)
            .await
            .unwrap()
            .into_iter()
            .map(|d| d.label)
            .collect();
        assert_eq!(listed.len(), 3);
        let on_phone = store
            .session_by_token_hash("phone-hash")
            .await
            .unwrap()
            .unwrap();
        assert_eq!(
            (
                on_phone.player_id,
                on_phone.device_id,
                on_phone.username.as_deref(),
                on_phone.used
            ),
            (kato.player_id, phone.id, Some("Kato"), true)
        );
        write(vec![SessionChange::RevokeAll {
            person_id: kato.player_id,
            keep: Some(phone.id),
        }])
        .await
        .unwrap();
        let left: Vec<Uuid> = store
            .devices_of(kato.player_id)
            .await
            .unwrap()
            .into_iter()
            .map(|d| d.id)
            .collect();
        assert_eq!(left, vec![phone.id]);
        // The other person's device is untouched.
        assert!(store
            .session_by_token_hash(&other.token_hash)
            .await
            .unwrap()
            .is_some());

        // A link code: found until it expires, taken once.
        write(vec![SessionChange::AddLinkCode(LinkCodeRow {
            code_hash: "code".into(),
            person_id: kato.player_id,
            made_by: other.player_id,
            expires_at_ms: 10_000,
            tournament_id: None,
        })])
        .await
        .unwrap();
        assert!(store.link_code("code", 9_999).await.unwrap().is_some());
        assert_eq!(store.link_code("code", 10_000).await.unwrap(), None);
        let take = |now_ms| SessionChange::TakeLinkCode {
            code_hash: "code".into(),
            now_ms,
        };
        let expired = write(vec![take(10_000)]).await.unwrap_err();
        assert!(matches!(expired, StoreError::NotFound(_)), "{expired}");
        write(vec![take(5_000)]).await.unwrap();
        let again = write(vec![take(5_000)]).await.unwrap_err();
        assert!(matches!(again, StoreError::NotFound(ref what) if what == "link code"));

        // A director's code is limited to its tournament, and so is the device it makes.
        let club = Uuid::new_v4();
        write(vec![SessionChange::AddLinkCode(LinkCodeRow {
            code_hash: "director-code".into(),
            person_id: kato.player_id,
            made_by: other.player_id,
            expires_at_ms: 10_000,
            tournament_id: Some(club),
        })])
        .await
        .unwrap();
        let code = store.link_code("director-code", 1).await.unwrap().unwrap();
        assert_eq!(code.tournament_id, Some(club));
        write(vec![SessionChange::AddDevice(NewDevice {
            tournament_id: Some(club),
            ..device("Borrowed", "limited-hash")
        })])
        .await
        .unwrap();
        let limited = store
            .session_by_token_hash("limited-hash")
            .await
            .unwrap()
            .unwrap();
        assert_eq!(limited.tournament_id, Some(club));
        let listed = store.devices_of(kato.player_id).await.unwrap();
        assert_eq!(
            listed
                .iter()
                .find(|d| d.label == "Borrowed")
                .unwrap()
                .tournament_id,
            Some(club)
        );
        write(vec![SessionChange::Revoke(limited.device_id)])
            .await
            .unwrap();

        // A relay invite's code finds its table until it expires or is claimed.
        write(vec![SessionChange::AddRelayCode(RelayCodeRow {
            code_hash: "relay".into(),
            tournament_id: club,
            round: 2,
            table: 3,
            expires_at_ms: 10_000,
        })])
        .await
        .unwrap();
        let found = store.relay_code("relay", 9_999).await.unwrap().unwrap();
        assert_eq!(
            (found.tournament_id, found.round, found.table),
            (club, 2, 3)
        );
        assert_eq!(store.relay_code("relay", 10_000).await.unwrap(), None);
        write(vec![SessionChange::TakeRelayCode {
            code_hash: "relay".into(),
        }])
        .await
        .unwrap();
        assert_eq!(store.relay_code("relay", 1).await.unwrap(), None);

        // A person's devices' marks: the newest twenty are kept.
        for i in 0..21 {
            write(vec![SessionChange::AddKnownDevice(KnownDeviceRow {
                key_hash: format!("mark-{i}"),
                person_id: kato.player_id,
                created_at_ms: 1_000 + i,
            })])
            .await
            .unwrap();
        }
        assert_eq!(store.known_device("mark-0").await.unwrap(), None);
        assert_eq!(
            store.known_device("mark-1").await.unwrap(),
            Some(kato.player_id)
        );
        assert_eq!(
            store.known_device("mark-20").await.unwrap(),
            Some(kato.player_id)
        );

        // A recovery code works once, and with it the password changes in one go.
        let recover = || {
            vec![
                SessionChange::UseRecoveryCode {
                    person_id: kato.player_id,
                    code_hash: "r2".into(),
                },
                SessionChange::SetPassword {
                    person_id: kato.player_id,
                    password_hash: "$argon2id$new".into(),
                },
            ]
        };
        write(recover()).await.unwrap();
        let refused = write(recover()).await.unwrap_err();
        assert!(matches!(refused, StoreError::NotFound(ref what) if what == "recovery code"));
        let person = store.person(kato.player_id).await.unwrap().unwrap();
        assert_eq!(person.password_hash.as_deref(), Some("$argon2id$new"));

        // Disabled: its devices find no session; enabled again, they do.
        let disable = |at_ms| SessionChange::Disable {
            person_id: kato.player_id,
            at_ms,
        };
        write(vec![disable(Some(7_000))]).await.unwrap();
        assert_eq!(
            store.session_by_token_hash("phone-hash").await.unwrap(),
            None
        );
        assert_eq!(
            store
                .person(kato.player_id)
                .await
                .unwrap()
                .unwrap()
                .disabled_at_ms,
            Some(7_000)
        );
        write(vec![disable(None)]).await.unwrap();
        assert!(store
            .session_by_token_hash("phone-hash")
            .await
            .unwrap()
            .is_some());

        // Rotation: the old token finds nothing, the new one the same device.
        write(vec![SessionChange::Rotate {
            device_id: phone.id,
            token_hash: "phone-2".into(),
        }])
        .await
        .unwrap();
        assert_eq!(
            store.session_by_token_hash("phone-hash").await.unwrap(),
            None
        );
        let rotated = store
            .session_by_token_hash("phone-2")
            .await
            .unwrap()
            .unwrap();
        assert_eq!(rotated.device_id, phone.id);
        store.close().await;
    })
    .await;
}

/// A database from before persons (migration 4): every session becomes a guest person with
/// one device, its token still good, its last use and use kept.
#[tokio::test]
async fn sessions_of_an_older_database_become_persons_with_one_device() {
    for_each_db(PERSISTENT, |db| async move {
        let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../migrations");
        let mut migrator = sqlx::migrate::Migrator::new(dir).await.unwrap();
        migrator.migrations = migrator
            .migrations
            .iter()
            .filter(|m| m.version <= 4)
            .cloned()
            .collect::<Vec<_>>()
            .into();
        match db.kind {
            Kind::Postgres => {
                let pool = sqlx::PgPool::connect(&db.url).await.unwrap();
                migrator.run(&pool).await.unwrap();
                pool.close().await;
            }
            _ => {
                let options: sqlx::sqlite::SqliteConnectOptions =
                    db.url.parse::<sqlx::sqlite::SqliteConnectOptions>().unwrap().create_if_missing(true);
                let pool = sqlx::SqlitePool::connect_with(options).await.unwrap();
                migrator.run(&pool).await.unwrap();
                pool.close().await;
            }
        }
        let id = Uuid::new_v4();
        let insert = format!(
            "INSERT INTO sessions (player_id, token_hash, name, created_at_ms, last_seen_ms, used) \
             VALUES ('{id}', '{}', 'Nakato', 5, 9, 1)",
            hash_token("old-token")
        );
        db.raw(&insert, &insert).await;
        // A session from before migration 4 on a server that never started with it: no
        // last use.
        let older = Uuid::new_v4();
        let insert = format!(
            "INSERT INTO sessions (player_id, token_hash, name, created_at_ms, last_seen_ms, used) \
             VALUES ('{older}', '{}', 'Apio', 3, NULL, 1)",
            hash_token("older-token")
        );
        db.raw(&insert, &insert).await;
        let tournament = Uuid::new_v4();
        let director = Uuid::new_v4();
        let rows = [
            format!("INSERT INTO tournaments (id, name, ruleset, system, director, status, players, round, created_at_ms, updated_at_ms) \
             VALUES ('{tournament}', 'Cup', 'omweso', 'swiss', '{director}', 'open', 1, 0, 1, 1)"),
            format!("INSERT INTO tournament_log (tournament_id, seq, at_ms, kind, payload_json) \
             VALUES ('{tournament}', 0, 1, 'create', '{{\"kind\":\"create\",\"director\":\"{director}\"}}')"),
            format!("INSERT INTO tournament_log (tournament_id, seq, at_ms, kind, payload_json) \
             VALUES ('{tournament}', 1, 2, 'join', '{{\"kind\":\"join\",\"player\":\"{id}\",\"name\":\"Nakato\"}}')"),
        ];
        for row in &rows {
            db.raw(row, row).await;
        }

        let store = db.open().await;
        let found = store
            .session_by_token_hash(&hash_token("old-token"))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(
            (found.player_id, found.device_id, found.name.as_str(), found.last_seen_ms, found.used),
            (id, id, "Nakato", 9, true)
        );
        let person = store.person(id).await.unwrap().unwrap();
        assert_eq!((person.created_at_ms, person.username), (5, None));
        assert_eq!(store.devices_of(id).await.unwrap()[0].label, "A device");
        // The one with no last use counts as seen at the first sweep, not at its creation
        // (which would expire it at once).
        store
            .write(&[Write::Session(SessionChange::Expire {
                now_ms: 1_000_000,
                before_ms: 500_000,
                unused_before_ms: 900_000,
            })])
            .await
            .unwrap();
        let older_now = store
            .session_by_token_hash(&hash_token("older-token"))
            .await
            .unwrap()
            .expect("kept");
        assert_eq!((older_now.last_seen_ms, older_now.used), (1_000_000, true));
        assert_eq!(store.fill_tournament_people().await.unwrap(), 2);
        assert_eq!(store.fill_tournament_people().await.unwrap(), 0, "once only");
        let theirs = store.tournaments_of(id, 10).await.unwrap();
        assert_eq!(theirs.len(), 1);
        assert_eq!((theirs[0].tournament.id, theirs[0].role.as_str()), (tournament, "player"));
        let directs = store.tournaments_of(director, 10).await.unwrap();
        assert_eq!(directs[0].role, "director");
        // The stronger role stays: the director who also plays, a co-director named later
        // a player again.
        let listed = |person, role: &str| {
            Write::Session(SessionChange::InTournament {
                person_id: person,
                tournament_id: tournament,
                role: role.into(),
                at_ms: 9,
            })
        };
        store.write(&[listed(director, "player")]).await.unwrap();
        store.write(&[listed(id, "co-director"), listed(id, "player")]).await.unwrap();
        let roles = |person| {
            let store = store.clone();
            async move { store.tournaments_of(person, 10).await.unwrap()[0].role.clone() }
        };
        assert_eq!(roles(director).await, "director");
        assert_eq!(roles(id).await, "co-director");
        store.close().await;
    })
    .await;
}
