//! The search. (Scaffold: one ply, greedy on seeds; replaced by the real search.)

use std::sync::atomic::AtomicBool;

use omweso_rules::{Game, Outcome, Side};
use rand::{rngs::SmallRng, Rng, SeedableRng};

use crate::{Found, Limit, Query, SearchError};

/// The longest time limit accepted (ENGINE-CLI.md `bestmove`).
pub const MAX_MILLIS: u64 = 60_000;

/// The move `query.side` should play, searched within `query.limit` or until `stop` is
/// raised (then the best move found so far).
pub fn best_move(query: &Query, _stop: &AtomicBool) -> Result<Found, SearchError> {
    if let Limit::Millis(millis) = query.limit {
        if millis > MAX_MILLIS {
            return Err(SearchError::TooLong { millis });
        }
    }
    let game = query.game;
    let side = query.side;
    if game.outcome().is_some() {
        return Err(SearchError::GameOver);
    }
    if !game.may_move(side) {
        return Err(SearchError::NotToMove { side });
    }
    let moves = game.legal_moves(side, query.max_seeds);
    if moves.is_empty() {
        return Err(SearchError::NoLegalMove { side });
    }
    let mut rng = SmallRng::seed_from_u64(query.seed);
    let mut best: Option<(f64, usize)> = None;
    let mut nodes = 0;
    for (i, mv) in moves.iter().enumerate() {
        nodes += 1;
        let Ok(result) = game.play_as(side, mv, query.max_seeds) else {
            continue;
        };
        let score = match result.outcome {
            Some(Outcome::Win { winner, .. }) if winner == side => 1.0,
            Some(Outcome::Win { .. }) => -1.0,
            Some(_) => 0.0,
            None => material(&result.game, side),
        } + rng.random_range(0.0..1e-6);
        if best.is_none_or(|(b, _)| score > b) {
            best = Some((score, i));
        }
    }
    let (score, index) = best.ok_or(SearchError::NoLegalMove { side })?;
    let mv = moves[index].clone();
    Ok(Found {
        pv: vec![mv.clone()],
        mv,
        score: score.clamp(-1.0, 1.0),
        depth: 1,
        nodes,
    })
}

/// Seeds on `side`'s side (4x8) or captured (Oware), as a share in [-1, 1].
fn material(game: &Game, side: Side) -> f64 {
    match game {
        Game::Oware(p) => {
            let mine = f64::from(p.captured(side));
            let theirs = f64::from(p.captured(side.other()));
            (mine - theirs) / 48.0
        }
        Game::Omweso(p) | Game::Mweiso(p) => {
            let mine = f64::from(p.board().total(side));
            (mine - 32.0) / 32.0
        }
    }
}
