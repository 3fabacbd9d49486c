//! One board type for the server over the engine's two: the 4x8 board (Omweso, Mweiso)
//! and Oware's.

use omweso_rules::{oware, Outcome, Position, Side, ToMove};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameBoard {
    FourByEight(Position),
    Oware(oware::Position),
}

impl GameBoard {
    /// The position string (RULES.md 0.2).
    #[must_use]
    pub fn notation(&self) -> String {
        match self {
            GameBoard::FourByEight(p) => p.to_string(),
            GameBoard::Oware(p) => p.to_string(),
        }
    }

    /// The one side to move, or `None` while both owe Mweiso's opening.
    #[must_use]
    pub fn to_move(&self) -> Option<Side> {
        match self {
            GameBoard::FourByEight(p) => p.to_move().single(),
            GameBoard::Oware(p) => Some(p.to_move()),
        }
    }

    /// May `side` play a turn now (ignoring the referee)?
    #[must_use]
    pub fn may_move(&self, side: Side) -> bool {
        match self {
            GameBoard::FourByEight(p) => p.to_move().may_move(side),
            GameBoard::Oware(p) => p.to_move() == side,
        }
    }

    /// Is this Mweiso's opening phase?
    #[must_use]
    pub fn is_opening(&self) -> bool {
        matches!(self, GameBoard::FourByEight(p) if p.to_move().is_opening())
    }

    /// Who still owes their Mweiso opening turn.
    #[must_use]
    pub fn opening_owed(&self) -> Vec<Side> {
        match self {
            GameBoard::FourByEight(p) => match p.to_move() {
                ToMove::Opening(_) => Side::ALL
                    .into_iter()
                    .filter(|&s| p.to_move().may_move(s))
                    .collect(),
                ToMove::Side(_) => Vec::new(),
            },
            GameBoard::Oware(_) => Vec::new(),
        }
    }

    /// The game's result in this position, if it is already over.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        match self {
            GameBoard::FourByEight(p) => p.outcome(),
            GameBoard::Oware(p) => p.outcome(),
        }
    }

    /// The same board with `side` to move (the referee's steal).
    #[must_use]
    pub fn with_side_to_move(&self, side: Side) -> GameBoard {
        match self {
            GameBoard::FourByEight(p) => GameBoard::FourByEight(p.with_side_to_move(side)),
            GameBoard::Oware(p) => GameBoard::Oware(p.with_side_to_move(side)),
        }
    }
}
