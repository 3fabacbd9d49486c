//! The referee's clock (docs/rules.md#4-play-under-the-referee-server-rules): the count for the player to move and the steal when
//! it runs out, abandonment, the move limit while a decision waits, and what a restart
//! changes. Every deadline is computed from the table's state, which is rebuilt from the
//! logged actions, so a restarted server keeps the same deadlines.

use omweso_rules::{Outcome, Side, Victory};

use super::clock::Clock;
use super::pending::PendingTurn;
use super::Table;
use omweso_protocol::config::ms;
use omweso_protocol::{ClockView, Event, Legal, Status};

/// The most the referee count is extended to make up for a player's latency.
const MAX_LATENCY_ALLOWANCE_MS: u64 = 1000;

/// The latency allowance a count starts with.
#[derive(Clone, Copy, Debug)]
enum Allowance {
    /// The mover's measured round trip (none until measured), at most a second.
    Measured,
    /// The whole second: the count that starts as the second player arrives.
    Whole,
}

impl Table {
    /// The turn passes: the referee count for the player to move starts at `shown_at`,
    /// when every page has finished showing the turn that made the position (its display
    /// time, [`super::display::display_ms`]), unless it waits for both players.
    pub(super) fn new_turn(&mut self, shown_at: u64) {
        self.start_count(shown_at, Allowance::Measured);
    }

    /// Opens the turn's count from `from` with `allowance` (none while it waits for both
    /// players); no steal is open and no move limit runs.
    fn start_count(&mut self, from: u64, allowance: Allowance) {
        self.clock.steal_open = false;
        self.clock.steal_since_ms = None;
        self.clock.move_deadline_ms = None;
        self.clock.referee_deadline_ms = if self.clock.count_waits {
            None
        } else {
            self.count_from(from, allowance)
        };
    }

    /// When the referee count of the turn now open runs out, if it starts at `from`.
    fn count_from(&self, from: u64, allowance: Allowance) -> Option<u64> {
        let mover = self.board.and_then(|b| b.to_move())?;
        let r = self.time_control().referee_seconds?;
        // The computer answers at once: no count runs on its turns, so none is stolen.
        if self.is_computer(mover) {
            return None;
        }
        let allowance = match allowance {
            // Not measured yet counts as none (a client that never answers a ping gains
            // nothing). Round trips are not logged, so a replay counts none and fires no
            // later than the server did: never a logged steal missed.
            Allowance::Measured => self.clock.latency_ms[mover.index()],
            Allowance::Whole => MAX_LATENCY_ALLOWANCE_MS,
        };
        Some(from + ms(r) + allowance.min(MAX_LATENCY_ALLOWANCE_MS))
    }

    /// Both seats' players are at the table (the computer always is).
    fn both_at_table(&self) -> bool {
        Side::ALL
            .into_iter()
            .all(|side| self.clock.here[side.index()] || self.is_computer(side))
    }

    /// Play begins at `now`: the first turn's count waits for both players.
    pub(super) fn first_turn(&mut self, now: u64) {
        self.clock.count_waits = !self.clock.old_count && !self.both_at_table();
        self.new_turn(now);
    }

    /// Replaying a log written before the count waited for the display time and for both
    /// players: its ticks were decided by the old count (from the move's time, with no
    /// wait), which the replay keeps so that every logged steal happens again. New games
    /// never use it.
    pub fn keep_old_count(&mut self) {
        self.clock.old_count = true;
        self.clock.count_waits = false;
    }

    pub(super) fn clock_view(&self) -> ClockView {
        ClockView {
            referee_deadline: self.clock.referee_deadline_ms,
            steal_open: self.clock.steal_open,
            move_deadline: self.clock.move_deadline_ms,
            arrange_deadline: self.arrange_deadline(),
        }
    }

    /// Records a seat's measured round trip (the referee allows up to 1 s of it).
    pub fn set_latency(&mut self, side: Side, round_trip_ms: u64) {
        self.clock.latency_ms[side.index()] = round_trip_ms;
    }

