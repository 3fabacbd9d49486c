//! What the tournament's task does with the commands about its people: co-directors named,
//! invited, accepted and removed, a person's rename, a device code given to a player and
//! used, who may be given one, and the list of the directors' actions. Each change is a log entry like any other, checked
//! by the state (who may do it) and saved before it is answered.

use super::{Actor, Command, NewDevices};
use crate::tournament::log::Entry;
use crate::tournament::state::Refusal;
use omweso_protocol::tournament::{CoDirectorView, TournamentStatus};
use omweso_protocol::ErrorCode;

impl Actor {
    pub(super) async fn handle_people(&mut self, command: Command) {
        match command {
            Command::AddCoDirector {
                by,
                player,
                name,
                reply,
            } => {
                let entry = Entry::CoDirectorAdded { player, name, by };
                let _ = reply.send(self.co_directors_after(entry).await);
            }
            Command::InviteCoDirector {
                by,
                code_hash,
                expires_at_ms,
                reply,
            } => {
                let entry = Entry::CoDirectorInvited {
                    code_hash,
                    expires_at_ms,
                    by,
                };
                let _ = reply.send(self.commit(entry, Vec::new()).await.map(drop));
            }
            Command::AcceptCoDirectorInvite {
                player,
                name,
                code_hash,
                reply,
            } => {
                let entry = Entry::CoDirectorAccepted {
                    code_hash,
                    player,
                    name,
                };
                let _ = reply.send(self.co_directors_after(entry).await);
            }
            Command::RemoveCoDirector { by, player, reply } => {
                let entry = Entry::CoDirectorRemoved { player, by };
                let _ = reply.send(self.co_directors_after(entry).await);
            }
            Command::Rename {
                player,
                name,
                reply,
            } => {
                // A finished tournament keeps the names it ended with (its exports and
                // standings are a record); checked here, not in the state, so that the
                // check never stops a log from replaying.
                if self.t.status() == TournamentStatus::Finished {
                    let _ = reply.send(Err(Refusal::new(
                        ErrorCode::TournamentClosed,
                        "the tournament is over: it keeps the names it ended with",
                    )));
                    return;
                }
                let entry = Entry::Rename { player, name };
                let _ = reply.send(self.commit(entry, Vec::new()).await.map(drop));
            }
            Command::DeviceCode { by, player, reply } => {
                let entry = Entry::DeviceCode { player, by };
                let _ = reply.send(self.commit(entry, Vec::new()).await.map(drop));
            }
            Command::DeviceLinked { player, reply } => {
                let entry = Entry::DeviceLinked { player };
                let answer = self
                    .commit(entry, Vec::new())
                    .await
                    .map(|_| (self.t.place_of(player), self.t.settings().name.clone()));
                let _ = reply.send(answer);
            }
            Command::NewDevices { by, reply } => {
                let answer = if self.t.directs(by) {
                    Ok(NewDevices {
                        players: self
                            .t
                            .players()
                            .iter()
                            .map(|p| (p.id, p.name.clone(), p.linked_at_ms))
                            .collect(),
                        finished: self.t.status() == TournamentStatus::Finished,
                    })
                } else {
                    Err(Refusal::new(
                        ErrorCode::NotDirector,
                        "only the director or a co-director may give players new devices",
                    ))
                };
                let _ = reply.send(answer);
            }
            Command::Directs { person, reply } => {
                let _ = reply.send(self.t.directs(person));
            }
            Command::Actions { by, reply } => {
                let answer = if self.t.directs(by) {
                    Ok(self.t.actions().to_vec())
                } else {
                    Err(Refusal::new(
                        ErrorCode::NotDirector,
                        "only the director or a co-director may read the directors' actions",
                    ))
                };
                let _ = reply.send(answer);
            }
            // The other commands are the task's own (commands.rs).
            _ => {}
        }
    }

    async fn co_directors_after(&mut self, entry: Entry) -> Result<Vec<CoDirectorView>, Refusal> {
        self.commit(entry, Vec::new()).await?;
        // The co-directors with the socket open are present (or no longer).
        self.presence_dirty = true;
        Ok(self.t.co_director_views())
    }
}
