//! A game's configuration: ruleset, setup and time control, with the documented presets.

use omweso_rules::{Preset, Ruleset};
use serde::{Deserialize, Serialize};

/// The most seeds the server sows in one turn, whatever the time control; a turn that
/// would sow more is annulled as `budget` (docs/rules.md#4-play-under-the-referee-server-rules). About seven times the longest turn
/// that ended in random play (about 3,000 seeds, docs/rules.md#14-never-ending-turns), and 28 times the 720 seeds
/// of the 3-minute limit at 4 seeds a second. Playing such a turn takes about 0.1 ms
/// (docs/security.md); without the cap, a free-setup turn of 451 million laps ran the
/// server out of memory.
pub const TURN_SEED_CAP: u64 = 20_000;

/// How the seeds are placed at the start (Omweso; Mweiso and Oware have one start).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SetupKind {
    Outer,
    Even,
    /// Each player arranges their 32 seeds, the first player first (docs/rules.md#11-setup).
    Free,
}

impl SetupKind {
    #[must_use]
    pub const fn preset(self) -> Option<Preset> {
        match self {
            SetupKind::Outer => Some(Preset::Outer),
            SetupKind::Even => Some(Preset::Even),
            SetupKind::Free => None,
        }
    }
}

/// The referee's timing (docs/rules.md#4-play-under-the-referee-server-rules). Durations are milliseconds on the wire of the store;
/// the API speaks seconds.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct TimeControl {
    /// The referee count: seconds a player has to start their turn before it may be stolen;
    /// `None`: no count.
    pub referee_seconds: Option<f64>,
    /// The move-completion limit in seconds; `None`: off (only never-ending turns annul).
    pub move_limit_seconds: Option<f64>,
    /// Seeds a second the table sows at (4: a brisk hand).
    pub sowing_pace: f64,
    /// The optional akakyala victory (Omweso).
    pub akakyala: bool,
    /// Seconds after the steal opens with neither player moving before the absent player
    /// loses.
    pub abandon_seconds: f64,
    /// Seconds a seated player may stay disconnected during play before losing.
    pub disconnect_grace_seconds: f64,
    /// The arrangement limit of a free setup (docs/rules.md#11-setup): seconds each player has to
    /// arrange their seeds before they are given the `outer` arrangement; `None`: no limit.
    /// Absent from configurations stored before the limit existed (none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arrange_seconds: Option<f64>,
}

impl TimeControl {
    /// `tournament`: referee count 3 s, limit 3 min at 4 seeds a second, akakyala on, two
    /// minutes for each player to arrange a free setup.
    pub const TOURNAMENT: TimeControl = TimeControl {
        referee_seconds: Some(3.0),
        move_limit_seconds: Some(180.0),
        sowing_pace: 4.0,
        akakyala: true,
        abandon_seconds: 60.0,
        disconnect_grace_seconds: 60.0,
        arrange_seconds: Some(120.0),
    };

    /// `casual` (the default): no referee count, the 3-minute limit kept (so every turn is
    /// computed under a 720-seed budget), akakyala off, two minutes to come back, no
    /// arrangement limit.
    pub const CASUAL: TimeControl = TimeControl {
        referee_seconds: None,
        move_limit_seconds: Some(180.0),
        sowing_pace: 4.0,
        akakyala: false,
        abandon_seconds: 60.0,
        disconnect_grace_seconds: 120.0,
        arrange_seconds: None,
    };

    /// The sowing budget of a turn with `used_ms` of its limit already spent deciding:
    /// what the move-completion limit leaves at the table's pace, and never more than
    /// [`TURN_SEED_CAP`], whatever the time control (docs/rules.md#4-play-under-the-referee-server-rules: no turn can exhaust the
    /// server, even with the limit off or set to a day).
    #[must_use]
    pub fn budget(&self, used_ms: u64) -> u64 {
        let by_limit = self.move_limit_seconds.map_or(u64::MAX, |limit| {
            let left = (limit - used_ms as f64 / 1000.0).max(0.0);
            (left * self.sowing_pace).floor() as u64
        });
        by_limit.min(TURN_SEED_CAP)
    }

