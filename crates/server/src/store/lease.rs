//! A lease on a game or a tournament, what a claim of one answers, and a node's row
//! (docs/scaling.md#leases-and-fencing). The store's, not the cluster's: every write of a
//! node's carries its lease as a fence ([`Write::Fence`](crate::store::Write::Fence)) and
//! the store refuses a stale one; the cluster decides when to claim and take over.

use std::fmt;

use uuid::Uuid;

/// What a lease is on. Stored as `"game"` / `"tournament"` (`leases.kind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LeaseKind {
    Game,
    Tournament,
}

impl LeaseKind {
    /// The spelling stored in `leases.kind` (and shown in messages).
    pub fn as_str(self) -> &'static str {
        match self {
            LeaseKind::Game => "game",
            LeaseKind::Tournament => "tournament",
        }
    }

    /// The kind spelled `text` in `leases.kind`.
    pub fn parse(text: &str) -> Result<LeaseKind, UnknownLeaseKind> {
        match text {
            "game" => Ok(LeaseKind::Game),
            "tournament" => Ok(LeaseKind::Tournament),
            other => Err(UnknownLeaseKind(other.to_owned())),
        }
    }
}

impl fmt::Display for LeaseKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A `leases.kind` that is neither `game` nor `tournament`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a lease kind (game or tournament)")]
pub struct UnknownLeaseKind(pub String);

/// The lease of `node` on the game or tournament `id`, at `epoch`. The epoch is 1 when
/// the lease is first taken and grows by one at every takeover, so that `(node, epoch)`
/// names one holding: a write fenced by it ([`Write::Fence`](crate::store::Write::Fence))
/// is refused once another node has taken the lease over, even should the lease come
/// back to this node later (at another epoch).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Lease {
    pub kind: LeaseKind,
    pub id: Uuid,
    pub node: Uuid,
    pub epoch: i64,
}

/// What [`Store::claim`](crate::store::Store::claim) answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Claim {
    /// The claiming node holds the lease (new, already its own, or taken over).
    Mine(Lease),
    /// A live other node holds it: `node`, whose operator calls it `name`.
    Held { node: Uuid, name: String },
}

/// A node's row (`cluster_nodes`): its id (fresh at every process start), the operator's
/// name for it, when it started, and until when its last heartbeat keeps it alive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeRow {
    pub node: Uuid,
    pub name: String,
    pub started_at_ms: i64,
    pub expires_at_ms: i64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_are_stored_by_name_and_read_back() {
        for kind in [LeaseKind::Game, LeaseKind::Tournament] {
            assert_eq!(LeaseKind::parse(kind.as_str()), Ok(kind));
        }
        assert_eq!(LeaseKind::Game.to_string(), "game");
        assert_eq!(LeaseKind::Tournament.to_string(), "tournament");
        let refused = LeaseKind::parse("Game").unwrap_err();
        assert_eq!(
            refused.to_string(),
            "\"Game\" is not a lease kind (game or tournament)"
        );
    }
}
