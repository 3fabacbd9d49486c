//! The live games by id. A game not in memory is loaded from the store by replaying its
//! log; the map's lock is never held across an `.await`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use omweso_rules::Side;
use uuid::Uuid;

use super::actor::{self, GameHandle, Services};
use super::log::{replay, Entry};
use super::table::{Seat, Table};
use crate::address::AddressKey;
use crate::cluster::node::Cluster;
use crate::lobby::games::Lobby;
use crate::pools::engine::EnginePool;
use crate::store::lease::{Lease, LeaseKind};
use crate::store::{ActionRow, GameRow, Store, StoreError, Write};
use omweso_protocol::clock::now_ms;
use omweso_protocol::config::GameConfig;

/// Why a game could not be loaded, created or seated. Each keeps its cause as its
/// `source()`, and says it in its text too (the logs print the text alone).
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("game {id} cannot be rebuilt from its log: {source}")]
    Replay { id: Uuid, source: RebuildError },
    #[error("game {id} cannot be encoded: {source}")]
    Encode { id: Uuid, source: serde_json::Error },
    #[error("game {id} cannot be seated: {source}")]
    Seat { id: Uuid, source: SeatError },
    /// Another live node holds it (several nodes, docs/scaling.md).
    #[error("game {id} is held by node {node} ({name})")]
    Elsewhere { id: Uuid, node: Uuid, name: String },
    /// Its tournament is being taken over from a node that stopped; the node that takes
    /// the tournament loads its games.
    #[error("game {id} is moving to another node with its tournament")]
    Moving { id: Uuid },
}

