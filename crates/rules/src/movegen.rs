//! Whole-move enumeration: every start, and at every decision point every answer.

use std::ops::ControlFlow;

use crate::{Answers, Move, Pit, Position, Progress, Side, Turn, TurnResult};

/// The legal moves of a side as [`Position::legal_moves_within`] found them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LegalMoves {
    /// Every legal whole move, with its answers at every decision point.
    Whole(Vec<Move>),
    /// Exploring every whole move would have cost more than the work allowed (decision
    /// points branch, so a long turn can have very many whole moves): every legal start
    /// instead, each without answers. Each is a legal move that stops at its first decision
    /// point, if it has one.
    Starts(Vec<Move>),
}

impl LegalMoves {
    /// The moves, whichever kind they are.
    #[must_use]
    pub fn moves(&self) -> &[Move] {
        match self {
            LegalMoves::Whole(moves) | LegalMoves::Starts(moves) => moves,
        }
    }
}

impl Position {
    /// Calls `f` with every legal whole move of `side` and its result, each explored under
    /// `budget`. Decision points branch: the turn is cloned (a few dozen bytes) and each
    /// answer explored in turn, depth first, on an explicit stack, so even a turn with
    /// thousands of decision points cannot overflow the call stack.
    ///
    /// Moves come in pit order, anticlockwise before clockwise, and at each decision point
    /// in the order of [`crate::Decision::options`]. Moves with at most 8 decision points
    /// do not allocate.
    pub fn for_each_move<F: FnMut(&Move, &TurnResult)>(
        &self,
        side: Side,
        budget: Option<u64>,
        mut f: F,
    ) {
        self.walk_moves(side, budget, |mv, turn| {
            f(mv, &turn.result().expect("the turn is done"));
            ControlFlow::Continue(())
        });
    }

    /// Appends every legal whole move of `side` to `moves` without building their results:
    /// the fast path for a bot that then plays one of them ([`Position::play_unchecked`]).
    pub fn legal_moves_into(&self, side: Side, budget: Option<u64>, moves: &mut Vec<Move>) {
        self.walk_moves(side, budget, |mv, _| {
            moves.push(mv.clone());
            ControlFlow::Continue(())
        });
    }

    /// Every legal whole move of `side`, each explored under `budget`, as long as the
    /// turns explored sow at most `work` seeds in all; past that, every legal start
    /// ([`LegalMoves::Starts`]). A server listing moves for its clients thus spends
    /// bounded time however many decision points a position's turns have. A finished
    /// turn's seeds count in full, the part it shares with other branches included.
    #[must_use]
    pub fn legal_moves_within(&self, side: Side, budget: Option<u64>, work: u64) -> LegalMoves {
        let mut moves = Vec::new();
        let mut sown = 0u64;
        let complete = self.walk_moves(side, budget, |mv, turn| {
            sown = sown.saturating_add(turn.seeds_sown());
            if sown > work {
                return ControlFlow::Break(());
            }
            moves.push(mv.clone());
            ControlFlow::Continue(())
        });
        if complete {
            return LegalMoves::Whole(moves);
        }
        let starts = self
            .starts(side)
            .map(|(index, direction)| Move {
                start: Pit::from_index(side, index),
                direction,
                answers: Answers::new(),
            })
            .collect();
        LegalMoves::Starts(starts)
    }

    /// Calls `f` with every legal whole move and its finished turn, whose
    /// [`Turn::result`] gives the position after it. Cheaper than
    /// [`Position::for_each_move`] when only some results are wanted (a bot sampling one
    /// move, say): building a result costs about as much as a lap.
    pub fn for_each_turn<F: FnMut(&Move, &Turn)>(&self, side: Side, budget: Option<u64>, mut f: F) {
        self.walk_moves(side, budget, |mv, turn| {
            f(mv, turn);
            ControlFlow::Continue(())
        });
    }

    /// Walks every whole move until `f` breaks; `true` if it walked them all.
    fn walk_moves<F: FnMut(&Move, &Turn) -> ControlFlow<()>>(
        &self,
        side: Side,
        budget: Option<u64>,
        mut f: F,
    ) -> bool {
        let mut branches: Vec<(Turn, usize, crate::Answer)> = Vec::new();
        for (index, direction) in self.starts(side) {
            let mut mv = Move {
                start: Pit::from_index(side, index),
                direction,
                answers: Answers::new(),
            };
            let mut turn = Turn::new_unchecked(self, side, index, direction, budget);
            if explore(&mut turn, &mut mv, &mut branches, &mut f).is_break() {
                return false;
            }
            while let Some((mut turn, depth, answer)) = branches.pop() {
                mv.answers.truncate(depth);
                mv.answers.push(answer);
                if explore(&mut turn, &mut mv, &mut branches, &mut f).is_break() {
                    return false;
                }
            }
        }
        true
    }
}

/// Runs `turn` to its end, taking the first answer at each decision point and leaving the
/// others on `branches`.
#[inline]
fn explore<F: FnMut(&Move, &Turn) -> ControlFlow<()>>(
    turn: &mut Turn,
    mv: &mut Move,
    branches: &mut Vec<(Turn, usize, crate::Answer)>,
    f: &mut F,
) -> ControlFlow<()> {
    loop {
        match turn.run(&mut ()) {
            Progress::Done(_) => return f(mv, turn),
            Progress::Decision(decision) => {
                let options = decision.options(turn.mover());
                let depth = mv.answers.len();
                for &answer in options.iter().skip(1).rev() {
                    let mut branch = turn.clone();
                    branch
                        .answer(answer)
                        .expect("an answer from the options is allowed");
                    branches.push((branch, depth, answer));
                }
                turn.answer(options[0])
                    .expect("an answer from the options is allowed");
                mv.answers.push(options[0]);
            }
        }
    }
}
