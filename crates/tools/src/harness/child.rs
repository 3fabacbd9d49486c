//! The process side of the load generator: the open-files limit, the spawned server, and
//! the server's memory and CPU read from `/proc`.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::stats::Ctx;

/// Raises the soft open-files limit to at least `want` (up to the hard limit). Returns the
/// new limit if it was raised.
pub(crate) fn raise_fd_limit(want: u64) -> Result<Option<u64>, String> {
    #[cfg(unix)]
    {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit writes into the struct we pass.
        if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } != 0 {
            return Err(format!(
                "cannot read the open-files limit: {}",
                std::io::Error::last_os_error()
            ));
        }
        let cur: u64 = limit.rlim_cur;
        if cur >= want {
            return Ok(None);
        }
        let max: u64 = limit.rlim_max;
        let new = want.max(65_536).min(max);
        if new <= cur {
            return Err(format!(
                "the open-files limit is {cur} (hard limit {max}); {want} are needed"
            ));
        }
        limit.rlim_cur = new;
        // SAFETY: setrlimit reads the struct we pass.
        if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &limit) } != 0 {
            return Err(format!(
                "cannot raise the open-files limit from {cur}: {}",
                std::io::Error::last_os_error()
            ));
        }
        if new < want {
            return Err(format!(
                "the open-files limit is capped at {new}; {want} are needed"
            ));
        }
        Ok(Some(new))
    }
    #[cfg(not(unix))]
    {
        let _ = want;
        Ok(None)
    }
}

/// `http://HOST:PORT` from `url`, if every address it names is a loopback address.
pub(crate) async fn loopback_base(url: &str) -> Result<String, String> {
    let rest = url
        .strip_prefix("http://")
        .ok_or_else(|| format!("--url must start with http:// (got {url:?})"))?;
    let authority = rest.split('/').next().unwrap_or_default();
    if authority.is_empty() || authority.contains('@') {
        return Err(format!("--url {url:?} has no host"));
    }
    let with_port = if authority.ends_with(']') || !authority.contains(':') {
        format!("{authority}:80")
    } else {
        authority.to_owned()
    };
    let addrs: Vec<SocketAddr> = tokio::net::lookup_host(&with_port)
        .await
        .map_err(|e| format!("cannot resolve {authority}: {e}"))?
        .collect();
    if addrs.is_empty() || !addrs.iter().all(|a| a.ip().is_loopback()) {
        return Err(format!(
            "{authority} is not a loopback address: the load generator only loads this machine"
        ));
    }
    Ok(format!("http://{authority}"))
}

/// The server started as a child process.
pub(crate) struct Server {
    child: Mutex<Child>,
    pub(crate) pid: u32,
    pub(crate) addr: SocketAddr,
    pub(crate) log: PathBuf,
    /// The temporary directory (the log, and the database unless one was given), removed
    /// at the end.
    dir: PathBuf,
}

