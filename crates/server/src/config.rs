//! The settings of `omweso serve`, each a flag and an `OMWESO_*` environment variable.

use std::net::SocketAddr;

/// The shortest round time a server allows unless lowered: the tournament's own rule.
pub use omweso_tournament::settings::MIN_ROUND_MINUTES;

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
    pub cluster_credentials: ClusterCredentials,
    #[command(flatten)]
    pub limits: Limits,
    /// The clock sessions and one-time codes read "now" from: the system's (no flag); a
    /// test moves its clone forward instead of sleeping through a session's life.
    #[arg(skip)]
    pub wall_clock: crate::wall_clock::WallClock,
}

/// What a node of several needs besides NATS's address (docs/scaling.md#trust-between-nodes):
/// its credentials for NATS, and the secret every node shares, which signs what they send
/// each other. Required with `--nats-url`: a node refuses to start without them.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct ClusterCredentials {
    /// The user this node gives NATS, with `--nats-password` or `--nats-password-file`
    /// (or `nats://user:password@host:4222` in `--nats-url`).
    #[arg(long, env = "OMWESO_NATS_USER", default_value = "")]
    pub nats_user: String,
    /// The password of `--nats-user`.
    #[arg(
        long,
        env = "OMWESO_NATS_PASSWORD",
        default_value = "",
        hide_env_values = true,
        hide_default_value = true
    )]
    pub nats_password: String,
    /// A file holding the password of `--nats-user` (a Docker secret; the compose file's
    /// cluster profile makes one), read at start.
    #[arg(long, env = "OMWESO_NATS_PASSWORD_FILE", default_value = "")]
    pub nats_password_file: String,
    /// A file holding this node's NATS nkey seed (`SU...`, made by `nk -gen user`), instead
    /// of a user and password.
    #[arg(long, env = "OMWESO_NATS_NKEY_FILE", default_value = "")]
    pub nats_nkey_file: String,
    /// The secret every node of the cluster shares, at least 32 characters (e.g. `openssl
    /// rand -hex 32`): what the nodes send each other over NATS is signed with it, and a
    /// forwarded request encrypted, so that nobody else on NATS can forge or read them.
    #[arg(
        long,
        env = "OMWESO_CLUSTER_SECRET",
        default_value = "",
        hide_env_values = true,
        hide_default_value = true
    )]
    pub cluster_secret: String,
    /// A file holding that secret (a Docker secret; the compose file's cluster profile
    /// makes one), read at start.
    #[arg(long, env = "OMWESO_CLUSTER_SECRET_FILE", default_value = "")]
    pub cluster_secret_file: String,
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
    /// Log-in, recovery and password-change attempts from one address (an IPv6 /64) a
    /// minute.
    #[arg(long, env = "OMWESO_LOGINS_PER_IP_PER_MINUTE", default_value_t = 20)]
    pub logins_per_ip_per_minute: u32,
    /// Wrong passwords an account takes an hour from devices that never logged in to it,
    /// from anywhere; as many for each device that did, and for each signed-in device's
    /// password checks (a right password counts for nothing).
    #[arg(long, env = "OMWESO_LOGINS_PER_ACCOUNT_PER_HOUR", default_value_t = 30)]
    pub logins_per_account_per_hour: u32,
    /// Accounts made from one address an hour.
    #[arg(long, env = "OMWESO_ACCOUNTS_PER_IP_PER_HOUR", default_value_t = 30)]
    pub accounts_per_ip_per_hour: u32,
    /// One-time codes (a device's link code, a co-director's invitation) tried from one
    /// address a minute: what keeps a code from being guessed.
    #[arg(long, env = "OMWESO_CODES_PER_IP_PER_MINUTE", default_value_t = 10)]
    pub codes_per_ip_per_minute: u32,
    /// Wrong one-time codes tried at one target an hour, from anywhere: a tournament's
    /// co-director invitations, a board table's relay invite (a new code starts it afresh).
    #[arg(
        long,
        env = "OMWESO_CODE_FAILURES_PER_TARGET_PER_HOUR",
        default_value_t = 30
    )]
    pub code_failures_per_target_per_hour: u32,
    /// Wrong one-time codes (link, relay and invitation codes) tried on the whole server
    /// an hour, from anywhere: what bounds guessing from many addresses.
    #[arg(long, env = "OMWESO_CODE_FAILURES_PER_HOUR", default_value_t = 600)]
    pub code_failures_per_hour: u32,
    /// Name changes one person makes a minute (each is written to every unfinished
    /// tournament they are in).
    #[arg(
        long,
        env = "OMWESO_RENAMES_PER_SESSION_PER_MINUTE",
        default_value_t = 5
    )]
    pub renames_per_session_per_minute: u32,
    /// Game-file exports (docs/game-file.md: one game, a player's or a tournament's games)
    /// one address asks for a minute: each replays its games on the file threads.
    #[arg(long, env = "OMWESO_EXPORTS_PER_IP_PER_MINUTE", default_value_t = 30)]
    pub exports_per_ip_per_minute: u32,
    /// Player pages (`GET /api/players/{username}`, `GET /api/me/games`) one address reads
    /// a minute: each reads a person's newest games and tournaments and counts their
    /// results.
    #[arg(
        long,
        env = "OMWESO_PLAYER_PAGES_PER_IP_PER_MINUTE",
        default_value_t = 120
    )]
    pub player_pages_per_ip_per_minute: u32,
    /// Bytes of request bodies being received from one address at once (each body is
    /// read whole before it is handled, at most 64 KiB, 256 KiB for a game file).
    #[arg(long, env = "OMWESO_BODY_BYTES_PER_IP", default_value_t = 2 * 1024 * 1024)]
    pub body_bytes_per_ip: u64,
    /// Bytes of request bodies being received at once on the whole server.
    #[arg(long, env = "OMWESO_BODY_BYTES", default_value_t = 64 * 1024 * 1024)]
    pub body_bytes: u64,
    /// Exports one address may have streaming at once: another waits for it to end.
    #[arg(long, env = "OMWESO_EXPORTS_AT_ONCE_PER_IP", default_value_t = 1)]
    pub exports_at_once_per_ip: usize,
    /// Exports streaming at once on the whole server.
    #[arg(long, env = "OMWESO_EXPORTS_AT_ONCE", default_value_t = 16)]
    pub exports_at_once: usize,
    /// Threads for visitors' game files (a file read for the analysis board, an export's
    /// replays), apart from the games' engine threads, shared fairly between addresses;
    /// at least one.
    #[arg(long, env = "OMWESO_FILE_THREADS", default_value_t = 1)]
    pub file_threads: usize,
    /// Seconds a client may leave an answer unread (its socket's buffer full) before its
    /// connection is closed: a download nobody reads holds nothing for long.
    #[arg(long, env = "OMWESO_HTTP_WRITE_STALL_SECONDS", default_value_t = 30.0)]
    pub http_write_stall_seconds: f64,
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
    /// Seconds a finished game stays in memory after the last thing asked of it (its last
    /// watcher leaving, a request), so that a game looked at again and again is not
    /// rebuilt from its log each time.
    #[arg(long, env = "OMWESO_FINISHED_GAME_SECONDS", default_value_t = 60.0)]
    pub finished_game_seconds: f64,
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
            code_failures_per_target_per_hour: 30,
            code_failures_per_hour: 600,
            link_codes_per_session_per_minute: 10,
            renames_per_session_per_minute: 5,
            exports_per_ip_per_minute: 30,
            exports_at_once_per_ip: 1,
            exports_at_once: 16,
            player_pages_per_ip_per_minute: 120,
            body_bytes_per_ip: 2 * 1024 * 1024,
            body_bytes: 64 * 1024 * 1024,
            file_threads: 1,
            http_write_stall_seconds: 30.0,
            board_changes_per_session_per_minute: 60,
            relay_entries_per_session_per_minute: 120,
            archive_searches_per_ip_per_minute: 120,
            mails_per_ip_per_hour: 20,
            mails_per_account_per_hour: 5,
            unfinished_tournaments_per_director: 3,
            unfinished_tournaments: 1_000,
            open_tournament_days: 30.0,
            live_games: 10_000,
            finished_game_seconds: 60.0,
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
            ("http write stall seconds", self.http_write_stall_seconds),
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
        if !(self.finished_game_seconds.is_finite() && self.finished_game_seconds >= 0.0) {
            return Err(format!(
                "finished game seconds must be 0 or more, not {}",
                self.finished_game_seconds
            ));
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
            cluster_credentials: ClusterCredentials::default(),
            wall_clock: crate::wall_clock::WallClock::default(),
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
                // Tests see a finished game leave memory as soon as nobody watches it;
                // the linger's own tests set it.
                finished_game_seconds: 0.0,
                // Tests play rounds of a few seconds to see them end on time.
                min_round_minutes: 0.1,
                unfinished_tournaments_per_director: 10_000,
                pairings_per_session_per_minute: 100_000,
                logins_per_ip_per_minute: 100_000,
                logins_per_account_per_hour: 100_000,
                accounts_per_ip_per_hour: 100_000,
                codes_per_ip_per_minute: 100_000,
                code_failures_per_target_per_hour: 100_000,
                code_failures_per_hour: 100_000,
                link_codes_per_session_per_minute: 100_000,
                renames_per_session_per_minute: 100_000,
                exports_per_ip_per_minute: 100_000,
                exports_at_once_per_ip: 10_000,
                player_pages_per_ip_per_minute: 100_000,
                body_bytes_per_ip: 1 << 30,
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

/// A limit is declared once, as a flag of [`Limits`] (its name, its environment variable,
/// its default); docs/security.md's table and the refusals' metric labels are checked
/// against it here, so none of the three can say something the others do not. The other
/// settings' rows in docs/self-hosting.md are checked the same way.
#[cfg(test)]
mod declared_once {
    use clap::{Args, Command};

    use super::{Limits, ServeConfig};
    use crate::metrics::Limit;

    const SECURITY_MD: &str = include_str!("../../../docs/security.md");
    const SELF_HOSTING_MD: &str = include_str!("../../../docs/self-hosting.md");

    /// Settings of [`Limits`] that bound no client (how much work the server does, how it
    /// counts addresses), listed in docs/self-hosting.md rather than among the limits.
    const NOT_LIMITS: &[&str] = &[
        "engine-threads",
        "search-threads",
        "computer-delay-ms",
        "min-round-minutes",
        "trusted-proxy",
    ];

    /// Refusal labels that no flag of their own sets, and why.
    const FIXED: &[(&str, &str)] = &[
        ("file_work_per_ip", "file-threads"),
        ("password_turns_per_ip", "a fixed wait of 5 s for a turn"),
        ("logins_per_known_device", "logins-per-account-per-hour"),
        ("password_checks_per_device", "logins-per-account-per-hour"),
        ("forwards_per_ip", "a fixed count of waiting forwards"),
    ];

    /// Every flag of `command`: its name, environment variable and default as clap reads them.
    fn flags(command: Command) -> Vec<(String, String, String)> {
        command
            .get_arguments()
            .filter_map(|arg| {
                let long = arg.get_long()?.to_owned();
                let env = arg
                    .get_env()
                    .map(|e| e.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let default = arg
                    .get_default_values()
                    .first()
                    .map(|v| v.to_string_lossy().into_owned())
                    .unwrap_or_default();
                Some((long, env, default))
            })
            .collect()
    }

    fn limit_flags() -> Vec<(String, String, String)> {
        flags(Limits::augment_args(Command::new("omweso")))
    }

    fn all_flags() -> Vec<(String, String, String)> {
        flags(ServeConfig::augment_args(Command::new("omweso")))
    }

    /// A page's rows of settings: flag, environment variable and default. Both pages' forms
    /// are read: `| `--flag` / `VAR` | default | ...` and `| `--flag` | `VAR` | `default` | ...`.
    /// A default is read as its first figure (`10,000` as `10000`), or the exact figure in
    /// parentheses after a unit (`2 MiB (2097152)`); `none` is no default.
    fn documented(page: &str) -> Vec<(String, String, String)> {
        page.lines()
            .filter(|line| line.starts_with("| `--"))
            .map(|line| {
                let cells: Vec<&str> = line.split('|').map(str::trim).collect();
                let flag = cells[1].split('`').nth(1).unwrap_or("");
                let env_cell = if cells[1].contains("OMWESO_") { 1 } else { 2 };
                let env = cells[env_cell]
                    .split('`')
                    .find(|t| t.starts_with("OMWESO_"))
                    .unwrap_or("");
                let cell = cells
                    .get(env_cell + 1)
                    .copied()
                    .unwrap_or("")
                    .replace('`', "");
                let exact = cell
                    .split_once('(')
                    .and_then(|(_, rest)| rest.split_once(')'))
                    .map(|(inside, _)| inside)
                    .filter(|inside| inside.chars().all(|c| c.is_ascii_digit()));
                let default: String = match exact {
                    Some(exact) => exact.to_owned(),
                    None if cell.starts_with("none") => String::new(),
                    None => cell
                        .chars()
                        .take_while(|c| !c.is_whitespace())
                        .filter(|c| *c != ',')
                        .collect(),
                };
                (
                    flag.trim_start_matches("--").to_owned(),
                    env.to_owned(),
                    default,
                )
            })
            .collect()
    }

    /// What is wrong with `rows` against the flags.
    fn disagreements(page: &str, rows: &[(String, String, String)]) -> Vec<String> {
        let flags = all_flags();
        let mut wrong = Vec::new();
        for (flag, env, default) in rows {
            match flags.iter().find(|(f, _, _)| f == flag) {
                None => wrong.push(format!("{page} lists --{flag}, which is no flag")),
                Some((_, flag_env, flag_default)) => {
                    if env != flag_env {
                        wrong.push(format!("--{flag}: {page} says {env}, the flag {flag_env}"));
                    }
                    if default != flag_default {
                        wrong.push(format!(
                            "--{flag}: {page}'s default is {default:?}, the flag's {flag_default:?}"
                        ));
                    }
                }
            }
        }
        wrong
    }

    #[test]
    fn every_limit_is_in_docs_security_md_with_its_variable_and_default() {
        let security = documented(SECURITY_MD);
        let self_hosting = documented(SELF_HOSTING_MD);
        let mut wrong = disagreements("docs/security.md", &security);
        wrong.extend(disagreements("docs/self-hosting.md", &self_hosting));
        for (flag, _, _) in limit_flags() {
            let (page, rows) = if NOT_LIMITS.contains(&flag.as_str()) {
                ("docs/self-hosting.md", &self_hosting)
            } else {
                ("docs/security.md", &security)
            };
            if !rows.iter().any(|(f, _, _)| *f == flag) {
                wrong.push(format!("--{flag}: no row in {page}"));
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    /// Each refusal's metric label names the flag that sets it: the flag's name up to its
    /// period (`sessions_per_ip` is `--sessions-per-ip-per-minute`), or [`FIXED`] says
    /// what bounds it instead; and docs/security.md's metric line lists it.
    #[test]
    fn every_refusal_label_is_a_flag_and_listed_in_the_metrics_line() {
        let flags: Vec<String> = all_flags()
            .into_iter()
            .map(|(f, _, _)| f.replace('-', "_"))
            .collect();
        let mut wrong = Vec::new();
        for limit in Limit::ALL {
            let label = limit.name();
            let set_by = flags.iter().any(|flag| {
                flag == label
                    || ["_per_minute", "_per_hour", "_per_day"]
                        .iter()
                        .any(|period| flag.strip_suffix(period) == Some(label))
            });
            if !set_by && !FIXED.iter().any(|(fixed, _)| *fixed == label) {
                wrong.push(format!("limit {label}: no flag sets it"));
            }
            if !SECURITY_MD.contains(&format!("\"{label}\"")) {
                wrong.push(format!(
                    "limit {label}: not in docs/security.md's metric line"
                ));
            }
        }
        for (fixed, _) in FIXED {
            if !Limit::ALL.iter().any(|limit| limit.name() == *fixed) {
                wrong.push(format!("FIXED names {fixed}, which is no limit"));
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    #[test]
    fn both_forms_of_row_are_read() {
        let page = "| `--body-bytes` / `OMWESO_BODY_BYTES` | 64 MiB (67108864) | x |\n\
                    | `--connections` / `OMWESO_CONNECTIONS` | 20,000, lowered | x |\n\
                    | `--addr` | `OMWESO_ADDR` | `127.0.0.1:8080` (image: x) | x |\n\
                    | `--smtp-url` | `OMWESO_SMTP_URL` | none (no mail) | x |\n";
        let row = |f: &str, e: &str, d: &str| (f.to_owned(), e.to_owned(), d.to_owned());
        assert_eq!(
            documented(page),
            vec![
                row("body-bytes", "OMWESO_BODY_BYTES", "67108864"),
                row("connections", "OMWESO_CONNECTIONS", "20000"),
                row("addr", "OMWESO_ADDR", "127.0.0.1:8080"),
                row("smtp-url", "OMWESO_SMTP_URL", ""),
            ]
        );
    }
}
