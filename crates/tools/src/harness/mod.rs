//! What the load tools share to play a server through its protocol: a server started as a
//! child process with its /proc figures ([`child`]), a game set up over HTTP and its
//! sockets ([`client`], [`socket`]), a seated player that answers with random legal moves and times
//! each action ([`player`]), and the counters every task shares ([`stats`]). `loadgen`
//! and `tournament_sim` are both built on these.

pub(crate) mod child;
pub(crate) mod client;
mod player;
pub(crate) mod socket;
pub(crate) mod stats;
