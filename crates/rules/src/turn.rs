//! A turn in progress: the stepwise interface the server drives, and the one loop every
//! other way of playing goes through.
//!
//! A turn is a chain of laps (docs/rules.md#12-a-turn). Before each lap the state is (board, lap
//! origin, seeds in hand, direction); the turn stops when that state repeats
//! (never-ending, see [`crate::never_ending`]) or when the lap would go past the sowing
//! budget. Where the rules give the player a choice the turn stops at a [`Decision`] and
//! waits for an [`Answer`].

use std::fmt;

use crate::board::{
    add_to_byte, byte, capture_at, captures_clockwise, clear_byte, column_of, sow, sowable_mask,
};
use crate::never_ending::{Anchor, Anchors};
use crate::notation::{list, Options};
use crate::{
    Answer, Board, Direction, Outcome, Pit, Position, Rules, Side, ToMove, Variant, Victory,
};

/// How a turn stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TurnEnd {
    /// The last seed fell into an empty pit: the turn is over.
    Ended,
    /// A state of the turn repeated: the turn would never end (the game is annulled).
    NeverEnding,
    /// The next lap would have gone past the sowing budget.
    Budget,
}

impl TurnEnd {
    /// As the engine CLI writes it: `ended`, `never-ending`, `budget`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            TurnEnd::Ended => "ended",
            TurnEnd::NeverEnding => "never-ending",
            TurnEnd::Budget => "budget",
        }
    }
}

impl fmt::Display for TurnEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A point where the turn waits for the player to choose.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Decision {
    /// Sow the next lap anticlockwise (`a`) or clockwise (`c`): captured seeds of a
    /// clockwise lap, or a relay at a reverse pit, where a clockwise lap captures directly.
    Direction,
    /// Mweiso's clockwise chain, after a clockwise capture: sow the captured seeds
    /// anticlockwise (`a`), leave them (`l`), or, when `clockwise`, sow them clockwise (`c`).
    Chain { clockwise: bool },
    /// Mweiso, after `l`: go on anticlockwise from one of these pits (a set of side
    /// indices, at least two).
    Pit { pits: u16 },
}

impl Decision {
    /// The answers the player may give, in notation order.
    #[must_use]
    pub fn options(self, mover: Side) -> Options {
        let mut options = Options::new();
        match self {
            Decision::Direction => {
                options.extend([Answer::Anticlockwise, Answer::Clockwise]);
            }
            Decision::Chain { clockwise } => {
                options.push(Answer::Anticlockwise);
                if clockwise {
                    options.push(Answer::Clockwise);
                }
                options.push(Answer::Leave);
            }
            Decision::Pit { pits } => {
                options.extend(
                    (0..16u8)
                        .filter(|i| pits & (1 << i) != 0)
                        .map(|i| Answer::Pit(Pit::from_index(mover, i))),
                );
            }
        }
        options
    }

    /// May `mover` give `answer` here?
    #[must_use]
    pub fn allows(self, mover: Side, answer: Answer) -> bool {
        match (self, answer) {
            (Decision::Direction, Answer::Anticlockwise | Answer::Clockwise) => true,
            (Decision::Chain { .. }, Answer::Anticlockwise | Answer::Leave) => true,
            (Decision::Chain { clockwise }, Answer::Clockwise) => clockwise,
            (Decision::Pit { pits }, Answer::Pit(pit)) => {
                pit.side() == mover && pits & (1 << pit.index()) != 0
            }
            _ => false,
        }
    }
}

/// Where a turn stands after [`Turn::run`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// Waiting for an answer.
    Decision(Decision),
    /// Over.
    Done(TurnEnd),
}

/// What happened where a lap's last seed fell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LapKind {
    /// It captured; the captured seeds are sown next, from the lap's origin.
    Capture,
    /// It fell into an occupied pit, whose seeds are sown next.
    Relay,
    /// It fell into an empty pit: the turn is over.
    End,
}

impl LapKind {
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            LapKind::Capture => "capture",
            LapKind::Relay => "relay",
            LapKind::End => "end",
        }
    }
}

