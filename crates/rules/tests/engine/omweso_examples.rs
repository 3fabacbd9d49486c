//! The positions docs/rules.md itself gives: the worked example (1.6) and the long cycle (1.4).

use omweso_rules::{AnnulReason, Outcome, Position, Side, TurnEnd};

fn moves(pos: &Position) -> Vec<String> {
    let side = pos.to_move().single().expect("one side to move");
    pos.legal_moves(side, None)
        .iter()
        .map(ToString::to_string)
        .collect()
}

#[test]
fn worked_example_turn_and_the_legal_moves_after_it() {
    let before: Position = "5,0,0,0,1,1,1,1/0,3,0,5,5,5,0,5/10,4,1,4,4,0,0,4/1,0,0,0,4,0,0,0 s"
        .parse()
        .unwrap();
    // docs/rules.md#16-worked-example: A1 holds a single seed; no clockwise lap from A2 or B2 captures.
    assert_eq!(moves(&before), ["E1", "H2", "E2", "D2", "B2", "A2"]);

    let mut laps = Vec::new();
    let result = before
        .play_observed(&"E1".parse().unwrap(), None, &mut laps)
        .unwrap();
    assert_eq!(
        result.position.to_string(),
        "5,0,0,0,1,1,1,0/0,3,0,5,5,5,0,0/10,4,1,4,4,1,1,6/1,0,0,0,0,2,2,2 n"
    );
    assert_eq!(result.summary.captured, 6);
    assert_eq!(result.summary.capture_columns_letters(), "H");
    assert_eq!(result.summary.laps, 2);
    assert_eq!(result.summary.seeds_sown, 10);
    assert_eq!(result.summary.end, TurnEnd::Ended);
    assert_eq!(result.outcome, None);
    let described: Vec<String> = laps
        .iter()
        .map(|l| {
            format!(
                "{}{}{} {} {} {}",
                l.from,
                l.direction,
                l.seeds,
                l.to,
                l.kind.name(),
                l.captured
            )
        })
        .collect();
    assert_eq!(described, ["E1a4 H2 capture 6", "E1a6 F2 end 0"]);
}

#[test]
fn the_long_cycle_is_never_ending_after_exactly_203_882_464_laps() {
    let pos: Position = "1,2,0,0,0,2,0,1/0,0,0,0,0,0,0,0/12,0,1,8,1,6,1,2/0,6,0,8,3,7,2,1 s"
        .parse()
        .unwrap();
    let result = pos.play(&"E1".parse().unwrap(), None).unwrap();
    assert_eq!(result.summary.end, TurnEnd::NeverEnding);
    assert_eq!(result.summary.laps, 203_882_464);
    assert_eq!(result.summary.captured, 0);
    assert_eq!(
        result.outcome,
        Some(Outcome::Annulled {
            reason: AnnulReason::NeverEnding
        })
    );
    // The repeated state is the turn's first: with the hand back in E1, the board is the
    // one the turn started from.
    assert_eq!(result.position.board(), pos.board());
    assert_eq!(result.position.to_move().single(), Some(Side::North));
}
