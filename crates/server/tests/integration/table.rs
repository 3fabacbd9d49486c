//! The game table driven directly, with exact times: the referee's steal, decision points,
//! the move limit, free setup, resignation, abandonment.

use omweso_protocol::config::{GameConfig, SetupKind, TimeControl};
use omweso_protocol::{ErrorCode, Event, Frame, Snapshot, Status};
use omweso_rules::{Outcome, Ruleset, Side, Victory};
use omweso_server::game::legal;
use omweso_server::game::table::{Action, Seat, Table};
use uuid::Uuid;

/// The snapshot as the server shows it: with the legal moves the table asks for.
fn snapshot(t: &Table, you: Option<Side>, connected: [bool; 2], spectators: usize) -> Snapshot {
    let legal = legal::list(&t.legal_query());
    t.snapshot(you, connected, spectators, &legal)
}

/// An event's message text, as the server sends it.
fn text(event: &(u64, Event)) -> String {
    Frame::event(event.0, event.1.clone()).to_text()
}

fn seat(name: &str) -> Seat {
    Seat {
        player: Uuid::new_v4(),
        name: name.into(),
    }
}

fn table(ruleset: Ruleset, setup: SetupKind, tc: TimeControl) -> Table {
    let config = GameConfig {
        ruleset,
        setup,
        time_control: tc,
        stop_at_ms: None,
        relayed: false,
        rated: false,
        tournament: None,
    };
    let mut t = Table::new(Uuid::new_v4(), config, seat("Kato"), Side::South, 0);
    // Both players are connected when play begins, on lines so fast that the referee's
    // latency allowance adds nothing: the deadlines below are the rules' own.
    assert!(t.set_present(Side::South, true, 0).is_some());
    assert!(t.set_present(Side::North, true, 500).is_some());
    t.set_latency(Side::South, 0);
    t.set_latency(Side::North, 0);
    t.join(seat("Nakato"), 1_000).unwrap();
    t
}

fn mv(notation: &str) -> Action {
    Action::Move {
        notation: notation.into(),
    }
}

/// A Mweiso table after both opening turns (South `C1` at 1.5 s, North `H4` at 1.8 s),
/// South first in the main phase: the opening never starts clockwise (docs/rules.md#2-mweiso-kagera-murray-1951), and
/// here South's `A1'` (3 seeds to A2, B2, C2, facing C3 and C4) captures directly, so its
/// clockwise chain asks `a`, `c` or `l`. The opening's two turns are versions 3 and 4.
fn opened(tc: TimeControl) -> Table {
    let mut t = table(Ruleset::Mweiso, SetupKind::Even, tc);
    t.act(Side::South, &mv("C1"), 1_500).unwrap();
    t.act(Side::North, &mv("H4"), 1_800).unwrap();
    t
}

fn kinds(events: &[(u64, Event)]) -> Vec<String> {
    events
        .iter()
        .map(|(v, e)| {
            let json: serde_json::Value = serde_json::from_str(&text(&(*v, e.clone()))).unwrap();
            format!("{}@{}", json["t"].as_str().unwrap(), v)
        })
        .collect()
}

#[test]
fn joining_starts_a_preset_game_and_versions_rise_by_one() {
    let config = GameConfig {
        ruleset: Ruleset::Omweso,
        setup: SetupKind::Outer,
        time_control: TimeControl::TOURNAMENT,
        stop_at_ms: None,
        relayed: false,
        rated: false,
        tournament: None,
    };
    let mut t = Table::new(Uuid::new_v4(), config, seat("Kato"), Side::South, 0);
    assert_eq!(t.status(), Status::Setup);
    let (side, events) = t.join(seat("Nakato"), 1_000).unwrap();
    assert_eq!(side, Side::North);
    assert_eq!(kinds(&events), ["joined@1", "started@2"]);
    assert_eq!(t.status(), Status::Playing);
    let snap = snapshot(&t, Some(Side::South), [true, true], 0);
    assert_eq!(
        snap.legal_moves,
        ["A1", "B1", "C1", "D1", "E1", "F1", "G1", "H1"]
    );
    // Nobody is at the table yet: the first turn's count waits for both players.
    assert_eq!(snap.clock.referee_deadline, None);
    assert!(t.tick(60_000).is_empty(), "no steal and no abandonment yet");
    assert!(t.join(seat("third"), 1_000).is_err());
    // South comes: still waiting. North comes at 9 s: the count starts then, 3 s and the
    // whole latency allowance (1 s, nobody's round trip measured yet).
    assert_eq!(t.set_present(Side::South, true, 5_000), Some(vec![]));
    let events = t.set_present(Side::North, true, 9_000).unwrap();
    assert_eq!(kinds(&events), ["count@3"]);
    let Event::Count { clock } = &events[0].1 else {
        panic!("a count event: {events:?}");
    };
    assert_eq!(clock.referee_deadline, Some(13_000));
    assert_eq!(t.next_deadline(), Some(13_000));
    assert!(t.tick(12_999).is_empty());
    assert_eq!(kinds(&t.tick(13_000)), ["steal@4"]);
}

