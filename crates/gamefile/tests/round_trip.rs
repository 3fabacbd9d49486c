//! The round trip (docs/game-file.md#round-trip): random legal games of all three rulesets,
//! with free setups, Mweiso's opening, steals, budgets, impasses, clocks, comments and
//! awkward tag values, written to a file and parsed back, give equal records; and the
//! records replay.

use omweso_gamefile::{parse_games, write_game, GameRecord, ImpasseRecord, MoveRecord, Tag};
use omweso_rules::{
    Arrangement, Game, Outcome, Position, Preset, Rules, Ruleset, Side, TurnEnd, Victory,
};
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// The budgets the random games are played under: the server's move limit's, and a small
/// one, so that some turns run out of it and carry `[%budget N]`.
const BUDGETS: [u64; 2] = [720, 40];

/// Characters that exercise the escapes and Unicode.
const AWKWARD: &[char] = &[
    'a',
    'Z',
    ' ',
    '"',
    '\\',
    '{',
    '}',
    '[',
    ']',
    '%',
    'é',
    'Ω',
    '\u{1F33E}',
    '\n',
    '\t',
    '^',
    '*',
    '.',
    '1',
];

fn awkward_text(rng: &mut SmallRng, max: usize) -> String {
    let len = rng.random_range(0..=max);
    (0..len)
        .map(|_| AWKWARD[rng.random_range(0..AWKWARD.len())])
        .collect()
}

fn arrangement(rng: &mut SmallRng) -> Arrangement {
    let mut counts = [0u64; 16];
    for _ in 0..32 {
        counts[rng.random_range(0..16)] += 1;
    }
    Arrangement::new(&counts).expect("32 seeds over 16 pits")
}

/// The start of a random game and, when it is not the standard one, its Setup.
fn start(rng: &mut SmallRng, ruleset: Ruleset, akakyala: bool) -> (Game, Option<String>) {
    let standard = Game::start(ruleset, Preset::Outer, Side::South);
    let game = match (ruleset, rng.random_range(0..4)) {
        (Ruleset::Omweso, 1) => Game::start(ruleset, Preset::Even, Side::South),
        (Ruleset::Omweso, 2) => Game::from_arrangements(
            Rules::OMWESO,
            arrangement(rng),
            arrangement(rng),
            Side::South,
        ),
        (Ruleset::Omweso, 3) => Game::start(ruleset, Preset::Outer, Side::North),
        (Ruleset::Oware, 1) => Game::start(ruleset, Preset::Outer, Side::North),
        (Ruleset::Mweiso, 1) => Game::from(
            Position::parse(
                "1,0,3,3,0,3,3,3/6,0,5,1,5,5,5,1/2,0,2,0,2,2,2,0/2,0,0,1,0,3,3,1 n",
                Rules::MWEISO,
            )
            .expect("a Mweiso main-phase position"),
        ),
        _ => standard,
    };
    let setup = (game != standard).then(|| game.to_string());
    let game = if akakyala {
        game.with_akakyala([false, false]).expect("Omweso")
    } else {
        game
    };
    (game, setup)
}

