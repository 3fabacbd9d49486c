//! One tournament's state: a pure state machine, like a game's table. Every change comes
//! in as a log [`Entry`] with the time it happened and goes out as versioned
//! [`TournamentEvent`]s; nothing here reads a clock or does I/O, so the tournament is
//! rebuilt after a restart by replaying its log, and tests drive time exactly.
//!
//! Players are numbered by their initial order (registration), which is also the order
//! the pairing ranks equal scores in.

use std::collections::HashMap;

use uuid::Uuid;

use super::log::{Entry, LoggedPairing, SheetAction};
use super::settings::{points, Settings, MAX_FORBIDDEN_PAIRS};
use super::sheet::{
    sheet_without_game, Correction, Dispute, GameFigures, Sheet, Verdict, MAX_REASON_CHARS,
};
use super::standings::{standings, Milli, RoundResult};
use super::{berger, pairing};
use crate::game::table::Seat;
use omweso_protocol::tournament::{
    PairingView, PlayerView, ReplacedGame, RoundStatus, RoundView, SheetChanged, SheetStatus,
    StandingView, StandingsChanged, StatusChanged, System, TournamentEvent, TournamentSnapshot,
    TournamentStatus, TournamentSummary,
};
use omweso_protocol::ErrorCode;

pub use omweso_protocol::tournament::MAX_PLAYERS;

/// A refused change: nothing changed.
pub use crate::refusal::Refusal;

fn refuse<T>(code: ErrorCode, message: impl Into<String>) -> Result<T, Refusal> {
    Err(Refusal::new(code, message))
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    pub id: Uuid,
    pub name: String,
    pub withdrawn: bool,
    /// Rounds already paired when they joined.
    pub joined_after_round: u32,
}

/// A game played at a table, with its sheet once it ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableGame {
    pub game_id: Uuid,
    /// 0: the pairing's first moved first; 1: its second did (a replay).
    pub moved_first: usize,
    pub sheet: Option<Sheet>,
}

/// One table of a round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    pub number: u32,
    pub first: usize,
    /// `None`: the bye.
    pub second: Option<usize>,
    /// The game being (or last) played.
    pub game: Option<TableGame>,
    /// Earlier games, annulled and replayed.
    pub replaced: Vec<TableGame>,
    /// A pairing decided without a game at the round's start because a player had
    /// withdrawn: the one who wins by forfeit (`None`: both had withdrawn).
    pub forfeit_winner: Option<usize>,
    /// Decided without a game (a withdrawal) at the round's start.
    pub no_game: bool,
}

impl Table {
    fn players(&self) -> Option<[usize; 2]> {
        self.second.map(|second| [self.first, second])
    }

    /// Whether this table has its result: a bye, a forfeit, or a game with its sheet.
    fn settled(&self) -> bool {
        self.second.is_none()
            || self.no_game
            || self.game.as_ref().is_some_and(|g| g.sheet.is_some())
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Round {
    pub number: u32,
    pub tables: Vec<Table>,
    pub manual: bool,
    pub breaches: Vec<String>,
    pub started_at_ms: Option<u64>,
    pub deadline_ms: Option<u64>,
    /// The time ran out or the director ended it: unfinished games are adjudicated.
    pub closing: bool,
    /// The director ended it before its time ("End round now"), so the pages do not say
    /// its time ran out.
    pub ended_by_director: bool,
}

impl Round {
    #[must_use]
    pub fn status(&self) -> RoundStatus {
        if self.started_at_ms.is_none() {
            RoundStatus::Paired
        } else if self.tables.iter().all(Table::settled) {
            RoundStatus::Finished
        } else {
            RoundStatus::Playing
        }
    }
}

/// How a game ended, as its `GameEnd` entry tells it.
#[derive(Clone, Copy, Debug)]
struct GameEnd {
    outcome: omweso_rules::Outcome,
    /// Turns per game seat.
    moves: [u32; 2],
    /// In game seats.
    figures: GameFigures,
    adjudicated: bool,
}

/// A table whose game the round's start creates: who sits first (moves first) and second.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlannedGame {
    pub table: u32,
    pub first: Seat,
    pub second: Seat,
}

/// One tournament.
#[derive(Clone, Debug)]
pub struct Tournament {
    id: Uuid,
    settings: Settings,
    director: Uuid,
    director_name: String,
    created_at_ms: u64,
    players: Vec<Player>,
    by_id: HashMap<Uuid, usize>,
    rounds: Vec<Round>,
    /// Each game's round and table (indices).
    games: HashMap<Uuid, (usize, usize)>,
    /// A round-robin's field, fixed when its first round is paired.
    field: Option<Vec<usize>>,
    version: u64,
}

impl Tournament {
    /// A new tournament, from its log's first entry.
    pub fn create(id: Uuid, entry: &Entry, at: u64) -> Result<Tournament, Refusal> {
        let Entry::Create {
            settings,
            director,
            director_name,
        } = entry
        else {
            return refuse(
                ErrorCode::BadBody,
                "a tournament's log starts with its creation",
            );
        };
        Ok(Tournament {
            id,
            settings: (**settings).clone(),
            director: *director,
            director_name: director_name.clone(),
            created_at_ms: at,
            players: Vec::new(),
            by_id: HashMap::new(),
            rounds: Vec::new(),
            games: HashMap::new(),
            field: None,
            version: 0,
        })
    }

    // ----- what it is -----

    #[must_use]
    pub fn id(&self) -> Uuid {
        self.id
    }

    #[must_use]
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    #[must_use]
    pub fn director(&self) -> Uuid {
        self.director
    }

    #[must_use]
    pub fn version(&self) -> u64 {
        self.version
    }

    #[must_use]
    pub fn players(&self) -> &[Player] {
        &self.players
    }

    #[must_use]
    pub fn rounds(&self) -> &[Round] {
        &self.rounds
    }

    #[must_use]
    pub fn created_at_ms(&self) -> u64 {
        self.created_at_ms
    }