#[test]
fn the_referee_count_opens_the_steal_and_the_first_valid_move_wins() {
    let mut t = table(Ruleset::Omweso, SetupKind::Outer, TimeControl::TOURNAMENT);
    assert!(t.tick(3_999).is_empty());
    // North may not move before the count runs out.
    let refused = t.act(Side::North, &mv("A4"), 3_500).unwrap_err();
    assert_eq!(refused.code, ErrorCode::NotYourTurn);
    let events = t.tick(4_000);
    assert_eq!(kinds(&events), ["steal@3"]);
    assert!(snapshot(&t, None, [true, true], 0).clock.steal_open);
    // North steals: plays its own pits from the same position, marked stolen.
    let events = t.act(Side::North, &mv("A4"), 4_200).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text(&events[0])).unwrap();
    assert_eq!(json["d"]["stolen"], true);
    assert_eq!(json["d"]["by"], "n");
    // Play passes to the player who lost the turn.
    let snap = snapshot(&t, None, [true, true], 0);
    assert_eq!(snap.to_move, Some(Side::South));
    assert!(snap.history[0].stolen);
    // South's count starts once North's stolen A4 (one lap of 4 seeds) has been shown on
    // every page: 300 + 150 + 4 * 60 = 690 ms after it was played.
    assert_eq!(json["d"]["display_ms"], 690);
    assert_eq!(snap.clock.referee_deadline, Some(4_200 + 690 + 3_000));
}

#[test]
fn the_victim_may_still_play_its_own_turn_after_the_steal_opens() {
    let mut t = table(Ruleset::Omweso, SetupKind::Outer, TimeControl::TOURNAMENT);
    t.tick(4_000);
    let events = t.act(Side::South, &mv("E1"), 4_100).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text(&events[0])).unwrap();
    assert_eq!(json["d"]["stolen"], false);
    assert_eq!(
        snapshot(&t, None, [true, true], 0).to_move,
        Some(Side::North)
    );
}

#[test]
fn abandonment_after_the_steal_opens() {
    let mut t = table(Ruleset::Omweso, SetupKind::Outer, TimeControl::TOURNAMENT);
    t.tick(4_000);
    assert_eq!(t.next_deadline(), Some(64_000));
    let events = t.tick(64_000);
    assert_eq!(kinds(&events), ["end@4"]);
    assert_eq!(
        t.outcome(),
        Some(Outcome::Win {
            winner: Side::North,
            victory: Victory::Abandoned
        })
    );
}

/// The docs/rules.md#16-worked-example worked example is not reachable from a preset, so decision points are
/// reached by the clockwise chain of Mweiso, from A1' after the opening.
#[test]
fn a_turn_waits_at_its_decision_point_and_the_answer_resumes_it() {
    let mut t = opened(TimeControl::CASUAL);
    let events = t.act(Side::South, &mv("A1'"), 2_000).unwrap();
    assert_eq!(kinds(&events), ["played@5", "decision@6"]);
    let json: serde_json::Value = serde_json::from_str(&text(&events[1])).unwrap();
    assert_eq!(json["d"]["options"], serde_json::json!(["a", "c", "l"]));
    // The move limit keeps running while South decides: 180 s less 3 seeds' sowing.
    assert_eq!(
        snapshot(&t, None, [true, true], 0).clock.move_deadline,
        Some(181_250)
    );
    let refused = t
        .act(Side::North, &Action::Decide { choice: "a".into() }, 2_100)
        .unwrap_err();
    assert_eq!(refused.code, ErrorCode::NotYourTurn);
    let refused = t
        .act(Side::South, &Action::Decide { choice: "x".into() }, 2_100)
        .unwrap_err();
    assert_eq!(refused.code, ErrorCode::BadDecision);
    let events = t
        .act(Side::South, &Action::Decide { choice: "a".into() }, 3_000)
        .unwrap();
    let json: serde_json::Value = serde_json::from_str(&text(&events[0])).unwrap();
    assert_eq!(json["d"]["move"], "A1'/a");
    assert_eq!(json["d"]["pending"], false);
}

