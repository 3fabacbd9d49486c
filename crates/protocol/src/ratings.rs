//! Ratings on the wire (docs/protocol.md#ratings-addition; docs/ratings.md): a player's
//! rating per ruleset, its history, the leaderboards, and the badge a seat shows.

use omweso_rules::Ruleset;
use serde::{Deserialize, Serialize};

/// A player's rating in one ruleset, as it stands now (its deviation grown by the time
/// since the player's last rated game): `PlayerPage.ratings`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RatingView {
    pub ruleset: Ruleset,
    pub rating: i32,
    pub deviation: i32,
    /// The deviation is 110 or more: shown with a "?".
    pub provisional: bool,
    /// Rated games counted.
    pub games: u32,
}

/// A rating as a seat shows it: `1623`, or `1500?` when provisional.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RatingBadge {
    pub rating: i32,
    pub provisional: bool,
}

/// The lobby's ratings of a game's seats (`GameSummary.ratings`): each seat's person's
/// rating in the game's ruleset, absent for a seat that is empty, the computer's, or a
/// guest's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatRatings {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub s: Option<RatingBadge>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub n: Option<RatingBadge>,
}

impl SeatRatings {
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.s.is_none() && self.n.is_none()
    }
}

/// One seat's rating as a game shows it: the rating (while the game is played, as it
/// stands; once a rated game is over, the rating it was played at) and what the result did
/// to it, once it is rated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatRating {
    pub rating: RatingBadge,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating_change: Option<i32>,
}

/// `ratings` on a game's socket (addition, docs/protocol.md#ratings-addition): the seats'
/// ratings as they now stand, sent when they change after the game ended (a tournament's
/// sheet rated it, a correction rated it again) and to a socket resuming a rated game that
/// is over. `null` for a seat without a rating (a guest's, the computer's).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatRatingsNow {
    pub s: Option<SeatRating>,
    pub n: Option<SeatRating>,
}

/// `GET /api/players/{username}/rating-history`: each rated result's rating after it,
/// oldest first, per ruleset the player is rated in.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RatingHistory {
    pub rulesets: Vec<RulesetHistory>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RulesetHistory {
    pub ruleset: Ruleset,
    pub points: Vec<RatingPoint>,
}

/// The rating and deviation right after a rated result played at `at_ms`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RatingPoint {
    pub at_ms: i64,
    pub rating: i32,
    pub deviation: i32,
}

/// `GET /api/leaderboards/{ruleset}`: the best established (not provisional) ratings,
/// best first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Leaderboard {
    pub ruleset: Ruleset,
    pub entries: Vec<LeaderboardEntry>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeaderboardEntry {
    /// 1 for the best; equal ratings share no rank (the earlier to reach it first).
    pub rank: u32,
    pub username: String,
    pub name: String,
    pub rating: i32,
    pub deviation: i32,
    pub games: u32,
}

/// `GET /api/tournaments/{id}/ratings`: the current rating of each of a tournament's players
/// in its ruleset (the tournament page shows them beside the names, with the provisional
/// mark), for those who have one; guests and accounts never rated are absent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentRatings {
    pub ruleset: Ruleset,
    pub players: Vec<PlayerRating>,
}

/// One player's rating in [`TournamentRatings`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerRating {
    pub player_id: uuid::Uuid,
    pub rating: RatingBadge,
}
