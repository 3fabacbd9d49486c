//! The archive's searches (docs/protocol.md#the-archive-addition) on hand-made finished
//! games whose every expected page is worked out below: the order (newest end first, the
//! id breaking a tie), each filter alone and together, pages joined by their cursors, the
//! windows of a search with filters beyond its index, a person's results by ruleset, and
//! the columns of games that ended before migration 8 filled in at start.

use omweso_protocol::config::{GameConfig, SetupKind, TimeControl};
use omweso_rules::{Outcome, Ruleset, Side, Victory};
use omweso_server::archive::sql::{ArchiveSearch, ResultFilter};
use omweso_server::archive::store::ArchiveFound;
use omweso_server::store::{ArchiveColumns, Store, TournamentEntryRow, Write};
use uuid::Uuid;

use super::*;

const P: Uuid = Uuid::from_u128(0xa1);
const Q: Uuid = Uuid::from_u128(0xb2);
const R: Uuid = Uuid::from_u128(0xc3);
const COMPUTER: Uuid = Uuid::from_u128(0xc0de);
const T: Uuid = Uuid::from_u128(0x7000);

/// Game number `n`: its id.
fn g(n: u128) -> Uuid {
    Uuid::from_u128(n)
}

/// The finished game `n`, ended at `at`.
#[allow(clippy::too_many_arguments)]
fn finished(
    n: u128,
    at: i64,
    ruleset: &str,
    south: Uuid,
    north: Uuid,
    result: &str,
    rated: bool,
    tournament: Option<Uuid>,
) -> GameRow {
    let mut row = game(
        if result == "annulled" {
            "annulled"
        } else {
            "finished"
        },
        at - 100,
    );
    row.id = g(n);
    row.ruleset = ruleset.into();
    row.south = Some(south);
    row.north = Some(north);
    row.archive = ArchiveColumns {
        rated,
        tournament_id: tournament,
        result: Some(result.into()),
        victory: (result != "draw").then(|| "resigned".to_owned()),
        finished_at_ms: Some(at),
        move_count: Some(i64::try_from(n).unwrap() * 10),
    };
    row
}

/// The archive of this file: nine finished games and one being played.
fn games() -> Vec<GameRow> {
    let mut playing = game("playing", 9_000);
    playing.id = g(8);
    playing.south = Some(P);
    playing.north = Some(Q);
    vec![
        finished(1, 1_000, "omweso", P, Q, "south", true, None),
        finished(2, 2_000, "oware", Q, P, "north", false, None),
        finished(3, 3_000, "omweso", P, R, "draw", true, Some(T)),
        finished(4, 4_000, "mweiso", R, Q, "south", true, Some(T)),
        finished(5, 5_000, "omweso", Q, P, "south", true, None),
        // Ends with game 5: the larger id comes first.
        finished(6, 5_000, "omweso", P, Q, "annulled", false, None),
        finished(7, 6_000, "oware", P, COMPUTER, "north", false, None),
        playing,
        finished(9, 7_000, "omweso", R, P, "north", true, Some(T)),
        finished(10, 8_000, "omweso", Q, R, "north", false, None),
    ]
}

async fn stored(db: &TestDb) -> Store {
    let store = db.open().await;
    let writes: Vec<Write> = games().into_iter().map(Write::InsertGame).collect();
    store.write(&writes).await.unwrap();
    store
}

fn search() -> ArchiveSearch {
    ArchiveSearch {
        limit: 50,
        ..ArchiveSearch::default()
    }
}

/// The game numbers of a page.
fn numbers(found: &ArchiveFound) -> Vec<u128> {
    found.entries.iter().map(|e| e.id.as_u128()).collect()
}

/// Every page of `search` (at most 20), each as its game numbers, followed by cursors.
async fn pages(store: &Store, search: &ArchiveSearch, window: i64) -> Vec<Vec<u128>> {
    let mut search = search.clone();
    let mut pages = Vec::new();
    for _ in 0..20 {
        let found = store.archive_search_within(&search, window).await.unwrap();
        pages.push(numbers(&found));
        match found.next {
            Some(next) => search.before = Some(next),
            None => return pages,
        }
    }
    panic!("more than 20 pages: {pages:?}");
}