#[test]
fn the_move_limit_annuls_a_turn_whose_decision_takes_too_long() {
    let mut tc = TimeControl::CASUAL;
    tc.move_limit_seconds = Some(10.0);
    let mut t = opened(tc);
    t.act(Side::South, &mv("A1'"), 2_000).unwrap();
    // 10 s less 0.75 s of sowing (3 seeds at 4 a second).
    assert_eq!(t.next_deadline(), Some(11_250));
    assert!(t.tick(11_249).is_empty());
    let events = t.tick(11_250);
    assert_eq!(kinds(&events), ["end@7"]);
    assert_eq!(t.status(), Status::Annulled);
}

#[test]
fn free_setup_first_player_then_second() {
    let mut t = table(Ruleset::Omweso, SetupKind::Free, TimeControl::CASUAL);
    assert_eq!(t.status(), Status::Setup);
    let arrange = |pits: [u64; 16]| Action::Arrange {
        pits: pits.to_vec(),
    };
    let refused = t.act(Side::North, &arrange([2; 16]), 2_000).unwrap_err();
    assert_eq!(refused.message, "the first player (South) arranges first");
    let refused = t.act(Side::South, &arrange([3; 16]), 2_000).unwrap_err();
    assert_eq!(
        refused.message,
        "an arrangement places exactly 32 seeds; this one places 48"
    );
    let mut south = [0; 16];
    south[0] = 32;
    assert_eq!(
        kinds(&t.act(Side::South, &arrange(south), 2_000).unwrap()),
        ["arranged@2"]
    );
    let events = t.act(Side::North, &arrange([2; 16]), 3_000).unwrap();
    assert_eq!(kinds(&events), ["arranged@3", "started@4"]);
    assert_eq!(
        t.position().unwrap(),
        "2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/0,0,0,0,0,0,0,0/32,0,0,0,0,0,0,0 s"
    );
}

#[test]
fn resigning_ends_the_game_for_either_player_at_any_time() {
    let mut t = table(Ruleset::Oware, SetupKind::Outer, TimeControl::CASUAL);
    t.act(Side::South, &mv("C1"), 2_000).unwrap();
    let events = t.act(Side::South, &Action::Resign, 2_500).unwrap();
    assert_eq!(kinds(&events), ["end@4"]);
    assert_eq!(
        t.outcome(),
        Some(Outcome::Win {
            winner: Side::North,
            victory: Victory::Resigned
        })
    );
    assert_eq!(
        t.act(Side::North, &mv("A2"), 3_000).unwrap_err().code,
        ErrorCode::GameOver
    );
}

#[test]
fn refusals_change_nothing() {
    let mut t = table(Ruleset::Omweso, SetupKind::Outer, TimeControl::TOURNAMENT);
    let before = snapshot(&t, None, [true, true], 0);
    for (side, action) in [
        (Side::South, mv("A2")),
        (Side::South, mv("E1/a")),
        (Side::South, mv("zz")),
        (Side::North, mv("A4")),
        (Side::South, Action::Decide { choice: "a".into() }),
        (Side::South, Action::Arrange { pits: vec![2; 16] }),
    ] {
        assert!(t.act(side, &action, 1_500).is_err(), "{action:?}");
    }
    assert_eq!(snapshot(&t, None, [true, true], 0), before);
}

#[test]
fn after_a_restart_the_referee_count_starts_again_once_both_players_are_back() {
    let mut t = table(Ruleset::Omweso, SetupKind::Outer, TimeControl::TOURNAMENT);
    t.resume(100_000);
    // Nobody is connected after a restart: the count waits (the time the server was down
    // counts against nobody, and nobody is stolen from before seeing the position).
    assert_eq!(
        snapshot(&t, None, [true, true], 0).clock.referee_deadline,
        None
    );
    assert!(t.tick(50_000).is_empty());
    assert!(t.tick(104_000).is_empty());
    assert_eq!(t.set_present(Side::North, true, 101_000), Some(vec![]));
    let events = t.set_present(Side::South, true, 102_000).unwrap();
    assert_eq!(kinds(&events), ["count@3"]);
    // The count starts with the second arrival, with the whole allowance (whatever was
    // measured: a replay knows no round trip): 3 s and 1 s from now.
    assert_eq!(
        snapshot(&t, None, [true, true], 0).clock.referee_deadline,
        Some(106_000)
    );
    assert!(t.tick(105_999).is_empty());
    assert_eq!(kinds(&t.tick(106_000)), ["steal@4"]);
}

