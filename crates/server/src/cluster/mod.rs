//! Several server nodes on one database (docs/scaling.md): which node owns each game and
//! each tournament.
//!
//! Every game and every tournament is owned by exactly one node at a time, by a
//! [`Lease`] with an epoch that grows at every takeover. The store keeps the nodes'
//! heartbeats and the leases (`Store::heartbeat`, `Store::claim`...:
//! `store/db/leases.rs`), and refuses a transaction whose [`Write::Fence`](crate::store::Write::Fence)
//! names a lease that is no longer current ([`StoreError::Fenced`](crate::store::StoreError::Fenced)),
//! so a node whose lease was taken over cannot write to that log any more.
//!
//! Files: `lease` (the lease, a claim's answer, a node's row).

mod lease;

pub use lease::{Claim, Lease, LeaseKind, NodeRow, UnknownLeaseKind};
