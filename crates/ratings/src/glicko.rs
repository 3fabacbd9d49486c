//! Glicko-2 as lichess applies it (docs/rules.md#6-ratings, docs/ratings.md): one game is
//! one rating period, both players updated from their ratings before it; a deviation grows
//! with the time since the player's last rated game, not by a rating period per game.
//!
//! Why not the `skillratings` crate, which has Glicko-2: its one-game update always lets a
//! whole rating period pass before the game (step 6 of Glickman's paper,
//! phi* = sqrt(phi^2 + sigma'^2)), where lichess lets none pass (`skipDeviationIncrease`)
//! and grows the deviation by the days since the player's last game instead
//! (0.21436 rating periods a day, "a typical player's RD goes from 60 to 110 in a year").
//! Its values would differ from lichess's from the first game (two new players: lichess
//! 1741/396, the crate 1741/397 with our start values). The update here takes the elapsed
//! periods as lichess's calculator does; a test checks that with one period it gives the
//! crate's values, so the arithmetic is the maintained crate's, and another that with none
//! it gives lichess's own test values.

/// The Glicko-2 scale factor (Glickman: 173.7178).
pub const SCALE: f64 = 173.7178;
/// The rating every player starts from.
pub const START_RATING: f64 = 1500.0;
/// The deviation every player starts from (lichess: `maxDeviation`).
pub const START_DEVIATION: f64 = 500.0;
/// The volatility every player starts from (lichess: `defaultVolatility`).
pub const START_VOLATILITY: f64 = 0.09;
/// The system constant tau (lichess: 0.75).
pub const TAU: f64 = 0.75;
/// Deviations are kept within [`MIN_DEVIATION`, `MAX_DEVIATION`] (lichess's bounds).
pub const MIN_DEVIATION: f64 = 45.0;
/// See [`MIN_DEVIATION`].
pub const MAX_DEVIATION: f64 = 500.0;
/// Past this a volatility might never settle again (lichess's `maxVolatility`).
pub const MAX_VOLATILITY: f64 = 0.1;
/// No rating goes below this (lichess's `minRating`).
pub const MIN_RATING: f64 = 400.0;
/// A rating is provisional while its deviation is at least this (lichess: 110).
pub const PROVISIONAL_DEVIATION: f64 = 110.0;
/// Rating periods a day of inactivity (lichess: 0.21436).
pub const RATING_PERIODS_PER_DAY: f64 = 0.21436;
/// The volatility's iteration stops when its bracket is this narrow (Glickman's epsilon).
const CONVERGENCE_TOLERANCE: f64 = 0.000_001;
/// The volatility's iteration gives up after this many steps (lichess's `ITERATION_MAX`);
/// it then keeps the volatility it had (never seen with deviations and volatilities
/// within their bounds).
const ITERATION_MAX: u32 = 1000;
/// Milliseconds in a day.
pub const MS_PER_DAY: f64 = 86_400_000.0;

/// A player's Glicko-2 values on the usual (Glicko) scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Glicko {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

/// A game's result for the south player: 1 a win, 0.5 a draw, 0 a loss.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    SouthWon,
    NorthWon,
    Draw,
}

impl Score {
    /// South's score; north's is one minus it.
    #[must_use]
    pub fn south_points(self) -> f64 {
        match self {
            Score::SouthWon => 1.0,
            Score::NorthWon => 0.0,
            Score::Draw => 0.5,
        }
    }

    /// The name stored and shown: `south`, `north`, `draw`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Score::SouthWon => "south",
            Score::NorthWon => "north",
            Score::Draw => "draw",
        }
    }

    /// The score a [`name`](Score::name) spells.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Score> {
        [Score::SouthWon, Score::NorthWon, Score::Draw]
            .into_iter()
            .find(|s| s.name() == name)
    }
}

impl Glicko {
    /// A new player's values: 1500, 500, 0.09.
    pub const START: Glicko = Glicko {
        rating: START_RATING,
        deviation: START_DEVIATION,
        volatility: START_VOLATILITY,
    };

    /// Provisional: the deviation is 110 or more (shown with a "?").
    #[must_use]
    pub fn provisional(&self) -> bool {
        self.deviation >= PROVISIONAL_DEVIATION
    }

