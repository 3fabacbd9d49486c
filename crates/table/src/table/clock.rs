//! The referee's clock as the table keeps it, and the clock of a free setup's arrangement:
//! parts of the table's state, apart from the jobs that run them (`referee`,
//! `arranging`), so that the table names them without naming those jobs.

#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Clock {
    pub(super) referee_deadline_ms: Option<u64>,
    pub(super) steal_open: bool,
    pub(super) steal_since_ms: Option<u64>,
    pub(super) move_deadline_ms: Option<u64>,
    /// Each seat's measured round trip, for the referee's latency allowance (0 until the
    /// first ping of the seat's connection is answered).
    pub(super) latency_ms: [u64; 2],
    /// Whether each seat's player has a connection open.
    pub(super) here: [bool; 2],
    /// Since when each seat's player, seated in a game being played, has had none: away
    /// longer than the disconnect grace, they lose (docs/rules.md#4-play-under-the-referee-server-rules).
    pub(super) away_since_ms: [Option<u64>; 2],
    /// The grace is not kept: replaying a log written before presence was logged (its
    /// ticks were decided without it). [`Table::resume`] takes it up again.
    pub(super) grace_paused: bool,
    /// The count waits for both players to be at the table: the game's first turn, and
    /// the turn a restart left open (docs/rules.md#4-play-under-the-referee-server-rules: nobody is stolen from before they could
    /// have seen the position). It starts in [`Table::set_present`].
    pub(super) count_waits: bool,
    /// The log was written before the count waited for the display time and for both
    /// players: its ticks were decided by the old count, and replaying it keeps that count
    /// ([`Table::keep_old_count`]) so that every logged steal happens again.
    pub(super) old_count: bool,
    /// The arrangement limit of a free setup, for the player now arranging.
    pub(super) arrange: ArrangeClock,
}

/// The clock of the player now arranging.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct ArrangeClock {
    /// A timed arrangement is under way: both seats are taken, the setup is free, the
    /// time control sets a limit, and somebody has still to arrange.
    pub(super) timed: bool,
    /// What the player arranging has left, counted from `since` once it runs.
    pub(super) left_ms: u64,
    /// When their time started running: `None` while it waits for them to be here.
    pub(super) since_ms: Option<u64>,
}
