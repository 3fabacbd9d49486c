//! The tournaments by id. A tournament not in memory is rebuilt from its log (no engine
//! work: replaying a tournament applies its entries, it plays no game). The map's lock is
//! never held across an `.await`.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard, PoisonError};

use uuid::Uuid;

use super::actor::{self, Services, TournamentHandle};
use super::log::Entry;
use super::settings::Settings;
use super::state::{self, RebuildError, Tournament};
use crate::cluster::node::Cluster;
use crate::store::lease::{Lease, LeaseKind};
use crate::store::{Store, StoreError, TournamentEntryRow, Write};
use omweso_protocol::clock::now_ms;
use omweso_protocol::refusal::Refusal;
use omweso_protocol::tournament::{TournamentStatus, TournamentSummary};

/// Why a tournament could not be loaded or created. Each keeps its cause as its
/// `source()`, and says it in its text too (the logs print the text alone).
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("tournament {id} cannot be rebuilt from its log: entry {seq}: {source}")]
    Replay {
        id: Uuid,
        seq: i64,
        source: RebuildError,
    },
    #[error("tournament {id} cannot be created: {source}")]
    Create { id: Uuid, source: Refusal },
    #[error("tournament {id} cannot be encoded: {source}")]
    Encode { id: Uuid, source: serde_json::Error },
    /// Another live node holds it (several nodes, docs/scaling.md).
    #[error("tournament {id} is held by node {node} ({name})")]
    Elsewhere { id: Uuid, node: Uuid, name: String },
}

pub struct Tournaments {
    map: Mutex<HashMap<Uuid, TournamentHandle>>,
    store: Store,
    services: Services,
}

impl Tournaments {
    /// The store the tournaments are read from and written to.
    #[must_use]
    pub fn store(&self) -> &Store {
        &self.store
    }

    #[must_use]
    pub fn new(store: Store, services: Services) -> Tournaments {
        Tournaments {
            map: Mutex::new(HashMap::new()),
            store,
            services,
        }
    }

    /// The map. Every change to it is one insert, so a panic elsewhere while it was held
    /// cannot have left it half changed: a poisoned lock is taken as it is.
    fn handles(&self) -> MutexGuard<'_, HashMap<Uuid, TournamentHandle>> {
        self.map.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Every tournament in memory.
    #[must_use]
    pub fn all_loaded(&self) -> Vec<TournamentHandle> {
        self.handles()
            .values()
            .filter(|h| !h.is_closed())
            .cloned()
            .collect()
    }

    /// A tournament in memory, without loading it.
    #[must_use]
    pub fn loaded(&self, id: Uuid) -> Option<TournamentHandle> {
        self.cached(id)
    }

    fn cached(&self, id: Uuid) -> Option<TournamentHandle> {
        self.handles().get(&id).filter(|h| !h.is_closed()).cloned()
    }

    /// The tournament's task: the running one, or a new one owning `t` (decided under the
    /// lock, so that a tournament never gets two tasks).
    fn spawn_once(&self, t: Tournament, next_seq: i64, lease: Option<Lease>) -> TournamentHandle {
        let mut map = self.handles();
        if let Some(running) = map.get(&t.id()).filter(|h| !h.is_closed()) {
            return running.clone();
        }
        let mut services = self.services.clone();
        if let Some(lease) = lease {
            services.writer = services.writer.fenced(lease);
        }
        let handle = actor::spawn(t, next_seq, services);
        map.insert(handle.id(), handle.clone());
        handle
    }

    /// Takes tournament `id` for this node, when it runs among others: its lease, or
    /// who holds it.
    async fn claim(&self, id: Uuid) -> Result<Option<Lease>, LoadError> {
        Cluster::take(self.services.cluster.as_deref(), LeaseKind::Tournament, id)
            .await?
            .map_err(|(node, name)| LoadError::Elsewhere { id, node, name })
    }

