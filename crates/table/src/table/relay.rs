//! A relayed game (docs/rules.md#57-over-the-board-play-and-relays): played on a wooden
//! board, its moves entered by the table's relay as they are sown, each checked by the
//! rules engine, the last ones undoable.
//!
//! The relay acts for whichever side the game waits for: the side whose turn it is (the
//! owner of the pit a move starts from), the side whose turn waits at a decision, the side
//! that arranges (named, as the seeds are placed on the board) and the side that resigns
//! (named). Nothing here reads a clock: a relayed game's referee keeps no count, no move
//! limit, no abandonment and no disconnect grace ([`Table::time_control`]); only its
//! round's deadline (`stop_at_ms`) stops it, on material.
//!
//! **Undo.** Before each entry the table keeps what the entry may change (a
//! [`RelayMark`]); an undo puts the latest back and sends `undone` with a new version (a
//! version never goes back: pages and the tournament order news by it). The marks are
//! rebuilt by replaying the log, each entry and undo where it was, so a restarted server
//! can still take back the same entries. At most [`RELAY_UNDO_DEPTH`] are kept.
//!
//! An undo after the game ended is refused, here in the game's own task so that nothing
//! can come between the look and the undo: the tournament records the end as the table's
//! proposed result as soon as it hears it, and a game reopened after that would follow the
//! board no more (its later end unheard). A relay who entered a wrong end says so; the
//! players dispute the proposal and a director settles the sheet.

use omweso_rules::{GameMove, Side};
use serde::{Deserialize, Serialize};

use super::clock::Clock;
use super::relay_mark::RelayMark;
use super::{refuse, Action, Refusal, Table};
use omweso_protocol::{Arrangements, ErrorCode, Event, Legal, Undone};

/// How many of the relay's last entries may be taken back, one after the other.
pub const RELAY_UNDO_DEPTH: usize = 50;

/// What a relay enters (the body of `POST .../relay/act`, `kind` naming it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum RelayAction {
    /// A move, or its start alone (the turn then waits at its first decision point), for
    /// the side whose pit it starts from.
    Move { notation: String },
    /// The answer to the decision the turn waits at.
    Decide { choice: String },
    /// `side`'s free-setup arrangement, in its own pit order.
    Arrange { side: Side, pits: Vec<u64> },
    /// `side` resigns.
    Resign { side: Side },
    /// Takes back the relay's last entry.
    Undo,
}

impl RelayAction {
    /// The name of the action, for logs and messages.
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            RelayAction::Move { .. } => "move",
            RelayAction::Decide { .. } => "decide",
            RelayAction::Arrange { .. } => "arrange",
            RelayAction::Resign { .. } => "resign",
            RelayAction::Undo => "undo",
        }
    }
}

impl Table {
    /// Carries out the relay's `action` at `now`. Refused (nothing changed) in a game not
    /// relayed, and as the same action by the side it acts for would be.
    pub fn relay(&mut self, action: &RelayAction, now: u64) -> Result<Vec<(u64, Event)>, Refusal> {
        if !self.config.relayed {
            return Err(refuse(
                ErrorCode::NotRelayed,
                "this game is played online by its players: it takes no relay",
            ));
        }
        let (side, played) = match action {
            RelayAction::Undo => return self.undo(now),
            RelayAction::Move { notation } => (
                self.mover(notation)?,
                Action::Move {
                    notation: notation.clone(),
                },
            ),
            RelayAction::Decide { choice } => (
                self.decider()?,
                Action::Decide {
                    choice: choice.clone(),
                },
            ),
            RelayAction::Arrange { side, pits } => (*side, Action::Arrange { pits: pits.clone() }),
            RelayAction::Resign { side } => (*side, Action::Resign),
        };
        let mark = self.mark();
        let events = self.act(side, &played, now)?;
        if self.relay_marks.len() == RELAY_UNDO_DEPTH {
            self.relay_marks.pop_front();
        }
        self.relay_marks.push_back(mark);
        Ok(events)
    }