impl Server {
    /// Starts `omweso serve --addr 127.0.0.1:0` on `database_url` (default: an SQLite file
    /// in a new temporary directory) with the per-connection message `rate_limit` (default:
    /// the server's), and waits for its "listening on" line. The program is `binary`
    /// (another build of `omweso`, to compare two builds under the same driver), else this
    /// one.
    pub(crate) async fn spawn_binary(
        binary: Option<&Path>,
        database_url: Option<&str>,
        rate_limit: Option<u32>,
    ) -> Result<Server, String> {
        let exe = match binary {
            Some(binary) => binary.to_path_buf(),
            None => {
                std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?
            }
        };
        let dir = std::env::temp_dir().join(format!("omweso-loadgen-{}", std::process::id()));
        std::fs::create_dir_all(&dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        let database = database_url
            .map(str::to_owned)
            .unwrap_or_else(|| format!("sqlite://{}", dir.join("loadgen.db").display()));
        let log = dir.join("server.log");
        let log_file = std::fs::File::create(&log)
            .map_err(|e| format!("cannot create {}: {e}", log.display()))?;
        let mut command = Command::new(exe);
        command
            .args([
                "serve",
                "--addr",
                "127.0.0.1:0",
                "--database-url",
                &database,
            ])
            // A second metrics listener on a fixed port would clash with another server.
            .env("OMWESO_METRICS_ADDR", "127.0.0.1:0")
            // Every simulated player comes from 127.0.0.1 and creates games far faster
            // than people: the per-address and per-session limits (docs/security.md)
            // would refuse most of them.
            .env("OMWESO_SESSIONS_PER_IP_PER_MINUTE", "1000000")
            .env("OMWESO_GAMES_PER_SESSION_PER_MINUTE", "1000000")
            .env("OMWESO_GAMES_PER_IP_PER_MINUTE", "1000000")
            .env("OMWESO_OPEN_GAMES_PER_SESSION", "1000000")
            .env("OMWESO_SOCKETS_PER_SESSION", "1000000")
            .env("OMWESO_SOCKETS_PER_IP", "1000000")
            .env("OMWESO_CONNECTIONS_PER_IP", "1000000")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(log_file);
        if let Some(rate) = rate_limit {
            command.env("OMWESO_RATE_LIMIT", rate.to_string());
        }
        stop_with_this_process(&mut command);
        let mut child = command
            .spawn()
            .map_err(|e| format!("cannot start the server: {e}"))?;
        let pid = child.id();
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, rx) = tokio::sync::oneshot::channel::<SocketAddr>();
        // Reads the address, then keeps draining stdout so the server never blocks on it.
        std::thread::spawn(move || {
            let mut tx = Some(tx);
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if let Some(addr) = line.strip_prefix("listening on http://") {
                    if let (Some(tx), Ok(addr)) = (tx.take(), addr.trim().parse()) {
                        let _ = tx.send(addr);
                    }
                }
            }
        });
        let server = |addr| Server {
            child: Mutex::new(child),
            pid,
            addr,
            log: log.clone(),
            dir: dir.clone(),
        };
        match tokio::time::timeout(Duration::from_secs(60), rx).await {
            Ok(Ok(addr)) => Ok(server(addr)),
            _ => {
                let s = server(SocketAddr::from(([127, 0, 0, 1], 0)));
                s.stop().await;
                let tail = std::fs::read_to_string(&log).unwrap_or_default();
                let tail: Vec<&str> = tail.lines().rev().take(10).collect();
                Err(format!(
                    "it did not say where it listens; its log ends:\n{}",
                    tail.into_iter().rev().collect::<Vec<_>>().join("\n")
                ))
            }
        }
    }

    /// SIGTERM, then waits up to 20 s (then kills). Removes the temporary directory.
    pub(crate) async fn stop(self) {
        #[cfg(unix)]
        if let Ok(pid) = i32::try_from(self.pid) {
            // SAFETY: kill only sends a signal to our own child.
            unsafe {
                libc::kill(pid, libc::SIGTERM);
            }
        }
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        loop {
            let done = self
                .child
                .lock()
                .map(|mut c| !matches!(c.try_wait(), Ok(None)))
                .unwrap_or(true);
            if done {
                break;
            }
            if std::time::Instant::now() > deadline {
                eprintln!("omweso loadgen: the server did not stop within 20 s; killing it");
                if let Ok(mut c) = self.child.lock() {
                    let _ = c.kill();
                    let _ = c.wait();
                }
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Asks the kernel to send the child SIGTERM when this process dies, however it dies: a
/// load run killed, or ended by a closed pipe (`omweso loadgen ... | head`), left its
/// server running, holding its port and its games, with nobody to stop it. The kernel
/// watches the *thread* that starts the child: `loadgen` and `tournament-sim` start it from
/// the future their `main` blocks on, so on the main thread, which lives as long as they do.
fn stop_with_this_process(command: &mut Command) {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt;
        // SAFETY: the closure runs in the child between fork and exec, and only makes one
        // system call (prctl), which is async-signal-safe.
        unsafe {
            command.pre_exec(|| {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM) == 0 {
                    Ok(())
                } else {
                    Err(std::io::Error::last_os_error())
                }
            });
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = command;
}

/// A field of `/proc/PID/status` in KiB (`VmRSS:`, `VmHWM:`).
pub(crate) fn status_kib(pid: u32, field: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
}

/// User plus system CPU seconds a process has used (`/proc/PID/stat`).
pub(crate) fn cpu_seconds(pid: u32) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command name (which may hold spaces) in parentheses.
    let after = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = after.split_whitespace().collect();
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    #[cfg(unix)]
    // SAFETY: sysconf only reads a configuration value.
    let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
    #[cfg(not(unix))]
    let ticks = 100.0;
    Some((utime + stime) / ticks.max(1.0))
}

/// The whole machine's busy and total CPU seconds (`/proc/stat`, all cores).
pub(crate) fn machine_cpu_seconds() -> Option<(f64, f64)> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    let line = stat.lines().find(|l| l.starts_with("cpu "))?;
    let v: Vec<f64> = line
        .split_whitespace()
        .skip(1)
        .filter_map(|x| x.parse().ok())
        .collect();
    // user nice system idle iowait irq softirq steal ...
    let idle = v.get(3)? + v.get(4).copied().unwrap_or(0.0);
    let total: f64 = v.iter().take(8).sum();
    #[cfg(unix)]
    // SAFETY: sysconf only reads a configuration value.
    let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
    #[cfg(not(unix))]
    let ticks = 100.0;
    Some(((total - idle) / ticks.max(1.0), total / ticks.max(1.0)))
}

#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct MemorySummary {
    pub(crate) peak_kib: u64,
    /// Open sockets (counted by the load generator) when the peak was sampled.
    pub(crate) conns_at_peak: usize,
    pub(crate) window_mean_kib: u64,
}

