//! The transitions: every log [`Entry`] applied to the tournament at the time it happened
//! (a join, a withdrawal, a pairing, a round's start, a game's end, a sheet's change, the
//! forbidden pairs, a round's end) and the clock's tick, each answering the events it
//! caused or a [`Refusal`] that changed nothing.

use uuid::Uuid;

use crate::board::{BoardEntry, BoardPlay};
use crate::log::{Entry, LoggedPairing, SheetAction};
use crate::settings::MAX_FORBIDDEN_PAIRS;
use crate::sheet::{Correction, Dispute, Sheet, Verdict, MAX_REASON_CHARS};
use omweso_protocol::over_the_board::PlayedAt;
use omweso_protocol::tournament::{
    RoundStatus, SheetStatus, StatusChanged, System, TournamentEvent, TournamentStatus,
};
use omweso_protocol::ErrorCode;

use super::*;

impl Tournament {
    /// Applies one logged change at `at`: checks it, changes the state, and returns the
    /// events it makes, versioned. Refused with nothing changed when it does not apply.
    pub fn apply(
        &mut self,
        entry: &Entry,
        at: u64,
    ) -> Result<Vec<(u64, TournamentEvent)>, Refusal> {
        let status_before = self.status();
        let described = self.describe(entry);
        let mut events = match entry {
            Entry::Create { .. } => return refuse(ErrorCode::BadBody, "a second creation"),
            Entry::Join { player, name } => self.join(*player, name)?,
            Entry::Withdraw { player, by } => self.withdraw(*player, *by)?,
            Entry::Pair {
                round,
                pairings,
                manual,
                breaches,
                by,
            } => {
                self.directing(*by, "pair a round")?;
                self.pair(*round, pairings, *manual, breaches)?
            }
            Entry::Start {
                round,
                games,
                deadline_ms,
                by,
            } => {
                self.directing(*by, "start a round")?;
                self.start(*round, games, at, *deadline_ms)?
            }
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
            Entry::CoDirectorAdded { player, name, by } => {
                self.add_co_director(*player, name, *by)?
            }
            Entry::CoDirectorInvited {
                code_hash,
                expires_at_ms,
                by,
            } => self.invite_co_director(code_hash, *expires_at_ms, *by, at)?,
            Entry::CoDirectorAccepted {
                code_hash,
                player,
                name,
            } => self.accept_invite(code_hash, *player, name, at)?,
            Entry::CoDirectorRemoved { player, by } => self.remove_co_director(*player, *by)?,
            Entry::Rename { player, name } => self.rename(*player, name)?,
            Entry::DeviceCode { player, by } => self.device_code(*player, *by)?,
            Entry::DeviceLinked { player } => self.device_linked(*player, at)?,
            Entry::PlayedAt {
                round,
                table,
                played_at,
                by,
            } => self.set_played_at(*round, *table, *played_at, *by)?,
            Entry::AddPlayer { player, name, by } => self.add_player(*player, name, *by)?,
            Entry::BoardSheet {
                round,
                table,
                by,
                action,
            } => self.board_sheet(*round, *table, *by, action, at)?,
            Entry::RelayInvited {
                round,
                table,
                code_hash,
                expires_at_ms,
                by,
            } => self.invite_relay(*round, *table, code_hash, *expires_at_ms, *by, at)?,
            Entry::Relay {
                round,
                table,
                relay,
                name,
                code_hash,
                by,
                game,
            } => {
                let named = relay.map(|id| Relay {
                    id,
                    name: name.clone(),
                });
                self.name_relay(*round, *table, named, code_hash.as_deref(), *by, *game, at)?
            }
            Entry::Seed { ratings } => self.seed(ratings)?,
            Entry::Tick => self.tick(at),
            Entry::Standings => vec![self.standings_event()],
        };
        let status = self.status();
        if status != status_before {
            events.push(TournamentEvent::Status(StatusChanged { status }));
        }
        let seq = self.entries;
        self.entries += 1;
        if let Some(described) = described {
            self.record(described, seq, at, entry.kind());
        }
        Ok(events
            .into_iter()
            .map(|e| {
                self.version += 1;
                (self.version, e)
            })
            .collect())
    }

