//! What the lobby keeps of this node's games under its one lock: the summaries, and the
//! games being created with where they come from, so that a creation's check of the
//! limits and its place among the games being created are one step
//! (`lobby::quota`).

use std::collections::HashMap;

use uuid::Uuid;

use crate::address::AddressKey;
use omweso_protocol::lobby::GameSummary;

/// Under one lock ([`super::games::Lobby`]'s).
#[derive(Debug, Default)]
pub(super) struct Listed {
    pub(super) games: HashMap<Uuid, GameSummary>,
    /// Games being created (checked, not yet in `games`): by creator, and whether
    /// against the computer.
    pub(super) creating: HashMap<(Uuid, bool), usize>,
    /// The address each game against the computer was created from (not known for one
    /// restored after a restart: addresses are not stored).
    pub(super) addresses: HashMap<Uuid, AddressKey>,
    /// Games against the computer being created, by address.
    pub(super) creating_at: HashMap<AddressKey, usize>,
}
