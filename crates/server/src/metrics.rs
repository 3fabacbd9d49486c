//! Prometheus metrics, served in the text exposition format (0.0.4) on their own address
//! (not the public port). Kept and written out by `prometheus-client`, the Prometheus
//! project's own client: counters, gauges and fixed-bucket histograms registered once
//! under the names `docs/self-hosting.md` documents (a labelled family's samples come out
//! in no set order).

use std::sync::LazyLock;
use std::time::Duration;

use prometheus_client::encoding::{prometheus_text, EncodeLabelSet};
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::registry::Registry;

/// The `Content-Type` of [`render`]'s text.
pub const CONTENT_TYPE: &str = prometheus_text::CONTENT_TYPE;

/// A histogram of durations with fixed buckets (upper bounds in seconds).
#[derive(Clone, Debug)]
pub struct Histogram(prometheus_client::metrics::histogram::Histogram);

const BOUNDS: [f64; 12] = [
    0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
];

impl Histogram {
    fn new() -> Histogram {
        Histogram(prometheus_client::metrics::histogram::Histogram::new(
            BOUNDS,
        ))
    }

    pub fn observe(&self, elapsed: Duration) {
        self.0.observe(elapsed.as_secs_f64());
    }
}

/// Every metric the server keeps, and the registry that writes them out.
#[derive(Debug)]
pub struct Metrics {
    registry: Registry,
    /// Read at scrape time (`render`).
    games_live: Gauge,
    sessions_cached: Gauge,
    pub player_connections: Gauge,
    pub spectator_connections: Gauge,
    /// Moves and decision answers played.
    pub moves: Counter,
    pub steals: Counter,
    pub annulments: Counter,
    pub games_ended: Counter,
    pub games_created: Counter,
    pub dropped_slow_clients: Counter,
    /// Several nodes (docs/scaling.md): publishes NATS refused, messages that found the
    /// node's queue to NATS full, frames received for this node's sockets on other nodes'
    /// rooms, rooms of stopped nodes taken over.
    pub cluster_publish_failures: Counter,
    pub cluster_outbox_full: Counter,
    pub cluster_frames_received: Counter,
    pub cluster_takeovers: Counter,
    /// Other nodes' socket messages dropped, their room's queue full.
    pub cluster_relays_dropped: Counter,
    /// Messages on NATS refused: not sealed with the cluster's secret, too old, or seen
    /// before (`cluster::seal`).
    pub cluster_refused: Counter,
    pub refused_messages: Counter,
    /// Legal-move listings a game made itself (cheap ones) and handed to the engine pool.
    pub legal_listed_inline: Counter,
    pub legal_listed_on_pool: Counter,
    /// From a move arriving at its game to its events being sent, saving included.
    pub move_latency: Histogram,
    /// Appending one action to the log (waiting for the commit).
    pub database_latency: Histogram,
    /// One group commit of the writer (its transaction, from begin to durable commit).
    pub database_commit: Histogram,
    /// The writer finishing an SQLite checkpoint between two commits (SQLite files only).
    pub database_checkpoint: Histogram,
    /// Group commits, and the writes they carried (their ratio is the mean group size).
    pub database_commits: Counter,
    pub database_writes: Counter,
    /// Jobs waiting for a place in the engine pool's queue.
    pub engine_jobs_queued: Gauge,
    /// One job of the engine pool (legal moves, a replay).
    pub engine_job: Histogram,
    /// Searches of the computer player queued (`pools::search`), refused for a full queue
    /// (asked again later), and waiting for a thread now.
    pub searches: Counter,
    pub searches_busy: Counter,
    pub searches_queued: Gauge,
    /// One search of the computer player, on the search pool.
    pub search: Histogram,
    /// Moves (and arrangements) the computer played.
    pub computer_moves: Counter,
    /// Requests refused by each limit of docs/security.md, in [`Limit::ALL`]'s order.
    limited: [Counter; Limit::ALL.len()],
    /// Sockets closed for not answering three pings in a row.
    pub dropped_silent_sockets: Counter,
    /// Sockets closed because a write to them did not complete in time.
    pub dropped_write_timeouts: Counter,
    /// Pongs ignored: unasked for, or answering no ping of ours.
    pub ignored_pongs: Counter,
    /// Games removed because nobody started them in time.
    pub games_expired: Counter,
    /// Games against the computer removed because their person did not come in time.
    pub computer_no_shows: Counter,
    /// Connections closed for sending no request (or not all its headers) in time.
    pub http_idle_timeouts: Counter,
    /// Connections closed because their client read nothing of an answer for too long.
    pub http_write_stalls: Counter,
    /// Requests answered 408: their body did not arrive in time.
    pub request_timeouts: Counter,
}

