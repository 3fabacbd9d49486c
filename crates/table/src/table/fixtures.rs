//! Tables for the table's own tests: both players seated at exact times, or a hand-made
//! board put in place of the start.

use omweso_rules::{Game, Ruleset, Side};
use uuid::Uuid;

use super::super::log::Entry;
use super::{Action, Seat, Table};
use omweso_protocol::config::{GameConfig, SetupKind, TimeControl};

pub(super) fn seat(name: &str) -> Seat {
    Seat {
        player: Uuid::new_v4(),
        name: name.into(),
    }
}

pub(super) fn config(ruleset: Ruleset, setup: SetupKind) -> GameConfig {
    GameConfig {
        ruleset,
        setup,
        time_control: TimeControl::CASUAL,
        stop_at_ms: None,
        relayed: false,
        rated: false,
        tournament: None,
    }
}

/// A game with South seated at 0 and North at 1000, with its log so far.
pub(super) fn seated(ruleset: Ruleset, setup: SetupKind) -> (Table, Vec<(i64, u64, Entry)>) {
    seated_timed(ruleset, setup, TimeControl::CASUAL)
}

/// [`seated`] under the time control `time_control`.
pub(super) fn seated_timed(
    ruleset: Ruleset,
    setup: SetupKind,
    time_control: TimeControl,
) -> (Table, Vec<(i64, u64, Entry)>) {
    let timed = GameConfig {
        time_control,
        ..config(ruleset, setup)
    };
    let (south, north) = (seat("Kato"), seat("Nakato"));
    let mut table = Table::new(Uuid::new_v4(), timed.clone(), south.clone(), Side::South, 0);
    table
        .join(north.clone(), 1_000)
        .expect("the second seat is free");
    let log = vec![
        (
            0,
            0,
            Entry::Create {
                config: timed,
                creator: south,
                side: Side::South,
                presence_logged: true,
                display_count: true,
                computer: None,
            },
        ),
        (
            1,
            1_000,
            Entry::Join {
                seat: north,
                casual: false,
            },
        ),
    ];
    (table, log)
}

/// A game being played from the hand-made `position` (no log: the board was put there).
pub(super) fn on_board(ruleset: Ruleset, position: &str) -> Table {
    let (mut table, _) = seated(ruleset, SetupKind::Outer);
    table.board = Some(Game::parse(ruleset, position).expect("a valid position"));
    table
}

/// Plays `action` for `side` at `at`, logging it.
pub(super) fn act(
    table: &mut Table,
    log: &mut Vec<(i64, u64, Entry)>,
    side: Side,
    action: Action,
    at: u64,
) -> Vec<(u64, omweso_protocol::Event)> {
    let events = table
        .act(side, &action, at)
        .unwrap_or_else(|r| panic!("{action:?} by {side:?} refused: {}", r.message));
    let seq = i64::try_from(log.len()).expect("a short log");
    log.push((seq, at, Entry::Act { side, action }));
    events
}

pub(super) fn mv(notation: &str) -> Action {
    Action::Move {
        notation: notation.into(),
    }
}
