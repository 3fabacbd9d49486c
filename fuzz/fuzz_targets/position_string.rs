//! Position strings (docs/rules.md#02-position-strings): arbitrary text parsed as a free-form [`Setup`], as an
//! Omweso and a Mweiso [`Position`], and as an Oware position.
//!
//! - Whatever parses must print back to text that parses to an equal value.
//! - `Position::parse` must agree with `Setup` parsing plus `Position::from_setup`.
//! - For every valid 4x8 position (64 seeds, or fewer as a partial study position), every
//!   legal move of each side that may move is enumerated with `for_each_move(side,
//!   Some(720), ..)`; each result must hold as many seeds as the position (64 for full
//!   ones), be a valid position again, and be what `Position::play` gives for the same
//!   move. Oware moves must keep board + captures at 48.
#![no_main]

use libfuzzer_sys::fuzz_target;
use omweso_rules::{oware, Owing, Position, Rules, Setup, Side, ToMove, SEEDS};

/// The sowing budget of the server's move-completion limit (docs/rules.md#4-play-under-the-referee-server-rules).
const BUDGET: Option<u64> = Some(720);

/// At most this many enumerated moves are replayed with `Position::play` per side (the
/// seed count is checked for all of them).
const REPLAYED: usize = 64;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    four_by_eight(text);
    oware_position(text);
});

fn seeds(pos: &Position) -> u32 {
    pos.board().total(Side::South) + pos.board().total(Side::North)
}

fn four_by_eight(text: &str) {
    let setup = text.parse::<Setup>();
    if let Ok(setup) = &setup {
        let shown = setup.to_string();
        let again: Setup = shown.parse().unwrap_or_else(|e| {
            panic!("{text:?} parsed as a setup printed as {shown:?}, which does not parse: {e}")
        });
        assert_eq!(&again, setup, "{text:?} -> {shown:?} does not round-trip");
        assert_eq!(
            again.to_string(),
            shown,
            "printing is not stable for {text:?}"
        );
    }
    for rules in [Rules::OMWESO, Rules::MWEISO] {
        let parsed = Position::parse(text, rules);
        // `Position::parse` is `Setup` parsing then `from_setup`.
        match (&setup, &parsed) {
            (Ok(setup), Ok(pos)) => {
                assert_eq!(pos.board(), &setup.board);
                assert_eq!(seeds(pos), SEEDS);
                // The side to move is the setup's, except in Mweiso's opening where the one
                // player still owing an opening turn has none: they skip it and the main
                // phase begins with the other (docs/rules.md#2-mweiso-kagera-murray-1951).
                match setup.to_move {
                    ToMove::Opening(Owing::Only(owing)) if pos.setup() != *setup => {
                        assert_eq!(pos.setup().to_move, ToMove::Side(owing.other()), "{text:?}");
                    }
                    _ => assert_eq!(pos.setup(), *setup),
                }
            }
            (Ok(setup), Err(e)) => assert!(
                Position::from_setup(*setup, rules).is_err(),
                "{text:?}: Position::parse refuses ({e}) what Setup + from_setup accept"
            ),
            (Err(_), Ok(pos)) => {
                panic!("{text:?}: Position::parse accepts {pos} but Setup refuses it")
            }
            (Err(_), Err(_)) => {}
        }
        if let Ok(pos) = parsed {
            let shown = pos.to_string();
            let again = Position::parse(&shown, rules)
                .unwrap_or_else(|e| panic!("{text:?} parsed under {rules:?} printed as {shown:?}, which does not parse: {e}"));
            assert_eq!(
                again, pos,
                "{text:?} -> {shown:?} does not round-trip under {rules:?}"
            );
        }
        // Full positions and partial study positions (at most 64 seeds) alike.
        if let Ok(setup) = &setup {
            if let Ok(pos) = Position::from_setup_partial(*setup, rules) {
                check_moves(&pos);
            }
        }
    }
}

fn check_moves(pos: &Position) {
    let total = seeds(pos);
    let rules = pos.rules();
    for side in Side::ALL {
        if !pos.to_move().may_move(side) {
            continue;
        }
        let mut replayed = 0;
        pos.for_each_move(side, BUDGET, |mv, result| {
            let after = seeds(&result.position);
            assert_eq!(
                after, total,
                "{pos} ({rules:?}): {mv} leaves {after} seeds on the board, not {total}: {}",
                result.position
            );
            assert!(
                Position::from_setup_partial(result.position.setup(), rules).is_ok(),
                "{pos}: {mv} gives an invalid position {}",
                result.position
            );
            assert_eq!(
                result.position.rules(),
                rules,
                "{pos}: {mv} changed the rules"
            );
            if replayed < REPLAYED {
                replayed += 1;
                let notation = mv.to_string();
                let reparsed: omweso_rules::Move = notation.parse().unwrap_or_else(|e| {
                    panic!("{pos}: enumerated move {notation:?} does not parse: {e}")
                });
                assert_eq!(
                    &reparsed, mv,
                    "{pos}: move {notation:?} does not round-trip"
                );
                match pos.play(mv, BUDGET) {
                    Ok(played) => assert_eq!(
                        &played, result,
                        "{pos} ({rules:?}): play({mv}) differs from for_each_move's result"
                    ),
                    Err(e) => {
                        panic!("{pos} ({rules:?}): enumerated move {mv} is refused by play: {e}")
                    }
                }
            }
        });
    }
}

fn oware_position(text: &str) {
    let Ok(pos) = text.parse::<oware::Position>() else {
        return;
    };
    let shown = pos.to_string();
    let again: oware::Position = shown.parse().unwrap_or_else(|e| {
        panic!("{text:?} parsed as Oware printed as {shown:?}, which does not parse: {e}")
    });
    assert_eq!(
        again, pos,
        "{text:?} -> {shown:?} does not round-trip (Oware)"
    );
    let all = |p: &oware::Position| {
        u32::from(p.seeds_on(Side::South))
            + u32::from(p.seeds_on(Side::North))
            + u32::from(p.captured(Side::South))
            + u32::from(p.captured(Side::North))
    };
    assert_eq!(all(&pos), u32::from(oware::SEEDS));
    pos.for_each_move(BUDGET, |house, result| {
        assert_eq!(
            all(&result.position),
            u32::from(oware::SEEDS),
            "{pos}: {house} gives {} (seeds not conserved)",
            result.position
        );
        match pos.play(house, BUDGET) {
            Ok(played) => assert_eq!(
                &played, result,
                "{pos}: play({house}) differs from for_each_move"
            ),
            Err(e) => panic!("{pos}: enumerated Oware move {house} is refused by play: {e}"),
        }
    });
}
