//! Taking the seats and setting up the board: joining, the free-setup arrangements
//! (docs/rules.md#11-setup), the start of play, and resigning.

use omweso_rules::{Arrangement, Game, Outcome, Position, Ruleset, Side, Victory};

use super::{refuse, Refusal, Seat, Table};
use omweso_protocol::config::SetupKind;
use omweso_protocol::{ClockView, ErrorCode, Event, Legal, Status};

impl Table {
    /// Seats `seat` in the free place. A player already seated keeps their seat.
    pub fn join(&mut self, seat: Seat, now: u64) -> Result<(Side, Vec<(u64, Event)>), Refusal> {
        if let Some(side) = self.seat_of(seat.player) {
            return Ok((side, Vec::new()));
        }
        let Some(side) = Side::ALL
            .into_iter()
            .find(|s| self.seats[s.index()].is_none())
        else {
            return Err(refuse(ErrorCode::SeatsTaken, "both seats are taken"));
        };
        let mut events = vec![Event::Joined {
            seat: side,
            name: seat.name.clone(),
        }];
        self.seats[side.index()] = Some(seat);
        self.last_change_ms = now;
        if let Some(preset) = self.config.setup.preset() {
            self.start(self.initial_board(preset, None), now, &mut events);
        } else if self.seats.iter().all(Option::is_some) {
            // A free setup: the first player's turn to arrange, timed if there is a limit;
            // their time starts now if they are at the table already, and the pages hear
            // of it.
            self.open_arranging(now);
            if self.arrange_deadline().is_some() {
                events.push(Event::Count {
                    clock: self.clock_view(),
                });
            }
        }
        Ok((side, self.emit(events)))
    }

    /// The game is casual from now on: a rated game whose second player to sit is not an
    /// account (docs/ratings.md#what-is-rated). Logged with that join
    /// ([`Entry::Join`](crate::log::Entry::Join)'s `casual`), so a replay does the same.
    pub fn make_casual(&mut self) {
        self.config.rated = false;
    }

    pub(super) fn initial_board(
        &self,
        preset: omweso_rules::Preset,
        arranged: Option<(Arrangement, Arrangement)>,
    ) -> Game {
        match self.config.ruleset {
            Ruleset::Oware => Game::start(Ruleset::Oware, preset, Side::South),
            _ => Game::from(match arranged {
                Some((south, north)) => {
                    Position::from_arrangements(self.rules(), south, north, Side::South)
                }
                None => Position::start(self.rules(), preset, Side::South),
            }),
        }
    }

    pub(super) fn start(&mut self, board: Game, now: u64, events: &mut Vec<Event>) {
        self.board = Some(board);
        self.status = Status::Playing;
        self.clock.arrange = super::clock::ArrangeClock::default();
        self.tally.started_at_ms = Some(now);
        self.first_turn(now);
        self.start_grace(now);
        events.push(Event::Started {
            to_move: board.to_move(),
            position: board.to_string(),
            clock: self.clock_view(),
            legal: Legal::default(),
        });
    }

    pub(super) fn arrange(
        &mut self,
        side: Side,
        pits: &[u64],
        now: u64,
    ) -> Result<Vec<Event>, Refusal> {
        if self.config.setup != SetupKind::Free {
            return Err(refuse(
                ErrorCode::NoArrangement,
                "this game starts from a preset; there is nothing to arrange",
            ));
        }
        if self.status != Status::Setup {
            return Err(refuse(ErrorCode::GameStarted, "the arrangements are done"));
        }
        if self.seats.iter().any(Option::is_none) {
            return Err(refuse(
                ErrorCode::NotStarted,
                "wait for the second player before arranging",
            ));
        }
        // docs/rules.md#11-setup: the first player (South) arranges first, then the second, seeing it.
        if side == Side::North && self.arrangements[0].is_none() {
            return Err(refuse(
                ErrorCode::NotYourTurn,
                "the first player (South) arranges first",
            ));
        }
        if self.arrangements[side.index()].is_some() {
            return Err(refuse(
                ErrorCode::AlreadyArranged,
                "you have arranged your seeds",
            ));
        }
        let arrangement =
            Arrangement::new(pits).map_err(|e| refuse(ErrorCode::BadArrangement, e.to_string()))?;
        Ok(self.place(side, arrangement, now, false))
    }

    /// `side`'s seeds are placed as `arrangement` at `now` (`late`: by the referee, their
    /// time being up): play starts if both have arranged, else the second player's turn
    /// to arrange opens.
    pub(super) fn place(
        &mut self,
        side: Side,
        arrangement: Arrangement,
        now: u64,
        late: bool,
    ) -> Vec<Event> {
        self.arrangements[side.index()] = Some(arrangement);
        self.tally.late_arranged[side.index()] = late;
        let mut events = Vec::new();
        if let [Some(south), Some(north)] = self.arrangements {
            events.push(Event::Arranged {
                by: side,
                pits: arrangement.counts(),
                late,
                clock: ClockView::default(),
            });
            let board = self.initial_board(omweso_rules::Preset::Outer, Some((south, north)));
            self.start(board, now, &mut events);
        } else {
            self.open_arranging(now);
            events.push(Event::Arranged {
                by: side,
                pits: arrangement.counts(),
                late,
                clock: self.clock_view(),
            });
        }
        events
    }

    pub(super) fn resign(&mut self, side: Side, now: u64) -> Result<Vec<Event>, Refusal> {
        if self.status.is_over() {
            return Err(refuse(ErrorCode::GameOver, "the game is over"));
        }
        if self.seats.iter().any(Option::is_none) {
            return Err(refuse(
                ErrorCode::NotStarted,
                "nobody has joined yet: there is no opponent to resign to",
            ));
        }
        Ok(self.finish(
            Outcome::Win {
                winner: side.other(),
                victory: Victory::Resigned,
            },
            now,
        ))
    }
}