#[tokio::test]
async fn searches_give_their_games_newest_first_with_exact_pages() {
    for_each_db(ALL, |db| async move {
        let store = stored(&db).await;
        let all = |f: fn(&mut ArchiveSearch)| {
            let mut s = search();
            f(&mut s);
            s
        };
        let cases: Vec<(&str, ArchiveSearch, Vec<Vec<u128>>)> = vec![
            (
                "everything",
                search(),
                vec![vec![10, 9, 7, 6, 5, 4, 3, 2, 1]],
            ),
            (
                "everything, 3 a page",
                all(|s| s.limit = 3),
                vec![vec![10, 9, 7], vec![6, 5, 4], vec![3, 2, 1]],
            ),
            (
                "a player, either seat, 2 a page",
                ArchiveSearch {
                    players: vec![P],
                    limit: 2,
                    ..search()
                },
                vec![vec![9, 7], vec![6, 5], vec![3, 2], vec![1]],
            ),
            (
                "what the player won",
                ArchiveSearch {
                    players: vec![P],
                    result: Some(ResultFilter::PlayerWon),
                    ..search()
                },
                vec![vec![9, 2, 1]],
            ),
            (
                "what the player lost",
                ArchiveSearch {
                    players: vec![P],
                    result: Some(ResultFilter::PlayerLost),
                    ..search()
                },
                vec![vec![7, 5]],
            ),
            (
                "a player against an opponent",
                ArchiveSearch {
                    players: vec![P],
                    opponents: vec![Q],
                    ..search()
                },
                vec![vec![6, 5, 2, 1]],
            ),
            (
                "a ruleset",
                all(|s| s.ruleset = Some("oware".into())),
                vec![vec![7, 2]],
            ),
            (
                "rated",
                all(|s| s.rated = Some(true)),
                vec![vec![9, 5, 4, 3, 1]],
            ),
            (
                "casual",
                all(|s| s.rated = Some(false)),
                vec![vec![10, 7, 6, 2]],
            ),
            (
                "draws",
                all(|s| s.result = Some(ResultFilter::Is("draw"))),
                vec![vec![3]],
            ),
            (
                "annulled",
                all(|s| s.result = Some(ResultFilter::Is("annulled"))),
                vec![vec![6]],
            ),
            (
                "North won",
                all(|s| s.result = Some(ResultFilter::Is("north"))),
                vec![vec![10, 9, 7, 2]],
            ),
            (
                "a tournament",
                all(|s| s.tournaments = vec![T]),
                vec![vec![9, 4, 3]],
            ),
            (
                "a player in a tournament",
                ArchiveSearch {
                    players: vec![P],
                    tournaments: vec![T],
                    ..search()
                },
                vec![vec![9, 3]],
            ),
            (
                "ended from 3000 to before 6000",
                all(|s| {
                    s.from_ms = Some(3_000);
                    s.to_ms = Some(6_000);
                }),
                vec![vec![6, 5, 4, 3]],
            ),
            (
                "everything together",
                ArchiveSearch {
                    players: vec![P],
                    opponents: vec![R],
                    ruleset: Some("omweso".into()),
                    rated: Some(true),
                    result: Some(ResultFilter::PlayerWon),
                    from_ms: Some(1_000),
                    to_ms: Some(9_000),
                    tournaments: vec![T],
                    ..search()
                },
                vec![vec![9]],
            ),
            (
                "nobody's",
                ArchiveSearch {
                    players: vec![Uuid::from_u128(0xdead)],
                    ..search()
                },
                vec![vec![]],
            ),
            // Several persons (a name's namesakes): the games of any of them, once each,
            // merged newest first across their four seat indexes; 10 and 4 had both.
            (
                "two players, 3 a page",
                ArchiveSearch {
                    players: vec![Q, R],
                    limit: 3,
                    ..search()
                },
                vec![vec![10, 9, 6], vec![5, 4, 3], vec![2, 1]],
            ),
            (
                "two players against one opponent",
                ArchiveSearch {
                    players: vec![Q, R],
                    opponents: vec![P],
                    ..search()
                },
                vec![vec![9, 6, 5, 3, 2, 1]],
            ),
            (
                "one player against either of two",
                ArchiveSearch {
                    players: vec![P],
                    opponents: vec![R, COMPUTER],
                    ..search()
                },
                vec![vec![9, 7, 3]],
            ),
            // Several tournaments (a name's): the games of any; one has none.
            (
                "two tournaments",
                all(|s| s.tournaments = vec![Uuid::from_u128(0x7001), T]),
                vec![vec![9, 4, 3]],
            ),
            (
                "a player in two tournaments",
                ArchiveSearch {
                    players: vec![Q],
                    tournaments: vec![T, Uuid::from_u128(0x7001)],
                    ..search()
                },
                vec![vec![4]],
            ),
        ];
        for (what, search, expected) in cases {
            assert_eq!(pages(&store, &search, 10_000).await, expected, "{what}");
        }
        store.close().await;
    })
    .await;
}

