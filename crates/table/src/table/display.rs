//! A turn's display time (docs/rules.md#4-play-under-the-referee-server-rules, "When the count starts"): how long every page takes
//! to show a turn being sown. At the board the next player's turn begins when the sowing is
//! over and they can see it; online the server cannot know when a page has finished
//! animating, so it fixes the time itself, from what the turn sowed, and every page
//! finishes showing the turn within it whatever its own animation setting. The next turn's
//! referee count starts when the display time is over.
//!
//! The function is the protocol's (`played.display_ms`, docs/protocol.md): a page may rely
//! on it to pace its animation, so it changes only with the docs.

/// Every turn is shown for at least this long: a page needs a moment to draw the lift and
/// the player a moment to see which pit moved.
pub const DISPLAY_BASE_MS: u64 = 300;
/// Each lap adds this: the hand is lifted again (a relay) or captured seeds fly across.
pub const DISPLAY_PER_LAP_MS: u64 = 150;
/// Each seed sown adds this: about a seed every 60 ms is still readable on a phone.
pub const DISPLAY_PER_SEED_MS: u64 = 60;
/// No turn is shown for longer: a long relay chain is played faster rather than holding
/// the next player's count for tens of seconds (docs/rules.md#4-play-under-the-referee-server-rules: "bounded, e.g. at most 4 s").
pub const DISPLAY_MAX_MS: u64 = 4000;

/// The display time of a turn (or of the part of it up to a decision point) that sowed
/// `seeds` seeds in `laps` laps.
#[must_use]
pub fn display_ms(laps: u64, seeds: u64) -> u64 {
    if laps == 0 {
        return 0;
    }
    DISPLAY_BASE_MS
        .saturating_add(laps.saturating_mul(DISPLAY_PER_LAP_MS))
        .saturating_add(seeds.saturating_mul(DISPLAY_PER_SEED_MS))
        .min(DISPLAY_MAX_MS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_turn_is_shown_briefly() {
        // The opening move of the `outer` start: one lap of 4 seeds.
        assert_eq!(display_ms(1, 4), 300 + 150 + 240);
        // Three laps, 12 seeds: a relay and a capture.
        assert_eq!(display_ms(3, 12), 300 + 450 + 720);
    }

    #[test]
    fn a_long_turn_is_bounded() {
        // Just under the bound, then at it: 300 + 150 * 10 + 60 * 36 = 3,960.
        assert_eq!(display_ms(10, 36), 3_960);
        assert_eq!(display_ms(10, 37), DISPLAY_MAX_MS);
        // The event day's "74 seeds sown in 14 laps".
        assert_eq!(display_ms(14, 74), DISPLAY_MAX_MS);
        // Past any turn the server allows, without overflow.
        assert_eq!(display_ms(u64::MAX, u64::MAX), DISPLAY_MAX_MS);
    }

    #[test]
    fn nothing_sown_is_nothing_to_show() {
        assert_eq!(display_ms(0, 0), 0);
    }

    #[test]
    fn more_sowing_never_shows_for_less() {
        for laps in 1..40 {
            for seeds in 0..200 {
                let t = display_ms(laps, seeds);
                assert!((DISPLAY_BASE_MS..=DISPLAY_MAX_MS).contains(&t));
                assert!(display_ms(laps + 1, seeds) >= t);
                assert!(display_ms(laps, seeds + 1) >= t);
            }
        }
    }
}