    /// How many of the relay's entries may be taken back now.
    #[must_use]
    pub fn relay_undoable(&self) -> usize {
        self.relay_marks.len()
    }

    /// The side a move by the relay is for: the owner of the pit (house) it starts from,
    /// which must be a side that may move now.
    fn mover(&self, notation: &str) -> Result<Side, Refusal> {
        let board = self.playing_board()?;
        if self.pending.is_some() {
            return Err(refuse(
                ErrorCode::TurnInProgress,
                "the turn being sown waits for a decision: enter its answer first",
            ));
        }
        let mv = GameMove::parse(board.ruleset(), notation)
            .map_err(|e| refuse(ErrorCode::BadMove, format!("{notation:?}: {e}")))?;
        let side = mv.start().side();
        if board.may_move(side) {
            return Ok(side);
        }
        let waited = board.to_move().map_or_else(String::new, |s| {
            format!("; it is {}'s turn", self.called(s))
        });
        Err(refuse(
            ErrorCode::NotYourTurn,
            format!(
                "{notation} starts from {}'s side, who may not move now{waited}",
                self.called(side)
            ),
        ))
    }

    /// The side whose turn waits at a decision.
    fn decider(&self) -> Result<Side, Refusal> {
        self.playing_board()?;
        self.pending.as_ref().map(|p| p.by).ok_or_else(|| {
            refuse(
                ErrorCode::NoDecision,
                "no turn waits for a decision: enter a move",
            )
        })
    }

    /// `side` as the relay knows it: the player's name and where they sit.
    fn called(&self, side: Side) -> String {
        let seat = match side {
            Side::South => "South",
            Side::North => "North",
        };
        match self.seat(side) {
            Some(player) => format!("{} ({seat})", player.name),
            None => seat.to_owned(),
        }
    }

    fn mark(&self) -> RelayMark {
        RelayMark {
            status: self.status,
            board: self.board,
            arrangements: self.arrangements,
            pending: self.pending.clone(),
            history_len: self.history.len(),
            outcome: self.outcome,
            tally: self.tally,
            impasse: self.impasse,
            impasse_declined: self.impasse_declined,
            clock: self.clock,
        }
    }

    /// Takes back the relay's last entry at `now`: the table as it was before it, with
    /// the next version, in an `undone` event.
    fn undo(&mut self, now: u64) -> Result<Vec<(u64, Event)>, Refusal> {
        if self.status.is_over() && self.tally.adjudicated {
            return Err(refuse(
                ErrorCode::GameOver,
                "the game was stopped and decided on material; that cannot be taken back",
            ));
        }
        if self.status.is_over() {
            return Err(refuse(
                ErrorCode::GameOver,
                "the game is over: its result waits for the players' initials; if it is wrong, they dispute it and a director settles the sheet",
            ));
        }
        let Some(mark) = self.relay_marks.pop_back() else {
            return Err(refuse(
                ErrorCode::NothingToUndo,
                format!(
                    "there is no entry to take back (the last {RELAY_UNDO_DEPTH} entries at most can be)"
                ),
            ));
        };
        // Who is connected, their round trips and the grace paused by an old log are the
        // table's now, not the entry's.
        let clock = Clock {
            here: self.clock.here,
            latency_ms: self.clock.latency_ms,
            away_since_ms: self.clock.away_since_ms,
            grace_paused: self.clock.grace_paused,
            old_count: self.clock.old_count,
            ..mark.clock
        };
        self.status = mark.status;
        self.board = mark.board;
        self.arrangements = mark.arrangements;
        self.pending = mark.pending;
        self.history.truncate(mark.history_len);
        self.outcome = mark.outcome;
        self.tally = mark.tally;
        self.impasse = mark.impasse;
        self.impasse_declined = mark.impasse_declined;
        self.clock = clock;
        self.last_change_ms = now;
        let undone = self.undone_view();
        Ok(self.emit(vec![Event::Undone(undone)]))
    }

