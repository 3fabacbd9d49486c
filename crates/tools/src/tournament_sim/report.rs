//! The simulation's report: what was played, how fast, the final standings, the boards'
//! latency, the server's CPU, and every reason the run failed.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};

use super::config::TournamentSimConfig;
use super::director;
use super::watcher::WatcherStats;
use crate::harness::child::Cpu;
use crate::harness::stats::Ctx;
use crate::loadgen::{ms, percentile};

/// Everything the run measured, for the report.
pub(crate) struct Outcome {
    pub(crate) rounds: Vec<director::RoundFigures>,
    pub(crate) play: Duration,
    pub(crate) cpu: Option<(Cpu, Cpu)>,
    pub(crate) peak_rss_kib: Option<u64>,
    /// The tournament's snapshot at the end.
    pub(crate) finished: Option<Value>,
    pub(crate) watchers: Arc<WatcherStats>,
    /// Protocol faults seen along the way (each one fails the run).
    pub(crate) faults: Vec<String>,
}

pub(crate) struct Report {
    lines: Vec<String>,
    pub(crate) json: Value,
    /// Why the run failed (empty: it did not).
    pub(crate) failures: Vec<String>,
}

/// Microseconds as milliseconds.
fn us_ms(us: Option<u64>) -> Option<f64> {
    us.map(|us| us as f64 / 1000.0)
}

