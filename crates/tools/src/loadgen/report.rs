//! The report of a load run: percentiles, the worst seconds, the server's CPU per move,
//! and the lines and JSON printed at the end.

use std::collections::BTreeMap;
use std::sync::atomic::Ordering;
use std::time::Duration;

use serde_json::{json, Value};

use super::LoadgenConfig;
use crate::harness::child;
use crate::harness::child::Cpu;
use crate::harness::stats::{Ctx, Stats};

/// What one game's turnover costs the server, measured before the run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Turnover {
    /// Games set up and closed.
    pub(crate) games: usize,
    /// Server CPU microseconds per game, the idle server's own use taken out.
    pub(crate) cpu_us_per_game: f64,
}

pub(super) struct Timings {
    /// When the measurement window started, since the Unix epoch (to match server logs).
    pub(super) window_start_unix: Duration,
    pub(super) setup: Duration,
    pub(super) window: Duration,
    pub(super) played: Duration,
}

pub(super) struct Report {
    pub(super) lines: Vec<String>,
    pub(super) json: Value,
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
pub(super) struct MoveCost {
    /// Server CPU microseconds per whole move, everything counted.
    pub(super) all_us: Option<f64>,
    /// Games set up in the window, and what the probe measured one to cost.
    pub(super) turnover_games: u64,
    pub(super) turnover: Option<Turnover>,
    /// Without the games' turnover: (CPU - games x cost of one) / moves.
    pub(super) without_turnover_us: Option<f64>,
    /// The turnover's share of the server's CPU in the window.
    pub(super) turnover_share: Option<f64>,
}

impl MoveCost {
    pub(super) fn of(
        server_s: f64,
        moves: u64,
        turnover: Option<Turnover>,
        stats: &Stats,
    ) -> MoveCost {
        let turnover_games = stats.games_started_in_window.load(Ordering::Relaxed);
        MoveCost::from_figures(server_s, moves, turnover_games, turnover)
    }

    pub(super) fn from_figures(
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

    pub(super) fn line(&self) -> String {
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

    pub(super) fn json(&self) -> Value {
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
pub(super) struct WorstSeconds {
    pub(super) seconds: usize,
    pub(super) worst_p99: Option<f64>,
    pub(super) worst_second: Option<u32>,
    pub(super) seconds_over_20ms: usize,
}

pub(super) fn worst_seconds(timed: &[(u32, u32)]) -> WorstSeconds {
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
pub(super) fn by_second(timed: &[(u32, u32)]) -> BTreeMap<u32, Vec<u32>> {
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
pub(super) fn timeline(timed: &[(u32, u32)]) -> Vec<String> {
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

pub(super) fn verdict(met: Option<bool>) -> &'static str {
    match met {
        Some(true) => "met",
        Some(false) => "MISSED",
        None => "not measured",
    }
}

impl Report {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn build(
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

    pub(super) fn text(&self) -> String {
        self.lines.join("\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    pub(super) fn percentiles_are_ranks_of_the_sorted_samples() {
        let us: Vec<u32> = (1..=200).map(|i| i * 1000).collect();
        assert_eq!(percentile(&us, 50.0), Some(100.0));
        assert_eq!(percentile(&us, 99.0), Some(198.0));
        assert_eq!(percentile(&us, 100.0), Some(200.0));
        assert_eq!(percentile(&us, 0.0), Some(1.0));
        assert_eq!(percentile(&[], 50.0), None);
    }

    #[test]
    pub(super) fn the_worst_second_is_the_one_with_the_highest_p99() {
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
    pub(super) fn cpu_per_move_takes_the_measured_turnover_out() {
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
    pub(super) fn the_timeline_has_a_line_per_second_in_order() {
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