    /// When a turn waiting at a decision runs out of its move-completion limit: the limit
    /// less the time already spent deciding and the sowing done at the table's pace.
    pub(super) fn move_deadline(&self, pending: &PendingTurn) -> Option<u64> {
        let tc = self.time_control();
        let limit = ms(tc.move_limit_seconds?);
        let sowing_ms = ms(pending.turn.seeds_sown() as f64 / tc.sowing_pace);
        Some(pending.decision_since_ms + limit.saturating_sub(pending.waited_ms + sowing_ms))
    }

    /// A turn ended at `now` and is shown on every page for `display_ms`: the game ends,
    /// or the next turn's count starts once the turn has been shown.
    pub(super) fn after_turn(
        &mut self,
        now: u64,
        display_ms: u64,
        outcome: Option<Outcome>,
        events: &mut Vec<Event>,
    ) {
        match outcome {
            Some(outcome) => events.extend(self.finish(outcome, now)),
            None if self.clock.old_count => self.new_turn(now),
            None => self.new_turn(now + display_ms),
        }
    }

    /// The game ends at `now` with `outcome`.
    pub(super) fn finish(&mut self, outcome: Outcome, now: u64) -> Vec<Event> {
        self.outcome = Some(outcome);
        self.tally.ended_at_ms = Some(now);
        self.status = match outcome {
            Outcome::Annulled { .. } => Status::Annulled,
            _ => Status::Finished,
        };
        self.pending = None;
        self.clock = Clock {
            latency_ms: self.clock.latency_ms,
            here: self.clock.here,
            grace_paused: self.clock.grace_paused,
            old_count: self.clock.old_count,
            ..Clock::default()
        };
        vec![Event::end(outcome)]
    }

    /// Fires the referee's timers due at `now`: the steal, abandonment, and the move limit
    /// running out while a decision is awaited.
    pub fn tick(&mut self, now: u64) -> Vec<(u64, Event)> {
        if self.config.stop_at_ms.is_some_and(|stop| now >= stop) && !self.status.is_over() {
            // The tournament round's time is up: stopped and decided on material.
            return self.adjudicate(now).unwrap_or_default();
        }
        let mut events = Vec::new();
        if self
            .arrange_deadline()
            .is_some_and(|deadline| now >= deadline)
        {
            events.extend(self.arrange_late(now));
        }
        if self.status == Status::Playing {
            let tc = self.time_control();
            if self
                .clock
                .move_deadline_ms
                .is_some_and(|deadline| now >= deadline)
                && self.pending.is_some()
            {
                events.extend(self.finish(
                    Outcome::Annulled {
                        reason: omweso_rules::AnnulReason::Budget,
                    },
                    now,
                ));
            } else if let Some(victim) = self.board.and_then(|b| b.to_move()) {
                if !self.clock.steal_open
                    && self.pending.is_none()
                    && self
                        .clock
                        .referee_deadline_ms
                        .is_some_and(|deadline| now >= deadline)
                {
                    self.clock.steal_open = true;
                    self.clock.steal_since_ms = Some(now);
                    self.clock.referee_deadline_ms = None;
                    events.push(Event::Steal {
                        victim,
                        clock: self.clock_view(),
                        legal: Legal::default(),
                    });
                } else if self
                    .clock
                    .steal_since_ms
                    .is_some_and(|since| now >= since + ms(tc.abandon_seconds))
                {
                    events.extend(self.finish(
                        Outcome::Win {
                            winner: victim.other(),
                            victory: Victory::Abandoned,
                        },
                        now,
                    ));
                }
            }
        }
        if self.grace_runs() {
            if let Some(absent) = Side::ALL
                .into_iter()
                .find(|&side| self.grace_ends(side).is_some_and(|end| now >= end))
            {
                events.extend(self.finish(
                    Outcome::Win {
                        winner: absent.other(),
                        victory: Victory::Abandoned,
                    },
                    now,
                ));
            }
        }
        if !events.is_empty() {
            self.last_change_ms = now;
        }
        self.emit(events)
    }