#[test]
fn a_rollback_undoes_moves_decisions_and_the_end_of_the_game() {
    let mut t = table(Ruleset::Omweso, SetupKind::Outer, TimeControl::CASUAL);
    t.act(Side::South, &mv("E1"), 2_000).unwrap();
    let before = snapshot(&t, Some(Side::North), [true, true], 2);
    let point = t.savepoint();
    t.act(Side::North, &mv("A4"), 2_500).unwrap();
    t.act(Side::South, &Action::Resign, 2_600).unwrap();
    assert_eq!(t.status(), Status::Finished);
    t.rollback(point);
    let after = snapshot(&t, Some(Side::North), [true, true], 2);
    assert_eq!(after, before);
    assert_eq!(after.history.len(), 1);
    assert_eq!(t.status(), Status::Playing);
    assert_eq!(t.version(), before.version);
    // The table goes on from there as if nothing had happened.
    let events = t.act(Side::North, &mv("B4"), 3_000).unwrap();
    assert_eq!(kinds(&events), [format!("played@{}", before.version + 1)]);
}

#[test]
fn event_messages_carry_type_version_and_data() {
    let event = Event::Steal {
        victim: Side::South,
        clock: omweso_protocol::ClockView {
            referee_deadline: None,
            steal_open: true,
            move_deadline: Some(9),
            arrange_deadline: None,
        },
        legal: omweso_protocol::Legal::default(),
    };
    let json: serde_json::Value = serde_json::from_str(&text(&(42, event))).unwrap();
    // `legal` is an addition (docs/protocol.md), empty here: nobody was listed.
    assert_eq!(
        json,
        serde_json::json!({"t": "steal", "v": 42, "d": {"victim": "s", "clock":
            {"referee_deadline": null, "steal_open": true, "move_deadline": 9}, "legal": {}}})
    );
}

/// The legal list of the side to move, with what each start does. From the outer start,
/// E1 sows its 4 seeds into F1, G1, H1 and the empty H2, where the turn ends.
#[test]
fn the_legal_list_has_every_whole_move_and_what_each_start_does() {
    let t = table(Ruleset::Omweso, SetupKind::Outer, TimeControl::CASUAL);
    let legal = legal::list(&t.legal_query());
    assert!(legal.n.is_none(), "North may not move");
    let south = legal.s.expect("South moves first");
    let position: omweso_rules::Position = t.position().unwrap().parse().unwrap();
    let engine: Vec<String> = position
        .legal_moves(Side::South, Some(720))
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(south.moves, engine);
    assert!(!south.starts_only);
    let e1 = south.starts.iter().find(|s| s.start == "E1").unwrap();
    assert_eq!(
        e1,
        &omweso_protocol::StartResult {
            start: "E1".into(),
            laps: 1,
            seeds: 4,
            captured: 0,
            ends_at: Some("H2".into()),
            decision: None,
            outcome: None,
        }
    );
    // Each start of a whole move is listed once, and nothing else.
    let mut starts: Vec<&str> = south.starts.iter().map(|s| s.start.as_str()).collect();
    let mut of_moves: Vec<&str> = engine
        .iter()
        .map(|m| m.split('/').next().unwrap())
        .collect();
    starts.sort_unstable();
    of_moves.sort_unstable();
    of_moves.dedup();
    assert_eq!(starts, of_moves);
}

#[test]
fn the_steal_lists_the_victims_moves_and_the_thiefs() {
    let mut t = table(Ruleset::Omweso, SetupKind::Outer, TimeControl::TOURNAMENT);
    t.tick(4_000);
    let legal = legal::list(&t.legal_query());
    let position: omweso_rules::Position = t.position().unwrap().parse().unwrap();
    let moves = |side: Side| -> Vec<String> {
        position
            .with_side_to_move(side)
            .legal_moves(side, Some(720))
            .iter()
            .map(ToString::to_string)
            .collect()
    };
    assert_eq!(legal.s.unwrap().moves, moves(Side::South));
    assert_eq!(legal.n.unwrap().moves, moves(Side::North));
}

