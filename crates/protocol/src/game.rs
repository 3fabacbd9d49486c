//! A game as the protocol shows it: the versioned events, the snapshot, and the pieces
//! they share (laps, the referee's clock, the seats, what a player may do). Every type
//! serializes to the shape docs/protocol.md gives (its additions included) and
//! deserializes from it, so that the load generator, the tests and any Rust client read
//! the server's messages with the server's own types.

use omweso_rules::{Direction, GameLap, Outcome, Ruleset, Side};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::config::{SetupKind, TimeControl};

/// What happened where a lap's last seed fell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LapKind {
    Capture,
    Relay,
    End,
}

/// A lap as the protocol writes it: enough to animate it seed by seed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LapView {
    /// The lap's origin: its first seed goes into the pit after it.
    pub from: String,
    pub dir: Direction,
    pub seeds: u8,
    /// Where the last seed fell.
    pub to: String,
    pub kind: LapKind,
    pub captured: u8,
}

/// The laps of a turn past the first [`MAX_EVENT_LAPS`], summed
/// (addition: `played.laps_omitted`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OmittedLaps {
    pub laps: u64,
    pub seeds: u64,
    pub captured: u64,
}

/// The referee's clock as clients see it: deadlines in milliseconds since the Unix epoch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockView {
    pub referee_deadline: Option<u64>,
    pub steal_open: bool,
    pub move_deadline: Option<u64>,
    /// When the player now arranging a free setup runs out of their arrangement limit
    /// (addition; docs/rules.md#11-setup): absent when no limit runs (none set, nobody arranging,
    /// or the arranging player not at the table yet).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arrange_deadline: Option<u64>,
}

/// What a start would do, sown up to the turn's end or its first decision point
/// (addition; the board's pointer preview).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StartResult {
    /// The start token: a pit, with `'` for clockwise (an Oware house).
    pub start: String,
    pub laps: u64,
    pub seeds: u64,
    pub captured: u64,
    /// Where the turn ended, when its last lap was an `end` lap.
    pub ends_at: Option<String>,
    /// The options of the decision point the start reaches (the turn stops there).
    pub decision: Option<Vec<String>>,
    pub outcome: Option<Outcome>,
}

/// What one side may do now: its whole legal moves and what each start does (addition).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LegalSide {
    /// Every whole legal move, as the engine's `moves` writes them.
    pub moves: Vec<String>,
    /// `moves` are the legal starts only: listing every whole move would have cost more
    /// than the server allows (docs/protocol.md).
    pub starts_only: bool,
    pub starts: Vec<StartResult>,
}

/// Who may start a turn now and how: one entry per such side (both in Mweiso's opening;
/// the victim and the thief while the referee's steal is open). Empty when nobody may
/// (addition: in `state`, `started`, `played` and `steal`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Legal {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub s: Option<LegalSide>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub n: Option<LegalSide>,
}

impl Legal {
    #[must_use]
    pub fn side(&self, side: Side) -> Option<&LegalSide> {
        match side {
            Side::South => self.s.as_ref(),
            Side::North => self.n.as_ref(),
        }
    }

    pub fn set(&mut self, side: Side, moves: LegalSide) {
        match side {
            Side::South => self.s = Some(moves),
            Side::North => self.n = Some(moves),
        }
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.s.is_none() && self.n.is_none()
    }
}

/// What answering a pending decision with one option would do (addition: `decision.results`
/// and the snapshot's `pending_results`; what `/preview` answered before).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OptionResult {
    pub choice: String,
    pub laps: Vec<LapView>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub laps_omitted: Option<OmittedLaps>,
    /// The board after it (during the turn when another decision follows).
    pub position: String,
    /// The options of the next decision point, when the turn reaches one.
    pub decision: Option<Vec<String>>,
    pub outcome: Option<Outcome>,
}

/// A turn, or its part up to a decision point (`played`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Played {
    pub by: Side,
    /// The tokens played so far (the whole move once the turn is over).
    #[serde(rename = "move")]
    pub mv: String,
    pub stolen: bool,
    pub laps: Vec<LapView>,
    /// Laps past the first [`MAX_EVENT_LAPS`], counted (addition;
    /// absent when none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub laps_omitted: Option<OmittedLaps>,
    pub position: String,
    pub outcome: Option<Outcome>,
    /// The turn waits at a decision point (a `decision` follows).
    #[serde(default)]
    pub pending: bool,
    /// How long every page takes to show these laps being sown, in milliseconds: the next
    /// turn's referee count starts when it is over (addition; docs/rules.md#4-play-under-the-referee-server-rules).
    #[serde(default)]
    pub display_ms: u64,
    #[serde(default)]
    pub clock: ClockView,
    /// Who may start the next turn (addition; empty while `pending` or when it ends the game).
    #[serde(default)]
    pub legal: Legal,
}

