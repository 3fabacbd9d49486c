//! The game's action log: what is stored for every change, and how a game is rebuilt from
//! it after a restart. Replaying the actions with their times through the same
//! [`Table`] gives back the same state and the same event versions.

use omweso_rules::Side;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::table::{Action, RelayAction, Seat, Table};
use omweso_protocol::config::GameConfig;
use omweso_protocol::refusal::Refusal;
use omweso_protocol::Computer;

/// One logged change to a game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Entry {
    Create {
        config: GameConfig,
        creator: Seat,
        side: Side,
        /// The log records presence (`Presence` entries) and the table keeps the
        /// disconnect grace; `false` in logs written before, whose ticks were decided
        /// without it.
        #[serde(default)]
        presence_logged: bool,
        /// The referee count waits for each turn's display time and, on the first turn,
        /// for both players (docs/rules.md#4-play-under-the-referee-server-rules); `false` in logs written before, whose ticks were
        /// decided by the old count.
        #[serde(default)]
        display_count: bool,
        /// The other seat is the computer's, seated with the creation (a game against
        /// the computer); absent otherwise.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        computer: Option<Computer>,
    },
    Join {
        seat: Seat,
        /// The game became casual at this join: it was rated and the player who sat is
        /// not an account ([`Table::make_casual`]); absent otherwise.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        casual: bool,
    },
    Act {
        side: Side,
        action: Action,
    },
    /// The referee's timers fired (a steal, an annulment, an abandonment).
    Tick,
    /// A seated player stayed away too long (logs written before the table kept the
    /// grace; it now fires in a `Tick`).
    Abandon {
        side: Side,
    },
    /// A seat's player came (`here`) or went (their last connection closed): the grace
    /// for coming back runs from these.
    Presence {
        side: Side,
        here: bool,
    },
    /// The game was stopped at its tournament round's deadline and decided on material
    /// (docs/rules.md#53-rounds).
    Adjudicate,
    /// The server restarted and took the game up again from its log
    /// ([`Table::resume`]): the time it was down counts against nobody, nobody is at the
    /// table, and the count waits for both players. Logged so that the next replay
    /// rebuilds the same state and event versions.
    Resume,
    /// The relay of a relayed game entered `action` (docs/rules.md#57-over-the-board-play-and-relays),
    /// an undo among them: replayed in order, they rebuild the same entries to take back.
    Relay {
        action: RelayAction,
    },
}

impl Entry {
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            Entry::Create { .. } => "create",
            Entry::Join { .. } => "join",
            Entry::Act { .. } => "act",
            Entry::Tick => "tick",
            Entry::Abandon { .. } => "abandon",
            Entry::Presence { .. } => "presence",
            Entry::Adjudicate => "adjudicate",
            Entry::Resume => "resume",
            Entry::Relay { .. } => "relay",
        }
    }
}

/// Why a log could not be replayed.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    #[error("the log is empty or does not start with its creation")]
    NoCreate,
    #[error("entry {seq} is a second creation")]
    SecondCreate { seq: i64 },
    /// The table refused the entry on replay; the refusal is the source.
    #[error("entry {seq} was refused on replay: {source}")]
    Refused { seq: i64, source: Refusal },
}

/// Rebuilds a table from its log: `(seq, at_ms, entry)` in order.
pub fn replay(
    id: Uuid,
    entries: impl IntoIterator<Item = (i64, u64, Entry)>,
) -> Result<Table, ReplayError> {
    replay_observed(id, entries, |_, _| {})
}

/// As [`replay`], showing `observe` the table after each entry with the entry's time: what
/// a game file needs to know when play started and when each move was made
/// (the server's archive writes game files with it).
pub fn replay_observed(
    id: Uuid,
    entries: impl IntoIterator<Item = (i64, u64, Entry)>,
    mut observe: impl FnMut(&Table, u64),
) -> Result<Table, ReplayError> {
    let mut entries = entries.into_iter();
    let Some((
        _,
        created,
        Entry::Create {
            config,
            creator,
            side,
            presence_logged,
            display_count,
            computer,
        },
    )) = entries.next()
    else {
        return Err(ReplayError::NoCreate);
    };
    let mut table = Table::new(id, config, creator, side, created);
    // Before the computer is seated: seating it starts the game, whose first count must
    // be the one the log was written under.
    if !presence_logged {
        table.pause_grace();
    }
    if !display_count {
        table.keep_old_count();
    }
    if let Some(computer) = computer {
        table
            .seat_computer(computer, created)
            .map_err(|source| ReplayError::Refused { seq: 0, source })?;
    }
    observe(&table, created);
    for (seq, at, entry) in entries {
        let refused = |source: Refusal| ReplayError::Refused { seq, source };
        match entry {
            Entry::Create { .. } => return Err(ReplayError::SecondCreate { seq }),
            Entry::Join { seat, casual } => {
                table.join(seat, at).map_err(refused)?;
                if casual {
                    table.make_casual();
                }
            }
            Entry::Act { side, action } => {
                table.act(side, &action, at).map_err(refused)?;
            }
            Entry::Tick => {
                table.tick(at);
            }
            Entry::Abandon { side } => {
                table.abandon(side, at);
            }
            Entry::Presence { side, here } => {
                table.set_present(side, here, at);
            }
            Entry::Adjudicate => {
                table.adjudicate(at).map_err(refused)?;
            }
            Entry::Resume => table.resume(at),
            Entry::Relay { action } => {
                table.relay(&action, at).map_err(refused)?;
            }
        }
        observe(&table, at);
    }
    Ok(table)
}

#[cfg(test)]
mod tests {
    use super::*;
    use omweso_protocol::config::{SetupKind, TimeControl};
    use omweso_rules::Ruleset;

    fn seat(name: &str) -> Seat {
        Seat {
            player: Uuid::new_v4(),
            name: name.into(),
        }
    }

    /// A guest's join that made a rated game casual is logged so, and a replay makes the
    /// game casual again (docs/ratings.md#what-is-rated); a join that changed nothing says
    /// nothing of it, as older logs did.
    #[test]
    fn a_join_that_made_the_game_casual_replays_so() {
        let config = GameConfig {
            ruleset: Ruleset::Omweso,
            setup: SetupKind::Outer,
            time_control: TimeControl::CASUAL,
            stop_at_ms: None,
            relayed: false,
            rated: true,
            tournament: None,
        };
        let create = Entry::Create {
            config,
            creator: seat("Kato"),
            side: Side::South,
            presence_logged: true,
            display_count: true,
            computer: None,
        };
        let join = |casual| Entry::Join {
            seat: seat("Nakato"),
            casual,
        };
        let log = |casual| vec![(0, 0, create.clone()), (1, 10, join(casual))];
        let casual = replay(Uuid::new_v4(), log(true)).expect("replays");
        assert!(!casual.config().rated);
        let rated = replay(Uuid::new_v4(), log(false)).expect("replays");
        assert!(rated.config().rated);
        let text = serde_json::to_string(&join(false)).expect("encodes");
        assert!(!text.contains("casual"), "{text}");
        let back: Entry = serde_json::from_str(&text).expect("decodes");
        assert_eq!(back.kind(), "join");
        let text = serde_json::to_string(&join(true)).expect("encodes");
        assert!(text.contains(r#""casual":true"#), "{text}");
    }
}
