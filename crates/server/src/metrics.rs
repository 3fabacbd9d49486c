//! Prometheus metrics, served in the text exposition format on their own address (not the
//! public port). A handful of atomics: counters, gauges and fixed-bucket histograms.

use std::fmt::Write;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::time::Duration;

/// A histogram of durations with fixed buckets (upper bounds in seconds).
#[derive(Debug)]
pub struct Histogram {
    buckets: [AtomicU64; BOUNDS.len()],
    count: AtomicU64,
    sum_micros: AtomicU64,
}

const BOUNDS: [f64; 12] = [
    0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
];

impl Histogram {
    #[allow(clippy::declare_interior_mutable_const)]
    const ZERO: AtomicU64 = AtomicU64::new(0);

    const fn new() -> Histogram {
        Histogram {
            buckets: [Self::ZERO; BOUNDS.len()],
            count: AtomicU64::new(0),
            sum_micros: AtomicU64::new(0),
        }
    }

    pub fn observe(&self, elapsed: Duration) {
        let seconds = elapsed.as_secs_f64();
        for (bucket, bound) in self.buckets.iter().zip(BOUNDS) {
            if seconds <= bound {
                bucket.fetch_add(1, Ordering::Relaxed);
            }
        }
        self.count.fetch_add(1, Ordering::Relaxed);
        let micros = u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX);
        self.sum_micros.fetch_add(micros, Ordering::Relaxed);
    }

    fn render(&self, out: &mut String, name: &str, help: &str) {
        let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} histogram");
        for (bucket, bound) in self.buckets.iter().zip(BOUNDS) {
            let _ = writeln!(
                out,
                "{name}_bucket{{le=\"{bound}\"}} {}",
                bucket.load(Ordering::Relaxed)
            );
        }
        let count = self.count.load(Ordering::Relaxed);
        let _ = writeln!(out, "{name}_bucket{{le=\"+Inf\"}} {count}");
        let sum = self.sum_micros.load(Ordering::Relaxed) as f64 / 1e6;
        let _ = writeln!(out, "{name}_sum {sum}\n{name}_count {count}");
    }
}

/// Every metric the server keeps.
#[derive(Debug)]
pub struct Metrics {
    pub player_connections: AtomicI64,
    pub spectator_connections: AtomicI64,
    /// Moves and decision answers played.
    pub moves: AtomicU64,
    pub steals: AtomicU64,
    pub annulments: AtomicU64,
    pub games_ended: AtomicU64,
    pub games_created: AtomicU64,
    pub dropped_slow_clients: AtomicU64,
    pub refused_messages: AtomicU64,
    /// Legal-move listings a game made itself (cheap ones) and handed to the engine pool.
    pub legal_listed_inline: AtomicU64,
    pub legal_listed_on_pool: AtomicU64,
    /// From a move arriving at its game to its events being sent, saving included.
    pub move_latency: Histogram,
    /// Appending one action to the log (waiting for the commit).
    pub database_latency: Histogram,
    /// One group commit of the writer (its transaction, from begin to durable commit).
    pub database_commit: Histogram,
    /// The writer finishing an SQLite checkpoint between two commits (SQLite files only).
    pub database_checkpoint: Histogram,
    /// Group commits, and the writes they carried (their ratio is the mean group size).
    pub database_commits: AtomicU64,
    pub database_writes: AtomicU64,
    /// Jobs waiting for a place in the engine pool's queue.
    pub engine_jobs_queued: AtomicI64,
    /// One job of the engine pool (legal moves, a replay).
    pub engine_job: Histogram,
    /// Searches of the computer player queued (`search_pool`), refused for a full queue
    /// (asked again later), and waiting for a thread now.
    pub searches: AtomicU64,
    pub searches_busy: AtomicU64,
    pub searches_queued: AtomicI64,
    /// One search of the computer player, on the search pool.
    pub search: Histogram,
    /// Moves (and arrangements) the computer played.
    pub computer_moves: AtomicU64,
    /// Requests refused by each limit of docs/security.md.
    pub limited: [AtomicU64; Limit::ALL.len()],
    /// Sockets closed for not answering three pings in a row.
    pub dropped_silent_sockets: AtomicU64,
    /// Sockets closed because a write to them did not complete in time.
    pub dropped_write_timeouts: AtomicU64,
    /// Pongs ignored: unasked for, or answering no ping of ours.
    pub ignored_pongs: AtomicU64,
    /// Games removed because nobody started them in time.
    pub games_expired: AtomicU64,
    /// Games against the computer removed because their person did not come in time.
    pub computer_no_shows: AtomicU64,
    /// Connections closed for sending no request (or not all its headers) in time.
    pub http_idle_timeouts: AtomicU64,
    /// Requests answered 408: their body did not arrive in time.
    pub request_timeouts: AtomicU64,
}

