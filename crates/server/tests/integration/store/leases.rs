//! Several nodes on one database (docs/scaling.md#leases-and-fencing): heartbeats, claims
//! of leases with their epochs, orphaned leases, release, and the fence that refuses a
//! node's writes once its lease was taken over. Times are given explicitly (`now_ms`):
//! nothing here sleeps to let a heartbeat run out.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::time::Duration;

use omweso_server::store::lease::{Claim, Lease, LeaseKind, NodeRow};
use omweso_server::store::{Store, StoreError, Write, Writer};
use sqlx::Connection;
use tokio::sync::Barrier;
use uuid::Uuid;

use super::*;

/// Fixed ids, so that "by node id" has a known order: A < B < C.
const A: Uuid = Uuid::from_u128(0xa);
const B: Uuid = Uuid::from_u128(0xb);
const C: Uuid = Uuid::from_u128(0xc);

fn lease(kind: LeaseKind, id: Uuid, node: Uuid, epoch: i64) -> Lease {
    Lease {
        kind,
        id,
        node,
        epoch,
    }
}

fn mine(kind: LeaseKind, id: Uuid, node: Uuid, epoch: i64) -> Claim {
    Claim::Mine(lease(kind, id, node, epoch))
}

fn held(node: Uuid, name: &str) -> Claim {
    Claim::Held {
        node,
        name: name.to_owned(),
    }
}

fn node_row(node: Uuid, name: &str, started_at_ms: i64, expires_at_ms: i64) -> NodeRow {
    NodeRow {
        node,
        name: name.to_owned(),
        started_at_ms,
        expires_at_ms,
    }
}

#[tokio::test]
async fn heartbeats_keep_a_node_live_until_they_run_out_and_leaving_ends_it_at_once() {
    for_each_db(ALL, |db| async move {
        let store = db.open().await;
        assert_eq!(store.live_nodes(0).await.unwrap(), []);
        // B first: the list is by node id, not by arrival.
        store
            .heartbeat(B, "node-b", 50, 1_000, 5_000)
            .await
            .unwrap();
        store
            .heartbeat(A, "node-a", 100, 1_000, 2_000)
            .await
            .unwrap();
        let a = node_row(A, "node-a", 100, 3_000);
        let b = node_row(B, "node-b", 50, 6_000);
        assert_eq!(
            store.live_nodes(1_000).await.unwrap(),
            [a.clone(), b.clone()]
        );
        assert_eq!(store.live_nodes(2_999).await.unwrap(), [a, b.clone()]);
        // Expired at exactly expires_at_ms.
        assert_eq!(
            store.live_nodes(3_000).await.unwrap(),
            std::slice::from_ref(&b)
        );
        // A's next heartbeat renews its row (and the operator renamed it meanwhile).
        store
            .heartbeat(A, "node-a2", 100, 3_500, 2_000)
            .await
            .unwrap();
        let a = node_row(A, "node-a2", 100, 5_500);
        assert_eq!(
            store.live_nodes(3_500).await.unwrap(),
            [a.clone(), b.clone()]
        );
        // A leaves: gone at once, for every later time; B stays.
        store.leave(A).await.unwrap();
        assert_eq!(
            store.live_nodes(3_500).await.unwrap(),
            std::slice::from_ref(&b)
        );
        assert_eq!(store.live_nodes(0).await.unwrap(), [b]);
        // Leaving without a row is nothing.
        store.leave(C).await.unwrap();
        store.close().await;
    })
    .await;
}

