//! What the tournament's task does with the commands of over-the-board play
//! (docs/rules.md#57-over-the-board-play-and-relays): where a table is played, a player
//! added without a device, a board table's sheet, and its relay (whose naming during a
//! round creates the game that follows the wooden board, in the same transaction).

use tokio::sync::oneshot;
use uuid::Uuid;

use super::{Actor, Command};
use crate::game::registry::SeatedGame;
use crate::tournament::log::{BoardAction, Entry};
use crate::tournament::state::Refusal;
use omweso_protocol::config::GameConfig;
use omweso_protocol::over_the_board::PlayedAt;
use omweso_protocol::tournament::{PlayerView, RoundView};
use omweso_protocol::ErrorCode;

/// The commands of over-the-board play.
pub enum BoardCommand {
    PlayedAt {
        by: Uuid,
        round: u32,
        table: Option<u32>,
        played_at: PlayedAt,
        reply: oneshot::Sender<Result<RoundView, Refusal>>,
    },
    /// A director adds `player` (a new person, written with the entry) by name.
    AddPlayer {
        by: Uuid,
        player: Uuid,
        name: String,
        reply: oneshot::Sender<Result<PlayerView, Refusal>>,
    },
    Sheet {
        by: Uuid,
        round: u32,
        table: u32,
        action: BoardAction,
        reply: oneshot::Sender<Result<RoundView, Refusal>>,
    },
    /// A director makes a relay invite; only its code's hash is kept.
    InviteRelay {
        by: Uuid,
        round: u32,
        table: u32,
        code_hash: String,
        expires_at_ms: u64,
        reply: oneshot::Sender<Result<(), Refusal>>,
    },
    /// The relay named: by a director (`by`), or by an invite's code (`code_hash`);
    /// `relay` `None` removes it.
    NameRelay {
        round: u32,
        table: u32,
        relay: Option<(Uuid, String)>,
        by: Option<Uuid>,
        code_hash: Option<String>,
        reply: oneshot::Sender<Result<RoundView, Refusal>>,
    },
    /// Whether the relay invite whose code hashes to `code_hash` is open at this table
    /// (a code typed at `/link`): the tournament's name if so.
    RelayInviteOpen {
        round: u32,
        table: u32,
        code_hash: String,
        reply: oneshot::Sender<Option<String>>,
    },
    /// The game `by` relays at this table, checked.
    RelayGame {
        by: Uuid,
        round: u32,
        table: u32,
        reply: oneshot::Sender<Result<Uuid, Refusal>>,
    },
}

