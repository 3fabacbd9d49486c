//! The rules of Omweso, Mweiso and Oware (Abapa), exact to docs/rules.md and fast.
//!
//! - [`Setup`] is a free-form 4x8 board and whose turn it is, parsed from and written as
//!   the position strings of docs/rules.md#02-position-strings; [`Position`] is one checked against the rules
//!   ([`Position::from_setup`] says what is wrong).
//! - A turn can be played stepwise ([`Position::begin_turn`], then [`Turn::run`] and
//!   [`Turn::answer`] at each [`Decision`], every [`Lap`] reported to a [`LapObserver`]),
//!   which is what a server refereeing a live table needs; or as a whole [`Move`] in
//!   notation ([`Position::play`]), checked; and every legal whole move can be enumerated
//!   with its result ([`Position::for_each_move`]), which is what a bot needs.
//! - Never-ending turns are detected exactly and in constant memory ([`never_ending`]),
//!   with or without a sowing budget.
//! - Oware lives in [`oware`], with its own board and position types.
//! - [`Game`] is any of the three games: one position type over both boards, with one
//!   vocabulary of moves ([`GameMove`], [`Start`]), laps ([`GameLap`], named by [`Hole`]),
//!   stepwise turns ([`GameTurn`]) and results ([`PlayResult`]). It dispatches to the
//!   per-board types, which stay the fast paths; what serves a game of whichever ruleset
//!   (the server, the engine CLI, `bench`, the load generator) uses it.
//!
//! ```
//! use omweso_rules::{Position, Preset, Rules, Side};
//!
//! let pos = Position::start(Rules::OMWESO, Preset::Outer, Side::South);
//! // E1 drops its 4 seeds in F1, G1, H1 and H2; H2 was empty, so the turn ends.
//! let result = pos.play(&"E1".parse().unwrap(), Some(720)).unwrap();
//! assert_eq!(
//!     result.position.to_string(),
//!     "4,4,4,4,4,4,4,4/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,1/4,4,4,4,0,5,5,5 n"
//! );
//! ```
#![forbid(unsafe_code)]
#![warn(missing_debug_implementations)]

mod board;
mod direction;
mod game;
mod movegen;
pub mod never_ending;
mod notation;
mod outcome;
pub mod oware;
mod pit;
pub mod playout;
mod position;
mod rules;
mod ruleset;
mod setup;
mod side;
mod turn;

pub use board::Board;
pub use direction::Direction;
pub use game::{
    Game, GameLap, GameLapObserver, GameLegalMoves, GameMove, GameTurn, Hole, IllegalGameMove,
    ParseGameError, ParseGameMoveError, PlayResult, Start,
};
pub use movegen::LegalMoves;
pub use notation::{Answer, Answers, Move, Options, ParseMoveError};
pub use outcome::{AnnulReason, Outcome, Victory};
pub use pit::{ParsePitError, Pit};
pub use position::{
    Arrangement, ArrangementError, IllegalMove, ParsePositionError, Position, PositionError,
    Preset, SEEDS, SEEDS_PER_SIDE,
};
pub use rules::{Rules, Variant};
pub use ruleset::{ParseRulesetError, Ruleset};
pub use setup::{Owing, ParseSetupError, Setup, ToMove};
pub use side::{ParseSideError, Side};
pub use turn::{
    AnswerError, Decision, Lap, LapKind, LapObserver, Progress, Turn, TurnEnd, TurnResult,
    TurnSummary,
};