    /// These values `elapsed_ms` after the player's last rated game: the deviation grown
    /// as lichess's `previewDeviation` grows it, sqrt(phi^2 + t sigma^2) with t the
    /// elapsed rating periods, then kept within the bounds. No time (or a negative one,
    /// a clock set back) changes nothing, not even the last bit (the square root of a
    /// square need not give the number back).
    #[must_use]
    pub fn after_inactivity(&self, elapsed_ms: i64) -> Glicko {
        if elapsed_ms <= 0 {
            return *self;
        }
        let periods = (elapsed_ms as f64 / MS_PER_DAY) * RATING_PERIODS_PER_DAY;
        let phi = self.deviation / SCALE;
        let grown = (phi * phi + periods * self.volatility * self.volatility).sqrt() * SCALE;
        Glicko {
            deviation: grown.clamp(MIN_DEVIATION, MAX_DEVIATION),
            ..*self
        }
    }

    /// The values after one game against `opponent` (both as they stood at the game, grown
    /// by inactivity), where this player scored `score` (1, 0.5 or 0), kept within
    /// lichess's bounds.
    #[must_use]
    pub fn after_game(&self, opponent: &Glicko, score: f64) -> Glicko {
        let updated = update(self, opponent, score, 0.0);
        Glicko {
            rating: updated.rating.max(MIN_RATING),
            deviation: updated.deviation.clamp(MIN_DEVIATION, MAX_DEVIATION),
            volatility: updated.volatility.min(MAX_VOLATILITY),
        }
    }
}

/// Glickman's steps 2 to 8 for one game, with `elapsed_periods` let pass in step 6
/// (lichess: none), without bounds.
fn update(player: &Glicko, opponent: &Glicko, score: f64, elapsed_periods: f64) -> Glicko {
    let mu = (player.rating - START_RATING) / SCALE;
    let phi = player.deviation / SCALE;
    let mu_j = (opponent.rating - START_RATING) / SCALE;
    let phi_j = opponent.deviation / SCALE;
    let g =
        1.0 / (1.0 + 3.0 * phi_j * phi_j / (std::f64::consts::PI * std::f64::consts::PI)).sqrt();
    let e = 1.0 / (1.0 + (-g * (mu - mu_j)).exp());
    let v = 1.0 / (g * g * e * (1.0 - e));
    let delta = v * g * (score - e);
    let sigma = new_volatility(player.volatility, delta, phi, v).unwrap_or(player.volatility);
    let phi_star = (phi * phi + elapsed_periods * sigma * sigma).sqrt();
    let new_phi = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let new_mu = mu + new_phi * new_phi * g * (score - e);
    Glicko {
        rating: new_mu * SCALE + START_RATING,
        deviation: new_phi * SCALE,
        volatility: sigma,
    }
}

