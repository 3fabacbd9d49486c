//! The pushed lobby: [`feed`] is one task for the server that reads the game and
//! tournament lists again when told they changed (coalesced), encodes the `lobby` frame
//! once and publishes it; each lobby socket (`crate::socket::lobby`) sends the latest.
//! The games' own list, which each game's task keeps current, is `crate::game::lobby`.
//! [`changes`] is how the producers (the games' list, the tournaments' tasks) tell the feed
//! a list changed: a leaf both sides import, so no producer names its consumer.

pub mod changes;
pub mod feed;