/// A relay took back their last entry in a relayed game (addition,
/// docs/rules.md#57-over-the-board-play-and-relays): the game as it stands again, all a
/// page needs to redraw it without the moves after `moves`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Undone {
    /// Whole moves played now (the history's length): a page drops the moves after these.
    pub moves: usize,
    pub status: Status,
    pub position: Option<String>,
    pub to_move: Option<Side>,
    /// Who still owes Mweiso's opening turn, as in the snapshot.
    #[serde(default)]
    pub opening: Vec<Side>,
    /// A turn waiting at a decision point again: its options, what each does, and the
    /// tokens played so far, as in the snapshot (`null` when none waits).
    pub pending: Option<Vec<String>>,
    #[serde(default)]
    pub pending_results: Option<Vec<OptionResult>>,
    pub pending_move: Option<String>,
    /// Free setup: the arrangements made, as in the snapshot.
    #[serde(default)]
    pub arrangements: Arrangements,
    #[serde(default)]
    pub clock: ClockView,
    /// Who may start a turn now, as in `started`.
    #[serde(default)]
    pub legal: Legal,
}

/// A change to the game, sent to every connection with the game's next version.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
        #[serde(default)]
        clock: ClockView,
        /// Who may start the first turn (addition).
        #[serde(default)]
        legal: Legal,
    },
    /// A free-setup arrangement, in the side's own pit order (addition).
    Arranged {
        by: Side,
        pits: [u8; 16],
        /// The player's arrangement limit ran out and the referee gave them the `outer`
        /// arrangement (docs/rules.md#11-setup).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        late: bool,
        /// The clock after it: the second player's arrangement deadline, once the first
        /// arrangement is shown to them.
        #[serde(default)]
        clock: ClockView,
    },
    Played(Played),
    Decision {
        by: Side,
        options: Vec<String>,
        /// What each option would do, in the order of `options` (addition).
        #[serde(default)]
        results: Vec<OptionResult>,
        #[serde(default)]
        clock: ClockView,
    },
    /// The referee count of the turn now open starts (addition): the game's first turn,
    /// or the turn a restart left open, once both players are at the table (docs/rules.md#4-play-under-the-referee-server-rules).
    Count {
        #[serde(default)]
        clock: ClockView,
    },
    Steal {
        victim: Side,
        #[serde(default)]
        clock: ClockView,
        /// The victim's moves and the thief's, on the board with the thief to move
        /// (addition).
        #[serde(default)]
        legal: Legal,
    },
    /// A player proposes to stop at an Oware impasse (addition, docs/rules.md#3-oware-abapa): it stands
    /// until the opponent answers or the proposer plays their next turn.
    #[serde(rename = "impasse_proposed")]
    ImpasseProposed {
        by: Side,
    },
    /// The opponent declined the proposal (addition): play goes on.
    #[serde(rename = "impasse_declined")]
    ImpasseDeclined {
        by: Side,
    },
    End {
        outcome: Outcome,
        /// The game ended by agreement at an impasse: who proposed and how the seeds
        /// left were split (addition; absent otherwise).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        impasse: Option<Impasse>,
        /// The position after the split, when the end changed the board (addition;
        /// absent otherwise).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        position: Option<String>,
    },
    /// A relay took back their last entry (addition).
    Undone(Undone),
}

/// A proposal to stop at an Oware impasse (addition, docs/rules.md#3-oware-abapa): who made it and, once
/// accepted, how the seeds left were split.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Impasse {
    pub proposed_by: Side,
    /// The seeds each player took of those left, once the proposal was accepted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub split: Option<Split>,
}

/// Seeds for each side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Split {
    pub s: u8,
    pub n: u8,
}

impl Event {
    /// The end of the game with `outcome` (no impasse).
    #[must_use]
    pub const fn end(outcome: Outcome) -> Event {
        Event::End {
            outcome,
            impasse: None,
            position: None,
        }
    }
}

impl Event {
    /// The `legal` this event carries: `Some` for the events after which a player may
    /// start a turn (the publisher fills it in; the table leaves it empty).
    pub fn legal_mut(&mut self) -> Option<&mut Legal> {
        match self {
            Event::Started { legal, .. } | Event::Steal { legal, .. } => Some(legal),
            Event::Played(played) if !played.pending && played.outcome.is_none() => {
                Some(&mut played.legal)
            }
            Event::Undone(undone) if undone.pending.is_none() => Some(&mut undone.legal),
            _ => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatView {
    pub name: String,
    pub connected: bool,
    /// The seat is the computer's (addition; absent for a person).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub computer: Option<Computer>,
    /// The seated account's rating in the game's ruleset (addition,
    /// docs/protocol.md#ratings-addition): as it stands while the game is played, as it
    /// was before the game once a rated game is over; absent for a guest or the computer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<crate::ratings::RatingBadge>,
    /// What the rated game's result did to that rating, once it is over (addition;
    /// absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating_change: Option<i32>,
}

/// The computer as a player: `{"level":N}`, N one of 1 (a beginner) to 8 (addition: the
/// opponent asked for in `POST /api/games`, a seat of the snapshot, the lobby's entries).
/// A level outside 1..=8 is refused where it is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Computer {
    pub level: ComputerLevel,
}

/// The computer's strength on the wire: a number, 1 (a beginner) to 8, checked on the
/// way in. The protocol's own type, so that a client's types need nothing of the search
/// (the server maps it to the search's level of the same number).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "i64", into = "u8")]
pub struct ComputerLevel(u8);

/// A computer level outside 1..=8.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelOutOfRange(pub i64);

impl std::fmt::Display for LevelOutOfRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "level {} is not one of 1 to 8", self.0)
    }
}