    /// Checks the values a client sent.
    pub fn validate(&self) -> Result<(), String> {
        let positive = |name: &str, value: f64, max: f64| {
            if value.is_finite() && value > 0.0 && value <= max {
                Ok(())
            } else {
                Err(format!("{name} must be more than 0 and at most {max}"))
            }
        };
        if let Some(r) = self.referee_seconds {
            positive("referee_seconds", r, 3600.0)?;
        }
        if let Some(l) = self.move_limit_seconds {
            positive("move_limit_seconds", l, 86_400.0)?;
        }
        if let Some(a) = self.arrange_seconds {
            positive("arrange_seconds", a, 3600.0)?;
        }
        positive("sowing_pace", self.sowing_pace, 1000.0)?;
        positive("abandon_seconds", self.abandon_seconds, 86_400.0)?;
        positive(
            "disconnect_grace_seconds",
            self.disconnect_grace_seconds,
            86_400.0,
        )?;
        Ok(())
    }
}

/// Everything fixed when a game is created.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameConfig {
    pub ruleset: Ruleset,
    pub setup: SetupKind,
    pub time_control: TimeControl,
    /// A tournament round's deadline (ms since the epoch): the game, if still going then,
    /// stops and is decided on material (docs/rules.md#53-rounds) by its own referee, to the
    /// millisecond and the same on replay. `None` for a game outside a tournament.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_at_ms: Option<u64>,
    /// A relayed over-the-board table's game (docs/rules.md#57-over-the-board-play-and-relays): its
    /// moves are entered by the table's relay as they are sown on the wooden board, with
    /// no referee count, move limit or abandonment; only the round's deadline stops it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub relayed: bool,
    /// A rated game (docs/rules.md#6-ratings): its result changes both players' ratings
    /// for its ruleset. Only a game between two accounts is rated; a tournament's games
    /// are rated when the tournament is.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
    /// The tournament whose round this game is (`None` outside tournaments): the archive
    /// finds a tournament's games by it, and a tournament game is rated by its sheet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament: Option<uuid::Uuid>,
}

pub fn ms(seconds: f64) -> u64 {
    (seconds * 1000.0).round().max(0.0) as u64
}

/// A time control: a preset's name (`casual`, `tournament`) and fields over it (over
/// `casual` when no preset is named). `referee_seconds`, `move_limit_seconds` and
/// `arrange_seconds` may be `null` (off).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeControlRequest {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preset: Option<String>,
    #[serde(
        default,
        deserialize_with = "nullable",
        skip_serializing_if = "Option::is_none"
    )]
    pub referee_seconds: Option<Option<f64>>,
    #[serde(
        default,
        deserialize_with = "nullable",
        skip_serializing_if = "Option::is_none"
    )]
    pub move_limit_seconds: Option<Option<f64>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sowing_pace: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub akakyala: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abandon_seconds: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disconnect_grace_seconds: Option<f64>,
    /// The arrangement limit of a free setup, seconds; `null`: none (docs/rules.md#11-setup).
    #[serde(
        default,
        deserialize_with = "nullable",
        skip_serializing_if = "Option::is_none"
    )]
    pub arrange_seconds: Option<Option<f64>>,
}

impl TimeControlRequest {
    /// The time control asked for, checked; the refusal says what is wrong.
    pub fn resolve(self) -> Result<TimeControl, String> {
        let mut tc = match self.preset.as_deref() {
            None | Some("casual") => TimeControl::CASUAL,
            Some("tournament") => TimeControl::TOURNAMENT,
            Some(other) => {
                return Err(format!(
                    "unknown preset \"{other}\": expected \"casual\" or \"tournament\""
                ))
            }
        };
        if let Some(r) = self.referee_seconds {
            tc.referee_seconds = r;
        }
        if let Some(l) = self.move_limit_seconds {
            tc.move_limit_seconds = l;
        }
        if let Some(a) = self.arrange_seconds {
            tc.arrange_seconds = a;
        }
        tc.sowing_pace = self.sowing_pace.unwrap_or(tc.sowing_pace);
        tc.akakyala = self.akakyala.unwrap_or(tc.akakyala);
        tc.abandon_seconds = self.abandon_seconds.unwrap_or(tc.abandon_seconds);
        tc.disconnect_grace_seconds = self
            .disconnect_grace_seconds
            .unwrap_or(tc.disconnect_grace_seconds);
        tc.validate()?;
        Ok(tc)
    }
}

/// A field that may be absent (outer `None`) or `null` (inner `None`).
fn nullable<'de, D, T>(deserializer: D) -> Result<Option<Option<T>>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(deserializer).map(Some)
}
