//! A rated tournament's seeding (docs/ratings.md#rated-tournaments): the initial order by
//! the ratings kept in the log, its first pairing, a late joiner placed by their rating,
//! the same order after a replay of the log, and the exports that show it.

use super::*;
use crate::log::SeedRating;
use crate::state::{replay, Logged};

fn rated(system: System, players: u128) -> (Tournament, Vec<Entry>) {
    let mut settings = settings(system);
    settings.rated = true;
    let create = Entry::Create {
        settings: Box::new(settings),
        director: id(1),
        director_name: "TD".into(),
    };
    let mut t = Tournament::create(id(9), &create, 0).expect("created");
    let mut log = vec![create];
    for i in 0..players {
        let join = Entry::Join {
            player: player(i),
            name: format!("P{i}"),
        };
        t.apply(&join, 0).expect("joined");
        log.push(join);
    }
    (t, log)
}

fn seed(ratings: &[(u128, Option<i32>)]) -> Entry {
    Entry::Seed {
        ratings: ratings
            .iter()
            .map(|&(p, rating)| SeedRating {
                player: player(p),
                rating,
            })
            .collect(),
    }
}

/// A rated Swiss of `ratings.len()` players P0.., seeded with these ratings (`None`: no
/// account).
pub(super) fn rated_with(ratings: &[Option<i32>]) -> Tournament {
    let (mut t, _) = rated(System::Swiss, ratings.len() as u128);
    let seeds: Vec<(u128, Option<i32>)> = ratings
        .iter()
        .enumerate()
        .map(|(i, &r)| (i as u128, r))
        .collect();
    t.apply(&seed(&seeds), 0).expect("seeded");
    t
}

fn apply(t: &mut Tournament, log: &mut Vec<Entry>, entry: Entry) {
    t.apply(&entry, 0).expect("applied");
    log.push(entry);
}

fn names(t: &Tournament, order: &[usize]) -> Vec<String> {
    order.iter().map(|&i| t.players()[i].name.clone()).collect()
}