#[tokio::test]
async fn a_claim_takes_a_free_lease_keeps_its_own_and_names_a_live_holder() {
    for_each_db(ALL, |db| async move {
        let store = db.open().await;
        store
            .heartbeat(A, "node-a", 10, 1_000, 10_000)
            .await
            .unwrap();
        store
            .heartbeat(B, "node-b", 20, 1_000, 10_000)
            .await
            .unwrap();
        let g = Uuid::new_v4();
        assert_eq!(store.lease(LeaseKind::Game, g).await.unwrap(), None);
        // No lease: epoch 1.
        assert_eq!(
            store.claim(LeaseKind::Game, g, A, 1_000).await.unwrap(),
            mine(LeaseKind::Game, g, A, 1)
        );
        // Its own: the same epoch, nothing changed (not even when claimed later).
        assert_eq!(
            store.claim(LeaseKind::Game, g, A, 5_000).await.unwrap(),
            mine(LeaseKind::Game, g, A, 1)
        );
        // A live other node's: held, named.
        assert_eq!(
            store.claim(LeaseKind::Game, g, B, 5_000).await.unwrap(),
            held(A, "node-a")
        );
        assert_eq!(
            store.lease(LeaseKind::Game, g).await.unwrap(),
            Some((
                lease(LeaseKind::Game, g, A, 1),
                Some(node_row(A, "node-a", 10, 11_000))
            ))
        );
        // A tournament with the same id is another lease.
        assert_eq!(
            store
                .claim(LeaseKind::Tournament, g, B, 5_000)
                .await
                .unwrap(),
            mine(LeaseKind::Tournament, g, B, 1)
        );
        assert_eq!(
            store.claim(LeaseKind::Game, g, A, 6_000).await.unwrap(),
            mine(LeaseKind::Game, g, A, 1)
        );
        store.close().await;
    })
    .await;
}

#[tokio::test]
async fn a_claim_takes_over_from_a_gone_holder_at_the_next_epoch() {
    for_each_db(ALL, |db| async move {
        let store = db.open().await;
        store
            .heartbeat(A, "node-a", 10, 1_000, 1_000)
            .await
            .unwrap();
        store
            .heartbeat(B, "node-b", 20, 1_000, 10_000)
            .await
            .unwrap();
        let g = Uuid::new_v4();
        assert_eq!(
            store.claim(LeaseKind::Game, g, A, 1_500).await.unwrap(),
            mine(LeaseKind::Game, g, A, 1)
        );
        // A is alive until 2,000 (excluded).
        assert_eq!(
            store.claim(LeaseKind::Game, g, B, 1_999).await.unwrap(),
            held(A, "node-a")
        );
        // Its heartbeat has run out: taken over, epoch 2.
        assert_eq!(
            store.claim(LeaseKind::Game, g, B, 2_000).await.unwrap(),
            mine(LeaseKind::Game, g, B, 2)
        );
        // A, back with a new heartbeat, finds it B's.
        store
            .heartbeat(A, "node-a", 10, 2_100, 10_000)
            .await
            .unwrap();
        assert_eq!(
            store.claim(LeaseKind::Game, g, A, 2_100).await.unwrap(),
            held(B, "node-b")
        );
        // B leaves: A takes it back at once, at a new epoch (its epoch 1 stays dead).
        store.leave(B).await.unwrap();
        assert_eq!(
            store.claim(LeaseKind::Game, g, A, 2_200).await.unwrap(),
            mine(LeaseKind::Game, g, A, 3)
        );
        assert_eq!(
            store.lease(LeaseKind::Game, g).await.unwrap(),
            Some((
                lease(LeaseKind::Game, g, A, 3),
                Some(node_row(A, "node-a", 10, 12_100))
            ))
        );

        // A holder with no row at all (C never beat) is gone too; its lease reads with no
        // node row.
        let t = Uuid::new_v4();
        assert_eq!(
            store
                .claim(LeaseKind::Tournament, t, C, 2_200)
                .await
                .unwrap(),
            mine(LeaseKind::Tournament, t, C, 1)
        );
        assert_eq!(
            store.lease(LeaseKind::Tournament, t).await.unwrap(),
            Some((lease(LeaseKind::Tournament, t, C, 1), None))
        );
        assert_eq!(
            store
                .claim(LeaseKind::Tournament, t, A, 2_300)
                .await
                .unwrap(),
            mine(LeaseKind::Tournament, t, A, 2)
        );
        // A holder whose heartbeat expired claims its own lease back unchanged while
        // nobody took it over (the fence goes by the lease, not by the clock).
        assert_eq!(
            store
                .claim(LeaseKind::Tournament, t, A, 50_000)
                .await
                .unwrap(),
            mine(LeaseKind::Tournament, t, A, 2)
        );
        store.close().await;
    })
    .await;
}

