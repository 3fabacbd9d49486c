//! The people who run a tournament: the co-directors the director names (by username, or
//! through a one-time invite), a person's rename, a device code given to a player, and
//! the record of every director's action (who did it, under the name they had then).
//!
//! A co-director may do everything the director may but name or remove co-directors: the
//! checks of the other transitions ask [`Tournament::directs`]. The limits here are new
//! with these entries, so no older log can break them on replay.

use omweso_rules::{Outcome, Side};
use uuid::Uuid;

use crate::log::{BoardAction, Entry, SheetAction};
use omweso_protocol::over_the_board::PlayedAt;
use omweso_protocol::tournament::{
    CoDirectorView, DeviceLinked, DirectorsChanged, TournamentEvent,
};
use omweso_protocol::ErrorCode;

use super::*;

/// The most co-directors a tournament has at once.
pub const MAX_CO_DIRECTORS: usize = 8;
/// The most co-director invites open (unused, unexpired) at once.
pub const MAX_OPEN_INVITES: usize = 8;
/// How long a co-director invite may be used: a day, the length of an event.
pub const INVITE_MS: u64 = 24 * 60 * 60 * 1000;

impl Tournament {
    /// The co-directors as the snapshot lists them.
    #[must_use]
    pub fn co_director_views(&self) -> Vec<CoDirectorView> {
        self.co_directors
            .iter()
            .map(|c| CoDirectorView {
                id: c.id,
                name: c.name.clone(),
            })
            .collect()
    }

    fn directors_event(&self) -> TournamentEvent {
        TournamentEvent::Directors(DirectorsChanged {
            director_name: self.director_name.clone(),
            co_directors: self.co_director_views(),
        })
    }

    fn director_itself(&self, by: Uuid, what: &str) -> Result<(), Refusal> {
        if by == self.director {
            Ok(())
        } else {
            refuse(
                ErrorCode::NotDirector,
                format!("only the director who created the tournament may {what}"),
            )
        }
    }

    fn may_become_co_director(&self, player: Uuid, name: &str) -> Result<(), Refusal> {
        if player == self.director {
            return refuse(
                ErrorCode::BadRequest,
                "the director runs the tournament already: they need not be a co-director",
            );
        }
        if self.co_directors.iter().any(|c| c.id == player) {
            return refuse(
                ErrorCode::AlreadyJoined,
                format!("{name} is a co-director already"),
            );
        }
        if self.co_directors.len() >= MAX_CO_DIRECTORS {
            return refuse(
                ErrorCode::RateLimited,
                format!(
                    "a tournament has at most {MAX_CO_DIRECTORS} co-directors: remove one first"
                ),
            );
        }
        Ok(())
    }

    pub(super) fn add_co_director(
        &mut self,
        player: Uuid,
        name: &str,
        by: Uuid,
    ) -> Result<Vec<TournamentEvent>, Refusal> {
        self.director_itself(by, "name co-directors")?;
        self.may_become_co_director(player, name)?;
        self.co_directors.push(CoDirector {
            id: player,
            name: name.to_owned(),
        });
        Ok(vec![self.directors_event()])
    }

    pub(super) fn invite_co_director(
        &mut self,
        code_hash: &str,
        expires_at_ms: u64,
        by: Uuid,
        at: u64,
    ) -> Result<Vec<TournamentEvent>, Refusal> {
        self.director_itself(by, "invite co-directors")?;
        let open = self
            .invites
            .iter()
            .filter(|i| !i.used && i.expires_at_ms > at)
            .count();
        if open >= MAX_OPEN_INVITES {
            return refuse(
                ErrorCode::RateLimited,
                format!("at most {MAX_OPEN_INVITES} co-director invites may be open at once: wait for one to be used or to expire"),
            );
        }
        if self.invites.iter().any(|i| i.code_hash == code_hash) {
            return refuse(ErrorCode::BadBody, "that invite code was made already");
        }
        self.invites.push(Invite {
            code_hash: code_hash.to_owned(),
            expires_at_ms,
            used: false,
        });
        Ok(Vec::new())
    }

