//! What a search is asked, and what it answers.

use omweso_rules::{Game, GameMove, Side};

use crate::Level;

/// How much a search may think.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// One of the eight fixed strengths (reproducible: bounded by work, not time).
    Level(Level),
    /// Wall-clock time, for analysis (`bestmove`'s `millis`); not reproducible.
    Millis(u64),
    /// A number of nodes (reproducible), for tests and `omweso arena`.
    Nodes(u64),
}

/// A search's question: the move `side` should play in `game`.
#[derive(Clone, Copy, Debug)]
pub struct Query {
    pub game: Game,
    /// Who plays: the side to move, or either player during Mweiso's opening.
    pub side: Side,
    /// The sowing budget each explored move is played under (docs/rules.md#14-never-ending-turns; the server's
    /// 720 by default). A move that exhausts it annuls the game.
    pub max_seeds: Option<u64>,
    pub limit: Limit,
    /// The seed of every random choice the search makes: the same query and seed give
    /// the same answer (unless `limit` is [`Limit::Millis`]).
    pub seed: u64,
}

/// A search's answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    /// A legal whole move of the query's side, decision answers included.
    pub mv: GameMove,
    /// The evaluation for the query's side, in [-1, 1]: 1 a win, -1 a loss.
    pub score: f64,
    /// The depth of the deepest completed search, in whole moves.
    pub depth: u32,
    /// Positions visited.
    pub nodes: u64,
    /// The principal line, `mv` first.
    pub pv: Vec<GameMove>,
}

/// Why a query has no answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    #[error("the game is over in this position")]
    GameOver,
    #[error("{} has no legal move in this position", .side.name())]
    NoLegalMove { side: Side },
    #[error("it is not {}'s turn in this position", .side.name())]
    NotToMove { side: Side },
    #[error("a time limit of {millis} ms is over the 60000 ms allowed")]
    TooLong { millis: u64 },
}
