//! [`Rating`]: a player's rating in one ruleset as the store keeps it, and as it is shown
//! at a given moment (its deviation grown by the time since the player's last rated game).

use omweso_protocol::ratings::{RatingBadge, RatingView};
use omweso_rules::Ruleset;

use super::glicko::Glicko;

/// A player's rating in one ruleset: the values after their last counted game, how many
/// games counted, and when the last one was played.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub glicko: Glicko,
    pub games: u32,
    pub last_played_ms: i64,
}

impl Rating {
    /// The values as they stand at `now_ms`: the deviation grown by the inactivity since
    /// the last game (docs/ratings.md#inactivity).
    #[must_use]
    pub fn at(&self, now_ms: i64) -> Glicko {
        self.glicko
            .after_inactivity(now_ms.saturating_sub(self.last_played_ms))
    }

    /// The rating and the provisional mark as a seat shows them at `now_ms`.
    #[must_use]
    pub fn badge(&self, now_ms: i64) -> RatingBadge {
        badge(&self.at(now_ms))
    }

    /// The player page's line for this rating at `now_ms`.
    #[must_use]
    pub fn view(&self, ruleset: Ruleset, now_ms: i64) -> RatingView {
        let now = self.at(now_ms);
        RatingView {
            ruleset,
            rating: rounded(now.rating),
            deviation: rounded(now.deviation),
            provisional: now.provisional(),
            games: self.games,
        }
    }
}

/// The badge of `glicko` (a rating rounded to the nearest point).
#[must_use]
pub fn badge(glicko: &Glicko) -> RatingBadge {
    RatingBadge {
        rating: rounded(glicko.rating),
        provisional: glicko.provisional(),
    }
}

/// The badge of a player with no rating yet: 1500, provisional.
#[must_use]
pub fn new_player_badge() -> RatingBadge {
    badge(&Glicko::START)
}

/// A rating or deviation as shown: rounded to the nearest whole point. (Ratings stay
/// within [400, a few thousand] and deviations within [45, 500], far inside i32.)
#[must_use]
pub fn rounded(value: f64) -> i32 {
    value.round() as i32
}
