//! Oware's agreed end of an impasse (docs/rules.md#3-oware-abapa): "when neither player can make another
//! capture, either player may propose to stop; if the other accepts, the seeds left are
//! split evenly, the player with more seeds on their side keeping the odd one, and the game
//! is scored on captures."
//!
//! The table does not judge whether the position is an impasse. Whether a capture can ever
//! happen again is a question about every line of play from here, which no referee at the
//! board computes either: the players' agreement is the judgment. So a proposal is allowed
//! at any time while an Oware game is being played, by either player, whoever is to move;
//! a player who does not think it is an impasse declines. A proposal stands until the
//! proposer's opponent answers it (accept: the game ends; decline: play goes on) or the
//! proposer plays their next turn (the offer lapses with that turn, as an offer of a draw
//! does at the board). The opponent may play on and still accept later while it stands.
//! Proposals and answers are actions: logged, and replayed after a restart.

use omweso_rules::{Game, Ruleset, Side};

use super::{refuse, Refusal, Table};
use omweso_protocol::{ErrorCode, Event, Impasse, Split};

impl Table {
    /// The proposal to stop standing now, if any: who made it.
    #[must_use]
    pub fn impasse_proposed_by(&self) -> Option<Side> {
        self.impasse
            .filter(|i| i.split.is_none() && !self.status.is_over())
            .map(|i| i.proposed_by)
    }

    /// The impasse as viewers see it: the proposal standing, or the accepted one that
    /// ended the game (a proposal standing when the game ended otherwise is gone).
    #[must_use]
    pub fn impasse_view(&self) -> Option<Impasse> {
        self.impasse
            .filter(|i| i.split.is_some() || !self.status.is_over())
    }

    /// The name of `side`'s player, for refusals.
    fn name_of(&self, side: Side) -> &str {
        self.seats[side.index()]
            .as_ref()
            .map_or("your opponent", |s| s.name.as_str())
    }

    /// Checks that an impasse proposal or answer may be made now: an Oware game being
    /// played.
    fn impasse_allowed(&self) -> Result<(), Refusal> {
        if self.config.ruleset != Ruleset::Oware {
            return Err(refuse(
                ErrorCode::NotOware,
                format!(
                    "only Oware is stopped at an impasse by agreement (docs/rules.md#3-oware-abapa); this game is {}",
                    match self.config.ruleset {
                        Ruleset::Omweso => "Omweso",
                        Ruleset::Mweiso => "Mweiso",
                        Ruleset::Oware => "Oware",
                    }
                ),
            ));
        }
        self.playing_board().map(|_| ())
    }

    /// `side` proposes to stop at an impasse.
    pub(super) fn propose_impasse(&mut self, side: Side) -> Result<Vec<Event>, Refusal> {
        self.impasse_allowed()?;
        match self.impasse_proposed_by() {
            Some(by) if by == side => Err(refuse(
                ErrorCode::ImpasseStanding,
                format!(
                    "your proposal to stop stands until {} answers it",
                    self.name_of(side.other())
                ),
            )),
            Some(by) => Err(refuse(
                ErrorCode::ImpasseStanding,
                format!(
                    "{} has proposed to stop: accept or decline it with impasse_answer",
                    self.name_of(by)
                ),
            )),
            None if self.impasse_declined == Some(side) => Err(refuse(
                ErrorCode::ImpasseStanding,
                format!(
                    "{} declined your proposal to stop: play a turn before proposing again",
                    self.name_of(side.other())
                ),
            )),
            None => {
                self.impasse = Some(Impasse {
                    proposed_by: side,
                    split: None,
                });
                Ok(vec![Event::ImpasseProposed { by: side }])
            }
        }
    }

