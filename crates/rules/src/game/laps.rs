//! The laps of any board, for a client to animate ([`GameLap`]), and what receives them
//! as they are sown ([`GameLapObserver`]).

use crate::oware;
use crate::{Direction, Lap, LapKind, LapObserver};

use super::moves::Hole;

/// One lap of any board, for a client to animate: the 4x8 [`Lap`] and Oware's
/// [`oware::Lap`] (always anticlockwise, `capture` or `end`) alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameLap {
    /// The lap's origin: the first seed goes into the hole after it.
    pub from: Hole,
    pub direction: Direction,
    pub seeds: u8,
    /// Where the last seed fell.
    pub to: Hole,
    /// `capture`, `relay` (4x8 only) or `end` ([`LapKind::name`]).
    pub kind: LapKind,
    /// Seeds captured by this lap (0 unless `kind` is `Capture`).
    pub captured: u8,
}

impl From<Lap> for GameLap {
    fn from(lap: Lap) -> GameLap {
        GameLap {
            from: Hole::Pit(lap.from),
            direction: lap.direction,
            seeds: lap.seeds,
            to: Hole::Pit(lap.to),
            kind: lap.kind,
            captured: lap.captured,
        }
    }
}

impl From<oware::Lap> for GameLap {
    fn from(lap: oware::Lap) -> GameLap {
        GameLap {
            from: Hole::House(lap.from),
            // Oware sows anticlockwise only.
            direction: Direction::Anticlockwise,
            seeds: lap.seeds,
            to: Hole::House(lap.to),
            kind: match lap.kind {
                oware::LapKind::Capture => LapKind::Capture,
                oware::LapKind::End => LapKind::End,
            },
            captured: lap.captured,
        }
    }
}

/// Receives each lap of any board as it is sown. `()` ignores them; `Vec<GameLap>` keeps
/// them.
pub trait GameLapObserver {
    fn lap(&mut self, lap: GameLap);
}

impl GameLapObserver for () {
    #[inline(always)]
    fn lap(&mut self, _: GameLap) {}
}

impl GameLapObserver for Vec<GameLap> {
    fn lap(&mut self, lap: GameLap) {
        self.push(lap);
    }
}

/// Hands the 4x8 engine's laps on to a [`GameLapObserver`].
pub(super) struct Forward<'a, O: ?Sized>(pub(super) &'a mut O);

impl<O: GameLapObserver + ?Sized> LapObserver for Forward<'_, O> {
    #[inline(always)]
    fn lap(&mut self, lap: Lap) {
        self.0.lap(GameLap::from(lap));
    }
}