impl Report {
    #[allow(clippy::too_many_lines)]
    pub(crate) fn build(
        config: &TournamentSimConfig,
        ctx: &Ctx,
        outcome: &Outcome,
        seed: u64,
    ) -> Report {
        let s = &ctx.stats;
        let w = &outcome.watchers;
        let mut failures: Vec<String> = outcome.faults.clone();
        let secs = outcome.play.as_secs_f64();
        let moves = s.moves_total.load(Ordering::Relaxed);
        let actions = s.plays.load(Ordering::Relaxed);
        let moves_per_s = moves as f64 / secs.max(1e-9);
        let games: usize = outcome.rounds.iter().map(|r| r.games).sum();
        let replays: usize = outcome.rounds.iter().map(|r| r.replays).sum();
        let timed_out = outcome.rounds.iter().filter(|r| r.timed_out).count();

        let mut lat: Vec<u32> = s
            .latencies_us
            .lock()
            .map(|l| l.iter().map(|&(_, us)| us).collect())
            .unwrap_or_default();
        lat.sort_unstable();

        let errors = s.errors.lock().map(|e| e.clone()).unwrap_or_default();
        for (code, n) in &errors {
            // A move on its way as the round's time ran out meets a game already
            // adjudicated: a race of the deadline, not a fault of either side.
            if code == "game_over" && timed_out > 0 {
                continue;
            }
            failures.push(format!("{n} `{code}` refusals"));
        }
        for (what, n) in [
            ("player sockets dropped", s.dropped.load(Ordering::Relaxed)),
            ("games stalled", s.stalled.load(Ordering::Relaxed)),
            ("watchers dropped", w.dropped.load(Ordering::Relaxed)),
            (
                "version gaps on the watchers' sockets",
                w.version_gaps.load(Ordering::Relaxed),
            ),
            (
                "error frames or unreadable messages on the watchers' sockets",
                w.errors.load(Ordering::Relaxed),
            ),
            (
                "watchers that never saw the last round finish",
                w.behind.load(Ordering::Relaxed),
            ),
            (
                "(move, watcher) pairs without a board showing the move",
                w.uncovered.load(Ordering::Relaxed),
            ),
        ] {
            if n > 0 {
                failures.push(format!("{n} {what}"));
            }
        }

        let snapshot = outcome.finished.as_ref();
        let status = snapshot
            .and_then(|s| s["status"].as_str())
            .unwrap_or("unknown");
        if status != "finished" {
            failures.push(format!("the tournament is {status}, not finished"));
        }
        let sheets: Vec<&Value> = snapshot
            .and_then(|s| s["rounds"].as_array())
            .map(|rounds| {
                rounds
                    .iter()
                    .filter_map(|r| r["pairings"].as_array())
                    .flatten()
                    .filter_map(|p| p.get("sheet").filter(|s| !s.is_null()))
                    .collect()
            })
            .unwrap_or_default();
        let adjudicated = sheets
            .iter()
            .filter(|s| {
                s["first_result"]
                    .as_str()
                    .is_some_and(|r| r.starts_with("adjudicated"))
            })
            .count();
        let byes = sheets.iter().filter(|s| s["first_result"] == "bye").count();
        let standings: Vec<Value> = snapshot
            .and_then(|s| s["standings"].as_array())
            .map(|s| s.iter().take(5).cloned().collect())
            .unwrap_or_default();

        let cpu = outcome.cpu.map(|(a, b)| {
            let wall = b.at.duration_since(a.at).as_secs_f64().max(1e-9);
            let used = |x: Option<f64>, y: Option<f64>| x.zip(y).map(|(x, y)| y - x);
            let server = used(a.server, b.server);
            let me = used(a.me, b.me);
            let machine = a.machine.zip(b.machine).map(|((x, _), (y, _))| y - x);
            (wall, server, me, machine)
        });
        let server_cpu_s = cpu.and_then(|c| c.1);
        let per_move_us = server_cpu_s
            .filter(|_| moves > 0)
            .map(|c| c * 1e6 / moves as f64);
        let pct = |x: Option<f64>| {
            x.zip(cpu.map(|c| c.0))
                .map(|(x, wall)| format!("{:.0}%", x / wall * 100.0))
                .unwrap_or_else(|| "-".into())
        };
        let others = cpu.and_then(|(_, server, me, machine)| {
            machine.map(|m| (m - server.unwrap_or(0.0) - me.unwrap_or(0.0)).max(0.0))
        });

        let frames = w.frames_received.load(Ordering::Relaxed);
        let watchers = config.watchers.max(1) as f64;
        // What one frame to a watcher costs the server, everything it did over the play
        // counted (the players' games too): the figure the batching of boards moves.
        let per_frame_us = server_cpu_s
            .filter(|_| frames > 0)
            .map(|c| c * 1e6 / frames as f64);
        let b50 = us_ms(w.boards.percentile(50.0));
        let b99 = us_ms(w.boards.percentile(99.0));
        let bmax = us_ms(w.boards.max());

        let mut lines = vec![
            format!(
                "omweso tournament-sim: {} players, {}, {}{}; players {}; {} watchers; seed {seed}",
                config.players,
                config.system.name(),
                config.ruleset,
                config
                    .round_minutes
                    .map_or(String::new(), |m| format!(", rounds of {m} min")),
                if config.think_ms == 0 {
                    "move as soon as they may".to_owned()
                } else {
                    format!("wait {} ms before each action", config.think_ms)
                },
                config.watchers,
            ),
            format!(
                "  rounds       {} played in {secs:.1} s ({}){}",
                outcome.rounds.len(),
                outcome
                    .rounds
                    .iter()
                    .map(|r| format!("{:.1} s", r.seconds))
                    .collect::<Vec<_>>()
                    .join(", "),
                if timed_out > 0 {
                    format!("; {timed_out} ran out of time")
                } else {
                    String::new()
                }
            ),
            format!(
                "  pairing      {} ms per round (POST /rounds over HTTP)",
                outcome
                    .rounds
                    .iter()
                    .map(|r| format!("{:.1}", r.pair_ms))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            format!(
                "  games        {games} played ({replays} replays of annulled games), {adjudicated} adjudicated, {byes} byes"
            ),
            format!(
                "  moves        {moves} whole moves, {moves_per_s:.0}/s; {actions} actions (moves and decisions)"
            ),
            format!(
                "  move latency p50 {}  p99 {}  max {}  ({} samples; action sent -> the opponent has its played)",
                ms(percentile(&lat, 50.0)),
                ms(percentile(&lat, 99.0)),
                ms(lat.last().map(|&m| f64::from(m) / 1000.0)),
                lat.len()
            ),
        ];
        if config.watchers > 0 {
            lines.push(format!(
                "  boards       p50 {}  p99 {}  max {}  over {} (move, watcher) pairs (ack -> the watcher's first board at that version; within 1.6%)",
                ms(b50),
                ms(b99),
                ms(bmax),
                w.pairs.load(Ordering::Relaxed),
            ));
            lines.push(format!(
                "  watchers     {} connected, {} dropped, {} version gaps; {} boards and {} events received; {} pairs uncovered, {} boards before the ack",
                config.watchers,
                w.dropped.load(Ordering::Relaxed),
                w.version_gaps.load(Ordering::Relaxed),
                w.boards_received.load(Ordering::Relaxed),
                w.events_received.load(Ordering::Relaxed),
                w.uncovered.load(Ordering::Relaxed),
                w.before_ack.load(Ordering::Relaxed),
            ));
            let bytes = w.bytes_received.load(Ordering::Relaxed);
            lines.push(format!(
                "  watcher data {:.2} MB per watcher on average ({:.1} MB in all)",
                bytes as f64 / watchers / 1e6,
                bytes as f64 / 1e6,
            ));
            lines.push(format!(
                "  frames       {:.0} per watcher ({} in all; {} of them `boards` messages), {:.0} bytes each on average; server cpu per watcher-frame {}",
                frames as f64 / watchers,
                frames,
                w.boards_frames.load(Ordering::Relaxed),
                bytes as f64 / (frames.max(1)) as f64,
                per_frame_us.map_or("-".into(), |us| format!("{us:.2} µs")),
            ));
        }
        match cpu {
            Some((_, Some(server), me, _)) => lines.push(format!(
                "  server cpu   {server:.2} s over the play ({} of a core) = {} per whole move; sim {}, other processes {}; peak RSS {}",
                pct(Some(server)),
                per_move_us.map_or("-".into(), |us| format!("{us:.0} µs")),
                pct(me),
                pct(others),
                outcome
                    .peak_rss_kib
                    .map_or("-".into(), |k| format!("{:.1} MiB", k as f64 / 1024.0)),
            )),
            _ => lines.push("  server cpu   not measured (use --spawn-server)".into()),
        }
        lines.push(format!(
            "  standings    the tournament is {status}; top {}:",
            standings.len()
        ));
        for line in &standings {
            lines.push(format!(
                "    {:>3}. {:<12} {:>5} points  Buchholz {}",
                line["rank"],
                line["name"].as_str().unwrap_or("?"),
                line["points"],
                line["buchholz"],
            ));
        }
        lines.push(format!(
            "  errors       {}",
            if errors.is_empty() {
                "0".to_owned()
            } else {
                errors
                    .iter()
                    .map(|(k, v)| format!("{k}: {v}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        ));

        let json = json!({
            "players": config.players,
            "system": config.system.name(),
            "ruleset": config.ruleset,
            "think_ms": config.think_ms,
            "watchers": config.watchers,
            "seed": seed,
            "status": status,
            "rounds": outcome.rounds.len(),
            "round_seconds": outcome.rounds.iter().map(|r| r.seconds).collect::<Vec<_>>(),
            "pair_ms": outcome.rounds.iter().map(|r| r.pair_ms).collect::<Vec<_>>(),
            "rounds_timed_out": timed_out,
            "games": games,
            "replays": replays,
            "adjudicated": adjudicated,
            "play_s": secs,
            "moves": moves,
            "actions": actions,
            "moves_per_s": moves_per_s,
            "move_latency_ms": {
                "p50": percentile(&lat, 50.0),
                "p99": percentile(&lat, 99.0),
                "samples": lat.len(),
            },
            "board_latency_ms": {
                "p50": b50, "p99": b99, "max": bmax,
                "pairs": w.pairs.load(Ordering::Relaxed),
                "uncovered": w.uncovered.load(Ordering::Relaxed),
                "before_ack": w.before_ack.load(Ordering::Relaxed),
            },
            "watchers_dropped": w.dropped.load(Ordering::Relaxed),
            "watcher_version_gaps": w.version_gaps.load(Ordering::Relaxed),
            "boards_received": w.boards_received.load(Ordering::Relaxed),
            "watcher_frames": frames,
            "watcher_boards_frames": w.boards_frames.load(Ordering::Relaxed),
            "watcher_bytes": w.bytes_received.load(Ordering::Relaxed),
            "server": {
                "cpu_s": server_cpu_s,
                "cpu_us_per_move": per_move_us,
                "cpu_us_per_watcher_frame": per_frame_us,
                "peak_rss_kib": outcome.peak_rss_kib,
            },
            "sim_cpu_s": cpu.and_then(|c| c.2),
            "other_cpu_s": others,
            "standings": standings,
            "errors": errors,
            "failures": failures,
        });
        Report {
            lines,
            json,
            failures,
        }
    }

    pub(crate) fn text(&self) -> String {
        self.lines.join("\n")
    }
}