    /// A seat's player came (`here`: a first connection opened) or went (their last one
    /// closed) at `now`. The caller logs exactly the changes (`Some`), so that the grace's
    /// deadlines are rebuilt with the table after a restart.
    ///
    /// `None` when nothing changed; else the events the change made: when it brings the
    /// second player to a table whose count was waiting for both (the first turn, or the
    /// turn a restart left open), the count starts now and a `count` event carries its
    /// deadline.
    pub fn set_present(&mut self, side: Side, here: bool, now: u64) -> Option<Vec<(u64, Event)>> {
        if !self.presence_changes(side, here) {
            return None;
        }
        let i = side.index();
        self.clock.here[i] = here;
        self.clock.away_since_ms[i] = (!here && self.grace_runs()).then_some(now);
        self.last_change_ms = now;
        if self.run_arrange_clock(now) {
            // The arranging player is here: their time starts, and the pages hear of it.
            let clock = self.clock_view();
            return Some(self.emit(vec![Event::Count { clock }]));
        }
        Some(self.start_waiting_count(now))
    }

    /// The count that waited for both players starts at `now` if both are here.
    fn start_waiting_count(&mut self, now: u64) -> Vec<(u64, Event)> {
        if !(self.clock.count_waits && self.status == Status::Playing && self.both_at_table()) {
            return Vec::new();
        }
        self.clock.count_waits = false;
        if self.pending.is_some() || self.clock.steal_open {
            // A restart left a decision or an open steal: neither waits for a count.
            return Vec::new();
        }
        // The player who just arrived has no round trip measured yet (their first ping is
        // one away): the whole allowance rather than none for a player on a slow line,
        // whatever was measured, so that a replay (which knows no round trip) gives the
        // same deadline.
        self.start_count(now, Allowance::Whole);
        if self.clock.referee_deadline_ms.is_none() {
            return Vec::new();
        }
        let clock = self.clock_view();
        self.emit(vec![Event::Count { clock }])
    }

    /// Whether each seat's player has a connection open, as the table was last told
    /// ([`Table::set_present`]); indexed by [`Side::index`].
    #[must_use]
    pub fn present(&self) -> [bool; 2] {
        self.clock.here
    }

    /// Replaying a log written before presence was logged: its ticks were decided
    /// without the grace, so the replay keeps none until [`Table::resume`].
    pub fn pause_grace(&mut self) {
        self.clock.grace_paused = true;
    }

    /// Whether telling the table that `side`'s player is `here` (or not) would change it.
    /// Once the game is over, nobody's presence matters.
    /// The computer's seat is never away, so nothing about it changes.
    #[must_use]
    pub fn presence_changes(&self, side: Side, here: bool) -> bool {
        self.clock.here[side.index()] != here && !self.status.is_over() && !self.is_computer(side)
    }

    /// Play began at `now`: a seated player not here has the same grace as one who left.
    /// One away since a timed arrangement keeps that time.
    pub(super) fn start_grace(&mut self, now: u64) {
        for side in Side::ALL {
            if !self.clock.here[side.index()] {
                self.clock.away_since_ms[side.index()].get_or_insert(now);
            }
        }
    }

    /// When `side`'s grace for coming back runs out, if they are away during play.
    fn grace_ends(&self, side: Side) -> Option<u64> {
        // The computer is always there; a relayed game's players are at a wooden board,
        // not connected, and lose nothing by it.
        if self.clock.grace_paused || self.is_computer(side) || self.config.relayed {
            return None;
        }
        let grace = ms(self.config.time_control.disconnect_grace_seconds);
        self.clock.away_since_ms[side.index()].map(|since| since + grace)
    }