    #[must_use]
    pub fn player_index(&self, id: Uuid) -> Option<usize> {
        self.by_id.get(&id).copied()
    }

    /// The round number and table of a game of this tournament (its current game or a
    /// replaced one).
    #[must_use]
    pub fn game_table(&self, game_id: Uuid) -> Option<(u32, u32)> {
        self.games
            .get(&game_id)
            .map(|&(r, t)| (self.rounds[r].number, self.rounds[r].tables[t].number))
    }

    /// Whether `id` is the director or one of the players (withdrawn too).
    #[must_use]
    pub fn is_member(&self, id: Uuid) -> bool {
        id == self.director || self.by_id.contains_key(&id)
    }

    /// Who sits where in `game_id`, the current game of its table, by `Side::index`:
    /// South (who moved first) then North. `None` for a game not of this tournament or
    /// replaced by a replay.
    #[must_use]
    pub fn seated_in(&self, game_id: Uuid) -> Option<[Uuid; 2]> {
        let &(r, t) = self.games.get(&game_id)?;
        let table = &self.rounds[r].tables[t];
        let game = table.game.as_ref().filter(|g| g.game_id == game_id)?;
        let players = table.players()?;
        let south = players[game.moved_first];
        let north = players[1 - game.moved_first];
        Some([self.players[south].id, self.players[north].id])
    }

    /// The number of rounds the tournament will have.
    #[must_use]
    pub fn rounds_planned(&self) -> u32 {
        match self.settings.system {
            System::Swiss => self.settings.rounds,
            System::RoundRobin | System::DoubleRoundRobin => {
                let field = self
                    .field
                    .as_ref()
                    .map_or_else(|| self.active().count(), Vec::len);
                let per_cycle = if field < 2 { 0 } else { field - 1 + field % 2 };
                let cycles = if self.settings.system == System::DoubleRoundRobin {
                    2
                } else {
                    1
                };
                u32::try_from(per_cycle * cycles).unwrap_or(u32::MAX)
            }
        }
    }

    #[must_use]
    pub fn status(&self) -> TournamentStatus {
        let Some(last) = self.rounds.last() else {
            return TournamentStatus::Open;
        };
        if self.rounds.len() as u32 >= self.rounds_planned()
            && last.status() == RoundStatus::Finished
        {
            TournamentStatus::Finished
        } else if self.rounds.iter().any(|r| r.started_at_ms.is_some()) {
            TournamentStatus::Running
        } else {
            TournamentStatus::Open
        }
    }

    fn active(&self) -> impl Iterator<Item = usize> + '_ {
        self.players
            .iter()
            .enumerate()
            .filter(|(_, p)| !p.withdrawn)
            .map(|(i, _)| i)
    }

    /// Whether players may still join (RULES.md 5.3: until the last round is paired; a
    /// round-robin's field is fixed by its first round).
    fn joinable(&self) -> Result<(), Refusal> {
        let closed = match self.settings.system {
            System::Swiss => self.rounds.len() as u32 >= self.settings.rounds,
            System::RoundRobin | System::DoubleRoundRobin => !self.rounds.is_empty(),
        };
        if closed || self.status() == TournamentStatus::Finished {
            return refuse(
                ErrorCode::TournamentClosed,
                if self.settings.system == System::Swiss {
                    "the tournament's last round is paired: it takes no more players"
                } else {
                    "the round-robin is paired: its field is fixed"
                },
            );
        }
        if self.players.len() >= MAX_PLAYERS {
            return refuse(
                ErrorCode::TournamentClosed,
                format!("the tournament is full ({MAX_PLAYERS} players)"),
            );
        }
        Ok(())
    }

    /// The next moment [`Entry::Tick`] has something to do: a sheet confirming itself, or
    /// the playing round's time running out.
    #[must_use]
    pub fn next_deadline(&self) -> Option<u64> {
        let sheets = self
            .rounds
            .iter()
            .flat_map(|r| &r.tables)
            .filter_map(|t| t.game.as_ref()?.sheet.as_ref()?.confirms_at());
        let round = self
            .rounds
            .iter()
            .filter(|r| !r.closing && r.status() == RoundStatus::Playing)
            .filter_map(|r| r.deadline_ms);
        sheets.chain(round).min()
    }

    /// The games of a round whose time is up (or that the director ended) still being
    /// played: to adjudicate.
    #[must_use]
    pub fn games_to_adjudicate(&self) -> Vec<Uuid> {
        self.rounds
            .iter()
            .filter(|r| r.closing)
            .flat_map(|r| &r.tables)
            .filter_map(|t| t.game.as_ref())
            .filter(|g| g.sheet.is_none())
            .map(|g| g.game_id)
            .collect()
    }

    /// Every game still being played (the tournament watches them).
    #[must_use]
    pub fn games_in_play(&self) -> Vec<(Uuid, u32, u32)> {
        self.rounds
            .iter()
            .flat_map(|r| r.tables.iter().map(move |t| (r.number, t)))
            .filter_map(|(round, t)| {
                let g = t.game.as_ref()?;
                g.sheet.is_none().then_some((g.game_id, round, t.number))
            })
            .collect()
    }

    /// The deadline of the round `game_id` is played in.
    #[must_use]
    pub fn deadline_of(&self, game_id: Uuid) -> Option<u64> {
        let &(r, _) = self.games.get(&game_id)?;
        self.rounds[r].deadline_ms
    }

    /// Whether `game_id` is a game of this tournament still being played.
    #[must_use]
    pub fn in_play(&self, game_id: Uuid) -> bool {
        self.games.get(&game_id).is_some_and(|&(r, t)| {
            self.rounds[r].tables[t]
                .game
                .as_ref()
                .is_some_and(|g| g.game_id == game_id && g.sheet.is_none())
        })
    }

