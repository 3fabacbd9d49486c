//! The arrangement clock of a free setup (docs/rules.md#11-setup). Under an arrangement limit each
//! player has that long to arrange their 32 seeds: the first player from when both seats
//! are taken, the second from when the first arrangement is shown to them; a player whose
//! time is up is given the `outer` arrangement and play goes on.
//!
//! "Shown to them" is read as the count reads it (docs/rules.md#4-play-under-the-referee-server-rules: nobody is timed before they
//! could have seen what they must answer): a player's time runs from when it is their turn
//! to arrange *and* they are at the table (a connection open), with the whole latency
//! allowance of the count. Once running it does not stop when they leave, so leaving and
//! coming back gains nothing; a player who never comes is dealt with by the disconnect
//! grace, which runs during a timed arrangement as it does during play. A restart gives the
//! player arranging what they had left at the last logged change and waits for them again,
//! as the count waits (the time the server was down counts against nobody).

use omweso_rules::{Arrangement, Side};

use super::clock::ArrangeClock;
use super::Table;
use omweso_protocol::config::ms;
use omweso_protocol::{Event, Status};

/// The arrangement a player gets when their time is up: 4 seeds in each outer pit (the
/// side's own pits 0..7 are its outer row).
pub(super) const OUTER: [u64; 16] = [4, 4, 4, 4, 4, 4, 4, 4, 0, 0, 0, 0, 0, 0, 0, 0];

/// Added to every arrangement limit, as to the referee count: what a slow line may take to
/// show the player the board and bring back their arrangement.
const ARRANGE_ALLOWANCE_MS: u64 = 1000;

impl Table {
    /// Who arranges now: in a free setup with both seats taken, the first player (South)
    /// until they have arranged, then the second.
    #[must_use]
    pub fn arranging(&self) -> Option<Side> {
        let free = self.config.setup == omweso_protocol::config::SetupKind::Free;
        if !free || self.status != Status::Setup || self.seats.iter().any(Option::is_none) {
            return None;
        }
        Side::ALL
            .into_iter()
            .find(|s| self.arrangements[s.index()].is_none())
    }

    /// The turn to arrange has just passed to a player (both seats taken, or the first
    /// arrangement made) at `now`: their clock is set to the whole limit and runs if they
    /// are here. The computer arranges at once and has no clock.
    pub(super) fn open_arranging(&mut self, now: u64) {
        let limit = self.time_control().arrange_seconds.map(ms);
        let (Some(limit), Some(side)) = (limit, self.arranging()) else {
            self.clock.arrange = ArrangeClock::default();
            return;
        };
        if !self.clock.arrange.timed {
            // The no-show is the grace's business from now on.
            self.clock.arrange.timed = true;
            self.start_grace(now);
        }
        self.clock.arrange.left_ms = limit + ARRANGE_ALLOWANCE_MS;
        self.clock.arrange.since_ms = None;
        if self.is_computer(side) {
            self.clock.arrange.left_ms = 0;
            return;
        }
        self.run_arrange_clock(now);
    }

    /// Starts the arranging player's time at `now` if it waits for them and they are here;
    /// whether it started.
    pub(super) fn run_arrange_clock(&mut self, now: u64) -> bool {
        let Some(side) = self.arranging() else {
            return false;
        };
        let waiting = self.clock.arrange.timed
            && self.clock.arrange.since_ms.is_none()
            && !self.is_computer(side);
        if waiting && self.clock.here[side.index()] {
            self.clock.arrange.since_ms = Some(now);
            return true;
        }
        false
    }

    /// When the arranging player's time runs out, if it is running.
    pub(super) fn arrange_deadline(&self) -> Option<u64> {
        let arrange = &self.clock.arrange;
        if !arrange.timed {
            return None;
        }
        arrange.since_ms.map(|since| since + arrange.left_ms)
    }

    /// The arranging player's time ran out at `now`: the referee places the `outer`
    /// arrangement for them (and play starts if they were the second).
    pub(super) fn arrange_late(&mut self, now: u64) -> Vec<Event> {
        let Some(side) = self.arranging() else {
            return Vec::new();
        };
        match Arrangement::new(&OUTER) {
            Ok(outer) => self.place(side, outer, now, true),
            Err(_) => Vec::new(),
        }
    }

    /// After a restart at `now`, in a timed arrangement: the player arranging keeps what
    /// they had left at the last logged change (`last_change_ms`), and their time waits
    /// for them to come back.
    pub(super) fn resume_arranging(&mut self, now: u64) {
        let arrange = &mut self.clock.arrange;
        if let Some(since) = arrange.since_ms.take() {
            let used = self.last_change_ms.saturating_sub(since);
            arrange.left_ms = arrange.left_ms.saturating_sub(used);
        }
        self.clock.away_since_ms = [Some(now); 2];
    }

