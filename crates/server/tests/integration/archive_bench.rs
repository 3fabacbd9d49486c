//! The archive's benchmark (`omweso bench archive`, docs/performance.md#the-archive) at a
//! small size, as CI runs it: it loads its generated archive on an SQLite file and on
//! PostgreSQL, times every search, and reports plans in which each search reads its own
//! index; both databases give the same pages of the same archive. The million-game run is
//! the command's, by hand.

use omweso_server::archive::bench::{self, ArchiveBenchConfig, Report};

fn config(url: &str) -> ArchiveBenchConfig {
    ArchiveBenchConfig {
        database_url: url.to_owned(),
        games: 3_000,
        runs: 2,
        seed: 29,
        reuse: false,
        no_plans: false,
    }
}

async fn bench_on(url: &str) -> Report {
    let mut out = Vec::new();
    let report = bench::run(&config(url), &mut out)
        .await
        .expect("the benchmark runs");
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("| newest | `` | 50 | yes |"), "{text}");
    report
}

/// The index each search's SQLite plan reads, in the benchmark's order.
const SQLITE_INDEXES: &[(&str, &[&str])] = &[
    ("newest", &["games USING COVERING INDEX games_archive"]),
    (
        "newest, page 50",
        &["games USING COVERING INDEX games_archive"],
    ),
    (
        "a ruleset",
        &["games USING COVERING INDEX games_archive_ruleset"],
    ),
    (
        "the busiest player",
        &[
            "COVERING INDEX games_archive_south",
            "COVERING INDEX games_archive_north",
        ],
    ),
    (
        "a middling player",
        &[
            "COVERING INDEX games_archive_south",
            "COVERING INDEX games_archive_north",
        ],
    ),
    (
        "the busiest player's wins",
        &[
            "COVERING INDEX games_archive_south",
            "COVERING INDEX games_archive_north",
        ],
    ),
    (
        "the two busiest, head to head",
        &[
            "COVERING INDEX games_archive_south",
            "COVERING INDEX games_archive_north",
        ],
    ),
    (
        "a player by name",
        &[
            "INDEX persons_name",
            "COVERING INDEX games_archive_south",
            "COVERING INDEX games_archive_north",
        ],
    ),
    (
        "the busiest player by name",
        &[
            "INDEX persons_name",
            "COVERING INDEX games_archive_south",
            "COVERING INDEX games_archive_north",
        ],
    ),
    ("a name nobody has", &["INDEX persons_name"]),
    (
        "a tournament by name",
        &["INDEX tournaments_name", "INDEX games_archive_tournament"],
    ),
    ("a tournament", &["INDEX games_archive_tournament"]),
    (
        "rated draws in Oware",
        &["COVERING INDEX games_archive_ruleset"],
    ),
    ("a month", &["COVERING INDEX games_archive"]),
    (
        "nothing matches (rated and annulled)",
        &["COVERING INDEX games_archive"],
    ),
    (
        "the same without the window (not served)",
        &["COVERING INDEX games_archive"],
    ),
];

#[tokio::test]
async fn the_benchmark_reads_one_index_per_search_and_both_databases_agree() {
    let path =
        std::env::temp_dir().join(format!("omweso-archive-bench-{}.db", uuid::Uuid::new_v4()));
    let url = format!("sqlite://{}", path.display());
    let sqlite = bench_on(&url).await;
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
    assert_eq!(sqlite.timed.len(), SQLITE_INDEXES.len());
    for (timed, (name, indexes)) in sqlite.timed.iter().zip(SQLITE_INDEXES) {
        assert_eq!(timed.name, *name);
        let plan = timed
            .plans
            .iter()
            .flat_map(|(_, lines)| lines.iter().cloned())
            .collect::<Vec<_>>()
            .join("\n");
        for index in *indexes {
            assert!(plan.contains(index), "{name} reads {index}:\n{plan}");
        }
        // The lookups by name sort the few persons or tournaments of that name (in the
        // order of their ids, the newest tournament first); the games are never sorted.
        let games_plan = timed
            .plans
            .iter()
            .filter(|(statement, _)| {
                !statement.contains("FROM persons") && !statement.contains("FROM tournaments")
            })
            .flat_map(|(_, lines)| lines.iter().cloned())
            .collect::<Vec<_>>()
            .join("\n");
        assert!(!games_plan.contains("TEMP B-TREE"), "{name} sorts:\n{plan}");
    }
    // By name, the same pages as by username or id.
    let page = |name: &str| &sqlite.timed.iter().find(|t| t.name == name).unwrap().ids;
    assert_eq!(page("a player by name"), page("a middling player"));
    assert_eq!(
        page("the busiest player by name"),
        page("the busiest player")
    );
    assert_eq!(page("a tournament by name"), page("a tournament"));
    assert!(page("a name nobody has").is_empty());
    let first = &sqlite.timed[0];
    assert_eq!((first.games, first.next), (50, true));
    let nothing = &sqlite.timed[14];
    assert_eq!(
        (nothing.games, nothing.next),
        (0, false),
        "3,000 games: one window"
    );

    let Some(pg) = omweso_testkit::FreshPostgres::create("omweso_archive_bench").await else {
        return;
    };
    let postgres = bench_on(&pg.url).await;
    for (s, p) in sqlite.timed.iter().zip(&postgres.timed) {
        assert_eq!(s.ids, p.ids, "{}: the same page on both", s.name);
        assert_eq!(s.next, p.next, "{}", s.name);
    }
    pg.drop_database().await;
}