    pub(super) fn accept_invite(
        &mut self,
        code_hash: &str,
        player: Uuid,
        name: &str,
        at: u64,
    ) -> Result<Vec<TournamentEvent>, Refusal> {
        let Some(index) = self.invites.iter().position(|i| i.code_hash == code_hash) else {
            return refuse(
                ErrorCode::BadCode,
                "no co-director invite of this tournament has that code: check it, or ask the director for a new one",
            );
        };
        if self.invites[index].used {
            return refuse(
                ErrorCode::BadCode,
                "that co-director invite was used already (each is good once): ask the director for a new one",
            );
        }
        if self.invites[index].expires_at_ms <= at {
            return refuse(
                ErrorCode::BadCode,
                "that co-director invite has expired (each is good for 24 hours): ask the director for a new one",
            );
        }
        self.may_become_co_director(player, name)?;
        self.invites[index].used = true;
        self.co_directors.push(CoDirector {
            id: player,
            name: name.to_owned(),
        });
        Ok(vec![self.directors_event()])
    }

    pub(super) fn remove_co_director(
        &mut self,
        player: Uuid,
        by: Uuid,
    ) -> Result<Vec<TournamentEvent>, Refusal> {
        self.director_itself(by, "remove co-directors")?;
        let Some(index) = self.co_directors.iter().position(|c| c.id == player) else {
            return refuse(
                ErrorCode::NotFound,
                format!("{player} is not a co-director of this tournament"),
            );
        };
        self.co_directors.remove(index);
        Ok(vec![self.directors_event()])
    }

    /// A person's new name, wherever the tournament names them. The players' line and
    /// the standings change with it; the names already written on corrections and in
    /// the actions stay as they were.
    pub(super) fn rename(
        &mut self,
        person: Uuid,
        name: &str,
    ) -> Result<Vec<TournamentEvent>, Refusal> {
        let mut named = false;
        let mut events = Vec::new();
        if person == self.director {
            self.director_name = name.to_owned();
            named = true;
        }
        if let Some(c) = self.co_directors.iter_mut().find(|c| c.id == person) {
            c.name = name.to_owned();
            named = true;
        }
        if named {
            events.push(self.directors_event());
        }
        if let Some(index) = self.player_index(person) {
            self.players[index].name = name.to_owned();
            events.push(TournamentEvent::Player(self.player_view(index)));
            events.push(self.standings_event());
            named = true;
        }
        if !named {
            return refuse(
                ErrorCode::NotInTournament,
                "that person is not in this tournament",
            );
        }
        Ok(events)
    }

    pub(super) fn device_code(
        &mut self,
        player: Uuid,
        by: Uuid,
    ) -> Result<Vec<TournamentEvent>, Refusal> {
        if !self.directs(by) {
            return refuse(
                ErrorCode::NotDirector,
                "only the director or a co-director may give a player a code for a new device",
            );
        }
        if self.player_index(player).is_none() {
            return refuse(
                ErrorCode::NotInTournament,
                "that player is not in this tournament",
            );
        }
        // A code makes its holder the player everywhere: given only while the player
        // needs it to finish this tournament.
        if self.status() == super::TournamentStatus::Finished {
            return refuse(
                ErrorCode::TournamentClosed,
                "the tournament is over: a player who lost their device gets back with their own account, or a link code from another of their devices",
            );
        }
        Ok(Vec::new())
    }

    /// A director's code for `player` was used at `at`: whatever the tournament's status
    /// (a code made before its end may be used after), it is recorded for the console.
    pub(super) fn device_linked(
        &mut self,
        player: Uuid,
        at: u64,
    ) -> Result<Vec<TournamentEvent>, Refusal> {
        let Some(index) = self.player_index(player) else {
            return refuse(
                ErrorCode::NotInTournament,
                "that player is not in this tournament",
            );
        };
        self.players[index].linked_at_ms = Some(at);
        Ok(vec![TournamentEvent::DeviceLinked(DeviceLinked {
            player_id: player,
            at_ms: at,
        })])
    }