#[tokio::test]
async fn orphaned_leases_are_those_of_gone_nodes_oldest_first() {
    for_each_db(ALL, |db| async move {
        let store = db.open().await;
        store.heartbeat(A, "node-a", 0, 0, 10_000).await.unwrap();
        store.heartbeat(B, "node-b", 0, 0, 5_000).await.unwrap();
        let (g1, g2, g3, t1) = (
            Uuid::new_v4(),
            Uuid::new_v4(),
            Uuid::new_v4(),
            Uuid::new_v4(),
        );
        store.claim(LeaseKind::Game, g1, A, 100).await.unwrap();
        store.claim(LeaseKind::Game, g2, B, 200).await.unwrap();
        // C has no row: its lease is orphaned from the start.
        store.claim(LeaseKind::Game, g3, C, 50).await.unwrap();
        store
            .claim(LeaseKind::Tournament, t1, B, 300)
            .await
            .unwrap();

        assert_eq!(
            store.orphaned_leases(4_999, 10).await.unwrap(),
            [lease(LeaseKind::Game, g3, C, 1)]
        );
        let gone_at_5000 = [
            lease(LeaseKind::Game, g3, C, 1),
            lease(LeaseKind::Game, g2, B, 1),
            lease(LeaseKind::Tournament, t1, B, 1),
        ];
        assert_eq!(
            store.orphaned_leases(5_000, 10).await.unwrap(),
            gone_at_5000
        );
        assert_eq!(
            store.orphaned_leases(5_000, 2).await.unwrap(),
            gone_at_5000[..2]
        );
        assert_eq!(store.orphaned_leases(5_000, 0).await.unwrap(), []);
        // A takeover makes it A's: no longer orphaned.
        store.claim(LeaseKind::Game, g3, A, 5_000).await.unwrap();
        assert_eq!(
            store.orphaned_leases(5_000, 10).await.unwrap(),
            gone_at_5000[1..]
        );

        // By kind, then id (as stored: the UUIDs' text, which orders as they do).
        let mut of_a = vec![
            lease(LeaseKind::Game, g1, A, 1),
            lease(LeaseKind::Game, g3, A, 2),
        ];
        of_a.sort_by_key(|l| l.id);
        assert_eq!(store.leases_of(A).await.unwrap(), of_a);
        assert_eq!(
            store.leases_of(B).await.unwrap(),
            [
                lease(LeaseKind::Game, g2, B, 1),
                lease(LeaseKind::Tournament, t1, B, 1)
            ]
        );
        assert_eq!(store.leases_of(C).await.unwrap(), []);
        store.close().await;
    })
    .await;
}

#[tokio::test]
async fn release_deletes_only_the_current_lease() {
    for_each_db(ALL, |db| async move {
        let store = db.open().await;
        store.heartbeat(B, "node-b", 0, 0, 10_000).await.unwrap();
        let g = Uuid::new_v4();
        // C (no row) held it at epoch 1; B took it over at epoch 2.
        store.claim(LeaseKind::Game, g, C, 0).await.unwrap();
        assert_eq!(
            store.claim(LeaseKind::Game, g, B, 10).await.unwrap(),
            mine(LeaseKind::Game, g, B, 2)
        );
        // The old holder, the right node at the wrong epoch, the wrong kind: no.
        for stale in [
            lease(LeaseKind::Game, g, C, 1),
            lease(LeaseKind::Game, g, B, 1),
            lease(LeaseKind::Game, g, B, 3),
            lease(LeaseKind::Tournament, g, B, 2),
        ] {
            assert!(!store.release(&stale).await.unwrap(), "{stale:?}");
        }
        assert_eq!(
            store
                .lease(LeaseKind::Game, g)
                .await
                .unwrap()
                .map(|(l, _)| l),
            Some(lease(LeaseKind::Game, g, B, 2))
        );
        assert!(store
            .release(&lease(LeaseKind::Game, g, B, 2))
            .await
            .unwrap());
        assert_eq!(store.lease(LeaseKind::Game, g).await.unwrap(), None);
        assert_eq!(store.leases_of(B).await.unwrap(), []);
        assert!(!store
            .release(&lease(LeaseKind::Game, g, B, 2))
            .await
            .unwrap());
        store.close().await;
    })
    .await;
}

