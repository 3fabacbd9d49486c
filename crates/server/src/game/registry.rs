//! The live games by id. A game not in memory is loaded from the store by replaying its
//! log; the map's lock is never held across an `.await`.

use std::collections::HashMap;
use std::sync::Mutex;

use tokio::sync::watch;
use uuid::Uuid;

use super::actor::{self, GameHandle};
use super::log::{replay, Entry};
use super::table::Table;
use crate::clock::now_ms;
use crate::store::{ActionRow, Store, StoreError, Write, Writer};

#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("game {id} cannot be rebuilt from its log: {error}")]
    Replay { id: Uuid, error: String },
}

pub struct Registry {
    games: Mutex<HashMap<Uuid, GameHandle>>,
    store: Store,
    writer: Writer,
    shutdown: watch::Receiver<bool>,
}

impl Registry {
    pub fn new(store: Store, writer: Writer, shutdown: watch::Receiver<bool>) -> Registry {
        Registry {
            games: Mutex::new(HashMap::new()),
            store,
            writer,
            shutdown,
        }
    }

    fn cached(&self, id: Uuid) -> Option<GameHandle> {
        let games = self.games.lock().ok()?;
        games.get(&id).filter(|h| !h.is_closed()).cloned()
    }

    fn insert(&self, handle: GameHandle) -> GameHandle {
        let Ok(mut games) = self.games.lock() else {
            return handle;
        };
        games.retain(|_, h| !h.is_closed());
        games.entry(handle.id()).or_insert(handle).clone()
    }

    /// Creates a game: its row and the first entry of its log, its creation, are committed
    /// together.
    pub async fn create(&self, table: Table, entry: Entry) -> Result<GameHandle, StoreError> {
        let first = ActionRow {
            game_id: table.id(),
            seq: 0,
            at_ms: i64::try_from(now_ms()).unwrap_or(i64::MAX),
            side: None,
            kind: entry.kind().to_owned(),
            payload_json: serde_json::to_string(&entry).unwrap_or_default(),
        };
        self.writer
            .write(vec![
                Write::InsertGame(actor::game_row(&table)),
                Write::AppendAction(first),
            ])
            .await?;
        crate::metrics::count(&crate::metrics::METRICS.games_created);
        Ok(self.insert(self.spawn(table, 1)))
    }

    fn spawn(&self, table: Table, next_seq: i64) -> GameHandle {
        actor::spawn(table, next_seq, self.writer.clone(), self.shutdown.clone())
    }

    /// The game, loaded from the store if needed; `None` if there is no such game.
    pub async fn get(&self, id: Uuid) -> Result<Option<GameHandle>, LoadError> {
        if let Some(handle) = self.cached(id) {
            return Ok(Some(handle));
        }
        let Some(table) = self.load(id).await? else {
            return Ok(None);
        };
        let (table, next_seq) = table;
        Ok(Some(self.insert(self.spawn(table, next_seq))))
    }

    async fn load(&self, id: Uuid) -> Result<Option<(Table, i64)>, LoadError> {
        if self.store.game(id).await?.is_none() {
            return Ok(None);
        }
        let rows = self.store.actions(id).await?;
        let next_seq = rows.last().map_or(0, |r| r.seq + 1);
        let mut entries = Vec::with_capacity(rows.len());
        for row in rows {
            let entry: Entry =
                serde_json::from_str(&row.payload_json).map_err(|e| LoadError::Replay {
                    id,
                    error: format!("entry {}: {e}", row.seq),
                })?;
            entries.push((row.seq, u64::try_from(row.at_ms).unwrap_or(0), entry));
        }
        let mut table = replay(id, entries).map_err(|e| LoadError::Replay {
            id,
            error: e.to_string(),
        })?;
        table.resume(now_ms());
        Ok(Some((table, next_seq)))
    }

    /// Loads every unfinished game (at start, after a restart). A game that cannot be
    /// rebuilt is logged and left in the store.
    pub async fn restore_unfinished(&self) -> Result<usize, StoreError> {
        let mut restored = 0;
        for row in self.store.unfinished_games().await? {
            match self.get(row.id).await {
                Ok(Some(_)) => restored += 1,
                Ok(None) => {}
                Err(LoadError::Store(e)) => return Err(e),
                Err(error) => tracing::error!(%error, "a game could not be restored"),
            }
        }
        Ok(restored)
    }

    /// The games in memory (every unfinished game is).
    #[must_use]
    pub fn handles(&self) -> Vec<GameHandle> {
        self.games
            .lock()
            .map(|g| g.values().filter(|h| !h.is_closed()).cloned().collect())
            .unwrap_or_default()
    }

    /// Games in memory.
    #[must_use]
    pub fn live(&self) -> usize {
        self.games
            .lock()
            .map(|g| g.values().filter(|h| !h.is_closed()).count())
            .unwrap_or(0)
    }
}