    /// The game as it stands, for the `undone` event (`legal` filled in by the publisher).
    fn undone_view(&self) -> Undone {
        let pending = self.pending.as_ref();
        Undone {
            moves: self.history.len(),
            status: self.status,
            position: self.shown_position(),
            to_move: self.shown_to_move(),
            opening: self.board.map(|b| b.opening_owed()).unwrap_or_default(),
            pending: pending.and_then(|p| {
                p.turn
                    .pending_decision()
                    .map(|d| super::turn::options(&d, p.by))
            }),
            pending_results: pending.map(|p| p.results.clone()),
            pending_move: pending.map(|p| p.tokens.join("/")),
            arrangements: Arrangements {
                s: self.arrangements[0].map(|a| a.counts()),
                n: self.arrangements[1].map(|a| a.counts()),
            },
            clock: self.clock_view(),
            legal: Legal::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use omweso_rules::{Game, Outcome, Ruleset, Side, Victory};
    use uuid::Uuid;

    use super::super::fixtures::{config, seat, seated};
    use super::super::Table;
    use super::{RelayAction, RELAY_UNDO_DEPTH};
    use crate::log::{replay, Entry};
    use omweso_protocol::config::{GameConfig, SetupKind, TimeControl};
    use omweso_protocol::{ErrorCode, Event, Status};

    /// South's E1 captures 6 seeds; North's E3 then stops at a decision, whose `c`
    /// captures 14 (the table's other tests' board).
    const CAPTURES: &str = "5,0,0,0,1,1,1,1/0,3,0,5,5,5,0,5/10,4,1,4,4,0,0,4/1,0,0,0,4,0,0,0 s";

    /// A relayed tournament game (the tournament preset's clocks, which a relayed game
    /// does not keep), both players seated at 1 000, with its log so far.
    fn relayed(
        ruleset: Ruleset,
        setup: SetupKind,
        stop_at_ms: Option<u64>,
    ) -> (Table, Vec<(i64, u64, Entry)>) {
        let config = GameConfig {
            time_control: TimeControl::TOURNAMENT,
            stop_at_ms,
            relayed: true,
            ..config(ruleset, setup)
        };
        let (south, north) = (seat("Kato"), seat("Nakato"));
        let mut table = Table::new(
            Uuid::new_v4(),
            config.clone(),
            south.clone(),
            Side::South,
            0,
        );
        table.join(north.clone(), 1_000).unwrap();
        let log = vec![
            (
                0,
                0,
                Entry::Create {
                    config,
                    creator: south,
                    side: Side::South,
                    presence_logged: true,
                    display_count: true,
                    computer: None,
                },
            ),
            (
                1,
                1_000,
                Entry::Join {
                    seat: north,
                    casual: false,
                },
            ),
        ];
        (table, log)
    }

    /// A relayed Omweso game being played from the hand-made `position` (no log).
    fn relayed_on(position: &str) -> Table {
        let (mut table, _) = relayed(Ruleset::Omweso, SetupKind::Outer, None);
        table.board = Some(Game::parse(Ruleset::Omweso, position).unwrap());
        table
    }

    fn mv(notation: &str) -> RelayAction {
        RelayAction::Move {
            notation: notation.into(),
        }
    }

    fn decide(choice: &str) -> RelayAction {
        RelayAction::Decide {
            choice: choice.into(),
        }
    }

    /// Enters `action` at `at`, logging it as the game's task does.
    fn enter(
        t: &mut Table,
        log: &mut Vec<(i64, u64, Entry)>,
        action: RelayAction,
        at: u64,
    ) -> Vec<(u64, Event)> {
        let events = t
            .relay(&action, at)
            .unwrap_or_else(|r| panic!("{action:?} refused: {}", r.message));
        let seq = i64::try_from(log.len()).unwrap();
        log.push((seq, at, Entry::Relay { action }));
        events
    }

    fn refused(t: &mut Table, action: &RelayAction) -> (ErrorCode, String) {
        let version = t.version();
        let refusal = t.relay(action, 9_000).unwrap_err();
        assert_eq!(t.version(), version, "a refusal changes nothing");
        (refusal.code, refusal.message)
    }

    /// The `undone` event of an undo, checked to be the only one, one version on.
    fn undone(t: &mut Table) -> omweso_protocol::Undone {
        let version = t.version();
        let events = t.relay(&RelayAction::Undo, 8_000).unwrap();
        let [(v, Event::Undone(undone))] = events.as_slice() else {
            panic!("expected one undone event, got {events:?}");
        };
        assert_eq!(*v, version + 1, "an undo is a new version");
        undone.clone()
    }

    #[test]
    fn the_relay_enters_moves_for_both_sides_and_answers_a_decision() {
        let mut t = relayed_on(CAPTURES);
        let events = t.relay(&mv("E1"), 2_000).unwrap();
        assert!(matches!(events.as_slice(), [(_, Event::Played(p))] if p.by == Side::South));
        assert_eq!(t.shown_to_move(), Some(Side::North));
        // North's E3 waits at its decision; the relay answers it for North.
        let events = t.relay(&mv("E3"), 3_000).unwrap();
        assert!(
            matches!(events.as_slice(), [(_, Event::Played(p)), (_, Event::Decision { by: Side::North, .. })] if p.pending),
            "{events:?}"
        );
        t.relay(&decide("c"), 4_000).unwrap();
        assert_eq!(t.moves_played(), 2);
        assert_eq!(t.history[1].mv, "E3/c");
        assert_eq!(t.history[1].by, Side::North);
        assert_eq!(t.facts().captured, [6, 14]);
        assert_eq!(t.shown_to_move(), Some(Side::South));
        assert_eq!(t.relay_undoable(), 3);
    }

    #[test]
    fn a_relay_entry_the_rules_refuse_is_refused_in_words() {
        let mut t = relayed_on(CAPTURES);
        let (code, message) = refused(&mut t, &mv("E3"));
        assert_eq!(code, ErrorCode::NotYourTurn);
        assert_eq!(
            message,
            "E3 starts from Nakato (North)'s side, who may not move now; it is Kato (South)'s turn"
        );
        assert_eq!(refused(&mut t, &mv("Z9")).0, ErrorCode::BadMove);
        assert_eq!(refused(&mut t, &decide("c")).0, ErrorCode::NoDecision);
        t.relay(&mv("E1"), 2_000).unwrap();
        t.relay(&mv("E3"), 3_000).unwrap();
        let (code, message) = refused(&mut t, &mv("A1"));
        assert_eq!(code, ErrorCode::TurnInProgress);
        assert_eq!(
            message,
            "the turn being sown waits for a decision: enter its answer first"
        );
        assert_eq!(refused(&mut t, &decide("x")).0, ErrorCode::BadDecision);
        let arrange = RelayAction::Arrange {
            side: Side::South,
            pits: vec![2; 16],
        };
        assert_eq!(refused(&mut t, &arrange).0, ErrorCode::NoArrangement);
        assert_eq!(t.relay_undoable(), 2, "refusals are not entries");
    }

    #[test]
    fn an_undo_restores_the_exact_previous_position_and_player() {
        let mut t = relayed_on(CAPTURES);
        let start = (t.position(), t.shown_to_move(), t.facts());
        t.relay(&mv("E1"), 2_000).unwrap();
        let after_e1 = (t.position(), t.shown_to_move(), t.facts());
        let undone = undone(&mut t);
        assert_eq!((t.position(), t.shown_to_move(), t.facts()), start);
        assert_eq!(undone.moves, 0);
        assert_eq!(undone.position, start.0);
        assert_eq!(undone.to_move, Some(Side::South));
        assert_eq!(undone.status, Status::Playing);
        assert_eq!(undone.pending, None);
        assert_eq!(t.moves_played(), 0);
        // Entered again, it plays as it did.
        t.relay(&mv("E1"), 2_500).unwrap();
        assert_eq!((t.position(), t.shown_to_move(), t.facts()), after_e1);
    }

    #[test]
    fn undoing_again_takes_back_the_decision_then_the_move() {
        let mut t = relayed_on(CAPTURES);
        t.relay(&mv("E1"), 2_000).unwrap();
        let after_e1 = (t.position(), t.shown_to_move(), t.facts());
        t.relay(&mv("E3"), 3_000).unwrap();
        let waiting = (t.shown_position(), t.shown_to_move());
        t.relay(&decide("c"), 4_000).unwrap();
        // The answer taken back: the turn waits at its decision again.
        let first = undone(&mut t);
        assert_eq!((t.shown_position(), t.shown_to_move()), waiting);
        assert_eq!(first.pending, Some(vec!["a".to_owned(), "c".to_owned()]));
        assert_eq!(first.pending_move.as_deref(), Some("E3"));
        assert_eq!(first.moves, 1);
        assert_eq!(first.position, waiting.0);
        // The move taken back: North to move after E1.
        let second = undone(&mut t);
        assert_eq!((t.position(), t.shown_to_move(), t.facts()), after_e1);
        assert_eq!((second.moves, second.pending), (1, None));
        assert_eq!(second.to_move, Some(Side::North));
        t.relay(&mv("E3/c"), 5_000).unwrap();
        assert_eq!(t.history[1].mv, "E3/c");
    }

    #[test]
    fn an_undo_with_nothing_to_take_back_is_refused() {
        let mut t = relayed_on(CAPTURES);
        let (code, message) = refused(&mut t, &RelayAction::Undo);
        assert_eq!(code, ErrorCode::NothingToUndo);
        assert_eq!(
            message,
            "there is no entry to take back (the last 50 entries at most can be)"
        );
        t.relay(&mv("E1"), 2_000).unwrap();
        undone(&mut t);
        assert_eq!(
            refused(&mut t, &RelayAction::Undo).0,
            ErrorCode::NothingToUndo
        );
    }

    #[test]
    fn a_game_not_relayed_refuses_every_relay_action() {
        let (mut t, _) = seated(Ruleset::Omweso, SetupKind::Outer);
        let bodies = [
            mv("E1"),
            decide("c"),
            RelayAction::Arrange {
                side: Side::South,
                pits: vec![2; 16],
            },
            RelayAction::Resign { side: Side::North },
            RelayAction::Undo,
        ];
        for action in bodies {
            let (code, message) = refused(&mut t, &action);
            assert_eq!(code, ErrorCode::NotRelayed, "{action:?}");
            assert_eq!(
                message,
                "this game is played online by its players: it takes no relay"
            );
        }
        assert_eq!(t.moves_played(), 0);
    }

    /// Nobody is connected to a relayed game, ever: under the tournament preset's clocks
    /// no count, steal, move limit, abandonment or grace fires, however long it waits,
    /// at a decision or not, and in a timed free setup no arrangement is placed for
    /// anyone.
    #[test]
    fn no_referee_clock_fires_in_a_relayed_game() {
        let day = 24 * 3_600_000;
        let (mut t, mut log) = relayed(Ruleset::Omweso, SetupKind::Outer, None);
        assert_eq!(t.next_deadline(), None);
        for at in [61_000, 200_000, day] {
            assert_eq!(t.tick(at), vec![]);
        }
        enter(&mut t, &mut log, mv("E1"), day + 1);
        assert_eq!(t.clock(), omweso_protocol::ClockView::default());
        // A player opens the game page and leaves again: still no grace.
        assert!(t.set_present(Side::North, true, day + 2).is_some());
        assert!(t.set_present(Side::North, false, day + 3).is_some());
        assert_eq!(t.next_deadline(), None);
        assert_eq!(t.tick(10 * day), vec![]);
        assert_eq!(t.status(), Status::Playing);

        let mut t = relayed_on(CAPTURES);
        t.relay(&mv("E1"), 2_000).unwrap();
        t.relay(&mv("E3"), 3_000).unwrap();
        assert_eq!(t.next_deadline(), None, "no move limit at a decision");
        assert_eq!(t.tick(day), vec![]);
        t.relay(&decide("c"), day + 5).unwrap();
        assert_eq!(t.facts().captured, [6, 14]);

        let (mut t, _) = relayed(Ruleset::Omweso, SetupKind::Free, None);
        assert_eq!((t.arrange_deadline(), t.next_deadline()), (None, None));
        assert_eq!(t.tick(day), vec![]);
        assert_eq!(t.arrangements, [None, None]);
        assert_eq!(t.time_control().referee_seconds, None);
        assert_eq!(t.time_control().move_limit_seconds, None);
        assert_eq!(t.time_control().arrange_seconds, None);
    }

    #[test]
    fn the_rounds_deadline_adjudicates_a_relayed_game_for_good() {
        let (mut t, mut log) = relayed(Ruleset::Omweso, SetupKind::Outer, Some(90_000));
        enter(&mut t, &mut log, mv("E1"), 5_000);
        assert_eq!(t.next_deadline(), Some(90_000));
        assert_eq!(t.tick(89_999), vec![]);
        let events = t.tick(90_000);
        assert!(
            matches!(events.as_slice(), [(_, Event::End { .. })]),
            "{events:?}"
        );
        assert!(t.facts().adjudicated);
        assert_eq!(t.status(), Status::Finished);
        let (code, message) = refused(&mut t, &RelayAction::Undo);
        assert_eq!(code, ErrorCode::GameOver);
        assert_eq!(
            message,
            "the game was stopped and decided on material; that cannot be taken back"
        );
        assert_eq!(refused(&mut t, &mv("A4")).0, ErrorCode::GameOver);
    }

    /// A relay who ended the game by mistake (the wrong side resigned) cannot take it
    /// back: the tournament has it as the table's proposal, which the players dispute.
    #[test]
    fn an_end_the_relay_entered_cannot_be_taken_back() {
        let mut t = relayed_on(CAPTURES);
        t.relay(&mv("E1"), 2_000).unwrap();
        let position = t.position();
        let events = t
            .relay(&RelayAction::Resign { side: Side::South }, 3_000)
            .unwrap();
        assert!(matches!(
            events.as_slice(),
            [(
                _,
                Event::End {
                    outcome: Outcome::Win {
                        winner: Side::North,
                        victory: Victory::Resigned
                    },
                    ..
                }
            )]
        ));
        assert_eq!(refused(&mut t, &mv("E3")).0, ErrorCode::GameOver);
        let (code, message) = refused(&mut t, &RelayAction::Undo);
        assert_eq!(code, ErrorCode::GameOver);
        assert_eq!(
            message,
            "the game is over: its result waits for the players' initials; if it is wrong, they dispute it and a director settles the sheet"
        );
        assert_eq!(t.position(), position, "nothing changed");
    }

    #[test]
    fn arrangements_are_entered_for_the_side_named_and_taken_back() {
        let (mut t, _) = relayed(Ruleset::Omweso, SetupKind::Free, None);
        let arrange = |side, pits: &[u64]| RelayAction::Arrange {
            side,
            pits: pits.to_vec(),
        };
        let outer = [4, 4, 4, 4, 4, 4, 4, 4, 0, 0, 0, 0, 0, 0, 0, 0];
        let (code, _) = refused(&mut t, &arrange(Side::North, &outer));
        assert_eq!(code, ErrorCode::NotYourTurn, "South arranges first");
        t.relay(&arrange(Side::South, &[2; 16]), 2_000).unwrap();
        let events = t.relay(&arrange(Side::North, &outer), 3_000).unwrap();
        assert!(matches!(
            events.as_slice(),
            [(_, Event::Arranged { .. }), (_, Event::Started { .. })]
        ));
        assert_eq!(t.status(), Status::Playing);
        let undone = undone(&mut t);
        assert_eq!(undone.status, Status::Setup);
        assert_eq!(undone.position, None);
        assert_eq!(undone.arrangements.s, Some([2; 16]));
        assert_eq!(undone.arrangements.n, None);
        assert_eq!(t.facts().started_at_ms, None);
        assert_eq!(t.arranging(), Some(Side::North));
        undone_twice(&mut t);
    }

    fn undone_twice(t: &mut Table) {
        let undone = undone(t);
        assert_eq!(undone.arrangements.s, None);
        assert_eq!(t.arranging(), Some(Side::South));
    }

    /// A number from `seed`, different at every call (xorshift): the same game every run.
    fn pick(seed: &mut u64, below: usize) -> usize {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        usize::try_from(*seed % below as u64).unwrap()
    }

    /// A relayed game entered move by move (each start, then its answers one by one),
    /// with undos now and then, some twice in a row: its log replays to the same
    /// position, history, facts, version and entries left to take back; every event's
    /// version is one more than the last, undos' included. Then at most
    /// [`RELAY_UNDO_DEPTH`] entries may be taken back, the same after the replay.
    #[test]
    fn the_log_replays_entries_and_undos_to_the_same_game() {
        for (ruleset, mut seed) in [
            (Ruleset::Omweso, 3),
            (Ruleset::Omweso, 11),
            (Ruleset::Mweiso, 5),
            (Ruleset::Oware, 7),
        ] {
            let (mut t, mut log) = relayed(ruleset, SetupKind::Outer, None);
            let mut versions = vec![t.version()];
            let mut at = 2_000;
            let mut entries = 0;
            while !t.status().is_over() && entries < 90 {
                at += 1_000;
                let events = if entries % 7 == 6 && t.relay_undoable() > 0 {
                    let mut events = enter(&mut t, &mut log, RelayAction::Undo, at);
                    if entries % 14 == 13 && t.relay_undoable() > 0 {
                        events.extend(enter(&mut t, &mut log, RelayAction::Undo, at + 1));
                    }
                    events
                } else if t.pending.is_some() {
                    let options = t.snapshot(None, [false; 2], 0, &Default::default());
                    let options = options.pending.unwrap();
                    let choice = options[pick(&mut seed, options.len())].clone();
                    enter(&mut t, &mut log, decide(&choice), at)
                } else {
                    let query = t.legal_query();
                    let (side, board) = query.sides[pick(&mut seed, query.sides.len())];
                    let moves = board.legal_moves(side, Some(query.budget));
                    let whole = moves[pick(&mut seed, moves.len())].to_string();
                    let start = whole.split('/').next().unwrap().to_owned();
                    enter(&mut t, &mut log, mv(&start), at)
                };
                versions.extend(events.iter().map(|(v, _)| *v));
                entries += 1;
            }
            assert!(
                versions.windows(2).all(|w| w[1] == w[0] + 1),
                "{ruleset}: {versions:?}"
            );
            assert!(t.moves_played() >= 4, "{ruleset}: {}", t.moves_played());
            let same = |a: &Table, b: &Table| {
                assert_eq!(a.shown_position(), b.shown_position(), "{ruleset}");
                assert_eq!(a.shown_to_move(), b.shown_to_move(), "{ruleset}");
                assert_eq!(a.history, b.history, "{ruleset}");
                assert_eq!(a.facts(), b.facts(), "{ruleset}");
                assert_eq!(a.version(), b.version(), "{ruleset}");
                assert_eq!(a.status(), b.status(), "{ruleset}");
                assert_eq!(a.relay_undoable(), b.relay_undoable(), "{ruleset}");
            };
            let mut replayed = replay(t.id(), log.clone()).unwrap();
            same(&replayed, &t);
            if t.status().is_over() {
                // An ended game takes nothing back, replayed or not.
                assert_eq!(refused(&mut t, &RelayAction::Undo).0, ErrorCode::GameOver);
                assert_eq!(
                    refused(&mut replayed, &RelayAction::Undo).0,
                    ErrorCode::GameOver
                );
                continue;
            }
            // Both take back the same entries, as far as the marks go.
            let kept = t.relay_undoable();
            assert!(kept <= RELAY_UNDO_DEPTH);
            for _ in 0..kept {
                let a = t.relay(&RelayAction::Undo, at + 10).unwrap();
                let b = replayed.relay(&RelayAction::Undo, at + 10).unwrap();
                assert_eq!(a, b, "{ruleset}");
            }
            same(&replayed, &t);
            assert_eq!(
                refused(&mut t, &RelayAction::Undo).0,
                ErrorCode::NothingToUndo
            );
        }
    }

    #[test]
    fn at_most_the_last_fifty_entries_are_kept() {
        let (mut t, mut log) = relayed(Ruleset::Oware, SetupKind::Outer, None);
        let mut seed = 17;
        let mut at = 2_000;
        let mut entered = 0;
        while entered < RELAY_UNDO_DEPTH + 5 && !t.status().is_over() {
            let query = t.legal_query();
            let (side, board) = query.sides[0];
            let moves = board.legal_moves(side, Some(query.budget));
            let notation = moves[pick(&mut seed, moves.len())].to_string();
            at += 500;
            enter(&mut t, &mut log, mv(&notation), at);
            entered += 1;
        }
        assert_eq!(entered, RELAY_UNDO_DEPTH + 5, "the game lasted long enough");
        assert_eq!(t.relay_undoable(), RELAY_UNDO_DEPTH);
        for _ in 0..RELAY_UNDO_DEPTH {
            t.relay(&RelayAction::Undo, at + 1).unwrap();
        }
        assert_eq!(t.moves_played(), 5);
        assert_eq!(
            refused(&mut t, &RelayAction::Undo).0,
            ErrorCode::NothingToUndo
        );
    }

    /// The bodies of `POST .../relay/act`, as the contract writes them.
    #[test]
    fn the_relays_bodies_read_as_actions() {
        let read = |json: &str| serde_json::from_str::<RelayAction>(json);
        assert_eq!(
            read(r#"{"kind":"move","notation":"E1"}"#).unwrap(),
            mv("E1")
        );
        assert_eq!(
            read(r#"{"kind":"decide","choice":"c"}"#).unwrap(),
            decide("c")
        );
        assert_eq!(
            read(r#"{"kind":"arrange","side":"n","pits":[4,4,4,4,4,4,4,4,0,0,0,0,0,0,0,0]}"#)
                .unwrap(),
            RelayAction::Arrange {
                side: Side::North,
                pits: vec![4, 4, 4, 4, 4, 4, 4, 4, 0, 0, 0, 0, 0, 0, 0, 0]
            }
        );
        assert_eq!(
            read(r#"{"kind":"resign","side":"s"}"#).unwrap(),
            RelayAction::Resign { side: Side::South }
        );
        assert_eq!(read(r#"{"kind":"undo"}"#).unwrap(), RelayAction::Undo);
        assert!(read(r#"{"kind":"move","notation":"E1","x":1}"#).is_err());
        assert!(read(r#"{"kind":"resign"}"#).is_err());
        assert!(read(r#"{"kind":"fly"}"#).is_err());
        assert_eq!(
            serde_json::to_string(&Entry::Relay {
                action: RelayAction::Undo
            })
            .unwrap(),
            r#"{"kind":"relay","action":{"kind":"undo"}}"#
        );
    }
}
