//! What the people's routes ask of the tournaments a person is in, declared here and
//! answered by the tournaments (`tournament::for_people`), so that the people's routes name
//! no concern above them: a new name carried to the person's unfinished tournaments
//! (`PATCH /api/me`), and what a code typed at `/link` leads to beyond the device itself
//! (a relay invite; where a director's linked player is now).

use std::future::Future;
use std::pin::Pin;

use uuid::Uuid;

use crate::http::error::ApiError;
use omweso_protocol::accounts::{PlayerPlace, RelayPlace};

/// A future these answers come as (the trait is used as `dyn`).
pub type Answer<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// The tournaments, as the people's routes see them.
pub trait TheirTournaments: Send + Sync {
    /// Carries `person`'s new `name` to the unfinished tournaments they are in (their
    /// standings, pairings and console show it); one that cannot be reached keeps the old
    /// name (logged): the rename itself stands. The rename waits for it, so that its
    /// answer comes once the pages show the new name.
    fn carry_rename<'a>(&'a self, person: Uuid, name: &'a str) -> Answer<'a, ()>;

    /// The open relay invite the code `typed` is (typed at `/link` by a volunteer who could
    /// not scan it): found, not used. `bad_code` when it is none.
    fn relay_invite<'a>(&'a self, typed: &'a str) -> Answer<'a, Result<RelayPlace, ApiError>>;

    /// Where `player` of `tournament` is now, the tournament told that a director's code
    /// linked the player's new device; `None` when the tournament cannot be asked (the
    /// device is linked either way).
    fn linked_player_place(
        &self,
        tournament: Uuid,
        player: Uuid,
    ) -> Answer<'_, Option<PlayerPlace>>;
}