/// One lap of a turn: enough for a client to animate it seed by seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Lap {
    /// The lap's origin: the first seed goes into the pit after it.
    pub from: Pit,
    pub direction: Direction,
    pub seeds: u8,
    /// Where the last seed fell.
    pub to: Pit,
    pub kind: LapKind,
    /// Seeds captured by this lap (0 unless `kind` is `Capture`).
    pub captured: u8,
}

/// Receives each lap as it is sown. `()` ignores them (and costs nothing); `Vec<Lap>`
/// keeps them.
pub trait LapObserver {
    fn lap(&mut self, lap: Lap);
}

impl LapObserver for () {
    #[inline(always)]
    fn lap(&mut self, _: Lap) {}
}

impl LapObserver for Vec<Lap> {
    fn lap(&mut self, lap: Lap) {
        self.push(lap);
    }
}

/// Counts of a finished (or stopped) turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TurnSummary {
    /// Seeds captured in the turn.
    pub captured: u32,
    /// The columns captured in: bit 0 for A .. bit 7 for H.
    pub capture_columns: u8,
    /// Laps sown, each capture re-sowing counted as a lap.
    pub laps: u64,
    /// Seeds dropped in all laps together.
    pub seeds_sown: u64,
    pub end: TurnEnd,
}

impl TurnSummary {
    /// The columns captured in, as letters A..H in order (`""` when none).
    #[must_use]
    pub fn capture_columns_letters(&self) -> String {
        (0..8u8)
            .filter(|c| self.capture_columns & (1 << c) != 0)
            .map(crate::pit::column_letter)
            .collect()
    }
}

/// A played turn: the position after it (the other side to move), its counts, and the
/// game's result if the turn decided it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TurnResult {
    pub position: Position,
    pub summary: TurnSummary,
    pub outcome: Option<Outcome>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// The next lap is ready: `hand` seeds from `origin` in this direction.
    Ready(Direction),
    Decide(Decision),
    Done(TurnEnd),
}

/// A turn in progress. Start one with [`Position::begin_turn`], then alternate
/// [`Turn::run`] and [`Turn::answer`] until it is done, and take [`Turn::result`].
///
/// ```
/// use omweso_rules::{Direction, Position, Progress, TurnEnd};
///
/// let pos: Position = "5,0,0,0,1,1,1,1/0,3,0,5,5,5,0,5/10,4,1,4,4,0,0,4/1,0,0,0,4,0,0,0 s"
///     .parse()
///     .unwrap();
/// let mut turn = pos.begin_turn("E1".parse().unwrap(), Direction::Anticlockwise, None).unwrap();
/// let mut laps = Vec::new();
/// assert_eq!(turn.run(&mut laps), Progress::Done(TurnEnd::Ended));
/// assert_eq!(laps.len(), 2); // the capture at H2, then the captured seeds sown to F2
/// let result = turn.result().unwrap();
/// assert_eq!(result.summary.captured, 6);
/// assert_eq!(
///     result.position.to_string(),
///     "5,0,0,0,1,1,1,0/0,3,0,5,5,5,0,0/10,4,1,4,4,1,1,6/1,0,0,0,0,2,2,2 n"
/// );
/// ```
#[derive(Clone, Debug)]
pub struct Turn {
    rules: Rules,
    mover: Side,
    to_move_before: ToMove,
    has_captured_before: [bool; 2],
    /// The mover's 16 pits (see [`crate::board`]).
    mine: u128,
    /// The opponent's 16 pits; they change only by capture.
    theirs: u128,
    origin: u8,
    hand: u8,
    state: State,
    budget: u64,
    sown: u64,
    laps: u64,
    captured: u32,
    columns: u8,
    anchors: Anchors,
}

