//! What the tournament's task does with each command: joins and withdrawals, the
//! director's pairings, rounds and sheets, connections.

use super::persist::unavailable;
use uuid::Uuid;

use super::{Actor, Command, PairingAsk};
use crate::game::registry::SeatedGame;
use crate::room::SocketCommand;
use crate::tournament::log::{Entry, SheetAction};
use crate::tournament::state::{PlannedGame, Refusal};
use omweso_protocol::clock::now_ms;
use omweso_protocol::config::GameConfig;
use omweso_protocol::tournament::{RoundView, SheetView};
use omweso_protocol::ErrorCode;

impl Actor {
    pub(super) async fn handle(&mut self, command: Command) {
        match command {
            Command::Snapshot { viewer, reply } => {
                let _ = reply.send(self.t.snapshot(viewer));
            }
            Command::State { reply } => {
                let _ = reply.send(Box::new(self.t.clone()));
            }
            Command::Join {
                player,
                name,
                reply,
            } => {
                if let Err(refusal) = crate::tournament::admission::may_join(&self.t, player, &name)
                {
                    let _ = reply.send(Err(refusal));
                    return;
                }
                let result = self
                    .commit(Entry::Join { player, name }, Vec::new())
                    .await
                    .map(|_| ());
                let _ = reply.send(result);
            }
            Command::Withdraw { player, by, reply } => {
                let result = self
                    .commit(Entry::Withdraw { player, by }, Vec::new())
                    .await
                    .map(|_| ());
                let _ = reply.send(result);
            }
            Command::PairNext { by, reply } => {
                let result = match self.director_only(by, "pair a round") {
                    Ok(()) => match self.seed_and_pair(PairingAsk::Next).await {
                        Ok(entry) => self.commit_round(entry, by).await,
                        Err(refusal) => Err(refusal),
                    },
                    Err(refusal) => Err(refusal),
                };
                let _ = reply.send(result);
            }
            Command::EditRound {
                by,
                round,
                pairings,
                confirm_breach,
                reply,
            } => {
                let result = match self.director_only(by, "edit a pairing") {
                    Ok(()) => {
                        let ask = PairingAsk::Edit {
                            round,
                            pairings,
                            confirm_breach,
                        };
                        match self.seed_and_pair(ask).await {
                            Ok(entry) => self.commit_round(entry, by).await,
                            Err(refusal) => Err(refusal),
                        }
                    }
                    Err(refusal) => Err(refusal),
                };
                let _ = reply.send(result);
            }
            Command::StartRound { by, round, reply } => {
                let result = match self.director_only(by, "start a round") {
                    Ok(()) => self.start_round(round, by).await,
                    Err(refusal) => Err(refusal),
                };
                let _ = reply.send(result);
            }
            Command::EndRound { by, round, reply } => {
                let result = self
                    .commit(Entry::EndRound { round, by }, Vec::new())
                    .await
                    .and_then(|_| self.round_view(round));
                let _ = reply.send(result);
            }
            Command::ForbiddenPairs { by, pairs, reply } => {
                let result = self
                    .commit(Entry::ForbiddenPairs { pairs, by }, Vec::new())
                    .await
                    .map(|_| self.t.settings().forbidden_pairs.clone());
                let _ = reply.send(result);
            }
            Command::Sheet {
                by,
                game_id,
                action,
                reply,
            } => {
                // Checked here, not in the state machine: a log written before the check
                // must still replay.
                let action = match crate::tournament::admission::clean_reason(action) {
                    Ok(action) => action,
                    Err(refusal) => {
                        let _ = reply.send(Err(refusal));
                        return;
                    }
                };
                if let SheetAction::Correct {
                    outcome,
                    reason,
                    adjudicated,
                    ..
                } = &action
                {
                    let allowed = crate::tournament::admission::may_correct(&self.t, game_id)
                        .and_then(|()| not_their_own(&self.t, by, game_id))
                        .and_then(|()| {
                            crate::tournament::ruleset_results::may_correct_to(
                                &self.t,
                                by,
                                game_id,
                                (outcome, reason, *adjudicated),
                            )
                        });
                    if let Err(refusal) = allowed {
                        let _ = reply.send(Err(refusal));
                        return;
                    }
                    if let Some(why) = self.t.settings().impossible_victory(outcome) {
                        let _ = reply.send(Err(Refusal::new(ErrorCode::BadRequest, why)));
                        return;
                    }
                }
                let result = self
                    .commit(
                        Entry::Sheet {
                            game_id,
                            by,
                            action,
                        },
                        Vec::new(),
                    )
                    .await
                    .and_then(|_| self.sheet_view(game_id));
                let _ = reply.send(result);
            }
            Command::AddCoDirector { .. }
            | Command::InviteCoDirector { .. }
            | Command::AcceptCoDirectorInvite { .. }
            | Command::RemoveCoDirector { .. }
            | Command::Rename { .. }
            | Command::DeviceCode { .. }
            | Command::DeviceLinked { .. }
            | Command::NewDevices { .. }
            | Command::Directs { .. }
            | Command::Actions { .. } => self.handle_people(command).await,
            Command::Board(command) => self.handle_board(command).await,
            Command::Socket(SocketCommand::Connect {
                player,
                resume_after,
                tx,
                reply,
            }) => {
                let conn = self.connect(player, resume_after, tx);
                let _ = reply.send(conn);
            }
            Command::Socket(SocketCommand::Disconnect { conn }) => self.remove_conn(conn),
            Command::Socket(SocketCommand::NodesLive { live }) => {
                for (_, player) in self.room.connections.remove_remote_not_in(&live) {
                    self.left(player);
                }
            }
        }
    }

