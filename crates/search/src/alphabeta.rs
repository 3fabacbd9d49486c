//! Alpha-beta negamax over whole moves, with iterative deepening, a transposition table,
//! principal-variation (null-window) search and move ordering by the table's move, then
//! wins, then the static evaluation of the position each move leads to.
//!
//! Scores are integers in hundredths of a seed ([`crate::eval`]) from the point of view
//! of the side to move; a won game is `WIN - ply` (sooner is better), a lost one the
//! negative, and an annulled game (a never-ending turn, or one past the sowing budget)
//! or an Oware draw is 0: the search plays into an annulment only when it is losing,
//! and away from one when it is winning. A position repeated on the line searched is
//! scored 0 too (an endless cycle settles nothing).
//!
//! The search is bounded by depth, by nodes (positions visited; reproducible), by a
//! deadline and by the caller's stop flag, checked every [`CHECK_EVERY`] nodes. The first
//! iteration (depth 1) always completes, so a legal move is always found.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use omweso_rules::{Game, GameMove, Outcome, Side};
use rand::{rngs::SmallRng, Rng, SeedableRng};

use crate::children::{children, mover, Child};
use crate::eval::{evaluate, scale};
use crate::tt::{key, mix, Bound, Entry, Table};

/// A won game, less the plies it takes.
pub const WIN: i32 = 1_000_000;
const INF: i32 = WIN + 1;
/// Scores this close to [`WIN`] are proven results.
pub const PROVEN: i32 = WIN - 10_000;
/// The deepest line searched (iterative deepening stops there).
pub const MAX_DEPTH: u32 = 64;
/// Nodes between two looks at the clock and the stop flag.
pub const CHECK_EVERY: u64 = 1024;

/// How one search is bounded and weakened.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// The deepest iteration, in whole moves.
    pub max_depth: u32,
    /// Positions the search may visit (`u64::MAX`: no bound).
    pub nodes: u64,
    pub deadline: Option<Instant>,
    /// Leaf evaluations get a pseudo-random term in `-noise..=noise` (hundredths of a
    /// seed), fixed by the seed and the position: it breaks ties differently for each
    /// seed (so that games between two bots differ) and, when large, weakens the play.
    pub noise: i32,
    /// When set, the last iteration scores every root move exactly and the move is drawn
    /// with probability proportional to `exp(score / temperature)` (hundredths of a
    /// seed): a weak player that mostly plays good moves and sometimes blunders.
    pub temperature: Option<f64>,
    /// Transposition table slots.
    pub table: usize,
}

/// What a search found, in engine units.
#[derive(Clone, Debug)]
pub struct Searched {
    pub mv: GameMove,
    /// For the side that moves, in [-1, 1].
    pub score: f64,
    /// The same in engine units (hundredths of a seed; a proven win is near [`WIN`]):
    /// the free setup's search compares positions by it, which `score`'s `tanh` would
    /// flatten. (0 from Monte Carlo tree search, which has win rates only.)
    pub value: i32,
    pub depth: u32,
    pub nodes: u64,
    pub pv: Vec<GameMove>,
}

/// Searches `game` for `side` (who may move in it, and has at least one legal move).
#[must_use]
pub fn search(
    game: &Game,
    side: Side,
    budget: Option<u64>,
    settings: &Settings,
    seed: u64,
    stop: &AtomicBool,
) -> Option<Searched> {
    let mut searcher = Searcher {
        budget,
        settings,
        noise_key: mix(seed ^ 0x6E6F_6973_6500_0000),
        stop,
        table: Table::new(settings.table),
        nodes: 0,
        aborted: false,
        protected: true,
        kids: Vec::new(),
        orders: Vec::new(),
        path: Vec::new(),
    };
    searcher.run(game, side, seed)
}

struct Searcher<'a> {
    budget: Option<u64>,
    settings: &'a Settings,
    noise_key: u64,
    stop: &'a AtomicBool,
    table: Table,
    nodes: u64,
    /// A limit was reached: every score from now on is meaningless.
    aborted: bool,
    /// The first iteration runs whatever the limits, so a move is always found.
    protected: bool,
    /// Per ply, the children of the node being searched there (kept to reuse their
    /// allocations).
    kids: Vec<Vec<Child>>,
    orders: Vec<Vec<(i32, u16)>>,
    /// Keys of the positions on the line being searched, root first.
    path: Vec<u64>,
}