    pub(super) fn join(
        &mut self,
        player: Uuid,
        name: &str,
    ) -> Result<Vec<TournamentEvent>, Refusal> {
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
            added_by_director: false,
            seed: None,
            seed_rating: None,
            linked_at_ms: None,
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

    pub(super) fn withdraw(
        &mut self,
        player: Uuid,
        by: Uuid,
    ) -> Result<Vec<TournamentEvent>, Refusal> {
        if by != player && !self.directs(by) {
            return refuse(
                ErrorCode::NotDirector,
                "only the director or a co-director may withdraw another player",
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

    pub(super) fn pair(
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
                self.player_index(id).ok_or_else(|| {
                    Refusal::new(
                        ErrorCode::BadPairing,
                        format!("{id} is not a player of this tournament"),
                    )
                })
            };
            let first = index(first)?;
            let second = second.map(index).transpose()?;
            if let Some(unseeded) = std::iter::once(first)
                .chain(second)
                .find(|&p| self.settings.rated && self.players[p].seed.is_none())
            {
                return refuse(
                    ErrorCode::BadPairing,
                    format!(
                        "{} is not seeded yet: a rated tournament seeds its players before pairing them",
                        self.players[unseeded].name
                    ),
                );
            }
            // A pairing edited before its start keeps what the director chose for each
            // table (where it is played, its relay: a volunteer at a numbered board); a
            // new round is played where the tournament is, except that a table with a
            // player the director added without a device is at the board (online,
            // nobody could play their seat).
            let before = self
                .rounds
                .last()
                .filter(|_| replaces)
                .and_then(|r| r.tables.get(i));
            let deviceless = std::iter::once(first)
                .chain(second)
                .any(|p| self.players[p].added_by_director);
            let played_at = match before {
                Some(t) => t.played_at,
                None if deviceless => PlayedAt::Board,
                None => self.settings.played_at,
            };
            tables.push(Table {
                number: i as u32 + 1,
                first,
                second,
                game: None,
                replaced: Vec::new(),
                forfeit_winner: None,
                no_game: false,
                played_at,
                relay: before.and_then(|t| t.relay.clone()),
                relay_invite: before.and_then(|t| t.relay_invite.clone()),
            });
        }
        if self.field.is_none() && self.settings.system != System::Swiss {
            self.field = Some(self.active_in_order());
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

    pub(super) fn start(
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
            .ok_or_else(|| {
                Refusal::new(ErrorCode::NotFound, format!("round {number} is not paired"))
            })?;
        let withdrawn: Vec<bool> = self.players.iter().map(|p| p.withdrawn).collect();
        let round = &mut self.rounds[r];
        round.started_at_ms = Some(at);
        round.deadline_ms = Some(deadline_ms);
        for (t, (table, game)) in round.tables.iter_mut().zip(games).enumerate() {
            match (game, table.second) {
                (Some(game_id), _) => {
                    let board = (table.played_at == PlayedAt::Board).then(|| BoardPlay {
                        // A relay named before the start: its game starts with the round.
                        relayed: table.relay.is_some(),
                        ..BoardPlay::default()
                    });
                    table.game = Some(TableGame {
                        game_id: *game_id,
                        moved_first: 0,
                        sheet: None,
                        board,
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

    pub(super) fn game_end(
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
        let relay = table.relay.clone();
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
        if let Some(board) = game.board.as_mut() {
            // A relayed board's game: its end proposes the sheet, which the players
            // initial (docs/rules.md#57-over-the-board-play-and-relays).
            if board.game_ended || replay.is_some() {
                return refuse(ErrorCode::GameOver, "that game's end is recorded already");
            }
            board.game_proposes(BoardEntry {
                by: relay.as_ref().map_or(Uuid::nil(), |r| r.id),
                by_name: relay.map_or_else(|| "the relay".to_owned(), |r| r.name),
                from_relay: true,
                verdict,
                captured: figures.captured,
                at_ms: at,
                confirmed: [false; 2],
                initialled_for: [None, None],
                figures,
            });
            return Ok(vec![TournamentEvent::Round(self.round_view(r))]);
        }
        game.sheet = Some(Sheet {
            unplayed: moves.contains(&0),
            ..Sheet::new(verdict, figures, at)
        });
        let ended = game.clone();
        let mut events = vec![self.sheet_event(r, t, &ended)];
        if let Some(new_id) = replay {
            let table = &mut self.rounds[r].tables[t];
            table.replaced.push(ended.clone());
            table.game = Some(TableGame {
                game_id: new_id,
                moved_first: 1 - ended.moved_first,
                sheet: None,
                board: None,
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

    pub(super) fn sheet(
        &mut self,
        game_id: Uuid,
        by: Uuid,
        action: &SheetAction,
        at: u64,
    ) -> Result<Vec<TournamentEvent>, Refusal> {
        let Some(&(r, t)) = self.games.get(&game_id) else {
            return refuse(ErrorCode::NotFound, "that game is not of this tournament");
        };
        let directs = self.directs(by);
        let by_name = self.name_of(by);
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
            SheetAction::Correct {
                outcome,
                reason,
                seeds,
                adjudicated,
            } => {
                if !directs {
                    return refuse(
                        ErrorCode::NotDirector,
                        "only the director or a co-director may correct a sheet",
                    );
                }
                let reason = checked_reason(reason)?;
                // The same result again upholds the sheet (a dispute rejected): kept as
                // a correction too, with its reason, and as the sheet had it (a forfeit
                // stays a forfeit, an adjudicated draw stays adjudicated).
                let before = sheet.verdict();
                let asked = match Verdict::corrected(*outcome, moved_first) {
                    Verdict::Draw { .. } if *adjudicated => Verdict::Draw { adjudicated: true },
                    asked => asked,
                };
                // An adjudicated draw asked for is one, whatever draw stood before.
                let adjudicated_draw = asked == Verdict::Draw { adjudicated: true };
                let after = if asked.same_result(before) && !adjudicated_draw {
                    before
                } else {
                    asked
                };
                // The seeds are the players' own count only at the board: a game's are
                // the server's.
                let seeds = match seeds {
                    Some(_) if !sheet.over_the_board => return refuse(
                        ErrorCode::BadRequest,
                        "the seeds of a game played online are the game's: correct the result only",
                    ),
                    Some(after) => {
                        let limit = crate::board::seeds_in_play(self.settings.game.ruleset);
                        if after[0].saturating_add(after[1]) > limit {
                            return refuse(
                                ErrorCode::BadRequest,
                                format!("the seeds captured add up to more than the {limit} of the game"),
                            );
                        }
                        let before_seeds = sheet.figures.captured;
                        sheet.figures.captured = *after;
                        Some((before_seeds, *after))
                    }
                    None => None,
                };
                sheet.corrections.push(Correction {
                    at_ms: at,
                    by,
                    by_name,
                    reason,
                    before,
                    after,
                    seeds,
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
    pub(super) fn set_forbidden_pairs(
        &mut self,
        pairs: &[[Uuid; 2]],
        by: Uuid,
    ) -> Result<Vec<TournamentEvent>, Refusal> {
        if !self.directs(by) {
            return refuse(
                ErrorCode::NotDirector,
                "only the director or a co-director may set the forbidden pairs",
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

    pub(super) fn end_round(
        &mut self,
        number: u32,
        by: Uuid,
    ) -> Result<Vec<TournamentEvent>, Refusal> {
        if !self.directs(by) {
            return refuse(
                ErrorCode::NotDirector,
                "only the director or a co-director may end a round",
            );
        }
        let r = self
            .rounds
            .iter()
            .position(|r| r.number == number)
            .ok_or_else(|| {
                Refusal::new(ErrorCode::NotFound, format!("round {number} is not paired"))
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

    /// A pairing or a start logged with who did it must be by a director; one logged
    /// without (before co-directors) was the director's.
    pub(super) fn directing(&self, by: Option<Uuid>, what: &str) -> Result<(), Refusal> {
        match by {
            Some(by) if !self.directs(by) => refuse(
                ErrorCode::NotDirector,
                format!("only the director or a co-director may {what}"),
            ),
            _ => Ok(()),
        }
    }

    pub(super) fn tick(&mut self, at: u64) -> Vec<TournamentEvent> {
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
}

pub(super) fn checked_reason(reason: &str) -> Result<String, Refusal> {
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
