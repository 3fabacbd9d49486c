//! A tournament's settings (docs/rules.md#5-tournaments): what the director chose at creation, every
//! default filled in, checked once, and stored in the log's first entry.

use omweso_protocol::over_the_board::PlayedAt;
use omweso_rules::{Outcome, Ruleset, Victory};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::standings::{Milli, PointsTable};
use omweso_protocol::config::{GameConfig, SetupKind, TimeControl};
use omweso_protocol::tournament::{NewTournament, PointsRequest, PointsView, SettingsView, System};

/// The longest tournament name, in characters.
pub const MAX_NAME_CHARS: usize = 80;
/// The most rounds a Swiss may have.
pub const MAX_ROUNDS: u32 = 30;
/// The default round time limit (docs/rules.md#5-tournaments).
pub const DEFAULT_ROUND_MINUTES: f64 = 15.0;
/// The longest round time, in minutes (a day).
pub const MAX_ROUND_MINUTES: f64 = 24.0 * 60.0;
/// The shortest round time, in minutes (docs/rules.md#4-play-under-the-referee-server-rules, 5.3). A round must fit a game's
/// worst legal moments: one turn may take the whole 3-minute move limit, and a player who
/// never comes loses by abandonment only after the 60 s disconnect grace and the 60 s
/// abandonment wait; 3 + 1 + 1 = 5 minutes, below which a round can end on material
/// before a single slow turn or a no-show could be decided. A server may lower it for
/// tests and demonstrations (`OMWESO_MIN_ROUND_MINUTES`), which is why
/// [`Settings::from_request`] is given it as a parameter.
pub const MIN_ROUND_MINUTES: f64 = 5.0;
/// The default number of Swiss rounds.
pub const DEFAULT_ROUNDS: u32 = 5;
/// The most forbidden pairs.
pub const MAX_FORBIDDEN_PAIRS: usize = 1000;

/// Everything fixed when a tournament is created.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    pub name: String,
    pub game: GameConfig,
    pub system: System,
    /// Swiss rounds (a round-robin's number of rounds comes from its field).
    pub rounds: u32,
    pub round_minutes: f64,
    pub balance_first_move: bool,
    pub points: PointsTable,
    pub forbidden_pairs: Vec<[Uuid; 2]>,
    /// The federation the TRF names (three capital letters), if the director set one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub federation: Option<String>,
    /// Where the tables are played unless the director says otherwise for a round or a
    /// table (docs/rules.md#57-over-the-board-play-and-relays).
    #[serde(default, skip_serializing_if = "PlayedAt::is_online")]
    pub played_at: PlayedAt,
    /// Rated (docs/ratings.md#rated-tournaments): seeded by rating at the first pairing,
    /// and the games between two seeded accounts rated from their sheets. Each game's
    /// own `GameConfig::rated` is set at the round's start for its two players, so
    /// `game.rated` here stays false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
}

