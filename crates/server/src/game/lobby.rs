//! What the lobby lists of every live game, kept up to date by the games themselves: each
//! game's task writes its summary here when it changes, and the lobby (the HTTP lists and
//! the pushed lobby, `lobby_feed`) reads this map instead of asking hundreds of game tasks
//! for a snapshot. Every change is marked on [`LobbyChanges`] for the pushed lobby.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::config::{SetupKind, TimeControl};
use crate::lobby_feed::LobbyChanges;
use crate::protocol::Status;

/// One game as the lobby shows it (`GET /api/games?list=`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameSummary {
    pub game_id: Uuid,
    pub ruleset: omweso_rules::Ruleset,
    pub setup: SetupKind,
    pub status: crate::protocol::Status,
    pub seats: SeatNames,
    pub time_control: TimeControl,
    pub spectators: usize,
    pub moves: usize,
    #[serde(skip)]
    pub created_at_ms: u64,
    /// Who created the game (for the open-games limit; not shown).
    #[serde(skip, default = "Uuid::nil")]
    pub creator: Uuid,
    /// The seat the computer plays, in a game against it (addition; absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub computer: Option<ComputerSeat>,
}

/// The computer's seat in the lobby's entry: `{"seat":"n","level":3}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ComputerSeat {
    pub seat: omweso_rules::Side,
    #[serde(with = "crate::protocol::game::level_number")]
    pub level: omweso_search::Level,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatNames {
    pub s: Option<String>,
    pub n: Option<String>,
}

impl GameSummary {
    /// Waiting for a second player.
    #[must_use]
    pub fn is_open(&self) -> bool {
        self.status == Status::Setup && (self.seats.s.is_none() || self.seats.n.is_none())
    }
}

/// The summaries of the games in memory. Cheap to clone; the lock is held only to copy a
/// summary in or out, never across an `.await`.
#[derive(Clone, Debug, Default)]
pub struct Lobby {
    games: Arc<Mutex<HashMap<Uuid, GameSummary>>>,
    changes: Arc<LobbyChanges>,
}

/// The most games one lobby list shows.
pub const LIST_MAX: usize = 50;

impl Lobby {
    /// Where the changes are marked (shared with the tournaments, read by the feed).
    #[must_use]
    pub fn changes(&self) -> &Arc<LobbyChanges> {
        &self.changes
    }

    pub fn update(&self, summary: GameSummary) {
        let changed = match self.games.lock() {
            Ok(mut games) => match games.get_mut(&summary.game_id) {
                // The crowd's batch writes the summary again whether or not it changed.
                Some(known) if *known == summary => false,
                Some(known) => {
                    *known = summary;
                    true
                }
                None => {
                    games.insert(summary.game_id, summary);
                    true
                }
            },
            Err(_) => false,
        };
        if changed {
            self.changes.games_changed();
        }
    }

    /// A game's move count, changed in place (on every move: no allocation). Not marked
    /// as a change: pushing every lobby again on every move would cost each visitor a
    /// whole frame four times a second; the feed reads the counts again every
    /// [`crate::lobby_feed::MOVE_COUNTS_EVERY`] instead.
    pub fn set_moves(&self, id: Uuid, moves: usize) {
        if let Ok(mut games) = self.games.lock() {
            if let Some(game) = games.get_mut(&id) {
                game.moves = moves;
            }
        }
    }

    pub fn remove(&self, id: Uuid) {
        let removed = match self.games.lock() {
            Ok(mut games) => games.remove(&id).is_some(),
            Err(_) => false,
        };
        if removed {
            self.changes.games_changed();
        }
    }

    /// The newest [`LIST_MAX`] games waiting for a player (`open`) or being played.
    #[must_use]
    pub fn list(&self, open: bool) -> Vec<GameSummary> {
        let Ok(games) = self.games.lock() else {
            return Vec::new();
        };
        let mut listed: Vec<GameSummary> = games
            .values()
            .filter(|g| {
                if open {
                    g.is_open()
                } else {
                    g.status == Status::Playing
                }
            })
            .cloned()
            .collect();
        drop(games);
        listed.sort_by_key(|g| std::cmp::Reverse((g.created_at_ms, g.game_id)));
        listed.truncate(LIST_MAX);
        listed
    }