/// A name finds the persons who hold it and finished a game (letters compared without
/// case), and the tournaments of that name, the newest first: what a search by name reads
/// first (`archive::names`).
#[tokio::test]
async fn a_name_finds_its_persons_who_played_and_its_tournaments() {
    for_each_db(ALL, |db| async move {
        let store = stored(&db).await;
        for (name, id) in [
            ("Kato Moses", P),
            ("kato moses", Q),
            // Never finished a game: not found.
            ("Kato Moses", Uuid::from_u128(0xdead)),
            ("Kato", R),
        ] {
            let (_, mut person) = session(name, 1);
            person.player_id = id;
            store.insert_session(&person).await.unwrap();
        }
        assert_eq!(
            store.persons_named("KATO MOSES", 21).await.unwrap(),
            vec![P, Q]
        );
        assert_eq!(store.persons_named("Kato Moses", 1).await.unwrap(), vec![P]);
        assert_eq!(store.persons_named("Kato", 21).await.unwrap(), vec![R]);
        assert_eq!(
            store.persons_named("Nobody", 21).await.unwrap(),
            Vec::<Uuid>::new()
        );

        let club = |n: u128, name: &str, created_at_ms: i64| {
            Write::InsertTournament(TournamentRow {
                id: Uuid::from_u128(n),
                name: name.into(),
                ..tournament("finished", created_at_ms)
            })
        };
        store
            .write(&[
                club(1, "Club Night", 100),
                club(2, "club night", 300),
                club(3, "Club Night 2", 200),
            ])
            .await
            .unwrap();
        assert_eq!(
            store.tournaments_named("CLUB NIGHT", 21).await.unwrap(),
            vec![Uuid::from_u128(2), Uuid::from_u128(1)]
        );
        assert_eq!(
            store.tournaments_named("Club", 21).await.unwrap(),
            Vec::<Uuid>::new()
        );
        // An entry names its tournament as it is now.
        store
            .write(&[club(T.as_u128(), "Kampala Open", 50)])
            .await
            .unwrap();
        let entry = store.archive_entry(g(9)).await.unwrap().expect("game 9");
        assert_eq!(entry.tournament_name.as_deref(), Some("Kampala Open"));
        assert_eq!(
            store
                .archive_entry(g(1))
                .await
                .unwrap()
                .unwrap()
                .tournament_name,
            None
        );
        store.close().await;
    })
    .await;
}

