//! One tournament's state: a pure state machine, like a game's table. Every change comes
//! in as a log [`Entry`] with the time it happened and goes out as versioned
//! [`TournamentEvent`]s; nothing here reads a clock or does I/O, so the tournament is
//! rebuilt after a restart by replaying its log, and tests drive time exactly.
//!
//! Players are numbered by registration, which is the initial order the pairing ranks
//! equal scores in, unless a rated tournament seeded them by rating (`seeding`).
//!
//! The model is here (the tournament, its players, rounds and tables, and what it answers
//! about itself); its jobs are children that add to its `impl`: `pairing_plan` (what the
//! pairing reads of it, built once, and the next round's pairing, Swiss or Berger, or the
//! director's checked), `transitions` (every log entry applied, and the clock), `views`
//! (what the sockets and pages show), `directors` (the co-directors, renames, device
//! codes, and the record of who did what), `places` (where a player is now, for a device
//! linked for them), and `replay` (a tournament rebuilt from its stored log).

use std::collections::HashMap;

use uuid::Uuid;

use crate::board::BoardPlay;
use crate::log::Entry;
use crate::settings::Settings;
use crate::sheet::{GameFigures, Sheet};
use omweso_protocol::over_the_board::PlayedAt;
use omweso_protocol::tournament::{RoundStatus, SheetStatus, System, TournamentStatus};
use omweso_protocol::ErrorCode;
use omweso_table::table::Seat;

pub use omweso_protocol::tournament::{DirectorAction, MAX_PLAYERS};

/// A refused change: nothing changed.
pub use omweso_protocol::refusal::Refusal;

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
    /// Added by a director by name, without a device.
    pub added_by_director: bool,
    /// Their place in a rated tournament's initial order (1 = the top seed), once its
    /// seeding reached them (before the first pairing they could be in).
    pub seed: Option<u32>,
    /// The rating the seeding kept (`None`: no account, not rated).
    pub seed_rating: Option<i32>,
    /// When a director's code last gave them a new device (for the console).
    pub linked_at_ms: Option<u64>,
}

/// A game played at a table, with its sheet once it ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableGame {
    pub game_id: Uuid,
    /// 0: the pairing's first moved first; 1: its second did (a replay).
    pub moved_first: usize,
    pub sheet: Option<Sheet>,
    /// Over the board: the entries waiting for initials, and the relayed game if any.
    pub board: Option<BoardPlay>,
}

impl TableGame {
    /// Still to be watched as a game: an online game without its sheet, or a relayed
    /// one whose game has not ended.
    fn followed(&self) -> bool {
        match &self.board {
            None => self.sheet.is_none(),
            Some(board) => board.relayed && !board.game_ended && self.sheet.is_none(),
        }
    }
}

/// Who enters a board table's moves as they are sown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Relay {
    pub id: Uuid,
    pub name: String,
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
    /// Where it is played (docs/rules.md#57-over-the-board-play-and-relays).
    pub played_at: PlayedAt,
    /// A board table's relay, and the open invite to become it.
    pub relay: Option<Relay>,
    pub relay_invite: Option<Invite>,
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
    /// Over the board: no game is created unless a relay follows the board.
    pub played_at: PlayedAt,
    pub relayed: bool,
}

impl PlannedGame {
    /// Whether the round's start creates a game in the store for this table.
    #[must_use]
    pub fn creates_game(&self) -> bool {
        self.played_at == PlayedAt::Online || self.relayed
    }
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
    /// Who the director named to share the console, in the order named.
    co_directors: Vec<CoDirector>,
    /// The co-director invites made, open or not (a used or expired one refuses its code
    /// saying so).
    invites: Vec<Invite>,
    /// Every director's action, oldest first, with who did it under their name then.
    actions: Vec<DirectorAction>,
    /// The entries applied (the creation is entry 0): the next one's number in the log.
    entries: i64,
}

/// Someone who shares the director's console (named by the director; never a second
/// director: only the director names and removes them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CoDirector {
    pub id: Uuid,
    pub name: String,
}