/// Why a game's stored log did not give back its table.
#[derive(Debug, thiserror::Error)]
pub enum RebuildError {
    #[error("entry {seq}: {source}")]
    Undecodable { seq: i64, source: serde_json::Error },
    /// The engine pool, which replays the moves, stopped or failed.
    #[error(transparent)]
    Pool(#[from] crate::pools::engine::PoolGone),
    #[error(transparent)]
    Replay(#[from] crate::game::log::ReplayError),
}

/// Why the second player of a paired game could not sit down.
#[derive(Debug, thiserror::Error)]
pub enum SeatError {
    #[error(transparent)]
    Refused(#[from] omweso_protocol::refusal::Refusal),
    #[error("the same player cannot hold both seats")]
    SamePlayer,
}

/// A game to create with both players seated (a tournament's pairing): `first` moves
/// first, from South.
#[derive(Clone, Debug)]
pub struct SeatedGame {
    pub id: Uuid,
    pub config: GameConfig,
    pub first: Seat,
    pub second: Seat,
}

/// Entry `seq` of game `id`'s log, as stored.
fn log_row(id: Uuid, seq: i64, at_ms: i64, entry: &Entry) -> Result<ActionRow, LoadError> {
    Ok(ActionRow {
        game_id: id,
        seq,
        at_ms,
        side: None,
        kind: entry.kind().to_owned(),
        payload_json: serde_json::to_string(entry).map_err(|e| encode_error(id, e))?,
    })
}

fn encode_error(id: Uuid, source: serde_json::Error) -> LoadError {
    LoadError::Encode { id, source }
}

pub struct Registry {
    games: Mutex<HashMap<Uuid, GameHandle>>,
    store: Store,
    services: Services,
    /// Places taken for games about to be created and loaded (a tournament round's), so
    /// that rounds started at the same moment cannot all pass the live-games limit.
    reserved: Arc<Mutex<usize>>,
    /// The games being loaded: one load a game, which every other asker waits for.
    loading: Mutex<HashMap<Uuid, Arc<tokio::sync::Mutex<()>>>>,
}

/// Places for `count` games held against the live-games limit until dropped (once the
/// games are loaded, and counted by [`Registry::live`] themselves).
#[derive(Debug)]
pub struct LivePlaces {
    count: usize,
    reserved: Arc<Mutex<usize>>,
}

impl Drop for LivePlaces {
    fn drop(&mut self) {
        let mut reserved = self.reserved.lock().unwrap_or_else(PoisonError::into_inner);
        *reserved = reserved.saturating_sub(self.count);
    }
}

impl Registry {
    pub fn new(store: Store, services: Services) -> Registry {
        Registry {
            games: Mutex::new(HashMap::new()),
            store,
            services,
            reserved: Arc::new(Mutex::new(0)),
            loading: Mutex::new(HashMap::new()),
        }
    }

    /// Takes places for `count` more games if the games in memory, those already being
    /// created and these stay within `limit`; else `Err` with the number live (those in
    /// memory and those being created).
    pub fn reserve_live(&self, count: usize, limit: usize) -> Result<LivePlaces, usize> {
        // The reservation's lock is taken first and kept while the games are counted, so
        // that two reservations cannot both count the same free places.
        let mut reserved = self.reserved.lock().unwrap_or_else(PoisonError::into_inner);
        let live = self.live() + *reserved;
        if live + count > limit {
            return Err(live);
        }
        *reserved += count;
        Ok(LivePlaces {
            count,
            reserved: Arc::clone(&self.reserved),
        })
    }

    /// The live games' summaries, as the lobby lists them.
    #[must_use]
    pub fn lobby(&self) -> &Lobby {
        &self.services.lobby
    }

    /// The engine pool the games use.
    #[must_use]
    pub fn pool(&self) -> &EnginePool {
        &self.services.pool
    }

    /// Every game in memory.
    #[must_use]
    pub fn all_loaded(&self) -> Vec<GameHandle> {
        self.handles()
            .values()
            .filter(|h| !h.is_closed())
            .cloned()
            .collect()
    }

    /// A game in memory, without loading it.
    #[must_use]
    pub fn loaded(&self, id: Uuid) -> Option<GameHandle> {
        self.cached(id)
    }

    /// The game's stored row (its final snapshot, once it is over).
    pub async fn row(&self, id: Uuid) -> Result<Option<GameRow>, StoreError> {
        self.store.game(id).await
    }

    /// The map of handles. A panic elsewhere while it was held cannot have left it half
    /// changed (every change is one insert or one sweep), so a poisoned lock is taken as
    /// it is rather than failing every game from then on.
    fn handles(&self) -> std::sync::MutexGuard<'_, HashMap<Uuid, GameHandle>> {
        self.games
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn cached(&self, id: Uuid) -> Option<GameHandle> {
        self.handles().get(&id).filter(|h| !h.is_closed()).cloned()
    }

    /// The game's task: the one already running, or a new one owning `table`. Decided
    /// and spawned under the map's lock, so that two loads of the same game at once
    /// never give it two tasks (the loser's table is dropped unplayed).
    /// `resumed`: the table was rebuilt from its log, and its task takes it up again
    /// ([`Table::resume`]) before anything else.
    /// `address`: where its creator asked from (a new game against the computer).
    fn spawn_once(
        &self,
        table: Table,
        next_seq: i64,
        resumed: bool,
        (address, lease): (Option<AddressKey>, Option<Lease>),
    ) -> GameHandle {
        let mut games = self.handles();
        if let Some(running) = games.get(&table.id()).filter(|h| !h.is_closed()) {
            return running.clone();
        }
        games.retain(|_, h| !h.is_closed());
        let mut services = self.services.clone();
        if let Some(lease) = lease {
            services.writer = services.writer.fenced(lease);
        }
        let handle = actor::spawn(table, next_seq, services, resumed, address);
        games.insert(handle.id(), handle.clone());
        handle
    }

    /// Takes game `id` for this node, when it runs among others: its lease, or who holds
    /// it.
    async fn claim(&self, id: Uuid) -> Result<Option<Lease>, LoadError> {
        Cluster::take(self.services.cluster.as_deref(), LeaseKind::Game, id)
            .await?
            .map_err(|(node, name)| LoadError::Elsewhere { id, node, name })
    }

    /// On one of several nodes, whether game `id` of `tournament` may be loaded here: only
    /// where the tournament is held. Held by a live other node: `Elsewhere` (the request
    /// goes there); by nobody live yet: `Moving` (asked again once a node took the
    /// tournament over, which loads its games with it).
    async fn check_tournament_here(&self, id: Uuid, tournament: Uuid) -> Result<(), LoadError> {
        let Some(cluster) = &self.services.cluster else {
            return Ok(());
        };
        let now = crate::cluster::node::ms(now_ms());
        match self.store.lease(LeaseKind::Tournament, tournament).await? {
            Some((lease, _)) if lease.node == cluster.node => Ok(()),
            Some((lease, Some(holder))) if holder.expires_at_ms > now => {
                Err(LoadError::Elsewhere {
                    id,
                    node: lease.node,
                    name: holder.name,
                })
            }
            _ => Err(LoadError::Moving { id }),
        }
    }

    /// The writer of a game held by `lease` (fenced), or the server's own.
    fn writer_for(&self, lease: Option<&Lease>) -> crate::store::Writer {
        match lease {
            Some(lease) => self.services.writer.fenced(lease.clone()),
            None => self.services.writer.clone(),
        }
    }

    /// Creates a game: its row and the first entry of its log, its creation, are committed
    /// together. `address`: where its creator asked from (not stored; a game against the
    /// computer is counted by it, and its searches take that address's turns).
    pub async fn create(
        &self,
        table: Table,
        entry: Entry,
        address: Option<AddressKey>,
    ) -> Result<GameHandle, LoadError> {
        let id = table.id();
        // Logged at the table's own time of creation: a replay then starts the game (a
        // game against the computer starts as it is created) at the very same time.
        let created = i64::try_from(table.created_at_ms()).unwrap_or(i64::MAX);
        let first = log_row(id, 0, created, &entry)?;
        let row = actor::game_row(&table, None).map_err(|e| encode_error(id, e))?;
        let lease = self.claim(id).await?;
        self.writer_for(lease.as_ref())
            .write(vec![Write::InsertGame(row), Write::AppendAction(first)])
            .await?;
        crate::metrics::count(&crate::metrics::METRICS.games_created);
        Ok(self.spawn_once(table, 1, false, (address, lease)))
    }

    /// Creates games with both players seated, and play begun where the setup is a preset
    /// (a tournament round's games). Every game's row and first two log entries (its
    /// creation, the second player's joining) are committed in one transaction with
    /// `extra` (the caller's own record of them): all are saved or none is. Nothing is
    /// written if a game cannot be seated (the same player twice).
    pub async fn create_seated(
        &self,
        games: Vec<SeatedGame>,
        extra: Vec<Write>,
    ) -> Result<Vec<GameHandle>, LoadError> {
        let now = now_ms();
        let at_ms = i64::try_from(now).unwrap_or(i64::MAX);
        let mut tables = Vec::with_capacity(games.len());
        let mut leases = Vec::with_capacity(games.len());
        let mut writes = Vec::with_capacity(4 * games.len() + extra.len());
        for game in games {
            let id = game.id;
            // Each new game is this node's, and its first entries are fenced with it.
            let lease = self.claim(id).await?;
            writes.extend(lease.clone().map(Write::Fence));
            leases.push(lease);
            let creation = Entry::Create {
                config: game.config.clone(),
                creator: game.first.clone(),
                side: Side::South,
                presence_logged: true,
                display_count: true,
                computer: None,
            };
            let mut table = Table::new(id, game.config, game.first, Side::South, now);
            let seated = table.join(game.second.clone(), now);
            if !matches!(seated, Ok((Side::North, _))) {
                let source = match seated {
                    Err(refusal) => SeatError::Refused(refusal),
                    Ok(_) => SeatError::SamePlayer,
                };
                return Err(LoadError::Seat { id, source });
            }
            // A tournament's games are rated by their sheets (part D), never made casual here.
            let joining = Entry::Join {
                seat: game.second,
                casual: false,
            };
            let row = actor::game_row(&table, None).map_err(|e| encode_error(id, e))?;
            writes.push(Write::InsertGame(row));
            writes.push(Write::AppendAction(log_row(id, 0, at_ms, &creation)?));
            writes.push(Write::AppendAction(log_row(id, 1, at_ms, &joining)?));
            tables.push(table);
        }
        writes.extend(extra);
        self.services.writer.write(writes).await?;
        Ok(tables
            .into_iter()
            .zip(leases)
            .map(|(table, lease)| {
                crate::metrics::count(&crate::metrics::METRICS.games_created);
                self.spawn_once(table, 2, false, (None, lease))
            })
            .collect())
    }

    /// The game, loaded from the store if needed; `None` if there is no such game. Those
    /// who ask for a game being loaded wait for that load rather than each replaying its
    /// log (a thousand asks a second each rebuilt it).
    pub async fn get(&self, id: Uuid) -> Result<Option<GameHandle>, LoadError> {
        if let Some(handle) = self.cached(id) {
            return Ok(Some(handle));
        }
        let gate = Arc::clone(
            self.loading
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .entry(id)
                .or_default(),
        );
        let loaded = {
            let _loading = gate.lock().await;
            match self.cached(id) {
                Some(handle) => Ok(Some(handle)),
                None => self.load(id).await.map(|loaded| {
                    loaded.map(|(table, next_seq, lease)| {
                        self.spawn_once(table, next_seq, true, (None, lease))
                    })
                }),
            }
        };
        // The last one through takes the gate away (the map holds one reference, each
        // asker another).
        let mut loading = self.loading.lock().unwrap_or_else(PoisonError::into_inner);
        if Arc::strong_count(&gate) == 2 {
            loading.remove(&id);
        }
        loaded
    }

    async fn load(&self, id: Uuid) -> Result<Option<(Table, i64, Option<Lease>)>, LoadError> {
        let Some(row) = self.store.game(id).await? else {
            return Ok(None);
        };
        // A tournament's game is played where its tournament is, which watches it: it is
        // taken here only by the node holding the tournament.
        if let Some(tournament) = row.archive.tournament_id {
            self.check_tournament_here(id, tournament).await?;
        }
        // Claimed before its log is read: what this node replays is all that was written
        // under earlier leases, and nothing more can be (fenced).
        let lease = self.claim(id).await?;
        let rows = self.store.actions(id).await?;
        let next_seq = rows.last().map_or(0, |r| r.seq + 1);
        let mut entries = Vec::with_capacity(rows.len());
        for row in rows {
            let entry: Entry =
                serde_json::from_str(&row.payload_json).map_err(|source| LoadError::Replay {
                    id,
                    source: RebuildError::Undecodable {
                        seq: row.seq,
                        source,
                    },
                })?;
            entries.push((row.seq, u64::try_from(row.at_ms).unwrap_or(0), entry));
        }
        // Replaying plays every move again: engine work, on the pool.
        let replayed = self
            .services
            .pool
            .run(move || replay(id, entries))
            .await
            .map_err(|e| LoadError::Replay {
                id,
                source: e.into(),
            })?;
        let table = replayed.map_err(|e| LoadError::Replay {
            id,
            source: e.into(),
        })?;
        Ok(Some((table, next_seq, lease)))
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
                // Another node plays it, or will with its tournament.
                Err(LoadError::Elsewhere { .. } | LoadError::Moving { .. }) => {}
                Err(error) => tracing::error!(%error, "a game could not be restored"),
            }
        }
        Ok(restored)
    }

    /// Games in memory.
    #[must_use]
    pub fn live(&self) -> usize {
        self.handles().values().filter(|h| !h.is_closed()).count()
    }
}
