//! The socket's client messages and a game table together: each input line is decoded as
//! a client frame (`protocol::decode`), and every action decoded is played on free-setup
//! Omweso tables (arrangements, moves, decisions, resignation) and on an Oware table
//! (moves, the impasse's proposals and answers), by South, or by North when the line ends
//! with a space, with the clock advancing and the referee's timers ticking between.
//!
//! - `decode` never panics; a refusal has one of the protocol's codes and a message.
//! - `Table::act` never panics. A refused action changes nothing (version and position
//!   unchanged) and its message is bounded; an accepted one raises the version by exactly
//!   its events, and so does `Table::tick`.
//! - An Oware board and its captures always hold 48 seeds (after an agreed impasse too, the
//!   board then empty).
//! - The board always holds 64 seeds, parses back as a `Setup`, and no `played` event
//!   carries more than `MAX_EVENT_LAPS` laps (the hard turn cap holds with the move limit
//!   off: the second table has none).
#![no_main]

use libfuzzer_sys::fuzz_target;
use omweso_protocol::config::{GameConfig, SetupKind, TimeControl};
use omweso_protocol::game::MAX_EVENT_LAPS;
use omweso_protocol::{decode, DecodeError, ErrorCode, Event, Played, Request};
use omweso_rules::{Ruleset, Side};
use omweso_table::table::{Action, Seat, Table};
use serde_json::Value;

/// The codes `decode` answers with (docs/protocol.md).
const DECODE_CODES: [ErrorCode; 3] = [
    ErrorCode::TooLarge,
    ErrorCode::BadMessage,
    ErrorCode::UnknownType,
];

/// `Table`'s refusal messages are cut at 160 characters, plus the `…` that marks the cut.
const REFUSAL_MAX_CHARS: usize = 161;

/// Each line moves the clock on by 0 to 2.8 s (by its length), so that the referee's
/// 3-second count, the steal's abandonment after 60 s and the casual 3-minute move limit
/// can all come due within an input of a few dozen lines.
const STEP_MS: u64 = 400;

fn seat(name: &str, n: u128) -> Seat {
    Seat {
        player: uuid::Uuid::from_u128(n),
        name: name.to_owned(),
    }
}

fn table(ruleset: Ruleset, setup: SetupKind, time_control: TimeControl) -> Table {
    let config = GameConfig {
        ruleset,
        setup,
        time_control,
        stop_at_ms: None,
        relayed: false,
        rated: false,
        tournament: None,
    };
    let mut table = Table::new(uuid::Uuid::nil(), config, seat("S", 1), Side::South, 0);
    let (side, events) = table
        .join(seat("N", 2), 0)
        .expect("the second seat is free");
    assert_eq!(side, Side::North);
    assert_eq!(
        table.version(),
        events.len() as u64,
        "a new table, then the join"
    );
    if setup == SetupKind::Free {
        assert_eq!(
            table.position(),
            None,
            "a free setup has no board before the arrangements"
        );
    }
    table
}

/// The seeds of a position string: the counts of its board, before the side token.
fn seeds_in(position: &str) -> u32 {
    let board = position.split(' ').next().unwrap_or("");
    board
        .split(['/', ','])
        .map(|n| {
            n.parse::<u32>()
                .unwrap_or_else(|e| panic!("{n:?} in {position:?} is not a count: {e}"))
        })
        .sum()
}

fn check_board(table: &Table) {
    if table.config().ruleset == Ruleset::Oware {
        if let Some(position) = table.position() {
            position
                .parse::<omweso_rules::oware::Position>()
                .unwrap_or_else(|e| panic!("{position:?} is not an Oware position: {e}"));
            if table.impasse_view().is_some_and(|i| i.split.is_some()) {
                assert!(
                    position.starts_with("0,0,0,0,0,0/0,0,0,0,0,0 "),
                    "{position:?}: an agreed impasse leaves the board empty"
                );
            }
        }
        return;
    }
    if let Some(position) = table.position() {
        position
            .parse::<omweso_rules::Setup>()
            .unwrap_or_else(|e| panic!("{position:?} does not parse back: {e}"));
        assert_eq!(
            seeds_in(&position),
            64,
            "{position:?} does not hold 64 seeds"
        );
    }
}

fn check_events(events: &[(u64, Event)]) {
    for (_, event) in events {
        if let Event::Played(Played { laps, .. }) = event {
            assert!(
                laps.len() <= MAX_EVENT_LAPS,
                "a played event carries {} laps",
                laps.len()
            );
        }
    }
}

fn check_decoded(line: &str, decoded: &Result<Request, DecodeError>) {
    match decoded {
        Ok(request) => assert!(
            matches!(request.id, None | Some(Value::String(_) | Value::Number(_))),
            "{line:?} decoded with the id {:?}",
            request.id
        ),
        Err(refused) => {
            assert!(
                DECODE_CODES.contains(&refused.code),
                "{line:?} refused with the code {:?}",
                refused.code
            );
            assert!(
                !refused.message.is_empty(),
                "{line:?} refused without a message"
            );
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // The whole input as one frame too (JSON allows newlines between tokens).
    check_decoded(text, &decode(text));

    // Each line once: who sends it, how far the clock moves first, and its action.
    let mut turns: Vec<(Side, u64, Action)> = Vec::new();
    for line in text.lines() {
        let decoded = decode(line);
        check_decoded(line, &decoded);
        let Some(action) = decoded
            .ok()
            .and_then(|Request { message, .. }| Action::from_message(message))
        else {
            continue;
        };
        // A trailing space (which JSON ignores) makes the line North's.
        let side = if line.ends_with(' ') {
            Side::North
        } else {
            Side::South
        };
        turns.push((side, (line.len() % 8) as u64 * STEP_MS, action));
    }
    if turns.is_empty() {
        return;
    }

    // The casual preset as it is (720-seed budget), and with the move limit off (so only
    // the hard cap of 20,000 seeds bounds a turn) and a 3-second referee count.
    let mut unlimited = TimeControl::CASUAL;
    unlimited.move_limit_seconds = None;
    unlimited.referee_seconds = Some(3.0);
    for mut table in [
        table(Ruleset::Omweso, SetupKind::Free, TimeControl::CASUAL),
        table(Ruleset::Omweso, SetupKind::Free, unlimited),
        table(Ruleset::Oware, SetupKind::Outer, TimeControl::CASUAL),
    ] {
        let mut now = 0u64;
        for (side, step, action) in &turns {
            now += step;
            let (version, position) = (table.version(), table.position());
            match table.act(*side, action, now) {
                Err(refusal) => {
                    assert!(
                        !refusal.message.is_empty(),
                        "{action:?} refused without a message"
                    );
                    assert!(
                        refusal.message.chars().count() <= REFUSAL_MAX_CHARS,
                        "a refusal of {} characters",
                        refusal.message.chars().count()
                    );
                    assert_eq!(
                        table.version(),
                        version,
                        "refusing {action:?} changed the version"
                    );
                    assert_eq!(
                        table.position(),
                        position,
                        "refusing {action:?} changed the board"
                    );
                }
                Ok(events) => {
                    assert_eq!(
                        table.version(),
                        version + events.len() as u64,
                        "{action:?} gave {} events",
                        events.len()
                    );
                    check_events(&events);
                }
            }
            check_board(&table);

            let version = table.version();
            let fired = table.tick(now);
            assert_eq!(
                table.version(),
                version + fired.len() as u64,
                "tick at {now}"
            );
            check_events(&fired);
            check_board(&table);
        }
    }
});
