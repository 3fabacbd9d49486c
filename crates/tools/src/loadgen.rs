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

mod config;
mod report;

use crate::harness::child::Cpu;
use crate::harness::stats::{Ctx, Stats};
use crate::harness::{child, client};
use config::check;
pub use config::LoadgenConfig;
pub(crate) use report::{ms, percentile};
use report::{Report, Timings, Turnover};

use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;

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