/// Six players, registered P0..P5, seeded with P0 1500, P1 1720, P2 no account, P3 1720,
/// P4 1610, P5 1499. The initial order is the rating, higher first, then registration
/// (P1 before P3, both 1720), the person without an account last: P1 P3 P4 P0 P5 P2.
/// The first Swiss round pairs the top half against the bottom half in that order
/// (docs/rules.md#54-pairing criterion 5): 1-4 P1-P0, 2-5 P3-P5, 3-6 P4-P2.
/// P6 joins late with 1600 and is seeded before the second pairing, between P4 (1610) and
/// P0 (1500): the seeds after are P1 1, P3 2, P4 3, P6 4, P0 5, P5 6, P2 7.
#[test]
fn a_rated_field_is_seeded_by_rating_then_registration() {
    let (mut t, mut log) = rated(System::Swiss, 6);
    assert_eq!(
        t.to_seed(),
        (0..6).map(player).collect::<Vec<_>>(),
        "everyone is to seed before the first pairing"
    );
    // Unseeded players are not paired in a rated tournament.
    let refused = t
        .apply(
            &Entry::Pair {
                round: 1,
                pairings: vec![(player(0), Some(player(1)))],
                manual: true,
                breaches: Vec::new(),
                by: None,
            },
            0,
        )
        .expect_err("refused");
    assert_eq!(
        refused.message,
        "P0 is not seeded yet: a rated tournament seeds its players before pairing them"
    );
    let events = t
        .apply(
            &seed(&[
                (0, Some(1500)),
                (1, Some(1720)),
                (2, None),
                (3, Some(1720)),
                (4, Some(1610)),
                (5, Some(1499)),
            ]),
            0,
        )
        .expect("seeded");
    log.push(seed(&[
        (0, Some(1500)),
        (1, Some(1720)),
        (2, None),
        (3, Some(1720)),
        (4, Some(1610)),
        (5, Some(1499)),
    ]));
    let [(_, TournamentEvent::Players(changed))] = events.as_slice() else {
        panic!("one players event, not {events:?}");
    };
    let seeds: Vec<(String, Option<u32>, Option<i32>)> = changed
        .players
        .iter()
        .map(|p| (p.name.clone(), p.seed, p.seed_rating))
        .collect();
    assert_eq!(
        seeds,
        vec![
            ("P0".into(), Some(4), Some(1500)),
            ("P1".into(), Some(1), Some(1720)),
            ("P2".into(), Some(6), None),
            ("P3".into(), Some(2), Some(1720)),
            ("P4".into(), Some(3), Some(1610)),
            ("P5".into(), Some(5), Some(1499)),
        ]
    );
    assert_eq!(
        names(&t, &t.initial_order()),
        ["P1", "P3", "P4", "P0", "P5", "P2"]
    );
    assert!(t.to_seed().is_empty());
    // Rated games are those between two accounts.
    assert!(t.rates(player(1), player(0)));
    assert!(!t.rates(player(4), player(2)));

    let paired = t.pair_next().expect("a pairing");
    let Entry::Pair { pairings, .. } = &paired else {
        panic!("a pairing, not {paired:?}");
    };
    let tables: Vec<[Option<Uuid>; 2]> = pairings.iter().map(|&(a, b)| [Some(a), b]).collect();
    // Who moves first at each table is the pairing's own choice (criterion 3 has no
    // history yet): only the pairs and their order are the seeding's.
    let pairs: Vec<Vec<Uuid>> = tables
        .iter()
        .map(|t| {
            let mut pair: Vec<Uuid> = t.iter().flatten().copied().collect();
            pair.sort();
            pair
        })
        .collect();
    assert_eq!(
        pairs,
        vec![
            vec![player(0), player(1)],
            vec![player(3), player(5)],
            vec![player(2), player(4)],
        ]
    );
    apply(&mut t, &mut log, paired);

    // A late joiner, seeded before the next pairing by the rating they have then.
    apply(
        &mut t,
        &mut log,
        Entry::Join {
            player: player(6),
            name: "P6".into(),
        },
    );
    assert_eq!(t.to_seed(), vec![player(6)]);
    assert_eq!(
        names(&t, &t.initial_order()),
        ["P1", "P3", "P4", "P0", "P5", "P2", "P6"],
        "not seeded yet: last"
    );
    // A seeded player's kept rating is never replaced.
    assert_eq!(
        t.apply(&seed(&[(6, Some(1600)), (0, Some(2000))]), 0)
            .expect_err("refused")
            .message,
        "P0 is seeded already"
    );
    apply(&mut t, &mut log, seed(&[(6, Some(1600))]));
    assert_eq!(
        names(&t, &t.initial_order()),
        ["P1", "P3", "P4", "P6", "P0", "P5", "P2"]
    );
    let seeds: Vec<Option<u32>> = t.players().iter().map(|p| p.seed).collect();
    assert_eq!(
        seeds,
        [
            Some(5),
            Some(1),
            Some(7),
            Some(2),
            Some(3),
            Some(6),
            Some(4)
        ]
    );

    // The log replays to the same order, seeds and kept ratings.
    let logged = log.iter().enumerate().map(|(seq, entry)| Logged {
        seq: seq as i64,
        at_ms: 0,
        json: serde_json::to_string(entry).expect("JSON"),
    });
    let again = replay(id(9), logged).expect("replays");
    assert_eq!(again.initial_order(), t.initial_order());
    assert_eq!(again.players(), t.players());
    assert_eq!(again.snapshot(None).players, t.snapshot(None).players);
}

/// A round-robin's Berger numbers are the seeds: player 1 is the top seed. Four players
/// P0..P3 seeded 1400, 1600, 1500, 1700: the field is P3 P1 P2 P0, and Berger's first
/// round of four (1-4, 2-3) pairs P3-P0 and P1-P2.
#[test]
fn a_rated_round_robin_numbers_its_field_by_seed() {
    let (mut t, _) = rated(System::RoundRobin, 4);
    t.apply(
        &seed(&[
            (0, Some(1400)),
            (1, Some(1600)),
            (2, Some(1500)),
            (3, Some(1700)),
        ]),
        0,
    )
    .expect("seeded");
    let Entry::Pair { pairings, .. } = t.pair_next().expect("a pairing") else {
        panic!("a pairing");
    };
    assert_eq!(
        pairings,
        vec![(player(3), Some(player(0))), (player(1), Some(player(2)))]
    );
}