impl Settings {
    /// The settings a creation request asks for, defaults filled in, checked; the refusal
    /// says what is wrong. `min_round_minutes`: the server's shortest round
    /// ([`MIN_ROUND_MINUTES`] unless lowered for tests).
    pub fn from_request(
        request: NewTournament,
        min_round_minutes: f64,
    ) -> Result<Settings, String> {
        let Some(name) = request
            .name
            .as_deref()
            .map(str::trim)
            .filter(|n| !n.is_empty())
        else {
            return Err("a tournament needs a name".into());
        };
        // The name reaches every lobby, page and export: the players' name rules, so that
        // no bidi or invisible character turns it around or makes two alike.
        let name = omweso_people::clean_text(name, MAX_NAME_CHARS, "a tournament name")?;
        let ruleset = request.ruleset.unwrap_or(Ruleset::Omweso);
        let time_control = match request.time_control {
            Some(tc) => tc.resolve()?,
            None => TimeControl::TOURNAMENT,
        };
        let setup = match (ruleset, request.setup) {
            // Omweso as its players know it: each arranges their seeds, under the
            // arrangement limit of the time control (docs/rules.md#11-setup); a time control without
            // one (a custom one over `casual`) starts from the outer row unless the
            // director asks for the free setup, which is then refused below.
            (Ruleset::Omweso, setup) => {
                setup.unwrap_or(if time_control.arrange_seconds.is_some() {
                    SetupKind::Free
                } else {
                    SetupKind::Outer
                })
            }
            (_, None | Some(SetupKind::Outer)) => SetupKind::Outer,
            (_, Some(_)) => {
                return Err(format!(
                    "{ruleset} has one start; setup presets are for omweso"
                ))
            }
        };
        check_event_timing(&time_control)?;
        if setup == SetupKind::Free && time_control.arrange_seconds.is_none() {
            // Without a limit a player who sits at the board and never arranges would hold
            // the game until the round's end (docs/rules.md#11-setup).
            return Err("a free setup in a tournament needs an arrangement limit: set time_control.arrange_seconds (the tournament preset gives 120), or choose setup outer or even".into());
        }
        let system = request.system.unwrap_or(System::Swiss);
        let rounds = request.rounds.unwrap_or(DEFAULT_ROUNDS);
        if system == System::Swiss && !(1..=MAX_ROUNDS).contains(&rounds) {
            return Err(format!("rounds must be from 1 to {MAX_ROUNDS}"));
        }
        let round_minutes = request.round_minutes.unwrap_or(DEFAULT_ROUND_MINUTES);
        check_round_minutes(round_minutes, min_round_minutes)?;
        let points = match request.points {
            Some(asked) => points_table(asked)?,
            None => PointsTable::default(),
        };
        // Left out: none (the documented default, not a value made up for bad input).
        let forbidden_pairs = request.forbidden_pairs.unwrap_or_default();
        if forbidden_pairs.len() > MAX_FORBIDDEN_PAIRS {
            return Err(format!("at most {MAX_FORBIDDEN_PAIRS} forbidden pairs"));
        }
        if let Some([a, _]) = forbidden_pairs.iter().find(|[a, b]| a == b) {
            return Err(format!("forbidden pair of {a} with itself"));
        }
        let federation = request.federation.as_deref().map(federation).transpose()?;
        Ok(Settings {
            name,
            game: GameConfig {
                ruleset,
                setup,
                time_control,
                stop_at_ms: None,
                relayed: false,
                rated: false,
                tournament: None,
            },
            system,
            rounds,
            round_minutes,
            balance_first_move: request.balance_first_move.unwrap_or(true),
            points,
            forbidden_pairs,
            federation,
            played_at: request.played_at.unwrap_or_default(),
            rated: request.rated.unwrap_or(false),
        })
    }

    /// The round time limit in milliseconds.
    #[must_use]
    pub fn round_ms(&self) -> u64 {
        omweso_protocol::config::ms(self.round_minutes * 60.0)
    }

    #[must_use]
    pub fn oware(&self) -> bool {
        self.game.ruleset == Ruleset::Oware
    }

    /// Why a director's correction names a victory this tournament's games cannot end
    /// with (akawumbi in Oware, captures or impasse in Omweso, akakyala with the rule off), or
    /// `None`.
    #[must_use]
    pub fn impossible_victory(&self, outcome: &Outcome) -> Option<String> {
        let Outcome::Win { victory, .. } = *outcome else {
            return None;
        };
        let ruleset = self.game.ruleset;
        let possible = match victory {
            Victory::Resigned | Victory::Abandoned | Victory::Adjudicated => true,
            Victory::Captures | Victory::Impasse => ruleset == Ruleset::Oware,
            Victory::NoMove | Victory::EmitweEbiri => ruleset != Ruleset::Oware,
            Victory::Akawumbi => ruleset == Ruleset::Omweso,
            Victory::Akakyala => ruleset == Ruleset::Omweso && self.game.time_control.akakyala,
        };
        (!possible).then(|| {
            let rule = if victory == Victory::Akakyala && ruleset == Ruleset::Omweso {
                " (the akakyala rule is off in this tournament)"
            } else {
                ""
            };
            format!(
                "a game of {} cannot be won by {}{rule}",
                ruleset.name(),
                victory.name()
            )
        })
    }

    /// A double round-robin: pairs meet twice.
    #[must_use]
    pub fn meetings_allowed(&self) -> usize {
        if self.system == System::DoubleRoundRobin {
            2
        } else {
            1
        }
    }

