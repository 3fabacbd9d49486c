//! News of a game for the server's own watchers (a tournament following its tables): what
//! the game's task sends after every change it publishes, and when a seated player comes
//! or goes, without a socket or a snapshot.

use omweso_rules::{Outcome, Side};
use tokio::sync::mpsc;
use tokio::sync::mpsc::error::TrySendError;
use uuid::Uuid;

use super::table::{GameFacts, Table};
use omweso_protocol::{ClockView, Status};

/// The game as it stands after a change: enough to show its board and to fill in its score
/// sheet when it ends.
#[derive(Clone, Debug, PartialEq)]
pub struct TableNews {
    pub game_id: Uuid,
    pub version: u64,
    pub status: Status,
    /// The position as the snapshot shows it.
    pub position: Option<String>,
    pub to_move: Option<Side>,
    /// The last whole move's notation.
    pub last_move: Option<String>,
    pub clock: ClockView,
    pub outcome: Option<Outcome>,
    pub facts: GameFacts,
    /// Whether each seat's player has a connection open to the game (by [`Side::index`]):
    /// a tournament shows its players connected to their games as present.
    pub present: [bool; 2],
}

impl TableNews {
    #[must_use]
    pub fn of(table: &Table) -> TableNews {
        TableNews {
            game_id: table.id(),
            version: table.version(),
            status: table.status(),
            position: table.shown_position(),
            to_move: table.shown_to_move(),
            last_move: table.last_move().map(str::to_owned),
            clock: table.clock(),
            outcome: table.outcome(),
            facts: table.facts(),
            present: table.present(),
        }
    }
}

/// The watchers of one game.
#[derive(Debug, Default)]
pub struct Watchers(Vec<mpsc::Sender<TableNews>>);

impl Watchers {
    pub fn add(&mut self, tx: mpsc::Sender<TableNews>) {
        self.0.push(tx);
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    #[must_use]
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Sends `news` to every watcher without waiting: the game's task never waits for a
    /// watcher. A watcher whose channel is full misses a move's news (the next news says
    /// more, and a watcher shows only the latest), but never the end's, which decides a
    /// score sheet: that is handed to a task of its own to wait for room. Watchers that
    /// stopped listening are forgotten.
    pub fn tell(&mut self, news: &TableNews) {
        let over = news.status.is_over();
        self.0.retain(|tx| match tx.try_send(news.clone()) {
            Ok(()) => true,
            Err(TrySendError::Closed(_)) => false,
            Err(TrySendError::Full(news)) => {
                if over {
                    let tx = tx.clone();
                    tokio::spawn(async move {
                        // An error only means the watcher stopped listening meanwhile.
                        let _ = tx.send(news).await;
                    });
                }
                true
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn news(version: u64, status: Status) -> TableNews {
        TableNews {
            game_id: Uuid::nil(),
            version,
            status,
            position: None,
            to_move: None,
            last_move: None,
            clock: ClockView::default(),
            outcome: None,
            facts: GameFacts::default(),
            present: [false; 2],
        }
    }

    #[tokio::test]
    async fn a_full_channel_misses_moves_but_not_the_end() {
        let mut watchers = Watchers::default();
        let (tx, mut rx) = mpsc::channel(1);
        watchers.add(tx);
        watchers.tell(&news(1, Status::Playing));
        // Full: this one is dropped.
        watchers.tell(&news(2, Status::Playing));
        // Full too: this one waits for room.
        watchers.tell(&news(3, Status::Finished));
        assert_eq!(watchers.len(), 1);
        assert_eq!(rx.recv().await.map(|n| n.version), Some(1));
        assert_eq!(rx.recv().await.map(|n| n.version), Some(3));
    }

    #[tokio::test]
    async fn watchers_that_stopped_listening_are_forgotten() {
        let mut watchers = Watchers::default();
        let (gone, closed) = mpsc::channel(4);
        let (kept, mut open) = mpsc::channel(4);
        watchers.add(gone);
        watchers.add(kept);
        drop(closed);
        watchers.tell(&news(1, Status::Playing));
        assert_eq!(watchers.len(), 1);
        assert_eq!(open.recv().await.map(|n| n.version), Some(1));
    }
}
