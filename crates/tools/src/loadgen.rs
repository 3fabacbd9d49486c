//! `omweso loadgen`: a load generator that plays the game server through its real protocol.
//!
//! Each of `--games` slots keeps one game going for the whole run: it creates two guest
//! sessions (once), creates a casual game as the first, joins it as the second, opens
//! `--spectators` sockets without a token and the two players' sockets
//! (`ws://ADDR/ws/games/{id}?token=T`), all over real loopback TCP, and the players then
//! play random legal moves as soon as they may. A player follows the game from the events
//! it receives, read with the server's own protocol types: after a `played` with
//! `"pending":false` and no outcome it takes its legal moves from the event's `legal` (the
//! server lists them; no HTTP call per move), sends the first token of a random one, and answers every `decision` addressed to it at
//! once with a random option. When the game ends, the slot starts a new one.
//!
//! Latency is measured per client action (a `move` or a `decide` frame): from the moment
//! the mover starts writing the frame to the moment the *opponent's* socket receives the
//! `played` event it produced, matched by event version (the mover knows the version it
//! has seen, so its action's event is the next one).
//!
//! With `--spawn-server`, the server is started as a child process (`omweso serve` on
//! port 0 with an SQLite file in a temporary directory), its resident memory is sampled
//! every 100 ms, and it is stopped with SIGTERM at the end.

// The tournament simulator (`tournament_sim`) drives its games with the same pieces: the
// spawned server and its /proc figures (`child`), the players and their sockets (`client`).
pub(crate) mod child;
pub(crate) mod client;

use std::collections::BTreeMap;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use omweso_rules::{ParseRulesetError, Ruleset};
use serde_json::{json, Value};
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;

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

