//! A rated tournament's seeding (docs/ratings.md#rated-tournaments): before a pairing, the
//! players not seeded yet are looked up (an account? its rating for the tournament's
//! ruleset now) and logged with an `Entry::Seed`, which keeps the ratings for the sheets,
//! the exports and every replay.

use uuid::Uuid;

use super::persist::unavailable;
use super::Actor;
use crate::tournament::log::{Entry, SeedRating};
use crate::tournament::state::Refusal;

/// The rating of an account that has none yet in the ruleset: a new Glicko-2 rating
/// (docs/rules.md#6-ratings).
pub const NEW_RATING: i32 = 1500;

impl Actor {
    /// Seeds the players a pairing needs seeded first (none in a casual tournament, or
    /// once every player is).
    pub(super) async fn seed_due(&mut self) -> Result<(), Refusal> {
        let players = self.t.to_seed();
        if players.is_empty() {
            return Ok(());
        }
        let ratings = self.seed_ratings(&players).await?;
        self.commit(Entry::Seed { ratings }, Vec::new()).await?;
        Ok(())
    }

    /// Each player's rating now, rounded as the pages show it; `None` for a person
    /// without an account (a guest, or a player a director added by name).
    async fn seed_ratings(&self, players: &[Uuid]) -> Result<Vec<SeedRating>, Refusal> {
        let store = &self.services.store;
        let mut accounts = Vec::with_capacity(players.len());
        for &player in players {
            let person = store.person(player).await.map_err(|error| {
                tracing::error!(tournament = %self.t.id(), %error, "could not read a player to seed");
                unavailable()
            })?;
            if person.is_some_and(|p| p.username.is_some()) {
                accounts.push(player);
            }
        }
        let ratings = self.current_ratings(&accounts).await?;
        Ok(players
            .iter()
            .map(|&player| SeedRating {
                player,
                rating: accounts
                    .contains(&player)
                    .then(|| ratings.get(&player).copied().unwrap_or(NEW_RATING)),
            })
            .collect())
    }

    /// The current ratings of `accounts` in the tournament's ruleset, rounded as the pages
    /// show them (absent: none yet).
    async fn current_ratings(
        &self,
        accounts: &[Uuid],
    ) -> Result<std::collections::HashMap<Uuid, i32>, Refusal> {
        let ruleset = self.t.settings().game.ruleset;
        let now = i64::try_from(omweso_protocol::clock::now_ms()).unwrap_or(i64::MAX);
        let ratings = self
            .services
            .store
            .ratings_of(accounts, ruleset)
            .await
            .map_err(|error| {
                tracing::error!(tournament = %self.t.id(), %error, "could not read the ratings to seed");
                unavailable()
            })?;
        Ok(ratings
            .into_iter()
            .map(|(person, rating)| (person, rating.badge(now).rating))
            .collect())
    }
}
