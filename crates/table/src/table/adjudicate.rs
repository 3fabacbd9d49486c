//! Adjudication (docs/rules.md#53-rounds): a tournament game still going at its round's deadline is
//! stopped and decided on material. Oware on the seeds captured, Omweso and Mweiso on the
//! seeds on each side of the board; more wins, equal is a draw.

use std::cmp::Ordering;

use omweso_rules::{Outcome, Ruleset, Side, Victory};

use super::{refuse, Refusal, Table};
use omweso_protocol::{ErrorCode, Event};

impl Table {
    /// Ends the game at `now` on material. Refused once the game is over.
    ///
    /// In setup the material is the start's (each side's seeds, arranged or not), so it is
    /// a draw. A turn waiting at a decision is not finished: the board before it decides,
    /// as [`Table::facts`] counts it.
    pub fn adjudicate(&mut self, now: u64) -> Result<Vec<(u64, Event)>, Refusal> {
        if self.status.is_over() {
            return Err(refuse(ErrorCode::GameOver, "the game is over"));
        }
        let outcome = self.on_material();
        self.tally.adjudicated = true;
        let events = self.finish(outcome, now);
        Ok(self.emit(events))
    }

    /// The outcome the material as it stands gives.
    fn on_material(&self) -> Outcome {
        let facts = self.facts();
        let [south, north] = match self.config.ruleset {
            Ruleset::Oware => facts.captured,
            Ruleset::Omweso | Ruleset::Mweiso => facts.seeds_on_side,
        };
        let winner = match south.cmp(&north) {
            Ordering::Greater => Side::South,
            Ordering::Less => Side::North,
            Ordering::Equal => return Outcome::Draw,
        };
        Outcome::Win {
            winner,
            victory: Victory::Adjudicated,
        }
    }
}

#[cfg(test)]
mod tests {
    use omweso_rules::{Outcome, Ruleset, Side, Victory};

    use super::super::fixtures::{act, mv, on_board, seat, seated};
    use super::super::{Action, Table};
    use crate::log::{replay, Entry};
    use omweso_protocol::config::SetupKind;
    use omweso_protocol::{ErrorCode, Event, Frame, Status};

    /// South's E1 captures 6 seeds (32-32 before, 38-26 after); North's E3/c then captures
    /// 14 (24-40), stopping at a decision after E3.
    const CAPTURES: &str = "5,0,0,0,1,1,1,1/0,3,0,5,5,5,0,5/10,4,1,4,4,0,0,4/1,0,0,0,4,0,0,0 s";

    fn won_by(winner: Side) -> Outcome {
        Outcome::Win {
            winner,
            victory: Victory::Adjudicated,
        }
    }

    /// Adjudicates at 50 s and checks the one `end` event it makes.
    fn adjudicated(t: &mut Table) -> Outcome {
        let version = t.version();
        let events = t.adjudicate(50_000).unwrap();
        let [(v, Event::End { outcome, .. })] = events.as_slice() else {
            panic!("expected one end event, got {events:?}");
        };
        assert_eq!(*v, version + 1);
        assert_eq!(t.outcome(), Some(*outcome));
        assert_eq!(t.status(), Status::Finished);
        assert_eq!(t.facts().ended_at_ms, Some(50_000));
        assert_eq!(t.next_deadline(), None);
        *outcome
    }

    /// A tournament game stops itself at its round's deadline: its referee's next deadline
    /// is the stop, nothing happens a millisecond before, and at it the game ends on
    /// material, the same on replay.
    #[test]
    fn a_game_stops_itself_at_its_rounds_deadline() {
        let mut config = super::super::fixtures::config(Ruleset::Omweso, SetupKind::Outer);
        config.time_control.disconnect_grace_seconds = 3600.0;
        config.stop_at_ms = Some(90_000);
        let create = Entry::Create {
            config: config.clone(),
            creator: seat("Kato"),
            side: Side::South,
            presence_logged: true,
            display_count: true,
            computer: None,
        };
        let mut t = Table::new(uuid::Uuid::nil(), config, seat("Kato"), Side::South, 0);
        t.join(seat("Nakato"), 0).unwrap();
        t.act(Side::South, &mv("E1"), 1_000).unwrap();
        assert_eq!(t.next_deadline(), Some(90_000));
        assert!(t.tick(89_999).is_empty());
        let events = t.tick(90_000);
        assert!(
            matches!(events.as_slice(), [(_, Event::End { .. })]),
            "{events:?}"
        );
        assert_eq!(t.status(), Status::Finished);
        assert!(t.facts().adjudicated);
        assert_eq!(t.next_deadline(), None);
        let log = vec![
            (0, 0, create),
            (
                1,
                0,
                Entry::Join {
                    seat: seat("Nakato"),
                    casual: false,
                },
            ),
            (
                2,
                1_000,
                Entry::Act {
                    side: Side::South,
                    action: mv("E1"),
                },
            ),
            (3, 90_000, Entry::Tick),
        ];
        let replayed = replay(uuid::Uuid::nil(), log).unwrap();
        assert_eq!(replayed.outcome(), t.outcome());
        assert_eq!(replayed.version(), t.version());
    }

