//! Invariants of the 4x8 engine, on random positions: positions dealt at random and
//! positions reached by random play.

use crate::common::reference;
use omweso_rules::{
    Answer, Board, Direction, Lap, LapKind, Move, Outcome, Owing, Position, Preset, Progress,
    Rules, Setup, Side, ToMove, TurnEnd,
};
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

const BUDGET: u64 = 2_000;

/// 64 seeds dealt over the 32 pits, with a bias towards heaps: every seed goes to one of
/// a few favoured pits or anywhere.
fn dealt(rules: Rules) -> impl Strategy<Value = Position> {
    (
        proptest::collection::vec(0u8..32, 64),
        proptest::collection::vec(0u8..32, 3),
        any::<bool>(),
    )
        .prop_map(move |(seeds, favoured, north)| {
            let mut counts = [[0u8; 16]; 2];
            for (i, pit) in seeds.iter().enumerate() {
                let pit = if i % 3 == 0 { favoured[i % 3] } else { *pit };
                counts[(pit / 16) as usize][(pit % 16) as usize] += 1;
            }
            let side = if north { Side::North } else { Side::South };
            let setup = Setup {
                board: Board::from_counts(counts[0], counts[1]),
                to_move: ToMove::Side(side),
            };
            Position::from_setup(setup, rules).expect("64 seeds")
        })
}

/// A position reached by `plies` random moves from the start (stopping early if the game
/// ends), with a random side to move if Mweiso's opening is still on.
fn played(rules: Rules, seed: u64, plies: u32) -> Position {
    let mut rng = SmallRng::seed_from_u64(seed);
    let preset = if seed % 2 == 0 {
        Preset::Outer
    } else {
        Preset::Even
    };
    let mut pos = Position::start(rules, preset, Side::South);
    for _ in 0..plies {
        let side = mover(&pos, &mut rng);
        let moves = pos.legal_moves(side, Some(720));
        if moves.is_empty() {
            break;
        }
        let result = pos.play(&moves[rng.random_range(0..moves.len())], Some(720));
        match result {
            Ok(r) if r.outcome.is_none() => pos = r.position,
            _ => break,
        }
    }
    pos
}

fn mover(pos: &Position, rng: &mut SmallRng) -> Side {
    pos.to_move().single().unwrap_or(if rng.random() {
        Side::South
    } else {
        Side::North
    })
}

fn any_position() -> impl Strategy<Value = Position> {
    prop_oneof![
        dealt(Rules::OMWESO),
        dealt(Rules::MWEISO),
        (any::<u64>(), 0u32..80).prop_map(|(s, n)| played(Rules::OMWESO, s, n)),
        (any::<u64>(), 0u32..80).prop_map(|(s, n)| played(Rules::MWEISO, s, n)),
        (any::<u64>(), 0u32..6).prop_map(|(s, n)| played(Rules::MWEISO, s, n)),
    ]
}

/// A dealt Mweiso board in the opening: both owing, or one of them (`None` when nobody
/// could open, which no position allows; the main phase when the one owing could not).
fn dealt_opening() -> impl Strategy<Value = Option<Position>> {
    (dealt(Rules::MWEISO), 0u8..3).prop_map(|(pos, owing)| {
        let to_move = match owing {
            0 => ToMove::Opening(Owing::Both),
            1 => ToMove::Opening(Owing::Only(Side::South)),
            _ => ToMove::Opening(Owing::Only(Side::North)),
        };
        let setup = Setup {
            board: *pos.board(),
            to_move,
        };
        Position::from_setup(setup, Rules::MWEISO).ok()
    })
}