/// Runs the load generator; the exit code is non-zero if the server could not be reached.
#[must_use]
pub fn main(config: LoadgenConfig) -> ExitCode {
    if let Err(message) = check(&config) {
        eprintln!("omweso loadgen: {message}");
        return ExitCode::from(2);
    }
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("omweso loadgen: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let code = runtime.block_on(run(config));
    // Sockets still closing must not hold the process.
    runtime.shutdown_timeout(Duration::from_secs(2));
    code
}

fn check(config: &LoadgenConfig) -> Result<(), String> {
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
fn ruleset(config: &LoadgenConfig) -> Result<Ruleset, String> {
    config
        .ruleset
        .parse()
        .map_err(|e: ParseRulesetError| e.to_string())
}

/// Counters shared by every task.
#[derive(Default)]
pub(crate) struct Stats {
    /// Inside the measurement window.
    pub(crate) measuring: AtomicBool,
    pub(crate) window_start: OnceLock<Instant>,
    /// Microseconds from an action sent to the opponent receiving its `played`, with the
    /// whole second of the window it was sent in.
    pub(crate) latencies_us: Mutex<Vec<(u32, u32)>>,
    /// Microseconds from an action sent to its `ack` (the server has committed it).
    pub(crate) acks_us: Mutex<Vec<u32>>,
    /// Whole moves (`played` with `pending:false`) seen by the opponent in the window.
    pub(crate) moves: AtomicU64,
    /// `played` events (whole moves and parts up to a decision) in the window.
    pub(crate) plays: AtomicU64,
    pub(crate) moves_total: AtomicU64,
    pub(crate) games_started: AtomicU64,
    pub(crate) games_started_in_window: AtomicU64,
    pub(crate) games_finished: AtomicU64,
    pub(crate) games_finished_in_window: AtomicU64,
    pub(crate) games_abandoned: AtomicU64,
    /// Protocol `error` messages and failed HTTP calls, by code.
    pub(crate) errors: Mutex<BTreeMap<String, u64>>,
    /// Sockets the server closed (or that failed) while their game went on.
    pub(crate) dropped: AtomicU64,
    /// Games where nothing came for 20 s although a move was due.
    pub(crate) stalled: AtomicU64,
    /// Versioned events that did not follow the previous one by exactly 1.
    pub(crate) version_gaps: AtomicU64,
    /// Opponent `played` events with no matching send time (after a resync, say).
    pub(crate) unmatched: AtomicU64,
    pub(crate) open_conns: AtomicUsize,
    pub(crate) peak_conns: AtomicUsize,
    pub(crate) active_games: AtomicUsize,
    /// Problems worth showing verbatim (the first few).
    pub(crate) notes: Mutex<Vec<String>>,
    /// Games against the computer: the computer's moves received in the window, its games
    /// that ended, and the time from the player's action to the computer's answer (its
    /// `played` received in the window), in microseconds.
    pub(crate) bot_moves: AtomicU64,
    pub(crate) bot_games_finished: AtomicU64,
    pub(crate) bot_answers_us: Mutex<Vec<u32>>,
}

impl Stats {
    pub(crate) fn error(&self, code: &str) {
        if let Ok(mut errors) = self.errors.lock() {
            *errors.entry(code.to_owned()).or_default() += 1;
        }
    }

    pub(crate) fn note(&self, note: String) {
        if let Ok(mut notes) = self.notes.lock() {
            if notes.len() < 5 {
                notes.push(note);
            }
        }
    }

    pub(crate) fn measuring(&self) -> bool {
        self.measuring.load(Ordering::Relaxed)
    }

    /// Records the latency of an action sent at `sent`, received now.
    pub(crate) fn latency(&self, sent: Instant, now: Instant) {
        let second = self
            .window_start
            .get()
            .and_then(|start| sent.checked_duration_since(*start))
            .map(|since| u32::try_from(since.as_secs()).unwrap_or(u32::MAX));
        if let Some(second) = second.filter(|_| self.measuring()) {
            let us = u32::try_from(now.duration_since(sent).as_micros()).unwrap_or(u32::MAX);
            if let Ok(mut l) = self.latencies_us.lock() {
                l.push((second, us));
            }
        }
    }

    /// Records the computer's answer, received now, to an action sent at `sent` (a game
    /// against the computer). Every answer received in the window counts, whenever its
    /// action was sent: with many games, an answer waits longer than the window.
    pub(crate) fn bot_answer(&self, sent: Instant, now: Instant) {
        if self.measuring() {
            self.bot_moves.fetch_add(1, Ordering::Relaxed);
            let us = u32::try_from(now.duration_since(sent).as_micros()).unwrap_or(u32::MAX);
            if let Ok(mut l) = self.bot_answers_us.lock() {
                l.push(us);
            }
        }
    }

    /// Records the time from an action sent at `sent` to its `ack`, received now.
    pub(crate) fn ack_latency(&self, sent: Instant, now: Instant) {
        let in_window = self.measuring() && self.window_start.get().is_some_and(|s| sent >= *s);
        if in_window {
            let us = u32::try_from(now.duration_since(sent).as_micros()).unwrap_or(u32::MAX);
            if let Ok(mut l) = self.acks_us.lock() {
                l.push(us);
            }
        }
    }

    pub(crate) fn conn_opened(&self) {
        let now = self.open_conns.fetch_add(1, Ordering::Relaxed) + 1;
        self.peak_conns.fetch_max(now, Ordering::Relaxed);
    }

    pub(crate) fn conn_closed(&self) {
        self.open_conns.fetch_sub(1, Ordering::Relaxed);
    }
}

/// What every slot shares.
pub(crate) struct Ctx {
    pub(crate) base: String,
    pub(crate) http: reqwest::Client,
    pub(crate) ruleset: String,
    pub(crate) spectators: usize,
    pub(crate) seed: u64,
    pub(crate) stats: Stats,
    /// Set when the run is over: players stop and close their sockets.
    pub(crate) stop: CancellationToken,
    pub(crate) setups: Semaphore,
    /// Slots whose first game has started.
    pub(crate) started: AtomicUsize,
    pub(crate) all_started: tokio::sync::Notify,
    /// Slots in all (human games and games against the computer).
    pub(crate) games: usize,
    /// The computer's level in the games against it.
    pub(crate) bot_level: u8,
    pub(crate) quickack: bool,
    pub(crate) think: Duration,
    /// Told of every action once acknowledged (the tournament simulator times its boards
    /// from there); `None` in a load run.
    pub(crate) on_acked: Option<OnAcked>,
}

/// Called with the game's id, the version of the `played` event an action made, and when
/// its `ack` arrived. The ack comes before that event on the mover's socket (durable,
/// then acknowledged, then shown), so the version is the event's, read from the event.
pub(crate) type OnAcked = Arc<dyn Fn(&str, u64, Instant) + Send + Sync>;

async fn run(config: LoadgenConfig) -> ExitCode {
    let sockets = config.games * (2 + config.spectators) + config.bot_games;
    match child::raise_fd_limit(sockets as u64 + 1024) {
        Ok(Some(limit)) => eprintln!("open-files limit raised to {limit}"),
        Ok(None) => {}
        Err(e) => {
            eprintln!("omweso loadgen: warning: {e}; if sockets fail, run `ulimit -n 65536` first")
        }
    }
    let mut server = None;
    let base = if config.spawn_server {
        let spawned = child::Server::spawn_binary(
            config.server_binary.as_deref(),
            config.database_url.as_deref(),
            config.server_rate_limit,
        );
        match spawned.await {
            Ok(s) => {
                let base = format!("http://{}", s.addr);
                eprintln!(
                    "server pid {} listening on {base} (log: {}, removed at the end)",
                    s.pid,
                    s.log.display()
                );
                server = Some(s);
                base
            }
            Err(e) => {
                eprintln!("omweso loadgen: cannot start the server: {e}");
                return ExitCode::from(2);
            }
        }
    } else {
        match child::loopback_base(&config.url).await {
            Ok(base) => base,
            Err(e) => {
                eprintln!("omweso loadgen: {e}");
                return ExitCode::from(2);
            }
        }
    };
    let code = drive(&config, &base, server.as_ref()).await;
    if let Some(server) = server {
        server.stop().await;
    }
    code
}

async fn drive(config: &LoadgenConfig, base: &str, server: Option<&child::Server>) -> ExitCode {
    let http = match reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .pool_max_idle_per_host(config.connect_concurrency * 2)
        .tcp_nodelay(true)
        .build()
    {
        Ok(http) => http,
        Err(e) => {
            eprintln!("omweso loadgen: {e}");
            return ExitCode::FAILURE;
        }
    };
    match http.get(format!("{base}/healthz")).send().await {
        Ok(r) if r.status().is_success() => {}
        Ok(r) => {
            eprintln!("omweso loadgen: {base}/healthz answered {}", r.status());
            return ExitCode::from(2);
        }
        Err(e) => {
            eprintln!("omweso loadgen: cannot reach {base}: {e}");
            return ExitCode::from(2);
        }
    }
    let seed = config.seed.unwrap_or_else(rand::random);
    // `check` has refused any other name before the run got here.
    let ctx = Arc::new(Ctx {
        base: base.to_owned(),
        http,
        ruleset: config.ruleset.clone(),
        spectators: config.spectators,
        seed,
        stats: Stats::default(),
        stop: CancellationToken::new(),
        setups: Semaphore::new(config.connect_concurrency),
        started: AtomicUsize::new(0),
        all_started: tokio::sync::Notify::new(),
        games: config.games + config.bot_games,
        bot_level: config.bot_level,
        quickack: config.quickack,
        think: Duration::from_millis(config.think_ms),
        on_acked: None,
    });
    let turnover = match server {
        Some(server) if config.turnover_probe > 0 => {
            match turnover_probe(&ctx, server.pid, config.turnover_probe).await {
                Ok(turnover) => Some(turnover),
                Err(e) => {
                    eprintln!("omweso loadgen: the turnover probe failed: {e}");
                    return ExitCode::from(2);
                }
            }
        }
        _ => None,
    };
    let mut sampler = server.map(|s| child::Sampler::start(s.pid, ctx.clone()));
    let baseline_rss = sampler.as_ref().map(child::Sampler::current_kib);

    let t0 = Instant::now();
    eprintln!(
        "setting up {} games ({} sockets) against {base}...",
        config.games,
        config.games * (2 + config.spectators)
    );
    if config.bot_games > 0 {
        eprintln!(
            "and {} games against the computer at level {}...",
            config.bot_games, config.bot_level
        );
    }
    let slots: Vec<_> = (0..config.games)
        .map(|i| tokio::spawn(client::slot(ctx.clone(), i)))
        .chain((0..config.bot_games).map(|i| tokio::spawn(client::bot_slot(ctx.clone(), i))))
        .collect();
    // Play starts once every slot has its first game (or after two minutes regardless).
    let notified = ctx.all_started.notified();
    if ctx.started.load(Ordering::Acquire) < ctx.games {
        let _ = tokio::time::timeout(Duration::from_secs(120), notified).await;
    }
    let setup = t0.elapsed();
    let ready_slots = ctx.started.load(Ordering::Acquire);
    eprintln!(
        "{ready_slots} games set up in {:.1} s; playing for {} s ({} s warm-up)...",
        setup.as_secs_f64(),
        config.seconds,
        config.warmup
    );
    if ready_slots == 0 {
        ctx.stop.cancel();
        for slot in slots {
            let _ = slot.await;
        }
        eprintln!("omweso loadgen: no game could be set up");
        print_notes(&ctx);
        return ExitCode::from(2);
    }
    let ready = Instant::now();
    tokio::time::sleep(Duration::from_secs_f64(config.warmup)).await;
    let window_start = Instant::now();
    let window_start_unix = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    let _ = ctx.stats.window_start.set(window_start);
    let cpu_start = Cpu::now(server.map(|s| s.pid));
    if let Some(s) = sampler.as_mut() {
        s.window(true);
    }
    ctx.stats.measuring.store(true, Ordering::Release);
    let window = Duration::from_secs_f64(config.seconds - config.warmup);
    let mut game_samples = Vec::new();
    let end = window_start + window;
    while Instant::now() < end {
        let left = end.saturating_duration_since(Instant::now());
        tokio::time::sleep(left.min(Duration::from_millis(100))).await;
        game_samples.push(ctx.stats.active_games.load(Ordering::Relaxed));
    }
    ctx.stats.measuring.store(false, Ordering::Release);
    let window = window_start.elapsed();
    let cpu_end = Cpu::now(server.map(|s| s.pid));
    let memory = sampler.as_mut().map(|s| {
        s.window(false);
        s.summary()
    });
    let hwm = server.and_then(|s| child::status_kib(s.pid, "VmHWM:"));
    let played = ready.elapsed();
    let conns_at_end = ctx.stats.open_conns.load(Ordering::Relaxed);

    eprintln!("closing {conns_at_end} sockets...");
    ctx.stop.cancel();
    for slot in slots {
        let _ = slot.await;
    }
    drop(sampler);

    let report = Report::build(
        config,
        &ctx,
        Timings {
            window_start_unix,
            setup,
            window,
            played,
        },
        &game_samples,
        cpu_start.zip(cpu_end),
        memory,
        baseline_rss.flatten(),
        hwm,
        server.map(|s| s.pid),
        ready_slots,
        turnover,
    );
    println!("{}", report.text());
    if config.json {
        println!("{}", report.json);
    }
    print_notes(&ctx);
    ExitCode::SUCCESS
}

/// What one game's turnover costs the server, measured before the run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Turnover {
    /// Games set up and closed.
    pub(crate) games: usize,
    /// Server CPU microseconds per game, the idle server's own use taken out.
    pub(crate) cpu_us_per_game: f64,
}

/// Sets up `games` games (16 at a time) and closes them, no move played, and divides the
/// server's CPU over that time by them. Everything a replacement game costs the server
/// before its first move and after its last is in it: the two HTTP calls, the socket
/// handshakes (TCP and WebSocket), each socket's first `state`, the closes, and the
/// store's writes of the new game. The sessions are made before the measurement (a
/// slot's replacement games reuse theirs), and the idle server's CPU over as long a time
/// (its timers) is taken out.
async fn turnover_probe(ctx: &Arc<Ctx>, pid: u32, games: usize) -> Result<Turnover, String> {
    const AT_ONCE: usize = 16;
    let tokens = client::sessions(ctx, "probe").await?;
    // One game first: the first connections and the store's first writes warm up.
    client::set_up_and_close(ctx, &tokens).await?;
    let settle = Duration::from_millis(300);
    let idle_start = Cpu::now(Some(pid));
    tokio::time::sleep(settle).await;
    let idle_end = Cpu::now(Some(pid));
    let start = Cpu::now(Some(pid));
    let next = Arc::new(AtomicUsize::new(0));
    let workers: Vec<_> = (0..AT_ONCE.min(games))
        .map(|_| {
            let (ctx, tokens, next) = (ctx.clone(), tokens.clone(), next.clone());
            tokio::spawn(async move {
                while next.fetch_add(1, Ordering::Relaxed) < games {
                    client::set_up_and_close(&ctx, &tokens).await?;
                }
                Ok::<(), String>(())
            })
        })
        .collect();
    for worker in workers {
        worker.await.map_err(|e| e.to_string())??;
    }
    // The server finishes each close after the client has seen it.
    tokio::time::sleep(settle).await;
    let end = Cpu::now(Some(pid));
    // The probe's sockets are not the run's.
    ctx.stats.peak_conns.store(0, Ordering::Relaxed);
    let used = |a: Option<Cpu>, b: Option<Cpu>| {
        let (a, b) = a.zip(b)?;
        Some((
            b.server? - a.server?,
            b.at.duration_since(a.at).as_secs_f64(),
        ))
    };
    let (idle_cpu, idle_wall) = used(idle_start, idle_end).ok_or("cannot read the server's CPU")?;
    let (cpu, wall) = used(start, end).ok_or("cannot read the server's CPU")?;
    let busy = (cpu - idle_cpu / idle_wall.max(1e-3) * wall).max(0.0);
    let turnover = Turnover {
        games,
        cpu_us_per_game: busy / games as f64 * 1e6,
    };
    eprintln!(
        "turnover probe: {games} games set up and closed, {:.0} us of server CPU each",
        turnover.cpu_us_per_game
    );
    Ok(turnover)
}

fn print_notes(ctx: &Ctx) {
    if let Ok(notes) = ctx.stats.notes.lock() {
        for note in notes.iter() {
            eprintln!("note: {note}");
        }
    }
}

/// CPU seconds used so far by the server (if any) and by this process.
#[derive(Clone, Copy)]
pub(crate) struct Cpu {
    pub(crate) at: Instant,
    pub(crate) server: Option<f64>,
    pub(crate) me: Option<f64>,
    /// The machine's (busy, total) CPU seconds.
    pub(crate) machine: Option<(f64, f64)>,
}

impl Cpu {
    pub(crate) fn now(server: Option<u32>) -> Option<Cpu> {
        Some(Cpu {
            at: Instant::now(),
            server: server.and_then(child::cpu_seconds),
            me: child::cpu_seconds(std::process::id()),
            machine: child::machine_cpu_seconds(),
        })
    }
}

struct Timings {
    /// When the measurement window started, since the Unix epoch (to match server logs).
    window_start_unix: Duration,
    setup: Duration,
    window: Duration,
    played: Duration,
}

struct Report {
    lines: Vec<String>,
    json: Value,
}

pub(crate) fn percentile(sorted: &[u32], p: f64) -> Option<f64> {
    if sorted.is_empty() {
        return None;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    let i = rank.clamp(1, sorted.len()) - 1;
    Some(f64::from(sorted[i]) / 1000.0)
}

/// The server's CPU per whole move over the window, and the share of it that went to
/// setting up the games that replaced finished ones.
#[derive(Debug, Clone, Copy, PartialEq)]
struct MoveCost {
    /// Server CPU microseconds per whole move, everything counted.
    all_us: Option<f64>,
    /// Games set up in the window, and what the probe measured one to cost.
    turnover_games: u64,
    turnover: Option<Turnover>,
    /// Without the games' turnover: (CPU - games x cost of one) / moves.
    without_turnover_us: Option<f64>,
    /// The turnover's share of the server's CPU in the window.
    turnover_share: Option<f64>,
}

impl MoveCost {
    fn of(server_s: f64, moves: u64, turnover: Option<Turnover>, stats: &Stats) -> MoveCost {
        let turnover_games = stats.games_started_in_window.load(Ordering::Relaxed);
        MoveCost::from_figures(server_s, moves, turnover_games, turnover)
    }

    fn from_figures(
        server_s: f64,
        moves: u64,
        turnover_games: u64,
        turnover: Option<Turnover>,
    ) -> MoveCost {
        let server_us = server_s * 1e6;
        let per_move = |us: f64| (moves > 0).then(|| us / moves as f64);
        let turnover_us = turnover.map(|t| t.cpu_us_per_game * turnover_games as f64);
        MoveCost {
            all_us: per_move(server_us),
            turnover_games,
            turnover,
            without_turnover_us: turnover_us.and_then(|t| per_move((server_us - t).max(0.0))),
            turnover_share: turnover_us
                .filter(|_| server_us > 0.0)
                .map(|t| t / server_us),
        }
    }

    fn line(&self) -> String {
        let us = |v: Option<f64>| v.map_or("-".into(), |v| format!("{v:.0} us"));
        let turnover = match (self.turnover, self.turnover_share) {
            (Some(t), Some(share)) => format!(
                "; game turnover {} games x {:.0} us (probe of {}) = {:.0}% of it; without it {} per move",
                self.turnover_games,
                t.cpu_us_per_game,
                t.games,
                share * 100.0,
                us(self.without_turnover_us)
            ),
            _ => "; game turnover not measured (--turnover-probe 0)".into(),
        };
        format!(
            "  cpu/move     server {} per whole move (user + system CPU over the window / whole moves){turnover}",
            us(self.all_us)
        )
    }

    fn json(&self) -> Value {
        json!({
            "server_us": self.all_us,
            "without_turnover_us": self.without_turnover_us,
            "turnover_games_in_window": self.turnover_games,
            "turnover_us_per_game": self.turnover.map(|t| t.cpu_us_per_game),
            "turnover_probe_games": self.turnover.map(|t| t.games),
            "turnover_share": self.turnover_share,
        })
    }
}

/// The seconds of the window by their own p99: the worst, and how many reach 20 ms.
#[derive(Debug, PartialEq)]
struct WorstSeconds {
    seconds: usize,
    worst_p99: Option<f64>,
    worst_second: Option<u32>,
    seconds_over_20ms: usize,
}

fn worst_seconds(timed: &[(u32, u32)]) -> WorstSeconds {
    let seconds = by_second(timed);
    let mut worst = WorstSeconds {
        seconds: seconds.len(),
        worst_p99: None,
        worst_second: None,
        seconds_over_20ms: 0,
    };
    for (second, us) in seconds {
        let p99 = percentile(&us, 99.0);
        if p99.is_some_and(|p| p >= 20.0) {
            worst.seconds_over_20ms += 1;
        }
        if p99 > worst.worst_p99 {
            worst.worst_p99 = p99;
            worst.worst_second = Some(second);
        }
    }
    worst
}

/// The latencies (microseconds) of each second of the window, sorted, by second.
fn by_second(timed: &[(u32, u32)]) -> BTreeMap<u32, Vec<u32>> {
    let mut seconds: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    for &(second, us) in timed {
        seconds.entry(second).or_default().push(us);
    }
    for us in seconds.values_mut() {
        us.sort_unstable();
    }
    seconds
}

/// One line per second of the window: its samples and their p50, p99 and max.
fn timeline(timed: &[(u32, u32)]) -> Vec<String> {
    by_second(timed)
        .into_iter()
        .map(|(second, us)| {
            format!(
                "  second {second:>3}  {:>6} samples  p50 {}  p99 {}  max {}",
                us.len(),
                ms(percentile(&us, 50.0)),
                ms(percentile(&us, 99.0)),
                ms(us.last().map(|&m| f64::from(m) / 1000.0)),
            )
        })
        .collect()
}

pub(crate) fn ms(value: Option<f64>) -> String {
    value.map_or_else(|| "-".into(), |v| format!("{v:.2} ms"))
}

fn verdict(met: Option<bool>) -> &'static str {
    match met {
        Some(true) => "met",
        Some(false) => "MISSED",
        None => "not measured",
    }
}

impl Report {
    #[allow(clippy::too_many_arguments)]
    fn build(
        config: &LoadgenConfig,
        ctx: &Ctx,
        t: Timings,
        game_samples: &[usize],
        cpu: Option<(Cpu, Cpu)>,
        memory: Option<child::MemorySummary>,
        baseline_kib: Option<u64>,
        hwm_kib: Option<u64>,
        server_pid: Option<u32>,
        ready_slots: usize,
        turnover: Option<Turnover>,
    ) -> Report {
        let s = &ctx.stats;
        let timed = s.latencies_us.lock().map(|l| l.clone()).unwrap_or_default();
        let mut lat: Vec<u32> = timed.iter().map(|&(_, us)| us).collect();
        lat.sort_unstable();
        let mut acks = s.acks_us.lock().map(|l| l.clone()).unwrap_or_default();
        acks.sort_unstable();
        let (ack50, ack99) = (percentile(&acks, 50.0), percentile(&acks, 99.0));
        let secs = t.window.as_secs_f64();
        let moves = s.moves.load(Ordering::Relaxed);
        let plays = s.plays.load(Ordering::Relaxed);
        let moves_per_s = moves as f64 / secs;
        let plays_per_s = plays as f64 / secs;
        let p50 = percentile(&lat, 50.0);
        let p90 = percentile(&lat, 90.0);
        let p99 = percentile(&lat, 99.0);
        let p999 = percentile(&lat, 99.9);
        let max = lat.last().map(|&m| f64::from(m) / 1000.0);
        let mean_games = if game_samples.is_empty() {
            0.0
        } else {
            game_samples.iter().sum::<usize>() as f64 / game_samples.len() as f64
        };
        let errors = s.errors.lock().map(|e| e.clone()).unwrap_or_default();
        let error_total: u64 = errors.values().sum();
        let peak_conns = s.peak_conns.load(Ordering::Relaxed);
        let cpu_use = cpu.map(|(a, b)| {
            let wall = b.at.duration_since(a.at).as_secs_f64();
            let pct =
                |x: Option<f64>, y: Option<f64>| x.zip(y).map(|(x, y)| (y - x) / wall * 100.0);
            let machine = a
                .machine
                .zip(b.machine)
                .map(|((busy0, _), (busy1, _))| (busy1 - busy0) / wall * 100.0);
            (pct(a.server, b.server), pct(a.me, b.me), machine)
        });
        let (server_cpu, me_cpu, machine_cpu) = cpu_use.unwrap_or((None, None, None));
        let cost = cpu
            .and_then(|(a, b)| Some(b.server? - a.server?))
            .map(|server_s| MoveCost::of(server_s, moves, turnover, s));
        let others_cpu = machine_cpu.map(|m| m - server_cpu.unwrap_or(0.0) - me_cpu.unwrap_or(0.0));
        // The peak resident memory over the most sockets the server held at once.
        let per_conn = memory
            .as_ref()
            .filter(|_| peak_conns > 0)
            .map(|m| m.peak_kib as f64 / peak_conns as f64);
        let marginal = memory.as_ref().zip(baseline_kib).and_then(|(m, b)| {
            (peak_conns > 0).then(|| m.peak_kib.saturating_sub(b) as f64 / peak_conns as f64)
        });
        let mut answers = s
            .bot_answers_us
            .lock()
            .map(|l| l.clone())
            .unwrap_or_default();
        answers.sort_unstable();
        let (answer50, answer99) = (percentile(&answers, 50.0), percentile(&answers, 99.0));
        let bot_moves = s.bot_moves.load(Ordering::Relaxed);
        let p99_met = p99.map(|p| p < 20.0);
        let rate_met = Some(moves_per_s >= 5000.0);
        let mem_met = per_conn.map(|k| k < 100.0);
        let threads = std::thread::available_parallelism().map_or(0, std::num::NonZero::get);

        let mut lines = vec![
            format!(
                "omweso loadgen: {} games x (2 players + {} spectators), {}, {} cores; players {}{}",
                config.games,
                config.spectators,
                config.ruleset,
                threads,
                if config.think_ms == 0 {
                    "move as soon as they may".to_owned()
                } else {
                    format!("wait {} ms before each action", config.think_ms)
                },
                if config.quickack { "; clients ACK at once (--quickack)" } else { "" }
            ),
            format!(
                "  set-up {:.1} s ({} of {} games), then {:.1} s of play; measured {:.1} s after a {:.0} s warm-up",
                t.setup.as_secs_f64(),
                ready_slots,
                config.games,
                t.played.as_secs_f64(),
                secs,
                config.warmup
            ),
            format!(
                "  games        {:.0} going on average, {} started, {} finished ({} in the window), {} abandoned",
                mean_games,
                s.games_started.load(Ordering::Relaxed),
                s.games_finished.load(Ordering::Relaxed),
                s.games_finished_in_window.load(Ordering::Relaxed),
                s.games_abandoned.load(Ordering::Relaxed),
            ),
            format!(
                "  moves        {moves_per_s:.0}/s whole moves ({moves}); {plays_per_s:.0}/s played events incl. parts up to a decision ({plays})"
            ),
            format!(
                "  latency      p50 {}  p90 {}  p99 {}  p99.9 {}  max {}  ({} samples; action sent -> opponent has its played)",
                ms(p50), ms(p90), ms(p99), ms(p999), ms(max), lat.len()
            ),
            format!(
                "  ack          p50 {}  p99 {}  (action sent -> its ack: the server has stored it)",
                ms(ack50),
                ms(ack99)
            ),
            format!(
                "  errors       {error_total}{}",
                if errors.is_empty() {
                    String::new()
                } else {
                    format!(
                        " ({})",
                        errors
                            .iter()
                            .map(|(k, v)| format!("{k}: {v}"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                }
            ),
            format!(
                "  sockets      peak {} open; {} dropped by the server; {} stalled games; {} version gaps; {} unmatched",
                peak_conns,
                s.dropped.load(Ordering::Relaxed),
                s.stalled.load(Ordering::Relaxed),
                s.version_gaps.load(Ordering::Relaxed),
                s.unmatched.load(Ordering::Relaxed),
            ),
        ];
        if config.bot_games > 0 {
            lines.push(format!(
                "  computer     {} games at level {}: {:.1} moves/s of the computer ({bot_moves}), {} games ended; its answer p50 {}  p99 {}  (player's action sent -> the computer's played)",
                config.bot_games,
                config.bot_level,
                bot_moves as f64 / secs,
                s.bot_games_finished.load(Ordering::Relaxed),
                ms(answer50),
                ms(answer99),
            ));
        }
        let worst = worst_seconds(&timed);
        lines.push(format!(
            "  per second   p99 of the worst second {} (second {}); {} of {} seconds with a p99 of 20 ms or more",
            ms(worst.worst_p99),
            worst.worst_second.map_or("-".into(), |s| s.to_string()),
            worst.seconds_over_20ms,
            worst.seconds,
        ));
        if config.timeline {
            let start_unix_ms = t.window_start_unix.as_millis();
            lines.push(format!(
                "  timeline     the window started at {start_unix_ms} ms since the Unix epoch"
            ));
            lines.extend(timeline(&timed));
        }
        if let Some(m) = &memory {
            lines.push(format!(
                "  server mem   peak RSS {:.1} MiB (VmHWM {}; {} idle at start) / {} sockets = {:.1} KiB per connection ({} above the idle server)",
                m.peak_kib as f64 / 1024.0,
                hwm_kib.map_or("-".into(), |h| format!("{:.1} MiB", h as f64 / 1024.0)),
                baseline_kib.map_or("-".into(), |b| format!("{:.1} MiB", b as f64 / 1024.0)),
                peak_conns,
                per_conn.unwrap_or(0.0),
                marginal.map_or("-".into(), |k| format!("{k:.1} KiB")),
            ));
            lines.push(format!(
                "               mean RSS in the window {:.1} MiB; {} sockets open at the peak; pid {}",
                m.window_mean_kib as f64 / 1024.0,
                m.conns_at_peak,
                server_pid.unwrap_or(0)
            ));
        } else {
            lines.push("  server mem   not measured (use --spawn-server)".into());
        }
        match &cost {
            Some(cost) => lines.push(cost.line()),
            None => lines.push("  cpu/move     not measured (use --spawn-server)".into()),
        }
        let my_hwm = child::status_kib(std::process::id(), "VmHWM:");
        lines.push(format!(
            "  cpu          server {}, loadgen {}, other processes {} of {}% (100% = one core); loadgen peak RSS {}",
            server_cpu.map_or("-".into(), |c| format!("{c:.0}%")),
            me_cpu.map_or("-".into(), |c| format!("{c:.0}%")),
            others_cpu.map_or("-".into(), |c| format!("{:.0}%", c.max(0.0))),
            threads * 100,
            my_hwm.map_or("-".into(), |h| format!("{:.1} MiB", h as f64 / 1024.0)),
        ));
        lines.push(format!(
            "  targets      p99 < 20 ms: {}; >= 5000 moves/s: {}; < 100 KiB/connection: {}",
            verdict(p99_met),
            verdict(rate_met),
            verdict(mem_met)
        ));

        let json = json!({
            "games": config.games,
            "spectators": config.spectators,
            "ruleset": config.ruleset,
            "cores": threads,
            "setup_s": t.setup.as_secs_f64(),
            "window_s": secs,
            "warmup_s": config.warmup,
            "games_mean": mean_games,
            "games_started": s.games_started.load(Ordering::Relaxed),
            "games_finished": s.games_finished.load(Ordering::Relaxed),
            "games_finished_in_window": s.games_finished_in_window.load(Ordering::Relaxed),
            "games_abandoned": s.games_abandoned.load(Ordering::Relaxed),
            "moves": moves,
            "moves_per_s": moves_per_s,
            "played_events": plays,
            "played_per_s": plays_per_s,
            "latency_ms": {"p50": p50, "p90": p90, "p99": p99, "p999": p999, "max": max, "samples": lat.len()},
            "ack_ms": {"p50": ack50, "p99": ack99, "samples": acks.len()},
            "errors": errors,
            "errors_total": error_total,
            "dropped": s.dropped.load(Ordering::Relaxed),
            "stalled": s.stalled.load(Ordering::Relaxed),
            "version_gaps": s.version_gaps.load(Ordering::Relaxed),
            "unmatched": s.unmatched.load(Ordering::Relaxed),
            "peak_connections": peak_conns,
            "server": {
                "pid": server_pid,
                "peak_rss_kib": memory.as_ref().map(|m| m.peak_kib),
                "connections_at_peak": memory.as_ref().map(|m| m.conns_at_peak),
                "window_mean_rss_kib": memory.as_ref().map(|m| m.window_mean_kib),
                "vm_hwm_kib": hwm_kib,
                "baseline_rss_kib": baseline_kib,
                "kib_per_connection": per_conn,
                "marginal_kib_per_connection": marginal,
                "cpu_percent": server_cpu,
            },
            "cpu_per_move": cost.as_ref().map(MoveCost::json),
            "per_second": {
                "seconds": worst.seconds,
                "worst_p99_ms": worst.worst_p99,
                "worst_second": worst.worst_second,
                "seconds_p99_20ms_or_more": worst.seconds_over_20ms,
            },
            "loadgen_cpu_percent": me_cpu,
            "other_processes_cpu_percent": others_cpu,
            "loadgen_vm_hwm_kib": my_hwm,
            "bot_games": config.bot_games,
            "bot_level": config.bot_level,
            "bot_moves": bot_moves,
            "bot_answer_ms": {"p50": answer50, "p99": answer99, "samples": answers.len()},
            "think_ms": config.think_ms,
            "quickack": config.quickack,
            "targets": {"p99_under_20ms": p99_met, "moves_per_s_5000": rate_met, "under_100kib_per_connection": mem_met},
        });
        Report { lines, json }
    }

    fn text(&self) -> String {
        self.lines.join("\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_are_ranks_of_the_sorted_samples() {
        let us: Vec<u32> = (1..=200).map(|i| i * 1000).collect();
        assert_eq!(percentile(&us, 50.0), Some(100.0));
        assert_eq!(percentile(&us, 99.0), Some(198.0));
        assert_eq!(percentile(&us, 100.0), Some(200.0));
        assert_eq!(percentile(&us, 0.0), Some(1.0));
        assert_eq!(percentile(&[], 50.0), None);
    }

    #[test]
    fn the_worst_second_is_the_one_with_the_highest_p99() {
        // Second 0: 100 samples of 1 ms; its p99 is 1 ms. Second 1: 98 of 2 ms and 2 of
        // 30 ms; its p99 (the 99th of 100) is 30 ms. Second 3: one sample of 25 ms.
        let mut timed: Vec<(u32, u32)> = vec![(0, 1_000); 100];
        timed.extend(vec![(1, 2_000); 98]);
        timed.extend([(1, 30_000), (1, 30_000), (3, 25_000)]);
        assert_eq!(
            worst_seconds(&timed),
            WorstSeconds {
                seconds: 3,
                worst_p99: Some(30.0),
                worst_second: Some(1),
                seconds_over_20ms: 2,
            }
        );
        assert_eq!(worst_seconds(&[]).worst_p99, None);
    }

    #[test]
    fn cpu_per_move_takes_the_measured_turnover_out() {
        // 1.5 s of server CPU for 10,000 moves is 150 us a move; 100 new games at 2,000 us
        // each are 0.2 s of it (13.3%), which leaves 1.3 s, 130 us a move.
        let turnover = Turnover {
            games: 200,
            cpu_us_per_game: 2_000.0,
        };
        let cost = MoveCost::from_figures(1.5, 10_000, 100, Some(turnover));
        assert!((cost.all_us.unwrap() - 150.0).abs() < 1e-9);
        assert!((cost.without_turnover_us.unwrap() - 130.0).abs() < 1e-9);
        assert!((cost.turnover_share.unwrap() - 0.2 / 1.5).abs() < 1e-9);
        assert!(
            cost.line().contains("server 150 us per whole move"),
            "{}",
            cost.line()
        );
        assert!(
            cost.line().contains(
                "100 games x 2000 us (probe of 200) = 13% of it; without it 130 us per move"
            ),
            "{}",
            cost.line()
        );
        // No probe: only the whole figure.
        let cost = MoveCost::from_figures(1.5, 10_000, 100, None);
        assert_eq!(cost.without_turnover_us, None);
        assert!(cost.line().contains("turnover not measured"));
        // No moves: no figure rather than a division by zero.
        assert_eq!(MoveCost::from_figures(1.5, 0, 0, None).all_us, None);
    }

    #[test]
    fn the_timeline_has_a_line_per_second_in_order() {
        let timed = [(2, 9_000), (0, 1_000), (0, 3_000), (2, 1_500), (0, 2_000)];
        assert_eq!(
            timeline(&timed),
            [
                "  second   0       3 samples  p50 2.00 ms  p99 3.00 ms  max 3.00 ms",
                "  second   2       2 samples  p50 1.50 ms  p99 9.00 ms  max 9.00 ms",
            ]
        );
        assert!(timeline(&[]).is_empty());
    }
}
