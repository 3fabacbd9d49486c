//! `Game`, the one type over the three games: hand-made cases with exact values, and
//! properties saying it gives what the per-board types give.

use omweso_rules::oware::{self, House};
use omweso_rules::playout::Playouts;
use omweso_rules::{
    Answer, Decision, Direction, Game, GameLap, GameMove, Hole, LapKind, Move, Outcome, Position,
    Preset, Progress, Rules, Ruleset, Setup, Side, Start, TurnEnd, Victory,
};
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn mv(ruleset: Ruleset, text: &str) -> GameMove {
    GameMove::parse(ruleset, text).unwrap()
}

fn pit(text: &str) -> Hole {
    Hole::Pit(text.parse().unwrap())
}

fn house(text: &str) -> Hole {
    Hole::House(text.parse().unwrap())
}

fn lap(from: Hole, direction: Direction, seeds: u8, to: Hole, kind: LapKind) -> GameLap {
    let captured = 0;
    GameLap {
        from,
        direction,
        seeds,
        to,
        kind,
        captured,
    }
}

#[test]
fn omweso_outer_start_e1() {
    let game = Game::start(Ruleset::Omweso, Preset::Outer, Side::South);
    assert_eq!(game.ruleset(), Ruleset::Omweso);
    assert_eq!(
        game.to_string(),
        "4,4,4,4,4,4,4,4/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,4 s"
    );
    assert_eq!(game.to_move(), Some(Side::South));
    assert!(game.may_move(Side::South) && !game.may_move(Side::North));
    assert!(!game.is_opening());
    assert!(game.opening_owed().is_empty());
    assert_eq!(game.scores(), None);
    let names: Vec<String> = game
        .legal_moves(Side::South, Some(720))
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(names, ["A1", "B1", "C1", "D1", "E1", "F1", "G1", "H1"]);
    assert!(game.legal_moves(Side::North, Some(720)).is_empty());

    let mut laps = Vec::new();
    let result = game
        .play_observed(&mv(Ruleset::Omweso, "E1"), Some(720), &mut laps)
        .unwrap();
    assert_eq!(
        result.game.to_string(),
        "4,4,4,4,4,4,4,4/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,1/4,4,4,4,0,5,5,5 n"
    );
    assert_eq!(result.game.ruleset(), Ruleset::Omweso);
    assert_eq!(result.game.to_move(), Some(Side::North));
    assert_eq!(result.outcome, None);
    assert_eq!(result.summary.laps, 1);
    assert_eq!(result.summary.seeds_sown, 4);
    assert_eq!(result.summary.end, TurnEnd::Ended);
    assert_eq!(
        laps,
        [lap(
            pit("E1"),
            Direction::Anticlockwise,
            4,
            pit("H2"),
            LapKind::End
        )]
    );
}

#[test]
fn oware_first_move() {
    let game = Game::start(Ruleset::Oware, Preset::Outer, Side::South);
    assert_eq!(game.to_string(), "4,4,4,4,4,4/4,4,4,4,4,4 s 0 0");
    assert_eq!(game.scores(), Some([0, 0]));
    let listed = game.legal_moves_within(Side::South, None, 0);
    assert!(!listed.starts_only);
    let names: Vec<String> = listed.moves.iter().map(ToString::to_string).collect();
    assert_eq!(names, ["A1", "B1", "C1", "D1", "E1", "F1"]);
    assert!(game.legal_moves(Side::North, None).is_empty());

    // F1's 4 seeds go to F2, E2, D2, C2.
    let mut laps = Vec::new();
    let result = game
        .play_observed(&mv(Ruleset::Oware, "F1"), None, &mut laps)
        .unwrap();
    assert_eq!(result.game.to_string(), "4,4,5,5,5,5/4,4,4,4,4,0 n 0 0");
    assert_eq!(result.game.to_move(), Some(Side::North));
    assert_eq!(result.outcome, None);
    assert_eq!(result.summary.laps, 1);
    assert_eq!(result.summary.seeds_sown, 4);
    assert_eq!(result.summary.captured, 0);
    assert_eq!(result.summary.capture_columns_letters(), "");
    assert_eq!(
        laps,
        [lap(
            house("F1"),
            Direction::Anticlockwise,
            4,
            house("C2"),
            LapKind::End
        )]
    );
    assert_eq!(laps[0].kind.name(), "end");
}