    /// Creates a tournament: its row and its log's first entry are committed together.
    pub async fn create(
        &self,
        settings: Settings,
        director: Uuid,
        director_name: String,
    ) -> Result<TournamentHandle, LoadError> {
        let id = Uuid::now_v7();
        let now = now_ms();
        let entry = Entry::Create {
            settings: Box::new(settings),
            director,
            director_name,
        };
        let t = Tournament::create(id, &entry, now)
            .map_err(|source| LoadError::Create { id, source })?;
        let payload_json =
            serde_json::to_string(&entry).map_err(|source| LoadError::Encode { id, source })?;
        let first = TournamentEntryRow {
            tournament_id: id,
            seq: 0,
            at_ms: i64::try_from(now).unwrap_or(i64::MAX),
            kind: entry.kind().to_owned(),
            payload_json,
        };
        let lease = self.claim(id).await?;
        let writer = match &lease {
            Some(lease) => self.services.writer.fenced(lease.clone()),
            None => self.services.writer.clone(),
        };
        writer
            .write(vec![
                Write::InsertTournament(actor::row(&t)),
                Write::AppendTournamentEntry(first),
                actor::in_tournament(director, id, "director", now),
            ])
            .await?;
        self.services.lobby.tournaments_changed();
        Ok(self.spawn_once(t, 1, lease))
    }

    /// The tournament, loaded from the store if needed; `None` if there is none.
    pub async fn get(&self, id: Uuid) -> Result<Option<TournamentHandle>, LoadError> {
        if let Some(handle) = self.cached(id) {
            return Ok(Some(handle));
        }
        if self.store.tournament(id).await?.is_none() {
            return Ok(None);
        }
        // Claimed before its log is read: what this node replays is all that was written
        // under earlier leases, and nothing more can be (fenced).
        let lease = self.claim(id).await?;
        let rows = self.store.tournament_log(id).await?;
        let next_seq = rows.last().map_or(0, |r| r.seq + 1);
        let t = replay(id, rows)?;
        Ok(Some(self.spawn_once(t, next_seq, lease)))
    }

    /// Loads every unfinished tournament (at start, after the games): each watches its
    /// games again, records the ends it missed, and keeps its round clock. A tournament
    /// that cannot be rebuilt is logged and left in the store.
    pub async fn restore_unfinished(&self) -> Result<usize, StoreError> {
        let mut restored = 0;
        for row in self.store.unfinished_tournaments().await? {
            match self.get(row.id).await {
                Ok(Some(_)) => restored += 1,
                Ok(None) => {}
                Err(LoadError::Store(e)) => return Err(e),
                // Another node plays it.
                Err(LoadError::Elsewhere { .. }) => {}
                Err(error) => tracing::error!(%error, "a tournament could not be restored"),
            }
        }
        Ok(restored)
    }

    /// The lobby's list: tournaments in `status`, newest first.
    pub async fn list(
        &self,
        status: TournamentStatus,
    ) -> Result<Vec<TournamentSummary>, StoreError> {
        crate::lobby::tournaments::list(&self.store, status).await
    }
}

/// Rebuilds a tournament from its log (`state::replay`), as a load error when it cannot.
pub fn replay(id: Uuid, rows: Vec<TournamentEntryRow>) -> Result<Tournament, LoadError> {
    state::replay(id, super::stored::logged(rows)).map_err(|e| LoadError::Replay {
        id,
        seq: e.seq,
        source: e.source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::error::Error;

    fn row(seq: i64, at_ms: i64, payload_json: &str) -> TournamentEntryRow {
        TournamentEntryRow {
            tournament_id: Uuid::nil(),
            seq,
            at_ms,
            kind: "create".into(),
            payload_json: payload_json.into(),
        }
    }

    #[test]
    fn a_log_that_cannot_be_replayed_keeps_its_cause_as_the_source() {
        let undecodable = replay(Uuid::nil(), vec![row(0, 5, "{not json")]).unwrap_err();
        assert!(matches!(
            undecodable,
            LoadError::Replay {
                seq: 0,
                source: RebuildError::Undecodable(_),
                ..
            }
        ));
        let cause = undecodable
            .source()
            .and_then(|e| e.downcast_ref::<RebuildError>());
        assert!(
            matches!(cause, Some(RebuildError::Undecodable(e)) if e.is_syntax()),
            "{undecodable:?}"
        );
        let negative = replay(Uuid::nil(), vec![row(3, -1, "{}")]).unwrap_err();
        assert_eq!(
            negative.to_string(),
            "tournament 00000000-0000-0000-0000-000000000000 cannot be rebuilt from its log: entry 3: a negative time -1"
        );
        let empty = replay(Uuid::nil(), vec![]).unwrap_err();
        assert!(matches!(
            empty,
            LoadError::Replay {
                source: RebuildError::Empty,
                ..
            }
        ));
    }
}
