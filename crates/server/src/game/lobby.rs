//! What the lobby lists of every live game, kept up to date by the games themselves: each
//! game's task writes its summary here when it changes, and the lobby (polled by every
//! visitor) reads this map instead of asking hundreds of game tasks for a snapshot.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::config::{SetupKind, TimeControl};
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
pub struct Lobby(Arc<Mutex<HashMap<Uuid, GameSummary>>>);

/// The most games one lobby list shows.
pub const LIST_MAX: usize = 50;

impl Lobby {
    pub fn update(&self, summary: GameSummary) {
        if let Ok(mut games) = self.0.lock() {
            games.insert(summary.game_id, summary);
        }
    }

    /// A game's move count, changed in place.
    pub fn set_moves(&self, id: Uuid, moves: usize) {
        if let Ok(mut games) = self.0.lock() {
            if let Some(game) = games.get_mut(&id) {
                game.moves = moves;
            }
        }
    }

    pub fn remove(&self, id: Uuid) {
        if let Ok(mut games) = self.0.lock() {
            games.remove(&id);
        }
    }

    /// The newest [`LIST_MAX`] games waiting for a player (`open`) or being played.
    #[must_use]
    pub fn list(&self, open: bool) -> Vec<GameSummary> {
        let Ok(games) = self.0.lock() else {
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

    /// Games not yet started: in all, and created by `creator`.
    #[must_use]
    pub fn unstarted(&self, creator: Uuid) -> (usize, usize) {
        let Ok(games) = self.0.lock() else {
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
}
