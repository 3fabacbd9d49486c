//! Several server nodes on one PostgreSQL database and NATS (docs/scaling.md). One node
//! (the default, SQLite or PostgreSQL) uses none of this.
//!
//! - Every game and tournament is held by one node at a time, by a
//!   [`Lease`](crate::store::lease::Lease) with an epoch that grows at every takeover.
//!   The lease is the store's (`store/lease.rs`: the fence every write of a node's
//!   carries), which keeps the nodes' heartbeats and the leases (`Store::heartbeat`,
//!   `Store::claim`...: `store/db/leases.rs`), and refuses a transaction whose
//!   [`Write::Fence`](crate::store::Write::Fence) names a lease that is no longer current
//!   ([`StoreError::Fenced`](crate::store::StoreError::Fenced)), so a node whose lease was
//!   taken over cannot write to that log any more.
//! - [`node`]: this node: its id, NATS connection, heartbeat, where a room is played;
//!   [`credentials`]: what it needs to join (NATS credentials, the cluster's secret).
//! - [`upkeep`]: the heartbeat, the stop of a node that lost it, the takeover of the rooms
//!   of dead nodes.
//! - [`route`], [`wire`]: what crosses NATS: a room's frames on its subject (once per
//!   node), requests to a room's holder.
//! - [`rooms`]: this node's rooms, for other nodes' sockets; [`gateway`]: this node's
//!   sockets, on other nodes' rooms; [`local_rooms`]: the rooms as the cluster reaches
//!   them, answered by the games and the tournaments (`node_rooms.rs`), so that the
//!   gateway and the takeover name neither (the HTTP forwarding still asks the server's
//!   state which rooms are here).
//! - [`forward`]: HTTP requests about a room, answered by its holder; [`forwards`]: those
//!   waiting, per address and in all.
//! - Every node's games in every lobby is the lobby's own use of the cluster
//!   (`lobby::across_nodes`), as is a room's sending through [`route`].
//! - [`seal`]: every message between nodes signed with the cluster's secret (a forged or
//!   replayed one is refused), and a forwarded request's payload encrypted.

pub mod credentials;
pub mod forward;
pub mod forwards;
pub mod gateway;
pub mod local_rooms;
pub mod node;
pub mod rooms;
pub mod route;
pub mod seal;
pub mod upkeep;
pub mod wire;