    /// The director's action `entry` is (who did it and what, in words), told before it
    /// is applied so that a name it changes or removes is the one it had; `None` for what
    /// is not a director's action (a join, a game's end, a player's own sheet or
    /// withdrawal, a rename, the clock).
    pub(super) fn describe(&self, entry: &Entry) -> Option<Described> {
        let director = self.director;
        let action = match entry {
            Entry::Withdraw { player, by } if by != player => {
                (*by, format!("withdrew {}", self.name_of(*player)))
            }
            Entry::Pair {
                round, manual, by, ..
            } => {
                let what = if *manual {
                    format!("paired round {round} by hand")
                } else {
                    format!("paired round {round}")
                };
                (by.unwrap_or(director), what)
            }
            Entry::Start { round, by, .. } => {
                (by.unwrap_or(director), format!("started round {round}"))
            }
            Entry::EndRound { round, by } => (*by, format!("ended round {round} early")),
            Entry::Sheet {
                game_id,
                by,
                action:
                    SheetAction::Correct {
                        outcome,
                        reason,
                        adjudicated,
                        ..
                    },
            } => (
                *by,
                self.describe_correction(*game_id, *outcome, *adjudicated, reason),
            ),
            Entry::PlayedAt {
                round,
                table,
                played_at,
                by,
            } => {
                let place = match played_at {
                    PlayedAt::Online => "online",
                    PlayedAt::Board => "over the board",
                };
                let which = table.map_or_else(
                    || format!("every table of round {round}"),
                    |t| format!("round {round}, table {t}"),
                );
                (*by, format!("set {which} to be played {place}"))
            }
            Entry::AddPlayer { name, by, .. } => {
                (*by, format!("added {name}, a player without a device"))
            }
            Entry::BoardSheet {
                round,
                table,
                by,
                action:
                    BoardAction::Enter {
                        as_player: false, ..
                    },
            } if self.directs(*by) => (
                *by,
                format!("entered the sheet of round {round}, table {table}"),
            ),
            Entry::BoardSheet {
                round,
                table,
                by,
                action: BoardAction::ConfirmFor { player },
            } => (
                *by,
                format!(
                    "initialled the sheet of round {round}, table {table} for {}",
                    self.name_of(*player)
                ),
            ),
            Entry::RelayInvited {
                round, table, by, ..
            } => (
                *by,
                format!("made a relay invite for round {round}, table {table}"),
            ),
            Entry::Relay {
                round,
                table,
                relay,
                name,
                by: Some(by),
                ..
            } => {
                let what = match relay {
                    Some(_) => format!("named {name} relay of round {round}, table {table}"),
                    None => format!("removed the relay of round {round}, table {table}"),
                };
                (*by, what)
            }
            Entry::ForbiddenPairs { pairs, by } => {
                (*by, format!("set the forbidden pairs ({})", pairs.len()))
            }
            Entry::CoDirectorAdded { name, by, .. } => (*by, format!("named {name} co-director")),
            Entry::CoDirectorInvited { by, .. } => (*by, "made a co-director invite".to_owned()),
            Entry::CoDirectorAccepted { player, name, .. } => {
                return Some(Described {
                    by: *player,
                    by_name: name.clone(),
                    summary: "became co-director with an invite".to_owned(),
                });
            }
            Entry::CoDirectorRemoved { player, by } => (
                *by,
                format!("removed {} as co-director", self.name_of(*player)),
            ),
            Entry::DeviceCode { player, by } => (
                *by,
                format!("gave {} a code for a new device", self.name_of(*player)),
            ),
            _ => return None,
        };
        let (by, summary) = action;
        Some(Described {
            by,
            by_name: self.name_of(by),
            summary,
        })
    }

    fn describe_correction(
        &self,
        game_id: Uuid,
        outcome: Outcome,
        adjudicated: bool,
        reason: &str,
    ) -> String {
        let place = self
            .game_table(game_id)
            .map_or_else(String::new, |(r, t)| format!(" of round {r}, table {t}"));
        let result = match (outcome, self.seated_in(game_id)) {
            (Outcome::Win { winner, .. }, Some([south, north])) => {
                let id = if winner == Side::South { south } else { north };
                format!("{} won", self.name_of(id))
            }
            (Outcome::Win { .. }, None) => "a win".to_owned(),
            (Outcome::Draw, _) if adjudicated => "a draw on adjudication".to_owned(),
            (Outcome::Draw, _) => "a draw".to_owned(),
            (Outcome::Annulled { .. }, _) => "annulled".to_owned(),
        };
        format!("corrected the sheet{place} to: {result} ({reason})")
    }

    /// Keeps the action described before its entry applied, as entry `seq` at `at`.
    pub(super) fn record(&mut self, described: Described, seq: i64, at: u64, kind: &str) {
        self.actions.push(DirectorAction {
            seq,
            at_ms: at,
            kind: kind.to_owned(),
            by: described.by,
            by_name: described.by_name,
            summary: described.summary,
        });
    }
}

/// A director's action told before its entry applies.
pub(super) struct Described {
    by: Uuid,
    by_name: String,
    summary: String,
}
