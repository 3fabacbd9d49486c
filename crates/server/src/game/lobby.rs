//! What the lobby lists of every live game, kept up to date by the games themselves: each
//! game's task writes its summary here when it changes, and the lobby (polled by every
//! visitor) reads this map instead of asking hundreds of game tasks for a snapshot.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use serde::Serialize;
use uuid::Uuid;

use super::config::{SetupKind, TimeControl};

/// One game as the lobby shows it (`GET /api/games?list=`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameSummary {
    pub game_id: Uuid,
    pub ruleset: omweso_rules::Ruleset,
    pub setup: SetupKind,
    pub status: &'static str,
    pub seats: SeatNames,
    pub time_control: TimeControl,
    pub spectators: usize,
    pub moves: usize,
    #[serde(skip)]
    pub created_at_ms: u64,
    /// Who created the game (for the open-games limit; not shown).
    #[serde(skip)]
    pub creator: Uuid,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SeatNames {
    pub s: Option<String>,
    pub n: Option<String>,
}

impl GameSummary {
    /// Waiting for a second player.
    #[must_use]
    pub fn is_open(&self) -> bool {
        self.status == "setup" && (self.seats.s.is_none() || self.seats.n.is_none())
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
                    g.status == "playing"
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
        let unstarted = games.values().filter(|g| g.status == "setup");
        unstarted.fold((0, 0), |(all, mine), g| {
            (all + 1, mine + usize::from(g.creator == creator))
        })
    }
}
