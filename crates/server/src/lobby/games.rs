//! What the lobby lists of every live game, kept up to date by the games themselves: each
//! game's task writes its summary here when it changes, and the lobby (the HTTP lists and
//! the pushed lobby, `lobby::feed`) reads this map instead of asking hundreds of game tasks
//! for a snapshot. Every change is marked on [`LobbyChanges`] for the pushed lobby.

use std::sync::{Arc, Mutex};

use uuid::Uuid;

use super::listed::Listed;
use super::others::OtherNodes;
use crate::address::AddressKey;
use crate::lobby::changes::LobbyChanges;
use omweso_protocol::lobby::GameSummary;
use omweso_protocol::Status;

/// The summaries of the games in memory. Cheap to clone; the lock is held only to copy a
/// summary in or out, never across an `.await`.
#[derive(Clone, Debug, Default)]
pub struct Lobby {
    inner: Arc<Mutex<Listed>>,
    changes: Arc<LobbyChanges>,
    /// The games other nodes list (several nodes, docs/scaling.md).
    others: Arc<OtherNodes>,
}

/// The most games one lobby list shows.
pub const LIST_MAX: usize = 50;

/// Whether `game` is on the `open` list (waiting for a player) or the live one (played).
fn listed_as(game: &GameSummary, open: bool) -> bool {
    if open {
        game.is_open()
    } else {
        game.status == Status::Playing
    }
}

impl Lobby {
    /// The lock. Every change under it is one insert, removal or count, so a panic
    /// elsewhere while it was held cannot have left it half changed: a poisoned lock is
    /// taken as it is rather than emptying the lobby from then on.
    pub(super) fn lock(&self) -> std::sync::MutexGuard<'_, Listed> {
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Lists a game as its task starts, with the address it was created from (a game
    /// against the computer counts against that address's limit while unfinished).
    pub fn list_new(&self, summary: GameSummary, address: Option<AddressKey>) {
        if let Some(address) = address.filter(|_| summary.computer.is_some()) {
            self.lock().addresses.insert(summary.game_id, address);
        }
        self.update(summary);
    }

    /// Where the changes are marked (shared with the tournaments, read by the feed).
    #[must_use]
    pub fn changes(&self) -> &Arc<LobbyChanges> {
        &self.changes
    }

    pub fn update(&self, summary: GameSummary) {
        let mut listed = self.lock();
        let changed = match listed.games.get_mut(&summary.game_id) {
            // The crowd's batch writes the summary again whether or not it changed.
            Some(known) if *known == summary => false,
            Some(known) => {
                *known = summary;
                true
            }
            None => {
                listed.games.insert(summary.game_id, summary);
                true
            }
        };
        drop(listed);
        if changed {
            self.changes.games_changed();
        }
    }

    /// A game's move count, changed in place (on every move: no allocation). Not marked
    /// as a change: pushing every lobby again on every move would cost each visitor a
    /// whole frame four times a second; the feed reads the counts again every
    /// [`crate::lobby::feed::MOVE_COUNTS_EVERY`] instead.
    pub fn set_moves(&self, id: Uuid, moves: usize) {
        if let Some(game) = self.lock().games.get_mut(&id) {
            game.moves = moves;
        }
    }

    pub fn remove(&self, id: Uuid) {
        let mut listed = self.lock();
        listed.addresses.remove(&id);
        let removed = listed.games.remove(&id).is_some();
        drop(listed);
        if removed {
            self.changes.games_changed();
        }
    }

    /// The newest [`LIST_MAX`] games waiting for a player (`open`) or being played.
    #[must_use]
    pub fn list(&self, open: bool) -> Vec<GameSummary> {
        let mut listed = self.list_own(open);
        listed.extend(self.others.games(|g| listed_as(g, open)));
        // A game moving between nodes may be listed by both for a moment: once.
        listed.sort_by_key(|g| std::cmp::Reverse((g.created_at_ms, g.game_id)));
        listed.dedup_by_key(|g| g.game_id);
        listed.truncate(LIST_MAX);
        listed
    }

    /// As [`Lobby::list`], this node's own games only (what it publishes to the others).
    #[must_use]
    pub fn list_own(&self, open: bool) -> Vec<GameSummary> {
        let games = self.lock();
        let mut listed: Vec<GameSummary> = games
            .games
            .values()
            .filter(|g| listed_as(g, open))
            .cloned()
            .collect();
        drop(games);
        listed.sort_by_key(|g| std::cmp::Reverse((g.created_at_ms, g.game_id)));
        listed.truncate(LIST_MAX);
        listed
    }

    /// Forgets the games of nodes not heard from for [`super::others::OTHERS_KEPT`] (stopped): the pushed
    /// lobby is told, as for any change.
    pub fn forget_silent_others(&self) {
        if self.others.forget_silent() {
            self.changes.games_changed();
        }
    }

    /// Node `node`'s games, as it published them; the lists changed if they differ.
    pub fn set_others(&self, node: Uuid, games: Vec<GameSummary>) {
        if self.others.set(node, games) {
            self.changes.games_changed();
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use omweso_protocol::config::{SetupKind, TimeControl};
    use omweso_protocol::lobby::SeatNames;

    pub(in crate::lobby) fn summary(
        created_at_ms: u64,
        status: Status,
        north: Option<&str>,
    ) -> GameSummary {
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
            rated: false,
            ratings: Default::default(),
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
        use crate::lobby::changes::Changed;
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
