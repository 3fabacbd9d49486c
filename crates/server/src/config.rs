//! The settings of `omweso serve`, each a flag and an `OMWESO_*` environment variable.

use std::net::SocketAddr;

/// The shortest round time, in minutes (docs/rules.md#4-play-under-the-referee-server-rules, 5.3). A round must fit a game's
/// worst legal moments: one turn may take the whole 3-minute move limit, and a player who
/// never comes loses by abandonment only after the 60 s disconnect grace and the 60 s
/// abandonment wait; 3 + 1 + 1 = 5 minutes, below which a round can end on material
/// before a single slow turn or a no-show could be decided. A server may lower it for
/// tests and demonstrations (`OMWESO_MIN_ROUND_MINUTES`). Here, with the server's other
/// settings, rather than in `tournament::settings`, which is given it as a parameter: the
/// settings read names through `session`, which reads its defaults here.
pub const MIN_ROUND_MINUTES: f64 = 5.0;

#[derive(Clone, Debug, clap::Args)]
pub struct ServeConfig {
    /// Address to listen on.
    #[arg(long, env = "OMWESO_ADDR", default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// Database: an SQLite file (created if missing), `sqlite::memory:`, or `postgres://...`.
    /// Also read from `DATABASE_URL` when `OMWESO_DATABASE_URL` is not set.
    #[arg(
        long,
        env = "OMWESO_DATABASE_URL",
        default_value_t = default_database_url(),
        hide_env_values = true,
        hide_default_value = true
    )]
    pub database_url: String,
    /// Origins allowed to open game sockets from a browser, besides the server's own
    /// (e.g. https://omweso.example.org). Repeat or separate with commas.
    #[arg(long, env = "OMWESO_PUBLIC_ORIGIN", value_delimiter = ',')]
    pub public_origin: Vec<String>,
    /// Client messages a connection may send per second (a burst of twice as many is
    /// allowed).
    #[arg(long, env = "OMWESO_RATE_LIMIT", default_value_t = 20)]
    pub rate_limit: u32,
    /// Where to serve Prometheus metrics (`GET /metrics`), apart from the public port;
    /// `off` to serve none.
    #[arg(long, env = "OMWESO_METRICS_ADDR", default_value = "127.0.0.1:9091")]
    pub metrics_addr: String,
    /// Microseconds the database writer lets a group of writes gather before committing
    /// it, when the writes come faster than it commits (a quiet server never waits): fewer,
    /// larger commits cost the server less CPU per move, for as much more latency per
    /// move under load. 0: commit what has queued at once.
    #[arg(long, env = "OMWESO_COMMIT_DELAY_US", default_value_t = 1000)]
    pub commit_delay_us: u64,
    /// Log format: `text` or `json`.
    #[arg(long, env = "OMWESO_LOG_FORMAT", default_value = "text")]
    pub log_format: String,
    /// Log level filter (tracing's syntax, e.g. `info` or `omweso=debug`).
    #[arg(long, env = "OMWESO_LOG", default_value = "info")]
    pub log_level: String,
    /// The SMTP server that sends password-reset mail (docs/accounts.md#e-mail):
    /// `smtps://user:password@host` (TLS), `smtp://user:password@host:587?tls=required`
    /// (STARTTLS), `smtp://host:25` (no TLS: a relay on the same machine). Empty (the
    /// default): the server sends no mail and the e-mail calls are refused. Needs
    /// `--smtp-from` and `--public-origin` (the links in the mail name the site by it,
    /// never by a request's Host).
    #[arg(
        long,
        env = "OMWESO_SMTP_URL",
        default_value = "",
        hide_env_values = true,
        hide_default_value = true
    )]
    pub smtp_url: String,
    /// The From address of that mail: `Omweso <noreply@omweso.example.org>`.
    #[arg(long, env = "OMWESO_SMTP_FROM", default_value = "")]
    pub smtp_from: String,
    /// Run as one node of several (docs/scaling.md): the NATS server they share, e.g.
    /// `nats://127.0.0.1:4222`. Needs a PostgreSQL database, shared by every node. Empty
    /// (the default): one node, with nothing else to run.
    #[arg(
        long,
        env = "OMWESO_NATS_URL",
        default_value = "",
        hide_env_values = true
    )]
    pub nats_url: String,
    /// This node's name in the logs and the metrics (its id is new at every start).
    #[arg(long, env = "OMWESO_NODE_NAME", default_value = "node")]
    pub node_name: String,
    /// Seconds a node's heartbeat holds its rooms: a node silent this long is taken over,
    /// and a node that could not renew it in this time stops.
    #[arg(long, env = "OMWESO_LEASE_SECONDS", default_value_t = 5.0)]
    pub lease_seconds: f64,
    #[command(flatten)]
    pub limits: Limits,
}

