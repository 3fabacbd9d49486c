//! The settings of `omweso loadgen` and their checks.

use omweso_rules::{ParseRulesetError, Ruleset};

/// The settings of `omweso loadgen`.
#[derive(Clone, Debug, clap::Args)]
pub struct LoadgenConfig {
    /// The server to load (loopback addresses only). Ignored with --spawn-server.
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    pub url: String,
    /// Games kept going at once (a finished game's slot starts a new one).
    #[arg(long, default_value_t = 1000)]
    pub games: usize,
    /// Spectator sockets per game (they connect without a token).
    #[arg(long, default_value_t = 2)]
    pub spectators: usize,
    /// Seconds to play once every slot has its first game (the warm-up included).
    #[arg(long, default_value_t = 30.0)]
    pub seconds: f64,
    /// Seconds at the start of play left out of the measurements.
    #[arg(long, default_value_t = 5.0)]
    pub warmup: f64,
    /// The ruleset of the games: omweso, mweiso or oware.
    #[arg(long, default_value = "omweso")]
    pub ruleset: String,
    /// Seed of the players' random choices (default: a random one).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Start the server as a child process (`omweso serve` on 127.0.0.1:0) and measure its
    /// memory; stop it at the end.
    #[arg(long)]
    pub spawn_server: bool,
    /// With --spawn-server: the `omweso` binary to start as the server (default: this
    /// one), so that two builds are compared under the same load generator.
    #[arg(long)]
    pub server_binary: Option<std::path::PathBuf>,
    /// The spawned server's database (default: an SQLite file in a new temporary
    /// directory, removed at the end).
    #[arg(long)]
    pub database_url: Option<String>,
    /// The spawned server's per-connection message rate limit (`OMWESO_RATE_LIMIT`;
    /// default: the server's own default).
    #[arg(long)]
    pub server_rate_limit: Option<u32>,
    /// Game set-ups (HTTP calls and socket handshakes) in flight at once while the slots
    /// start their first games (replacements of finished games do not wait).
    #[arg(long, default_value_t = 64)]
    pub connect_concurrency: usize,
    /// Also print the report as one JSON line (the last line of the output).
    #[arg(long)]
    pub json: bool,
    /// Milliseconds a player waits before each move or decision (0: it moves as soon as it
    /// may). With every player moving at once the load is a closed loop, where latency is
    /// the games in flight over the throughput; a pause makes the offered rate
    /// `games / (pause + latency)` and shows the server's latency below saturation.
    #[arg(long, default_value_t = 0)]
    pub think_ms: u64,
    /// Diagnostic: also print the latency of each second of the window (samples, p50,
    /// p99, max), which shows whether the slow actions come in bursts (a stall) or are
    /// spread evenly (queueing).
    #[arg(long)]
    pub timeline: bool,
    /// Games against the computer kept going besides `--games` (each with one session,
    /// whose player moves as soon as it may): load on the search pool, to see that it
    /// leaves the human games' latency alone. The latency figures are the human games'.
    #[arg(long, default_value_t = 0)]
    pub bot_games: usize,
    /// The computer's level in the `--bot-games` (1 to 8).
    #[arg(long, default_value_t = 8)]
    pub bot_level: u8,
    /// Diagnostic: the clients ACK every segment at once (`TCP_QUICKACK`), which shows how
    /// much of the latency is Nagle's algorithm on the server's sockets waiting for the
    /// clients' delayed ACKs.
    #[arg(long)]
    pub quickack: bool,
    /// Games set up and closed, with no move, before the run (with --spawn-server): the
    /// server's CPU for one game's turnover (its HTTP calls, socket handshakes and
    /// closes), which the report takes out of the CPU per move. 0 leaves it out.
    #[arg(long, default_value_t = 200)]
    pub turnover_probe: usize,
}

pub(super) fn check(config: &LoadgenConfig) -> Result<(), String> {
    if config.games == 0 {
        return Err("--games must be at least 1".into());
    }
    if !(config.seconds.is_finite() && config.seconds > 0.0) {
        return Err("--seconds must be a positive number".into());
    }
    if !(config.warmup.is_finite() && config.warmup >= 0.0 && config.warmup < config.seconds) {
        return Err("--warmup must be at least 0 and less than --seconds".into());
    }
    if !(1..=8).contains(&config.bot_level) {
        return Err("--bot-level must be one of 1 to 8".into());
    }
    if config.connect_concurrency == 0 {
        return Err("--connect-concurrency must be at least 1".into());
    }
    ruleset(config)?;
    Ok(())
}

/// The games' ruleset, which the players pick their moves in.
pub(super) fn ruleset(config: &LoadgenConfig) -> Result<Ruleset, String> {
    config
        .ruleset
        .parse()
        .map_err(|e: ParseRulesetError| e.to_string())
}