    /// `side` answers the opponent's standing proposal: accepting ends the game with the
    /// seeds left split evenly (the odd one to the side with more on it); declining lets
    /// play go on.
    pub(super) fn answer_impasse(
        &mut self,
        side: Side,
        accept: bool,
        now: u64,
    ) -> Result<Vec<Event>, Refusal> {
        self.impasse_allowed()?;
        let Some(proposer) = self.impasse_proposed_by() else {
            return Err(refuse(
                ErrorCode::NoImpasse,
                "no proposal to stop is standing",
            ));
        };
        if proposer == side {
            return Err(refuse(
                ErrorCode::OwnImpasse,
                format!(
                    "you cannot answer your own proposal: it stands until {} answers it or you play your next turn",
                    self.name_of(side.other())
                ),
            ));
        }
        if !accept {
            self.impasse = None;
            self.impasse_declined = Some(proposer);
            return Ok(vec![Event::ImpasseDeclined { by: side }]);
        }
        let Some(position) = self.board.as_ref().and_then(Game::oware).copied() else {
            return Err(refuse(
                ErrorCode::Unavailable,
                "the game has no Oware board",
            ));
        };
        let [s, n] = position.impasse_split();
        let (end, outcome) = position.settle_impasse();
        self.tally.captured[Side::South.index()] += u64::from(s);
        self.tally.captured[Side::North.index()] += u64::from(n);
        self.board = Some(Game::Oware(end));
        let agreed = Impasse {
            proposed_by: proposer,
            split: Some(Split { s, n }),
        };
        self.impasse = Some(agreed);
        let mut events = self.finish(outcome, now);
        if let Some(Event::End {
            impasse, position, ..
        }) = events.last_mut()
        {
            *impasse = Some(agreed);
            *position = Some(end.to_string());
        }
        Ok(events)
    }