impl Turn {
    /// A turn lifting pit `index` of `mover` and sowing it in `dir`. The caller has checked
    /// that this start is legal.
    pub(crate) fn new_unchecked(
        pos: &Position,
        mover: Side,
        index: u8,
        dir: Direction,
        budget: Option<u64>,
    ) -> Turn {
        let mine = pos.board().side_bits(mover);
        Turn {
            rules: pos.rules(),
            mover,
            to_move_before: pos.to_move(),
            has_captured_before: [pos.has_captured(Side::South), pos.has_captured(Side::North)],
            mine: clear_byte(mine, index),
            theirs: pos.board().side_bits(mover.other()),
            origin: index,
            hand: byte(mine, index),
            state: State::Ready(dir),
            budget: budget.unwrap_or(u64::MAX),
            sown: 0,
            laps: 0,
            captured: 0,
            columns: 0,
            anchors: Anchors::new(),
        }
    }

    /// The player whose turn this is.
    #[must_use]
    pub const fn mover(&self) -> Side {
        self.mover
    }

    /// Who was to move in the position the turn began from (for the board shown while
    /// the turn waits at a decision).
    pub(crate) const fn to_move_before(&self) -> ToMove {
        self.to_move_before
    }

    /// Laps sown so far.
    #[must_use]
    pub const fn laps(&self) -> u64 {
        self.laps
    }

    /// Seeds sown so far.
    #[must_use]
    pub const fn seeds_sown(&self) -> u64 {
        self.sown
    }

    /// Changes the sowing budget for the rest of the turn (the seeds it may sow in all,
    /// counting those already sown). A server uses it when time spent at a decision point
    /// shortens what is left of the move-completion limit.
    pub fn set_budget(&mut self, budget: Option<u64>) {
        self.budget = budget.unwrap_or(u64::MAX);
    }

    /// The board as it stands now, with any seeds in hand put back at the lap's origin (as
    /// in [`Turn::result`]): what a client shows while the turn waits for a decision.
    #[must_use]
    pub fn board_now(&self) -> Board {
        let mine = add_to_byte(self.mine, self.origin, self.hand);
        match self.mover {
            Side::South => Board::from_bits([mine, self.theirs]),
            Side::North => Board::from_bits([self.theirs, mine]),
        }
    }

    /// The decision the turn waits for, if any.
    #[must_use]
    pub const fn pending_decision(&self) -> Option<Decision> {
        match self.state {
            State::Decide(decision) => Some(decision),
            _ => None,
        }
    }

    /// How the turn stopped, if it has.
    #[must_use]
    pub const fn end(&self) -> Option<TurnEnd> {
        match self.state {
            State::Done(end) => Some(end),
            _ => None,
        }
    }