    pub(super) fn director_only(&self, by: Uuid, what: &str) -> Result<(), Refusal> {
        if self.t.directs(by) {
            Ok(())
        } else {
            Err(Refusal::new(
                ErrorCode::NotDirector,
                format!("only the director or a co-director may {what}"),
            ))
        }
    }

    pub(super) fn round_view(&self, number: u32) -> Result<RoundView, Refusal> {
        let index = self
            .t
            .rounds()
            .iter()
            .position(|r| r.number == number)
            .ok_or_else(|| {
                Refusal::new(ErrorCode::NotFound, format!("round {number} is not paired"))
            })?;
        Ok(self.t.round_view(index))
    }

    pub(super) fn sheet_view(&self, game_id: Uuid) -> Result<SheetView, Refusal> {
        let snapshot = self.t.snapshot(None);
        snapshot
            .rounds
            .into_iter()
            .flat_map(|r| r.pairings)
            .find(|p| p.game_id == Some(game_id))
            .and_then(|p| p.sheet)
            .ok_or_else(|| Refusal::new(ErrorCode::NotFound, "no sheet for that game"))
    }

    /// The pairing asked for, computed on the pairing thread from a copy of the state
    /// (this task waits; the async workers, and so the games, do not). A refusal is kept
    /// with the version it was given at: the same question asked again of an unchanged
    /// tournament gets it at once, without the matching run again.
    pub(super) async fn paired(&mut self, ask: PairingAsk) -> Result<Entry, Refusal> {
        let version = self.t.version();
        if let Some((at, asked, refusal)) = &self.last_pairing_refusal {
            if *at == version && *asked == ask {
                return Err(refusal.clone());
            }
        }
        let t = self.t.clone();
        let question = ask.clone();
        let answer = self
            .services
            .pairing
            .run(move || match &question {
                PairingAsk::Next => t.pair_next(),
                PairingAsk::Edit {
                    round,
                    pairings,
                    confirm_breach,
                } => t.manual_pairing(*round, pairings, *confirm_breach),
            })
            .await
            .map_err(|busy| Refusal::new(ErrorCode::Unavailable, busy.to_string()))?;
        if let Err(refusal) = &answer {
            self.last_pairing_refusal = Some((version, ask, refusal.clone()));
        }
        answer
    }