/// A name held by more people who played than one search reads (20), or by more
/// tournaments, is refused saying how to narrow it; a name nobody has is no search at all.
#[tokio::test]
async fn more_namesakes_than_a_search_reads_are_refused() {
    use omweso_server::archive::names::{resolve, NamesError, MAX_NAMESAKES};
    use omweso_server::archive::search::{Asked, PersonAsked, TournamentAsked};
    for_each_db(ALL, |db| async move {
        let store = db.open().await;
        let mut writes = Vec::new();
        for n in 0..=MAX_NAMESAKES as u128 {
            let (_, mut person) = session("Kato", 1);
            person.player_id = Uuid::from_u128(0x1000 + n);
            store.insert_session(&person).await.unwrap();
            writes.push(Write::InsertGame(finished(
                100 + n,
                1_000 + i64::try_from(n).unwrap(),
                "oware",
                person.player_id,
                COMPUTER,
                "north",
                false,
                None,
            )));
            writes.push(Write::InsertTournament(TournamentRow {
                name: "Club Night".into(),
                ..tournament("finished", 1)
            }));
        }
        store.write(&writes).await.unwrap();
        let asked = |player: Option<&str>, tournament: Option<&str>| Asked {
            player: player.map(|p| PersonAsked::UsernameOrName(p.into())),
            opponent: None,
            tournament: tournament.map(|t| TournamentAsked::Name(t.into())),
            search: search(),
        };
        let refusal = |found: Result<Option<ArchiveSearch>, NamesError>| match found {
            Err(NamesError::TooMany(message)) => message,
            other => panic!("not refused: {other:?}"),
        };
        assert_eq!(
            refusal(resolve(&store, asked(Some("Kato"), None)).await),
            "player: more than 20 people named \"Kato\" have played here; search by a \
             username (@name), or add the tournament they played in"
        );
        // Within a tournament the namesakes are only checked on its games: all 21 are.
        let mut within = asked(Some("Kato"), None);
        within.tournament = Some(TournamentAsked::Id(T));
        let found = resolve(&store, within).await.unwrap().expect("a search");
        assert_eq!(found.players.len(), MAX_NAMESAKES + 1);
        assert_eq!(found.tournaments, vec![T]);
        assert!(
            refusal(resolve(&store, asked(None, Some("club night"))).await)
                .starts_with("tournament: more than 20 tournaments are named \"club night\"")
        );
        assert!(resolve(&store, asked(Some("Nakato"), None))
            .await
            .unwrap()
            .is_none());
        store.close().await;
    })
    .await;
}

/// A search with filters beyond its index reads a window of entries a request: pages may
/// be short, even empty, but joined they are the whole answer, in order.
#[tokio::test]
async fn windows_bound_each_request_and_join_into_the_whole_answer() {
    for_each_db(ALL, |db| async move {
        let store = stored(&db).await;
        // Windows of 2 entries: 10 9 | 7 6 | 5 4 | 3 2 | 1.
        let rated = ArchiveSearch {
            rated: Some(true),
            limit: 3,
            ..search()
        };
        assert_eq!(
            pages(&store, &rated, 2).await,
            vec![vec![9], vec![], vec![5, 4], vec![3], vec![1]]
        );
        // Each page's cursor is where its window ended.
        let first = store.archive_search_within(&rated, 2).await.unwrap();
        assert_eq!(first.next, Some((7_000, g(9))));
        // A player's two seats are read by windows of their own, and the page holds only
        // what both have read: South P 7 6 | 3 1, North P 9 5 | 2. The second page stops
        // at 2, where North's window ended: 1, found by South's, comes on the third.
        let won = ArchiveSearch {
            players: vec![P],
            result: Some(ResultFilter::PlayerWon),
            ..search()
        };
        assert_eq!(
            pages(&store, &won, 2).await,
            vec![vec![9], vec![2], vec![1]]
        );
        // A window larger than the page: the page is full before the window ends.
        let casual = ArchiveSearch {
            rated: Some(false),
            limit: 2,
            ..search()
        };
        assert_eq!(
            pages(&store, &casual, 100).await,
            vec![vec![10, 7], vec![6, 2]]
        );
        store.close().await;
    })
    .await;
}

#[tokio::test]
async fn an_entry_shows_its_seats_and_results_are_counted_by_ruleset() {
    for_each_db(ALL, |db| async move {
        let store = stored(&db).await;
        let (_, mut kato) = session("Kato", 1);
        kato.player_id = P;
        store.insert_session(&kato).await.unwrap();
        let entry = store.archive_entry(g(7)).await.unwrap().expect("game 7");
        assert_eq!(
            (
                entry.ruleset.as_str(),
                entry.south_person.clone(),
                entry.north_person.clone(),
                entry.result.as_deref(),
                entry.victory.as_deref(),
                entry.rated,
                entry.move_count,
                entry.created_at_ms,
                entry.finished_at_ms,
            ),
            (
                "oware",
                Some(("Kato".to_owned(), None)),
                None,
                Some("north"),
                Some("resigned"),
                false,
                Some(70),
                5_900,
                6_000
            )
        );
        assert_eq!(entry.north, Some(COMPUTER));
        assert_eq!(store.archive_entry(g(8)).await.unwrap(), None, "not over");
        assert_eq!(
            store.archive_entry(g(99)).await.unwrap(),
            None,
            "no such game"
        );
        // P: Omweso 1 won, 3 drawn, 5 lost, 6 annulled (not counted), 9 won; Oware 2 won,
        // 7 lost.
        let results = store.results_of(P).await.unwrap();
        let counted: Vec<_> = results
            .iter()
            .map(|(r, c)| (r.as_str(), c.won, c.lost, c.drawn))
            .collect();
        assert_eq!(counted, vec![("omweso", 2, 1, 1), ("oware", 1, 1, 0)]);
        assert_eq!(
            store.results_of(Uuid::from_u128(0xdead)).await.unwrap(),
            vec![]
        );
        store.close().await;
    })
    .await;
}