    /// Sows laps until the turn reaches a decision point or stops, telling `observer` of
    /// each lap.
    pub fn run<O: LapObserver>(&mut self, observer: &mut O) -> Progress {
        let mut dir = match self.state {
            State::Ready(dir) => dir,
            State::Decide(decision) => return Progress::Decision(decision),
            State::Done(end) => return Progress::Done(end),
        };
        // The hot loop works on locals, written back once when the turn stops or waits:
        // kept in registers, a lap is a few dozen instructions.
        let (mover, rules, budget) = (self.mover, self.rules, self.budget);
        let (mut mine, mut theirs) = (self.mine, self.theirs);
        let (mut origin, mut hand) = (self.origin, self.hand);
        let (mut sown, mut laps) = (self.sown, self.laps);
        let mut anchors = self.anchors;
        let state = loop {
            // docs/rules.md#14-never-ending-turns: the repetition check first, then the budget.
            if dir == Direction::Anticlockwise
                && anchors.seen_or_anchor(Anchor::new(mine, origin, hand))
            {
                break State::Done(TurnEnd::NeverEnding);
            }
            if sown + u64::from(hand) > budget {
                break State::Done(TurnEnd::Budget);
            }
            let from = origin;
            let (sown_side, last) = sow(mine, from, hand, dir);
            sown += u64::from(hand);
            laps += 1;
            let landed = byte(sown_side, last);
            let lap = |kind, captured| Lap {
                from: Pit::from_index(mover, from),
                direction: dir,
                seeds: hand,
                to: Pit::from_index(mover, last),
                kind,
                captured,
            };
            if landed < 2 {
                observer.lap(lap(LapKind::End, 0));
                mine = sown_side;
                hand = 0;
                break State::Done(TurnEnd::Ended);
            }
            if let Some(captured) = capture_at(theirs, last) {
                // docs/rules.md#12-a-turn, 1.2.1: take both opponent pits of the column and sow them from
                // the origin of this lap, which stays the origin.
                observer.lap(lap(LapKind::Capture, captured));
                mine = sown_side;
                theirs = clear_byte(clear_byte(theirs, 23 - last), last - 8);
                self.captured += u32::from(captured);
                self.columns |= 1 << column_of(mover, last);
                hand = captured;
                anchors.clear();
                let clockwise_again =
                    dir == Direction::Clockwise && captures_clockwise(mine, theirs, from, captured);
                match rules.variant {
                    Variant::Omweso if clockwise_again => {
                        break State::Decide(Decision::Direction);
                    }
                    // Mweiso's clockwise chain (docs/rules.md#2-mweiso-kagera-murray-1951): after every clockwise capture.
                    Variant::Mweiso if dir == Direction::Clockwise => {
                        break State::Decide(Decision::Chain {
                            clockwise: clockwise_again,
                        });
                    }
                    _ => dir = Direction::Anticlockwise,
                }
            } else {
                // docs/rules.md#12-a-turn, 1.2.2: relay.
                observer.lap(lap(LapKind::Relay, 0));
                mine = clear_byte(sown_side, last);
                origin = last;
                hand = landed;
                dir = Direction::Anticlockwise;
                // Omweso 1.3: a relay lifting a reverse pit may go clockwise if that
                // captures. Mweiso 2: a relay is always anticlockwise.
                if rules.variant == Variant::Omweso
                    && rules.is_reverse_pit(last)
                    && captures_clockwise(mine, theirs, last, landed)
                {
                    break State::Decide(Decision::Direction);
                }
            }
        };
        self.mine = mine;
        self.theirs = theirs;
        self.origin = origin;
        self.hand = hand;
        self.sown = sown;
        self.laps = laps;
        self.anchors = anchors;
        self.state = state;
        match state {
            State::Decide(decision) => Progress::Decision(decision),
            State::Done(end) => Progress::Done(end),
            State::Ready(_) => unreachable!("the loop only stops to wait or end"),
        }
    }

    /// Answers the pending decision. A refused answer changes nothing.
    pub fn answer(&mut self, answer: Answer) -> Result<(), AnswerError> {
        let State::Decide(decision) = self.state else {
            return Err(AnswerError::NotWaiting { answer });
        };
        if !decision.allows(self.mover, answer) {
            return Err(AnswerError::NotAnOption {
                answer,
                options: decision.options(self.mover),
            });
        }
        self.state = match answer {
            Answer::Anticlockwise => State::Ready(Direction::Anticlockwise),
            Answer::Clockwise => State::Ready(Direction::Clockwise),
            Answer::Leave => self.leave(),
            Answer::Pit(pit) => self.lift(pit.index(), Direction::Anticlockwise),
        };
        Ok(())
    }

    /// Mweiso's `l`: the captured seeds stay in the hole; the chain goes on clockwise from
    /// the other reverse hole if that captures directly, else the player picks any pit to
    /// go on anticlockwise.
    fn leave(&mut self) -> State {
        self.mine = add_to_byte(self.mine, self.origin, self.hand);
        self.hand = 0;
        let other = if self.origin == 0 { 14 } else { 0 };
        let seeds = byte(self.mine, other);
        if seeds >= 2 && captures_clockwise(clear_byte(self.mine, other), self.theirs, other, seeds)
        {
            return self.lift(other, Direction::Clockwise);
        }
        let pits = sowable_mask(self.mine, 0xFFFF);
        if pits.count_ones() == 1 {
            self.lift(pits.trailing_zeros() as u8, Direction::Anticlockwise)
        } else {
            State::Decide(Decision::Pit { pits })
        }
    }

    fn lift(&mut self, index: u8, dir: Direction) -> State {
        self.hand = byte(self.mine, index);
        self.mine = clear_byte(self.mine, index);
        self.origin = index;
        State::Ready(dir)
    }