impl std::error::Error for LevelOutOfRange {}

impl ComputerLevel {
    pub const MIN: ComputerLevel = ComputerLevel(1);
    pub const MAX: ComputerLevel = ComputerLevel(8);

    /// The level `n`, if it is one of 1..=8.
    pub fn new(n: i64) -> Result<ComputerLevel, LevelOutOfRange> {
        match u8::try_from(n) {
            Ok(n @ 1..=8) => Ok(ComputerLevel(n)),
            _ => Err(LevelOutOfRange(n)),
        }
    }

    /// The level's number, 1..=8.
    #[must_use]
    pub const fn get(self) -> u8 {
        self.0
    }
}

impl TryFrom<i64> for ComputerLevel {
    type Error = LevelOutOfRange;
    fn try_from(n: i64) -> Result<Self, Self::Error> {
        ComputerLevel::new(n)
    }
}

impl From<ComputerLevel> for u8 {
    fn from(level: ComputerLevel) -> u8 {
        level.0
    }
}

impl std::fmt::Display for ComputerLevel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seats {
    pub s: Option<SeatView>,
    pub n: Option<SeatView>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HistoryEntry {
    pub by: Side,
    #[serde(rename = "move")]
    pub mv: String,
    pub stolen: bool,
    /// The position after the move (addition).
    #[serde(default)]
    pub position: String,
}

/// Where a game is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Waiting for the second player, or for the free-setup arrangements.
    Setup,
    Playing,
    Finished,
    Annulled,
}

impl Status {
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Status::Setup => "setup",
            Status::Playing => "playing",
            Status::Finished => "finished",
            Status::Annulled => "annulled",
        }
    }

    #[must_use]
    pub const fn is_over(self) -> bool {
        matches!(self, Status::Finished | Status::Annulled)
    }
}

/// The game snapshot (`state`, `GET /api/games/{id}`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    pub game_id: Uuid,
    pub ruleset: Ruleset,
    pub setup: SetupKind,
    pub time_control: TimeControl,
    pub status: Status,
    pub position: Option<String>,
    pub to_move: Option<Side>,
    /// Mweiso's opening: who still owes their opening turn (addition).
    #[serde(default)]
    pub opening: Vec<Side>,
    pub seats: Seats,
    pub you: Option<Side>,
    /// Every whole legal move of the side to move (yours in Mweiso's opening).
    pub legal_moves: Vec<String>,
    /// `legal_moves` are the legal starts only, each to be followed by its decisions
    /// (listing every whole move would have cost too much; addition, absent when false).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub legal_moves_starts_only: bool,
    /// Who may start a turn now and how (addition).
    #[serde(default)]
    pub legal: Legal,
    pub pending: Option<Vec<String>>,
    /// What each pending option would do, in the order of `pending` (addition).
    #[serde(default)]
    pub pending_results: Option<Vec<OptionResult>>,
    /// The tokens of the turn waiting at a decision point (addition).
    pub pending_move: Option<String>,
    pub clock: ClockView,
    pub history: Vec<HistoryEntry>,
    pub outcome: Option<Outcome>,
    pub spectators: usize,
    pub version: u64,
    /// When the game was created, ms since the Unix epoch (addition).
    #[serde(default)]
    pub created_at_ms: u64,
    /// Free setup: the arrangements made so far, each in its side's own pit order (addition).
    #[serde(default)]
    pub arrangements: Arrangements,
    /// Oware: the proposal to stop at an impasse standing now, or the one accepted that
    /// ended the game, with its split (addition; absent when there is none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub impasse: Option<Impasse>,
    /// The game is played on a wooden board and its moves entered by a relay (addition;
    /// absent otherwise): its players do not play it from here.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub relayed: bool,
    /// The game is rated (addition, docs/protocol.md#ratings-addition; absent when
    /// casual): a rated game between two accounts becomes casual when the second player
    /// to sit is a guest.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
    /// The tournament the game is played in (addition; absent outside tournaments): its
    /// page leads back there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament: Option<uuid::Uuid>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Arrangements {
    pub s: Option<[u8; 16]>,
    pub n: Option<[u8; 16]>,
}

/// The most laps one `played` event carries. A turn may sow up to
/// [`crate::config::TURN_SEED_CAP`] seeds, thousands of laps; longer than any animation
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
