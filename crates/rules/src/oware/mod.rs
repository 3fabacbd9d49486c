//! Oware (Abapa), docs/rules.md#3-oware-abapa: a 2x6 board of twelve houses, 48 seeds, one lap per move.
//!
//! - [`House`] is a house coordinate (`A1`..`F1` South's, `A2`..`F2` North's), numbered
//!   0..11 in sowing order.
//! - [`Setup`] is a free-form board, side to move and captures, parsed from and written as
//!   the position string `north/south side capS capN`; [`Position`] is one holding exactly
//!   48 seeds.
//! - [`Position::play`] plays a move, checked, to a [`MoveResult`];
//!   [`Position::moves`] lists the legal moves and [`Position::for_each_move`] plays them
//!   all, without allocating;
//!   [`Position::outcome`] and [`Position::settle_impasse`] end the game.
//!
//! ```
//! use omweso_rules::oware::Position;
//! use omweso_rules::Side;
//!
//! let pos = Position::start(Side::South);
//! let result = pos.play("F1".parse().unwrap(), None).unwrap();
//! assert_eq!(result.position.to_string(), "4,4,5,5,5,5/4,4,4,4,4,0 n 0 0");
//! assert_eq!(result.outcome, None);
//! // North's A2 is its last house: its 4 seeds go to A1..D1 (the last makes 5: no capture).
//! let result = result.position.play("A2".parse().unwrap(), None).unwrap();
//! assert_eq!(result.captured, 0);
//! assert_eq!(result.position.to_string(), "0,4,5,5,5,5/5,5,5,5,4,0 s 0 0");
//! ```

mod board;
mod house;
mod lap;
mod moves;
mod play;
mod position;
mod setup;

pub use house::{House, ParseHouseError};
pub use lap::{Lap, LapKind};
pub use moves::Moves;
pub use play::{IllegalMove, MoveResult};
pub use position::{ParsePositionError, Position, PositionError, SEEDS};
pub use setup::{ParseSetupError, Setup};
