//! The computer's seat at a table (docs/rules.md#4-play-under-the-referee-server-rules as it applies to a machine): seated when the
//! game is created, it plays through [`Table::act`] like a person, but the referee never
//! counts against it (no referee count on its turns, so no steal against it; no disconnect
//! grace, since it is always there). What it has to do now is [`Table::computer_due`]; the
//! game's task asks the search pool and acts on the answer.

use omweso_rules::{Arrangement, Game, Rules, Side};

use uuid::Uuid;

use super::turn::options;
use super::{refuse, Refusal, Seat, Table};
use omweso_protocol::config::SetupKind;
use omweso_protocol::{Computer, ComputerLevel, ErrorCode, Event, Status};

/// The computer's player id in the seat it holds (and in the game's row). No session has
/// it: sessions' ids are random (v4) and this one is not.
pub const PLAYER: Uuid = Uuid::from_u128(0x0000_0000_0000_0000_0000_0000_0000_c0de);

/// The name the computer's seat shows.
#[must_use]
pub fn name(level: ComputerLevel) -> String {
    format!("Computer (level {level})")
}

/// The computer's seat at a table.
#[must_use]
pub fn seat(computer: omweso_protocol::Computer) -> Seat {
    Seat {
        player: PLAYER,
        name: name(computer.level),
    }
}

/// What the computer has to do at a table now.
#[derive(Clone, Debug, PartialEq)]
pub enum ComputerDue {
    /// Arrange its seeds (a free setup, its turn to arrange) for a game under `rules`,
    /// seeing the first player's arrangement when it arranges second (docs/rules.md#11-setup), its
    /// search's moves sown under `budget` seeds.
    Arrange {
        side: Side,
        rules: Rules,
        shown: Option<Arrangement>,
        budget: u64,
    },
    /// Play a whole move on `game` (the board, or the board with it to move when it
    /// steals the opponent's turn), each turn sown under `budget` seeds.
    Move { side: Side, game: Game, budget: u64 },
    /// Answer a decision its turn waits at (never, as it sends whole moves; a log that
    /// holds one anyway is not left stuck).
    Decide { side: Side, choice: String },
    /// Answer the opponent's proposal to stop at an Oware impasse, in `game` as it
    /// stands (the server's game task works the answer out).
    AnswerImpasse { side: Side, game: Game },
}

impl Table {
    /// Seats the computer in the free seat at `now`: a game against the computer, as it
    /// is created (and replayed). Play starts at once unless the setup is free. The events
    /// are the join's (`joined`, and `started` for a preset setup).
    pub fn seat_computer(
        &mut self,
        computer: Computer,
        now: u64,
    ) -> Result<Vec<(u64, Event)>, Refusal> {
        let Some(side) = Side::ALL
            .into_iter()
            .find(|s| self.seats[s.index()].is_none())
        else {
            return Err(refuse(ErrorCode::SeatsTaken, "both seats are taken"));
        };
        // Known before it joins, so that the first turn's clock and the grace leave it be.
        self.computer = Some((side, computer));
        match self.join(seat(computer), now) {
            Ok((_, events)) => Ok(events),
            Err(refusal) => {
                self.computer = None;
                Err(refusal)
            }
        }
    }

    /// The computer's seat and level, in a game against the computer.
    #[must_use]
    pub fn computer(&self) -> Option<(Side, Computer)> {
        self.computer
    }

    /// Whether the person facing the computer has played anything: a move, or their
    /// free setup's arrangement. Until they have, a game against the computer is removed
    /// when they stay away (the server's game task, docs/security.md).
    #[must_use]
    pub fn person_has_played(&self) -> bool {
        let Some((computer, _)) = self.computer else {
            return true;
        };
        let person = computer.other();
        self.arrangements[person.index()].is_some()
            || self.history.iter().any(|played| played.by == person)
    }

    /// Whether the computer plays `side`.
    pub(super) fn is_computer(&self, side: Side) -> bool {
        self.computer.is_some_and(|(s, _)| s == side)
    }

