//! Property tests against a plain seed-by-seed reference implementation.

use omweso_rules::oware::{House, LapKind, MoveResult, Position, Setup};
use omweso_rules::{Outcome, Side, Victory};
use proptest::prelude::*;

struct Reference {
    houses: [u8; 12],
    captured: [u8; 2],
}

fn own(side: Side, index: usize) -> bool {
    (index < 6) == (side == Side::South)
}

/// Can `side` move, and with what houses (indices), by docs/rules.md#3-oware-abapa read literally.
fn reference_moves(houses: &[u8; 12], side: Side) -> Vec<usize> {
    let opponent_empty = (0..12).all(|i| own(side, i) || houses[i] == 0);
    (0..12)
        .filter(|&i| own(side, i) && houses[i] > 0)
        .filter(|&i| {
            if !opponent_empty {
                return true;
            }
            let mut after = *houses;
            reference_sow(&mut after, i);
            (0..12).any(|j| !own(side, j) && after[j] > 0)
        })
        .collect()
}

fn reference_sow(houses: &mut [u8; 12], origin: usize) -> usize {
    let mut hand = houses[origin];
    houses[origin] = 0;
    let mut at = origin;
    while hand > 0 {
        at = (at + 1) % 12;
        if at == origin {
            continue;
        }
        houses[at] += 1;
        hand -= 1;
    }
    at
}

fn reference_play(position: &Position, origin: usize) -> (Reference, u8) {
    let side = position.to_move();
    let mut r = Reference {
        houses: position.houses(),
        captured: [
            position.captured(Side::South),
            position.captured(Side::North),
        ],
    };
    let last = reference_sow(&mut r.houses, origin);
    let mut taken = Vec::new();
    let mut at = last;
    while !own(side, at) && (r.houses[at] == 2 || r.houses[at] == 3) {
        taken.push(at);
        if at == 0 || at == 6 {
            break;
        }
        at -= 1;
    }
    let total: u8 = taken.iter().map(|&i| r.houses[i]).sum();
    let theirs: u8 = (0..12)
        .filter(|&i| !own(side, i))
        .map(|i| r.houses[i])
        .sum();
    let mut captured = 0;
    if total != theirs {
        for i in taken {
            captured += r.houses[i];
            r.houses[i] = 0;
        }
    }
    r.captured[side.index()] += captured;
    (r, captured)
}

/// 48 seeds dealt into 12 houses and 2 capture piles: all 14 at random; or a random
/// number on the board and the rest captured (more endgames); or all into a few buckets
/// (houses of 12 seeds and more, which skip their origin); or one row empty (must feed).
fn arb_setup() -> impl Strategy<Value = Setup> {
    let buckets = prop::collection::vec(0..14usize, 48).prop_map(|picks| {
        let mut counts = [0u8; 14];
        for pick in picks {
            counts[pick] += 1;
        }
        counts
    });
    let endgame = (0..=48u8, prop::collection::vec(0..12usize, 48), 0..=48u8).prop_map(
        |(on_board, picks, split)| {
            let mut counts = [0u8; 14];
            for &pick in picks.iter().take(usize::from(on_board)) {
                counts[pick] += 1;
            }
            let off = 48 - on_board;
            let south = split.min(off);
            counts[12] = south;
            counts[13] = off - south;
            counts
        },
    );
    let heaps = (
        prop::collection::vec(0..14usize, 1..=4),
        prop::collection::vec(any::<prop::sample::Index>(), 48),
    )
        .prop_map(|(hot, picks)| {
            let mut counts = [0u8; 14];
            for pick in picks {
                counts[*pick.get(&hot)] += 1;
            }
            counts
        });
    let one_row = (
        any::<bool>(),
        0..=48u8,
        prop::collection::vec(0..8usize, 48),
    )
        .prop_map(|(north_row, on_board, picks)| {
            let mut counts = [0u8; 14];
            let base = if north_row { 6 } else { 0 };
            for (i, pick) in picks.into_iter().enumerate() {
                let bucket = if i < usize::from(on_board) {
                    base + pick % 6
                } else {
                    12 + pick % 2
                };
                counts[bucket] += 1;
            }
            counts
        });
    (prop_oneof![buckets, endgame, heaps, one_row], any::<bool>()).prop_map(|(counts, north)| {
        let mut houses = [0u8; 12];
        houses.copy_from_slice(&counts[..12]);
        Setup {
            houses,
            to_move: if north { Side::North } else { Side::South },
            captured: [counts[12], counts[13]],
        }
    })
}

fn arb_position() -> impl Strategy<Value = Position> {
    arb_setup().prop_map(|setup| Position::from_setup(setup).expect("48 seeds"))
}