#[test]
fn oware_capture_and_the_end_by_captures() {
    // South's 3 seeds from E1 go to F1, F2 and E2, making 3 and 2: both captured, 26 in all.
    // The game stops and each takes the seeds left on their side (docs/rules.md#3-oware-abapa): South F1's
    // 2, North A2's 1, so the scores add up to 48.
    let game = Game::parse(Ruleset::Oware, "1,0,0,0,1,2/0,0,0,0,3,1 s 21 19").unwrap();
    let mut laps = Vec::new();
    let result = game
        .play_observed(&mv(Ruleset::Oware, "E1"), None, &mut laps)
        .unwrap();
    assert_eq!(result.game.to_string(), "0,0,0,0,0,0/0,0,0,0,0,0 n 28 20");
    assert_eq!(result.game.scores(), Some([28, 20]));
    assert_eq!(
        result.outcome,
        Some(Outcome::Win {
            winner: Side::South,
            victory: Victory::Captures
        })
    );
    assert_eq!(
        laps,
        [GameLap {
            captured: 5,
            ..lap(
                house("E1"),
                Direction::Anticlockwise,
                3,
                house("E2"),
                LapKind::Capture
            )
        }]
    );
}

#[test]
fn a_short_capture_turn_reports_every_lap() {
    // The worked example: E1 captures H3+H4 at H2, and the 6 seeds sown from E1 end in F2.
    let game = Game::parse(
        Ruleset::Omweso,
        "5,0,0,0,1,1,1,1/0,3,0,5,5,5,0,5/10,4,1,4,4,0,0,4/1,0,0,0,4,0,0,0 s",
    )
    .unwrap();
    let mut turn = game
        .begin_turn(mv(Ruleset::Omweso, "E1").start(), Some(720))
        .unwrap();
    assert_eq!(turn.mover(), Side::South);
    let mut laps = Vec::new();
    assert_eq!(turn.run(&mut laps), Progress::Done(TurnEnd::Ended));
    assert_eq!(
        laps,
        [
            GameLap {
                captured: 6,
                ..lap(
                    pit("E1"),
                    Direction::Anticlockwise,
                    4,
                    pit("H2"),
                    LapKind::Capture
                )
            },
            lap(
                pit("E1"),
                Direction::Anticlockwise,
                6,
                pit("F2"),
                LapKind::End
            ),
        ]
    );
    let names: Vec<&str> = laps.iter().map(|l| l.kind.name()).collect();
    assert_eq!(names, ["capture", "end"]);
    assert_eq!(turn.laps(), 2);
    assert_eq!(turn.seeds_sown(), 10);
    let result = turn.result().unwrap();
    assert_eq!(
        result.game.to_string(),
        "5,0,0,0,1,1,1,0/0,3,0,5,5,5,0,0/10,4,1,4,4,1,1,6/1,0,0,0,0,2,2,2 n"
    );
    assert_eq!(result.summary.captured, 6);
    assert_eq!(result.summary.capture_columns_letters(), "H");
    assert_eq!(
        turn.position_now(),
        result.game.to_string().replace(" n", " s")
    );
}

#[test]
fn a_turn_waits_at_a_decision_and_shows_the_board_meanwhile() {
    // A2' captures C3+C4 = 3 at C2; sown clockwise from A2 they would capture again at D2,
    // so the player chooses.
    let setup: Setup = "0,0,2,1,0,2,0,0/0,0,1,1,0,0,0,0/2,0,1,1,0,0,0,0/0,0,0,0,0,0,0,0 s"
        .parse()
        .unwrap();
    let game = Game::from(Position::from_setup_partial(setup, Rules::OMWESO).unwrap());
    let start = mv(Ruleset::Omweso, "A2'").start();
    assert_eq!(
        start,
        Start::Board {
            pit: "A2".parse().unwrap(),
            direction: Direction::Clockwise
        }
    );
    let mut turn = game.begin_turn(start, None).unwrap();
    let mut laps = Vec::new();
    assert_eq!(turn.run(&mut laps), Progress::Decision(Decision::Direction));
    assert_eq!(turn.pending_decision(), Some(Decision::Direction));
    assert_eq!(
        turn.options().as_slice(),
        &[Answer::Anticlockwise, Answer::Clockwise]
    );
    // The 3 captured seeds in hand are shown back at A2.
    let during = "0,0,0,1,0,2,0,0/0,0,0,1,0,0,0,0/3,1,2,1,0,0,0,0/0,0,0,0,0,0,0,0 s";
    assert_eq!(game.position_during(&turn), during);
    assert_eq!(turn.position_now(), during);
    assert!(turn.result().is_none());
    assert!(turn.answer(Answer::Leave).is_err());
    turn.answer(Answer::Clockwise).unwrap();
    assert_eq!(turn.run(&mut laps), Progress::Done(TurnEnd::Ended));
    assert_eq!(
        laps,
        [
            GameLap {
                captured: 3,
                ..lap(
                    pit("A2"),
                    Direction::Clockwise,
                    2,
                    pit("C2"),
                    LapKind::Capture
                )
            },
            GameLap {
                captured: 2,
                ..lap(
                    pit("A2"),
                    Direction::Clockwise,
                    3,
                    pit("D2"),
                    LapKind::Capture
                )
            },
            lap(
                pit("A2"),
                Direction::Anticlockwise,
                2,
                pit("B1"),
                LapKind::End
            ),
        ]
    );
    let result = turn.result().unwrap();
    assert_eq!(
        result.game.to_string(),
        "0,0,0,0,0,2,0,0/0,0,0,0,0,0,0,0/0,2,3,2,0,0,0,0/1,1,0,0,0,0,0,0 n"
    );
    // The same as the whole move.
    assert_eq!(
        game.play(&mv(Ruleset::Omweso, "A2'/c"), None).unwrap(),
        result
    );
}