/// The limits that keep one client from exhausting the server (docs/security.md lists
/// each with what it protects).
#[derive(Clone, Debug, clap::Args)]
pub struct Limits {
    /// Threads for the rules engine's heavier work (listing legal moves, rebuilding
    /// games); 0: one per core.
    #[arg(long, env = "OMWESO_ENGINE_THREADS", default_value_t = 0)]
    pub engine_threads: usize,
    /// Threads for the analysis board's engine searches (`POST /api/analysis/search`),
    /// apart from the games' engine threads; at least one.
    #[arg(long, env = "OMWESO_ANALYSIS_THREADS", default_value_t = 1)]
    pub analysis_threads: usize,
    /// Analysis calls (legal moves, a move played out) one session may make per minute
    /// (bursts of as many).
    #[arg(
        long,
        env = "OMWESO_ANALYSES_PER_SESSION_PER_MINUTE",
        default_value_t = 600
    )]
    pub analyses_per_session_per_minute: u32,
    /// Engine searches one session may ask for per minute (bursts of as many); each
    /// session has one search running at a time.
    #[arg(
        long,
        env = "OMWESO_SEARCHES_PER_SESSION_PER_MINUTE",
        default_value_t = 20
    )]
    pub searches_per_session_per_minute: u32,
    /// Threads the computer player searches on (at the lowest priority); 0: one per core.
    #[arg(long, env = "OMWESO_SEARCH_THREADS", default_value_t = 0)]
    pub search_threads: usize,
    /// Unfinished games against the computer one session may have at once.
    #[arg(long, env = "OMWESO_BOT_GAMES_PER_SESSION", default_value_t = 3)]
    pub bot_games_per_session: usize,
    /// Unfinished games against the computer on the whole server.
    #[arg(long, env = "OMWESO_BOT_GAMES", default_value_t = 500)]
    pub bot_games: usize,
    /// Unfinished games against the computer created from one address (an IPv6 /64) at
    /// once, whatever the sessions.
    #[arg(long, env = "OMWESO_BOT_GAMES_PER_IP", default_value_t = 120)]
    pub bot_games_per_ip: usize,
    /// A game against the computer whose person has not played yet is removed when they
    /// are away this long (from its creation, or from their leaving).
    #[arg(long, env = "OMWESO_COMPUTER_NO_SHOW_SECONDS", default_value_t = 60.0)]
    pub computer_no_show_seconds: f64,
    /// The computer's least time to answer, in milliseconds from the move (or arrangement)
    /// it answers, so that a person sees their own move land before the reply starts.
    #[arg(long, env = "OMWESO_COMPUTER_DELAY_MS", default_value_t = 500)]
    pub computer_delay_ms: u64,
    /// Sessions one address (an IPv6 /64) may create per minute (bursts of as many): a
    /// crowd behind one address (a school hall, a carrier) makes two a person.
    #[arg(long, env = "OMWESO_SESSIONS_PER_IP_PER_MINUTE", default_value_t = 300)]
    pub sessions_per_ip_per_minute: u32,
    /// Sessions the whole server creates per minute (bursts of as many), whatever the
    /// addresses.
    #[arg(long, env = "OMWESO_SESSIONS_PER_MINUTE", default_value_t = 3_000)]
    pub sessions_per_minute: u32,
    /// Minutes a session that never created, joined or played anything lasts after it was
    /// last used.
    #[arg(long, env = "OMWESO_UNUSED_SESSION_MINUTES", default_value_t = 60.0)]
    pub unused_session_minutes: f64,
    /// Days a session that created, joined or played something lasts after it was last
    /// used.
    #[arg(long, env = "OMWESO_SESSION_IDLE_DAYS", default_value_t = 30.0)]
    pub session_idle_days: f64,
    /// Games one session may create per minute (bursts of as many).
    #[arg(
        long,
        env = "OMWESO_GAMES_PER_SESSION_PER_MINUTE",
        default_value_t = 10
    )]
    pub games_per_session_per_minute: u32,
    /// Games one IP address may create per minute (bursts of as many).
    #[arg(long, env = "OMWESO_GAMES_PER_IP_PER_MINUTE", default_value_t = 60)]
    pub games_per_ip_per_minute: u32,
    /// Tournaments one session may create per minute (bursts of as many).
    #[arg(
        long,
        env = "OMWESO_TOURNAMENTS_PER_SESSION_PER_MINUTE",
        default_value_t = 5
    )]
    pub tournaments_per_session_per_minute: u32,
    /// Tournaments one IP address may create per minute (bursts of as many).
    #[arg(
        long,
        env = "OMWESO_TOURNAMENTS_PER_IP_PER_MINUTE",
        default_value_t = 20
    )]
    pub tournaments_per_ip_per_minute: u32,
    /// Unstarted games (waiting for a player or the free setup) one session may have.
    #[arg(long, env = "OMWESO_OPEN_GAMES_PER_SESSION", default_value_t = 5)]
    pub open_games_per_session: usize,
    /// Unstarted games on the whole server.
    #[arg(long, env = "OMWESO_OPEN_GAMES", default_value_t = 10_000)]
    pub open_games: usize,
    /// Hours an unstarted game is kept before it is removed.
    #[arg(long, env = "OMWESO_OPEN_GAME_HOURS", default_value_t = 24.0)]
    pub open_game_hours: f64,
    /// Game sockets one session may hold open at once.
    #[arg(long, env = "OMWESO_SOCKETS_PER_SESSION", default_value_t = 16)]
    pub sockets_per_session: usize,
    /// Game sockets one address (an IPv6 /64) may hold open at once.
    #[arg(long, env = "OMWESO_SOCKETS_PER_IP", default_value_t = 512)]
    pub sockets_per_ip: usize,
    /// TCP connections one address (an IPv6 /64) may hold open at once (sockets included).
    #[arg(long, env = "OMWESO_CONNECTIONS_PER_IP", default_value_t = 2_048)]
    pub connections_per_ip: usize,
    /// TCP connections on the whole server; lowered at start to fit the process's
    /// open-file limit.
    #[arg(long, env = "OMWESO_CONNECTIONS", default_value_t = 20_000)]
    pub connections: usize,
    /// Seconds a connection may take to send a request's headers, and may stay idle
    /// between two requests.
    #[arg(long, env = "OMWESO_HTTP_IDLE_SECONDS", default_value_t = 15.0)]
    pub http_idle_seconds: f64,
    /// Seconds a request may take from its headers to its answer (its body included).
    #[arg(long, env = "OMWESO_REQUEST_SECONDS", default_value_t = 15.0)]
    pub request_seconds: f64,
    /// Seconds a write to a socket may take before the socket is dropped.
    #[arg(long, env = "OMWESO_SOCKET_WRITE_SECONDS", default_value_t = 10.0)]
    pub socket_write_seconds: f64,
    /// Seconds between two pings of a socket; three unanswered in a row drop it.
    #[arg(long, env = "OMWESO_PING_SECONDS", default_value_t = 5.0)]
    pub ping_seconds: f64,
    /// Sessions kept in memory (the least recently used leave first; they stay in the
    /// database).
    #[arg(long, env = "OMWESO_SESSION_CACHE", default_value_t = 100_000)]
    pub session_cache: usize,
    /// The shortest round time a tournament may be created with, in minutes (5: a round
    /// must hold a whole 3-minute turn and a no-show's abandonment; docs/tournaments.md).
    /// Lower it only for tests and demonstrations.
    #[arg(long, env = "OMWESO_MIN_ROUND_MINUTES", default_value_t = MIN_ROUND_MINUTES)]
    pub min_round_minutes: f64,
    /// Pairings (the next round, or an edited one) one session asks for a minute.
    #[arg(
        long,
        env = "OMWESO_PAIRINGS_PER_SESSION_PER_MINUTE",
        default_value_t = 20
    )]
    pub pairings_per_session_per_minute: u32,
    /// Log-in and recovery attempts from one address (an IPv6 /64) a minute.
    #[arg(long, env = "OMWESO_LOGINS_PER_IP_PER_MINUTE", default_value_t = 20)]
    pub logins_per_ip_per_minute: u32,
    /// Log-in and recovery attempts on one account an hour, from anywhere.
    #[arg(long, env = "OMWESO_LOGINS_PER_ACCOUNT_PER_HOUR", default_value_t = 30)]
    pub logins_per_account_per_hour: u32,
    /// Accounts made from one address an hour.
    #[arg(long, env = "OMWESO_ACCOUNTS_PER_IP_PER_HOUR", default_value_t = 30)]
    pub accounts_per_ip_per_hour: u32,
    /// One-time codes (a device's link code, a co-director's invitation) tried from one
    /// address a minute: what keeps a code from being guessed.
    #[arg(long, env = "OMWESO_CODES_PER_IP_PER_MINUTE", default_value_t = 10)]
    pub codes_per_ip_per_minute: u32,
    /// Name changes one person makes a minute (each is written to every unfinished
    /// tournament they are in).
    #[arg(
        long,
        env = "OMWESO_RENAMES_PER_SESSION_PER_MINUTE",
        default_value_t = 5
    )]
    pub renames_per_session_per_minute: u32,
    /// Game-file exports (docs/game-file.md: one game, a player's or a tournament's games)
    /// one address asks for a minute: each replays its games on the engine pool.
    #[arg(long, env = "OMWESO_EXPORTS_PER_IP_PER_MINUTE", default_value_t = 30)]
    pub exports_per_ip_per_minute: u32,
    /// Over-the-board changes one person makes a minute: sheet entries and initials,
    /// relays named, tables set online or over the board, players added by name.
    #[arg(
        long,
        env = "OMWESO_BOARD_CHANGES_PER_SESSION_PER_MINUTE",
        default_value_t = 60
    )]
    pub board_changes_per_session_per_minute: u32,
    /// Moves (and undos) one relay enters a minute: a wooden board is played by hand,
    /// a move every few seconds at most.
    #[arg(
        long,
        env = "OMWESO_RELAY_ENTRIES_PER_SESSION_PER_MINUTE",
        default_value_t = 120
    )]
    pub relay_entries_per_session_per_minute: u32,
    /// Archive searches (and archived games' entries) one address (an IPv6 /64) reads a
    /// minute (docs/security.md#the-archive): each reads a bounded part of the archive.
    #[arg(
        long,
        env = "OMWESO_ARCHIVE_SEARCHES_PER_IP_PER_MINUTE",
        default_value_t = 120
    )]
    pub archive_searches_per_ip_per_minute: u32,
    /// Link codes one person makes a minute.
    #[arg(
        long,
        env = "OMWESO_LINK_CODES_PER_SESSION_PER_MINUTE",
        default_value_t = 10
    )]
    pub link_codes_per_session_per_minute: u32,
    /// E-mail calls (set an address, ask for a reset) from one address (an IPv6 /64) an
    /// hour.
    #[arg(long, env = "OMWESO_MAILS_PER_IP_PER_HOUR", default_value_t = 20)]
    pub mails_per_ip_per_hour: u32,
    /// Mails asked for one account an hour (verification and reset), from anywhere.
    #[arg(long, env = "OMWESO_MAILS_PER_ACCOUNT_PER_HOUR", default_value_t = 5)]
    pub mails_per_account_per_hour: u32,
    /// Unfinished tournaments (open or running) one director may have at once.
    #[arg(
        long,
        env = "OMWESO_UNFINISHED_TOURNAMENTS_PER_DIRECTOR",
        default_value_t = 3
    )]
    pub unfinished_tournaments_per_director: usize,
    /// Unfinished tournaments on the whole server.
    #[arg(long, env = "OMWESO_UNFINISHED_TOURNAMENTS", default_value_t = 1_000)]
    pub unfinished_tournaments: usize,
    /// Days a tournament that never started its first round is kept before it is removed.
    #[arg(long, env = "OMWESO_OPEN_TOURNAMENT_DAYS", default_value_t = 30.0)]
    pub open_tournament_days: f64,
    /// Games in memory on the whole server (being played, or waiting): a game nobody may
    /// create past it, and a tournament round that would pass it is refused whole.
    #[arg(long, env = "OMWESO_LIVE_GAMES", default_value_t = 10_000)]
    pub live_games: usize,
    /// Proxies (IP addresses) whose `X-Forwarded-For` names the client: a request from one
    /// of them is counted against the address it forwards for. Repeat or separate with
    /// commas.
    /// (Text here: an empty `OMWESO_TRUSTED_PROXY=`, as in `.env.example`, means none.)
    #[arg(long, env = "OMWESO_TRUSTED_PROXY", value_delimiter = ',')]
    pub trusted_proxy: Vec<String>,
}