/// Step 5: the new volatility, by the Illinois algorithm; `None` if it did not converge.
fn new_volatility(sigma: f64, delta: f64, phi: f64, v: f64) -> Option<f64> {
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        let d = phi * phi + v + ex;
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (TAU * TAU)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * TAU) < 0.0 {
            k += 1.0;
            if k > f64::from(ITERATION_MAX) {
                return None;
            }
        }
        a - k * TAU
    };
    let mut f_a = f(big_a);
    let mut f_b = f(big_b);
    let mut iterations = 0;
    while (big_b - big_a).abs() > CONVERGENCE_TOLERANCE {
        iterations += 1;
        if iterations > ITERATION_MAX {
            return None;
        }
        let c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(c);
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = c;
        f_b = f_c;
    }
    let sigma = (big_a / 2.0).exp();
    sigma.is_finite().then_some(sigma)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn glicko(rating: f64, deviation: f64, volatility: f64) -> Glicko {
        Glicko {
            rating,
            deviation,
            volatility,
        }
    }

    fn close(found: f64, expected: f64, within: f64) {
        assert!(
            (found - expected).abs() <= within,
            "{found} is not {expected} (within {within})"
        );
    }

    /// A new player (1500, 500, 0.09) beats an established one (1800, 60, 0.06), both as
    /// they stood at the game. Worked by hand (Glickman's steps, tau 0.75, no period let
    /// pass in step 6):
    ///
    /// The winner: mu = 0, phi = 500/173.7178 = 2.8782312, mu_j = 300/173.7178 = 1.7269387,
    /// phi_j = 60/173.7178 = 0.3453877.
    /// g(phi_j) = 1/sqrt(1 + 3 * 0.3453877^2 / pi^2) = 0.9823483;
    /// E = 1/(1 + exp(-0.9823483 * (0 - 1.7269387))) = 0.1549288;
    /// v = 1/(0.9823483^2 * 0.1549288 * 0.8450712) = 7.9148662;
    /// delta = v * g * (1 - E) = 6.5705600.
    /// Volatility (Illinois, 3 steps): sigma' = 0.0900105.
    /// phi' = 1/sqrt(1/2.8782312^2 + 1/7.9148662) = 2.0118810;
    /// mu' = 0 + 2.0118810^2 * 0.9823483 * 0.8450712 = 3.3601864;
    /// rating = 3.3601864 * 173.7178 + 1500 = 2083.724, deviation = 2.0118810 * 173.7178
    /// = 349.500: still provisional (>= 110).
    ///
    /// The loser: mu = 1.7269387, phi = 0.3453877, opponent phi_j = 2.8782312:
    /// g = 1/sqrt(1 + 3 * 2.8782312^2 / pi^2) = 0.5331457;
    /// E = 1/(1 + exp(-0.5331457 * 1.7269387)) = 0.7151868;
    /// v = 1/(0.5331457^2 * 0.7151868 * 0.2848132) = 17.2714369;
    /// delta = v * g * (0 - E) = -6.5855777; sigma' = 0.0600026;
    /// phi' = 1/sqrt(1/0.3453877^2 + 1/17.2714369) = 0.3442011;
    /// mu' = 1.7269387 - 0.3442011^2 * 0.5331457 * 0.7151868 = 1.6817646;
    /// rating = 1792.152, deviation = 59.794: the upset costs the established player
    /// only 7.8 points, since the winner's rating said little (g = 0.53).
    #[test]
    fn a_provisional_player_beats_an_established_one() {
        let new = Glicko::START;
        let established = glicko(1800.0, 60.0, 0.06);
        let winner = new.after_game(&established, 1.0);
        close(winner.rating, 2083.724189, 1e-5);
        close(winner.deviation, 349.499_534, 1e-5);
        close(winner.volatility, 0.090_010_527, 1e-8);
        assert!(new.provisional() && winner.provisional());
        let loser = established.after_game(&new, 0.0);
        close(loser.rating, 1792.152447, 1e-5);
        close(loser.deviation, 59.793_859, 1e-5);
        close(loser.volatility, 0.060_002_608, 1e-8);
        assert!(!loser.provisional());
    }

    /// A draw between 1600 (deviation 80) and 1400 (deviation 120), volatility 0.06 each:
    ///
    /// The stronger: mu = 100/173.7178 = 0.5756462, phi = 0.4605170, mu_j = -0.5756462,
    /// phi_j = 0.6907755; g = 0.9345213; E = 1/(1 + exp(-0.9345213 * 1.1512925))
    /// = 0.7457187; v = 1/(0.9345213^2 * 0.7457187 * 0.2542813) = 6.0385430;
    /// delta = v * g * (0.5 - E) = -1.3866267; sigma' = 0.0599966;
    /// phi' = 1/sqrt(1/0.4605170^2 + 1/6.0385430) = 0.4526372;
    /// mu' = 0.5756462 + 0.4526372^2 * 0.9345213 * (0.5 - 0.7457187) = 0.5285997;
    /// rating 1591.827, deviation 78.631.
    ///
    /// The weaker: g(0.4605170) = 0.9692474; E = 0.2467750; v = 5.7267059;
    /// delta = 1.4055496; sigma' = 0.0599967; phi' = 0.6636786;
    /// mu' = -0.5756462 + 0.6636786^2 * 0.9692474 * 0.2532250 = -0.4675385;
    /// rating 1418.780, deviation 115.293: the less certain rating moves more.
    #[test]
    fn a_draw_moves_both_towards_each_other() {
        let stronger = glicko(1600.0, 80.0, 0.06);
        let weaker = glicko(1400.0, 120.0, 0.06);
        let s = stronger.after_game(&weaker, 0.5);
        let w = weaker.after_game(&stronger, 0.5);
        close(s.rating, 1591.827175, 1e-5);
        close(s.deviation, 78.631_137, 1e-5);
        close(s.volatility, 0.059_996_637, 1e-8);
        close(w.rating, 1418.780243, 1e-5);
        close(w.deviation, 115.292_779, 1e-5);
        close(w.volatility, 0.059_996_664, 1e-8);
    }

    /// lichess's own test (scalachess `GlickoCalculatorTest`, "default deviation: white
    /// wins"): two new players, 1500/500/0.09: the winner 1741, 396, 0.0899983; the loser
    /// 1258. By hand: g(2.8782312) = 0.5331457, E = 0.5, v = 1/(0.5331457^2 * 0.25)
    /// = 14.0723978, sigma' = 0.0899983, phi' = 1/sqrt(1/2.8782312^2 + 1/14.0723978)
    /// = 2.2835301, mu' = 2.2835301^2 * 0.5331457 * 0.5 = 1.3900468: 1741.476, 396.690.
    #[test]
    fn two_new_players_as_lichess_tests_it() {
        let winner = Glicko::START.after_game(&Glicko::START, 1.0);
        let loser = Glicko::START.after_game(&Glicko::START, 0.0);
        close(winner.rating, 1741.475866, 1e-5);
        close(winner.deviation, 396.689_817, 1e-5);
        close(winner.volatility, 0.089_998_300, 1e-8);
        close(loser.rating, 3000.0 - 1741.475866, 1e-5);
        close(loser.deviation, 396.689_817, 1e-5);
    }

    /// A year away: phi = 60/173.7178 = 0.3453877, t = 365 * 0.21436 = 78.2414 periods,
    /// sqrt(0.3453877^2 + 78.2414 * 0.06^2) * 173.7178 = 110.0008: from 60 to 110 in a
    /// year, as lichess chose the rate for. 3000 days from 400 (sigma 0.09):
    /// sqrt(2.3025850^2 + 643.08 * 0.0081) * 173.7178 = 563.1, kept to 500.
    #[test]
    fn the_deviation_grows_with_inactivity_up_to_500() {
        let day = 86_400_000;
        let grown = glicko(1700.0, 60.0, 0.06).after_inactivity(365 * day);
        close(grown.deviation, 110.000_785, 1e-5);
        assert_eq!(grown.rating, 1700.0);
        assert!(grown.provisional());
        assert_eq!(
            glicko(1700.0, 400.0, 0.09)
                .after_inactivity(3000 * day)
                .deviation,
            500.0
        );
        // No time, or a clock set back: nothing grows.
        assert_eq!(
            glicko(1700.0, 60.0, 0.06).after_inactivity(0).deviation,
            60.0
        );
        assert_eq!(
            glicko(1700.0, 60.0, 0.06).after_inactivity(-day).deviation,
            60.0
        );
    }

    /// With one rating period let pass in step 6, the update is the textbook one that the
    /// `skillratings` crate implements: the same values, so the arithmetic is checked
    /// against a maintained implementation too.
    #[test]
    fn with_a_period_let_pass_it_is_skillratings_glicko2() {
        use skillratings::glicko2::{glicko2, Glicko2Config, Glicko2Rating};
        use skillratings::Outcomes;
        let config = Glicko2Config {
            tau: TAU,
            convergence_tolerance: CONVERGENCE_TOLERANCE,
        };
        let cases = [
            (
                glicko(1500.0, 500.0, 0.09),
                glicko(1800.0, 60.0, 0.06),
                Outcomes::WIN,
            ),
            (
                glicko(1600.0, 80.0, 0.06),
                glicko(1400.0, 120.0, 0.06),
                Outcomes::DRAW,
            ),
            (
                glicko(2100.0, 45.0, 0.1),
                glicko(900.0, 300.0, 0.05),
                Outcomes::LOSS,
            ),
        ];
        for (one, two, outcome) in cases {
            let as_crate = |g: &Glicko| Glicko2Rating {
                rating: g.rating,
                deviation: g.deviation,
                volatility: g.volatility,
            };
            let (theirs, _) = glicko2(&as_crate(&one), &as_crate(&two), &outcome, &config);
            let ours = update(&one, &two, outcome.to_chess_points(), 1.0);
            close(ours.rating, theirs.rating, 1e-9);
            close(ours.deviation, theirs.deviation, 1e-9);
            close(ours.volatility, theirs.volatility, 1e-12);
        }
    }

    #[test]
    fn scores_have_names() {
        for score in [Score::SouthWon, Score::NorthWon, Score::Draw] {
            assert_eq!(Score::from_name(score.name()), Some(score));
        }
        assert_eq!(Score::from_name("white"), None);
        assert_eq!(Score::Draw.south_points(), 0.5);
    }
}