/// The limits of docs/security.md, each a label of `omweso_limited_total`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    SessionsPerIp,
    GamesPerSession,
    GamesPerIp,
    TournamentsPerSession,
    TournamentsPerIp,
    OpenGamesPerSession,
    OpenGames,
    SocketsPerSession,
    SocketsPerIp,
    ConnectionsPerIp,
    Connections,
    AnalysesPerSession,
    SearchesPerSession,
    BotGamesPerSession,
    BotGamesPerIp,
    BotGames,
    UnfinishedTournamentsPerDirector,
    UnfinishedTournaments,
    LiveGames,
    Sessions,
    PairingsPerSession,
}

impl Limit {
    pub const ALL: [Limit; 21] = [
        Limit::SessionsPerIp,
        Limit::GamesPerSession,
        Limit::GamesPerIp,
        Limit::TournamentsPerSession,
        Limit::TournamentsPerIp,
        Limit::OpenGamesPerSession,
        Limit::OpenGames,
        Limit::SocketsPerSession,
        Limit::SocketsPerIp,
        Limit::ConnectionsPerIp,
        Limit::Connections,
        Limit::AnalysesPerSession,
        Limit::SearchesPerSession,
        Limit::BotGamesPerSession,
        Limit::BotGamesPerIp,
        Limit::BotGames,
        Limit::UnfinishedTournamentsPerDirector,
        Limit::UnfinishedTournaments,
        Limit::LiveGames,
        Limit::Sessions,
        Limit::PairingsPerSession,
    ];

    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Limit::SessionsPerIp => "sessions_per_ip",
            Limit::GamesPerSession => "games_per_session",
            Limit::GamesPerIp => "games_per_ip",
            Limit::TournamentsPerSession => "tournaments_per_session",
            Limit::TournamentsPerIp => "tournaments_per_ip",
            Limit::OpenGamesPerSession => "open_games_per_session",
            Limit::OpenGames => "open_games",
            Limit::SocketsPerSession => "sockets_per_session",
            Limit::SocketsPerIp => "sockets_per_ip",
            Limit::ConnectionsPerIp => "connections_per_ip",
            Limit::Connections => "connections",
            Limit::AnalysesPerSession => "analyses_per_session",
            Limit::SearchesPerSession => "searches_per_session",
            Limit::BotGamesPerSession => "bot_games_per_session",
            Limit::BotGamesPerIp => "bot_games_per_ip",
            Limit::BotGames => "bot_games",
            Limit::UnfinishedTournamentsPerDirector => "unfinished_tournaments_per_director",
            Limit::UnfinishedTournaments => "unfinished_tournaments",
            Limit::LiveGames => "live_games",
            Limit::Sessions => "sessions",
            Limit::PairingsPerSession => "pairings_per_session",
        }
    }

    /// Counts one refusal by this limit.
    pub fn refused(self) {
        METRICS.limited[self as usize].fetch_add(1, Ordering::Relaxed);
    }
}