impl Limits {
    /// The defaults, as `omweso serve` has them.
    #[must_use]
    pub fn defaults() -> Limits {
        Limits {
            engine_threads: 0,
            analysis_threads: 1,
            analyses_per_session_per_minute: 600,
            searches_per_session_per_minute: 20,
            search_threads: 0,
            bot_games_per_session: 3,
            bot_games: 500,
            bot_games_per_ip: 120,
            computer_no_show_seconds: 60.0,
            computer_delay_ms: 500,
            sessions_per_ip_per_minute: 300,
            sessions_per_minute: 3_000,
            unused_session_minutes: 60.0,
            session_idle_days: 30.0,
            games_per_session_per_minute: 10,
            games_per_ip_per_minute: 60,
            tournaments_per_session_per_minute: 5,
            tournaments_per_ip_per_minute: 20,
            open_games_per_session: 5,
            open_games: 10_000,
            open_game_hours: 24.0,
            sockets_per_session: 16,
            sockets_per_ip: 512,
            connections_per_ip: 2_048,
            connections: 20_000,
            http_idle_seconds: 15.0,
            request_seconds: 15.0,
            socket_write_seconds: 10.0,
            ping_seconds: 5.0,
            min_round_minutes: MIN_ROUND_MINUTES,
            pairings_per_session_per_minute: 20,
            logins_per_ip_per_minute: 20,
            logins_per_account_per_hour: 30,
            accounts_per_ip_per_hour: 30,
            codes_per_ip_per_minute: 10,
            link_codes_per_session_per_minute: 10,
            renames_per_session_per_minute: 5,
            exports_per_ip_per_minute: 30,
            board_changes_per_session_per_minute: 60,
            relay_entries_per_session_per_minute: 120,
            archive_searches_per_ip_per_minute: 120,
            mails_per_ip_per_hour: 20,
            mails_per_account_per_hour: 5,
            unfinished_tournaments_per_director: 3,
            unfinished_tournaments: 1_000,
            open_tournament_days: 30.0,
            live_games: 10_000,
            session_cache: 100_000,
            trusted_proxy: Vec::new(),
        }
    }