    /// `by` played a whole turn: their own standing proposal lapses with it.
    pub(super) fn impasse_lapses(&mut self, by: Side) {
        if self.impasse_proposed_by() == Some(by) {
            self.impasse = None;
        }
        if self.impasse_declined == Some(by) {
            self.impasse_declined = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use omweso_rules::{Outcome, Ruleset, Side, Victory};

    use super::super::fixtures::{act, mv, on_board, seated};
    use super::super::{Action, Table};
    use crate::log::{replay, Entry};
    use omweso_protocol::config::SetupKind;
    use omweso_protocol::{ErrorCode, Event, Frame, Impasse, Split, Status};

    const PROPOSE: Action = Action::Impasse;
    const ACCEPT: Action = Action::ImpasseAnswer { accept: true };
    const DECLINE: Action = Action::ImpasseAnswer { accept: false };

    fn refused(t: &mut Table, side: Side, action: &Action) -> (ErrorCode, String) {
        let version = t.version();
        let r = t.act(side, action, 9_000).unwrap_err();
        assert_eq!(t.version(), version, "a refusal changes nothing");
        (r.code, r.message)
    }

    /// 7 seeds left (South C1 3, North F2 1 and A2 3): 3 each and North, with 4 on its
    /// side, keeps the odd one. 20 + 3 = 23 for South, 21 + 4 = 25 for North.
    const ODD: &str = "3,0,0,0,0,1/0,0,3,0,0,0 s 20 21";

    #[test]
    fn an_accepted_proposal_splits_the_seeds_left_and_ends_the_game() {
        let mut t = on_board(Ruleset::Oware, ODD);
        let before = t.facts().captured;
        let events = t.act(Side::South, &PROPOSE, 2_000).unwrap();
        assert_eq!(
            events,
            vec![(3, Event::ImpasseProposed { by: Side::South })]
        );
        assert_eq!(t.impasse_proposed_by(), Some(Side::South));
        let events = t.act(Side::North, &ACCEPT, 3_000).unwrap();
        let outcome = Outcome::Win {
            winner: Side::North,
            victory: Victory::Impasse,
        };
        let agreed = Impasse {
            proposed_by: Side::South,
            split: Some(Split { s: 3, n: 4 }),
        };
        assert_eq!(
            events,
            vec![(
                4,
                Event::End {
                    outcome,
                    impasse: Some(agreed),
                    position: Some("0,0,0,0,0,0/0,0,0,0,0,0 s 23 25".into()),
                }
            )]
        );
        assert_eq!(
            Frame::event(4, events[0].1.clone()).to_text(),
            r#"{"t":"end","d":{"outcome":{"result":"win","winner":"n","victory":"impasse"},"impasse":{"proposed_by":"s","split":{"s":3,"n":4}},"position":"0,0,0,0,0,0/0,0,0,0,0,0 s 23 25"},"v":4}"#
        );
        assert_eq!(t.status(), Status::Finished);
        assert_eq!(t.outcome(), Some(outcome));
        assert_eq!(
            t.position().as_deref(),
            Some("0,0,0,0,0,0/0,0,0,0,0,0 s 23 25")
        );
        // The sheet's seeds: what each took of the split on top of the game's captures.
        assert_eq!(t.facts().captured, [before[0] + 3, before[1] + 4]);
        assert_eq!(t.facts().ended_at_ms, Some(3_000));
        assert_eq!(t.facts().seeds_on_side, [0, 0]);
        let snapshot = t.snapshot(Some(Side::South), [true, true], 0, &Default::default());
        assert_eq!(snapshot.impasse, Some(agreed));
        assert_eq!(t.impasse_proposed_by(), None);
        assert_eq!(t.next_deadline(), None);
        // Nothing more to propose or answer.
        assert_eq!(
            refused(&mut t, Side::South, &PROPOSE).0,
            ErrorCode::GameOver
        );
        assert_eq!(refused(&mut t, Side::North, &ACCEPT).0, ErrorCode::GameOver);
    }

    #[test]
    fn an_even_split_can_draw_and_the_proposer_may_be_either_side() {
        // 6 left, South 1 and North 5: 3 each, 24-24.
        let mut t = on_board(Ruleset::Oware, "0,5,0,0,0,0/0,0,0,0,1,0 s 21 21");
        t.act(Side::North, &PROPOSE, 2_000).unwrap();
        let events = t.act(Side::South, &ACCEPT, 2_500).unwrap();
        let [(
            _,
            Event::End {
                outcome, impasse, ..
            },
        )] = events.as_slice()
        else {
            panic!("{events:?}");
        };
        assert_eq!(*outcome, Outcome::Draw);
        assert_eq!(
            *impasse,
            Some(Impasse {
                proposed_by: Side::North,
                split: Some(Split { s: 3, n: 3 })
            })
        );
        assert_eq!(
            t.position().as_deref(),
            Some("0,0,0,0,0,0/0,0,0,0,0,0 s 24 24")
        );
    }

    #[test]
    fn a_declined_proposal_lets_play_go_on() {
        let mut t = on_board(Ruleset::Oware, ODD);
        t.act(Side::North, &PROPOSE, 2_000).unwrap();
        let events = t.act(Side::South, &DECLINE, 2_500).unwrap();
        assert_eq!(
            events,
            vec![(4, Event::ImpasseDeclined { by: Side::South })]
        );
        assert_eq!(
            Frame::event(4, events[0].1.clone()).to_text(),
            r#"{"t":"impasse_declined","d":{"by":"s"},"v":4}"#
        );
        assert_eq!(t.impasse_proposed_by(), None);
        assert_eq!(t.status(), Status::Playing);
        assert_eq!(t.position().as_deref(), Some(ODD));
        // Declined, North may not ask again and again: only after a turn of theirs.
        assert_eq!(
            refused(&mut t, Side::North, &PROPOSE),
            (
                ErrorCode::ImpasseStanding,
                "Kato declined your proposal to stop: play a turn before proposing again"
                    .to_owned()
            )
        );
        let snapshot = t.snapshot(None, [true, true], 0, &Default::default());
        assert_eq!(snapshot.impasse, None);
        // Play goes on, and a new proposal may be made.
        t.act(Side::South, &mv("C1"), 3_000).unwrap();
        t.act(Side::South, &PROPOSE, 3_500).unwrap();
        assert_eq!(t.impasse_proposed_by(), Some(Side::South));
    }

    #[test]
    fn a_proposal_stands_through_the_opponents_turn_and_lapses_with_the_proposers() {
        let mut t = on_board(Ruleset::Oware, ODD);
        t.act(Side::South, &PROPOSE, 2_000).unwrap();
        // South plays on: its proposal lapses with its turn.
        t.act(Side::South, &mv("C1"), 2_500).unwrap();
        assert_eq!(t.impasse_proposed_by(), None);
        assert_eq!(
            refused(&mut t, Side::North, &ACCEPT).0,
            ErrorCode::NoImpasse
        );
        // South proposes while North is to move: North plays, and the proposal stands.
        t.act(Side::South, &PROPOSE, 3_000).unwrap();
        t.act(Side::North, &mv("A2"), 3_500).unwrap();
        assert_eq!(t.impasse_proposed_by(), Some(Side::South));
        let snapshot = t.snapshot(Some(Side::North), [true, true], 0, &Default::default());
        assert_eq!(
            snapshot.impasse,
            Some(Impasse {
                proposed_by: Side::South,
                split: None
            })
        );
        let events = t.act(Side::North, &ACCEPT, 4_000).unwrap();
        assert!(matches!(events[0].1, Event::End { .. }), "{events:?}");
    }

    #[test]
    fn refusals_say_what_is_wrong() {
        let mut t = on_board(Ruleset::Oware, ODD);
        assert_eq!(
            refused(&mut t, Side::North, &ACCEPT),
            (
                ErrorCode::NoImpasse,
                "no proposal to stop is standing".into()
            )
        );
        t.act(Side::South, &PROPOSE, 2_000).unwrap();
        assert_eq!(
            refused(&mut t, Side::South, &PROPOSE),
            (
                ErrorCode::ImpasseStanding,
                "your proposal to stop stands until Nakato answers it".into()
            )
        );
        assert_eq!(
            refused(&mut t, Side::North, &PROPOSE),
            (
                ErrorCode::ImpasseStanding,
                "Kato has proposed to stop: accept or decline it with impasse_answer".into()
            )
        );
        assert_eq!(
            refused(&mut t, Side::South, &ACCEPT),
            (
                ErrorCode::OwnImpasse,
                "you cannot answer your own proposal: it stands until Nakato answers it or you play your next turn".into()
            )
        );

        let (mut omweso, _) = seated(Ruleset::Omweso, SetupKind::Outer);
        assert_eq!(
            refused(&mut omweso, Side::South, &PROPOSE),
            (
                ErrorCode::NotOware,
                "only Oware is stopped at an impasse by agreement (docs/rules.md#3-oware-abapa); this game is Omweso".into()
            )
        );
        assert_eq!(
            refused(&mut omweso, Side::North, &ACCEPT).0,
            ErrorCode::NotOware
        );

        // Before the second player came.
        let config = super::super::fixtures::config(Ruleset::Oware, SetupKind::Outer);
        let mut alone = Table::new(
            uuid::Uuid::new_v4(),
            config,
            super::super::fixtures::seat("Kato"),
            Side::South,
            0,
        );
        assert_eq!(
            refused(&mut alone, Side::South, &PROPOSE).0,
            ErrorCode::NotStarted
        );

        // After a resignation.
        let mut t = on_board(Ruleset::Oware, ODD);
        t.act(Side::South, &PROPOSE, 2_000).unwrap();
        t.act(Side::South, &Action::Resign, 2_500).unwrap();
        assert_eq!(refused(&mut t, Side::North, &ACCEPT).0, ErrorCode::GameOver);
        assert_eq!(
            t.snapshot(None, [true, true], 0, &Default::default())
                .impasse,
            None
        );
    }

    /// Proposals and answers are logged actions: a game replayed from its log has the same
    /// standing proposal, and the same end, at the same versions.
    #[test]
    fn the_log_replays_proposals_answers_and_the_agreed_end() {
        let (mut t, mut log) = seated(Ruleset::Oware, SetupKind::Outer);
        act(&mut t, &mut log, Side::South, mv("C1"), 2_000);
        act(&mut t, &mut log, Side::North, PROPOSE, 2_500);
        act(&mut t, &mut log, Side::South, DECLINE, 3_000);
        act(&mut t, &mut log, Side::North, mv("A2"), 3_500);
        // North proposes with South to move; South plays on, and the proposal stands.
        act(&mut t, &mut log, Side::North, PROPOSE, 4_000);
        act(&mut t, &mut log, Side::South, mv("D1"), 4_500);
        let stored = |log: &Vec<(i64, u64, Entry)>| -> Vec<(i64, u64, Entry)> {
            log.iter()
                .map(|(seq, at, entry)| {
                    let json = serde_json::to_string(entry).unwrap();
                    (*seq, *at, serde_json::from_str::<Entry>(&json).unwrap())
                })
                .collect()
        };
        let replayed = replay(t.id(), stored(&log)).unwrap();
        assert_eq!(replayed.impasse_proposed_by(), Some(Side::North));
        assert_eq!(replayed.version(), t.version());
        let seen = |t: &Table| t.snapshot(Some(Side::South), [true, true], 0, &Default::default());
        assert_eq!(seen(&replayed), seen(&t));

        act(&mut t, &mut log, Side::South, ACCEPT, 5_000);
        assert_eq!(t.status(), Status::Finished);
        let replayed = replay(t.id(), stored(&log)).unwrap();
        assert_eq!(replayed.outcome(), t.outcome());
        assert_eq!(replayed.position(), t.position());
        assert_eq!(replayed.facts(), t.facts());
        assert_eq!(replayed.version(), t.version());
        assert_eq!(seen(&replayed), seen(&t));
        assert_eq!(
            serde_json::to_string(&ACCEPT).unwrap(),
            r#"{"kind":"impasse_answer","accept":true}"#
        );
        assert_eq!(
            serde_json::to_string(&PROPOSE).unwrap(),
            r#"{"kind":"impasse"}"#
        );
        // Nothing was captured: South's 23 seeds on its side and North's 25 are split
        // 24-24, a draw.
        assert_eq!(t.facts().captured, [24, 24]);
        assert_eq!(t.outcome(), Some(Outcome::Draw));
    }
}