#[tokio::test]
async fn fenced_writes_are_accepted_from_the_holder_and_refused_after_a_takeover() {
    for_each_db(ALL, |db| async move {
        let store = db.open().await;
        store.heartbeat(A, "node-a", 0, 0, 1_000).await.unwrap();
        store.heartbeat(B, "node-b", 0, 0, 10_000).await.unwrap();
        let g = game("playing", 1);
        let Claim::Mine(a_lease) = store.claim(LeaseKind::Game, g.id, A, 10).await.unwrap() else {
            panic!("A's claim of a free lease")
        };
        // The holder's writes, the game created under its lease in the same transaction.
        store
            .write(&[
                Write::AppendAction(action(g.id, 0)),
                Write::InsertGame(g.clone()),
                Write::Fence(a_lease.clone()),
            ])
            .await
            .unwrap();
        // Twice the same fence (two callers of one group): checked once, accepted.
        store
            .write(&[
                Write::Fence(a_lease.clone()),
                Write::AppendAction(action(g.id, 1)),
                Write::Fence(a_lease.clone()),
            ])
            .await
            .unwrap();

        // A's heartbeat runs out; B takes the game over.
        assert_eq!(
            store.claim(LeaseKind::Game, g.id, B, 1_000).await.unwrap(),
            mine(LeaseKind::Game, g.id, B, 2)
        );
        let (_, kato) = session("Kato", 5);
        let refused = store
            .write(&[
                Write::InsertSession(kato.clone()),
                Write::AppendAction(action(g.id, 2)),
                Write::Fence(a_lease.clone()),
            ])
            .await
            .unwrap_err();
        assert!(
            matches!(
                refused,
                StoreError::Fenced {
                    kind: LeaseKind::Game,
                    id,
                    epoch: 1
                } if id == g.id
            ),
            "{refused:?}"
        );
        assert_eq!(
            refused.to_string(),
            format!(
                "game {}: this node's lease (epoch 1) was taken over; its writes are refused",
                g.id
            )
        );
        // Nothing of it was written: not the entry, not the session beside it.
        assert_eq!(
            store.actions(g.id).await.unwrap(),
            [action(g.id, 0), action(g.id, 1)]
        );
        assert_eq!(
            store.session_by_token_hash(&kato.token_hash).await.unwrap(),
            None
        );
        // Checked first: a write of the same transaction that would fail itself (a seq
        // already taken) does not get to say so.
        let refused = store
            .write(&[
                Write::AppendAction(action(g.id, 0)),
                Write::Fence(a_lease.clone()),
            ])
            .await
            .unwrap_err();
        assert!(matches!(refused, StoreError::Fenced { .. }), "{refused:?}");
        // B's writes under its lease go in.
        let b_lease = lease(LeaseKind::Game, g.id, B, 2);
        store
            .write(&[Write::Fence(b_lease), Write::AppendAction(action(g.id, 2))])
            .await
            .unwrap();
        assert_eq!(store.actions(g.id).await.unwrap().len(), 3);

        // A lease that does not exist (released, or never claimed) fences too; and a
        // tournament's lease fences its log.
        let t = tournament("open", 1);
        let t_lease = lease(LeaseKind::Tournament, t.id, B, 1);
        let refused = store
            .write(&[
                Write::Fence(t_lease.clone()),
                Write::InsertTournament(t.clone()),
                Write::AppendTournamentEntry(entry(t.id, 0)),
            ])
            .await
            .unwrap_err();
        assert_eq!(
            refused.to_string(),
            format!(
                "tournament {}: this node's lease (epoch 1) was taken over; its writes are refused",
                t.id
            )
        );
        assert_eq!(store.tournament(t.id).await.unwrap(), None);
        assert_eq!(
            store
                .claim(LeaseKind::Tournament, t.id, B, 1_000)
                .await
                .unwrap(),
            Claim::Mine(t_lease.clone())
        );
        store
            .write(&[
                Write::Fence(t_lease.clone()),
                Write::InsertTournament(t.clone()),
                Write::AppendTournamentEntry(entry(t.id, 0)),
            ])
            .await
            .unwrap();
        assert_eq!(store.tournament_log(t.id).await.unwrap(), [entry(t.id, 0)]);
        // Released: B's own writes under it are refused from then on.
        assert!(store.release(&t_lease).await.unwrap());
        let refused = store
            .write(&[
                Write::Fence(t_lease),
                Write::AppendTournamentEntry(entry(t.id, 1)),
            ])
            .await
            .unwrap_err();
        assert!(matches!(refused, StoreError::Fenced { .. }), "{refused:?}");
        assert_eq!(store.tournament_log(t.id).await.unwrap().len(), 1);
        store.close().await;
    })
    .await;
}