/// The label of `omweso_limited_total`.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct LimitLabel {
    limit: &'static str,
}

/// The label of `omweso_connections`.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct KindLabel {
    kind: &'static str,
}

/// Registers metrics on one registry. A counter is registered without its `_total`,
/// which the exposition adds; the exposition also ends each help with a full stop.
struct Registering(Registry);

impl Registering {
    fn counter(&mut self, name: &str, help: &str) -> Counter {
        let counter = Counter::default();
        self.0.register(name, help, counter.clone());
        counter
    }

    fn gauge(&mut self, name: &str, help: &str) -> Gauge {
        let gauge = Gauge::default();
        self.0.register(name, help, gauge.clone());
        gauge
    }

    fn histogram(&mut self, name: &str, help: &str) -> Histogram {
        let histogram = Histogram::new();
        self.0.register(name, help, histogram.0.clone());
        histogram
    }
}

impl Metrics {
    fn register() -> Metrics {
        let mut r = Registering(Registry::default());
        let games_live = r.gauge(
            "omweso_games_live",
            "Games loaded in memory (every unfinished game is)",
        );
        let sessions_cached = r.gauge(
            "omweso_sessions_cached",
            "Sessions kept in memory (the cache is bounded; the rest stay in the database)",
        );
        let games_created = r.counter("omweso_games_created", "Games created");
        let games_ended = r.counter(
            "omweso_games_ended",
            "Games that ended (won, drawn or annulled)",
        );
        let moves = r.counter("omweso_moves", "Moves and decision answers played");
        let steals = r.counter(
            "omweso_referee_steals",
            "Referee counts that ran out (steal opened)",
        );
        let annulments = r.counter(
            "omweso_annulments",
            "Games annulled (never-ending turn or move limit)",
        );
        let dropped_slow_clients = r.counter(
            "omweso_dropped_slow_clients",
            "Sockets closed because they could not keep up",
        );
        let cluster_publish_failures = r.counter(
            "omweso_cluster_publish_failures",
            "Messages to other nodes that NATS refused",
        );
        let cluster_outbox_full = r.counter(
            "omweso_cluster_outbox_full",
            "Messages to other nodes dropped because the queue to NATS was full",
        );
        let cluster_frames_received = r.counter(
            "omweso_cluster_frames_received",
            "Frames of other nodes' rooms received for this node's sockets",
        );
        let cluster_takeovers = r.counter(
            "omweso_cluster_takeovers",
            "Games and tournaments of stopped nodes taken over by this node",
        );
        let cluster_relays_dropped = r.counter(
            "omweso_cluster_relays_dropped",
            "Messages of sockets on other nodes dropped, their room's queue full",
        );
        let cluster_refused = r.counter(
            "omweso_cluster_refused",
            "Messages on NATS refused: not sealed with the cluster's secret, too old, or replayed",
        );
        let refused_messages = r.counter(
            "omweso_refused_messages",
            "Client messages answered with an error",
        );
        let legal_listed_inline = r.counter(
            "omweso_legal_listings_inline",
            "Legal-move listings cheap enough for a game to make itself",
        );
        let legal_listed_on_pool = r.counter(
            "omweso_legal_listings_on_pool",
            "Legal-move listings handed to the engine pool (longer ones)",
        );
        let database_commits = r.counter(
            "omweso_database_commits",
            "Transactions of the group-commit writer",
        );
        let database_writes = r.counter(
            "omweso_database_writes",
            "Rows written by the group-commit writer (inserts and updates)",
        );
        let dropped_silent_sockets = r.counter(
            "omweso_dropped_silent_sockets",
            "Sockets closed for leaving three pings in a row unanswered",
        );
        let dropped_write_timeouts = r.counter(
            "omweso_dropped_write_timeouts",
            "Sockets closed because a write to them did not complete in time",
        );
        let ignored_pongs = r.counter(
            "omweso_ignored_pongs",
            "Pongs ignored: unasked for, or answering no ping of the server's",
        );
        let games_expired = r.counter(
            "omweso_games_expired",
            "Games removed because nobody started them in time",
        );
        let computer_no_shows = r.counter(
            "omweso_computer_no_shows",
            "Games against the computer removed because their player did not come in time",
        );
        let http_idle_timeouts = r.counter(
            "omweso_http_idle_timeouts",
            "Connections closed for sending no request, or not all its headers, in time",
        );
        let http_write_stalls = r.counter(
            "omweso_http_write_stalls",
            "Connections closed because their client read nothing of an answer for too long",
        );
        let request_timeouts = r.counter(
            "omweso_request_timeouts",
            "Requests answered 408: they did not arrive whole in time",
        );
        let engine_jobs_queued = r.gauge(
            "omweso_engine_jobs_queued",
            "Jobs waiting for a place in the engine pool's queue",
        );
        let searches = r.counter("omweso_searches", "Searches of the computer player queued");
        let searches_busy = r.counter(
            "omweso_searches_busy",
            "Searches refused for a full search queue (asked again a second later)",
        );
        let searches_queued = r.gauge(
            "omweso_searches_queued",
            "Searches of the computer player waiting for a search thread",
        );
        let computer_moves = r.counter(
            "omweso_computer_moves",
            "Moves and arrangements the computer played",
        );
        // Every limit is listed from the start, at 0, so that a rate of refusals has a
        // series before the first refusal.
        let limits = Family::<LimitLabel, Counter>::default();
        r.0.register(
            "omweso_limited",
            "Requests refused by each limit (docs/security.md)",
            limits.clone(),
        );
        let limited = Limit::ALL.map(|limit| {
            limits
                .get_or_create(&LimitLabel {
                    limit: limit.name(),
                })
                .clone()
        });
        let connections = Family::<KindLabel, Gauge>::default();
        r.0.register(
            "omweso_connections",
            "Open game sockets by kind",
            connections.clone(),
        );
        let connection_gauge =
            |kind: &'static str| connections.get_or_create(&KindLabel { kind }).clone();
        let player_connections = connection_gauge("player");
        let spectator_connections = connection_gauge("spectator");
        let move_latency = r.histogram(
            "omweso_move_latency_seconds",
            "From a move reaching its game to its events being sent (saving included)",
        );
        let database_latency = r.histogram(
            "omweso_database_latency_seconds",
            "Committing one action to the game log",
        );
        let database_commit = r.histogram(
            "omweso_database_commit_seconds",
            "One transaction of the group-commit writer, fsync included",
        );
        let database_checkpoint = r.histogram(
            "omweso_database_checkpoint_seconds",
            "The writer finishing an SQLite checkpoint between two commits (writes wait meanwhile)",
        );
        let engine_job = r.histogram(
            "omweso_engine_job_seconds",
            "One job of the engine pool (legal moves, rebuilding a game)",
        );
        let search = r.histogram(
            "omweso_search_seconds",
            "One search of the computer player, on the search pool",
        );
        Metrics {
            registry: r.0,
            games_live,
            sessions_cached,
            player_connections,
            spectator_connections,
            moves,
            steals,
            annulments,
            games_ended,
            games_created,
            dropped_slow_clients,
            cluster_publish_failures,
            cluster_outbox_full,
            cluster_frames_received,
            cluster_takeovers,
            cluster_relays_dropped,
            cluster_refused,
            refused_messages,
            legal_listed_inline,
            legal_listed_on_pool,
            move_latency,
            database_latency,
            database_commit,
            database_checkpoint,
            database_commits,
            database_writes,
            engine_jobs_queued,
            engine_job,
            searches,
            searches_busy,
            searches_queued,
            search,
            computer_moves,
            limited,
            dropped_silent_sockets,
            dropped_write_timeouts,
            ignored_pongs,
            games_expired,
            computer_no_shows,
            http_idle_timeouts,
            http_write_stalls,
            request_timeouts,
        }
    }
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
    LoginsPerIp,
    LoginsPerAccount,
    AccountsPerIp,
    CodesPerIp,
    LinkCodesPerSession,
    MailsPerIp,
    MailsPerAccount,
    RenamesPerSession,
    BoardChangesPerSession,
    RelayEntriesPerSession,
    ExportsPerIp,
    ArchiveSearchesPerIp,
    ExportsAtOncePerIp,
    ExportsAtOnce,
    FileWorkPerIp,
    PlayerPagesPerIp,
    PasswordTurnsPerIp,
    LoginsPerKnownDevice,
    PasswordChecksPerDevice,
    CodeFailuresPerTarget,
    CodeFailures,
    ForwardsPerIp,
    BodyBytesPerIp,
    BodyBytes,
}

