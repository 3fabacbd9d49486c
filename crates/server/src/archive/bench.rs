//! `omweso bench archive`: the archive's searches timed on a large store, SQLite or
//! PostgreSQL, with the plans the database makes for them (docs/performance.md#the-archive).
//!
//! It fills an empty database with a generated archive (`bench_data`), or times the one a
//! database already holds (`--reuse`), then runs each search of [`searches`] `runs` times
//! through the store's own search (what `GET /api/archive` does, less HTTP) after one run
//! not counted, and reports
//! each one's fastest, median and slowest run, its median over the newest page's, and its
//! plans.

use std::time::{Duration, Instant};

use uuid::Uuid;

use super::bench_data::{self, Shape};
use super::names::{self, NamesError};
use super::search::{cursor_text, Asked, PersonAsked, TournamentAsked};
use super::sql::{ArchiveSearch, ResultFilter, WINDOW as ARCHIVE_WINDOW};
use crate::store::{Store, StoreError};

/// `omweso bench archive`'s settings.
#[derive(clap::Args, Clone, Debug)]
pub struct ArchiveBenchConfig {
    /// The database: an SQLite file (`sqlite:///tmp/archive.db`, created if missing) or a
    /// PostgreSQL database (`postgres://...`), with no games in it unless `--reuse`.
    #[arg(long)]
    pub database_url: String,
    /// Games to generate.
    #[arg(long, default_value_t = 1_000_000)]
    pub games: u64,
    /// Times each search is run.
    #[arg(long, default_value_t = 20)]
    pub runs: u32,
    /// The generator's seed (the same seed, the same archive).
    #[arg(long, default_value_t = 29)]
    pub seed: u64,
    /// Time the games the database already holds (generated before with the same
    /// `--games` and `--seed`) instead of refusing a database that has games.
    #[arg(long)]
    pub reuse: bool,
    /// Leave the query plans out of the report.
    #[arg(long)]
    pub no_plans: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    #[error("database: {0}")]
    Store(#[from] StoreError),
    #[error("loading the games: {0}")]
    Load(String),
    #[error("{0}")]
    Refused(String),
    #[error("writing the report: {0}")]
    Io(#[from] std::io::Error),
}

/// One search's timings.
#[derive(Clone, Debug)]
pub struct Timed {
    pub name: &'static str,
    /// The search as `GET /api/archive`'s query.
    pub query: String,
    /// Games on its page, and whether a next page was given.
    pub games: usize,
    pub next: bool,
    /// The page's game ids (the same archive gives the same pages on both databases).
    pub ids: Vec<Uuid>,
    pub fastest: Duration,
    pub median: Duration,
    pub slowest: Duration,
    pub plans: Vec<(String, Vec<String>)>,
}

/// What a run measured.
#[derive(Clone, Debug)]
pub struct Report {
    pub backend: &'static str,
    pub games: u64,
    pub load: Option<Duration>,
    pub timed: Vec<Timed>,
}

/// A search of the benchmark: its name, its query, what it asks, and the window it reads
/// with (the server's, but for the one that shows what the window saves).
struct Case {
    name: &'static str,
    query: String,
    search: ArchiveSearch,
    window: i64,
    /// Pages to follow before the one timed.
    skip_pages: u32,
    /// A name the search gives, found in the store in each run (as `GET /api/archive`
    /// finds it) before the search itself.
    named: Option<Named>,
}

/// A name a case searches by.
#[derive(Clone, Debug)]
enum Named {
    Player(String),
    Tournament(String),
}

impl Case {
    /// The search with its name found (`None`: nobody has it, no search runs), as
    /// `GET /api/archive` does it.
    async fn resolved(&self, store: &Store) -> Result<Option<ArchiveSearch>, BenchError> {
        let Some(named) = &self.named else {
            return Ok(Some(self.search.clone()));
        };
        let mut asked = Asked {
            player: None,
            opponent: None,
            tournament: None,
            search: self.search.clone(),
        };
        match named {
            Named::Player(name) => asked.player = Some(PersonAsked::UsernameOrName(name.clone())),
            Named::Tournament(name) => asked.tournament = Some(TournamentAsked::Name(name.clone())),
        }
        names::resolve(store, asked)
            .await
            .map_err(|error| match error {
                NamesError::Store(error) => BenchError::Store(error),
                NamesError::TooMany(message) => BenchError::Refused(message),
            })
    }
}

/// The searches timed, over the archive `shape` generates.
fn searches(shape: Shape) -> Vec<Case> {
    let base = ArchiveSearch {
        limit: 50,
        ..ArchiveSearch::default()
    };
    let busiest = shape.player(0);
    let second = shape.player(1);
    let middling = shape.player(shape.players() / 2);
    let tournament = shape.tournament(0);
    let month_from = 1_672_531_200_000 + 18 * 30 * 86_400_000;
    let month_to = month_from + 30 * 86_400_000;
    let case = |name, query: String, search: ArchiveSearch| Case {
        name,
        query,
        search,
        window: ARCHIVE_WINDOW,
        skip_pages: 0,
        named: None,
    };
    let named = |name, query: String, named: Named| Case {
        named: Some(named),
        ..case(name, query, base.clone())
    };
    vec![
        case("newest", String::new(), base.clone()),
        Case {
            skip_pages: 49,
            ..case(
                "newest, page 50",
                "after=<page 49's next>".into(),
                base.clone(),
            )
        },
        case(
            "a ruleset",
            "ruleset=mweiso".into(),
            ArchiveSearch {
                ruleset: Some("mweiso".into()),
                ..base.clone()
            },
        ),
        case(
            "the busiest player",
            format!("player={}", Shape::username(0)),
            ArchiveSearch {
                players: vec![busiest],
                ..base.clone()
            },
        ),
        case(
            "a middling player",
            format!("player={}", Shape::username(shape.players() / 2)),
            ArchiveSearch {
                players: vec![middling],
                ..base.clone()
            },
        ),
        case(
            "the busiest player's wins",
            format!("player={}&result=won", Shape::username(0)),
            ArchiveSearch {
                players: vec![busiest],
                result: Some(ResultFilter::PlayerWon),
                ..base.clone()
            },
        ),
        case(
            "the two busiest, head to head",
            format!(
                "player={}&opponent={}",
                Shape::username(0),
                Shape::username(1)
            ),
            ArchiveSearch {
                players: vec![busiest],
                opponents: vec![second],
                ..base.clone()
            },
        ),
        named(
            "a player by name",
            format!("player={}", Shape::name(shape.players() / 2)),
            Named::Player(Shape::name(shape.players() / 2)),
        ),
        named(
            "the busiest player by name",
            format!("player={}", Shape::name(0)),
            Named::Player(Shape::name(0)),
        ),
        named(
            "a name nobody has",
            "player=Nobody Here".into(),
            Named::Player("Nobody Here".into()),
        ),
        named(
            "a tournament by name",
            format!("tournament={}", Shape::tournament_name(0)),
            Named::Tournament(Shape::tournament_name(0)),
        ),
        case(
            "a tournament",
            format!("tournament={tournament}"),
            ArchiveSearch {
                tournaments: vec![tournament],
                ..base.clone()
            },
        ),
        case(
            "rated draws in Oware",
            "ruleset=oware&rated=true&result=draw".into(),
            ArchiveSearch {
                ruleset: Some("oware".into()),
                rated: Some(true),
                result: Some(ResultFilter::Is("draw")),
                ..base.clone()
            },
        ),
        case(
            "a month",
            format!("from={month_from}&to={month_to}"),
            ArchiveSearch {
                from_ms: Some(month_from),
                to_ms: Some(month_to),
                ..base.clone()
            },
        ),
        case(
            "nothing matches (rated and annulled)",
            "rated=true&result=annulled".into(),
            ArchiveSearch {
                rated: Some(true),
                result: Some(ResultFilter::Is("annulled")),
                ..base.clone()
            },
        ),
        Case {
            window: i64::MAX,
            ..case(
                "the same without the window (not served)",
                "rated=true&result=annulled".into(),
                ArchiveSearch {
                    rated: Some(true),
                    result: Some(ResultFilter::Is("annulled")),
                    ..base
                },
            )
        },
    ]
}

/// Runs the benchmark and writes its report to `out`.
pub async fn run(
    config: &ArchiveBenchConfig,
    out: &mut (dyn std::io::Write + Send),
) -> Result<Report, BenchError> {
    let shape = Shape {
        games: config.games,
        seed: config.seed,
    };
    let store = Store::open(&config.database_url).await?;
    let one = ArchiveSearch {
        limit: 1,
        ..ArchiveSearch::default()
    };
    let empty = store.archive_search(&one).await?.entries.is_empty();
    let backend = store.backend();
    let mut load = None;
    if empty {
        store.close().await;
        writeln!(out, "loading {} games into {backend}...", config.games)?;
        let started = Instant::now();
        match backend {
            "sqlite" => {
                let path = bench_data::sqlite_path(&config.database_url)?;
                tokio::task::spawn_blocking(move || bench_data::load_sqlite(&path, shape))
                    .await
                    .map_err(|e| BenchError::Load(e.to_string()))?
                    .map_err(|e| BenchError::Load(e.to_string()))?;
            }
            _ => bench_data::load_postgres(&config.database_url, shape)
                .await
                .map_err(|e| BenchError::Load(e.to_string()))?,
        }
        load = Some(started.elapsed());
        writeln!(out, "loaded in {:.1} s", started.elapsed().as_secs_f64())?;
    } else if !config.reuse {
        store.close().await;
        return Err(BenchError::Refused(
            "the database holds games: give an empty one, or --reuse to time them".into(),
        ));
    } else {
        store.close().await;
    }
    let store = Store::open(&config.database_url).await?;
    let mut timed = Vec::new();
    for case in searches(shape) {
        let mut case = case;
        for _ in 0..case.skip_pages {
            let page = store
                .archive_search_within(&case.search, case.window)
                .await?;
            case.search.before = page.next;
        }
        let nothing = || super::store::ArchiveFound {
            entries: Vec::new(),
            next: None,
        };
        // One run first, not counted: the first statement of a kind is prepared on its
        // connection and its pages read from the disk; every run after is what a busy
        // server's searches cost.
        if let Some(search) = case.resolved(&store).await? {
            store.archive_search_within(&search, case.window).await?;
        }
        let mut times = Vec::with_capacity(config.runs as usize);
        let mut page = None;
        let mut searched = None;
        for _ in 0..config.runs.max(1) {
            let started = Instant::now();
            let resolved = case.resolved(&store).await?;
            let found = match &resolved {
                Some(search) => store.archive_search_within(search, case.window).await?,
                None => nothing(),
            };
            times.push(started.elapsed());
            page = Some(found);
            searched = resolved;
        }
        times.sort();
        let page = page.unwrap_or_else(nothing);
        let mut plans = Vec::new();
        if !config.no_plans {
            let (person, tournament) = match &case.named {
                Some(Named::Player(name)) => (Some(name.as_str()), None),
                Some(Named::Tournament(name)) => (None, Some(name.as_str())),
                None => (None, None),
            };
            plans.extend(store.name_plans(person, tournament).await?);
            if let Some(search) = &searched {
                plans.extend(
                    store
                        .archive_plans(search, case.window.min(ARCHIVE_WINDOW))
                        .await?,
                );
            }
        }
        let query = match (case.search.before, case.skip_pages) {
            (Some(before), 1..) => format!("after={}", cursor_text(before)),
            _ => case.query.clone(),
        };
        timed.push(Timed {
            name: case.name,
            query,
            games: page.entries.len(),
            next: page.next.is_some(),
            ids: page.entries.iter().map(|e| e.id).collect(),
            fastest: times[0],
            median: times[times.len() / 2],
            slowest: times[times.len() - 1],
            plans,
        });
    }
    store.close().await;
    let report = Report {
        backend,
        games: config.games,
        load,
        timed,
    };
    write_report(&report, config.runs, out)?;
    Ok(report)
}

fn write_report(
    report: &Report,
    runs: u32,
    out: &mut (dyn std::io::Write + Send),
) -> std::io::Result<()> {
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let base = report.timed.first().map_or(1.0, |t| ms(t.median).max(1e-6));
    writeln!(
        out,
        "\n{} games on {}, {runs} runs of each search (ms):\n",
        report.games, report.backend
    )?;
    writeln!(
        out,
        "| search | query | games | next | fastest | median | slowest | median / newest's |"
    )?;
    writeln!(out, "|---|---|---:|---|---:|---:|---:|---:|")?;
    for t in &report.timed {
        writeln!(
            out,
            "| {} | `{}` | {} | {} | {:.2} | {:.2} | {:.2} | {:.1} |",
            t.name,
            t.query,
            t.games,
            if t.next { "yes" } else { "no" },
            ms(t.fastest),
            ms(t.median),
            ms(t.slowest),
            ms(t.median) / base
        )?;
    }
    for t in report.timed.iter().filter(|t| !t.plans.is_empty()) {
        writeln!(out, "\n{} (`{}`):", t.name, t.query)?;
        for (statement, plan) in &t.plans {
            writeln!(out, "    {statement}")?;
            for line in plan {
                writeln!(out, "      {line}")?;
            }
        }
    }
    Ok(())
}
