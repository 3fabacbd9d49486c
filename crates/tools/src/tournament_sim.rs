//! `omweso tournament-sim`: a whole tournament of simulated players through the real
//! protocol (HTTP and WebSockets over loopback), for tests and for load.
//!
//! A director and `--players` guest sessions; the director creates the tournament, every
//! player joins, `--watchers` anonymous sockets open on `/ws/tournaments/{id}`, and then,
//! round after round, the director pairs and starts the round, each table's two players
//! open their game sockets and play random legal moves (the load generator's players,
//! `harness::player`: moves from the events' `legal`, decisions answered at once, after
//! `--think-ms`) until the game ends, and the director waits on its own tournament socket
//! until every table has a sheet. A game still going when the round's time runs out is
//! adjudicated by the server and ends like any other.
//!
//! The report: rounds, games, moves and moves a second, the final standings' top five,
//! the latency of the watchers' boards (`board` and `boards` messages: `latency`), the
//! frames and bytes each watcher received, and with `--spawn-server` the server's CPU time
//! over the play, per move and per frame sent to a watcher. With several `--server`s (the
//! nodes of one cluster) the watchers are spread over them. The exit code is non-zero on any
//! protocol error, dropped watcher, or round that does not finish.

mod config;
mod director;
mod latency;
mod report;
mod socket;
mod watcher;

use std::collections::HashMap;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use omweso_rules::{ParseRulesetError, Ruleset};
use serde_json::{json, Value};
use tokio::sync::{mpsc, watch, Semaphore};
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

use crate::harness::child::Cpu;
use crate::harness::child::{self, Server};
use crate::harness::socket::http;
use crate::harness::socket::Counted;
use crate::harness::stats::{Ctx, Stats};
pub use config::{SimSystem, TournamentSimConfig};
use director::Director;
use latency::{Epoch, MoveLog};
use report::{Outcome, Report};
use watcher::WatcherStats;

/// Runs the simulation; see the module's documentation for the exit code.
#[must_use]
pub fn main(config: TournamentSimConfig) -> ExitCode {
    if let Err(message) = check(&config) {
        eprintln!("omweso tournament-sim: {message}");
        return ExitCode::from(2);
    }
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("omweso tournament-sim: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let code = runtime.block_on(run(config));
    // Sockets still closing must not hold the process.
    runtime.shutdown_timeout(Duration::from_secs(2));
    code
}

fn check(config: &TournamentSimConfig) -> Result<(), String> {
    if !(2..=omweso_protocol::tournament::MAX_PLAYERS).contains(&config.players) {
        return Err(format!(
            "--players must be from 2 to {}",
            omweso_protocol::tournament::MAX_PLAYERS
        ));
    }
    if config.rounds.is_some() && config.system != SimSystem::Swiss {
        return Err("--rounds is for a Swiss: a round-robin's rounds come from its field".into());
    }
    if config
        .round_minutes
        .is_some_and(|m| !(m.is_finite() && m > 0.0))
    {
        return Err("--round-minutes must be a positive number".into());
    }
    if config.server_binary.is_some() && !config.spawn_server {
        return Err("--server-binary is for --spawn-server".into());
    }
    if config.connect_concurrency == 0 {
        return Err("--connect-concurrency must be at least 1".into());
    }
    config
        .ruleset
        .parse::<Ruleset>()
        .map_err(|e: ParseRulesetError| e.to_string())?;
    Ok(())
}

async fn run(config: TournamentSimConfig) -> ExitCode {
    // Two game sockets a player, the watchers, the director's, and HTTP.
    let sockets = 2 * config.players + config.watchers + 256;
    match child::raise_fd_limit(sockets as u64) {
        Ok(Some(limit)) => eprintln!("open-files limit raised to {limit}"),
        Ok(None) => {}
        Err(e) => eprintln!(
            "omweso tournament-sim: warning: {e}; if sockets fail, run `ulimit -n 65536` first"
        ),
    }
    let server = if config.spawn_server {
        match Server::spawn_binary(
            config.server_binary.as_deref(),
            config.database_url.as_deref(),
            Some(config.server_rate_limit),
        )
        .await
        {
            Ok(s) => {
                eprintln!(
                    "server pid {} listening on http://{} (log: {}, removed at the end)",
                    s.pid,
                    s.addr,
                    s.log.display()
                );
                Some(s)
            }
            Err(e) => {
                eprintln!("omweso tournament-sim: cannot start the server: {e}");
                return ExitCode::from(2);
            }
        }
    } else {
        None
    };
    let bases = match &server {
        Some(s) => vec![format!("http://{}", s.addr)],
        None => {
            let mut bases = Vec::with_capacity(config.urls.len());
            for url in &config.urls {
                match child::loopback_base(url).await {
                    Ok(base) => bases.push(base),
                    Err(e) => {
                        eprintln!("omweso tournament-sim: {e}");
                        return ExitCode::from(2);
                    }
                }
            }
            bases
        }
    };
    let code = drive(&config, &bases, server.as_ref()).await;
    if let Some(server) = server {
        server.stop().await;
    }
    code
}

/// Plays the tournament on `bases[0]`, its watchers spread over every one of `bases`.
async fn drive(
    config: &TournamentSimConfig,
    bases: &[String],
    server: Option<&Server>,
) -> ExitCode {
    let base = bases[0].as_str();
    let http_client = match reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .pool_max_idle_per_host(config.connect_concurrency * 2)
        .tcp_nodelay(true)
        .build()
    {
        Ok(client) => client,
        Err(e) => {
            eprintln!("omweso tournament-sim: {e}");
            return ExitCode::FAILURE;
        }
    };
    for base in bases {
        match http_client.get(format!("{base}/healthz")).send().await {
            Ok(r) if r.status().is_success() => {}
            Ok(r) => {
                eprintln!(
                    "omweso tournament-sim: {base}/healthz answered {}",
                    r.status()
                );
                return ExitCode::from(2);
            }
            Err(e) => {
                eprintln!("omweso tournament-sim: cannot reach {base}: {e}");
                return ExitCode::from(2);
            }
        }
    }
    let seed = config.seed.unwrap_or_else(rand::random);
    let epoch = Epoch::now();
    let moves = Arc::new(MoveLog::new(epoch));
    let log = moves.clone();
    let ctx = Arc::new(Ctx {
        base: base.to_owned(),
        http: http_client,
        ruleset: config.ruleset.clone(),
        spectators: 0,
        seed,
        stats: Stats::default(),
        stop: CancellationToken::new(),
        setups: Semaphore::new(config.connect_concurrency),
        started: AtomicUsize::new(0),
        all_started: tokio::sync::Notify::new(),
        games: config.players / 2,
        bot_level: 1,
        quickack: false,
        think: Duration::from_millis(config.think_ms),
        on_acked: Some(Arc::new(move |game, version, at| {
            log.record(game, version, at);
        })),
    });
    let outcome = match play(config, &ctx, bases, moves, epoch, seed, server).await {
        Ok(outcome) => outcome,
        Err(e) => {
            ctx.stop.cancel();
            eprintln!("omweso tournament-sim: {e}");
            print_notes(&ctx);
            return ExitCode::FAILURE;
        }
    };
    let report = Report::build(config, &ctx, &outcome, seed);
    println!("{}", report.text());
    if config.json {
        println!("{}", report.json);
    }
    print_notes(&ctx);
    if report.failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        for failure in &report.failures {
            eprintln!("omweso tournament-sim: FAILED: {failure}");
        }
        ExitCode::FAILURE
    }
}