impl Limit {
    pub const ALL: [Limit; 45] = [
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
        Limit::LoginsPerIp,
        Limit::LoginsPerAccount,
        Limit::AccountsPerIp,
        Limit::CodesPerIp,
        Limit::LinkCodesPerSession,
        Limit::MailsPerIp,
        Limit::MailsPerAccount,
        Limit::RenamesPerSession,
        Limit::BoardChangesPerSession,
        Limit::RelayEntriesPerSession,
        Limit::ExportsPerIp,
        Limit::ArchiveSearchesPerIp,
        Limit::ExportsAtOncePerIp,
        Limit::ExportsAtOnce,
        Limit::FileWorkPerIp,
        Limit::PlayerPagesPerIp,
        Limit::PasswordTurnsPerIp,
        Limit::LoginsPerKnownDevice,
        Limit::PasswordChecksPerDevice,
        Limit::CodeFailuresPerTarget,
        Limit::CodeFailures,
        Limit::ForwardsPerIp,
        Limit::BodyBytesPerIp,
        Limit::BodyBytes,
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
            Limit::LoginsPerIp => "logins_per_ip",
            Limit::LoginsPerAccount => "logins_per_account",
            Limit::AccountsPerIp => "accounts_per_ip",
            Limit::CodesPerIp => "codes_per_ip",
            Limit::LinkCodesPerSession => "link_codes_per_session",
            Limit::MailsPerIp => "mails_per_ip",
            Limit::MailsPerAccount => "mails_per_account",
            Limit::RenamesPerSession => "renames_per_session",
            Limit::BoardChangesPerSession => "board_changes_per_session",
            Limit::RelayEntriesPerSession => "relay_entries_per_session",
            Limit::ExportsPerIp => "exports_per_ip",
            Limit::ArchiveSearchesPerIp => "archive_searches_per_ip",
            Limit::ExportsAtOncePerIp => "exports_at_once_per_ip",
            Limit::ExportsAtOnce => "exports_at_once",
            Limit::FileWorkPerIp => "file_work_per_ip",
            Limit::PlayerPagesPerIp => "player_pages_per_ip",
            Limit::PasswordTurnsPerIp => "password_turns_per_ip",
            Limit::LoginsPerKnownDevice => "logins_per_known_device",
            Limit::PasswordChecksPerDevice => "password_checks_per_device",
            Limit::CodeFailuresPerTarget => "code_failures_per_target",
            Limit::CodeFailures => "code_failures",
            Limit::ForwardsPerIp => "forwards_per_ip",
            Limit::BodyBytesPerIp => "body_bytes_per_ip",
            Limit::BodyBytes => "body_bytes",
        }
    }

    /// Counts one refusal by this limit.
    pub fn refused(self) {
        METRICS.limited[self as usize].inc();
    }

    /// The refusals counted by this limit so far.
    #[must_use]
    pub fn refusals(self) -> u64 {
        METRICS.limited[self as usize].get()
    }
}