#[derive(Default)]
struct Samples {
    summary: MemorySummary,
    in_window: bool,
    window_sum: u64,
    window_n: u64,
}

/// Samples the server's resident memory every 100 ms.
pub(crate) struct Sampler {
    pid: u32,
    samples: Arc<Mutex<Samples>>,
    task: tokio::task::JoinHandle<()>,
}

impl Sampler {
    pub(crate) fn start(pid: u32, ctx: Arc<Ctx>) -> Sampler {
        let samples = Arc::new(Mutex::new(Samples::default()));
        let shared = samples.clone();
        let task = tokio::spawn(async move {
            let mut every = tokio::time::interval(Duration::from_millis(100));
            every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
            loop {
                every.tick().await;
                let Some(rss) = status_kib(pid, "VmRSS:") else {
                    continue;
                };
                let conns = ctx.stats.open_conns.load(Ordering::Relaxed);
                if let Ok(mut s) = shared.lock() {
                    if rss > s.summary.peak_kib {
                        s.summary.peak_kib = rss;
                        s.summary.conns_at_peak = conns;
                    }
                    if s.in_window {
                        s.window_sum += rss;
                        s.window_n += 1;
                    }
                }
            }
        });
        Sampler { pid, samples, task }
    }

    pub(crate) fn current_kib(&self) -> Option<u64> {
        status_kib(self.pid, "VmRSS:")
    }

    pub(crate) fn window(&mut self, on: bool) {
        if let Ok(mut s) = self.samples.lock() {
            s.in_window = on;
        }
    }

    pub(crate) fn summary(&self) -> MemorySummary {
        self.samples
            .lock()
            .map(|s| MemorySummary {
                window_mean_kib: s.window_sum.checked_div(s.window_n).unwrap_or(0),
                ..s.summary
            })
            .unwrap_or_default()
    }
}

impl Drop for Sampler {
    fn drop(&mut self) {
        self.task.abort();
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
            server: server.and_then(cpu_seconds),
            me: cpu_seconds(std::process::id()),
            machine: machine_cpu_seconds(),
        })
    }
}