    /// Whether an annulled game ending at `at` is replayed: while at least a quarter of
    /// its round's time is left (RULES.md 5.3). Returns the new game's seats, the first
    /// move swapped.
    #[must_use]
    pub fn replay_for(&self, game_id: Uuid, at: u64) -> Option<(Seat, Seat)> {
        let &(r, t) = self.games.get(&game_id)?;
        let round = &self.rounds[r];
        let table = &round.tables[t];
        let game = table
            .game
            .as_ref()
            .filter(|g| g.game_id == game_id && g.sheet.is_none())?;
        let deadline = round.deadline_ms?;
        if round.closing || deadline.saturating_sub(at) < self.settings.round_ms() / 4 {
            return None;
        }
        let players = table.players()?;
        // The replay swaps who moves first.
        let first = players[1 - game.moved_first];
        let second = players[game.moved_first];
        Some((self.seat(first), self.seat(second)))
    }

    fn seat(&self, player: usize) -> Seat {
        Seat {
            player: self.players[player].id,
            name: self.players[player].name.clone(),
        }
    }

    // ----- pairing -----

    /// The players' points after each started round, and now: `history[r][p]`.
    fn points_by_round(&self) -> Vec<Vec<Milli>> {
        let table = &self.settings.points;
        let oware = self.settings.oware();
        let mut running = vec![0; self.players.len()];
        let mut history = vec![running.clone()];
        for round in self.rounds.iter().filter(|r| r.started_at_ms.is_some()) {
            for t in &round.tables {
                for (player, pts) in self.table_points(t, table, oware) {
                    running[player] += pts;
                }
            }
            history.push(running.clone());
        }
        history
    }

    /// What each player of a settled table scored.
    fn table_points(
        &self,
        t: &Table,
        table: &super::standings::PointsTable,
        oware: bool,
    ) -> Vec<(usize, Milli)> {
        let Some(players) = t.players() else {
            // A bye whose player withdrew before the round started scores nothing.
            return if t.no_game {
                Vec::new()
            } else {
                vec![(t.first, table.bye)]
            };
        };
        if t.no_game {
            return match t.forfeit_winner {
                Some(w) => vec![
                    (players[w], table.forfeit_win),
                    (players[1 - w], table.forfeit_loss),
                ],
                None => Vec::new(),
            };
        }
        match t.game.as_ref().and_then(|g| g.sheet.as_ref()) {
            Some(sheet) => {
                let pts = sheet.verdict().points(table, oware);
                vec![(players[0], pts[0]), (players[1], pts[1])]
            }
            None => Vec::new(),
        }
    }

    fn forbidden(&self) -> Vec<(usize, usize)> {
        self.settings
            .forbidden_pairs
            .iter()
            .filter_map(|[a, b]| Some((self.player_index(*a)?, self.player_index(*b)?)))
            .collect()
    }

    /// Pairs the next round (RULES.md 5.4): the Swiss pairing, or the round-robin's
    /// Berger table. Refused when the previous round is not finished, the tournament is
    /// complete, or no pairing keeps the absolute rules (saying which and for whom).
    pub fn pair_next(&self) -> Result<Entry, Refusal> {
        self.may_pair_next()?;
        let number = self.rounds.len() as u32 + 1;
        let pairs: Vec<berger::Pairing> = match self.settings.system {
            System::Swiss => {
                let names: Vec<String> = self.players.iter().map(|p| p.name.clone()).collect();
                let points = self.points_by_round();
                let active: Vec<bool> = self.players.iter().map(|p| !p.withdrawn).collect();
                let forbidden = self.forbidden();
                let history = self.past_rounds(&points);
                let input = pairing::SwissInput {
                    names: &names,
                    points: points.last().map_or(&[][..], Vec::as_slice),
                    active: &active,
                    forbidden: &forbidden,
                    balance_first_move: self.settings.balance_first_move,
                    history: &history,
                };
                pairing::swiss(&input).map_err(|e| Refusal {
                    code: ErrorCode::NoPairing,
                    message: e.message,
                })?
            }
            System::RoundRobin | System::DoubleRoundRobin => {
                let field: Vec<usize> = match &self.field {
                    Some(field) => field.clone(),
                    None => self.active().collect(),
                };
                let schedule = berger::rounds(
                    field.len(),
                    self.settings.system == System::DoubleRoundRobin,
                );
                let Some(round) = schedule.get(number as usize - 1) else {
                    return refuse(
                        ErrorCode::RoundNotReady,
                        "every round of the round-robin is paired",
                    );
                };
                // Berger numbers players from 1. The bye seat's table goes last, as in
                // a Swiss: tables are numbered from the top pairing.
                let mut pairs: Vec<berger::Pairing> = round
                    .iter()
                    .map(|p| berger::Pairing {
                        first: field[p.first - 1],
                        second: p.second.map(|s| field[s - 1]),
                    })
                    .collect();
                pairs.sort_by_key(|p| p.second.is_none());
                pairs
            }
        };
        if pairs.is_empty() {
            return refuse(ErrorCode::NoPairing, "fewer than two players to pair");
        }
        Ok(Entry::Pair {
            round: number,
            pairings: pairs
                .iter()
                .map(|p| {
                    (
                        self.players[p.first].id,
                        p.second.map(|s| self.players[s].id),
                    )
                })
                .collect(),
            manual: false,
            breaches: Vec::new(),
        })
    }

    fn may_pair_next(&self) -> Result<(), Refusal> {
        if let Some(last) = self.rounds.last() {
            match last.status() {
                RoundStatus::Paired => {
                    return refuse(
                        ErrorCode::RoundNotReady,
                        format!(
                            "round {} is paired and not started yet; start it or edit its pairing",
                            last.number
                        ),
                    )
                }
                RoundStatus::Playing => {
                    return refuse(
                        ErrorCode::RoundNotReady,
                        format!("round {} is still being played", last.number),
                    )
                }
                RoundStatus::Finished => {}
            }
        }
        if !self.rounds.is_empty() && self.rounds.len() as u32 >= self.rounds_planned() {
            return refuse(
                ErrorCode::RoundNotReady,
                "every round of the tournament has been played",
            );
        }
        if self.active().count() < 2 {
            return refuse(ErrorCode::NoPairing, "fewer than two players to pair");
        }
        Ok(())
    }

