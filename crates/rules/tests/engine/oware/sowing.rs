//! Sowing (the origin skipped) and captures (chains, grand slam).

use omweso_rules::oware::{Lap, LapKind, Position};
use omweso_rules::Side;

use super::*;

#[test]
fn sowing_from_the_start() {
    let start = Position::start(Side::South);
    let (result, laps) = play_laps(&start, "C1");
    assert_eq!(result.position.to_string(), "4,4,4,4,4,5/4,4,0,5,5,5 n 0 0");
    assert_eq!(laps[0].to, h("F2"));
    // North's B2 sows A2, then on into South's row: A1, B1, C1.
    let result = play(&result.position, "B2");
    assert_eq!(result.position.to_string(), "5,0,4,4,4,5/5,5,1,5,5,5 s 0 0");
}

#[test]
fn twelve_seeds_skip_the_origin() {
    // A1 holds 12: one seed in each of the 11 other houses, then the 12th skips A1 and
    // falls in B1.
    let position = pos([12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], Side::South, [18, 17]);
    let (result, laps) = play_laps(&position, "A1");
    assert_eq!(
        result.position.houses(),
        [0, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2]
    );
    assert_eq!(result.seeds_sown, 12);
    assert_eq!(result.captured, 0);
    assert_eq!(laps[0].to, h("B1"));
}

#[test]
fn skipping_the_origin_moves_the_last_seed_into_a_capture() {
    // F1 holds 12: without the skip the last seed would fall back into F1; with it, it
    // falls in F2, which then holds 2 and is captured (F2 ends North's row from South's
    // side of the chain, so the chain stops there).
    let position = pos([0, 0, 0, 0, 0, 12, 0, 1, 1, 1, 1, 1], Side::South, [16, 15]);
    let (result, laps) = play_laps(&position, "F1");
    assert_eq!(
        result.position.houses(),
        [1, 1, 1, 1, 1, 0, 0, 2, 2, 2, 2, 2]
    );
    assert_eq!(result.captured, 2);
    assert_eq!(result.position.captured(Side::South), 18);
    assert_eq!(
        laps,
        [Lap {
            from: h("F1"),
            seeds: 12,
            to: h("F2"),
            captured: 2,
            kind: LapKind::Capture,
        }]
    );
}

#[test]
fn twenty_three_seeds_skip_the_origin_twice() {
    // 23 = 2 x 11 + 1: two seeds in every other house, the 23rd in B2 (after A2), and
    // A2 is skipped twice.
    let position = pos([1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 23], Side::North, [12, 12]);
    let (result, laps) = play_laps(&position, "A2");
    assert_eq!(
        result.position.houses(),
        [4, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 0]
    );
    assert_eq!(laps[0].to, h("A1"));
    assert_eq!(result.captured, 0, "A1 holds 4: no capture");
    assert_eq!(result.seeds_sown, 23);

    // 22 = 2 x 11: the last seed falls in the house before the origin, twice skipped.
    let position = pos([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 22, 1], Side::North, [13, 12]);
    let (result, laps) = play_laps(&position, "B2");
    assert_eq!(laps[0].to, h("C2"));
    assert_eq!(
        result.position.houses(),
        [2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 0, 3]
    );
    assert_eq!(result.captured, 0, "C2 is North's own house");
}

#[test]
fn many_seeds_lap_three_times() {
    // 35 = 3 x 11 + 2 from D1: three seeds in every other house, one more in E1 and F1.
    let position = pos([0, 0, 0, 35, 0, 0, 0, 0, 0, 0, 0, 0], Side::South, [6, 7]);
    let (result, laps) = play_laps(&position, "D1");
    assert_eq!(
        result.position.houses(),
        [3, 3, 3, 0, 4, 4, 3, 3, 3, 3, 3, 3]
    );
    assert_eq!(laps[0].to, h("F1"));
    assert_eq!(result.captured, 0);
}

