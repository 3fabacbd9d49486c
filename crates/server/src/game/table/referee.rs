//! The referee's clock (RULES.md 4): the count for the player to move and the steal when
//! it runs out, abandonment, the move limit while a decision waits, and what a restart
//! changes. Every deadline is computed from the table's state, which is rebuilt from the
//! logged actions, so a restarted server keeps the same deadlines.

use omweso_rules::{Outcome, Side, Victory};

use super::super::config::ms;
use super::turn::PendingTurn;
use super::Table;
use crate::protocol::{ClockView, Event, Legal, Status};

#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Clock {
    pub(super) referee_deadline_ms: Option<u64>,
    pub(super) steal_open: bool,
    pub(super) steal_since_ms: Option<u64>,
    pub(super) move_deadline_ms: Option<u64>,
    /// Each seat's measured round trip, for the referee's latency allowance.
    pub(super) latency_ms: [u64; 2],
    /// Whether each seat's player has a connection open.
    pub(super) here: [bool; 2],
    /// Since when each seat's player, seated in a game being played, has had none: away
    /// longer than the disconnect grace, they lose (RULES.md 4).
    pub(super) away_since_ms: [Option<u64>; 2],
    /// The grace is not kept: replaying a log written before presence was logged (its
    /// ticks were decided without it). [`Table::resume`] takes it up again.
    pub(super) grace_paused: bool,
}

/// The most the referee count is extended to make up for a player's latency.
const MAX_LATENCY_ALLOWANCE_MS: u64 = 1000;

impl Table {
    /// The turn passes: the referee count starts for the player to move.
    pub(super) fn new_turn(&mut self, now: u64) {
        let mover = self.board.and_then(|b| b.to_move());
        self.clock.steal_open = false;
        self.clock.steal_since_ms = None;
        self.clock.move_deadline_ms = None;
        // The computer answers at once: no count runs on its turns, so none is stolen.
        self.clock.referee_deadline_ms = match (self.config.time_control.referee_seconds, mover) {
            (Some(r), Some(mover)) if !self.is_computer(mover) => Some(
                now + ms(r) + self.clock.latency_ms[mover.index()].min(MAX_LATENCY_ALLOWANCE_MS),
            ),
            _ => None,
        };
    }

    pub(super) fn clock_view(&self) -> ClockView {
        ClockView {
            referee_deadline: self.clock.referee_deadline_ms,
            steal_open: self.clock.steal_open,
            move_deadline: self.clock.move_deadline_ms,
        }
    }

    /// Records a seat's measured round trip (the referee allows up to 1 s of it).
    pub fn set_latency(&mut self, side: Side, round_trip_ms: u64) {
        self.clock.latency_ms[side.index()] = round_trip_ms;
    }

    /// When a turn waiting at a decision runs out of its move-completion limit: the limit
    /// less the time already spent deciding and the sowing done at the table's pace.
    pub(super) fn move_deadline(&self, pending: &PendingTurn) -> Option<u64> {
        let tc = self.config.time_control;
        let limit = ms(tc.move_limit_seconds?);
        let sowing_ms = ms(pending.turn.seeds_sown() as f64 / tc.sowing_pace);
        Some(pending.decision_since_ms + limit.saturating_sub(pending.waited_ms + sowing_ms))
    }

    pub(super) fn after_turn(
        &mut self,
        now: u64,
        outcome: Option<Outcome>,
        events: &mut Vec<Event>,
    ) {
        match outcome {
            Some(outcome) => events.extend(self.finish(outcome, now)),
            None => self.new_turn(now),
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
            ..Clock::default()
        };
        vec![Event::End { outcome }]
    }

    /// Fires the referee's timers due at `now`: the steal, abandonment, and the move limit
    /// running out while a decision is awaited.
    pub fn tick(&mut self, now: u64) -> Vec<(u64, Event)> {
        if self.config.stop_at_ms.is_some_and(|stop| now >= stop) && !self.status.is_over() {
            // The tournament round's time is up: stopped and decided on material.
            return self.adjudicate(now).unwrap_or_default();
        }
        let mut events = Vec::new();
        if self.status == Status::Playing {
            let tc = self.config.time_control;
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
        if self.status == Status::Playing {
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
        self.emit(events)
    }

    /// A seat's player came (`here`: a first connection opened) or went (their last one
    /// closed) at `now`. Returns whether anything changed: the caller logs exactly those
    /// changes, so that the grace's deadlines are rebuilt with the table after a restart.
    pub fn set_present(&mut self, side: Side, here: bool, now: u64) -> bool {
        if !self.presence_changes(side, here) {
            return false;
        }
        let i = side.index();
        self.clock.here[i] = here;
        self.clock.away_since_ms[i] = (!here && self.status == Status::Playing).then_some(now);
        true
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
    pub(super) fn start_grace(&mut self, now: u64) {
        for side in Side::ALL {
            if !self.clock.here[side.index()] {
                self.clock.away_since_ms[side.index()] = Some(now);
            }
        }
    }

    /// When `side`'s grace for coming back runs out, if they are away during play.
    fn grace_ends(&self, side: Side) -> Option<u64> {
        // The computer is always there.
        if self.clock.grace_paused || self.is_computer(side) {
            return None;
        }
        let grace = ms(self.config.time_control.disconnect_grace_seconds);
        self.clock.away_since_ms[side.index()].map(|since| since + grace)
    }

    /// A seated player stayed away too long: they lose (RULES.md 4). Logs written before
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
            self.new_turn(now);
        }
    }
}