    /// The started rounds as the pairing reads them.
    fn past_rounds(&self, points: &[Vec<Milli>]) -> Vec<pairing::PastRound> {
        self.rounds
            .iter()
            .filter(|r| r.started_at_ms.is_some())
            .enumerate()
            .map(|(i, r)| pairing::PastRound {
                pairs: r
                    .tables
                    .iter()
                    .filter(|t| !t.no_game || t.second.is_none())
                    .map(|t| berger::Pairing {
                        // The colours that count are who moved first in the last game.
                        first: match (&t.game, t.second) {
                            (Some(g), Some(second)) if g.moved_first == 1 => second,
                            _ => t.first,
                        },
                        second: match (&t.game, t.second) {
                            (Some(g), Some(_)) if g.moved_first == 1 => Some(t.first),
                            _ => t.second,
                        },
                    })
                    .collect(),
                points_before: points[i].clone(),
            })
            .collect()
    }

    /// The director's pairing for round `number` (the next round, or the paired one not
    /// started yet), checked against the absolute rules: an unknown or repeated player is
    /// refused; a breach is refused unless `confirm_breach`, and then recorded.
    pub fn manual_pairing(
        &self,
        number: u32,
        pairings: &[LoggedPairing],
        confirm_breach: bool,
    ) -> Result<Entry, Refusal> {
        let next = self.rounds.len() as u32 + 1;
        let replaces = self
            .rounds
            .last()
            .is_some_and(|r| r.number == number && r.status() == RoundStatus::Paired);
        if number == next {
            self.may_pair_next()?;
        } else if !replaces {
            return refuse(
                ErrorCode::RoundNotReady,
                format!("round {number} cannot be paired now: only the next round, or a paired round not started, can be"),
            );
        }
        if pairings.is_empty() {
            return refuse(ErrorCode::BadPairing, "the pairing is empty");
        }
        let mut seen = vec![false; self.players.len()];
        let mut pairs = Vec::with_capacity(pairings.len());
        for &(first, second) in pairings {
            let mut index = |id: Uuid| -> Result<usize, Refusal> {
                let Some(i) = self.player_index(id) else {
                    return refuse(
                        ErrorCode::BadPairing,
                        format!("{id} is not a player of this tournament"),
                    );
                };
                if std::mem::replace(&mut seen[i], true) {
                    return refuse(
                        ErrorCode::BadPairing,
                        format!("{} is paired twice", self.players[i].name),
                    );
                }
                Ok(i)
            };
            let first = index(first)?;
            let second = second.map(&mut index).transpose()?;
            pairs.push(berger::Pairing { first, second });
        }
        let names: Vec<String> = self.players.iter().map(|p| p.name.clone()).collect();
        let points = self.points_by_round();
        let active: Vec<bool> = self.players.iter().map(|p| !p.withdrawn).collect();
        let forbidden = self.forbidden();
        let history = self.past_rounds(&points);
        let input = pairing::SwissInput {
            names: &names,
            points: points.last().map_or(&[][..], Vec::as_slice),
            active: &active,
            forbidden: &forbidden,
            balance_first_move: self.settings.balance_first_move,
            history: &history,
        };
        let (errors, breaches): (Vec<pairing::Breach>, Vec<pairing::Breach>) =
            pairing::check(&input, &pairs, self.settings.meetings_allowed())
                .into_iter()
                .partition(|b| b.rule == 0);
        if !errors.is_empty() {
            // Not an absolute rule a director may choose to break: a pairing that cannot
            // be played (an active player left out: withdraw them instead).
            let messages: Vec<String> = errors.into_iter().map(|b| b.message).collect();
            return refuse(ErrorCode::BadPairing, messages.join("; "));
        }
        let breaches: Vec<String> = breaches.into_iter().map(|b| b.message).collect();
        if !breaches.is_empty() && !confirm_breach {
            return refuse(
                ErrorCode::PairingBreach,
                format!(
                    "{}; send it again with confirm_breach to pair it anyway",
                    breaches.join("; ")
                ),
            );
        }
        Ok(Entry::Pair {
            round: number,
            pairings: pairings.to_vec(),
            manual: true,
            breaches,
        })
    }

    /// The games round `number`'s start creates, in table order (tables without a game
    /// are byes, or forfeits because a player withdrew).
    pub fn start_plan(&self, number: u32) -> Result<Vec<Option<PlannedGame>>, Refusal> {
        let round = self.round(number)?;
        if round.status() != RoundStatus::Paired {
            return refuse(
                ErrorCode::RoundNotReady,
                format!("round {number} has already started"),
            );
        }
        Ok(round
            .tables
            .iter()
            .map(|t| {
                let second = t.second?;
                if self.players[t.first].withdrawn || self.players[second].withdrawn {
                    return None;
                }
                Some(PlannedGame {
                    table: t.number,
                    first: self.seat(t.first),
                    second: self.seat(second),
                })
            })
            .collect())
    }

    fn round(&self, number: u32) -> Result<&Round, Refusal> {
        self.rounds
            .iter()
            .find(|r| r.number == number)
            .ok_or_else(|| Refusal {
                code: ErrorCode::NotFound,
                message: format!("round {number} is not paired"),
            })
    }

    // ----- changes -----