    /// Whether the referee's clocks run, the disconnect grace among them: during play, and
    /// during a timed arrangement. A restart then is logged ([`Table::resume`]).
    #[must_use]
    pub fn grace_runs(&self) -> bool {
        match self.status {
            Status::Playing => true,
            Status::Setup => self.clock.arrange.timed,
            Status::Finished | Status::Annulled => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use omweso_rules::{Outcome, Ruleset, Side, Victory};

    use super::super::fixtures::{act, seated_timed};
    use super::super::{Action, Table};
    use crate::log::{replay, Entry};
    use omweso_protocol::config::{SetupKind, TimeControl};
    use omweso_protocol::{Event, Status};

    /// The tournament preset's two minutes and the second's allowance.
    const LIMIT: u64 = 120_000 + 1000;

    fn arrange(pits: &[u64]) -> Action {
        Action::Arrange {
            pits: pits.to_vec(),
        }
    }

    /// Tells the table a player came or went, logging it as the game's task does.
    fn presence(
        t: &mut Table,
        log: &mut Vec<(i64, u64, Entry)>,
        side: Side,
        here: bool,
        at: u64,
    ) -> Vec<(u64, Event)> {
        let events = t.set_present(side, here, at).unwrap_or_default();
        let seq = i64::try_from(log.len()).unwrap_or(i64::MAX);
        log.push((seq, at, Entry::Presence { side, here }));
        events
    }

    /// South's time starts when South is here (both seats taken at 1 000); North's when
    /// South's arrangement is shown to North (North here then); each has the limit and the
    /// allowance, exactly, and the clock's start is sent as a `count`.
    #[test]
    fn each_player_has_the_limit_from_when_they_can_arrange() {
        let (mut t, mut log) =
            seated_timed(Ruleset::Omweso, SetupKind::Free, TimeControl::TOURNAMENT);
        assert_eq!(t.arranging(), Some(Side::South));
        assert_eq!(t.arrange_deadline(), None, "South is not here yet");
        assert_eq!(t.next_deadline(), Some(1_000 + 60_000), "the grace runs");
        let events = presence(&mut t, &mut log, Side::South, true, 5_000);
        let [(_, Event::Count { clock })] = &events[..] else {
            panic!("{events:?}")
        };
        assert_eq!(clock.arrange_deadline, Some(5_000 + LIMIT));
        assert_eq!(clock.referee_deadline, None);
        presence(&mut t, &mut log, Side::North, true, 6_000);
        assert_eq!(
            t.next_deadline(),
            Some(5_000 + LIMIT),
            "both here: no grace"
        );
        let events = act(&mut t, &mut log, Side::South, arrange(&[2; 16]), 30_000);
        let [(
            _,
            Event::Arranged {
                by, late, clock, ..
            },
        )] = &events[..]
        else {
            panic!("{events:?}")
        };
        assert_eq!((*by, *late), (Side::South, false));
        assert_eq!(clock.arrange_deadline, Some(30_000 + LIMIT));
        assert_eq!(t.arranging(), Some(Side::North));
    }

    /// South waits at the table for an opponent: North's join starts South's time, and
    /// the join's events say so (a `count`), or South's page would show no countdown.
    #[test]
    fn a_join_that_starts_the_first_players_time_says_so() {
        let config = omweso_protocol::config::GameConfig {
            time_control: TimeControl::TOURNAMENT,
            ..super::super::fixtures::config(Ruleset::Omweso, SetupKind::Free)
        };
        let south = super::super::fixtures::seat("Kato");
        let mut t = Table::new(uuid::Uuid::new_v4(), config, south, Side::South, 0);
        assert_eq!(t.set_present(Side::South, true, 500), Some(vec![]));
        let (_, events) = t
            .join(super::super::fixtures::seat("Nakato"), 2_000)
            .unwrap_or_else(|r| panic!("{}", r.message));
        let [(1, Event::Joined { .. }), (2, Event::Count { clock })] = &events[..] else {
            panic!("{events:?}")
        };
        assert_eq!(clock.arrange_deadline, Some(2_000 + LIMIT));
    }

    /// North, away when South arranges, is timed from their arrival.
    #[test]
    fn the_second_player_is_timed_from_when_they_see_the_first_arrangement() {
        let (mut t, mut log) =
            seated_timed(Ruleset::Omweso, SetupKind::Free, TimeControl::TOURNAMENT);
        presence(&mut t, &mut log, Side::South, true, 2_000);
        act(&mut t, &mut log, Side::South, arrange(&[2; 16]), 9_000);
        assert_eq!(t.arrange_deadline(), None, "North is not here");
        let events = presence(&mut t, &mut log, Side::North, true, 40_000);
        let [(_, Event::Count { clock })] = &events[..] else {
            panic!("{events:?}")
        };
        assert_eq!(clock.arrange_deadline, Some(40_000 + LIMIT));
        // Leaving does not stop it.
        presence(&mut t, &mut log, Side::North, false, 50_000);
        assert_eq!(t.arrange_deadline(), Some(40_000 + LIMIT));
    }

    /// North's time is up: the referee gives North `outer` and play starts at once.
    #[test]
    fn a_player_whose_time_is_up_gets_the_outer_arrangement() {
        let (mut t, mut log) =
            seated_timed(Ruleset::Omweso, SetupKind::Free, TimeControl::TOURNAMENT);
        presence(&mut t, &mut log, Side::South, true, 3_000);
        presence(&mut t, &mut log, Side::North, true, 3_000);
        act(&mut t, &mut log, Side::South, arrange(&[2; 16]), 10_000);
        assert_eq!(t.tick(10_000 + LIMIT - 1), vec![], "one millisecond early");
        let events = t.tick(10_000 + LIMIT);
        let [(_, Event::Arranged { by, pits, late, .. }), (_, Event::Started { .. })] = &events[..]
        else {
            panic!("{events:?}")
        };
        assert_eq!((*by, *late), (Side::North, true));
        assert_eq!(pits, &[4, 4, 4, 4, 4, 4, 4, 4, 0, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(t.status(), Status::Playing);
        assert_eq!(
            t.position().as_deref(),
            Some("4,4,4,4,4,4,4,4/0,0,0,0,0,0,0,0/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 s")
        );
        let late = t.act(Side::North, &arrange(&[2; 16]), 10_000 + LIMIT + 5);
        assert_eq!(
            late.map_err(|r| r.message),
            Err("the arrangements are done".to_owned())
        );
    }

    /// A player who never comes is given no arrangement: the grace ends the game.
    #[test]
    fn a_player_who_never_comes_loses_by_the_grace() {
        let (mut t, mut log) =
            seated_timed(Ruleset::Omweso, SetupKind::Free, TimeControl::TOURNAMENT);
        presence(&mut t, &mut log, Side::North, true, 2_500);
        assert_eq!(t.next_deadline(), Some(61_000));
        let events = t.tick(61_000);
        let [(_, Event::End { outcome, .. })] = &events[..] else {
            panic!("{events:?}")
        };
        assert_eq!(
            *outcome,
            Outcome::Win {
                winner: Side::North,
                victory: Victory::Abandoned
            }
        );
    }

    /// Without a limit (casual) nothing is timed and nobody's grace runs while arranging.
    #[test]
    fn a_casual_free_setup_has_no_clock() {
        let (mut t, mut log) = seated_timed(Ruleset::Omweso, SetupKind::Free, TimeControl::CASUAL);
        assert_eq!(presence(&mut t, &mut log, Side::South, true, 5_000), vec![]);
        assert_eq!((t.arrange_deadline(), t.next_deadline()), (None, None));
    }

    /// A restart in the middle of arranging: South had used 40 s of theirs by the last
    /// logged change (North's arrival at 50 000) and gets the rest when back; North, who
    /// has not begun, still has the whole limit after South. Replaying the whole log,
    /// restart included, rebuilds the same deadlines and version.
    #[test]
    fn a_restart_keeps_the_time_left() {
        let (mut t, mut log) =
            seated_timed(Ruleset::Omweso, SetupKind::Free, TimeControl::TOURNAMENT);
        presence(&mut t, &mut log, Side::South, true, 10_000);
        presence(&mut t, &mut log, Side::North, true, 50_000);
        assert_eq!(t.arrange_deadline(), Some(10_000 + LIMIT));
        // The server dies at about 90 000 and is back at 200 000.
        t.resume(200_000);
        let seq = i64::try_from(log.len()).unwrap_or(i64::MAX);
        log.push((seq, 200_000, Entry::Resume));
        assert_eq!(t.arrange_deadline(), None, "it waits for South");
        assert_eq!(t.next_deadline(), Some(260_000), "and the grace runs again");
        presence(&mut t, &mut log, Side::North, true, 201_000);
        presence(&mut t, &mut log, Side::South, true, 210_000);
        let left = LIMIT - (50_000 - 10_000);
        assert_eq!(t.arrange_deadline(), Some(210_000 + left));
        let replayed = replay(t.id(), log.clone()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(replayed.arrange_deadline(), Some(210_000 + left));
        assert_eq!(replayed.version(), t.version());
        // South arranges; North's whole limit runs from then.
        let mut t = replayed;
        act(&mut t, &mut log, Side::South, arrange(&[2; 16]), 220_000);
        assert_eq!(t.arrange_deadline(), Some(220_000 + LIMIT));
    }
}