#[test]
fn mweiso_opening_with_both_owing() {
    let game = Game::start(Ruleset::Mweiso, Preset::Outer, Side::North);
    assert_eq!(
        game.to_string(),
        "2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 o"
    );
    assert_eq!(game.ruleset(), Ruleset::Mweiso);
    assert_eq!(game.to_move(), None);
    assert!(game.is_opening());
    assert_eq!(game.opening_owed(), [Side::South, Side::North]);
    assert!(game.may_move(Side::South) && game.may_move(Side::North));
    assert_eq!(game.outcome(), None);
    // Opening starts: outer pits other than the 4th and 5th from the player's left, never
    // clockwise (docs/rules.md#2-mweiso-kagera-murray-1951: no capture from a back-row hole in the opening).
    let starts: Vec<String> = game
        .legal_moves_within(Side::North, Some(720), 0)
        .moves
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(starts, ["H4", "G4", "F4", "C4", "B4", "A4"]);

    let mut laps = Vec::new();
    let result = game
        .play_observed(&mv(Ruleset::Mweiso, "B1"), Some(720), &mut laps)
        .unwrap();
    // B1: C1, D1 (relay 3): E1, F1, G1 (relay 3): H1, H2, G2, which captures G3+G4.
    assert_eq!(
        laps[..3],
        [
            lap(
                pit("B1"),
                Direction::Anticlockwise,
                2,
                pit("D1"),
                LapKind::Relay
            ),
            lap(
                pit("D1"),
                Direction::Anticlockwise,
                3,
                pit("G1"),
                LapKind::Relay
            ),
            GameLap {
                captured: 4,
                ..lap(
                    pit("G1"),
                    Direction::Anticlockwise,
                    3,
                    pit("G2"),
                    LapKind::Capture
                )
            },
        ]
    );
    let after = result.game;
    assert!(after.to_string().ends_with(" on"));
    assert_eq!(after.to_move(), Some(Side::North));
    assert!(after.is_opening());
    assert_eq!(after.opening_owed(), [Side::North]);
    assert!(!after.may_move(Side::South));
    // Exactly what the 4x8 position gives.
    let position = Position::start(Rules::MWEISO, Preset::Even, Side::South);
    let expected = position.play(&"B1".parse().unwrap(), Some(720)).unwrap();
    assert_eq!(after, Game::Mweiso(expected.position));
    assert_eq!(result.summary, expected.summary);
    // The steal ends the opening.
    let stolen = game.with_side_to_move(Side::South);
    assert_eq!(stolen.to_move(), Some(Side::South));
    assert!(!stolen.is_opening());
    assert_eq!(stolen.ruleset(), Ruleset::Mweiso);
}