fn total(position: &Position) -> u32 {
    position.houses().iter().map(|&n| u32::from(n)).sum::<u32>()
        + u32::from(position.captured(Side::South))
        + u32::from(position.captured(Side::North))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn moves_conserve_seeds(position in arb_position()) {
        for house in position.legal_moves() {
            let result = position.play(house, None).unwrap();
            prop_assert_eq!(total(&result.position), 48);
            prop_assert!(Position::from_setup(result.position.setup()).is_ok());
            prop_assert_eq!(result.position.to_move(), position.to_move().other());
            prop_assert_eq!(result.seeds_sown, u64::from(position.seeds(house)));
        }
    }

    #[test]
    fn legal_moves_are_exactly_what_play_accepts(position in arb_position()) {
        let legal = position.legal_moves();
        for index in 0..12u8 {
            let house = House::from_index(index);
            prop_assert_eq!(
                position.play(house, None).is_ok(),
                legal.contains(&house),
                "{} in {}", house, position
            );
        }
        // Column order, the mover's own houses.
        let columns: Vec<u8> = legal.iter().map(|house| house.column()).collect();
        let mut sorted = columns.clone();
        sorted.sort_unstable();
        sorted.dedup();
        prop_assert_eq!(columns, sorted);
        prop_assert!(legal.iter().all(|house| house.side() == position.to_move()));
        prop_assert_eq!(legal.is_empty(), position.outcome().is_some());
        prop_assert_eq!(position.moves().len(), legal.len());
        for (k, house) in legal.iter().enumerate() {
            prop_assert_eq!(position.moves().nth(k), Some(*house));
            prop_assert!(position.is_legal(*house));
        }
        prop_assert_eq!(position.moves().nth(legal.len()), None);
    }

    #[test]
    fn for_each_move_agrees_with_play(position in arb_position(), budget in prop::option::of(0..20u64)) {
        let mut seen = Vec::new();
        position.for_each_move(budget, |house, result| seen.push((house, *result)));
        let expected: Vec<(House, MoveResult)> = position
            .legal_moves()
            .into_iter()
            .map(|house| (house, position.play(house, budget).unwrap()))
            .collect();
        prop_assert_eq!(seen, expected);
    }

    #[test]
    fn play_matches_the_reference(position in arb_position()) {
        let side = position.to_move();
        let over = position.outcome().is_some();
        let reference: Vec<usize> = if over {
            Vec::new()
        } else {
            reference_moves(&position.houses(), side)
        };
        let legal: Vec<usize> = position
            .legal_moves()
            .iter()
            .map(|house| usize::from(house.index()))
            .collect();
        let mut sorted = legal.clone();
        sorted.sort_unstable();
        prop_assert_eq!(&sorted, &reference);
        for origin in reference {
            let (r, captured) = reference_play(&position, origin);
            let mut lap = None;
            let result = position
                .play_observed(House::from_index(origin as u8), None, &mut |l| lap = Some(l))
                .unwrap();
            prop_assert_eq!(result.captured, captured);
            let lap = lap.unwrap();
            prop_assert_eq!(lap.captured, captured);
            prop_assert_eq!(lap.kind == LapKind::Capture, captured > 0);
            let next = side.other();
            let decided = r.captured.iter().any(|&c| c > 24) || r.captured == [24, 24];
            if decided || reference_moves(&r.houses, next).is_empty() {
                // The game is over: swept (at 25 too, docs/rules.md#3-oware-abapa).
                let mut swept = r.captured;
                for (i, &n) in r.houses.iter().enumerate() {
                    swept[if i < 6 { 0 } else { 1 }] += n;
                }
                prop_assert_eq!(result.position.houses(), [0; 12]);
                prop_assert_eq!(
                    [result.position.captured(Side::South), result.position.captured(Side::North)],
                    swept
                );
                prop_assert!(result.outcome.is_some());
            } else {
                prop_assert_eq!(result.position.houses(), r.houses);
                prop_assert_eq!(
                    [result.position.captured(Side::South), result.position.captured(Side::North)],
                    r.captured
                );
                prop_assert_eq!(result.outcome.is_some(), decided);
            }
            prop_assert_eq!(result.outcome, result.position.outcome());
            if let Some(Outcome::Win { winner, victory }) = result.outcome {
                prop_assert_eq!(victory, Victory::Captures);
                prop_assert!(result.position.captured(winner) > 24);
            }
        }
    }

    #[test]
    fn position_strings_round_trip_prop(position in arb_position()) {
        let text = position.to_string();
        prop_assert_eq!(text.parse::<Position>().unwrap(), position);
        prop_assert_eq!(text.parse::<Setup>().unwrap(), position.setup());
    }

    #[test]
    fn an_impasse_conserves_splits_evenly_and_judges(position in arb_position()) {
        let (end, outcome) = position.settle_impasse();
        prop_assert_eq!(total(&end), 48);
        prop_assert_eq!(end.houses(), [0; 12]);
        let [south, north] = position.impasse_split();
        let (on_south, on_north) = (position.seeds_on(Side::South), position.seeds_on(Side::North));
        prop_assert_eq!(south + north, on_south + on_north);
        prop_assert!(south.abs_diff(north) <= 1);
        if south != north {
            // The odd seed goes to the side with more seeds on it.
            prop_assert_eq!(south > north, on_south > on_north);
        }
        prop_assert_eq!(end.captured(Side::South), position.captured(Side::South) + south);
        let judged = match end.outcome() {
            Some(Outcome::Win { winner, .. }) => Some(Outcome::Win { winner, victory: Victory::Impasse }),
            other => other,
        };
        prop_assert_eq!(judged, Some(outcome));
    }

    #[test]
    fn parsers_never_panic(text in ".*") {
        let _ = text.parse::<House>();
        let _ = text.parse::<Setup>();
        let _ = text.parse::<Position>();
    }

    #[test]
    fn parsers_never_panic_on_near_misses(text in "[0-9,/ sn]{0,48}") {
        if let Ok(setup) = text.parse::<Setup>() {
            prop_assert_eq!(setup.to_string().parse::<Setup>().unwrap(), setup);
        }
        let _ = text.parse::<Position>();
    }

    #[test]
    fn random_games_end_or_keep_48(seed in any::<u64>()) {
        let mut position = Position::start(if seed % 2 == 0 { Side::South } else { Side::North });
        let mut state = seed;
        for _ in 0..300 {
            let moves = position.legal_moves();
            if moves.is_empty() {
                prop_assert!(position.outcome().is_some());
                break;
            }
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let house = moves[(state >> 33) as usize % moves.len()];
            let result = position.play(house, None).unwrap();
            prop_assert_eq!(total(&result.position), 48);
            prop_assert_eq!(result.outcome, result.position.outcome());
            position = result.position;
        }
    }
}
