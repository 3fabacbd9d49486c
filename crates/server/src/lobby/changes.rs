//! What tells the lobby feed that a list changed. Games say so when they are created,
//! joined, started, watched or gone, so marking is one atomic OR, with a wake-up only for
//! the first mark since the feed last looked: no lock, no allocation, and any number of
//! changes before the feed looks are one.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

use tokio::sync::Notify;

const GAMES: u8 = 1;
const TOURNAMENTS: u8 = 2;

/// Which lists changed since the feed last looked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Changed {
    /// A game's lobby line (`lobby::games::Lobby`): cheap to read again.
    pub games: bool,
    /// A tournament's line: its lists are read from the store again.
    pub tournaments: bool,
}

impl Changed {
    pub const ALL: Changed = Changed {
        games: true,
        tournaments: true,
    };

    fn of(bits: u8) -> Changed {
        Changed {
            games: bits & GAMES != 0,
            tournaments: bits & TOURNAMENTS != 0,
        }
    }

    #[must_use]
    pub fn any(self) -> bool {
        self.games || self.tournaments
    }

    #[must_use]
    pub fn or(self, other: Changed) -> Changed {
        Changed {
            games: self.games || other.games,
            tournaments: self.tournaments || other.tournaments,
        }
    }
}

/// The marks, shared by the games, the tournaments and the feed.
#[derive(Debug, Default)]
pub struct LobbyChanges {
    dirty: AtomicU8,
    wake: Notify,
    /// How many times this node's tournaments' lines changed: published to the other
    /// nodes (`lobby::across_nodes`), whose feeds read the tournaments again when it moves.
    tournament_changes: AtomicU64,
}

impl LobbyChanges {
    /// A game's lobby line changed (created, joined, started, the crowd, gone).
    pub fn games_changed(&self) {
        self.mark(GAMES);
    }

    /// A tournament's lobby line changed (created, a player joined or withdrew, a round
    /// paired, its status); call it once the change is in the store.
    pub fn tournaments_changed(&self) {
        self.tournament_changes.fetch_add(1, Ordering::Relaxed);
        self.mark(TOURNAMENTS);
    }

    /// Another node's tournaments changed (they are in the store all nodes share).
    pub fn tournaments_changed_elsewhere(&self) {
        self.mark(TOURNAMENTS);
    }

    /// The count of this node's own tournament changes.
    #[must_use]
    pub fn tournament_changes(&self) -> u64 {
        self.tournament_changes.load(Ordering::Relaxed)
    }

    fn mark(&self, bit: u8) {
        // Only the first mark wakes the feed: a `Notify` permit is kept when the feed is
        // not waiting yet, so the wake-up is not lost.
        if self.dirty.fetch_or(bit, Ordering::AcqRel) == 0 {
            self.wake.notify_one();
        }
    }

    /// What changed since the last look, without waiting (nothing: [`Changed::default`]).
    pub fn take(&self) -> Changed {
        Changed::of(self.dirty.swap(0, Ordering::AcqRel))
    }

    /// Waits until something changed, and takes it.
    pub async fn wait(&self) -> Changed {
        loop {
            let changed = self.take();
            if changed.any() {
                return changed;
            }
            self.wake.notified().await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::time::Duration;

    #[tokio::test]
    async fn many_marks_are_one_change_and_none_is_lost() {
        let changes = Arc::new(LobbyChanges::default());
        assert_eq!(changes.take(), Changed::default());
        for _ in 0..1000 {
            changes.games_changed();
        }
        changes.tournaments_changed();
        assert_eq!(changes.wait().await, Changed::ALL);
        assert_eq!(changes.take(), Changed::default());
        // A mark made while the feed waits wakes it.
        let waiting = tokio::spawn({
            let changes = Arc::clone(&changes);
            async move { changes.wait().await }
        });
        tokio::time::sleep(Duration::from_millis(10)).await;
        changes.games_changed();
        let woke = tokio::time::timeout(Duration::from_secs(5), waiting)
            .await
            .expect("woken")
            .expect("no panic");
        assert_eq!(
            woke,
            Changed {
                games: true,
                tournaments: false
            }
        );
    }
}