    /// Applies one logged change at `at`: checks it, changes the state, and returns the
    /// events it makes, versioned. Refused with nothing changed when it does not apply.
    pub fn apply(
        &mut self,
        entry: &Entry,
        at: u64,
    ) -> Result<Vec<(u64, TournamentEvent)>, Refusal> {
        let status_before = self.status();
        let mut events = match entry {
            Entry::Create { .. } => return refuse(ErrorCode::BadBody, "a second creation"),
            Entry::Join { player, name } => self.join(*player, name)?,
            Entry::Withdraw { player, by } => self.withdraw(*player, *by)?,
            Entry::Pair {
                round,
                pairings,
                manual,
                breaches,
            } => self.pair(*round, pairings, *manual, breaches)?,
            Entry::Start {
                round,
                games,
                deadline_ms,
            } => self.start(*round, games, at, *deadline_ms)?,
            Entry::GameEnd {
                game_id,
                outcome,
                moves,
                figures,
                replay,
                ended_at_ms,
                adjudicated,
            } => {
                // The game's own end, never after the entry's.
                let ended = ended_at_ms.map_or(at, |end| end.min(at));
                let end = GameEnd {
                    outcome: *outcome,
                    moves: *moves,
                    figures: *figures,
                    adjudicated: *adjudicated,
                };
                self.game_end(*game_id, end, *replay, ended)?
            }
            Entry::Sheet {
                game_id,
                by,
                action,
            } => self.sheet(*game_id, *by, action, at)?,
            Entry::EndRound { round, by } => self.end_round(*round, *by)?,
            Entry::ForbiddenPairs { pairs, by } => self.set_forbidden_pairs(pairs, *by)?,
            Entry::Tick => self.tick(at),
            Entry::Standings => vec![self.standings_event()],
        };
        let status = self.status();
        if status != status_before {
            events.push(TournamentEvent::Status(StatusChanged { status }));
        }
        Ok(events
            .into_iter()
            .map(|e| {
                self.version += 1;
                (self.version, e)
            })
            .collect())
    }

    fn join(&mut self, player: Uuid, name: &str) -> Result<Vec<TournamentEvent>, Refusal> {
        if self.by_id.contains_key(&player) {
            return refuse(
                ErrorCode::AlreadyJoined,
                "you have already joined this tournament",
            );
        }
        self.joinable()?;
        let index = self.players.len();
        self.players.push(Player {
            id: player,
            name: name.to_owned(),
            withdrawn: false,
            joined_after_round: self.rounds.len() as u32,
        });
        self.by_id.insert(player, index);
        let mut events = vec![TournamentEvent::Player(self.player_view(index))];
        // Before the first round everyone has nothing: a new line says nothing new (and
        // sending the whole table for every join would be quadratic in the field).
        if self.rounds.iter().any(|r| r.started_at_ms.is_some()) {
            events.push(self.standings_event());
        }
        Ok(events)
    }

    fn withdraw(&mut self, player: Uuid, by: Uuid) -> Result<Vec<TournamentEvent>, Refusal> {
        if by != player && by != self.director {
            return refuse(
                ErrorCode::NotDirector,
                "only the director may withdraw another player",
            );
        }
        let Some(index) = self.player_index(player) else {
            return refuse(
                ErrorCode::NotInTournament,
                "that player is not in this tournament",
            );
        };
        if self.players[index].withdrawn {
            return refuse(
                ErrorCode::NotInTournament,
                format!("{} has already withdrawn", self.players[index].name),
            );
        }
        if self.status() == TournamentStatus::Finished {
            return refuse(ErrorCode::TournamentClosed, "the tournament is over");
        }
        self.players[index].withdrawn = true;
        Ok(vec![TournamentEvent::Player(self.player_view(index))])
    }

    fn pair(
        &mut self,
        number: u32,
        pairings: &[LoggedPairing],
        manual: bool,
        breaches: &[String],
    ) -> Result<Vec<TournamentEvent>, Refusal> {
        let replaces = self
            .rounds
            .last()
            .is_some_and(|r| r.number == number && r.status() == RoundStatus::Paired);
        if !replaces {
            if number != self.rounds.len() as u32 + 1 {
                return refuse(
                    ErrorCode::RoundNotReady,
                    format!("round {number} is not the next round"),
                );
            }
            self.may_pair_next()?;
        }
        let mut tables = Vec::with_capacity(pairings.len());
        for (i, &(first, second)) in pairings.iter().enumerate() {
            let index = |id: Uuid| {
                self.player_index(id).ok_or_else(|| Refusal {
                    code: ErrorCode::BadPairing,
                    message: format!("{id} is not a player of this tournament"),
                })
            };
            tables.push(Table {
                number: i as u32 + 1,
                first: index(first)?,
                second: second.map(index).transpose()?,
                game: None,
                replaced: Vec::new(),
                forfeit_winner: None,
                no_game: false,
            });
        }
        if self.field.is_none() && self.settings.system != System::Swiss {
            self.field = Some(self.active().collect());
        }
        let round = Round {
            number,
            tables,
            manual,
            breaches: breaches.to_vec(),
            started_at_ms: None,
            deadline_ms: None,
            closing: false,
            ended_by_director: false,
        };
        if replaces {
            if let Some(last) = self.rounds.last_mut() {
                *last = round;
            }
        } else {
            self.rounds.push(round);
        }
        Ok(vec![TournamentEvent::Round(
            self.round_view(self.rounds.len() - 1),
        )])
    }