    #[test]
    fn omweso_is_decided_on_the_seeds_on_each_side() {
        assert_eq!(
            adjudicated(&mut on_board(Ruleset::Omweso, CAPTURES)),
            Outcome::Draw
        );

        let mut t = on_board(Ruleset::Omweso, CAPTURES);
        t.act(Side::South, &mv("E1"), 2_000).unwrap();
        assert_eq!(adjudicated(&mut t), won_by(Side::South));

        let mut t = on_board(Ruleset::Omweso, CAPTURES);
        t.act(Side::South, &mv("E1"), 2_000).unwrap();
        t.act(Side::North, &mv("E3/c"), 3_000).unwrap();
        assert_eq!(t.facts().seeds_on_side, [24, 40]);
        assert_eq!(adjudicated(&mut t), won_by(Side::North));
    }

    #[test]
    fn a_turn_waiting_at_a_decision_does_not_count() {
        let mut t = on_board(Ruleset::Omweso, CAPTURES);
        t.act(Side::South, &mv("E1"), 2_000).unwrap();
        let before_north = t.position();
        // North's E3 would capture 14 once answered `c`: still 38-26 for South.
        t.act(Side::North, &mv("E3"), 3_000).unwrap();
        assert!(t.pending.is_some());
        assert_eq!(adjudicated(&mut t), won_by(Side::South));
        assert!(t.pending.is_none());
        assert_eq!(t.position(), before_north);
        assert_eq!(t.facts().turns, [1, 0]);
        let refused = t.act(Side::North, &Action::Decide { choice: "c".into() }, 60_000);
        assert_eq!(refused.unwrap_err().code, ErrorCode::GameOver);
    }

    #[test]
    fn mweiso_is_decided_on_the_seeds_on_each_side() {
        // North 34 seeds, South 30.
        let mut t = on_board(
            Ruleset::Mweiso,
            "3,2,2,2,2,2,2,2/2,2,2,2,2,2,2,3/2,2,2,2,2,2,2,2/2,2,2,2,2,2,0,2 s",
        );
        assert_eq!(t.facts().seeds_on_side, [30, 34]);
        assert_eq!(adjudicated(&mut t), won_by(Side::North));

        // A turn waits at its decision (the start's board in the main phase: A1' captures
        // at B2): the board before it, 32-32, decides.
        let mut t = on_board(
            Ruleset::Mweiso,
            "2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 s",
        );
        t.act(Side::South, &mv("A1'"), 2_000).unwrap();
        assert!(t.pending.is_some());
        assert_eq!(adjudicated(&mut t), Outcome::Draw);
    }

    #[test]
    fn oware_is_decided_on_the_seeds_captured() {
        let (mut t, _) = seated(Ruleset::Oware, SetupKind::Outer);
        assert_eq!(adjudicated(&mut t), Outcome::Draw);

        // Both stores held 3 when the board was put there: only what was captured in the
        // game counts (South 2, North 0), not the seeds on each side (20-20).
        let mut t = on_board(Ruleset::Oware, "4,4,4,4,4,1/4,4,4,4,4,1 s 3 3");
        t.act(Side::South, &mv("F1"), 2_000).unwrap();
        assert_eq!(adjudicated(&mut t), won_by(Side::South));

        let mut t = on_board(Ruleset::Oware, "1,4,4,4,4,4/1,4,4,4,4,4 n 3 3");
        t.act(Side::North, &mv("A2"), 2_000).unwrap();
        assert_eq!(adjudicated(&mut t), won_by(Side::North));
    }

