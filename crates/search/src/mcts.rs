//! Monte Carlo tree search (UCT with uniformly random playouts), kept as the yardstick the
//! alpha-beta search was measured against at equal time (docs/bots.md; `omweso arena`
//! plays it as `mcts:MS`). It is not what [`crate::best_move`] uses.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use omweso_rules::{Game, Outcome, Side, Turn};
use rand::{rngs::SmallRng, Rng, SeedableRng};

use crate::alphabeta::Searched;
use crate::children::{children, mover, Child};
use crate::eval::{evaluate, scale};
use crate::tt::mix;

/// The exploration constant of UCT (results are in [0, 1]).
const EXPLORATION: f64 = 1.0;
/// A playout still going after this many moves is scored by the static evaluation.
const PLAYOUT_PLIES: u32 = 200;

struct Node {
    game: Game,
    /// Who moves here (`None` once the game is over).
    to_move: Option<Side>,
    /// The player whose move led here: results are counted for them.
    by: Side,
    outcome: Option<Outcome>,
    /// The moves not yet in the tree, and those that are (node ids).
    untried: Vec<Child>,
    kids: Vec<(u32, omweso_rules::GameMove)>,
    visits: f64,
    /// Sum of results for `by`, each 1 a win, 0.5 a draw or annulment, 0 a loss.
    wins: f64,
}

/// The move MCTS plays for `side` in `game` within `deadline` (or until `stop`), with at
/// least one playout per root move.
#[must_use]
pub fn mcts(
    game: &Game,
    side: Side,
    budget: Option<u64>,
    deadline: Instant,
    seed: u64,
    stop: &AtomicBool,
) -> Option<Searched> {
    let mut rng = SmallRng::seed_from_u64(mix(seed ^ 0x6D63_7473));
    let mut untried = Vec::new();
    children(game, side, budget, &mut untried);
    if untried.is_empty() {
        return None;
    }
    let root_moves = untried.len();
    let mut nodes = vec![Node {
        game: *game,
        to_move: Some(side),
        by: side.other(),
        outcome: None,
        untried,
        kids: Vec::new(),
        visits: 0.0,
        wins: 0.0,
    }];
    let mut playouts = 0u64;
    let mut path = Vec::new();
    loop {
        if playouts >= root_moves as u64
            && (Instant::now() >= deadline || stop.load(Ordering::Relaxed))
        {
            break;
        }
        playouts += 1;
        path.clear();
        let mut id = 0usize;
        path.push(id);
        // Selection: down through fully expanded nodes.
        while nodes[id].outcome.is_none()
            && nodes[id].untried.is_empty()
            && !nodes[id].kids.is_empty()
        {
            let parent_visits = nodes[id].visits.max(1.0).ln();
            let mut best = (f64::NEG_INFINITY, 0usize);
            for &(kid, _) in &nodes[id].kids {
                let k = &nodes[kid as usize];
                let uct = k.wins / k.visits + EXPLORATION * (parent_visits / k.visits).sqrt();
                if uct > best.0 {
                    best = (uct, kid as usize);
                }
            }
            id = best.1;
            path.push(id);
        }
        // Expansion: one untried move, drawn at random.
        if nodes[id].outcome.is_none() && !nodes[id].untried.is_empty() {
            let pick = rng.random_range(0..nodes[id].untried.len());
            let child = nodes[id].untried.swap_remove(pick);
            let by = nodes[id].to_move.unwrap_or(side);
            let to_move = if child.outcome.is_some() {
                None
            } else {
                mover(&child.game)
            };
            let mut untried = Vec::new();
            if let Some(next) = to_move {
                children(&child.game, next, budget, &mut untried);
            }
            let new_id = nodes.len();
            nodes.push(Node {
                game: child.game,
                to_move,
                by,
                outcome: child.outcome,
                untried,
                kids: Vec::new(),
                visits: 0.0,
                wins: 0.0,
            });
            nodes[id].kids.push((new_id as u32, child.mv));
            id = new_id;
            path.push(id);
        }
        // Simulation: the result for South.
        let south = match (nodes[id].outcome, nodes[id].to_move) {
            (Some(outcome), _) => result_for_south(outcome),
            (None, Some(next)) => playout(nodes[id].game, next, budget, &mut rng),
            (None, None) => 0.5,
        };
        for &n in &path {
            let node = &mut nodes[n];
            node.visits += 1.0;
            node.wins += if node.by == Side::South {
                south
            } else {
                1.0 - south
            };
        }
    }
    let root = &nodes[0];
    let &(best, ref mv) = root.kids.iter().max_by(|a, b| {
        nodes[a.0 as usize]
            .visits
            .total_cmp(&nodes[b.0 as usize].visits)
    })?;
    let node = &nodes[best as usize];
    let value = node.wins / node.visits;
    Some(Searched {
        mv: mv.clone(),
        score: (2.0 * value - 1.0).clamp(-1.0, 1.0),
        // A win rate has no value in seeds.
        value: 0,
        depth: 1,
        nodes: playouts,
        pv: vec![mv.clone()],
    })
}

fn result_for_south(outcome: Outcome) -> f64 {
    match outcome.winner() {
        Some(Side::South) => 1.0,
        Some(Side::North) => 0.0,
        None => 0.5,
    }
}

/// Plays uniformly random whole moves from `game` (`side` to move) to the end, or for
/// [`PLAYOUT_PLIES`] moves and then judges by the static evaluation; the result for South.
fn playout(mut game: Game, mut side: Side, budget: Option<u64>, rng: &mut SmallRng) -> f64 {
    for _ in 0..PLAYOUT_PLIES {
        let (next, outcome) = match game {
            Game::Omweso(p) | Game::Mweiso(p) => {
                // Reservoir sampling over the enumerated turns: no move list is built.
                let mut seen = 0u32;
                let mut picked: Option<Turn> = None;
                p.for_each_turn(side, budget, |_, turn| {
                    seen += 1;
                    if rng.random_range(0..seen) == 0 {
                        picked = Some(turn.clone());
                    }
                });
                let Some(result) = picked.and_then(|t| t.result()) else {
                    return if side == Side::South { 0.0 } else { 1.0 };
                };
                (Game::from(result.position), result.outcome)
            }
            Game::Oware(p) => {
                let mut moves = p.moves();
                let count = moves.len();
                let Some(house) = moves.nth(rng.random_range(0..count.max(1))) else {
                    return p.outcome().map_or(0.5, result_for_south);
                };
                let result = p.play_unchecked(house, budget);
                (Game::Oware(result.position), result.outcome)
            }
        };
        if let Some(outcome) = outcome {
            return result_for_south(outcome);
        }
        game = next;
        side = match mover(&game) {
            Some(s) => s,
            None => return 0.5,
        };
    }
    let value = f64::from(evaluate(&game, side)) / scale(&game);
    let for_mover = 0.5 + 0.5 * value.tanh();
    if side == Side::South {
        for_mover
    } else {
        1.0 - for_mover
    }
}
