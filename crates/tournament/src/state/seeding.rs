//! A rated tournament's seeding (docs/ratings.md#rated-tournaments, docs/rules.md#54-pairing):
//! the initial order the pairing ranks equal scores in is the rating each player had when
//! seeded, higher first, then registration; persons without an account (no rating) come
//! after every rated player, by registration. The field is seeded before its first pairing
//! and a late joiner before the first pairing after they joined, each with an
//! [`Entry::Seed`] that keeps the ratings, so a replay orders the field the same way.
//!
//! A casual tournament's initial order is registration.

use std::cmp::Reverse;
use std::collections::HashSet;

use crate::log::SeedRating;
use omweso_protocol::tournament::{PlayersChanged, TournamentEvent};

use super::*;

impl Tournament {
    /// The players a pairing must seed first, in registration order: in a rated
    /// tournament, every player not seeded yet who can be paired (not withdrawn).
    #[must_use]
    pub fn to_seed(&self) -> Vec<Uuid> {
        if !self.settings.rated {
            return Vec::new();
        }
        self.players
            .iter()
            .filter(|p| p.seed.is_none() && !p.withdrawn)
            .map(|p| p.id)
            .collect()
    }

    /// Whether a game between `a` and `b` is rated: a rated tournament's game between two
    /// players its seeding found accounts (docs/rules.md#6-ratings).
    #[must_use]
    pub fn rates(&self, a: Uuid, b: Uuid) -> bool {
        let has_rating = |id: Uuid| {
            self.player_index(id)
                .is_some_and(|i| self.players[i].seed_rating.is_some())
        };
        self.settings.rated && has_rating(a) && has_rating(b)
    }

    /// Whether the field has been seeded (a rated tournament's first pairing came).
    #[must_use]
    pub fn seeded(&self) -> bool {
        self.players.iter().any(|p| p.seed.is_some())
    }

    /// The initial order: player indices, the top seed first. Players not seeded yet
    /// (none once the pairing seeded them) follow, by registration.
    #[must_use]
    pub fn initial_order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.players.len()).collect();
        if self.settings.rated {
            order.sort_by_key(|&i| {
                let p = &self.players[i];
                (
                    p.seed.is_none(),
                    p.seed_rating.is_none(),
                    Reverse(p.seed_rating),
                    i,
                )
            });
        }
        order
    }

    /// Seeds the players `ratings` names with the ratings it gives, and places every
    /// seeded player in the initial order again.
    pub(super) fn seed(&mut self, ratings: &[SeedRating]) -> Result<Vec<TournamentEvent>, Refusal> {
        if !self.settings.rated {
            return refuse(
                ErrorCode::BadBody,
                "only a rated tournament seeds its players by rating",
            );
        }
        if ratings.is_empty() {
            return refuse(ErrorCode::BadBody, "a seeding names the players it seeds");
        }
        let mut named = HashSet::with_capacity(ratings.len());
        let mut indices = Vec::with_capacity(ratings.len());
        for seed in ratings {
            let Some(index) = self.player_index(seed.player) else {
                return refuse(
                    ErrorCode::NotInTournament,
                    format!("{} is not a player of this tournament", seed.player),
                );
            };
            if self.players[index].seed.is_some() || !named.insert(seed.player) {
                return refuse(
                    ErrorCode::BadBody,
                    format!("{} is seeded already", self.players[index].name),
                );
            }
            indices.push((index, seed.rating));
        }
        for (index, rating) in indices {
            // A placeholder until the order is known: marks them seeded.
            self.players[index].seed = Some(0);
            self.players[index].seed_rating = rating;
        }
        let order = self.initial_order();
        let mut place = 0;
        for index in order {
            if self.players[index].seed.is_some() {
                place += 1;
                self.players[index].seed = Some(place);
            }
        }
        Ok(vec![TournamentEvent::Players(PlayersChanged {
            players: (0..self.players.len())
                .map(|i| self.player_view(i))
                .collect(),
        })])
    }
}