// ---------------------------------------------------------------------------------------
// PostgreSQL: several nodes at the same moment.

/// Every claim of `claims` (node, how many times) on `id` at `now_ms`, all at once, each
/// node through its own store (its own pool), released together by a barrier.
async fn claim_at_once(
    stores: &[(Uuid, Store)],
    per_node: usize,
    kind: LeaseKind,
    id: Uuid,
    now_ms: i64,
) -> Vec<(Uuid, Claim)> {
    let barrier = Arc::new(Barrier::new(stores.len() * per_node));
    let mut tasks = Vec::new();
    for (node, store) in stores {
        for _ in 0..per_node {
            let (node, store, barrier) = (*node, store.clone(), Arc::clone(&barrier));
            tasks.push(tokio::spawn(async move {
                barrier.wait().await;
                let claim = store.claim(kind, id, node, now_ms).await;
                (node, claim.unwrap())
            }));
        }
    }
    let mut claims = Vec::new();
    for task in tasks {
        claims.push(task.await.unwrap());
    }
    claims
}

/// All of one node's claims got `Mine(winner_lease)`, all the other's `Held` naming it.
fn one_winner(claims: &[(Uuid, Claim)], kind: LeaseKind, id: Uuid, epoch: i64) -> Uuid {
    let winners: BTreeSet<Uuid> = claims
        .iter()
        .filter(|(_, c)| matches!(c, Claim::Mine(_)))
        .map(|(n, _)| *n)
        .collect();
    assert_eq!(winners.len(), 1, "{claims:?}");
    let winner = *winners.first().unwrap();
    let name = if winner == A { "node-a" } else { "node-b" };
    for (node, claim) in claims {
        let expected = if *node == winner {
            mine(kind, id, winner, epoch)
        } else {
            held(winner, name)
        };
        assert_eq!(claim, &expected, "{claims:?}");
    }
    winner
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_claims_on_postgres_give_each_epoch_to_one_node() {
    const PER_NODE: usize = 12;
    for_each_db(&[Kind::Postgres], |db| async move {
        // Two nodes: two stores, two pools, on one database.
        let stores = [(A, db.open().await), (B, db.open().await)];
        let first = &stores[0].1;
        first.heartbeat(A, "node-a", 0, 0, 1_000_000).await.unwrap();
        first.heartbeat(B, "node-b", 0, 0, 1_000_000).await.unwrap();
        let mut winners = BTreeMap::new();

        // A free lease claimed by both at once: one inserts epoch 1, the other is told.
        for _ in 0..6 {
            let id = Uuid::new_v4();
            let claims = claim_at_once(&stores, PER_NODE, LeaseKind::Game, id, 10).await;
            let winner = one_winner(&claims, LeaseKind::Game, id, 1);
            *winners.entry(winner).or_insert(0) += 1;
            assert_eq!(
                first
                    .lease(LeaseKind::Game, id)
                    .await
                    .unwrap()
                    .map(|(l, _)| l),
                Some(lease(LeaseKind::Game, id, winner, 1))
            );
        }
        // A gone node's lease taken over by both at once: one takes it, at epoch 2.
        for _ in 0..6 {
            let id = Uuid::new_v4();
            first.claim(LeaseKind::Tournament, id, C, 5).await.unwrap();
            let claims = claim_at_once(&stores, PER_NODE, LeaseKind::Tournament, id, 10).await;
            let winner = one_winner(&claims, LeaseKind::Tournament, id, 2);
            *winners.entry(winner).or_insert(0) += 1;
            assert_eq!(
                first
                    .lease(LeaseKind::Tournament, id)
                    .await
                    .unwrap()
                    .map(|(l, _)| l),
                Some(lease(LeaseKind::Tournament, id, winner, 2))
            );
        }
        eprintln!("races won: {winners:?}");

        // Two nodes with no heartbeat (X and Y) take one lease from each other again and
        // again, all at once: every claim is theirs at some epoch; each epoch went to one
        // node; the epochs run 1, 2, 3... with none skipped (each was some claim's
        // answer) and none repeated; the lease ends at the last one.
        let (x, y) = (Uuid::from_u128(0x1), Uuid::from_u128(0x2));
        let dead = [(x, stores[0].1.clone()), (y, stores[1].1.clone())];
        let id = Uuid::new_v4();
        let claims = claim_at_once(&dead, 2 * PER_NODE, LeaseKind::Game, id, 10).await;
        let mut by_epoch: BTreeMap<i64, BTreeSet<Uuid>> = BTreeMap::new();
        for (node, claim) in &claims {
            let Claim::Mine(got) = claim else {
                panic!("a gone holder's lease is taken, never held: {claims:?}")
            };
            assert_eq!((got.kind, got.id, got.node), (LeaseKind::Game, id, *node));
            by_epoch.entry(got.epoch).or_default().insert(*node);
        }
        for (epoch, nodes) in &by_epoch {
            assert_eq!(nodes.len(), 1, "epoch {epoch} went to {nodes:?}");
        }
        let last = *by_epoch.keys().last().unwrap();
        assert_eq!(
            by_epoch.keys().copied().collect::<Vec<_>>(),
            (1..=last).collect::<Vec<_>>()
        );
        let last_node = *by_epoch[&last].first().unwrap();
        assert_eq!(
            first
                .lease(LeaseKind::Game, id)
                .await
                .unwrap()
                .map(|(l, _)| l),
            Some(lease(LeaseKind::Game, id, last_node, last))
        );
        eprintln!(
            "{} claims between two gone nodes: {last} epochs",
            claims.len()
        );
        for (_, store) in &stores {
            store.close().await;
        }
    })
    .await;
}

/// Waits (10 s at most) until `sessions` connections of the database wait for a lock.
async fn until_waiting_for_a_lock(admin: &mut sqlx::PgConnection, sessions: i64) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let waiting: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM pg_stat_activity \
             WHERE datname = current_database() AND wait_event_type = 'Lock'",
        )
        .fetch_one(&mut *admin)
        .await
        .unwrap();
        if waiting == sessions {
            return;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "{waiting} connections wait for a lock, not {sessions}"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn on_postgres_a_takeover_waits_for_fenced_writes_and_they_for_it() {
    for_each_db(&[Kind::Postgres], |db| async move {
        let store = db.open().await;
        store.heartbeat(A, "node-a", 0, 0, 1_000).await.unwrap();
        store.heartbeat(B, "node-b", 0, 0, 10_000).await.unwrap();
        let g = new_game(&store).await;
        store.claim(LeaseKind::Game, g, A, 10).await.unwrap();
        let a_lease = lease(LeaseKind::Game, g, A, 1);
        let mut watcher = sqlx::PgConnection::connect(&db.url).await.unwrap();

        // A fenced transaction of A's in flight (its check done, not committed): B's
        // takeover waits for it.
        let mut in_flight = sqlx::PgConnection::connect(&db.url).await.unwrap();
        sqlx::query("BEGIN").execute(&mut in_flight).await.unwrap();
        let checked: Option<i64> = sqlx::query_scalar(
            "SELECT epoch FROM leases WHERE kind = 'game' AND id = $1 AND node_id = $2 \
             AND epoch = 1 FOR SHARE",
        )
        .bind(g.to_string())
        .bind(A.to_string())
        .fetch_optional(&mut in_flight)
        .await
        .unwrap();
        assert_eq!(checked, Some(1));
        let takeover = tokio::spawn({
            let store = store.clone();
            async move { store.claim(LeaseKind::Game, g, B, 1_000).await }
        });
        until_waiting_for_a_lock(&mut watcher, 1).await;
        assert!(!takeover.is_finished());
        sqlx::query("COMMIT").execute(&mut in_flight).await.unwrap();
        assert_eq!(
            takeover.await.unwrap().unwrap(),
            mine(LeaseKind::Game, g, B, 2)
        );

        // The other way round: a takeover in flight (C's, from B), and a write fenced by
        // B's lease, which waits for it and is then refused.
        sqlx::query("BEGIN").execute(&mut in_flight).await.unwrap();
        let changed = sqlx::query(
            "UPDATE leases SET node_id = $1, epoch = epoch + 1 WHERE kind = 'game' AND id = $2",
        )
        .bind(C.to_string())
        .bind(g.to_string())
        .execute(&mut in_flight)
        .await
        .unwrap()
        .rows_affected();
        assert_eq!(changed, 1);
        let b_lease = lease(LeaseKind::Game, g, B, 2);
        let write = tokio::spawn({
            let store = store.clone();
            let b_lease = b_lease.clone();
            async move {
                store
                    .write(&[Write::Fence(b_lease), Write::AppendAction(action(g, 0))])
                    .await
            }
        });
        until_waiting_for_a_lock(&mut watcher, 1).await;
        assert!(!write.is_finished());
        sqlx::query("COMMIT").execute(&mut in_flight).await.unwrap();
        let refused = write.await.unwrap().unwrap_err();
        assert!(
            matches!(refused, StoreError::Fenced { epoch: 2, id, .. } if id == g),
            "{refused:?}"
        );
        assert_eq!(store.actions(g).await.unwrap(), []);
        // A's first lease is as dead.
        let refused = store
            .write(&[Write::Fence(a_lease), Write::AppendAction(action(g, 0))])
            .await
            .unwrap_err();
        assert!(
            matches!(refused, StoreError::Fenced { epoch: 1, .. }),
            "{refused:?}"
        );
        let _ = in_flight.close().await;
        let _ = watcher.close().await;
        store.close().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn on_postgres_a_fenced_caller_fails_alone_and_the_rest_of_its_group_commits() {
    for_each_db(&[Kind::Postgres], |db| async move {
        let store = db.open().await;
        store.heartbeat(A, "node-a", 0, 0, 1_000).await.unwrap();
        store.heartbeat(B, "node-b", 0, 0, 10_000).await.unwrap();
        // A owns three games; B takes one of them (`taken`) over.
        let (plug, kept, taken) = (
            new_game(&store).await,
            new_game(&store).await,
            new_game(&store).await,
        );
        for g in [plug, kept, taken] {
            store.claim(LeaseKind::Game, g, A, 10).await.unwrap();
        }
        assert_eq!(
            store.claim(LeaseKind::Game, taken, B, 1_000).await.unwrap(),
            mine(LeaseKind::Game, taken, B, 2)
        );

        // Hold the writer in a commit (its fence on `plug` waits for a lock this test
        // holds), so that the next two callers queue and are committed as one group.
        let (writer, task) = Writer::spawn(store.clone(), 64);
        let mut holder = sqlx::PgConnection::connect(&db.url).await.unwrap();
        sqlx::query("BEGIN").execute(&mut holder).await.unwrap();
        sqlx::query("SELECT epoch FROM leases WHERE kind = 'game' AND id = $1 FOR UPDATE")
            .bind(plug.to_string())
            .fetch_one(&mut holder)
            .await
            .unwrap();
        let call = |writes: Vec<Write>| {
            let writer = writer.clone();
            tokio::spawn(async move { writer.write(writes).await })
        };
        let plugged = call(vec![
            Write::Fence(lease(LeaseKind::Game, plug, A, 1)),
            Write::AppendAction(action(plug, 0)),
        ]);
        let mut watcher = sqlx::PgConnection::connect(&db.url).await.unwrap();
        until_waiting_for_a_lock(&mut watcher, 1).await;
        assert_eq!(writer.queued(), 0);
        let fenced = call(vec![
            Write::Fence(lease(LeaseKind::Game, taken, A, 1)),
            Write::AppendAction(action(taken, 0)),
            Write::AppendAction(action(taken, 1)),
        ]);
        let fine = call(vec![
            Write::Fence(lease(LeaseKind::Game, kept, A, 1)),
            Write::AppendAction(action(kept, 0)),
            Write::AppendAction(action(kept, 1)),
        ]);
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        while writer.queued() < 2 {
            assert!(
                tokio::time::Instant::now() < deadline,
                "the callers never queued"
            );
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        // Both are queued while the writer is busy: the next group takes both.
        sqlx::query("COMMIT").execute(&mut holder).await.unwrap();
        plugged.await.unwrap().unwrap();

        let refused = fenced.await.unwrap().unwrap_err();
        assert!(
            matches!(
                refused,
                StoreError::Fenced { kind: LeaseKind::Game, id, epoch: 1 } if id == taken
            ),
            "{refused:?}"
        );
        fine.await.unwrap().unwrap();
        assert_eq!(store.actions(plug).await.unwrap(), [action(plug, 0)]);
        assert_eq!(
            store.actions(kept).await.unwrap(),
            [action(kept, 0), action(kept, 1)]
        );
        assert_eq!(store.actions(taken).await.unwrap(), []);
        writer.shutdown().await;
        task.await.unwrap();
        let _ = holder.close().await;
        let _ = watcher.close().await;
        store.close().await;
    })
    .await;
}

#[tokio::test]
async fn rows_of_long_gone_nodes_without_leases_are_forgotten() {
    for_each_db(ALL, |db| async move {
        let store = db.open().await;
        // A gone at 2,000 holding a lease; B gone at 2,000 holding none; C live.
        store.heartbeat(A, "a", 0, 1_000, 1_000).await.unwrap();
        store.heartbeat(B, "b", 0, 1_000, 1_000).await.unwrap();
        store.heartbeat(C, "c", 0, 1_000, 9_000).await.unwrap();
        let game = Uuid::from_u128(0x9);
        assert_eq!(
            store.claim(LeaseKind::Game, game, A, 1_000).await.unwrap(),
            mine(LeaseKind::Game, game, A, 1)
        );
        // Not yet gone before 2,000: nothing forgotten.
        assert_eq!(store.forget_nodes(2_000).await.unwrap(), 0);
        // B only: A still holds a lease (its rooms are to be taken over), C is live.
        assert_eq!(store.forget_nodes(2_001).await.unwrap(), 1);
        assert_eq!(
            store.lease(LeaseKind::Game, game).await.unwrap(),
            Some((
                lease(LeaseKind::Game, game, A, 1),
                Some(node_row(A, "a", 0, 2_000))
            ))
        );
        assert_eq!(
            store.live_nodes(1_500).await.unwrap(),
            [node_row(A, "a", 0, 2_000), node_row(C, "c", 0, 10_000)]
        );
        // Once C takes A's lease over, A is forgotten too.
        assert_eq!(
            store.claim(LeaseKind::Game, game, C, 3_000).await.unwrap(),
            mine(LeaseKind::Game, game, C, 2)
        );
        assert_eq!(store.forget_nodes(3_000).await.unwrap(), 1);
        assert_eq!(
            store.live_nodes(0).await.unwrap(),
            [node_row(C, "c", 0, 10_000)]
        );
    })
    .await;
}
