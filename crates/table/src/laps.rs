//! Recording a turn's laps for an event: the first [`MAX_EVENT_LAPS`] in full, the rest
//! only counted, so that a long turn costs bounded memory however long it is.

use omweso_rules::{GameLap, GameLapObserver};

pub use omweso_protocol::game::MAX_EVENT_LAPS;
use omweso_protocol::{LapView, OmittedLaps};

/// A turn's laps counted, and its last one: what a start's summary needs, without
/// writing each lap out as an event would.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LapTally {
    pub laps: u64,
    pub seeds: u64,
    pub captured: u64,
    pub last: Option<GameLap>,
}

impl GameLapObserver for LapTally {
    fn lap(&mut self, lap: GameLap) {
        self.laps += 1;
        self.seeds += u64::from(lap.seeds);
        self.captured += u64::from(lap.captured);
        self.last = Some(lap);
    }
}

/// The laps of a turn as an event shows them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LapRecord {
    pub shown: Vec<LapView>,
    pub omitted: Option<OmittedLaps>,
}

impl LapRecord {
    /// How long every page takes to show these laps (the omitted ones included), the
    /// `played` event's `display_ms`.
    #[must_use]
    pub fn display_ms(&self) -> u64 {
        let shown_seeds: u64 = self.shown.iter().map(|lap| u64::from(lap.seeds)).sum();
        let omitted = self.omitted.unwrap_or_default();
        super::table::display_ms(
            self.shown.len() as u64 + omitted.laps,
            shown_seeds + omitted.seeds,
        )
    }
}

impl GameLapObserver for LapRecord {
    fn lap(&mut self, lap: GameLap) {
        if self.shown.len() < MAX_EVENT_LAPS {
            self.shown.push(LapView::from(&lap));
        } else {
            let omitted = self.omitted.get_or_insert_with(OmittedLaps::default);
            omitted.laps += 1;
            omitted.seeds += u64::from(lap.seeds);
            omitted.captured += u64::from(lap.captured);
        }
    }
}