    /// What the computer has to do now, if anything: arrange when the free setup waits for
    /// it, play when it may start a turn (its own, Mweiso's opening, or the opponent's
    /// once the referee's steal is open against them), answer a decision of its own.
    #[must_use]
    pub fn computer_due(&self) -> Option<ComputerDue> {
        let (side, _) = self.computer?;
        match self.status {
            Status::Setup => {
                let ready = self.config.setup == SetupKind::Free
                    && self.seats.iter().all(Option::is_some)
                    && self.arrangements[side.index()].is_none()
                    && (side == Side::South || self.arrangements[Side::South.index()].is_some());
                ready.then(|| ComputerDue::Arrange {
                    side,
                    rules: self.rules(),
                    shown: self.arrangements[side.other().index()],
                    budget: self.time_control().budget(0),
                })
            }
            Status::Playing => {
                let board = self.board?;
                if self.impasse_proposed_by() == Some(side.other()) {
                    return Some(ComputerDue::AnswerImpasse { side, game: board });
                }
                if let Some(pending) = &self.pending {
                    let decision = pending.turn.pending_decision()?;
                    let choice = options(&decision, pending.by).into_iter().next()?;
                    return (pending.by == side).then_some(ComputerDue::Decide { side, choice });
                }
                let budget = self.time_control().budget(0);
                if board.may_move(side) {
                    return Some(ComputerDue::Move {
                        side,
                        game: board,
                        budget,
                    });
                }
                let stealing = self.clock.steal_open && board.to_move() == Some(side.other());
                stealing.then(|| ComputerDue::Move {
                    side,
                    game: board.with_side_to_move(side),
                    budget,
                })
            }
            Status::Finished | Status::Annulled => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use omweso_rules::{Ruleset, Side};
    use uuid::Uuid;

    use super::super::fixtures::{config, seat};
    use super::super::{Action, Table};
    use super::ComputerDue;
    use omweso_protocol::config::{SetupKind, TimeControl};
    use omweso_protocol::{Computer, ComputerLevel, Event, Status};

    #[test]
    fn the_seat_is_named_for_its_level() {
        let computer = omweso_protocol::Computer {
            level: ComputerLevel::new(3).unwrap(),
        };
        assert_eq!(super::seat(computer).name, "Computer (level 3)");
        assert_eq!(super::seat(computer).player, super::PLAYER);
    }

    fn level(n: i64) -> Computer {
        Computer {
            level: ComputerLevel::new(n).unwrap(),
        }
    }

    fn against_computer(setup: SetupKind, human: Side, tc: TimeControl) -> Table {
        let mut config = config(Ruleset::Omweso, setup);
        config.time_control = tc;
        let mut table = Table::new(Uuid::new_v4(), config, seat("Kato"), human, 1_000);
        table.seat_computer(level(3), 1_000).unwrap();
        table
    }

    #[test]
    fn the_computer_takes_the_other_seat_and_a_preset_game_starts() {
        let mut table = Table::new(
            Uuid::new_v4(),
            config(Ruleset::Omweso, SetupKind::Outer),
            seat("Kato"),
            Side::North,
            1_000,
        );
        let events = table.seat_computer(level(3), 1_000).unwrap();
        assert!(matches!(
            &events[0],
            (1, Event::Joined { seat: Side::South, name }) if name == "Computer (level 3)"
        ));
        assert!(matches!(events[1], (2, Event::Started { .. })));
        assert_eq!(table.computer(), Some((Side::South, level(3))));
        assert_eq!(table.status(), Status::Playing);
        // South (the computer) moves first, on the board as it stands.
        let Some(ComputerDue::Move { side, game, budget }) = table.computer_due() else {
            panic!("the computer should move first");
        };
        assert_eq!((side, budget), (Side::South, 720));
        assert_eq!(Some(game), table.board);
        // The seat is taken: nobody else may join.
        assert!(table.join(seat("Nakato"), 2_000).is_err());
    }

    #[test]
    fn no_referee_count_or_grace_runs_against_the_computer_but_the_humans_does() {
        let mut table = against_computer(SetupKind::Outer, Side::North, TimeControl::TOURNAMENT);
        // The computer (South) is to move: no count, no grace, nothing to tick.
        assert_eq!(table.clock().referee_deadline, None);
        assert!(!table.presence_changes(Side::South, true));
        // Kato is not connected: their grace (60 s) is the only deadline.
        assert_eq!(table.next_deadline(), Some(61_000));
        table.set_present(Side::North, true, 1_500);
        // Kato's connection measured a 200 ms round trip: the count allows for it.
        table.set_latency(Side::North, 200);
        assert_eq!(table.next_deadline(), None);
        assert!(table.tick(100_000).is_empty());
        // After the computer's move, shown for its display time (E1: one lap of 4 seeds,
        // 300 + 150 + 4 * 60 = 690 ms), Kato's count (3 s) runs.
        let play = Action::Move {
            notation: "E1".into(),
        };
        table.act(Side::South, &play, 2_000).unwrap();
        assert_eq!(
            table.clock().referee_deadline,
            Some(2_000 + 690 + 3_000 + 200)
        );
        assert_eq!(table.computer_due(), None);
        // It runs out: the computer may steal, on the board with it to move.
        assert!(table.tick(5_889).is_empty());
        let steal = table.tick(5_890);
        assert!(matches!(
            steal[0].1,
            Event::Steal {
                victim: Side::North,
                ..
            }
        ));
        let Some(ComputerDue::Move { side, game, .. }) = table.computer_due() else {
            panic!("the computer should steal");
        };
        assert_eq!(side, Side::South);
        assert_eq!(game.to_move(), Some(Side::South));
        let events = table
            .act(Side::South, &first_legal(&table, Side::South), 6_000)
            .unwrap();
        let Event::Played(played) = &events[0].1 else {
            panic!("the steal should be played: {events:?}");
        };
        // The turn passes back to Kato, who lost it, and his count starts again once the
        // stolen turn has been shown.
        assert!(played.display_ms >= 300);
        assert_eq!(
            table.clock().referee_deadline,
            Some(6_000 + played.display_ms + 3_000 + 200)
        );
        table
            .act(Side::North, &first_legal(&table, Side::North), 7_000)
            .unwrap();
        // The computer's own turn: no count.
        assert!(matches!(
            table.computer_due(),
            Some(ComputerDue::Move {
                side: Side::South,
                ..
            })
        ));
        assert_eq!(table.clock().referee_deadline, None);
    }

    fn first_legal(table: &Table, side: Side) -> Action {
        let board = table.board.unwrap();
        let moves = board.with_side_to_move(side).legal_moves(side, Some(720));
        Action::Move {
            notation: moves[0].to_string(),
        }
    }

    #[test]
    fn in_a_free_setup_the_computer_arranges_in_its_turn() {
        // The computer is North: it waits for South's arrangement.
        let mut table = against_computer(SetupKind::Free, Side::South, TimeControl::CASUAL);
        assert_eq!(table.status(), Status::Setup);
        assert_eq!(table.computer_due(), None);
        let pits = vec![2; 16];
        table
            .act(Side::South, &Action::Arrange { pits: pits.clone() }, 2_000)
            .unwrap();
        // It sees Kato's arrangement.
        assert_eq!(
            table.computer_due(),
            Some(ComputerDue::Arrange {
                side: Side::North,
                rules: omweso_rules::Rules::OMWESO,
                shown: Some(omweso_rules::Arrangement::new(&pits).unwrap()),
                budget: 720,
            })
        );
        table
            .act(Side::North, &Action::Arrange { pits }, 2_500)
            .unwrap();
        assert_eq!(table.status(), Status::Playing);
        // South (Kato) moves first; nothing for the computer.
        assert_eq!(table.computer_due(), None);
        // The computer as South arranges first.
        let table = against_computer(SetupKind::Free, Side::North, TimeControl::CASUAL);
        assert_eq!(
            table.computer_due(),
            Some(ComputerDue::Arrange {
                side: Side::South,
                rules: omweso_rules::Rules::OMWESO,
                shown: None,
                budget: 720,
            })
        );
    }

    #[test]
    fn the_computer_answers_a_proposal_before_it_moves() {
        let mut config = config(Ruleset::Oware, SetupKind::Outer);
        config.time_control = TimeControl::CASUAL;
        let mut table = Table::new(Uuid::new_v4(), config, seat("Kato"), Side::South, 1_000);
        table.seat_computer(level(3), 1_000).unwrap();
        table
            .act(
                Side::South,
                &Action::Move {
                    notation: "C1".into(),
                },
                2_000,
            )
            .unwrap();
        assert!(matches!(
            table.computer_due(),
            Some(ComputerDue::Move {
                side: Side::North,
                ..
            })
        ));
        table.act(Side::South, &Action::Impasse, 2_500).unwrap();
        assert_eq!(
            table.computer_due(),
            Some(ComputerDue::AnswerImpasse {
                side: Side::North,
                game: table.board.unwrap(),
            })
        );
        table
            .act(Side::North, &Action::ImpasseAnswer { accept: false }, 3_000)
            .unwrap();
        assert!(matches!(
            table.computer_due(),
            Some(ComputerDue::Move { .. })
        ));
    }

    #[test]
    fn the_computer_plays_nothing_once_the_game_is_over() {
        let mut table = against_computer(SetupKind::Outer, Side::South, TimeControl::CASUAL);
        table.act(Side::South, &Action::Resign, 2_000).unwrap();
        assert_eq!(table.computer_due(), None);
    }
}