/// A random legal game, as the server would record it.
fn random_record(seed: u64, ruleset: Ruleset, plies: usize) -> GameRecord {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut record = GameRecord::new(ruleset);
    record.akakyala = ruleset == Ruleset::Omweso && rng.random_bool(0.3);
    let (mut game, setup) = start(&mut rng, ruleset, record.akakyala);
    let budget = BUDGETS[usize::from(rng.random_bool(0.2))];
    record.setup = setup;
    for name in [
        "Event",
        "Site",
        "Date",
        "Round",
        "South",
        "North",
        "TimeControl",
    ] {
        if rng.random_bool(0.6) {
            // A tag's value holds no control characters (the writer makes them spaces).
            let value = awkward_text(&mut rng, 12).replace(['\n', '\t'], " ");
            record.tags.push(Tag::new(name, value));
        }
    }
    let mut outcome = game.outcome();
    while record.moves.len() < plies && outcome.is_none() {
        let (mover, stolen) = if game.is_opening() {
            let owed = game.opening_owed();
            if owed.is_empty() {
                break;
            }
            (owed[rng.random_range(0..owed.len())], false)
        } else {
            let to_move = game.to_move().expect("one side to move");
            if rng.random_bool(0.1) {
                (to_move.other(), true)
            } else {
                (to_move, false)
            }
        };
        let board = if stolen {
            game.with_side_to_move(mover)
        } else {
            game
        };
        let Some(mv) = board.random_move(mover, Some(budget), &mut |n| rng.random_range(0..n))
        else {
            break;
        };
        let played = board
            .play(&mv, Some(budget))
            .expect("a listed move is legal");
        let mut entry = MoveRecord::new(mover, mv.to_string());
        entry.stolen = stolen;
        if played.summary.end == TurnEnd::Budget {
            entry.budget = Some(budget);
        }
        if rng.random_bool(0.5) {
            entry.emt_ms = Some(rng.random_range(0..10_000_000));
        }
        if rng.random_bool(0.2) {
            let text = awkward_text(&mut rng, 20);
            let text = text.trim();
            entry.comment = (!text.is_empty()).then(|| text.to_owned());
        }
        record.moves.push(entry);
        game = played.game;
        outcome = played.outcome;
    }
    if outcome.is_none() {
        let winner = if rng.random_bool(0.5) {
            Side::South
        } else {
            Side::North
        };
        outcome = match rng.random_range(0..5) {
            0 => None,
            1 => Some(Outcome::Win {
                winner,
                victory: Victory::Resigned,
            }),
            2 => Some(Outcome::Win {
                winner,
                victory: Victory::Abandoned,
            }),
            3 => Some(Outcome::Win {
                winner,
                victory: Victory::Adjudicated,
            }),
            _ => match game.oware() {
                Some(oware) => {
                    record.impasse = Some(ImpasseRecord {
                        proposed_by: winner,
                        split: oware.impasse_split(),
                    });
                    Some(oware.settle_impasse().1)
                }
                None => None,
            },
        };
    }
    record.set_outcome(outcome);
    record
}

fn ruleset() -> impl Strategy<Value = Ruleset> {
    prop_oneof![
        Just(Ruleset::Omweso),
        Just(Ruleset::Mweiso),
        Just(Ruleset::Oware)
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn a_written_game_parses_back_to_the_same_record(
        seed in any::<u64>(),
        ruleset in ruleset(),
        plies in 0usize..80,
    ) {
        let record = random_record(seed, ruleset, plies);
        let text = write_game(&record);
        let parsed = parse_games(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(&parsed, &vec![record.clone()], "{}", text);
        prop_assert_eq!(&write_game(&parsed[0]), &text);
        let replay = record.replay().map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(replay.positions.len(), record.moves.len());
        prop_assert_eq!(replay.outcome, record.outcome());
    }

    #[test]
    fn games_written_one_after_another_make_a_file(
        seeds in proptest::collection::vec((any::<u64>(), ruleset(), 0usize..30), 0..5),
    ) {
        let records: Vec<GameRecord> =
            seeds.iter().map(|&(seed, r, plies)| random_record(seed, r, plies)).collect();
        let file: String = records.iter().map(write_game).collect();
        prop_assert_eq!(parse_games(&file).map_err(|e| TestCaseError::fail(e.to_string()))?, records);
    }
}

/// The generator reaches what the round trip is for: every ruleset's moves, steals,
/// turns out of budget, free setups, impasses, comments and clocks, and games decided on
/// the board.
#[test]
fn the_random_games_cover_every_feature() {
    let records: Vec<GameRecord> = (0..300)
        .map(|seed| random_record(seed, Ruleset::ALL[seed as usize % 3], 80))
        .collect();
    let any = |f: &dyn Fn(&GameRecord) -> bool| records.iter().any(f);
    assert!(any(&|r| r.moves.iter().any(|m| m.stolen)));
    assert!(any(&|r| r.moves.iter().any(|m| m.budget.is_some())));
    assert!(any(&|r| r.moves.iter().any(|m| m.comment.is_some())));
    assert!(any(&|r| r.impasse.is_some()));
    assert!(any(&|r| r.ruleset == Ruleset::Mweiso
        && r.setup.is_none()
        && r.moves.len() > 2));
    assert!(any(&|r| r.setup.is_some() && r.ruleset == Ruleset::Omweso));
    assert!(any(&|r| matches!(
        r.outcome(),
        Some(Outcome::Win {
            victory: Victory::NoMove | Victory::Captures,
            ..
        })
    )));
    let moves: usize = records.iter().map(|r| r.moves.len()).sum();
    assert!(moves > 5_000, "{moves} moves in 300 games");
}