/// A one-time invite to become a co-director: its code only as its SHA-256.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invite {
    pub code_hash: String,
    pub expires_at_ms: u64,
    pub used: bool,
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
            co_directors: Vec::new(),
            invites: Vec::new(),
            actions: vec![DirectorAction {
                seq: 0,
                at_ms: at,
                kind: entry.kind().to_owned(),
                by: *director,
                by_name: director_name.clone(),
                summary: format!("created the tournament \"{}\"", settings.name),
            }],
            entries: 1,
        })
    }

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

    /// Every game of this tournament (current and replaced ones) with its round number
    /// and table, by round, then table, then id: what its game-file export lists.
    #[must_use]
    pub fn game_tables(&self) -> Vec<(Uuid, u32, u32)> {
        let mut all: Vec<(Uuid, u32, u32)> = self
            .games
            .iter()
            .map(|(&id, &(r, t))| (id, self.rounds[r].number, self.rounds[r].tables[t].number))
            .collect();
        all.sort_by_key(|&(id, round, table)| (round, table, id));
        all
    }

    /// The round number and table of a game of this tournament (its current game or a
    /// replaced one).
    #[must_use]
    pub fn game_table(&self, game_id: Uuid) -> Option<(u32, u32)> {
        self.games
            .get(&game_id)
            .map(|&(r, t)| (self.rounds[r].number, self.rounds[r].tables[t].number))
    }

    /// Whether `person` plays at table `table` of round `round` (a bye has no players).
    #[must_use]
    pub fn plays_at(&self, person: Uuid, round: u32, table: u32) -> bool {
        self.rounds
            .iter()
            .find(|r| r.number == round)
            .and_then(|r| r.tables.iter().find(|t| t.number == table))
            .and_then(|t| t.players())
            .is_some_and(|players| players.iter().any(|&p| self.players[p].id == person))
    }

    /// Whether `person` played game `game_id` of this tournament.
    #[must_use]
    pub fn plays_in(&self, person: Uuid, game_id: Uuid) -> bool {
        self.game_table(game_id)
            .is_some_and(|(round, table)| self.plays_at(person, round, table))
    }

    /// Whether `id` is the director, a co-director or one of the players (withdrawn too).
    #[must_use]
    pub fn is_member(&self, id: Uuid) -> bool {
        self.directs(id) || self.by_id.contains_key(&id)
    }

    /// Whether `id` has the console: the director or a co-director.
    #[must_use]
    pub fn directs(&self, id: Uuid) -> bool {
        id == self.director || self.co_directors.iter().any(|c| c.id == id)
    }

    #[must_use]
    pub fn co_directors(&self) -> &[CoDirector] {
        &self.co_directors
    }

    #[must_use]
    pub fn director_name(&self) -> &str {
        &self.director_name
    }

    /// Every person the tournament names (its players, withdrawn too, the director and
    /// the co-directors), each once: whom a rename concerns.
    pub fn people(&self) -> impl Iterator<Item = Uuid> + '_ {
        let director = std::iter::once(self.director);
        let co = self.co_directors.iter().map(|c| c.id);
        let players = self.players.iter().map(|p| p.id);
        let mut seen = std::collections::HashSet::new();
        director
            .chain(co)
            .chain(players)
            .filter(move |id| seen.insert(*id))
    }

    /// Every director's action, oldest first.
    #[must_use]
    pub fn actions(&self) -> &[DirectorAction] {
        &self.actions
    }

    /// How `id` is named in this tournament now: as director, co-director or player.
    #[must_use]
    pub fn name_of(&self, id: Uuid) -> String {
        if id == self.director {
            return self.director_name.clone();
        }
        if let Some(c) = self.co_directors.iter().find(|c| c.id == id) {
            return c.name.clone();
        }
        self.player_index(id)
            .map_or_else(|| id.to_string(), |i| self.players[i].name.clone())
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

    /// Whether players may still join (docs/rules.md#53-rounds: until the last round is paired; a
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
    /// played: to adjudicate. A board table without a relayed game has none: its director
    /// adjudicates it (it is `missing`).
    #[must_use]
    pub fn games_to_adjudicate(&self) -> Vec<Uuid> {
        self.rounds
            .iter()
            .filter(|r| r.closing)
            .flat_map(|r| &r.tables)
            .filter_map(|t| t.game.as_ref())
            .filter(|g| g.followed())
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
                g.followed().then_some((g.game_id, round, t.number))
            })
            .collect()
    }

    /// The deadline of the round `game_id` is played in.
    #[must_use]
    pub fn deadline_of(&self, game_id: Uuid) -> Option<u64> {
        let &(r, _) = self.games.get(&game_id)?;
        self.rounds[r].deadline_ms
    }

    /// Whether `game_id` is a game of this tournament still being played (online, or
    /// relayed from a board).
    #[must_use]
    pub fn in_play(&self, game_id: Uuid) -> bool {
        self.games.get(&game_id).is_some_and(|&(r, t)| {
            self.rounds[r].tables[t]
                .game
                .as_ref()
                .is_some_and(|g| g.game_id == game_id && g.followed())
        })
    }

    /// Whether an annulled game ending at `at` is replayed: while at least a quarter of
    /// its round's time is left (docs/rules.md#53-rounds). Returns the new game's seats, the first
    /// move swapped.
    #[must_use]
    pub fn replay_for(&self, game_id: Uuid, at: u64) -> Option<(Seat, Seat)> {
        let &(r, t) = self.games.get(&game_id)?;
        let round = &self.rounds[r];
        let table = &round.tables[t];
        // Over the board nothing is replayed by itself: the players and the director
        // decide.
        let game = table
            .game
            .as_ref()
            .filter(|g| g.game_id == game_id && g.sheet.is_none() && g.board.is_none())?;
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
}

/// A sheet's status as the views and events name it.
fn status_name(status: SheetStatus) -> &'static str {
    match status {
        SheetStatus::Pending => "pending",
        SheetStatus::Confirmed => "confirmed",
        SheetStatus::Disputed => "disputed",
        SheetStatus::Corrected => "corrected",
    }
}

mod board_tables;
mod directors;
mod pairing_plan;
mod places;
mod replay;
mod seeding;
mod sheet_ratings;
mod transitions;
mod views;

pub use board_tables::RELAY_INVITE_MS;
pub use directors::{INVITE_MS, MAX_CO_DIRECTORS, MAX_OPEN_INVITES};
pub use places::Place;
pub use replay::{replay, Logged, RebuildError, ReplayError};
pub use sheet_ratings::SheetRating;

#[cfg(test)]
mod tests;