#[test]
fn refusals_say_exactly_what_is_wrong() {
    let omweso = Game::start(Ruleset::Omweso, Preset::Outer, Side::South);
    let oware = Game::start(Ruleset::Oware, Preset::Outer, Side::South);
    let message = |r: Result<_, omweso_rules::IllegalGameMove>| r.unwrap_err().to_string();
    assert_eq!(
        message(omweso.play_as(Side::South, &mv(Ruleset::Omweso, "A4"), None)),
        "A4 is North's pit, and South is playing"
    );
    assert_eq!(
        message(omweso.play(&mv(Ruleset::Omweso, "A4"), None)),
        "A4 is North's pit, and it is not North's turn"
    );
    assert_eq!(
        message(omweso.play(&mv(Ruleset::Oware, "C1"), None)),
        "C1 is a house of another board than omweso's"
    );
    assert_eq!(
        message(oware.play(&mv(Ruleset::Omweso, "C1"), None)),
        "C1 is a pit of another board than oware's"
    );
    assert_eq!(
        message(oware.play_as(Side::South, &mv(Ruleset::Oware, "C2"), None)),
        "C2 is North's house, and it is South's turn"
    );
    assert_eq!(
        message(oware.play_as(Side::North, &mv(Ruleset::Oware, "C2"), None)),
        "it is South's turn, not North's"
    );
    assert_eq!(
        oware
            .begin_turn(mv(Ruleset::Oware, "C2").start(), None)
            .unwrap_err()
            .to_string(),
        "C2 is North's house, and it is South's turn"
    );
    assert_eq!(
        GameMove::parse(Ruleset::Oware, "A1'")
            .unwrap_err()
            .to_string(),
        "\"A1'\" is not a house: a house is a column A-F and a row 1-2, like C1"
    );
    assert_eq!(
        GameMove::parse(Ruleset::Mweiso, "E9").unwrap_err().to_string(),
        "a move starts with a pit, optionally followed by ' for a clockwise lap: \"E9\" is not a pit: row '9' is not one of 1-4"
    );
    let start = "2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 o";
    assert_eq!(
        Game::parse_with_akakyala(Ruleset::Mweiso, "not a position", Some([true, false]))
            .unwrap_err()
            .to_string(),
        "\"akakyala\" is an Omweso rule; Mweiso has no akakyala"
    );
    assert!(Game::parse(Ruleset::Mweiso, start).is_ok());
    assert!(Game::parse(Ruleset::Omweso, start).is_err());
    assert!(Game::parse(Ruleset::Oware, start).is_err());
}

#[test]
fn akakyala_history_decides_a_game() {
    // South captured before and North never did: South's capture now wins by akakyala.
    let text = "0,0,0,0,2,0,0,1/0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,1/14,14,14,15,0,0,2,0 s";
    let game = Game::parse_with_akakyala(Ruleset::Omweso, text, Some([true, false])).unwrap();
    assert_eq!(game.board().unwrap().rules(), Rules::OMWESO_TOURNAMENT);
    let result = game.play(&mv(Ruleset::Omweso, "G1"), None).unwrap();
    assert_eq!(
        result.outcome,
        Some(Outcome::Win {
            winner: Side::South,
            victory: Victory::Akakyala
        })
    );
    let plain = Game::parse(Ruleset::Omweso, text).unwrap();
    assert_ne!(
        plain
            .play(&mv(Ruleset::Omweso, "G1"), None)
            .unwrap()
            .outcome,
        result.outcome
    );
}

#[test]
fn free_setup_arrangements() {
    let outer = Preset::Outer.arrangement();
    let even = Preset::Even.arrangement();
    let game = Game::from_arrangements(Rules::OMWESO, outer, even, Side::North);
    assert_eq!(
        game.to_string(),
        "2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/0,0,0,0,0,0,0,0/4,4,4,4,4,4,4,4 n"
    );
    assert_eq!(game.ruleset(), Ruleset::Omweso);
}

#[test]
fn random_playouts_are_reproducible() {
    for ruleset in Ruleset::ALL {
        let game = Game::start(ruleset, Preset::Outer, Side::South);
        let run = |seed| {
            let mut rng = SmallRng::seed_from_u64(seed);
            Playouts::default().play_game(game, &mut |n| rng.random_range(0..n))
        };
        assert_eq!(run(3), run(3), "{ruleset}");
        assert!(run(3).plies > 0, "{ruleset}");
        let mut rng = SmallRng::seed_from_u64(3);
        let mut again = SmallRng::seed_from_u64(3);
        assert_eq!(
            game.random_move(Side::South, Some(720), &mut |n| rng.random_range(0..n)),
            game.random_move(Side::South, Some(720), &mut |n| again.random_range(0..n)),
        );
    }
    // North may not move at the start: no move, and the chooser is not asked.
    let game = Game::start(Ruleset::Oware, Preset::Outer, Side::South);
    assert_eq!(
        game.random_move(Side::North, None, &mut |_| unreachable!()),
        None
    );
}