#[test]
fn in_mweisos_opening_both_sides_are_listed() {
    let t = table(Ruleset::Mweiso, SetupKind::Even, TimeControl::CASUAL);
    let legal = legal::list(&t.legal_query());
    let s = legal.s.expect("South owes its opening");
    let n = legal.n.expect("North owes its opening");
    // docs/rules.md#2-mweiso-kagera-murray-1951: the opening never starts clockwise.
    assert_eq!(s.moves, ["A1", "B1", "C1", "F1", "G1", "H1"]);
    assert_eq!(n.moves, ["H4", "G4", "F4", "C4", "B4", "A4"]);
    // A turn waiting at a decision lists nobody: the decision's options are what is open.
    let mut t = opened(TimeControl::CASUAL);
    t.act(Side::South, &mv("A1'"), 2_000).unwrap();
    assert!(legal::list(&t.legal_query()).is_empty());
}

/// Each option's result is exactly what answering it does.
#[test]
fn each_options_result_is_what_answering_it_does() {
    for choice in ["a", "c", "l"] {
        let mut t = opened(TimeControl::CASUAL);
        let events = t.act(Side::South, &mv("A1'"), 2_000).unwrap();
        let Event::Decision {
            options, results, ..
        } = &events[1].1
        else {
            panic!("{events:?}");
        };
        assert_eq!(options, &["a", "c", "l"]);
        let result = results.iter().find(|r| r.choice == choice).unwrap().clone();
        let snap = snapshot(&t, Some(Side::South), [true, true], 0);
        assert_eq!(snap.pending_results.as_ref(), Some(results));
        let events = t
            .act(
                Side::South,
                &Action::Decide {
                    choice: choice.into(),
                },
                2_500,
            )
            .unwrap();
        let Event::Played(played) = &events[0].1 else {
            panic!("{events:?}");
        };
        assert_eq!(played.laps, result.laps, "{choice}");
        assert_eq!(played.position, result.position, "{choice}");
        assert_eq!(played.outcome, result.outcome, "{choice}");
        assert_eq!(played.pending, result.decision.is_some(), "{choice}");
    }
}

/// The disconnect grace is the table's (docs/rules.md#4-play-under-the-referee-server-rules): a seated player whose last connection
/// closes during play loses when the grace runs out, unless they come back; one not here
/// when play begins has the same grace. Casual's grace is 120 s.
#[test]
fn a_player_away_longer_than_the_grace_loses() {
    let mut t = table(Ruleset::Omweso, SetupKind::Outer, TimeControl::CASUAL);
    assert_eq!(TimeControl::CASUAL.disconnect_grace_seconds, 120.0);
    assert_eq!(t.next_deadline(), None, "casual has no referee count");
    assert!(t.set_present(Side::North, false, 10_000).is_some());
    assert!(
        t.set_present(Side::North, false, 11_000).is_none(),
        "no change"
    );
    assert_eq!(t.next_deadline(), Some(130_000));
    // Back in time: nothing happens.
    assert!(t.set_present(Side::North, true, 129_999).is_some());
    assert_eq!(t.next_deadline(), None);
    assert!(t.tick(130_000).is_empty());
    // Away again, for good.
    t.set_present(Side::North, false, 140_000);
    assert!(t.tick(259_999).is_empty());
    let events = t.tick(260_000);
    assert_eq!(kinds(&events), ["end@3"]);
    assert_eq!(
        t.outcome(),
        Some(Outcome::Win {
            winner: Side::South,
            victory: Victory::Abandoned
        })
    );
    // Nobody's presence matters once the game is over.
    assert!(t.set_present(Side::North, true, 270_000).is_none());

    // Not here when play begins: the grace runs from the start.
    let config = GameConfig {
        ruleset: Ruleset::Oware,
        setup: SetupKind::Outer,
        time_control: TimeControl::CASUAL,
        stop_at_ms: None,
        relayed: false,
        rated: false,
        tournament: None,
    };
    let mut t = Table::new(Uuid::new_v4(), config, seat("Kato"), Side::South, 0);
    t.set_present(Side::South, true, 0);
    t.join(seat("Nakato"), 5_000).unwrap();
    assert_eq!(t.next_deadline(), Some(125_000));
    // After a restart nobody is connected: both graces start again from then.
    t.resume(300_000);
    assert_eq!(t.next_deadline(), Some(420_000));
}
