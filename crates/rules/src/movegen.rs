//! Whole-move enumeration: every start, and at every decision point every answer.

use crate::{Answers, Move, Pit, Position, Progress, Side, Turn, TurnResult};

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
        });
    }

    /// Appends every legal whole move of `side` to `moves` without building their results:
    /// the fast path for a bot that then plays one of them ([`Position::play_unchecked`]).
    pub fn legal_moves_into(&self, side: Side, budget: Option<u64>, moves: &mut Vec<Move>) {
        self.walk_moves(side, budget, |mv, _| moves.push(mv.clone()));
    }

    /// Calls `f` with every legal whole move and its finished turn, whose
    /// [`Turn::result`] gives the position after it. Cheaper than
    /// [`Position::for_each_move`] when only some results are wanted (a bot sampling one
    /// move, say): building a result costs about as much as a lap.
    pub fn for_each_turn<F: FnMut(&Move, &Turn)>(&self, side: Side, budget: Option<u64>, f: F) {
        self.walk_moves(side, budget, f);
    }

    fn walk_moves<F: FnMut(&Move, &Turn)>(&self, side: Side, budget: Option<u64>, mut f: F) {
        let mut branches: Vec<(Turn, usize, crate::Answer)> = Vec::new();
        for (index, direction) in self.starts(side) {
            let mut mv = Move {
                start: Pit::from_index(side, index),
                direction,
                answers: Answers::new(),
            };
            let mut turn = Turn::new_unchecked(self, side, index, direction, budget);
            explore(&mut turn, &mut mv, &mut branches, &mut f);
            while let Some((mut turn, depth, answer)) = branches.pop() {
                mv.answers.truncate(depth);
                mv.answers.push(answer);
                explore(&mut turn, &mut mv, &mut branches, &mut f);
            }
        }
    }
}

/// Runs `turn` to its end, taking the first answer at each decision point and leaving the
/// others on `branches`.
#[inline]
fn explore<F: FnMut(&Move, &Turn)>(
    turn: &mut Turn,
    mv: &mut Move,
    branches: &mut Vec<(Turn, usize, crate::Answer)>,
    f: &mut F,
) {
    loop {
        match turn.run(&mut ()) {
            Progress::Done(_) => {
                f(mv, turn);
                return;
            }
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
