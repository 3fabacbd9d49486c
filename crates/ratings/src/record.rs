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
            let previous = ratings.get(&person);
            let games = previous.map_or(0, |r| r.games);
            // A result rated late may be older than the player's last game: their last
            // game stays the latest, or the next one would grow the deviation by an
            // inactivity that never was.
            let last_played_ms =
                previous.map_or(played.at_ms, |r| r.last_played_ms.max(played.at_ms));
            let after = Rating {
                glicko: after,
                games: games.saturating_add(1),
                last_played_ms,
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

    #[test]
    fn a_result_rated_late_keeps_the_last_game_the_latest() {
        let (a, b, c) = (Uuid::from_u128(1), Uuid::from_u128(2), Uuid::from_u128(3));
        let day = 86_400_000;
        // a plays b on day 100, then a result of day 10 against c is rated late (a board
        // table's sheet entered afterwards), then a plays b again on day 101.
        let record = [
            played(1, a, b, Some(Score::SouthWon), 100 * day),
            played(2, a, c, Some(Score::Draw), 10 * day),
            played(3, a, b, Some(Score::NorthWon), 101 * day),
        ];
        let mut ratings = HashMap::new();
        let changes = replay(&mut ratings, &record);
        let a1 = Glicko::START.after_game(&Glicko::START, 1.0);
        let b1 = Glicko::START.after_game(&Glicko::START, 0.0);
        // The late result is rated from a's values as they stand (no inactivity: its day
        // is before a's last game), and leaves a's last game on day 100.
        assert_eq!(changes[2].before, a1);
        let a2 = a1.after_game(&Glicko::START, 0.5);
        assert_eq!(changes[2].after.glicko, a2);
        assert_eq!(changes[2].after.last_played_ms, 100 * day);
        // c's first game is the one of day 10.
        assert_eq!(changes[3].after.last_played_ms, 10 * day);
        // So the game of day 101 grows a's deviation by one day, not by 91.
        assert_eq!(changes[4].before, a2.after_inactivity(day));
        assert_ne!(changes[4].before, a2.after_inactivity(91 * day));
        assert_eq!(changes[5].before, b1.after_inactivity(day));
        assert_eq!(
            changes[4].after.glicko,
            a2.after_inactivity(day)
                .after_game(&b1.after_inactivity(day), 0.0)
        );
        assert_eq!(ratings[&a].last_played_ms, 101 * day);
        assert_eq!(ratings[&a].games, 3);
        assert_eq!(ratings[&c].last_played_ms, 10 * day);
        // The figures: a's deviation after the draw grows by under 0.1 in the one day
        // (sqrt(phi^2 + 0.21436 * 0.09^2) * 173.7178), where 91 days would make it 351.6.
        assert_eq!(
            (
                (a2.deviation * 10.0).round(),
                (changes[4].before.deviation * 10.0).round(),
                (a2.after_inactivity(91 * day).deviation * 10.0).round()
            ),
            (3448.0, 3448.0, 3516.0)
        );
    }
}
