//! The record of rated results replayed into ratings: the one computation behind a game's
//! end, a sheet's result, a correction and `omweso admin rerate`, so that every path gives
//! the same values to the bit (docs/ratings.md#corrections).

use std::collections::HashMap;

use uuid::Uuid;

use super::glicko::{Glicko, Score};
use super::rating::Rating;

/// One rated result of the record, in its place (`seq`) among its ruleset's.
#[derive(Clone, Debug, PartialEq)]
pub struct Played {
    pub seq: i64,
    /// The game's id, or the board table's sheet id.
    pub key: Uuid,
    pub south: Uuid,
    pub north: Uuid,
    /// `None`: not counted (annulled by a correction); it stays in the record.
    pub score: Option<Score>,
    pub at_ms: i64,
}

/// What one counted result did to one of its players: the line of the rating history.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    pub seq: i64,
    pub key: Uuid,
    pub person: Uuid,
    pub at_ms: i64,
    /// The values the game was rated from (grown by the player's inactivity).
    pub before: Glicko,
    /// The player's rating after it.
    pub after: Rating,
}

impl Change {
    /// The change of the rating as shown: the rounded rating after less the rounded
    /// rating before (so that a seat's 1500 +12 shows 1512).
    #[must_use]
    pub fn shown(&self) -> i32 {
        super::rating::rounded(self.after.glicko.rating)
            - super::rating::rounded(self.before.rating)
    }
}

/// Rates `results` in order (each one rating period: both players from their values
/// before it), starting from `ratings` (each player's rating before the first of them;
/// absent: a new player), which end up as the players' ratings after the last. Returns
/// the history lines, two for each counted result, south's first.
pub fn replay<'a>(
    ratings: &mut HashMap<Uuid, Rating>,
    results: impl IntoIterator<Item = &'a Played>,
) -> Vec<Change> {
    let mut changes = Vec::new();
    for played in results {
        let Some(score) = played.score else {
            continue;
        };
        let before = |person: &Uuid| {
            ratings
                .get(person)
                .map_or(Glicko::START, |r| r.at(played.at_ms))
        };
        let (south, north) = (before(&played.south), before(&played.north));
        let points = score.south_points();
        let sides = [
            (played.south, south, south.after_game(&north, points)),
            (played.north, north, north.after_game(&south, 1.0 - points)),
        ];
        for (person, before, after) in sides {
            let games = ratings.get(&person).map_or(0, |r| r.games);
            let after = Rating {
                glicko: after,
                games: games.saturating_add(1),
                last_played_ms: played.at_ms,
            };
            ratings.insert(person, after);
            changes.push(Change {
                seq: played.seq,
                key: played.key,
                person,
                at_ms: played.at_ms,
                before,
                after,
            });
        }
    }
    changes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn played(seq: i64, south: Uuid, north: Uuid, score: Option<Score>, at_ms: i64) -> Played {
        Played {
            seq,
            key: Uuid::from_u128(seq as u128),
            south,
            north,
            score,
            at_ms,
        }
    }

    #[test]
    fn each_result_rates_both_players_from_their_values_before_it() {
        let (a, b, c) = (Uuid::from_u128(1), Uuid::from_u128(2), Uuid::from_u128(3));
        let day = 86_400_000;
        let record = [
            played(1, a, b, Some(Score::SouthWon), 0),
            played(2, b, c, None, day),
            played(3, c, a, Some(Score::Draw), 10 * day),
        ];
        let mut ratings = HashMap::new();
        let changes = replay(&mut ratings, &record);
        // The annulled result counts for nobody: two results, four lines.
        assert_eq!(changes.len(), 4);
        let first_a = Glicko::START.after_game(&Glicko::START, 1.0);
        assert_eq!(changes[0].after.glicko, first_a);
        assert_eq!(changes[0].shown(), 241);
        assert_eq!(changes[1].shown(), -241);
        // a played again ten days later: rated from its deviation grown by ten days.
        let a_then = first_a.after_inactivity(10 * day);
        assert_eq!(changes[3].before, a_then);
        assert_eq!(
            changes[3].after.glicko,
            a_then.after_game(&Glicko::START, 0.5)
        );
        assert_eq!(ratings[&a].games, 2);
        assert_eq!(ratings[&b].games, 1);
        assert_eq!(ratings[&c].games, 1);
        assert_eq!(ratings[&a].last_played_ms, 10 * day);
    }
}
