//! Recording a turn's laps for an event: the first [`MAX_EVENT_LAPS`] in full, the rest
//! only counted, so that a long turn costs bounded memory however long it is.

use omweso_rules::{GameLap, GameLapObserver};

use crate::protocol::{LapKind, LapView, OmittedLaps};

/// The most laps one `played` event carries. A turn may sow up to
/// [`super::config::TURN_SEED_CAP`] seeds, thousands of laps; longer than any animation
/// anyone would watch, and each lap costs every socket about 80 bytes. The rest are
/// counted in [`OmittedLaps`]; the event's `position` is the board after all of them.
pub const MAX_EVENT_LAPS: usize = 1000;

impl From<omweso_rules::LapKind> for LapKind {
    fn from(kind: omweso_rules::LapKind) -> LapKind {
        match kind {
            omweso_rules::LapKind::Capture => LapKind::Capture,
            omweso_rules::LapKind::Relay => LapKind::Relay,
            omweso_rules::LapKind::End => LapKind::End,
        }
    }
}

impl From<&GameLap> for LapView {
    fn from(lap: &GameLap) -> LapView {
        LapView {
            from: lap.from.to_string(),
            dir: lap.direction,
            seeds: lap.seeds,
            to: lap.to.to_string(),
            kind: lap.kind.into(),
            captured: lap.captured,
        }
    }
}

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