    /// The trusted proxies' addresses (empty entries skipped).
    pub fn trusted_proxies(&self) -> Result<Vec<std::net::IpAddr>, String> {
        self.trusted_proxy
            .iter()
            .map(|p| p.trim())
            .filter(|p| !p.is_empty())
            .map(|p| {
                p.parse::<std::net::IpAddr>()
                    .map(|ip| ip.to_canonical())
                    .map_err(|_| format!("trusted proxy {p:?} is not an IP address"))
            })
            .collect()
    }

    /// Checks the values given.
    pub fn validate(&self) -> Result<(), String> {
        self.trusted_proxies()?;
        let seconds = [
            ("open game hours", self.open_game_hours),
            ("http idle seconds", self.http_idle_seconds),
            ("request seconds", self.request_seconds),
            ("socket write seconds", self.socket_write_seconds),
            ("ping seconds", self.ping_seconds),
            ("unused session minutes", self.unused_session_minutes),
            ("computer no-show seconds", self.computer_no_show_seconds),
            ("session idle days", self.session_idle_days),
        ];
        for (name, value) in seconds {
            if !(value.is_finite() && value > 0.0) {
                return Err(format!("{name} must be a positive number, not {value}"));
            }
        }
        Ok(())
    }
}

impl ServeConfig {
    /// The metrics address, `None` when off.
    pub fn metrics(&self) -> Result<Option<SocketAddr>, String> {
        match self.metrics_addr.as_str() {
            "off" | "" => Ok(None),
            addr => addr.parse().map(Some).map_err(|_| {
                format!("metrics address {addr:?} is not an address like 127.0.0.1:9091 (or off)")
            }),
        }
    }