#[test]
fn capture_chain_stops_at_a_house_holding_one() {
    // South E1 (4 seeds): F1, F2, E2, D2. D2 1 -> 2 and E2 2 -> 3 are captured; F2 0 -> 1
    // stops the chain. C2 holds 2 but comes after the last seed: untouched.
    let position = pos([0, 0, 0, 0, 4, 0, 0, 2, 1, 2, 0, 3], Side::South, [20, 16]);
    let (result, laps) = play_laps(&position, "E1");
    assert_eq!(result.captured, 5);
    // South reaches 25 and the game stops: the board left, [0, 0, 0, 0, 0, 1, 1, 0, 0, 2,
    // 0, 3], is swept, South's F1 1 to South (26) and North's F2 1, C2 2, A2 3 to North
    // (22).
    assert_eq!(result.position.houses(), [0; 12]);
    assert_eq!(result.position.captured(Side::South), 26);
    assert_eq!(result.position.captured(Side::North), 22);
    assert_eq!(result.outcome, win(Side::South));
    assert_eq!(laps[0].to, h("D2"));
    assert_eq!(laps[0].kind, LapKind::Capture);
    assert_eq!(laps[0].captured, 5);
}

#[test]
fn capture_chain_stops_at_a_house_holding_four() {
    // As above but F2 held 3 and now holds 4: only D2 and E2 are captured.
    let position = pos([0, 0, 0, 0, 4, 0, 3, 2, 1, 0, 0, 1], Side::South, [19, 18]);
    let result = play(&position, "E1");
    assert_eq!(result.captured, 5);
    assert_eq!(
        result.position.houses(),
        [0, 0, 0, 0, 0, 1, 4, 0, 0, 0, 0, 1]
    );
    assert_eq!(result.position.captured(Side::South), 24);
    assert_eq!(result.outcome, None, "24 is not more than half");
}

#[test]
fn capture_needs_two_or_three_in_the_last_house() {
    // The last seed makes D2 4: nothing is captured though E2 and F2 hold 2 and 3.
    let position = pos([0, 0, 0, 0, 4, 0, 2, 1, 3, 0, 0, 1], Side::South, [19, 18]);
    let (result, laps) = play_laps(&position, "E1");
    assert_eq!(result.captured, 0);
    assert_eq!(
        result.position.houses(),
        [0, 0, 0, 0, 0, 1, 3, 2, 4, 0, 0, 1]
    );
    assert_eq!(laps[0].kind, LapKind::End);
    // The last seed in the mover's own house making 2 captures nothing either.
    let position = pos([1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5], Side::South, [21, 20]);
    let result = play(&position, "A1");
    assert_eq!(result.captured, 0);
    assert_eq!(
        result.position.houses(),
        [0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5]
    );
}

#[test]
fn capture_chain_stops_at_the_end_of_the_opponents_row() {
    // South E1 (4 seeds): F1 1 -> 2, F2 1 -> 2, E2 2 -> 3, D2 1 -> 2. D2, E2, F2 are
    // captured; the chain ends with North's row and F1 (South's own, holding 2) stays.
    let position = pos([0, 0, 0, 0, 4, 1, 1, 2, 1, 0, 0, 5], Side::South, [10, 24]);
    let result = play(&position, "E1");
    assert_eq!(result.captured, 7);
    assert_eq!(
        result.position.houses(),
        [0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 5]
    );
    assert_eq!(
        result.position.to_string(),
        "5,0,0,0,0,0/0,0,0,0,0,2 n 17 24"
    );
    assert_eq!(result.outcome, None);

    // North A2 (3 seeds): A1 1 -> 2, B1 1 -> 2, C1 2 -> 3, all captured; the chain ends
    // at A1 and does not go on into A2, North's own house.
    let position = pos([1, 1, 2, 0, 0, 4, 0, 0, 0, 0, 2, 3], Side::North, [20, 15]);
    let (result, laps) = play_laps(&position, "A2");
    assert_eq!(result.captured, 7);
    assert_eq!(
        result.position.houses(),
        [0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 2, 0]
    );
    assert_eq!(result.position.captured(Side::North), 22);
    assert_eq!(laps[0].to, h("C1"));
}

#[test]
fn grand_slam_of_a_single_house() {
    // North has only F2 (1 seed); South's F1 makes it 2, which would be every seed North
    // has: a grand slam, legal but capturing nothing.
    let position = pos([0, 0, 0, 0, 3, 1, 1, 0, 0, 0, 0, 0], Side::South, [22, 21]);
    let (result, laps) = play_laps(&position, "F1");
    assert_eq!(result.captured, 0);
    assert_eq!(
        result.position.houses(),
        [0, 0, 0, 0, 3, 0, 2, 0, 0, 0, 0, 0]
    );
    assert_eq!(laps[0].kind, LapKind::End);
    assert_eq!(laps[0].to, h("F2"));
}