    /// As the snapshot shows them.
    #[must_use]
    pub fn view(&self, rounds_planned: u32) -> SettingsView {
        let p = &self.points;
        SettingsView {
            name: self.name.clone(),
            ruleset: self.game.ruleset,
            setup: self.game.setup,
            time_control: self.game.time_control,
            system: self.system,
            rounds: rounds_planned,
            round_minutes: self.round_minutes,
            balance_first_move: self.balance_first_move,
            points: PointsView {
                win: points(p.win),
                emitwe_ebiri: points(p.emitwe_ebiri),
                akakyala: points(p.akakyala),
                akawumbi: points(p.akawumbi),
                draw: points(p.draw),
                loss: points(p.loss),
                bye: points(p.bye),
                annulled: points(p.annulled),
                forfeit_win: points(p.forfeit_win),
                forfeit_loss: points(p.forfeit_loss),
            },
            forbidden_pairs: self.forbidden_pairs.clone(),
            federation: self.federation.clone(),
            played_at: self.played_at,
            rated: self.rated,
        }
    }
}

/// A federation as TRF writes it: a FIDE code of three letters ("uga" reads as "UGA").
fn federation(text: &str) -> Result<String, String> {
    let code = text.trim().to_ascii_uppercase();
    if code.len() == 3 && code.bytes().all(|b| b.is_ascii_uppercase()) {
        Ok(code)
    } else {
        Err(format!(
            "federation must be a FIDE code of three letters (like UGA), not {text:?}"
        ))
    }
}

/// The longest any waiting in a tournament game may be set to, in seconds: the disconnect
/// grace, the abandonment after a steal, the arrangement limit and the move limit. Ten
/// minutes is more than an event needs (the presets say 1 to 3); longer, a no-show's game
/// would hold its place and the server's for as long as the round.
pub const MAX_EVENT_WAIT_SECONDS: f64 = 600.0;

/// Refuses a tournament time control whose waits pass [`MAX_EVENT_WAIT_SECONDS`].
fn check_event_timing(tc: &TimeControl) -> Result<(), String> {
    let waits = [
        (
            "disconnect_grace_seconds",
            Some(tc.disconnect_grace_seconds),
        ),
        ("abandon_seconds", Some(tc.abandon_seconds)),
        ("arrange_seconds", tc.arrange_seconds),
        ("move_limit_seconds", tc.move_limit_seconds),
    ];
    for (name, value) in waits {
        if value.is_some_and(|v| v > MAX_EVENT_WAIT_SECONDS) {
            return Err(format!(
                "{name} in a tournament is at most {MAX_EVENT_WAIT_SECONDS} (ten minutes)"
            ));
        }
    }
    Ok(())
}

/// Refuses a round time out of `min..=`[`MAX_ROUND_MINUTES`], saying why.
fn check_round_minutes(minutes: f64, min: f64) -> Result<(), String> {
    let bounds = format!(
        "round_minutes must be from {} to {}",
        minutes_text(min),
        minutes_text(MAX_ROUND_MINUTES)
    );
    if !minutes.is_finite() {
        return Err(bounds);
    }
    if minutes < min {
        return Err(format!(
            "{bounds}: a round of {} min cannot hold a game (one turn may take 3 minutes, \
             and a player who never comes loses only after 2)",
            minutes_text(minutes)
        ));
    }
    if minutes > MAX_ROUND_MINUTES {
        return Err(format!("{bounds}: a round lasts at most a day"));
    }
    Ok(())
}