    /// The result, once the turn is done.
    #[must_use]
    pub fn result(&self) -> Option<TurnResult> {
        let State::Done(end) = self.state else {
            return None;
        };
        // Seeds still in hand (a turn stopped before a lap) go back to the lap's origin,
        // where the player lifted them or was about to sow the captured seeds from.
        let mine = add_to_byte(self.mine, self.origin, self.hand);
        let sides = match self.mover {
            Side::South => [mine, self.theirs],
            Side::North => [self.theirs, mine],
        };
        let other = self.mover.other();
        let to_move = match self.to_move_before {
            ToMove::Side(_) | ToMove::Opening(crate::Owing::Only(_)) => ToMove::Side(other),
            ToMove::Opening(crate::Owing::Both) => ToMove::Opening(crate::Owing::Only(other)),
        };
        let mut has_captured = self.has_captured_before;
        if self.captured > 0 {
            has_captured[self.mover.index()] = true;
        }
        let mut position =
            Position::from_parts(Board::from_bits(sides), to_move, self.rules, has_captured);
        // docs/rules.md#2-mweiso-kagera-murray-1951: an opponent left with no legal opening turn skips it, and the mover,
        // whose opening is then the only one, moves first in the main phase.
        if to_move.is_opening() && !position.can_move(other) {
            position = position.with_side_to_move(self.mover);
        }
        let summary = TurnSummary {
            captured: self.captured,
            capture_columns: self.columns,
            laps: self.laps,
            seeds_sown: self.sown,
            end,
        };
        let outcome = self.outcome(end, &position);
        Some(TurnResult {
            position,
            summary,
            outcome,
        })
    }

    /// docs/rules.md#15-end-of-the-game (Omweso) and 2 (Mweiso): the result decided at the end of this turn.
    fn outcome(&self, end: TurnEnd, after: &Position) -> Option<Outcome> {
        const BOTH_ENDS: u8 = 0b1000_0001;
        let win = |victory| {
            Some(Outcome::Win {
                winner: self.mover,
                victory,
            })
        };
        let other = self.mover.other();
        if self.to_move_before.is_opening() {
            // docs/rules.md#2-mweiso-kagera-murray-1951: an opening turn's captures decide nothing (the main phase's end
            // conditions are first checked at its first turn: the position after the
            // opening says whether the player to move can move); a never-ending turn
            // annuls the game, as in the main phase.
            return match end {
                TurnEnd::Ended => after.outcome(),
                TurnEnd::NeverEnding => Some(Outcome::Annulled {
                    reason: crate::AnnulReason::NeverEnding,
                }),
                TurnEnd::Budget => Some(Outcome::Annulled {
                    reason: crate::AnnulReason::Budget,
                }),
            };
        }
        if self.rules.variant == Variant::Omweso && self.columns == 0xFF {
            return win(Victory::Akawumbi);
        }
        if self.columns & BOTH_ENDS == BOTH_ENDS {
            return win(Victory::EmitweEbiri);
        }
        match end {
            TurnEnd::Ended => {}
            TurnEnd::NeverEnding => {
                return Some(Outcome::Annulled {
                    reason: crate::AnnulReason::NeverEnding,
                })
            }
            TurnEnd::Budget => {
                return Some(Outcome::Annulled {
                    reason: crate::AnnulReason::Budget,
                })
            }
        }
        if self.rules.variant == Variant::Omweso
            && self.rules.akakyala
            && self.captured > 0
            && self.has_captured_before[self.mover.index()]
            && !self.has_captured_before[other.index()]
        {
            return win(Victory::Akakyala);
        }
        if !after.can_move(other) {
            return win(Victory::NoMove);
        }
        None
    }
}

/// Why an answer was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AnswerError {
    #[error("the turn is not waiting for a decision, so {answer} answers nothing")]
    NotWaiting { answer: Answer },
    #[error("{answer} is not an option here; the options are {}", list(options))]
    NotAnOption { answer: Answer, options: Options },
}