    fn start(
        &mut self,
        number: u32,
        games: &[Option<Uuid>],
        at: u64,
        deadline_ms: u64,
    ) -> Result<Vec<TournamentEvent>, Refusal> {
        let plan = self.start_plan(number)?;
        if plan.len() != games.len()
            || plan
                .iter()
                .zip(games)
                .any(|(p, g)| p.is_some() != g.is_some())
        {
            return refuse(
                ErrorCode::BadBody,
                "the games do not match the round's tables",
            );
        }
        let ids: Vec<Uuid> = games.iter().flatten().copied().collect();
        let distinct: std::collections::HashSet<&Uuid> = ids.iter().collect();
        if distinct.len() != ids.len() || ids.iter().any(|id| self.games.contains_key(id)) {
            return refuse(ErrorCode::BadBody, "a game id is used twice");
        }
        let r = self
            .rounds
            .iter()
            .position(|r| r.number == number)
            .ok_or_else(|| Refusal {
                code: ErrorCode::NotFound,
                message: format!("round {number} is not paired"),
            })?;
        let withdrawn: Vec<bool> = self.players.iter().map(|p| p.withdrawn).collect();
        let round = &mut self.rounds[r];
        round.started_at_ms = Some(at);
        round.deadline_ms = Some(deadline_ms);
        for (t, (table, game)) in round.tables.iter_mut().zip(games).enumerate() {
            match (game, table.second) {
                (Some(game_id), _) => {
                    table.game = Some(TableGame {
                        game_id: *game_id,
                        moved_first: 0,
                        sheet: None,
                    });
                    self.games.insert(*game_id, (r, t));
                }
                (None, Some(second)) => {
                    table.no_game = true;
                    table.forfeit_winner = match (withdrawn[table.first], withdrawn[second]) {
                        (false, true) => Some(0),
                        (true, false) => Some(1),
                        _ => None,
                    };
                }
                // A withdrawn player is no longer paired: not even their bye counts.
                (None, None) => table.no_game = withdrawn[table.first],
            }
        }
        Ok(vec![
            TournamentEvent::Round(self.round_view(r)),
            self.standings_event(),
        ])
    }

    fn game_end(
        &mut self,
        game_id: Uuid,
        end: GameEnd,
        replay: Option<Uuid>,
        at: u64,
    ) -> Result<Vec<TournamentEvent>, Refusal> {
        let GameEnd {
            outcome,
            moves,
            figures,
            adjudicated,
        } = end;
        let Some(&(r, t)) = self.games.get(&game_id) else {
            return refuse(ErrorCode::NotFound, "that game is not of this tournament");
        };
        let replay_seats = self.replay_for(game_id, at);
        let round_before = self.rounds[r].status();
        let table = &mut self.rounds[r].tables[t];
        let Some(game) = table.game.as_mut().filter(|g| g.game_id == game_id) else {
            return refuse(
                ErrorCode::GameOver,
                "that game was replayed; its end is recorded",
            );
        };
        if game.sheet.is_some() {
            return refuse(ErrorCode::GameOver, "that game's end is recorded already");
        }
        let verdict = match Verdict::of_game(outcome, game.moved_first, moves) {
            Verdict::Draw { .. } if adjudicated => Verdict::Draw { adjudicated: true },
            verdict => verdict,
        };
        // Checked before anything changes: a refused entry changes nothing.
        let annulled = matches!(verdict, Verdict::Annulled { .. });
        if replay.is_some_and(|id| id == game_id || self.games.contains_key(&id)) {
            return refuse(ErrorCode::BadBody, "the replay's game id is used already");
        }
        if replay.is_some() && (!annulled || replay_seats.is_none()) {
            return refuse(ErrorCode::RoundNotReady, "that game is not to be replayed");
        }
        // The figures come in game seats (South moved first): in the pairing's order.
        // The game's figures are South's and North's; the sheet's, the pairing's first and
        // second player's.
        let mut figures = figures;
        if game.moved_first == 1 {
            figures.captured.swap(0, 1);
            if let Some(arrangements) = figures.arrangements.as_mut() {
                arrangements.swap(0, 1);
            }
            figures.late_arranged.swap(0, 1);
        }
        game.sheet = Some(Sheet::new(verdict, figures, at));
        let ended = game.clone();
        let mut events = vec![self.sheet_event(r, t, &ended)];
        if let Some(new_id) = replay {
            let table = &mut self.rounds[r].tables[t];
            table.replaced.push(ended.clone());
            table.game = Some(TableGame {
                game_id: new_id,
                moved_first: 1 - ended.moved_first,
                sheet: None,
            });
            self.games.insert(new_id, (r, t));
            // The table has a new game: the round as a whole says so.
            events.push(TournamentEvent::Round(self.round_view(r)));
        } else if self.rounds[r].status() != round_before {
            // The round's last game: it is finished.
            events.push(TournamentEvent::Round(self.round_view(r)));
        }
        // The sheet is all a game's end changes of the round. The standings it changes
        // are not sent here: the tournament's task logs an `Entry::Standings` at most every
        // few seconds, since at a thousand players each is 150 KB and a round's end sent
        // every watcher 100 MB of them.
        Ok(events)
    }

    fn sheet(
        &mut self,
        game_id: Uuid,
        by: Uuid,
        action: &SheetAction,
        at: u64,
    ) -> Result<Vec<TournamentEvent>, Refusal> {
        let Some(&(r, t)) = self.games.get(&game_id) else {
            return refuse(ErrorCode::NotFound, "that game is not of this tournament");
        };
        let director = self.director;
        let by_name = self
            .player_index(by)
            .map(|i| self.players[i].name.clone())
            .unwrap_or_else(|| self.director_name.clone());
        let table = &mut self.rounds[r].tables[t];
        let players = table.players();
        let me = players.and_then(|p| p.iter().position(|&i| self.players[i].id == by));
        let Some(game) = table.game.as_mut().filter(|g| g.game_id == game_id) else {
            return refuse(
                ErrorCode::GameOver,
                "that game was annulled and replayed: its replay's sheet counts",
            );
        };
        let moved_first = game.moved_first;
        let Some(sheet) = game.sheet.as_mut() else {
            return refuse(
                ErrorCode::NotStarted,
                "that game is still being played: its sheet is filled in when it ends",
            );
        };
        let mut standings_change = false;
        match action {
            SheetAction::Confirm | SheetAction::Dispute { .. } => {
                let Some(me) = me else {
                    return refuse(
                        ErrorCode::NotYourGame,
                        "only the players of that game may confirm or dispute its sheet",
                    );
                };
                if sheet.status() != SheetStatus::Pending {
                    return refuse(
                        ErrorCode::SheetSettled,
                        format!(
                            "the sheet is {}; ask the director to correct it",
                            status_name(sheet.status())
                        ),
                    );
                }
                match action {
                    SheetAction::Confirm => {
                        if sheet.confirmed[me] {
                            return refuse(
                                ErrorCode::SheetSettled,
                                "you have confirmed this sheet already",
                            );
                        }
                        sheet.confirmed[me] = true;
                    }
                    SheetAction::Dispute { reason } => {
                        sheet.dispute = Some(Dispute {
                            by: me,
                            reason: checked_reason(reason)?,
                            at_ms: at,
                        });
                    }
                    SheetAction::Correct { .. } => {}
                }
            }
            SheetAction::Correct { outcome, reason } => {
                if by != director {
                    return refuse(
                        ErrorCode::NotDirector,
                        "only the director may correct a sheet",
                    );
                }
                let reason = checked_reason(reason)?;
                // The same result again upholds the sheet (a dispute rejected): kept as
                // a correction too, with its reason, and as the sheet had it (a forfeit
                // stays a forfeit, an adjudicated draw stays adjudicated).
                let before = sheet.verdict();
                let asked = Verdict::corrected(*outcome, moved_first);
                let after = if asked.same_result(before) {
                    before
                } else {
                    asked
                };
                sheet.corrections.push(Correction {
                    at_ms: at,
                    by,
                    by_name,
                    reason,
                    before,
                    after,
                });
                standings_change = true;
            }
        }
        let game = self.rounds[r].tables[t].game.clone();
        let mut events = Vec::new();
        if let Some(game) = game {
            events.push(self.sheet_event(r, t, &game));
        }
        if standings_change {
            events.push(self.standings_event());
        }
        Ok(events)
    }