impl Actor {
    pub(super) async fn handle_board(&mut self, command: BoardCommand) {
        match command {
            BoardCommand::PlayedAt {
                by,
                round,
                table,
                played_at,
                reply,
            } => {
                let entry = Entry::PlayedAt {
                    round,
                    table,
                    played_at,
                    by,
                };
                let _ = reply.send(self.round_after(entry, round).await);
            }
            BoardCommand::AddPlayer {
                by,
                player,
                name,
                reply,
            } => {
                let result = match crate::tournament::admission::may_join(&self.t, player, &name) {
                    Ok(()) => self
                        .commit(Entry::AddPlayer { player, name, by }, Vec::new())
                        .await
                        .and_then(|_| self.player_view(player)),
                    Err(refusal) => Err(refusal),
                };
                let _ = reply.send(result);
            }
            BoardCommand::Sheet {
                by,
                round,
                table,
                mut action,
                reply,
            } => {
                // A director who plays at the table enters its result as its player, for
                // the other to initial: nobody settles their own game's sheet alone
                // (docs/tournaments.md; a rated event's results are ratings).
                if let BoardAction::Enter { as_player, .. } = &mut action {
                    *as_player = self.t.directs(by) && self.t.plays_at(by, round, table);
                }
                // Checked here, not in the state machine: a log written before the check
                // (an Omweso draw entered at a board, an adjudication without the seeds on
                // the board) must still replay.
                if let Err(refusal) = crate::tournament::ruleset_results::may_enter_at_the_board(
                    &self.t,
                    by,
                    (round, table),
                    &action,
                ) {
                    let _ = reply.send(Err(refusal));
                    return;
                }
                let entry = Entry::BoardSheet {
                    round,
                    table,
                    by,
                    action,
                };
                let _ = reply.send(self.round_after(entry, round).await);
            }
            BoardCommand::RelayInviteOpen {
                round,
                table,
                code_hash,
                reply,
            } => {
                let open = self
                    .t
                    .relay_invite_open(round, table, &code_hash, omweso_protocol::clock::now_ms())
                    .then(|| self.t.settings().name.clone());
                let _ = reply.send(open);
            }
            BoardCommand::InviteRelay {
                by,
                round,
                table,
                code_hash,
                expires_at_ms,
                reply,
            } => {
                let entry = Entry::RelayInvited {
                    round,
                    table,
                    code_hash,
                    expires_at_ms,
                    by,
                };
                let _ = reply.send(self.commit(entry, Vec::new()).await.map(drop));
            }
            BoardCommand::NameRelay {
                round,
                table,
                relay,
                by,
                code_hash,
                reply,
            } => {
                let _ = reply.send(self.name_relay(round, table, relay, by, code_hash).await);
            }
            BoardCommand::RelayGame {
                by,
                round,
                table,
                reply,
            } => {
                let _ = reply.send(self.t.relay_game(round, table, by));
            }
        }
    }

    async fn round_after(&mut self, entry: Entry, round: u32) -> Result<RoundView, Refusal> {
        self.commit(entry, Vec::new()).await?;
        self.round_view(round)
    }

    fn player_view(&self, player: Uuid) -> Result<PlayerView, Refusal> {
        self.t
            .snapshot(None)
            .players
            .into_iter()
            .find(|p| p.player_id == player)
            .ok_or_else(|| Refusal::new(ErrorCode::NotFound, "no such player"))
    }

    /// Names (or removes) a table's relay. During its round, the first relay of a table
    /// creates the game that follows its board, seated as paired (the pairing's first
    /// moves first), with no referee count: its moves come from the relay.
    async fn name_relay(
        &mut self,
        round: u32,
        table: u32,
        relay: Option<(Uuid, String)>,
        by: Option<Uuid>,
        code_hash: Option<String>,
    ) -> Result<RoundView, Refusal> {
        let mut games = Vec::new();
        let created = relay
            .as_ref()
            .and_then(|_| self.t.relay_game_to_create(round, table));
        let created_id = created.as_ref().map(|(id, ..)| *id);
        if let Some((id, first, second)) = created {
            games.push(SeatedGame {
                id,
                config: self.relayed_config(round, [first.player, second.player]),
                first,
                second,
            });
        }
        let (relay, name) = relay.unzip();
        let entry = Entry::Relay {
            round,
            table,
            relay,
            name: name.unwrap_or_default(),
            code_hash,
            by,
            game: created_id,
        };
        self.commit(entry, games).await?;
        if let Some(id) = created_id {
            self.watch(id).await;
        }
        self.round_view(round)
    }

    /// The configuration of a relayed board's game: the tournament's game, stopped at
    /// its round's deadline, its moves entered by the relay.
    pub(super) fn relayed_config(&self, round: u32, players: [Uuid; 2]) -> GameConfig {
        let deadline = self
            .t
            .rounds()
            .iter()
            .find(|r| r.number == round)
            .and_then(|r| r.deadline_ms);
        GameConfig {
            stop_at_ms: deadline,
            relayed: true,
            tournament: Some(self.t.id()),
            rated: self.t.rates(players[0], players[1]),
            ..self.t.settings().game.clone()
        }
    }
}

impl From<BoardCommand> for Command {
    fn from(command: BoardCommand) -> Command {
        Command::Board(command)
    }
}