    /// Unfinished games against the computer: in all, and created by `creator`.
    #[must_use]
    pub fn bot_games(&self, creator: Uuid) -> (usize, usize) {
        let Ok(games) = self.games.lock() else {
            return (0, 0);
        };
        let unfinished = games
            .values()
            .filter(|g| g.computer.is_some() && !g.status.is_over());
        unfinished.fold((0, 0), |(all, mine), g| {
            (all + 1, mine + usize::from(g.creator == creator))
        })
    }

    /// Games not yet started: in all, and created by `creator`.
    #[must_use]
    pub fn unstarted(&self, creator: Uuid) -> (usize, usize) {
        let Ok(games) = self.games.lock() else {
            return (0, 0);
        };
        let unstarted = games.values().filter(|g| g.status == Status::Setup);
        unstarted.fold((0, 0), |(all, mine), g| {
            (all + 1, mine + usize::from(g.creator == creator))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(created_at_ms: u64, status: Status, north: Option<&str>) -> GameSummary {
        GameSummary {
            game_id: Uuid::new_v4(),
            ruleset: omweso_rules::Ruleset::Omweso,
            setup: SetupKind::Outer,
            status,
            seats: SeatNames {
                s: Some("Kato".into()),
                n: north.map(str::to_owned),
            },
            time_control: TimeControl::CASUAL,
            spectators: 0,
            moves: 0,
            created_at_ms,
            creator: Uuid::nil(),
            computer: None,
        }
    }

    #[test]
    fn lists_open_and_live_games_newest_first_and_counts_unstarted_ones() {
        let lobby = Lobby::default();
        let open_old = summary(1, Status::Setup, None);
        let open_new = summary(2, Status::Setup, None);
        let arranging = summary(3, Status::Setup, Some("Nakato"));
        let live = summary(4, Status::Playing, Some("Nakato"));
        let over = summary(5, Status::Finished, Some("Nakato"));
        for game in [&open_old, &open_new, &arranging, &live, &over] {
            lobby.update(game.clone());
        }
        let ids = |games: Vec<GameSummary>| games.iter().map(|g| g.game_id).collect::<Vec<_>>();
        assert_eq!(ids(lobby.list(true)), [open_new.game_id, open_old.game_id]);
        assert_eq!(ids(lobby.list(false)), [live.game_id]);
        // Three not started (two open, one arranging its free setup), all by the nil creator.
        assert_eq!(lobby.unstarted(Uuid::nil()), (3, 3));
        assert_eq!(lobby.unstarted(Uuid::new_v4()), (3, 0));
        lobby.set_moves(live.game_id, 17);
        assert_eq!(lobby.list(false)[0].moves, 17);
        lobby.remove(live.game_id);
        assert!(lobby.list(false).is_empty());
    }

    #[test]
    fn changes_are_marked_for_the_pushed_lobby_and_repeats_are_not() {
        use crate::lobby_feed::Changed;
        let lobby = Lobby::default();
        let games_only = Changed {
            games: true,
            tournaments: false,
        };
        let game = summary(1, Status::Playing, Some("Nakato"));
        lobby.update(game.clone());
        assert_eq!(lobby.changes().take(), games_only);
        // The same summary again (the crowd's batch), the same move count: no change.
        lobby.update(game.clone());
        lobby.set_moves(game.game_id, 0);
        assert_eq!(lobby.changes().take(), Changed::default());
        // A move is not a change: the feed reads the counts on its own clock.
        lobby.set_moves(game.game_id, 1);
        assert_eq!(lobby.changes().take(), Changed::default());
        assert_eq!(lobby.list(false)[0].moves, 1);
        lobby.remove(game.game_id);
        assert_eq!(lobby.changes().take(), games_only);
        lobby.remove(game.game_id);
        lobby.set_moves(game.game_id, 2);
        assert_eq!(lobby.changes().take(), Changed::default());
    }
}