    /// The director's new list of forbidden pairs, for the rounds paired from now on. Each
    /// id is a player of the tournament, or one the list already named (a pair set at
    /// creation, before its players joined); a pair of someone with themselves, or more
    /// than [`MAX_FORBIDDEN_PAIRS`], is refused; a pair given twice (either way round) is
    /// kept once. No event: the list is part of the snapshot's settings, and the call
    /// answers it.
    fn set_forbidden_pairs(
        &mut self,
        pairs: &[[Uuid; 2]],
        by: Uuid,
    ) -> Result<Vec<TournamentEvent>, Refusal> {
        if by != self.director {
            return refuse(
                ErrorCode::NotDirector,
                "only the director may set the forbidden pairs",
            );
        }
        if self.status() == TournamentStatus::Finished {
            return refuse(ErrorCode::TournamentClosed, "the tournament is over");
        }
        if pairs.len() > MAX_FORBIDDEN_PAIRS {
            return refuse(
                ErrorCode::BadRequest,
                format!("at most {MAX_FORBIDDEN_PAIRS} forbidden pairs"),
            );
        }
        let known = |id: &Uuid| {
            self.by_id.contains_key(id)
                || self.settings.forbidden_pairs.iter().any(|p| p.contains(id))
        };
        let mut kept: Vec<[Uuid; 2]> = Vec::with_capacity(pairs.len());
        for &[a, b] in pairs {
            if a == b {
                return refuse(
                    ErrorCode::BadRequest,
                    format!("a player cannot be kept apart from themselves ({a})"),
                );
            }
            if let Some(unknown) = [a, b].into_iter().find(|id| !known(id)) {
                return refuse(
                    ErrorCode::NotInTournament,
                    format!("{unknown} is not a player of this tournament"),
                );
            }
            if !kept.iter().any(|p| p.contains(&a) && p.contains(&b)) {
                kept.push([a, b]);
            }
        }
        self.settings.forbidden_pairs = kept;
        Ok(Vec::new())
    }

    fn end_round(&mut self, number: u32, by: Uuid) -> Result<Vec<TournamentEvent>, Refusal> {
        if by != self.director {
            return refuse(ErrorCode::NotDirector, "only the director may end a round");
        }
        let r = self
            .rounds
            .iter()
            .position(|r| r.number == number)
            .ok_or_else(|| Refusal {
                code: ErrorCode::NotFound,
                message: format!("round {number} is not paired"),
            })?;
        if self.rounds[r].status() != RoundStatus::Playing {
            return refuse(
                ErrorCode::RoundNotReady,
                format!("round {number} is not being played"),
            );
        }
        if self.rounds[r].closing {
            return refuse(
                ErrorCode::RoundNotReady,
                format!("round {number} is ending already"),
            );
        }
        self.rounds[r].closing = true;
        self.rounds[r].ended_by_director = true;
        Ok(vec![TournamentEvent::Round(self.round_view(r))])
    }

    fn tick(&mut self, at: u64) -> Vec<TournamentEvent> {
        let mut events = Vec::new();
        let mut confirmed = Vec::new();
        for (r, round) in self.rounds.iter_mut().enumerate() {
            for (t, table) in round.tables.iter_mut().enumerate() {
                let Some(sheet) = table.game.as_mut().and_then(|g| g.sheet.as_mut()) else {
                    continue;
                };
                if sheet.confirms_at().is_some_and(|due| at >= due) {
                    sheet.auto_confirmed = true;
                    confirmed.push((r, t));
                }
            }
        }
        for (r, t) in confirmed {
            if let Some(game) = self.rounds[r].tables[t].game.clone() {
                events.push(self.sheet_event(r, t, &game));
            }
        }
        for r in 0..self.rounds.len() {
            let round = &mut self.rounds[r];
            let due = round.deadline_ms.is_some_and(|d| at >= d);
            if due && !round.closing && round.status() == RoundStatus::Playing {
                round.closing = true;
                events.push(TournamentEvent::Round(self.round_view(r)));
            }
        }
        events
    }

    // ----- views -----

    fn player_view(&self, index: usize) -> PlayerView {
        let p = &self.players[index];
        PlayerView {
            player_id: p.id,
            name: p.name.clone(),
            withdrawn: p.withdrawn,
            joined_after_round: p.joined_after_round,
        }
    }

