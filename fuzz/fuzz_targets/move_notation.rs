//! Move notation (docs/rules.md#03-move-notation): arbitrary text parsed as a 4x8 [`Move`] and as an Oware
//! [`oware::House`]. Whatever parses must print back to text that parses to an equal
//! value. A parsed move is then played on four fixed positions (Omweso's outer start, the
//! worked example of docs/rules.md#16-worked-example, Mweiso's start and a Mweiso main-phase position) with
//! the server's budget of 720 seeds: `play` must not panic, and a move it accepts must
//! leave 64 seeds on the board. `play_unchecked`, documented never to panic on an illegal
//! move, is called with it too. A parsed house is played on three Oware positions.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use omweso_rules::{oware, Move, Position, Preset, Rules, Side, SEEDS};

const BUDGET: Option<u64> = Some(720);

/// docs/rules.md#16-worked-example: South's legal moves are E1 H2 E2 D2 B2 A2.
const WORKED_EXAMPLE: &str = "5,0,0,0,1,1,1,1/0,3,0,5,5,5,0,5/10,4,1,4,4,0,0,4/1,0,0,0,4,0,0,0 s";
/// Mweiso after the opening turns North A4, then South C1; North moves first.
const MWEISO_MAIN: &str = "1,0,3,3,0,3,3,3/6,0,5,1,5,5,5,1/2,0,2,0,2,2,2,0/2,0,0,1,0,3,3,1 n";

fn positions() -> &'static [Position; 4] {
    static POSITIONS: OnceLock<[Position; 4]> = OnceLock::new();
    POSITIONS.get_or_init(|| {
        [
            Position::start(Rules::OMWESO, Preset::Outer, Side::South),
            Position::parse(WORKED_EXAMPLE, Rules::OMWESO).expect("the worked example"),
            Position::start(Rules::MWEISO, Preset::Even, Side::South),
            Position::parse(MWEISO_MAIN, Rules::MWEISO).expect("the Mweiso main-phase position"),
        ]
    })
}

fn oware_positions() -> &'static [oware::Position; 3] {
    static POSITIONS: OnceLock<[oware::Position; 3]> = OnceLock::new();
    POSITIONS.get_or_init(|| {
        [
            oware::Position::start(Side::South),
            oware::Position::start(Side::North),
            // North is empty: South must feed.
            "0,0,0,0,0,0/1,0,3,0,12,2 s 14 16"
                .parse()
                .expect("must-feed position"),
        ]
    })
}

fn seeds(pos: &Position) -> u32 {
    pos.board().total(Side::South) + pos.board().total(Side::North)
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(mv) = text.parse::<Move>() {
        let shown = mv.to_string();
        let again: Move = shown.parse().unwrap_or_else(|e| {
            panic!("{text:?} parsed as a move printed as {shown:?}, which does not parse: {e}")
        });
        assert_eq!(again, mv, "{text:?} -> {shown:?} does not round-trip");
        for pos in positions() {
            if let Ok(result) = pos.play(&mv, BUDGET) {
                let after = seeds(&result.position);
                assert_eq!(
                    after, SEEDS,
                    "{pos}: {mv} leaves {after} seeds: {}",
                    result.position
                );
            }
            let unchecked = pos.play_unchecked(&mv, BUDGET);
            let after = seeds(&unchecked.position);
            assert_eq!(
                after, SEEDS,
                "{pos}: play_unchecked({mv}) leaves {after} seeds: {}",
                unchecked.position
            );
        }
    }
    if let Ok(house) = text.parse::<oware::House>() {
        let shown = house.to_string();
        let again: oware::House = shown.parse().unwrap_or_else(|e| {
            panic!("{text:?} parsed as a house printed as {shown:?}, which does not parse: {e}")
        });
        assert_eq!(again, house, "{text:?} -> {shown:?} does not round-trip");
        for pos in oware_positions() {
            if let Ok(result) = pos.play(house, BUDGET) {
                let p = result.position;
                let all = u32::from(p.seeds_on(Side::South))
                    + u32::from(p.seeds_on(Side::North))
                    + u32::from(p.captured(Side::South))
                    + u32::from(p.captured(Side::North));
                assert_eq!(all, u32::from(oware::SEEDS), "{pos}: {house} gives {p}");
            }
        }
    }
});