    /// Why the metrics address could not be bound, naming the setting that moves it: a
    /// second server on the same machine meets the first one's default port, and the
    /// operator needs to know which flag to give it, not only that the port is taken.
    #[must_use]
    pub fn metrics_bind_error(addr: SocketAddr, error: &std::io::Error) -> String {
        format!(
            "cannot serve metrics on {addr}: {error}; choose another address with \
             --metrics-addr (or OMWESO_METRICS_ADDR), e.g. --metrics-addr 127.0.0.1:9092, \
             or --metrics-addr off to serve none"
        )
    }

    /// Settings for tests and embedding: port 0 on loopback, an in-memory database.
    #[must_use]
    pub fn for_tests(database_url: &str) -> ServeConfig {
        ServeConfig {
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            database_url: database_url.to_owned(),
            public_origin: Vec::new(),
            // Test clients play as fast as the server answers.
            rate_limit: 200,
            metrics_addr: "off".into(),
            // The server's default: the tests run what runs in production.
            commit_delay_us: 1000,
            log_format: "text".into(),
            log_level: "info".into(),
            smtp_url: String::new(),
            smtp_from: String::new(),
            nats_url: String::new(),
            node_name: "node".into(),
            lease_seconds: 5.0,
            // Every test client comes from 127.0.0.1 and many tests share a server: the
            // per-address and per-session limits are the hardening tests' to set.
            limits: Limits {
                sessions_per_ip_per_minute: 100_000,
                sessions_per_minute: 100_000,
                games_per_session_per_minute: 100_000,
                games_per_ip_per_minute: 100_000,
                tournaments_per_session_per_minute: 100_000,
                tournaments_per_ip_per_minute: 100_000,
                open_games_per_session: 10_000,
                sockets_per_session: 10_000,
                sockets_per_ip: 10_000,
                connections_per_ip: 10_000,
                bot_games_per_session: 10_000,
                bot_games_per_ip: 10_000,
                // Tests play whole games against the computer: no pause for a watcher.
                computer_delay_ms: 0,
                // Tests play rounds of a few seconds to see them end on time.
                min_round_minutes: 0.1,
                unfinished_tournaments_per_director: 10_000,
                pairings_per_session_per_minute: 100_000,
                logins_per_ip_per_minute: 100_000,
                logins_per_account_per_hour: 100_000,
                accounts_per_ip_per_hour: 100_000,
                codes_per_ip_per_minute: 100_000,
                link_codes_per_session_per_minute: 100_000,
                renames_per_session_per_minute: 100_000,
                exports_per_ip_per_minute: 100_000,
                board_changes_per_session_per_minute: 100_000,
                relay_entries_per_session_per_minute: 100_000,
                archive_searches_per_ip_per_minute: 100_000,
                mails_per_ip_per_hour: 100_000,
                mails_per_account_per_hour: 100_000,
                ..Limits::defaults()
            },
        }
    }
}

/// `DATABASE_URL` (the protocol's name for it), else an SQLite file in the working directory.
fn default_database_url() -> String {
    std::env::var("DATABASE_URL").unwrap_or_else(|_| "sqlite://omweso.db".to_owned())
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::Limits;

    /// The limits as `omweso serve` reads them with no flag and no environment.
    #[derive(Parser)]
    struct Bare {
        #[command(flatten)]
        limits: Limits,
    }

    /// Every default is written twice, in the flags and in [`Limits::defaults`] (what
    /// tests and embedders start from): they must say the same, or a server started by
    /// hand and one started in a test would keep different limits.
    #[test]
    fn the_flags_defaults_are_limits_defaults() {
        let from_flags = Bare::try_parse_from(["omweso"]).map(|b| b.limits);
        let from_flags = from_flags.unwrap_or_else(|e| panic!("{e}"));
        if std::env::vars().any(|(k, _)| k.starts_with("OMWESO_")) {
            // An OMWESO_ variable in the environment changes what the flags read.
            eprintln!("skipped: OMWESO_ variables are set");
            return;
        }
        assert_eq!(
            format!("{from_flags:?}"),
            format!("{:?}", Limits::defaults())
        );
    }
}