    fn sheet_event(&self, r: usize, t: usize, game: &TableGame) -> TournamentEvent {
        let round = &self.rounds[r];
        let table = &round.tables[t];
        TournamentEvent::Sheet(SheetChanged {
            round: round.number,
            table: table.number,
            game_id: Some(game.game_id),
            sheet: self
                .game_sheet(table, game)
                .unwrap_or_else(|| sheet_without_game(None, &self.settings.points)),
        })
    }

    fn game_sheet(
        &self,
        table: &Table,
        game: &TableGame,
    ) -> Option<omweso_protocol::tournament::SheetView> {
        let players = table.players()?;
        let sheet = game.sheet.as_ref()?;
        let ids = players.map(|p| self.players[p].id);
        Some(sheet.view(
            game.game_id,
            ids,
            game.moved_first,
            &self.settings.points,
            self.settings.oware(),
        ))
    }

    #[must_use]
    pub fn round_view(&self, r: usize) -> RoundView {
        let round = &self.rounds[r];
        RoundView {
            number: round.number,
            status: round.status(),
            deadline: round.deadline_ms,
            pairings: round
                .tables
                .iter()
                .map(|t| {
                    let sheet = match &t.game {
                        Some(game) => self.game_sheet(t, game),
                        None if round.started_at_ms.is_none() => None,
                        None if t.second.is_none() && !t.no_game => {
                            Some(sheet_without_game(None, &self.settings.points))
                        }
                        None => t
                            .forfeit_winner
                            .map(|w| sheet_without_game(Some(w), &self.settings.points)),
                    };
                    PairingView {
                        table: t.number,
                        first: self.players[t.first].id,
                        second: t.second.map(|s| self.players[s].id),
                        game_id: t.game.as_ref().map(|g| g.game_id),
                        sheet,
                        replaced: t
                            .replaced
                            .iter()
                            .map(|g| ReplacedGame {
                                game_id: g.game_id,
                                sheet: self.game_sheet(t, g),
                            })
                            .collect(),
                    }
                })
                .collect(),
            manual: round.manual,
            breaches: round.breaches.clone(),
            started_at: round.started_at_ms,
            closing: round.closing,
            ended_by_director: round.ended_by_director,
        }
    }

    /// The standings as the sheets stand (RULES.md 5.5).
    #[must_use]
    pub fn standings(&self) -> Vec<StandingView> {
        let mut results = Vec::new();
        let mut started = 0;
        for round in self.rounds.iter().filter(|r| r.started_at_ms.is_some()) {
            started += 1;
            for t in &round.tables {
                let Some(players) = t.players() else {
                    if !t.no_game {
                        results.push(RoundResult::Bye { player: t.first });
                    }
                    continue;
                };
                if t.no_game {
                    if let Some(w) = t.forfeit_winner {
                        results.push(RoundResult::Forfeit {
                            winner: players[w],
                            loser: players[1 - w],
                        });
                    }
                    continue;
                }
                match t.game.as_ref().and_then(|g| g.sheet.as_ref()) {
                    Some(sheet) => results.push(sheet.round_result(players)),
                    // Being played: not a round without a game (Buchholz would count the
                    // player's own points for it until it ends).
                    None => results.push(RoundResult::Pending { players }),
                }
            }
        }
        standings(
            self.players.len(),
            started,
            &results,
            &self.settings.points,
            self.settings.oware(),
        )
        .into_iter()
        .map(|s| StandingView {
            rank: u32::try_from(s.rank).unwrap_or(u32::MAX),
            player_id: self.players[s.player].id,
            name: self.players[s.player].name.clone(),
            points: points(s.points),
            buchholz: points(s.buchholz),
            sonneborn_berger: points(s.sonneborn_berger),
            seeds: s.seeds,
            games: s.wins + s.draws + s.losses,
            wins: s.wins,
            draws: s.draws,
            losses: s.losses,
            direct: points(s.direct),
        })
        .collect()
    }

    fn standings_event(&self) -> TournamentEvent {
        TournamentEvent::Standings(StandingsChanged {
            standings: self.standings(),
        })
    }

    /// The snapshot as `viewer` sees it.
    #[must_use]
    pub fn snapshot(&self, viewer: Option<Uuid>) -> TournamentSnapshot {
        let planned = self.rounds_planned();
        TournamentSnapshot {
            tournament_id: self.id,
            name: self.settings.name.clone(),
            ruleset: self.settings.game.ruleset,
            system: self.settings.system,
            settings: self.settings.view(planned),
            status: self.status(),
            director: self.director,
            you: viewer.filter(|v| self.by_id.contains_key(v)),
            players: (0..self.players.len())
                .map(|i| self.player_view(i))
                .collect(),
            rounds: (0..self.rounds.len()).map(|r| self.round_view(r)).collect(),
            standings: self.standings(),
            version: self.version,
            rounds_planned: planned,
            created_at_ms: self.created_at_ms,
        }
    }

    /// The lobby's line.
    #[must_use]
    pub fn summary(&self) -> TournamentSummary {
        TournamentSummary {
            tournament_id: self.id,
            name: self.settings.name.clone(),
            ruleset: self.settings.game.ruleset,
            system: self.settings.system,
            status: self.status(),
            players: u32::try_from(self.players.len()).unwrap_or(u32::MAX),
            round: self.rounds.len() as u32,
        }
    }
}

fn status_name(status: SheetStatus) -> &'static str {
    match status {
        SheetStatus::Pending => "pending",
        SheetStatus::Confirmed => "confirmed",
        SheetStatus::Disputed => "disputed",
        SheetStatus::Corrected => "corrected",
    }
}

fn checked_reason(reason: &str) -> Result<String, Refusal> {
    let reason = reason.trim();
    if reason.is_empty() {
        return refuse(ErrorCode::BadReason, "say why (a reason is required)");
    }
    if reason.chars().count() > MAX_REASON_CHARS {
        return refuse(
            ErrorCode::BadReason,
            format!("the reason is longer than {MAX_REASON_CHARS} characters"),
        );
    }
    Ok(reason.to_owned())
}

#[cfg(test)]
#[path = "state_tests.rs"]
mod tests;