    /// A seated player stayed away too long: they lose (docs/rules.md#4-play-under-the-referee-server-rules). Logs written before
    /// the grace was the table's own hold this as an entry of its own; the table now
    /// decides it in [`Table::tick`].
    pub fn abandon(&mut self, absent: Side, now: u64) -> Vec<(u64, Event)> {
        if self.status.is_over() || self.seats.iter().any(Option::is_none) {
            return Vec::new();
        }
        let events = self.finish(
            Outcome::Win {
                winner: absent.other(),
                victory: Victory::Abandoned,
            },
            now,
        );
        self.emit(events)
    }

    /// The next time [`Table::tick`] has something to do.
    #[must_use]
    pub fn next_deadline(&self) -> Option<u64> {
        let stop = self.config.stop_at_ms.filter(|_| !self.status.is_over());
        if self.status == Status::Setup && self.clock.arrange.timed {
            let grace = Side::ALL
                .into_iter()
                .filter_map(|side| self.grace_ends(side));
            return grace.chain(self.arrange_deadline()).chain(stop).min();
        }
        if self.status != Status::Playing {
            return stop;
        }
        self.referee_deadline().into_iter().chain(stop).min()
    }

    /// The referee's next deadline during play: the steal, abandonment, the grace, the
    /// move limit.
    fn referee_deadline(&self) -> Option<u64> {
        let grace = Side::ALL
            .into_iter()
            .filter_map(|side| self.grace_ends(side));
        if self.pending.is_some() {
            return grace.chain(self.clock.move_deadline_ms).min();
        }
        let abandon = self
            .clock
            .steal_since_ms
            .map(|since| since + ms(self.config.time_control.abandon_seconds));
        [self.clock.referee_deadline_ms, abandon]
            .into_iter()
            .flatten()
            .chain(grace)
            .min()
    }

    /// After a restart: the time the server was down counts against nobody. The referee
    /// count starts again, a pending decision gets its time back, and nobody is connected
    /// yet: each player's grace for coming back starts now.
    pub fn resume(&mut self, now: u64) {
        self.clock.here = [false; 2];
        self.clock.grace_paused = false;
        if self.status == Status::Setup && self.clock.arrange.timed {
            self.resume_arranging(now);
        }
        self.last_change_ms = now;
        if self.status != Status::Playing {
            return;
        }
        self.clock.away_since_ms = [Some(now); 2];
        if let Some(mut pending) = self.pending.take() {
            pending.decision_since_ms = now;
            self.clock.move_deadline_ms = self.move_deadline(&pending);
            self.pending = Some(pending);
        } else if self.clock.steal_open {
            self.clock.steal_since_ms = Some(now);
        } else {
            // Nobody is connected yet: the count waits for both players to come back.
            self.clock.count_waits = !self.clock.old_count;
            self.new_turn(now);
        }
    }
}

#[cfg(test)]
mod tests {
    use omweso_rules::{Ruleset, Side};

    use super::super::fixtures::{act, mv, seated_timed};
    use crate::log::{replay, Entry};
    use omweso_protocol::config::{SetupKind, TimeControl};
    use omweso_protocol::Event;

    /// A log with the display count replays to the same deadlines: the first count starts
    /// when the second player arrives, each later one after the turn's display time, and a
    /// steal logged at that deadline happens again.
    #[test]
    fn the_display_count_replays_from_the_log() {
        let (mut t, mut log) =
            seated_timed(Ruleset::Omweso, SetupKind::Outer, TimeControl::TOURNAMENT);
        assert_eq!(t.clock.referee_deadline_ms, None, "nobody is here yet");
        // South's round trip is measured while South waits (not logged: a replay knows
        // none), so the arrival's count must not depend on it.
        t.set_latency(Side::South, 80);
        for (side, at) in [(Side::South, 2_000), (Side::North, 5_000)] {
            let events = t.set_present(side, true, at).unwrap();
            let seq = i64::try_from(log.len()).unwrap();
            log.push((seq, at, Entry::Presence { side, here: true }));
            if side == Side::North {
                assert!(matches!(events.as_slice(), [(3, Event::Count { .. })]));
            }
        }
        // The count that starts with an arrival gets the whole allowance (1 s).
        assert_eq!(t.clock.referee_deadline_ms, Some(5_000 + 3_000 + 1_000));
        act(&mut t, &mut log, Side::South, mv("E1"), 6_000);
        // E1 is shown for 690 ms; North's count runs from then (North's round trip is
        // still not measured: no allowance past the arrival's).
        assert_eq!(t.clock.referee_deadline_ms, Some(6_000 + 690 + 3_000));
        assert!(t.tick(9_689).is_empty());
        assert_eq!(t.tick(9_690).len(), 1);
        log.push((5, 9_690, Entry::Tick));
        act(&mut t, &mut log, Side::South, mv("A1"), 11_000);
        let replayed = replay(t.id(), log).unwrap();
        assert_eq!(replayed.version(), t.version());
        assert_eq!(replayed.clock_view(), t.clock_view());
        assert_eq!(replayed.history, t.history);
        assert!(replayed.history[1].stolen);
    }

