//! Over-the-board tables (docs/rules.md#57-over-the-board-play-and-relays): where each
//! table is played, the players a director adds without a device, the sheet entered and
//! initialled at the board, and the relays who enter a wooden board's moves.

use uuid::Uuid;

use crate::board::{board_verdict, BoardEntry, BoardPlay, DirectorInitials, Entered};
use crate::log::BoardAction;
use crate::sheet::GameFigures;
use omweso_protocol::over_the_board::PlayedAt;
use omweso_protocol::tournament::{RoundStatus, TournamentEvent};
use omweso_protocol::ErrorCode;

use super::*;

/// How long a relay invite is good for: the length of an event day.
pub const RELAY_INVITE_MS: u64 = 12 * 60 * 60 * 1000;

impl Tournament {
    /// The round and table indices of table `table` of round `round`.
    pub(super) fn table_at(&self, round: u32, table: u32) -> Result<(usize, usize), Refusal> {
        let r = self
            .rounds
            .iter()
            .position(|x| x.number == round)
            .ok_or_else(|| {
                Refusal::new(ErrorCode::NotFound, format!("round {round} is not paired"))
            })?;
        let t = self.rounds[r]
            .tables
            .iter()
            .position(|x| x.number == table)
            .ok_or_else(|| {
                Refusal::new(
                    ErrorCode::NotFound,
                    format!("round {round} has no table {table}"),
                )
            })?;
        Ok((r, t))
    }

    pub(super) fn set_played_at(
        &mut self,
        round: u32,
        table: Option<u32>,
        played_at: PlayedAt,
        by: Uuid,
    ) -> Result<Vec<TournamentEvent>, Refusal> {
        self.directing(Some(by), "say where a table is played")?;
        let r = match table {
            Some(table) => self.table_at(round, table)?.0,
            None => self.table_at_round(round)?,
        };
        if self.rounds[r].status() != RoundStatus::Paired {
            return refuse(
                ErrorCode::RoundNotReady,
                format!("round {round} has started: its tables are played where they were"),
            );
        }
        for t in &mut self.rounds[r].tables {
            if table.is_none_or(|n| n == t.number) {
                t.played_at = played_at;
                if played_at == PlayedAt::Online {
                    t.relay = None;
                    t.relay_invite = None;
                }
            }
        }
        Ok(vec![TournamentEvent::Round(self.round_view(r))])
    }

    fn table_at_round(&self, round: u32) -> Result<usize, Refusal> {
        self.rounds
            .iter()
            .position(|x| x.number == round)
            .ok_or_else(|| {
                Refusal::new(ErrorCode::NotFound, format!("round {round} is not paired"))
            })
    }

    /// A director adds a player by name, without a device: joined like anyone, marked so
    /// that the pages say the director acts for them.
    pub(super) fn add_player(
        &mut self,
        player: Uuid,
        name: &str,
        by: Uuid,
    ) -> Result<Vec<TournamentEvent>, Refusal> {
        self.directing(Some(by), "add a player")?;
        let mut events = self.join(player, name)?;
        if let Some(index) = self.player_index(player) {
            self.players[index].added_by_director = true;
            // The join's own event, with the mark.
            if let Some(TournamentEvent::Player(view)) = events.first_mut() {
                view.added_by_director = true;
            }
        }
        Ok(events)
    }

