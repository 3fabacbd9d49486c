//! The settings of `omweso tournament-sim`, apart from the run so that its parts (the
//! report) name them without naming the run.

/// The pairing systems, as `POST /api/tournaments` names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SimSystem {
    Swiss,
    RoundRobin,
    DoubleRoundRobin,
}

impl SimSystem {
    pub(crate) fn name(self) -> &'static str {
        match self {
            SimSystem::Swiss => "swiss",
            SimSystem::RoundRobin => "round-robin",
            SimSystem::DoubleRoundRobin => "double-round-robin",
        }
    }
}

/// The settings of `omweso tournament-sim`.
#[derive(Clone, Debug, clap::Args)]
pub struct TournamentSimConfig {
    /// The server to play on (loopback addresses only), `--url` or `--server`. Given
    /// several times (the nodes of one cluster): the director and the players use the
    /// first, the watchers are spread over all of them in turn. Ignored with
    /// --spawn-server.
    #[arg(
        long = "url",
        visible_alias = "server",
        value_name = "URL",
        default_value = "http://127.0.0.1:8080"
    )]
    pub urls: Vec<String>,
    /// Start the server as a child process (`omweso serve` on 127.0.0.1:0), measure its
    /// CPU time over the play, and stop it at the end.
    #[arg(long)]
    pub spawn_server: bool,
    /// With --spawn-server: the `omweso` binary to start as the server (default: this
    /// one), so that two builds are compared under the same simulator.
    #[arg(long)]
    pub server_binary: Option<std::path::PathBuf>,
    /// The spawned server's database (default: an SQLite file in a new temporary
    /// directory, removed at the end).
    #[arg(long)]
    pub database_url: Option<String>,
    /// The spawned server's per-connection message rate limit (`OMWESO_RATE_LIMIT`).
    /// Random players with no --think-ms act far faster than people (the server's default
    /// is 20 a second), so the default here is 10,000.
    #[arg(long, default_value_t = 10_000)]
    pub server_rate_limit: u32,
    /// Players in the tournament (2 to 1000).
    #[arg(long, default_value_t = 16)]
    pub players: usize,
    /// The pairing system.
    #[arg(long, value_enum, default_value_t = SimSystem::Swiss)]
    pub system: SimSystem,
    /// Rounds of a Swiss (default: the server's, 5). A round-robin's come from its field.
    #[arg(long)]
    pub rounds: Option<u32>,
    /// The games' ruleset: omweso, mweiso or oware.
    #[arg(long, default_value = "omweso")]
    pub ruleset: String,
    /// Minutes a round may last (default: the server's, 15); games still going then are
    /// adjudicated.
    #[arg(long)]
    pub round_minutes: Option<f64>,
    /// Milliseconds a player waits before each move or decision.
    #[arg(long, default_value_t = 0)]
    pub think_ms: u64,
    /// Tournament sockets opened without a session, each reading every message.
    #[arg(long, default_value_t = 0)]
    pub watchers: usize,
    /// Seed of the players' random choices (default: a random one).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Sessions, joins and watcher sockets set up at once.
    #[arg(long, default_value_t = 64)]
    pub connect_concurrency: usize,
    /// Also print the report as one JSON line (the last line of the output).
    #[arg(long)]
    pub json: bool,
}