    /// A restart is logged (`Resume`): the count it left waiting starts when both players
    /// are back, and the replay after the next restart gives the same event versions and
    /// deadlines, the `count` event included.
    #[test]
    fn a_resumption_replays_from_the_log() {
        let (mut t, mut log) =
            seated_timed(Ruleset::Omweso, SetupKind::Outer, TimeControl::TOURNAMENT);
        let at_table = |t: &mut super::Table, log: &mut Vec<(i64, u64, Entry)>, side, here, at| {
            let events = t.set_present(side, here, at).unwrap();
            let seq = i64::try_from(log.len()).unwrap();
            log.push((seq, at, Entry::Presence { side, here }));
            events
        };
        at_table(&mut t, &mut log, Side::South, true, 2_000);
        at_table(&mut t, &mut log, Side::North, true, 3_000);
        act(&mut t, &mut log, Side::South, mv("E1"), 4_000);
        let before_restart = t.version();
        // The server restarts at 50 s: nobody is here, the count waits.
        t.resume(50_000);
        log.push((6, 50_000, Entry::Resume));
        assert_eq!(t.clock.referee_deadline_ms, None);
        assert!(at_table(&mut t, &mut log, Side::South, true, 51_000).is_empty());
        let count = at_table(&mut t, &mut log, Side::North, true, 52_000);
        assert_eq!(count.len(), 1);
        assert_eq!(count[0].0, before_restart + 1);
        assert_eq!(t.clock.referee_deadline_ms, Some(52_000 + 3_000 + 1_000));
        let replayed = replay(t.id(), log).unwrap();
        assert_eq!(replayed.version(), t.version());
        assert_eq!(replayed.clock_view(), t.clock_view());
    }

    /// A log written before the display count replays by the count it was decided by:
    /// a steal 3 s after a move, with nobody's presence logged, still happens, so the
    /// stolen move after it is played again rather than refused.
    #[test]
    fn an_older_log_replays_by_the_old_count() {
        let (mut t, mut log) =
            seated_timed(Ruleset::Omweso, SetupKind::Outer, TimeControl::TOURNAMENT);
        let Entry::Create { display_count, .. } = &mut log[0].2 else {
            panic!("the log starts with its creation");
        };
        *display_count = false;
        // The old count, as the old server ran it: 3 s from each turn, no wait.
        t.keep_old_count();
        t.first_turn(1_000);
        assert_eq!(t.clock.referee_deadline_ms, Some(4_000));
        assert_eq!(t.tick(4_000).len(), 1);
        log.push((2, 4_000, Entry::Tick));
        act(&mut t, &mut log, Side::North, mv("A4"), 4_100);
        assert_eq!(t.clock.referee_deadline_ms, Some(7_100));
        let replayed = replay(t.id(), log).unwrap();
        assert_eq!(replayed.version(), t.version());
        assert_eq!(replayed.clock_view(), t.clock_view());
        assert!(replayed.history[0].stolen);
    }
}