/// Games that ended before migration 8 have no search columns: the server fills them in
/// at start from their configuration, outcome, last snapshot and the tournaments' logs.
#[tokio::test]
async fn older_finished_games_are_filled_in_once() {
    for_each_db(ALL, |db| async move {
        let store = db.open().await;
        let config = |rated: bool, tournament: Option<Uuid>| GameConfig {
            ruleset: Ruleset::Omweso,
            setup: SetupKind::Outer,
            time_control: TimeControl::CASUAL,
            stop_at_ms: None,
            relayed: false,
            rated,
            tournament,
        };
        let old = |n: u128, status: &str, config: GameConfig, outcome: Option<Outcome>| {
            let mut row = game(status, 100);
            row.id = g(n);
            row.updated_at_ms = 4_000 + i64::try_from(n).unwrap();
            row.config_json = serde_json::to_string(&config).unwrap();
            row.outcome_json = outcome.map(|o| serde_json::to_string(&o).unwrap());
            row
        };
        let won = Outcome::Win {
            winner: Side::North,
            victory: Victory::NoMove,
        };
        let mut with_snapshot = old(1, "finished", config(true, None), Some(won));
        with_snapshot.final_json = Some(r#"{"history":[{"move":"E1"},{"move":"A3"}]}"#.into());
        // A tournament game from before its configuration named its tournament.
        let in_tournament = old(2, "finished", config(false, None), Some(Outcome::Draw));
        let playing = old(3, "playing", config(false, None), None);
        let mut writes = vec![
            // The last snapshot is written by the update that ends a game.
            Write::InsertGame(with_snapshot.clone()),
            Write::UpdateGame(with_snapshot),
            Write::InsertGame(in_tournament),
            Write::InsertGame(playing),
            Write::InsertTournament(TournamentRow {
                id: T,
                ..tournament("running", 1)
            }),
        ];
        writes.push(Write::AppendTournamentEntry(TournamentEntryRow {
            tournament_id: T,
            seq: 1,
            at_ms: 5,
            kind: "game_end".into(),
            payload_json: format!(r#"{{"game_id":"{}"}}"#, g(2)),
        }));
        store.write(&writes).await.unwrap();
        assert_eq!(store.fill_archive_columns().await.unwrap(), 2);
        assert_eq!(store.fill_archive_columns().await.unwrap(), 0, "once only");
        let columns = |n| {
            let store = store.clone();
            async move { store.game(g(n)).await.unwrap().unwrap().archive }
        };
        assert_eq!(
            columns(1).await,
            ArchiveColumns {
                rated: true,
                tournament_id: None,
                result: Some("north".into()),
                victory: Some("no-move".into()),
                finished_at_ms: Some(4_001),
                move_count: Some(2),
            }
        );
        assert_eq!(
            columns(2).await,
            ArchiveColumns {
                rated: false,
                tournament_id: Some(T),
                result: Some("draw".into()),
                victory: None,
                finished_at_ms: Some(4_002),
                move_count: None,
            }
        );
        assert_eq!(columns(3).await, ArchiveColumns::default(), "not over");
        let t = ArchiveSearch {
            tournaments: vec![T],
            ..search()
        };
        assert_eq!(numbers(&store.archive_search(&t).await.unwrap()), vec![2]);
        store.close().await;
    })
    .await;
}