fn sides_of(pos: &Position) -> Vec<Side> {
    match pos.to_move().single() {
        Some(side) => vec![side],
        None => vec![Side::South, Side::North],
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn seeds_are_conserved_by_every_move(pos in any_position()) {
        for side in sides_of(&pos) {
            pos.for_each_move(side, Some(BUDGET), |mv, result| {
                let b = result.position.board();
                assert_eq!(b.total(Side::South) + b.total(Side::North), 64, "{pos} {mv}");
                let before = pos.board().total(side.other());
                assert_eq!(b.total(side.other()) + result.summary.captured, before, "{pos} {mv}");
            });
        }
    }

    #[test]
    fn enumerated_moves_play_to_the_same_result(pos in any_position()) {
        for side in sides_of(&pos) {
            let mut seen = std::collections::HashSet::new();
            pos.for_each_move(side, Some(BUDGET), |mv, result| {
                assert!(seen.insert(mv.clone()), "{mv} listed twice in {pos}");
                let played = pos.play(mv, Some(BUDGET)).unwrap_or_else(|e| panic!("{pos} {mv}: {e}"));
                assert_eq!(&played, result, "{pos} {mv}");
            });
        }
    }

    /// Any start and any answers: `play` accepts exactly the enumerated moves.
    #[test]
    fn play_accepts_only_enumerated_moves(
        pos in any_position(),
        start in 0u8..32,
        clockwise: bool,
        answers in proptest::collection::vec(0u8..4, 0..4),
    ) {
        let side = if start < 16 { Side::South } else { Side::North };
        let pit = omweso_rules::Pit::from_index(side, start % 16);
        let mv = Move {
            start: pit,
            direction: if clockwise { Direction::Clockwise } else { Direction::Anticlockwise },
            answers: answers.iter().map(|a| match a {
                0 => Answer::Anticlockwise,
                1 => Answer::Clockwise,
                2 => Answer::Leave,
                _ => Answer::Pit(pit),
            }).collect(),
        };
        let legal = pos.legal_moves(side, Some(BUDGET)).contains(&mv);
        let played = pos.play(&mv, Some(BUDGET));
        prop_assert_eq!(legal, played.is_ok(), "{} {}: {:?}", pos, mv, played.err());
    }

    #[test]
    fn the_stepwise_turn_agrees_with_the_whole_move(pos in any_position()) {
        for side in sides_of(&pos) {
            pos.for_each_move(side, Some(BUDGET), |mv, result| {
                let mut turn = pos.begin_turn(mv.start, mv.direction, Some(BUDGET)).unwrap();
                let mut laps: Vec<Lap> = Vec::new();
                let mut answers = mv.answers.iter();
                loop {
                    match turn.run(&mut laps) {
                        Progress::Done(end) => {
                            assert_eq!(end, result.summary.end);
                            break;
                        }
                        Progress::Decision(d) => {
                            let answer = *answers.next().expect("an answer per decision");
                            assert!(d.options(side).contains(&answer));
                            turn.answer(answer).unwrap();
                        }
                    }
                }
                assert!(answers.next().is_none());
                assert_eq!(&turn.result().unwrap(), result);
                assert_eq!(laps.len() as u64, result.summary.laps);
                let sown: u64 = laps.iter().map(|l| u64::from(l.seeds)).sum();
                assert_eq!(sown, result.summary.seeds_sown);
                let captured: u32 = laps.iter().map(|l| u32::from(l.captured)).sum();
                assert_eq!(captured, result.summary.captured);
                if result.summary.end == TurnEnd::Ended {
                    assert_eq!(laps.last().map(|l| l.kind), Some(LapKind::End));
                }
            });
        }
    }

    /// The engine against the naive model, lap by lap, on Omweso.
    #[test]
    fn omweso_turns_match_the_reference_model(pos in prop_oneof![
        dealt(Rules::OMWESO),
        (any::<u64>(), 0u32..80).prop_map(|(s, n)| played(Rules::OMWESO, s, n)),
    ]) {
        let side = pos.to_move().single().unwrap();
        let south = side == Side::South;
        pos.for_each_move(side, Some(BUDGET), |mv, result| {
            let answers: Vec<char> = mv.answers.iter().map(|a| match a {
                Answer::Anticlockwise => 'a',
                Answer::Clockwise => 'c',
                _ => unreachable!("Omweso answers are a or c"),
            }).collect();
            let model = reference::play(
                pos.board().counts(side),
                pos.board().counts(side.other()),
                south,
                mv.start.index(),
                mv.direction == Direction::Clockwise,
                &answers,
                Some(BUDGET),
            ).unwrap_or_else(|e| panic!("{pos} {mv}: the model refuses: {e}"));
            let mut laps: Vec<Lap> = Vec::new();
            pos.play_observed(mv, Some(BUDGET), &mut laps).unwrap();
            let engine_laps: Vec<reference::RefLap> = laps.iter().map(|l| reference::RefLap {
                from: l.from.index(),
                clockwise: l.direction == Direction::Clockwise,
                seeds: l.seeds,
                to: l.to.index(),
                kind: l.kind.name(),
                captured: l.captured,
            }).collect();
            assert_eq!(engine_laps, model.laps, "{pos} {mv}");
            assert_eq!(result.summary.end.name(), model.end, "{pos} {mv}");
            assert_eq!(result.position.board().counts(side), model.mine, "{pos} {mv}");
            assert_eq!(result.position.board().counts(side.other()), model.theirs, "{pos} {mv}");
            assert_eq!(result.summary.captured, model.captured);
            let mut letters: Vec<u8> = model.columns.clone();
            letters.sort_unstable();
            letters.dedup();
            let columns: String = letters.iter().map(|&c| (b'A' + c) as char).collect();
            assert_eq!(result.summary.capture_columns_letters(), columns);
        });
    }

    #[test]
    fn position_strings_round_trip(pos in any_position()) {
        let text = pos.to_string();
        let again = Position::parse(&text, pos.rules()).unwrap();
        // The string holds the board and whose turn it is, not the akakyala history.
        prop_assert_eq!(again, pos.with_capture_history(false, false));
        prop_assert_eq!(again.to_string(), text);
    }

    #[test]
    fn move_notation_round_trips(pos in any_position()) {
        for side in sides_of(&pos) {
            for mv in pos.legal_moves(side, Some(BUDGET)) {
                let text = mv.to_string();
                prop_assert_eq!(text.parse::<Move>().unwrap(), mv);
            }
        }
    }

    #[test]
    fn parsers_never_panic(text in ".{0,80}") {
        let _ = text.parse::<Setup>();
        let _ = text.parse::<Move>();
        let _ = Position::parse(&text, Rules::MWEISO);
    }

    #[test]
    fn parsers_never_panic_on_near_misses(
        counts in proptest::collection::vec("[0-9]{0,3}|x|-1| 4", 32),
        to_move in "s|n|o|os|on|x|",
        mv in "[A-J][0-5]'?(/[aclx]|/[A-H][1-4]){0,3}",
    ) {
        let rows: Vec<String> = counts.chunks(8).map(|r| r.join(",")).collect();
        let text = format!("{} {to_move}", rows.join("/"));
        if let Ok(setup) = text.parse::<Setup>() {
            prop_assert_eq!(setup.to_string().parse::<Setup>().unwrap(), setup);
            for rules in [Rules::OMWESO, Rules::MWEISO] {
                if let Ok(pos) = Position::from_setup_partial(setup, rules) {
                    if let Ok(mv) = mv.parse::<Move>() {
                        let _ = pos.play(&mv, Some(BUDGET));
                    }
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// docs/rules.md#2-mweiso-kagera-murray-1951: an opening turn never starts clockwise and decides nothing: its result
    /// is no outcome, an annulment, or - once the opening is over - the main phase's
    /// no-move loss of the player who would make its first turn.
    #[test]
    fn no_game_ends_during_the_opening(pos in dealt_opening()) {
        // A player owing the last opening turn without one skips it: the main phase.
        let Some(pos) = pos.filter(|p| p.to_move().is_opening()) else { return Ok(()) };
        prop_assert_eq!(pos.outcome(), None);
        let mut any = false;
        for side in sides_of(&pos) {
            pos.for_each_move(side, Some(BUDGET), |mv, result| {
                any = true;
                assert_eq!(mv.direction, Direction::Anticlockwise, "{pos} {mv}");
                assert!(mv.answers.is_empty(), "{pos} {mv}");
                match (result.outcome, result.position.to_move()) {
                    (None | Some(Outcome::Annulled { .. }), _) => {}
                    (Some(outcome), ToMove::Side(first)) => {
                        assert_eq!(
                            outcome,
                            Outcome::Win { winner: first.other(), victory: omweso_rules::Victory::NoMove },
                            "{pos} {mv}"
                        );
                        assert_eq!(result.position.outcome(), Some(outcome));
                    }
                    (Some(outcome), to_move) => panic!("{pos} {mv}: {outcome} with {to_move} to move"),
                }
            });
        }
        prop_assert!(any, "{} has an opening position with no opening turn", pos);
    }

    /// Random games from the start: the opening (two turns from the start position) never
    /// ends the game, and the player who played first moves first in the main phase.
    #[test]
    fn random_games_never_end_in_the_opening(seed in any::<u64>()) {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut pos = Position::start(Rules::MWEISO, Preset::Even, Side::South);
        let first = mover(&pos, &mut rng);
        let mut side = first;
        while pos.to_move().is_opening() {
            let moves = pos.legal_moves(side, Some(720));
            let result = pos.play(&moves[rng.random_range(0..moves.len())], Some(720)).unwrap();
            prop_assert_eq!(result.outcome, None);
            pos = result.position;
            side = side.other();
        }
        prop_assert_eq!(pos.to_move(), ToMove::Side(first));
    }
}

#[test]
fn unbudgeted_play_of_random_games_always_stops() {
    // Without a budget every turn must still stop (ended or never-ending).
    for seed in 0..40 {
        let pos = played(Rules::OMWESO, seed, (seed % 60) as u32);
        let side = pos.to_move().single().unwrap();
        pos.for_each_move(side, None, |mv, result| {
            assert_ne!(result.summary.end, TurnEnd::Budget, "{pos} {mv}");
        });
    }
}
