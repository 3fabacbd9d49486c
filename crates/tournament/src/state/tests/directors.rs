//! The people who run a tournament, in the state machine: a log written before
//! co-directors (no `by` on its pairings and starts) replays, its actions the director's;
//! a rename shows everywhere the person is named; an invite expires after a day; the
//! limits on co-directors; a removed co-director's entries are refused.

use super::*;
use crate::state::{replay, Logged, INVITE_MS, MAX_CO_DIRECTORS};

fn row(seq: i64, at_ms: i64, json: &str) -> Logged {
    Logged {
        seq,
        at_ms,
        json: json.to_owned(),
    }
}

fn told(t: &Tournament) -> Vec<(i64, String, Uuid, String, String)> {
    t.actions()
        .iter()
        .map(|a| {
            (
                a.seq,
                a.kind.clone(),
                a.by,
                a.by_name.clone(),
                a.summary.clone(),
            )
        })
        .collect()
}

#[test]
fn a_log_written_before_co_directors_replays_with_its_actions_the_directors() {
    let create = serde_json::to_string(&Entry::Create {
        settings: Box::new(settings(System::Swiss)),
        director: id(1),
        director_name: "TD".into(),
    })
    .expect("encodes");
    let (a, b, game) = (player(0), player(1), id(1001));
    // As the server wrote them before `by` on pairings and starts existed.
    let rows = [
        row(0, 0, &create),
        row(
            1,
            10,
            &format!(r#"{{"kind":"join","player":"{a}","name":"P0"}}"#),
        ),
        row(
            2,
            20,
            &format!(r#"{{"kind":"join","player":"{b}","name":"P1"}}"#),
        ),
        row(
            3,
            30,
            &format!(
                r#"{{"kind":"pair","round":1,"pairings":[["{a}","{b}"]],"manual":false,"breaches":[]}}"#
            ),
        ),
        row(
            4,
            40,
            &format!(r#"{{"kind":"start","round":1,"games":["{game}"],"deadline_ms":900040}}"#),
        ),
        row(
            5,
            50,
            &format!(r#"{{"kind":"end_round","round":1,"by":"{}"}}"#, id(1)),
        ),
    ];
    let t = replay(id(9), rows).expect("replays");
    let snapshot = t.snapshot(None);
    assert_eq!(snapshot.director_name, "TD");
    assert_eq!(snapshot.co_directors, Vec::new());
    assert_eq!(snapshot.rounds[0].pairings[0].game_id, Some(game));
    let director = |seq: i64, kind: &str, summary: &str| {
        (
            seq,
            kind.to_owned(),
            id(1),
            "TD".to_owned(),
            summary.to_owned(),
        )
    };
    assert_eq!(
        told(&t),
        vec![
            director(0, "create", "created the tournament \"Test\""),
            director(3, "pair", "paired round 1"),
            director(4, "start", "started round 1"),
            director(5, "end_round", "ended round 1 early"),
        ]
    );
    assert_eq!(t.actions()[2].at_ms, 40);
}

#[test]
fn a_rename_shows_in_the_players_the_standings_and_the_directors() {
    let mut t = new(System::Swiss, 2);
    let co = id(50);
    t.apply(
        &Entry::CoDirectorAdded {
            player: co,
            name: "Carol".into(),
            by: id(1),
        },
        0,
    )
    .expect("named");
    let version = t.version();
    let events = t
        .apply(
            &Entry::Rename {
                player: player(0),
                name: "Kato N.".into(),
            },
            5,
        )
        .expect("renamed");
    // Its line and the standings, nothing of the directors.
    assert_eq!(events.len(), 2);
    assert_eq!(t.version(), version + 2);
    assert_eq!(t.players()[0].name, "Kato N.");
    assert!(t.standings().iter().any(|s| s.name == "Kato N."));
    t.apply(
        &Entry::Rename {
            player: id(1),
            name: "The TD".into(),
        },
        6,
    )
    .expect("director renamed");
    t.apply(
        &Entry::Rename {
            player: co,
            name: "Carol K.".into(),
        },
        7,
    )
    .expect("co-director renamed");
    let snapshot = t.snapshot(None);
    assert_eq!(snapshot.director_name, "The TD");
    assert_eq!(snapshot.co_directors[0].name, "Carol K.");
    assert_eq!(snapshot.players[0].name, "Kato N.");
    // The action taken under the old name keeps it.
    assert_eq!(t.actions()[1].by_name, "TD");
    assert_eq!(t.actions()[1].summary, "named Carol co-director");
    assert_eq!(
        t.people().collect::<Vec<_>>(),
        vec![id(1), co, player(0), player(1)]
    );
    let refusal = t
        .apply(
            &Entry::Rename {
                player: id(77),
                name: "Nobody".into(),
            },
            8,
        )
        .expect_err("not in it");
    assert_eq!(refusal.code, ErrorCode::NotInTournament);
    assert_eq!(refusal.message, "that person is not in this tournament");
}

#[test]
fn an_invite_is_good_for_a_day_and_once() {
    let mut t = new(System::Swiss, 2);
    let invited = Entry::CoDirectorInvited {
        code_hash: "h1".into(),
        expires_at_ms: INVITE_MS,
        by: id(1),
    };
    t.apply(&invited, 0).expect("invited");
    let accept = |who: u128| Entry::CoDirectorAccepted {
        code_hash: "h1".into(),
        player: id(who),
        name: format!("C{who}"),
    };
    let before = t.version();
    let refusal = t.apply(&accept(50), INVITE_MS).expect_err("expired");
    assert_eq!(refusal.code, ErrorCode::BadCode);
    assert_eq!(
        refusal.message,
        "that co-director invite has expired (each is good for 24 hours): ask the director for a new one"
    );
    assert_eq!(t.version(), before);
    assert!(!t.directs(id(50)));
    t.apply(&accept(50), INVITE_MS - 1).expect("in time");
    assert!(t.directs(id(50)));
    let refusal = t.apply(&accept(51), INVITE_MS - 1).expect_err("used");
    assert_eq!(
        refusal.message,
        "that co-director invite was used already (each is good once): ask the director for a new one"
    );
    // A co-director may not invite.
    let refusal = t
        .apply(
            &Entry::CoDirectorInvited {
                code_hash: "h2".into(),
                expires_at_ms: INVITE_MS,
                by: id(50),
            },
            1,
        )
        .expect_err("not the director");
    assert_eq!(refusal.code, ErrorCode::NotDirector);
}

#[test]
fn co_directors_are_capped_and_a_removed_one_directs_nothing() {
    let mut t = new(System::Swiss, 2);
    let name = |n: u128| Entry::CoDirectorAdded {
        player: id(50 + n),
        name: format!("C{n}"),
        by: id(1),
    };
    for n in 0..MAX_CO_DIRECTORS as u128 {
        t.apply(&name(n), 0).expect("named");
    }
    let refusal = t.apply(&name(99), 0).expect_err("too many");
    assert_eq!(refusal.code, ErrorCode::RateLimited);
    assert_eq!(
        refusal.message,
        "a tournament has at most 8 co-directors: remove one first"
    );
    let refusal = t
        .apply(
            &Entry::CoDirectorAdded {
                player: id(1),
                name: "TD".into(),
                by: id(1),
            },
            0,
        )
        .expect_err("the director");
    assert_eq!(
        refusal.message,
        "the director runs the tournament already: they need not be a co-director"
    );
    t.apply(
        &Entry::CoDirectorRemoved {
            player: id(50),
            by: id(1),
        },
        1,
    )
    .expect("removed");
    let mut paired = t.pair_next().expect("a pairing");
    if let Entry::Pair { by, .. } = &mut paired {
        *by = Some(id(50));
    }
    let refusal = t.apply(&paired, 2).expect_err("no longer a co-director");
    assert_eq!(refusal.code, ErrorCode::NotDirector);
    assert_eq!(
        refusal.message,
        "only the director or a co-director may pair a round"
    );
    if let Entry::Pair { by, .. } = &mut paired {
        *by = Some(id(51));
    }
    t.apply(&paired, 2).expect("a co-director pairs");
    let last = t.actions().last().expect("an action");
    assert_eq!((last.by, last.by_name.as_str()), (id(51), "C1"));
    assert_eq!(last.summary, "paired round 1");
}