pub static METRICS: Metrics = Metrics {
    player_connections: AtomicI64::new(0),
    spectator_connections: AtomicI64::new(0),
    moves: AtomicU64::new(0),
    steals: AtomicU64::new(0),
    annulments: AtomicU64::new(0),
    games_ended: AtomicU64::new(0),
    games_created: AtomicU64::new(0),
    dropped_slow_clients: AtomicU64::new(0),
    refused_messages: AtomicU64::new(0),
    legal_listed_inline: AtomicU64::new(0),
    legal_listed_on_pool: AtomicU64::new(0),
    move_latency: Histogram::new(),
    database_latency: Histogram::new(),
    database_commit: Histogram::new(),
    database_checkpoint: Histogram::new(),
    database_commits: AtomicU64::new(0),
    database_writes: AtomicU64::new(0),
    engine_jobs_queued: AtomicI64::new(0),
    engine_job: Histogram::new(),
    searches: AtomicU64::new(0),
    searches_busy: AtomicU64::new(0),
    searches_queued: AtomicI64::new(0),
    search: Histogram::new(),
    computer_moves: AtomicU64::new(0),
    limited: [const { AtomicU64::new(0) }; Limit::ALL.len()],
    dropped_silent_sockets: AtomicU64::new(0),
    dropped_write_timeouts: AtomicU64::new(0),
    ignored_pongs: AtomicU64::new(0),
    games_expired: AtomicU64::new(0),
    computer_no_shows: AtomicU64::new(0),
    http_idle_timeouts: AtomicU64::new(0),
    request_timeouts: AtomicU64::new(0),
};

/// Adds one to a counter.
pub fn count(counter: &AtomicU64) {
    counter.fetch_add(1, Ordering::Relaxed);
}

