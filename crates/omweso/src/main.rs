//! The `omweso` binary: a thin shell that parses the command line and calls the server
//! (`omweso serve`, crate `omweso-server`) or one of the tools (crate `omweso-tools`).

use std::io;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand};
use omweso_rules::Ruleset;
use omweso_tools::{bench, engine_cli};

/// mimalloc instead of glibc's malloc: under load the server's allocations (event messages,
/// socket frames, database rows) are short-lived and cross threads, and glibc's allocator
/// took about a sixth of the server's CPU in profiles (`_int_malloc`, `malloc_consolidate`,
/// `unlink_chunk`); see docs/performance.md.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser, Debug)]
#[command(
    name = "omweso",
    version,
    about = "Omweso online: the rules engine, its tools and the game server"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Run the game server (HTTP API, game sockets, and the browser client).
    // Boxed: the server's settings are much larger than any other command's.
    Serve(Box<omweso_server::config::ServeConfig>),
    /// Load a local server with games of random moves through the real protocol, and report
    /// latency, moves per second and the server's memory.
    Loadgen(omweso_tools::loadgen::LoadgenConfig),
    /// Play a whole tournament of random players on a local server through the real
    /// protocol, with watchers on its socket, and report its boards' latency and the
    /// server's CPU per move.
    TournamentSim(omweso_tools::tournament_sim::TournamentSimConfig),
    /// The operator's account commands: show, reset-password, rename, disable, enable,
    /// sign-out (docs/accounts.md).
    Admin(omweso_server::admin::AdminArgs),
    /// Exit 0 if the server answers its health check (for container HEALTHCHECKs).
    Healthcheck {
        #[arg(
            long,
            env = "OMWESO_HEALTHCHECK_URL",
            default_value = "http://127.0.0.1:8080/healthz"
        )]
        url: String,
    },
    /// Answer JSON-lines requests on stdin (`moves`, `play`, `bestmove`) for omweso, mweiso
    /// and oware.
    Engine,
    /// Two computer players (levels, node or time budgets, or random) play each other over
    /// many games on the machine's cores: wins, draws, losses, annulled, the score and the
    /// Elo difference with its 95% interval (docs/bots.md).
    Arena(omweso_tools::arena::ArenaConfig),
    /// Random playouts per second on one core, one line per ruleset; `omweso bench
    /// archive`: the archive's searches on a large store.
    Bench {
        #[command(subcommand)]
        what: Option<BenchWhat>,
        /// Seconds to play each ruleset.
        #[arg(long, default_value_t = 3.0)]
        seconds: f64,
        /// Only these rulesets (default: all three).
        #[arg(long, value_delimiter = ',')]
        ruleset: Vec<String>,
        /// Also print plies per game and capped games.
        #[arg(long)]
        verbose: bool,
    },
}

#[derive(Subcommand, Debug)]
enum BenchWhat {
    /// The archive's searches timed on a generated store of finished games (a million by
    /// default), SQLite or PostgreSQL, with their query plans (docs/performance.md#the-archive).
    Archive(omweso_server::archive::bench::ArchiveBenchConfig),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Serve(config) => serve(*config),
        Command::Loadgen(config) => omweso_tools::loadgen::main(config),
        Command::TournamentSim(config) => omweso_tools::tournament_sim::main(config),
        Command::Healthcheck { url } => {
            match omweso_tools::healthcheck::check(&url, Duration::from_secs(3)) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("omweso healthcheck: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Command::Arena(config) => omweso_tools::arena::main(&config),
        Command::Admin(args) => admin(args),
        Command::Engine => {
            let stdin = io::stdin().lock();
            let stdout = io::stdout().lock();
            match engine_cli::run(stdin, stdout) {
                Ok(()) => ExitCode::SUCCESS,
                // A closed stdout (the reader went away) ends the engine quietly.
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("omweso engine: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Command::Bench {
            what: Some(BenchWhat::Archive(config)),
            ..
        } => bench_archive(&config),
        Command::Bench {
            what: None,
            seconds,
            ruleset,
            verbose,
        } => {
            let rulesets: Result<Vec<Ruleset>, _> = if ruleset.is_empty() {
                Ok(Ruleset::ALL.to_vec())
            } else {
                ruleset.iter().map(|r| r.parse()).collect()
            };
            let rulesets = match rulesets {
                Ok(r) => r,
                Err(e) => {
                    eprintln!("omweso bench: {e}");
                    return ExitCode::FAILURE;
                }
            };
            if !(seconds.is_finite() && seconds > 0.0) {
                eprintln!("omweso bench: --seconds must be a positive number");
                return ExitCode::FAILURE;
            }
            for ruleset in rulesets {
                let result = bench::run(ruleset, Duration::from_secs_f64(seconds), 1);
                println!("{ruleset} {:.0} playouts/s", result.playouts_per_second());
                if verbose {
                    println!(
                        "  {} games in {:.2}s, {:.1} plies a game, {} stopped at {} plies",
                        result.playouts,
                        result.elapsed.as_secs_f64(),
                        result.plies as f64 / result.playouts as f64,
                        result.capped,
                        omweso_rules::playout::MAX_PLIES
                    );
                }
            }
            ExitCode::SUCCESS
        }
    }
}

fn bench_archive(config: &omweso_server::archive::bench::ArchiveBenchConfig) -> ExitCode {
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("omweso bench archive: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut stdout = io::stdout();
    match runtime.block_on(omweso_server::archive::bench::run(config, &mut stdout)) {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("omweso bench archive: {e}");
            ExitCode::FAILURE
        }
    }
}

fn serve(config: omweso_server::config::ServeConfig) -> ExitCode {
    if let Err(message) = init_logging(&config) {
        eprintln!("omweso serve: {message}");
        return ExitCode::FAILURE;
    }
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("omweso serve: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(async {
        let listener = match tokio::net::TcpListener::bind(config.addr).await {
            Ok(listener) => listener,
            Err(e) => {
                eprintln!("omweso serve: cannot listen on {}: {e}", config.addr);
                return ExitCode::FAILURE;
            }
        };
        let addr = listener.local_addr().map_or(config.addr, |a| a);
        let ready = omweso_server::server::Ready::new();
        let announce = ready.clone();
        tokio::spawn(async move {
            if announce.wait().await {
                println!("listening on http://{addr}");
                if let Some(metrics) = announce.metrics_addr() {
                    println!("metrics on http://{metrics}/metrics");
                }
            }
        });
        match omweso_server::server::run_with(listener, config, shutdown_signal(), ready).await {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("omweso serve: {e}");
                ExitCode::FAILURE
            }
        }
    })
}

fn init_logging(config: &omweso_server::config::ServeConfig) -> Result<(), String> {
    let filter = tracing_subscriber::EnvFilter::try_new(&config.log_level)
        .map_err(|e| format!("bad log level {:?}: {e}", config.log_level))?;
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_writer(std::io::stderr);
    match config.log_format.as_str() {
        "text" => builder.init(),
        "json" => builder.json().init(),
        other => return Err(format!("log format must be text or json, not {other:?}")),
    }
    Ok(())
}

/// Completes on ctrl-c or SIGTERM.
async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = terminate => {}
    }
}

/// `omweso admin`: one account command on the database, then exit.
fn admin(args: omweso_server::admin::AdminArgs) -> ExitCode {
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("omweso admin: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let stdin = io::stdin().lock();
    let mut stdout = io::stdout().lock();
    match runtime.block_on(omweso_server::admin::run(args, stdin, &mut stdout)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("omweso admin: {e}");
            ExitCode::FAILURE
        }
    }
}
