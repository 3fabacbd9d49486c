//! The games other nodes list (several nodes, docs/scaling.md): each node's latest lists
//! as it published them, and when they came; a node not heard from for [`OTHERS_KEPT`]
//! drops out.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

use uuid::Uuid;

use omweso_protocol::lobby::GameSummary;

/// How long another node's lists are shown without a newer publication (it publishes
/// them every `lobby::across_nodes::REPUBLISH` at least; a node that stopped drops out).
pub const OTHERS_KEPT: std::time::Duration = std::time::Duration::from_secs(6);

/// Each other node's games as it last published them, and when.
#[derive(Debug, Default)]
pub struct OtherNodes(Mutex<HashMap<Uuid, (Vec<GameSummary>, Instant)>>);

impl OtherNodes {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Uuid, (Vec<GameSummary>, Instant)>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The games of the nodes heard from lately that `keep` takes.
    pub fn games(&self, keep: impl Fn(&GameSummary) -> bool) -> Vec<GameSummary> {
        let others = self.lock();
        let mut games = Vec::new();
        for (listed, at) in others.values() {
            if at.elapsed() < OTHERS_KEPT {
                games.extend(listed.iter().filter(|g| keep(g)).cloned());
            }
        }
        games
    }

    /// Forgets the nodes not heard from for [`OTHERS_KEPT`]; whether any was.
    pub fn forget_silent(&self) -> bool {
        let mut others = self.lock();
        let before = others.len();
        others.retain(|_, (_, at)| at.elapsed() < OTHERS_KEPT);
        others.len() != before
    }

    /// Node `node`'s games, as it published them; whether they differ from its last.
    pub fn set(&self, node: Uuid, games: Vec<GameSummary>) -> bool {
        let mut others = self.lock();
        let changed = others.get(&node).is_none_or(|(known, _)| *known != games);
        others.insert(node, (games, Instant::now()));
        others.retain(|_, (_, at)| at.elapsed() < OTHERS_KEPT);
        changed
    }
}