fn print_notes(ctx: &Ctx) {
    if let Ok(notes) = ctx.stats.notes.lock() {
        for note in notes.iter() {
            eprintln!("note: {note}");
        }
    }
}

/// Sets the tournament up, plays it, and closes every socket.
async fn play(
    config: &TournamentSimConfig,
    ctx: &Arc<Ctx>,
    bases: &[String],
    moves: Arc<MoveLog>,
    epoch: Epoch,
    seed: u64,
    server: Option<&Server>,
) -> Result<Outcome, String> {
    let t0 = Instant::now();
    let director_session = http(
        ctx,
        "POST",
        "/api/session",
        None,
        Some(json!({"name": "Director"})),
    )
    .await?;
    let token = field(&director_session, "token")?;
    let mut settings = json!({
        "name": format!("tournament-sim {seed}"),
        "ruleset": config.ruleset,
        "system": config.system.name(),
    });
    if config.ruleset == "omweso" {
        // The simulated players play moves, not arrangements: the preset start, not the
        // free setup an Omweso tournament has by default.
        settings["setup"] = json!("outer");
    }
    if let Some(rounds) = config.rounds {
        settings["rounds"] = json!(rounds);
    }
    if let Some(minutes) = config.round_minutes {
        settings["round_minutes"] = json!(minutes);
    }
    let created = http(
        ctx,
        "POST",
        "/api/tournaments",
        Some(&token),
        Some(settings),
    )
    .await?;
    let tournament: Uuid = field(&created, "tournament_id")?
        .parse()
        .map_err(|e| format!("the new tournament's id: {e}"))?;
    let tokens = join_players(config, ctx, tournament).await?;
    eprintln!(
        "tournament {tournament}: {} players joined in {:.1} s",
        tokens.len(),
        t0.elapsed().as_secs_f64()
    );

    // The director follows the tournament on its own socket; the events reach it through
    // a bounded channel (a round's end is three events a table).
    let stop = CancellationToken::new();
    let (feed_tx, mut feed) = mpsc::channel(1024);
    let (ws, version) = socket::open(base(ctx), tournament, Some(&token)).await?;
    let feed_task = tokio::spawn(socket::feed(ws, version, feed_tx, stop.clone()));

    let (settle_tx, settle_rx) = watch::channel(Vec::new());
    let watcher_stats = Arc::new(WatcherStats::default());
    let t1 = Instant::now();
    let opened: Vec<Result<(socket::Ws, u64, Counted), String>> =
        futures_util::stream::iter(0..config.watchers)
            .map(|i| async move {
                // In turn over the servers: a cluster's nodes share the audience.
                let on = &bases[i % bases.len()];
                let (ws, v) = socket::open(on, tournament, None).await?;
                Ok((ws, v, Counted::new(ctx)))
            })
            .buffer_unordered(config.connect_concurrency)
            .collect()
            .await;
    let mut watchers = Vec::with_capacity(opened.len());
    for open in opened {
        let (ws, version, counted) = open.map_err(|e| format!("a watcher: {e}"))?;
        watchers.push(tokio::spawn(watcher::watch(
            ws,
            counted,
            version,
            epoch,
            watcher_stats.clone(),
            settle_rx.clone(),
            stop.clone(),
        )));
    }
    drop(settle_rx);
    if config.watchers > 0 {
        eprintln!(
            "{} watchers connected in {:.1} s, over {} server{}",
            watchers.len(),
            t1.elapsed().as_secs_f64(),
            bases.len(),
            if bases.len() == 1 { "" } else { "s" }
        );
    }

    let director = Director {
        ctx: ctx.clone(),
        tournament,
        token,
        tokens,
        moves,
        seed,
        watchers: watcher_stats.clone(),
        watcher_count: watchers.len(),
    };
    let pid = server.map(|s| s.pid);
    let sampler = server.map(|s| child::Sampler::start(s.pid, ctx.clone()));
    let cpu_start = Cpu::now(pid);
    let _ = ctx.stats.window_start.set(Instant::now());
    ctx.stats.measuring.store(true, Ordering::Release);
    let start = Instant::now();
    let mut faults = Vec::new();
    let played = director.play(&mut feed, &settle_tx, &mut faults).await;
    let play_time = start.elapsed();
    ctx.stats.measuring.store(false, Ordering::Release);
    let cpu_end = Cpu::now(pid);
    let peak_rss_kib = sampler.map(|s| s.summary().peak_kib);
    let finished = match &played {
        Ok(_) => Some(director.snapshot().await?),
        Err(_) => None,
    };

    // Every socket closes: the players' (already closed unless a round failed), the
    // watchers' once they have matched the last round, the director's.
    ctx.stop.cancel();
    drop(settle_tx);
    stop.cancel();
    for watcher in watchers {
        if let Err(e) = watcher.await {
            faults.push(format!("a watcher's task failed: {e}"));
        }
    }
    let _ = feed_task.await;
    while let Ok(item) = feed.try_recv() {
        if let socket::Feed::Fault(fault) = item {
            faults.push(fault);
        }
    }
    let rounds = played.inspect_err(|_| {
        for fault in &faults {
            eprintln!("omweso tournament-sim: {fault}");
        }
    })?;
    Ok(Outcome {
        rounds,
        play: play_time,
        cpu: cpu_start.zip(cpu_end),
        peak_rss_kib,
        finished,
        watchers: watcher_stats,
        faults,
    })
}

