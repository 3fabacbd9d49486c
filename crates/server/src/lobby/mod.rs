//! The pushed lobby: [`feed`] is one task for the server that reads the game and
//! tournament lists again when told they changed (coalesced), encodes the `lobby` frame
//! once and publishes it; each lobby socket (`crate::lobby::socket`) sends the latest.
//! The games' own list, which each game's task keeps current, is `crate::lobby::games`
//! (what it keeps under its lock, `listed`); the limits a new game is checked against
//! there, `quota`; the games other nodes list, `others`, and their exchange over NATS,
//! [`across_nodes`]; the tournaments' lines, read
//! from the store, [`tournaments`].
//! [`changes`] is how the producers (the games' list, the tournaments' tasks) tell the feed
//! a list changed: a leaf both sides import, so no producer names its consumer.

pub mod across_nodes;
pub mod changes;
pub mod feed;
pub mod games;
mod listed;
pub mod others;
pub mod quota;
pub mod socket;
pub mod tournaments;