    /// The pairing asked for, a rated tournament's unseeded players seeded first (the
    /// seeding stays logged even if no pairing keeps the rules).
    async fn seed_and_pair(&mut self, ask: PairingAsk) -> Result<Entry, Refusal> {
        self.seed_due().await?;
        self.paired(ask).await
    }

    /// Commits a pairing made for director `by`, logged as theirs.
    pub(super) async fn commit_round(
        &mut self,
        mut entry: Entry,
        by: Uuid,
    ) -> Result<RoundView, Refusal> {
        let Entry::Pair {
            round, by: made_by, ..
        } = &mut entry
        else {
            return Err(unavailable());
        };
        *made_by = Some(by);
        let round = *round;
        self.commit(entry, Vec::new()).await?;
        self.round_view(round)
    }

    /// Starts round `round`: its games are created, seated, in the same transaction as
    /// the entry, then watched.
    pub(super) async fn start_round(&mut self, round: u32, by: Uuid) -> Result<RoundView, Refusal> {
        let plan = self.t.start_plan(round)?;
        // Counted against the server's games like any other: refused whole, saying so,
        // rather than some tables started and others not.
        let new_games = plan.iter().flatten().filter(|p| p.creates_game()).count();
        let places = match self
            .services
            .games
            .reserve_live(new_games, self.services.live_games)
        {
            Ok(places) => places,
            Err(live) => {
                crate::metrics::Limit::LiveGames.refused();
                return Err(Refusal::new(ErrorCode::RateLimited, format!(
                        "the server is running {live} games and allows {}: this round's {new_games} games would pass it; start the round when games have finished",
                        self.services.live_games
                    )));
            }
        };
        let now = now_ms();
        let deadline_ms = now + self.t.settings().round_ms();
        // Each game stops itself at the round's deadline (its own referee, logged in its
        // own log), to the millisecond; the tournament checks it did.
        let config = GameConfig {
            stop_at_ms: Some(deadline_ms),
            tournament: Some(self.t.id()),
            ..self.t.settings().game.clone()
        };
        let mut games = Vec::with_capacity(plan.len());
        let mut seated = Vec::new();
        for planned in plan {
            match planned {
                Some(planned) => {
                    // A board table has an id too (its sheet's), but a game only when a
                    // relay follows the board.
                    let id = Uuid::now_v7();
                    games.push(Some(id));
                    if planned.creates_game() {
                        let config = GameConfig {
                            relayed: planned.relayed,
                            rated: self.t.rates(planned.first.player, planned.second.player),
                            ..config.clone()
                        };
                        let PlannedGame { first, second, .. } = planned;
                        seated.push(SeatedGame {
                            id,
                            config,
                            first,
                            second,
                        });
                    }
                }
                None => games.push(None),
            }
        }
        let entry = Entry::Start {
            round,
            games,
            deadline_ms,
            by: Some(by),
        };
        let ids: Vec<Uuid> = seated.iter().map(|g| g.id).collect();
        self.commit_at(entry, now, seated).await?;
        for id in ids {
            self.watch(id).await;
        }
        // Loaded: the games count for themselves now.
        drop(places);
        self.round_view(round)
    }
}

/// A director corrects the sheets of others' games, not of their own: checked before the
/// correction is logged (a log written before this check must still replay).
fn not_their_own(
    t: &crate::tournament::state::Tournament,
    by: uuid::Uuid,
    game_id: uuid::Uuid,
) -> Result<(), Refusal> {
    if t.directs(by) && t.plays_in(by, game_id) {
        return Err(Refusal::new(
            ErrorCode::NotYourGame,
            "you played this game: another director corrects its sheet (name a co-director if there is none)",
        ));
    }
    Ok(())
}