/// A casual tournament is never seeded: its initial order is registration, and a seed
/// entry is refused.
#[test]
fn a_casual_tournament_keeps_registration_order() {
    let mut t = new(System::Swiss, 3);
    assert!(t.to_seed().is_empty());
    assert_eq!(t.initial_order(), vec![0, 1, 2]);
    assert_eq!(
        t.apply(&seed(&[(0, Some(1500))]), 0)
            .expect_err("refused")
            .message,
        "only a rated tournament seeds its players by rating"
    );
    assert!(!t.rates(player(0), player(1)));
}

/// The exports show the seeding: the TRF lists players by start rank (the seed), with
/// the kept rating in its rating field (columns 49-52) and opponents by start rank; the
/// standings CSV has each player's seed and rating; the sheets CSV both players' ratings.
///
/// P0 1500, P1 1720, P2 no account. Seeds: P1 1, P0 2, P2 3. Round 1 is paired by hand:
/// P0-P1 (P0 wins), P2 the bye.
#[test]
fn the_exports_show_the_seed_ratings() {
    use crate::export::{render, Kind};
    let (mut t, _) = rated(System::Swiss, 3);
    t.apply(&seed(&[(0, Some(1500)), (1, Some(1720)), (2, None)]), 0)
        .expect("seeded");
    pair(&mut t, 1, &[(0, Some(1)), (2, None)]);
    let games = start(&mut t, 1, 0);
    end(
        &mut t,
        games[0].expect("a game"),
        win(Side::South, Victory::Resigned),
        [3, 1],
        MINUTE,
    );
    let trf = render(&t, Kind::Trf);
    let players: Vec<&str> = trf.lines().filter(|l| l.starts_with("001 ")).collect();
    let start_rank_name_rating = |l: &str| {
        (
            l[4..8].to_owned(),
            l[14..17].to_owned(),
            l[48..52].to_owned(),
        )
    };
    assert_eq!(
        players
            .iter()
            .map(|l| start_rank_name_rating(l))
            .collect::<Vec<_>>(),
        vec![
            ("   1".into(), "P1 ".into(), "1720".into()),
            ("   2".into(), "P0 ".into(), "1500".into()),
            ("   3".into(), "P2 ".into(), "    ".into()),
        ],
        "{trf}"
    );
    // P1 (start rank 1) lost to P0 (start rank 2) as second player; P0 won as first.
    assert_eq!(&players[0][89..], "     2 b 0", "{trf}");
    assert_eq!(&players[1][89..], "     1 w 1", "{trf}");
    assert_eq!(&players[2][89..], "  0000 - U", "{trf}");

    let standings = render(&t, Kind::StandingsCsv);
    let lines: Vec<&str> = standings.lines().collect();
    assert!(
        lines[0].ends_with(",withdrawn,seed,seed_rating"),
        "{standings}"
    );
    let tail = |name: &str| {
        let line = lines
            .iter()
            .find(|l| l.contains(&format!(",{name},")))
            .expect("a line");
        line.rsplitn(3, ',').take(2).collect::<Vec<_>>()
    };
    assert_eq!(tail("P0"), ["1500", "2"]);
    assert_eq!(tail("P1"), ["1720", "1"]);
    assert_eq!(tail("P2"), ["", "3"]);

    let sheets = render(&t, Kind::SheetsCsv);
    let lines: Vec<&str> = sheets.lines().collect();
    assert!(
        lines[0]
            .ends_with(",first_rating,second_rating,first_seeds_on_board,second_seeds_on_board"),
        "{sheets}"
    );
    assert!(lines[1].ends_with(",1500,1720,,"), "{sheets}");
}
