//! What a table tells its players and spectators: the versioned events of the protocol and
//! the snapshot.

use omweso_rules::{Lap, LapObserver, Outcome, Side};
use serde::Serialize;

use super::config::SetupKind;

/// A lap as the protocol writes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LapView {
    pub from: String,
    pub dir: &'static str,
    pub seeds: u8,
    pub to: String,
    pub kind: &'static str,
    pub captured: u8,
}

impl From<&Lap> for LapView {
    fn from(lap: &Lap) -> LapView {
        LapView {
            from: lap.from.to_string(),
            dir: if lap.direction == omweso_rules::Direction::Clockwise {
                "c"
            } else {
                "a"
            },
            seeds: lap.seeds,
            to: lap.to.to_string(),
            kind: lap.kind.name(),
            captured: lap.captured,
        }
    }
}

impl From<&omweso_rules::oware::Lap> for LapView {
    fn from(lap: &omweso_rules::oware::Lap) -> LapView {
        LapView {
            from: lap.from.to_string(),
            dir: "a",
            seeds: lap.seeds,
            to: lap.to.to_string(),
            kind: lap.kind.name(),
            captured: lap.captured,
        }
    }
}

/// The most laps one `played` event carries. A turn may sow up to
/// [`super::config::TURN_SEED_CAP`] seeds, thousands of laps; longer than any animation
/// anyone would watch, and each lap costs every socket about 80 bytes. The rest are
/// counted in [`OmittedLaps`]; the event's `position` is the board after all of them.
pub const MAX_EVENT_LAPS: usize = 1000;

/// The laps of a turn past [`MAX_EVENT_LAPS`], summed (addition to protocol v1:
/// `played.laps_omitted`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct OmittedLaps {
    pub laps: u64,
    pub seeds: u64,
    pub captured: u64,
}

/// The laps of a turn as an event shows them: the first [`MAX_EVENT_LAPS`] in full, the
/// rest only counted, so a long turn costs the server bounded memory however long it is.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LapRecord {
    pub shown: Vec<LapView>,
    pub omitted: Option<OmittedLaps>,
}

impl LapRecord {
    fn has_room(&self) -> bool {
        self.shown.len() < MAX_EVENT_LAPS
    }

    fn omit(&mut self, seeds: u8, captured: u8) {
        let omitted = self.omitted.get_or_insert_with(OmittedLaps::default);
        omitted.laps += 1;
        omitted.seeds += u64::from(seeds);
        omitted.captured += u64::from(captured);
    }

    /// Records an Oware lap (the 4x8 board's come through [`LapObserver`]).
    pub fn push(&mut self, lap: LapView) {
        if self.has_room() {
            self.shown.push(lap);
        } else {
            self.omit(lap.seeds, lap.captured);
        }
    }
}

impl LapObserver for LapRecord {
    fn lap(&mut self, lap: Lap) {
        if self.has_room() {
            self.shown.push(LapView::from(&lap));
        } else {
            self.omit(lap.seeds, lap.captured);
        }
    }
}

/// The referee's clock as clients see it: deadlines in milliseconds since the Unix epoch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ClockView {
    pub referee_deadline: Option<u64>,
    pub steal_open: bool,
    pub move_deadline: Option<u64>,
}

/// A change to the game, sent to every connection with the game's next version.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "t", content = "d", rename_all = "lowercase")]
pub enum Event {
    /// A player took a seat (addition to protocol v1).
    Joined {
        seat: Side,
        name: String,
    },
    /// Both seats are taken (and arranged): play begins (addition).
    Started {
        to_move: Option<Side>,
        position: String,
        clock: ClockView,
    },
    /// A free-setup arrangement, in the side's own pit order (addition).
    Arranged {
        by: Side,
        pits: [u8; 16],
    },
    Played {
        by: Side,
        #[serde(rename = "move")]
        mv: String,
        stolen: bool,
        laps: Vec<LapView>,
        /// Laps past the first [`MAX_EVENT_LAPS`], counted (addition; absent when none).
        #[serde(skip_serializing_if = "Option::is_none")]
        laps_omitted: Option<OmittedLaps>,
        position: String,
        outcome: Option<Outcome>,
        pending: bool,
        clock: ClockView,
    },
    Decision {
        by: Side,
        options: Vec<String>,
        clock: ClockView,
    },
    Steal {
        victim: Side,
        clock: ClockView,
    },
    End {
        outcome: Outcome,
    },
}

impl Event {
    /// The message `{"t":..,"v":..,"d":..}` for version `v`.
    #[must_use]
    ///
    /// Written straight to text, without building a `serde_json::Value` first (that took 6%
    /// of the server's CPU under load): serde writes `{"t":"<type>","d":{..}}`, and the
    /// version goes in after the type, whose name is a plain lowercase word.
    pub fn message(&self, v: u64) -> String {
        let body = serde_json::to_string(self).unwrap_or_default();
        let tag_end = body
            .strip_prefix(r#"{"t":""#)
            .and_then(|rest| rest.find('"'))
            .map(|end| r#"{"t":""#.len() + end + 1);
        let Some(at) = tag_end else {
            return body;
        };
        let mut message = String::with_capacity(body.len() + 24);
        message.push_str(&body[..at]);
        message.push_str(",\"v\":");
        message.push_str(&v.to_string());
        message.push_str(&body[at..]);
        message
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SeatView {
    pub name: String,
    pub connected: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Seats {
    pub s: Option<SeatView>,
    pub n: Option<SeatView>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HistoryEntry {
    pub by: Side,
    #[serde(rename = "move")]
    pub mv: String,
    pub stolen: bool,
    /// The position after the move (addition).
    pub position: String,
}

/// The game snapshot (`state`, `GET /api/games/{id}`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Snapshot {
    pub game_id: uuid::Uuid,
    pub ruleset: omweso_rules::Ruleset,
    pub setup: SetupKind,
    pub time_control: super::config::TimeControl,
    pub status: &'static str,
    pub position: Option<String>,
    pub to_move: Option<Side>,
    /// Mweiso's opening: who still owes their opening turn (addition).
    pub opening: Vec<Side>,
    pub seats: Seats,
    pub you: Option<Side>,
    pub legal_moves: Vec<String>,
    /// `legal_moves` are the legal starts only, each to be followed by its decisions
    /// (listing every whole move would have cost too much; addition, absent when false).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub legal_moves_starts_only: bool,
    pub pending: Option<Vec<String>>,
    /// The tokens of the turn waiting at a decision point (addition).
    pub pending_move: Option<String>,
    pub clock: ClockView,
    pub history: Vec<HistoryEntry>,
    pub outcome: Option<Outcome>,
    pub spectators: usize,
    pub version: u64,
    /// When the game was created, ms since the Unix epoch (addition).
    pub created_at_ms: u64,
    /// Free setup: the arrangements made so far, each in its side's own pit order (addition).
    pub arrangements: Arrangements,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Arrangements {
    pub s: Option<[u8; 16]>,
    pub n: Option<[u8; 16]>,
}