    pub(super) fn board_sheet(
        &mut self,
        round: u32,
        table: u32,
        by: Uuid,
        action: &BoardAction,
        at: u64,
    ) -> Result<Vec<TournamentEvent>, Refusal> {
        let (r, t) = self.table_at(round, table)?;
        let directs = self.directs(by);
        let ruleset = self.settings.game.ruleset;
        let akakyala = self.settings.game.time_control.akakyala;
        let by_name = self.name_of(by);
        let the_table = &self.rounds[r].tables[t];
        let Some(players) = the_table.players() else {
            return refuse(ErrorCode::NotFound, "a bye has no sheet to enter");
        };
        let ids = players.map(|p| self.players[p].id);
        let names = players.map(|p| self.players[p].name.clone());
        let without_device = players.map(|p| self.players[p].added_by_director);
        let me = ids.iter().position(|&id| id == by);
        if me.is_none() && !directs {
            return refuse(
                ErrorCode::NotYourGame,
                "only the table's two players or a director may enter its sheet",
            );
        }
        let started = self.rounds[r].started_at_ms.is_some();
        let Some(game) = self.rounds[r].tables[t].game.as_mut() else {
            return if started {
                refuse(
                    ErrorCode::SheetSettled,
                    "this table has no game (a player had withdrawn): its result was decided at the round's start",
                )
            } else {
                refuse(
                    ErrorCode::NotStarted,
                    format!("round {round} has not started: its sheets open when it does"),
                )
            };
        };
        if game.board.is_some() && game.sheet.is_some() {
            return refuse(
                ErrorCode::SheetSettled,
                "this table's sheet is made; a director may correct it",
            );
        }
        let Some(board) = game.board.as_mut() else {
            return refuse(
                ErrorCode::BadRequest,
                "this table is played online: its sheet is filled in by the server",
            );
        };
        let agreed = match (action, me) {
            // A director enters for the players (a phone lost, a player without a device,
            // entries that differ): the sheet is made at once.
            (
                BoardAction::Enter {
                    result,
                    as_player: false,
                },
                _,
            ) if directs => {
                let (verdict, captured) = board_verdict(result, ids, ruleset, akakyala, true)?;
                let figures = board
                    .entries
                    .iter()
                    .find(|e| e.from_relay)
                    .map_or_else(GameFigures::default, |e| e.figures);
                board.dispute = None;
                board.annulled = false;
                // An adjudication's seeds on each side of the board, as counted then.
                let on_board = result.seeds_on_board.map(|s| [s.first, s.second]);
                game.sheet = Some(Sheet::at_the_board(
                    verdict,
                    GameFigures {
                        captured,
                        on_board,
                        ..figures
                    },
                    at,
                    Some(by),
                ));
                true
            }
            (BoardAction::Enter { result, .. }, Some(me)) => {
                let (verdict, captured) = board_verdict(result, ids, ruleset, akakyala, false)?;
                let mut confirmed = [false; 2];
                confirmed[me] = true;
                let entry = BoardEntry {
                    by,
                    by_name,
                    from_relay: false,
                    verdict,
                    captured,
                    at_ms: at,
                    confirmed,
                    initialled_for: [None, None],
                    figures: GameFigures::default(),
                };
                let entered = board.enter(me, entry)?;
                made(game, entered, at)
            }
            (BoardAction::Confirm, Some(me)) => {
                let entered = board.confirm(me)?;
                made(game, entered, at)
            }
            // A director initials for a player they added without a device: accepting the
            // entry standing, as that player would on a phone.
            (BoardAction::ConfirmFor { player }, me) => {
                if !directs {
                    return refuse(
                        ErrorCode::NotDirector,
                        "only the director or a co-director initials for a player without a device",
                    );
                }
                let Some(index) = ids.iter().position(|id| id == player) else {
                    return refuse(
                        ErrorCode::NotInTournament,
                        format!("{player} is not one of this table's two players"),
                    );
                };
                if me.is_some() {
                    return refuse(
                        ErrorCode::BadRequest,
                        format!("you play at this table: another director initials for {}, or enters the result", names[index]),
                    );
                }
                if !without_device[index] {
                    return refuse(
                        ErrorCode::BadRequest,
                        format!("{} joined with a device of their own: they initial it there (or enter the result: it makes the sheet)", names[index]),
                    );
                }
                let initials = DirectorInitials { by, by_name };
                let entered = board.confirm_for(index, &names[index], initials)?;
                made(game, entered, at)
            }
            (BoardAction::Dispute { reason }, Some(me)) => {
                let reason = super::transitions::checked_reason(reason)?;
                board.dispute(me, reason, at)?;
                false
            }
            (_, None) => return refuse(
                ErrorCode::NotYourGame,
                "only the table's players initial or dispute an entry; a director enters the sheet",
            ),
        };
        let mut events = vec![TournamentEvent::Round(self.round_view(r))];
        if agreed {
            // The standings it changes are sent by the tournament's task, gathered with
            // others at most every few seconds, as for a game's end.
            if let Some(game) = self.rounds[r].tables[t].game.clone() {
                events.push(self.sheet_event(r, t, &game));
            }
        }
        Ok(events)
    }