fn base(ctx: &Ctx) -> &str {
    &ctx.base
}

fn field(value: &Value, name: &str) -> Result<String, String> {
    value[name]
        .as_str()
        .map(str::to_owned)
        .ok_or_else(|| format!("the answer has no {name}: {value}"))
}

/// Creates each player's session and joins it to the tournament; answers their tokens by
/// player id.
async fn join_players(
    config: &TournamentSimConfig,
    ctx: &Arc<Ctx>,
    tournament: Uuid,
) -> Result<HashMap<Uuid, String>, String> {
    let width = config.players.to_string().len();
    let joined: Vec<Result<(Uuid, String), String>> =
        futures_util::stream::iter(1..=config.players)
            .map(|i| async move {
                let name = format!("P{i:0width$}");
                let session = http(
                    ctx,
                    "POST",
                    "/api/session",
                    None,
                    Some(json!({"name": name})),
                )
                .await?;
                let token = field(&session, "token")?;
                let joined = http(
                    ctx,
                    "POST",
                    &format!("/api/tournaments/{tournament}/join"),
                    Some(&token),
                    Some(json!({})),
                )
                .await?;
                let player: Uuid = field(&joined, "player_id")?
                    .parse()
                    .map_err(|e| format!("{name}'s player id: {e}"))?;
                Ok((player, token))
            })
            .buffer_unordered(config.connect_concurrency)
            .collect()
            .await;
    joined.into_iter().collect()
}
