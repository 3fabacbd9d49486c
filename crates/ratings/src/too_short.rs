//! Games too short to say anything about their players' strength (docs/ratings.md#what-is-rated):
//! a game given up (resigned, or left to the abandonment) before each player has made
//! [`LEAST_TURNS`] turns is not rated, whatever the rest of the rules say.
//!
//! Issue 41, finding 4: 14 rated games against two puppet accounts, each resigned after
//! one move, took an account from 1500 to 2057 in a second. lichess does not rate a game
//! aborted before both players moved, which already held here; a resignation after one
//! move each is the next cheapest result to make, and as little a game. A game won on the
//! board (no move, emitwe-ebiri, akawumbi, akakyala, captures) is rated however short:
//! the board decided it.

use omweso_rules::Victory;

/// Turns each player must have made for a game they gave up to be rated.
pub const LEAST_TURNS: u32 = 3;

/// Whether a game won by `victory`, each side having made `turns` whole turns, is too
/// short to rate.
#[must_use]
pub fn too_short_to_rate(victory: Victory, turns: [u32; 2]) -> bool {
    given_up(victory) && turns.iter().any(|&t| t < LEAST_TURNS)
}

/// As [`too_short_to_rate`], from the turns of both sides together (a tournament's sheet
/// keeps their sum): fewer than twice [`LEAST_TURNS`] cannot have given each its share.
#[must_use]
pub fn too_short_to_rate_in_all(victory: Victory, turns: u32) -> bool {
    given_up(victory) && turns < 2 * LEAST_TURNS
}

const fn given_up(victory: Victory) -> bool {
    matches!(victory, Victory::Resigned | Victory::Abandoned)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_given_up_early_is_not_rated_and_one_won_on_the_board_is() {
        assert!(too_short_to_rate(Victory::Resigned, [1, 1]));
        assert!(too_short_to_rate(Victory::Resigned, [3, 2]));
        assert!(too_short_to_rate(Victory::Abandoned, [2, 3]));
        assert!(!too_short_to_rate(Victory::Resigned, [3, 3]));
        assert!(!too_short_to_rate(Victory::EmitweEbiri, [1, 0]));
        assert!(!too_short_to_rate(Victory::NoMove, [2, 2]));
        assert!(too_short_to_rate_in_all(Victory::Resigned, 5));
        assert!(!too_short_to_rate_in_all(Victory::Resigned, 6));
        assert!(!too_short_to_rate_in_all(Victory::Captures, 2));
    }
}