    pub(super) fn invite_relay(
        &mut self,
        round: u32,
        table: u32,
        code_hash: &str,
        expires_at_ms: u64,
        by: Uuid,
        at: u64,
    ) -> Result<Vec<TournamentEvent>, Refusal> {
        self.directing(Some(by), "invite a relay")?;
        let (r, t) = self.relayable(round, table)?;
        if expires_at_ms <= at {
            return refuse(ErrorCode::BadBody, "a relay invite must expire later");
        }
        // One open invite per table: a new one replaces it (a code shown on a screen
        // that was photographed is void once the director makes another).
        self.rounds[r].tables[t].relay_invite = Some(Invite {
            code_hash: code_hash.to_owned(),
            expires_at_ms,
            used: false,
        });
        Ok(Vec::new())
    }

    /// Whether the relay invite of table `table` of round `round` is the one whose code
    /// hashes to `code_hash`, unused and not expired at `now`, at a table that may still
    /// be relayed: what a code typed at `/link` leads to.
    #[must_use]
    pub fn relay_invite_open(&self, round: u32, table: u32, code_hash: &str, now: u64) -> bool {
        let Ok((r, t)) = self.relayable(round, table) else {
            return false;
        };
        self.rounds[r].tables[t]
            .relay_invite
            .as_ref()
            .is_some_and(|i| i.code_hash == code_hash && !i.used && i.expires_at_ms > now)
    }

    /// A board table that may have a relay: paired, played over the board, with two
    /// players, its sheet not made.
    fn relayable(&self, round: u32, table: u32) -> Result<(usize, usize), Refusal> {
        let (r, t) = self.table_at(round, table)?;
        let the_table = &self.rounds[r].tables[t];
        if the_table.played_at != PlayedAt::Board {
            return refuse(
                ErrorCode::BadRequest,
                format!(
                    "round {round}, table {table} is played online: only a board table is relayed"
                ),
            );
        }
        if the_table.second.is_none() || the_table.no_game {
            return refuse(
                ErrorCode::BadRequest,
                format!("round {round}, table {table} has no game to relay"),
            );
        }
        if the_table.game.as_ref().is_some_and(|g| g.sheet.is_some()) {
            return refuse(
                ErrorCode::SheetSettled,
                format!("round {round}, table {table} is over: its sheet is made"),
            );
        }
        if self.rounds[r].closing {
            return refuse(
                ErrorCode::RoundNotReady,
                format!(
                    "round {round}'s time is up: its board tables are the director's to adjudicate"
                ),
            );
        }
        Ok((r, t))
    }

