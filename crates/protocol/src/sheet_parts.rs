//! What a score sheet and a board table's entries share (docs/protocol.md#tournaments):
//! a number for each player of a pairing, and a player's dispute. Apart from both so that
//! `tournament` (the sheets) and `over_the_board` (the entries) each use it without using
//! each other.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// A number for the first and the second player of a pairing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PerPlayer<T> {
    pub first: T,
    pub second: T,
}

/// A player's dispute.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DisputeView {
    pub by: Uuid,
    pub reason: String,
    pub at_ms: u64,
}