/// One root move and its last score.
#[derive(Clone, Copy, Debug)]
struct RootMove {
    index: usize,
    score: i32,
}

impl Searcher<'_> {
    fn run(&mut self, game: &Game, side: Side, seed: u64) -> Option<Searched> {
        let mut root = Vec::new();
        children(game, side, self.budget, &mut root);
        if root.is_empty() {
            return None;
        }
        let root_key = key(game, side);
        // Order the first iteration as interior nodes are ordered.
        let mut moves: Vec<RootMove> = root
            .iter()
            .enumerate()
            .map(|(index, child)| RootMove {
                index,
                score: self.order_score(child, side),
            })
            .collect();
        moves.sort_by_key(|m| std::cmp::Reverse(m.score));
        let mut completed: Option<(u32, Vec<RootMove>)> = None;
        let max_depth = self.settings.max_depth.clamp(1, MAX_DEPTH);
        for depth in 1..=max_depth {
            let exact = self.settings.temperature.is_some();
            let (scored, finished) =
                self.root_iteration(side, root_key, &root, &moves, depth, exact);
            self.protected = false;
            if finished {
                moves = scored;
                completed = Some((depth, moves.clone()));
                let best = moves[0].score;
                if best.abs() >= PROVEN || moves.len() == 1 {
                    break;
                }
            } else {
                // A partial iteration searched the previous best move first: a move that
                // beat it is better by a deeper search, so it is kept (not with the
                // softmax, which needs every move's score).
                if !exact {
                    if let (Some(first), Some((_, previous))) = (scored.first(), &mut completed) {
                        if first.index != previous[0].index && scored.len() > 1 {
                            let index = first.index;
                            if let Some(pos) = previous.iter().position(|m| m.index == index) {
                                let mut promoted = previous.remove(pos);
                                promoted.score = first.score;
                                previous.insert(0, promoted);
                            }
                        }
                    }
                }
                break;
            }
            if self.limits_reached() {
                break;
            }
        }
        let (depth, moves) = completed?;
        let pick = match self.settings.temperature {
            Some(t) if t > 0.0 && moves.len() > 1 => softmax_pick(&moves, t, seed),
            _ => 0,
        };
        let chosen = moves[pick];
        let child = &root[chosen.index];
        let mut pv = vec![child.mv.clone()];
        if child.outcome.is_none() {
            self.principal_line(&child.game, depth.saturating_sub(1), &mut pv);
        }
        Some(Searched {
            mv: child.mv.clone(),
            score: to_unit(chosen.score, scale(game)),
            value: chosen.score,
            depth,
            nodes: self.nodes,
            pv,
        })
    }

    /// One iteration at the root: every root move, best-first as last time, searched to
    /// `depth`. Returns the moves sorted by their new scores (those searched before a
    /// limit stopped the iteration, when it did) and whether the iteration finished.
    #[allow(clippy::too_many_arguments)]
    fn root_iteration(
        &mut self,
        side: Side,
        root_key: u64,
        root: &[Child],
        moves: &[RootMove],
        depth: u32,
        exact: bool,
    ) -> (Vec<RootMove>, bool) {
        let depth = depth as i32;
        let mut alpha = -INF;
        let mut scored: Vec<RootMove> = Vec::with_capacity(moves.len());
        self.path.clear();
        self.path.push(root_key);
        for (n, m) in moves.iter().enumerate() {
            let child = &root[m.index];
            let score = match child.outcome {
                Some(outcome) => terminal(outcome, side, 1),
                None if exact || n == 0 => self.child_value(child, side, depth - 1, 1, -INF, INF),
                None => {
                    let v = self.child_value(child, side, depth - 1, 1, alpha, alpha + 1);
                    if v > alpha && !self.aborted {
                        self.child_value(child, side, depth - 1, 1, alpha, INF)
                    } else {
                        v
                    }
                }
            };
            if self.aborted {
                scored.sort_by_key(|m: &RootMove| std::cmp::Reverse(m.score));
                return (scored, false);
            }
            // A move that failed low keeps its bound (at most alpha): it sorts after the
            // best, and a stable sort keeps the earlier of equal scores first.
            alpha = alpha.max(score);
            scored.push(RootMove {
                index: m.index,
                score,
            });
        }
        scored.sort_by_key(|m| std::cmp::Reverse(m.score));
        let best = scored[0];
        self.table.store(Entry {
            key: root_key,
            score: best.score,
            depth: depth as i16,
            bound: Bound::Exact,
            best: best.index as u16,
        });
        (scored, true)
    }

    /// The value for `side` of the position `child` leads to, searched to `depth`.
    fn child_value(
        &mut self,
        child: &Child,
        side: Side,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let next = mover(&child.game).unwrap_or(side.other());
        let game = child.game;
        if next == side {
            // Only in Mweiso's opening could one player move twice running; kept general.
            self.negamax(&game, next, depth, ply, alpha, beta)
        } else {
            -self.negamax(&game, next, depth, ply, -beta, -alpha)
        }
    }

    fn limits_reached(&self) -> bool {
        if self.protected {
            return false;
        }
        self.nodes >= self.settings.nodes
            || self.stop.load(Ordering::Relaxed)
            || self.settings.deadline.is_some_and(|d| Instant::now() >= d)
    }

    fn negamax(
        &mut self,
        game: &Game,
        side: Side,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.nodes += 1;
        if !self.protected
            && (self.nodes >= self.settings.nodes
                || (self.nodes % CHECK_EVERY == 0 && self.limits_reached()))
        {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        let key = key(game, side);
        if self.path.contains(&key) {
            return 0;
        }
        if depth <= 0 {
            return self.leaf(game, side, key);
        }
        let mut table_move = None;
        if let Some(entry) = self.table.probe(key) {
            if entry.best != u16::MAX {
                table_move = Some(entry.best);
            }
            if i32::from(entry.depth) >= depth {
                let score = from_table(entry.score, ply);
                match entry.bound {
                    Bound::Exact => return score,
                    Bound::Lower if score >= beta => return score,
                    Bound::Upper if score <= alpha => return score,
                    _ => {}
                }
            }
        }
        while self.kids.len() <= ply {
            self.kids.push(Vec::new());
            self.orders.push(Vec::new());
        }
        let mut kids = std::mem::take(&mut self.kids[ply]);
        let mut order = std::mem::take(&mut self.orders[ply]);
        kids.clear();
        order.clear();
        children(game, side, self.budget, &mut kids);
        if kids.is_empty() {
            // No legal move and no outcome reported: a player who cannot move has lost.
            self.kids[ply] = kids;
            self.orders[ply] = order;
            return -(WIN - ply as i32);
        }
        for (i, child) in kids.iter().enumerate() {
            let score = if table_move == Some(i as u16) {
                INF
            } else if depth >= 2 {
                self.order_score(child, side)
            } else {
                quick_order(child, side)
            };
            order.push((score, i as u16));
        }
        order.sort_by_key(|o| std::cmp::Reverse(o.0));
        self.path.push(key);
        let alpha_before = alpha;
        let mut best = -INF;
        let mut best_index = order[0].1;
        for (n, &(_, i)) in order.iter().enumerate() {
            let child = &kids[usize::from(i)];
            let value = match child.outcome {
                Some(outcome) => terminal(outcome, side, ply + 1),
                None if n == 0 => self.child_value(child, side, depth - 1, ply + 1, alpha, beta),
                None => {
                    let v = self.child_value(child, side, depth - 1, ply + 1, alpha, alpha + 1);
                    if v > alpha && v < beta && !self.aborted {
                        self.child_value(child, side, depth - 1, ply + 1, alpha, beta)
                    } else {
                        v
                    }
                }
            };
            if self.aborted {
                break;
            }
            if value > best {
                best = value;
                best_index = i;
            }
            alpha = alpha.max(value);
            if alpha >= beta {
                break;
            }
        }
        self.path.pop();
        self.kids[ply] = kids;
        self.orders[ply] = order;
        if self.aborted {
            return 0;
        }
        let bound = if best <= alpha_before {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table.store(Entry {
            key,
            score: to_table(best, ply),
            depth: depth as i16,
            bound,
            best: best_index,
        });
        best
    }

    fn leaf(&self, game: &Game, side: Side, key: u64) -> i32 {
        evaluate(game, side) + self.noise(key)
    }

    fn noise(&self, key: u64) -> i32 {
        let amplitude = self.settings.noise;
        if amplitude <= 0 {
            return 0;
        }
        let span = 2 * amplitude as u64 + 1;
        (mix(key ^ self.noise_key) % span) as i32 - amplitude
    }

    /// How promising a move looks before it is searched, for `side` who plays it: a win
    /// first, a loss last, otherwise the static value of where it leads.
    fn order_score(&self, child: &Child, side: Side) -> i32 {
        match child.outcome {
            Some(outcome) => terminal(outcome, side, 0),
            None => {
                let next = mover(&child.game).unwrap_or(side.other());
                let value = evaluate(&child.game, next);
                if next == side {
                    value
                } else {
                    -value
                }
            }
        }
    }

    /// The line the table remembers after `game`, up to `depth` more moves.
    fn principal_line(&self, game: &Game, depth: u32, pv: &mut Vec<GameMove>) {
        let mut game = *game;
        let mut seen = Vec::new();
        for _ in 0..depth {
            let Some(side) = mover(&game) else { return };
            let k = key(&game, side);
            if seen.contains(&k) {
                return;
            }
            seen.push(k);
            let Some(entry) = self.table.probe(k) else {
                return;
            };
            if entry.best == u16::MAX {
                return;
            }
            let mut kids = Vec::new();
            children(&game, side, self.budget, &mut kids);
            let Some(child) = kids.into_iter().nth(usize::from(entry.best)) else {
                return;
            };
            pv.push(child.mv);
            if child.outcome.is_some() {
                return;
            }
            game = child.game;
        }
    }
}

/// The cheap order at the last ply: captures first (their leaves are evaluated anyway).
fn quick_order(child: &Child, side: Side) -> i32 {
    match child.outcome {
        Some(outcome) => terminal(outcome, side, 0),
        None => child.captured as i32,
    }
}

/// The value of a finished game for `side`, `ply` moves from the root.
fn terminal(outcome: Outcome, side: Side, ply: usize) -> i32 {
    match outcome {
        Outcome::Win { winner, .. } if winner == side => WIN - ply as i32,
        Outcome::Win { .. } => -(WIN - ply as i32),
        Outcome::Draw | Outcome::Annulled { .. } => 0,
    }
}

/// Proven results are stored relative to the node, so they read right from any ply.
fn to_table(score: i32, ply: usize) -> i32 {
    if score >= PROVEN {
        score + ply as i32
    } else if score <= -PROVEN {
        score - ply as i32
    } else {
        score
    }
}

fn from_table(score: i32, ply: usize) -> i32 {
    if score >= PROVEN {
        score - ply as i32
    } else if score <= -PROVEN {
        score + ply as i32
    } else {
        score
    }
}

/// An engine score as the answer's [-1, 1]: exactly 1 or -1 for a proven win or loss,
/// otherwise `tanh(score / scale)`, kept inside (-1, 1).
#[must_use]
pub fn to_unit(score: i32, scale: f64) -> f64 {
    if score >= PROVEN {
        1.0
    } else if score <= -PROVEN {
        -1.0
    } else {
        (f64::from(score) / scale).tanh().clamp(-0.999, 0.999)
    }
}

/// Draws a root move with probability proportional to `exp(score / temperature)`.
fn softmax_pick(moves: &[RootMove], temperature: f64, seed: u64) -> usize {
    let best = f64::from(moves[0].score);
    let weights: Vec<f64> = moves
        .iter()
        .map(|m| ((f64::from(m.score) - best) / temperature).exp())
        .collect();
    let total: f64 = weights.iter().sum();
    let mut rng = SmallRng::seed_from_u64(mix(seed ^ 0x736F_6674_6D61_7800));
    let mut draw = rng.random_range(0.0..total);
    for (i, w) in weights.iter().enumerate() {
        if draw < *w {
            return i;
        }
        draw -= w;
    }
    0
}
