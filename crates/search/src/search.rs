//! The entry point: checks a query, turns its limit into search settings, and runs the
//! alpha-beta search ([`crate::alphabeta`]), the algorithm chosen by measurement over
//! Monte Carlo tree search ([`crate::mcts`]; docs/bots.md).

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::alphabeta::{search, Settings, MAX_DEPTH};
use crate::tt::{table_for, MAX_TABLE};
use crate::{Found, Limit, Query, SearchError};

/// The longest time limit accepted (docs/engine-cli.md `bestmove`).
pub const MAX_MILLIS: u64 = 60_000;

/// Ties between equal moves are broken by a leaf noise this small (hundredths of a seed)
/// under a time or node limit, so that games between two bots differ with the seed
/// without weakening the play.
const TIE_NOISE: i32 = 2;

/// The move `query.side` should play, searched within `query.limit` or until `stop` is
/// raised (then the best move found so far; a move is always found once the one-move
/// search completes, which the flag does not interrupt).
pub fn best_move(query: &Query, stop: &AtomicBool) -> Result<Found, SearchError> {
    check(query)?;
    let settings = settings(query);
    let searched = search(
        &query.game,
        query.side,
        query.max_seeds,
        &settings,
        query.seed,
        stop,
    )
    .ok_or(SearchError::NoLegalMove { side: query.side })?;
    Ok(Found {
        mv: searched.mv,
        score: searched.score,
        depth: searched.depth,
        nodes: searched.nodes,
        pv: searched.pv,
    })
}

/// Refuses what cannot be searched: a time limit over [`MAX_MILLIS`], a finished game, a
/// side that may not move.
pub(crate) fn check(query: &Query) -> Result<(), SearchError> {
    if let Limit::Millis(millis) = query.limit {
        if millis > MAX_MILLIS {
            return Err(SearchError::TooLong { millis });
        }
    }
    if query.game.outcome().is_some() {
        return Err(SearchError::GameOver);
    }
    if !query.game.may_move(query.side) {
        return Err(SearchError::NotToMove { side: query.side });
    }
    Ok(())
}

fn settings(query: &Query) -> Settings {
    match query.limit {
        Limit::Level(level) => level.settings(query.game.ruleset()),
        Limit::Millis(millis) => Settings {
            max_depth: MAX_DEPTH,
            nodes: u64::MAX,
            deadline: Some(Instant::now() + Duration::from_millis(millis)),
            noise: TIE_NOISE,
            temperature: None,
            table: MAX_TABLE,
        },
        Limit::Nodes(nodes) => Settings {
            max_depth: MAX_DEPTH,
            nodes,
            deadline: None,
            noise: TIE_NOISE,
            temperature: None,
            table: table_for(nodes),
        },
    }
}