    /// Whether naming a relay for this table now creates its game: its round is being
    /// played and no game follows its board yet. `Some` with the seats (the pairing's
    /// first moves first) and the game's id, known since the round's start.
    #[must_use]
    pub fn relay_game_to_create(&self, round: u32, table: u32) -> Option<(Uuid, Seat, Seat)> {
        let (r, t) = self.table_at(round, table).ok()?;
        if self.rounds[r].closing {
            return None;
        }
        let the_table = &self.rounds[r].tables[t];
        let game = the_table.game.as_ref()?;
        let board = game.board.as_ref()?;
        if board.relayed || game.sheet.is_some() || !board.entries.is_empty() {
            return None;
        }
        let second = the_table.second?;
        Some((game.game_id, self.seat(the_table.first), self.seat(second)))
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn name_relay(
        &mut self,
        round: u32,
        table: u32,
        relay: Option<Relay>,
        code_hash: Option<&str>,
        by: Option<Uuid>,
        game: Option<Uuid>,
        at: u64,
    ) -> Result<Vec<TournamentEvent>, Refusal> {
        let (r, t) = self.relayable(round, table)?;
        match (by, code_hash) {
            (Some(by), None) => self.directing(Some(by), "name a relay")?,
            (None, Some(hash)) => {
                let invite = self.rounds[r].tables[t].relay_invite.as_ref();
                match invite {
                    Some(i) if i.code_hash == hash && i.used => {
                        return refuse(
                            ErrorCode::BadCode,
                            "that relay invite was used already: ask the director for a new one",
                        )
                    }
                    Some(i) if i.code_hash == hash && i.expires_at_ms <= at => {
                        return refuse(
                            ErrorCode::BadCode,
                            "that relay invite has expired: ask the director for a new one",
                        )
                    }
                    Some(i) if i.code_hash == hash => {}
                    _ => {
                        return refuse(
                            ErrorCode::BadCode,
                            "that is not this table's relay code (a newer one may have replaced it): check it, or ask the director",
                        )
                    }
                }
                if relay.is_none() {
                    return refuse(ErrorCode::BadBody, "an invite names a relay");
                }
            }
            _ => {
                return refuse(
                    ErrorCode::BadBody,
                    "a relay is named by a director or an invite",
                )
            }
        }
        let creates = self.relay_game_to_create(round, table).map(|(id, ..)| id);
        let the_table = &self.rounds[r].tables[t];
        let started = the_table.game.as_ref().and_then(|g| g.board.as_ref());
        if relay.is_some() && started.is_some_and(|b| !b.relayed) && creates.is_none() {
            return refuse(
                ErrorCode::SheetSettled,
                format!("round {round}, table {table}'s result is being entered already: there is no game left to relay"),
            );
        }
        if game != creates.filter(|_| relay.is_some()) {
            return refuse(
                ErrorCode::BadBody,
                "the relay's game does not match the table",
            );
        }
        let the_table = &mut self.rounds[r].tables[t];
        if code_hash.is_some() {
            if let Some(invite) = the_table.relay_invite.as_mut() {
                invite.used = true;
            }
        }
        the_table.relay = relay;
        if game.is_some() {
            if let Some(board) = the_table.game.as_mut().and_then(|g| g.board.as_mut()) {
                board.relayed = true;
            }
        }
        Ok(vec![TournamentEvent::Round(self.round_view(r))])
    }

    /// The game `by` relays at this table: refused unless they are its relay and a game
    /// follows its board.
    pub fn relay_game(&self, round: u32, table: u32, by: Uuid) -> Result<Uuid, Refusal> {
        let (r, t) = self.table_at(round, table)?;
        let the_table = &self.rounds[r].tables[t];
        if the_table.relay.as_ref().is_none_or(|relay| relay.id != by) {
            return refuse(
                ErrorCode::NotYourGame,
                format!("you are not the relay of round {round}, table {table}"),
            );
        }
        match the_table.game.as_ref() {
            Some(game) if game.sheet.is_some() || game.board.as_ref().is_some_and(|b| b.game_ended) => {
                refuse(
                    ErrorCode::GameOver,
                    format!("the game of round {round}, table {table} is over: its result waits for the players' initials"),
                )
            }
            Some(game) if game.board.as_ref().is_some_and(|b| b.relayed) => Ok(game.game_id),
            _ => refuse(
                ErrorCode::NotStarted,
                format!("round {round} has not started: moves are entered once it does"),
            ),
        }
    }

    /// A board table as the snapshot shows it.
    pub(super) fn board_view(
        &self,
        round: &Round,
        table: &Table,
    ) -> Option<omweso_protocol::over_the_board::BoardTableView> {
        if table.played_at != PlayedAt::Board || table.second.is_none() {
            return None;
        }
        let ids = table.players()?.map(|p| self.players[p].id);
        let relay = table.relay.as_ref().map(|r| (r.id, r.name.as_str()));
        let game = table.game.as_ref();
        let missing = round.closing && game.is_some_and(|g| g.sheet.is_none()) && !table.no_game;
        let view = match game.and_then(|g| g.board.as_ref()) {
            Some(board) => board.view(ids, relay, missing),
            None => BoardPlay::default().view(ids, relay, missing),
        };
        Some(view)
    }

    /// The board tables of closing rounds without a sheet: what the director adjudicates.
    #[must_use]
    pub fn missing_sheets(&self) -> Vec<(u32, u32)> {
        self.rounds
            .iter()
            .filter(|r| r.closing)
            .flat_map(|r| r.tables.iter().map(move |t| (r.number, t)))
            .filter(|(_, t)| {
                t.game
                    .as_ref()
                    .is_some_and(|g| g.board.is_some() && g.sheet.is_none())
            })
            .map(|(round, t)| (round, t.number))
            .collect()
    }
}

/// Makes the sheet when both players agree on one entry; says whether it did.
fn made(game: &mut TableGame, entered: Entered, at: u64) -> bool {
    match entered {
        Entered::Waiting => false,
        Entered::Agreed(entry) => {
            game.sheet = Some(Sheet::at_the_board(
                entry.verdict,
                GameFigures {
                    captured: entry.captured,
                    ..entry.figures
                },
                at,
                None,
            ));
            true
        }
    }
}