/// The exposition text; `live_games` and `sessions_cached` are read at scrape time.
#[must_use]
pub fn render(live_games: usize, sessions_cached: usize) -> String {
    let m = &METRICS;
    let mut out = String::with_capacity(4096);
    let mut line = |name: &str, kind: &str, help: &str, value: String| {
        let _ = writeln!(
            out,
            "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {value}"
        );
    };
    line(
        "omweso_games_live",
        "gauge",
        "Games loaded in memory (every unfinished game is).",
        live_games.to_string(),
    );
    line(
        "omweso_sessions_cached",
        "gauge",
        "Sessions kept in memory (the cache is bounded; the rest stay in the database).",
        sessions_cached.to_string(),
    );
    let get = |c: &AtomicU64| c.load(Ordering::Relaxed).to_string();
    line(
        "omweso_games_created_total",
        "counter",
        "Games created.",
        get(&m.games_created),
    );
    line(
        "omweso_games_ended_total",
        "counter",
        "Games that ended (won, drawn or annulled).",
        get(&m.games_ended),
    );
    line(
        "omweso_moves_total",
        "counter",
        "Moves and decision answers played.",
        get(&m.moves),
    );
    line(
        "omweso_referee_steals_total",
        "counter",
        "Referee counts that ran out (steal opened).",
        get(&m.steals),
    );
    line(
        "omweso_annulments_total",
        "counter",
        "Games annulled (never-ending turn or move limit).",
        get(&m.annulments),
    );
    line(
        "omweso_dropped_slow_clients_total",
        "counter",
        "Sockets closed because they could not keep up.",
        get(&m.dropped_slow_clients),
    );
    line(
        "omweso_refused_messages_total",
        "counter",
        "Client messages answered with an error.",
        get(&m.refused_messages),
    );
    line(
        "omweso_legal_listings_inline_total",
        "counter",
        "Legal-move listings cheap enough for a game to make itself.",
        get(&m.legal_listed_inline),
    );
    line(
        "omweso_legal_listings_on_pool_total",
        "counter",
        "Legal-move listings handed to the engine pool (longer ones).",
        get(&m.legal_listed_on_pool),
    );
    line(
        "omweso_database_commits_total",
        "counter",
        "Transactions of the group-commit writer.",
        get(&m.database_commits),
    );
    line(
        "omweso_database_writes_total",
        "counter",
        "Rows written by the group-commit writer (inserts and updates).",
        get(&m.database_writes),
    );
    line(
        "omweso_dropped_silent_sockets_total",
        "counter",
        "Sockets closed for leaving three pings in a row unanswered.",
        get(&m.dropped_silent_sockets),
    );
    line(
        "omweso_dropped_write_timeouts_total",
        "counter",
        "Sockets closed because a write to them did not complete in time.",
        get(&m.dropped_write_timeouts),
    );
    line(
        "omweso_ignored_pongs_total",
        "counter",
        "Pongs ignored: unasked for, or answering no ping of the server's.",
        get(&m.ignored_pongs),
    );
    line(
        "omweso_games_expired_total",
        "counter",
        "Games removed because nobody started them in time.",
        get(&m.games_expired),
    );
    line(
        "omweso_computer_no_shows_total",
        "counter",
        "Games against the computer removed because their player did not come in time.",
        get(&m.computer_no_shows),
    );
    line(
        "omweso_http_idle_timeouts_total",
        "counter",
        "Connections closed for sending no request, or not all its headers, in time.",
        get(&m.http_idle_timeouts),
    );
    line(
        "omweso_request_timeouts_total",
        "counter",
        "Requests answered 408: they did not arrive whole in time.",
        get(&m.request_timeouts),
    );
    line(
        "omweso_engine_jobs_queued",
        "gauge",
        "Jobs waiting for a place in the engine pool's queue.",
        m.engine_jobs_queued.load(Ordering::Relaxed).to_string(),
    );
    line(
        "omweso_searches_total",
        "counter",
        "Searches of the computer player queued.",
        get(&m.searches),
    );
    line(
        "omweso_searches_busy_total",
        "counter",
        "Searches refused for a full search queue (asked again a second later).",
        get(&m.searches_busy),
    );
    line(
        "omweso_searches_queued",
        "gauge",
        "Searches of the computer player waiting for a search thread.",
        m.searches_queued.load(Ordering::Relaxed).to_string(),
    );
    line(
        "omweso_computer_moves_total",
        "counter",
        "Moves and arrangements the computer played.",
        get(&m.computer_moves),
    );
    let _ = writeln!(
        out,
        "# HELP omweso_limited_total Requests refused by each limit (docs/security.md).\n# TYPE omweso_limited_total counter"
    );
    for limit in Limit::ALL {
        let _ = writeln!(
            out,
            "omweso_limited_total{{limit=\"{}\"}} {}",
            limit.name(),
            get(&m.limited[limit as usize])
        );
    }
    let _ = writeln!(
        out,
        "# HELP omweso_connections Open game sockets by kind.\n# TYPE omweso_connections gauge\nomweso_connections{{kind=\"player\"}} {}\nomweso_connections{{kind=\"spectator\"}} {}",
        m.player_connections.load(Ordering::Relaxed),
        m.spectator_connections.load(Ordering::Relaxed)
    );
    m.move_latency.render(
        &mut out,
        "omweso_move_latency_seconds",
        "From a move reaching its game to its events being sent (saving included).",
    );
    m.database_latency.render(
        &mut out,
        "omweso_database_latency_seconds",
        "Committing one action to the game log.",
    );
    m.database_commit.render(
        &mut out,
        "omweso_database_commit_seconds",
        "One transaction of the group-commit writer, fsync included.",
    );
    m.database_checkpoint.render(
        &mut out,
        "omweso_database_checkpoint_seconds",
        "The writer finishing an SQLite checkpoint between two commits (writes wait meanwhile).",
    );
    m.engine_job.render(
        &mut out,
        "omweso_engine_job_seconds",
        "One job of the engine pool (legal moves, rebuilding a game).",
    );
    m.search.render(
        &mut out,
        "omweso_search_seconds",
        "One search of the computer player, on the search pool.",
    );
    out
}