/// A game of `ruleset` reached by up to `plies` random moves from a start, through the
/// per-board types.
fn reached(ruleset: Ruleset, seed: u64, plies: u32) -> Game {
    let mut rng = SmallRng::seed_from_u64(seed);
    let preset = if seed % 2 == 0 {
        Preset::Outer
    } else {
        Preset::Even
    };
    match ruleset {
        Ruleset::Oware => {
            let mut pos = oware::Position::start(Side::South);
            for _ in 0..plies {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let result = pos.play(moves[rng.random_range(0..moves.len())], None);
                match result {
                    Ok(r) if r.outcome.is_none() => pos = r.position,
                    _ => break,
                }
            }
            Game::Oware(pos)
        }
        _ => {
            let rules = Rules::for_ruleset(ruleset).unwrap();
            let mut pos = Position::start(rules, preset, Side::South);
            for _ in 0..plies {
                let side = pos
                    .to_move()
                    .single()
                    .unwrap_or(Side::ALL[rng.random_range(0..2)]);
                let moves = pos.legal_moves(side, Some(720));
                if moves.is_empty() {
                    break;
                }
                match pos.play(&moves[rng.random_range(0..moves.len())], Some(720)) {
                    Ok(r) if r.outcome.is_none() => pos = r.position,
                    _ => break,
                }
            }
            Game::from(pos)
        }
    }
}

fn any_game() -> impl Strategy<Value = Game> {
    (
        prop_oneof![
            Just(Ruleset::Omweso),
            Just(Ruleset::Mweiso),
            Just(Ruleset::Oware)
        ],
        any::<u64>(),
        0u32..60,
    )
        .prop_map(|(ruleset, seed, plies)| reached(ruleset, seed, plies))
}

/// Every legal move of the per-board type, with its result and laps, as `Game` vocabulary.
fn per_board(game: &Game, side: Side) -> Vec<(GameMove, String, Option<Outcome>, Vec<GameLap>)> {
    match game {
        Game::Omweso(p) | Game::Mweiso(p) => p
            .legal_moves(side, Some(720))
            .into_iter()
            .map(|m: Move| {
                let mut laps = Vec::new();
                let r = p.play_observed(&m, Some(720), &mut laps).unwrap();
                let laps = laps.into_iter().map(GameLap::from).collect();
                (GameMove::Board(m), r.position.to_string(), r.outcome, laps)
            })
            .collect(),
        Game::Oware(p) if p.to_move() == side => p
            .legal_moves()
            .into_iter()
            .map(|h: House| {
                let mut laps = Vec::new();
                let r = p
                    .play_observed(h, Some(720), &mut |l| laps.push(l))
                    .unwrap();
                let laps = laps.into_iter().map(GameLap::from).collect();
                (GameMove::Oware(h), r.position.to_string(), r.outcome, laps)
            })
            .collect(),
        Game::Oware(_) => Vec::new(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The enum lists, plays (whole and stepwise) and reports laps exactly as the per-board
    /// types do.
    #[test]
    fn game_agrees_with_the_per_board_types(game in any_game()) {
        // A position string carries no capture history, so compare as strings.
        let text = game.to_string();
        let parsed = Game::parse(game.ruleset(), &text).map(|g| g.to_string());
        prop_assert_eq!(parsed.ok(), Some(text));
        for side in Side::ALL {
            let expected = per_board(&game, side);
            let moves = game.legal_moves(side, Some(720));
            let names: Vec<&GameMove> = expected.iter().map(|e| &e.0).collect();
            prop_assert_eq!(moves.iter().collect::<Vec<_>>(), names);
            for (mv, position, outcome, laps) in expected {
                let mut seen = Vec::new();
                let result = game.play_observed(&mv, Some(720), &mut seen).unwrap();
                prop_assert_eq!(result.game.to_string(), position.clone());
                prop_assert_eq!(result.outcome, outcome);
                prop_assert_eq!(&seen, &laps);
                prop_assert_eq!(result.game.ruleset(), game.ruleset());

                // Stepwise, answering from the move.
                let mut turn = game.begin_turn(mv.start(), Some(720)).unwrap();
                prop_assert_eq!(turn.mover(), mv.side());
                let mut answers = mv.answers().iter();
                let mut stepped = Vec::new();
                loop {
                    match turn.run(&mut stepped) {
                        Progress::Done(_) => break,
                        Progress::Decision(_) => {
                            let answer = answers.next().copied();
                            prop_assert!(answer.is_some());
                            turn.answer(answer.unwrap()).unwrap();
                        }
                    }
                }
                prop_assert_eq!(answers.next(), None);
                prop_assert_eq!(&stepped, &laps);
                let stepped_result = turn.result().unwrap();
                prop_assert_eq!(stepped_result, result);
                // The board now is the board after; the side-to-move field is the one the
                // turn began with on the 4x8 board.
                let now = turn.position_now();
                prop_assert_eq!(now.split(' ').next(), position.split(' ').next());
            }
        }
    }
}