pub static METRICS: LazyLock<Metrics> = LazyLock::new(Metrics::register);

/// Adds one to a counter.
pub fn count(counter: &Counter) {
    counter.inc();
}

/// The exposition text; `live_games` and `sessions_cached` are read at scrape time.
#[must_use]
pub fn render(live_games: usize, sessions_cached: usize) -> String {
    let m = &*METRICS;
    m.games_live
        .set(i64::try_from(live_games).unwrap_or(i64::MAX));
    m.sessions_cached
        .set(i64::try_from(sessions_cached).unwrap_or(i64::MAX));
    let mut out = String::with_capacity(8192);
    // Writing into a String cannot fail.
    let _ = prometheus_text::encode(&mut out, &m.registry);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    /// Every `# TYPE name kind` of the exposition.
    fn families(text: &str) -> BTreeMap<String, String> {
        text.lines()
            .filter_map(|line| line.strip_prefix("# TYPE "))
            .filter_map(|rest| rest.split_once(' '))
            .map(|(name, kind)| (name.to_owned(), kind.to_owned()))
            .collect()
    }

    /// The metrics table of docs/self-hosting.md: each name with its kind (a row naming
    /// several metrics gives their kinds in order, the last kind for the rest).
    fn documented() -> BTreeMap<String, String> {
        let doc = include_str!("../../../docs/self-hosting.md");
        let mut names = BTreeMap::new();
        for row in doc.lines().filter(|l| l.starts_with("| `omweso_")) {
            let cells: Vec<&str> = row.split(" | ").collect();
            let kinds: Vec<&str> = cells[1].split(", ").collect();
            let metrics = cells[0]
                .split('`')
                .filter(|part| part.starts_with("omweso_"))
                .map(|part| part.split('{').next().unwrap_or(part));
            for (i, name) in metrics.enumerate() {
                let kind = kinds[i.min(kinds.len() - 1)].trim_end_matches('s');
                names.insert(name.to_owned(), kind.to_owned());
            }
        }
        names
    }

    #[test]
    fn the_exposition_has_exactly_the_documented_metrics_and_kinds() {
        let text = render(3, 7);
        assert_eq!(families(&text), documented());
    }

    #[test]
    fn the_exposition_lists_every_limit_and_kind_and_reads_the_scrape_time_gauges() {
        let text = render(3, 7);
        let lines: Vec<&str> = text.lines().collect();
        for limit in Limit::ALL {
            let prefix = format!("omweso_limited_total{{limit=\"{}\"}} ", limit.name());
            assert!(
                lines.iter().any(|l| l.starts_with(&prefix)),
                "{prefix} in {text}"
            );
        }
        for kind in ["player", "spectator"] {
            let prefix = format!("omweso_connections{{kind=\"{kind}\"}} ");
            assert!(lines.iter().any(|l| l.starts_with(&prefix)), "{prefix}");
        }
        assert!(lines.contains(&"omweso_games_live 3"), "{text}");
        assert!(lines.contains(&"omweso_sessions_cached 7"), "{text}");
        assert!(lines.contains(&"# HELP omweso_games_created_total Games created."));
        assert!(lines.contains(&"# TYPE omweso_games_created_total counter"));
        let buckets: Vec<&str> = lines
            .iter()
            .filter_map(|l| l.strip_prefix("omweso_search_seconds_bucket{le=\""))
            .filter_map(|l| l.split('"').next())
            .collect();
        assert_eq!(
            buckets,
            [
                "0.0005", "0.001", "0.0025", "0.005", "0.01", "0.025", "0.05", "0.1", "0.25",
                "0.5", "1", "2.5", "+Inf"
            ]
        );
    }

    #[test]
    fn a_refusal_counts_under_its_limit_only() {
        let before = Limit::PairingsPerSession.refusals();
        let other = Limit::Sessions.refusals();
        Limit::PairingsPerSession.refused();
        assert_eq!(Limit::PairingsPerSession.refusals(), before + 1);
        assert_eq!(Limit::Sessions.refusals(), other);
        let line = format!(
            "omweso_limited_total{{limit=\"pairings_per_session\"}} {}",
            before + 1
        );
        assert!(render(0, 0).lines().any(|l| l == line), "{line}");
    }
}