    #[test]
    fn in_setup_it_is_a_draw() {
        // Free setup, nobody arranged yet.
        let (mut t, _) = seated(Ruleset::Omweso, SetupKind::Free);
        assert_eq!(adjudicated(&mut t), Outcome::Draw);
        assert_eq!(t.facts().started_at_ms, None);

        // South arranged everything in one pit row: still 32 each.
        let (mut t, _) = seated(Ruleset::Omweso, SetupKind::Free);
        let mut pits = vec![4u64; 8];
        pits.extend([0; 8]);
        t.act(Side::South, &Action::Arrange { pits }, 2_000)
            .unwrap();
        assert_eq!(adjudicated(&mut t), Outcome::Draw);

        // Nobody joined.
        let config = super::super::fixtures::config(Ruleset::Oware, SetupKind::Outer);
        let mut t = Table::new(uuid::Uuid::new_v4(), config, seat("Kato"), Side::South, 0);
        assert_eq!(adjudicated(&mut t), Outcome::Draw);
    }

    #[test]
    fn a_game_over_is_not_adjudicated_and_nothing_changes() {
        let (mut t, _) = seated(Ruleset::Omweso, SetupKind::Outer);
        t.act(Side::South, &Action::Resign, 2_000).unwrap();
        let version = t.version();
        let refused = t.adjudicate(3_000).unwrap_err();
        assert_eq!(refused.code, ErrorCode::GameOver);
        assert_eq!(t.version(), version);
        assert_eq!(
            t.outcome().map(|o| o.winner()),
            Some(Some(Side::North)),
            "the resignation stands"
        );
        assert_eq!(t.facts().ended_at_ms, Some(2_000));

        let mut t = on_board(Ruleset::Omweso, CAPTURES);
        adjudicated(&mut t);
        assert_eq!(t.adjudicate(60_000).unwrap_err().code, ErrorCode::GameOver);
    }

    #[test]
    fn the_log_replays_the_adjudication() {
        // Mweiso: both opening turns (South's C1 captures 12: 44-20; North's H4 none), then
        // South's main-phase A1' captures at C2, its `c` at D2, and it waits at the chain's
        // next decision. The opening never starts clockwise (docs/rules.md#2-mweiso-kagera-murray-1951).
        let (mut t, mut log) = seated(Ruleset::Mweiso, SetupKind::Outer);
        act(&mut t, &mut log, Side::South, mv("C1"), 1_500);
        act(&mut t, &mut log, Side::North, mv("H4"), 1_800);
        act(&mut t, &mut log, Side::South, mv("A1'"), 2_000);
        let decide = Action::Decide { choice: "c".into() };
        act(&mut t, &mut log, Side::South, decide, 3_000);
        assert!(t.pending.is_some());
        let end = t.adjudicate(5_000).unwrap();
        log.push((6, 5_000, Entry::Adjudicate));
        let stored: Vec<_> = log
            .into_iter()
            .map(|(seq, at, entry)| {
                let json = serde_json::to_string(&entry).unwrap();
                (seq, at, serde_json::from_str::<Entry>(&json).unwrap())
            })
            .collect();
        let replayed = replay(t.id(), stored).unwrap();
        assert_eq!(replayed.outcome(), t.outcome());
        assert_eq!(replayed.status(), Status::Finished);
        assert_eq!(replayed.version(), t.version());
        assert_eq!(replayed.facts(), t.facts());
        assert_eq!(replayed.position(), t.position());
        assert_eq!(Entry::Adjudicate.kind(), "adjudicate");
        assert_eq!(
            serde_json::to_string(&Entry::Adjudicate).unwrap(),
            r#"{"kind":"adjudicate"}"#
        );
        let (v, event) = end.into_iter().next().unwrap();
        // The two opening turns count (44-20); South's turn, unanswered, does not.
        assert_eq!(t.facts().seeds_on_side, [44, 20]);
        assert_eq!(t.facts().turns, [1, 1]);
        assert_eq!(t.outcome(), Some(won_by(Side::South)));
        assert_eq!(
            Frame::event(v, event).to_text(),
            r#"{"t":"end","d":{"outcome":{"result":"win","winner":"s","victory":"adjudicated"}},"v":9}"#
        );
    }
}