/// Minutes as a person writes them: 5, 0.1, 2.5.
fn minutes_text(minutes: f64) -> String {
    let text = format!("{minutes:.3}");
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// Thousandths as points.
#[must_use]
pub fn points(milli: Milli) -> f64 {
    milli as f64 / 1000.0
}

/// The points table asked for over the defaults of docs/rules.md#52-points. Each value is 0 to 100
/// points, in thousandths at most.
fn points_table(request: PointsRequest) -> Result<PointsTable, String> {
    let defaults = PointsTable::default();
    let value = |name: &str, asked: Option<f64>, default: Milli| -> Result<Milli, String> {
        let Some(asked) = asked else {
            return Ok(default);
        };
        let milli = (asked * 1000.0).round();
        if !asked.is_finite() || !(0.0..=100_000.0).contains(&milli) {
            return Err(format!("points.{name} must be from 0 to 100"));
        }
        if (milli - asked * 1000.0).abs() > 1e-6 {
            return Err(format!("points.{name} has more than three decimals"));
        }
        Ok(milli as Milli)
    };
    Ok(PointsTable {
        win: value("win", request.win, defaults.win)?,
        emitwe_ebiri: value("emitwe-ebiri", request.emitwe_ebiri, defaults.emitwe_ebiri)?,
        akakyala: value("akakyala", request.akakyala, defaults.akakyala)?,
        akawumbi: value("akawumbi", request.akawumbi, defaults.akawumbi)?,
        draw: value("draw", request.draw, defaults.draw)?,
        loss: value("loss", request.loss, defaults.loss)?,
        bye: value("bye", request.bye, defaults.bye)?,
        annulled: value("annulled", request.annulled, defaults.annulled)?,
        forfeit_win: value("forfeit-win", request.forfeit_win, defaults.forfeit_win)?,
        forfeit_loss: value("forfeit-loss", request.forfeit_loss, defaults.forfeit_loss)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(name: &str) -> NewTournament {
        NewTournament {
            name: Some(name.into()),
            ..NewTournament::default()
        }
    }

    #[test]
    fn defaults_are_the_contracts() {
        let s = Settings::from_request(named(" Kampala Open "), MIN_ROUND_MINUTES).expect("valid");
        assert_eq!(s.name, "Kampala Open");
        assert_eq!(s.game.ruleset, Ruleset::Omweso);
        assert_eq!(s.game.setup, SetupKind::Free);
        assert_eq!(s.game.time_control, TimeControl::TOURNAMENT);
        assert_eq!(s.game.time_control.arrange_seconds, Some(120.0));
        assert_eq!(s.system, System::Swiss);
        assert_eq!(s.rounds, 5);
        assert_eq!(s.round_ms(), 900_000);
        assert!(s.balance_first_move);
        assert_eq!(s.points, PointsTable::default());
        assert!(s.forbidden_pairs.is_empty());
    }

    /// A custom time control over `casual` has no arrangement limit: such a tournament
    /// starts from the outer row unless it asks for the free setup (then refused).
    #[test]
    fn the_free_setup_is_the_default_only_with_an_arrangement_limit() {
        let custom = NewTournament {
            time_control: Some(omweso_protocol::http::TimeControlRequest {
                referee_seconds: Some(Some(3.0)),
                ..Default::default()
            }),
            ..named("x")
        };
        let s = Settings::from_request(custom, MIN_ROUND_MINUTES).expect("valid");
        assert_eq!(s.game.setup, SetupKind::Outer);
        assert_eq!(s.game.time_control.arrange_seconds, None);
    }

    #[test]
    fn points_are_read_in_thousandths() {
        let mut request = named("x");
        request.points = Some(PointsRequest {
            win: Some(3.0),
            draw: Some(1.25),
            ..PointsRequest::default()
        });
        let s = Settings::from_request(request, MIN_ROUND_MINUTES).expect("valid");
        assert_eq!(s.points.win, 3000);
        assert_eq!(s.points.draw, 1250);
        assert_eq!(s.points.akawumbi, 6000);
        assert_eq!(s.view(5).points.draw, 1.25);
    }

    #[test]
    fn bad_settings_are_refused_saying_why() {
        let cases: Vec<(NewTournament, &str)> = vec![
            (NewTournament::default(), "needs a name"),
            (named(&"x".repeat(81)), "a tournament name is at most 80 characters"),
            (
                named("Club\u{202E}night"),
                "a tournament name cannot hold U+202E (an invisible or direction-changing character)",
            ),
            (
                named("Club\u{200B}night"),
                "a tournament name cannot hold U+200B (an invisible or direction-changing character)",
            ),
            (
                named("Club\u{2028}night"),
                "a tournament name cannot hold U+2028 (a line break)",
            ),
            (named("Club  night"), "a tournament name cannot hold two spaces in a row"),
            (
                NewTournament {
                    rounds: Some(0),
                    ..named("x")
                },
                "rounds must be from 1 to 30",
            ),
            (
                NewTournament {
                    round_minutes: Some(0.05),
                    ..named("x")
                },
                "round_minutes must be from 5 to 1440",
            ),
            (
                NewTournament {
                    ruleset: Some(Ruleset::Oware),
                    setup: Some(SetupKind::Free),
                    ..named("x")
                },
                "one start",
            ),
            (
                NewTournament {
                    setup: Some(SetupKind::Free),
                    time_control: Some(omweso_protocol::http::TimeControlRequest {
                        referee_seconds: Some(Some(3.0)),
                        ..Default::default()
                    }),
                    ..named("x")
                },
                "a free setup in a tournament needs an arrangement limit: set time_control.arrange_seconds (the tournament preset gives 120), or choose setup outer or even",
            ),
            (
                NewTournament {
                    time_control: Some(omweso_protocol::http::TimeControlRequest {
                        preset: Some("tournament".into()),
                        disconnect_grace_seconds: Some(86_400.0),
                        ..Default::default()
                    }),
                    ..named("x")
                },
                "disconnect_grace_seconds in a tournament is at most 600 (ten minutes)",
            ),
            (
                NewTournament {
                    points: Some(PointsRequest {
                        draw: Some(-1.0),
                        ..PointsRequest::default()
                    }),
                    ..named("x")
                },
                "points.draw must be from 0 to 100",
            ),
            (
                NewTournament {
                    points: Some(PointsRequest {
                        win: Some(0.0005),
                        ..PointsRequest::default()
                    }),
                    ..named("x")
                },
                "three decimals",
            ),
        ];
        for (request, expected) in cases {
            let message =
                Settings::from_request(request.clone(), MIN_ROUND_MINUTES).expect_err("refused");
            assert!(message.contains(expected), "{request:?}: {message}");
        }
    }

    /// A tournament's name is normalised like a player's: one spelling for what looks the
    /// same ("e" and a combining acute become "é").
    #[test]
    fn a_tournament_name_is_normalised_to_nfc() {
        let s = Settings::from_request(named("  Cafe\u{301} Open  "), MIN_ROUND_MINUTES)
            .expect("valid");
        assert_eq!(s.name, "Caf\u{e9} Open");
    }

    /// The federation is optional (none by default: the TRF names none), three letters.
    #[test]
    fn a_federation_is_three_letters_or_none() {
        assert_eq!(
            Settings::from_request(named("x"), MIN_ROUND_MINUTES)
                .expect("valid")
                .federation,
            None
        );
        let with = |code: &str| NewTournament {
            federation: Some(code.into()),
            ..named("x")
        };
        let set = Settings::from_request(with(" uga "), MIN_ROUND_MINUTES).expect("valid");
        assert_eq!(set.federation.as_deref(), Some("UGA"));
        assert_eq!(set.view(5).federation.as_deref(), Some("UGA"));
        for bad in ["", "UG", "UGAN", "U1A", "ÜGA"] {
            assert_eq!(
                Settings::from_request(with(bad), MIN_ROUND_MINUTES).expect_err(bad),
                format!("federation must be a FIDE code of three letters (like UGA), not {bad:?}")
            );
        }
    }

    /// A round of 0.1 minute was accepted on an event day: a game was adjudicated after
    /// one stolen move. The floor is 5 minutes, exactly, and the refusal says why.
    #[test]
    fn a_round_must_fit_a_game() {
        let with = |minutes: f64| NewTournament {
            round_minutes: Some(minutes),
            ..named("x")
        };
        assert_eq!(
            Settings::from_request(with(0.1), MIN_ROUND_MINUTES).expect_err("refused"),
            "round_minutes must be from 5 to 1440: a round of 0.1 min cannot hold a game \
             (one turn may take 3 minutes, and a player who never comes loses only after 2)"
        );
        assert!(Settings::from_request(with(4.999), MIN_ROUND_MINUTES).is_err());
        let five = Settings::from_request(with(5.0), MIN_ROUND_MINUTES).expect("5 minutes");
        assert_eq!(five.round_ms(), 300_000);
        assert_eq!(
            Settings::from_request(with(1441.0), MIN_ROUND_MINUTES).expect_err("refused"),
            "round_minutes must be from 5 to 1440: a round lasts at most a day"
        );
        assert_eq!(
            Settings::from_request(with(f64::NAN), MIN_ROUND_MINUTES).expect_err("refused"),
            "round_minutes must be from 5 to 1440"
        );
        // A test server's lowered floor.
        assert_eq!(
            Settings::from_request(with(0.1), 0.1)
                .expect("a test round")
                .round_ms(),
            6_000
        );
    }
}
