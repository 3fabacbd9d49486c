//! A move played out on an analysed position: its laps (to animate), where it stops - the
//! turn's end, or a decision point with what each option would do - and the position after
//! it with who may move next. Stateless: a turn answered stepwise is sent again from its
//! start with the answers so far (a turn is cheap to sow again: at most the budget).

use omweso_rules::{Game, GameMove, Progress};

use super::position::{history, view};
use super::Refused;
use crate::game::decision_results::{option_results, options};
use crate::game::laps::LapRecord;
use omweso_protocol::analysis::{PendingDecision, PlayAnswer, PositionView};
use omweso_protocol::{ErrorCode, Legal};

/// Plays `notation` (a whole move, or a start and some of its answers) on `game`, each
/// turn sown under `budget`.
pub fn play(game: &Game, budget: u64, notation: &str) -> Result<PlayAnswer, Refused> {
    if game.outcome().is_some() {
        return Err(Refused::new(
            ErrorCode::GameOver,
            "the game is over in this position",
        ));
    }
    let mv = GameMove::parse(game.ruleset(), notation)
        .map_err(|e| Refused::new(ErrorCode::BadMove, format!("{notation:?}: {e}")))?;
    let start = mv.start();
    let by = start.side();
    if !game.may_move(by) {
        return Err(Refused::new(
            ErrorCode::IllegalMove,
            format!(
                "{notation}: {start} is {}'s {}, and {} may not move in this position",
                by.name(),
                start.hole().noun(),
                by.name()
            ),
        ));
    }
    let mut turn = game
        .begin_turn(start, Some(budget))
        .map_err(|e| Refused::new(ErrorCode::IllegalMove, format!("{notation}: {e}")))?;
    let mut laps = LapRecord::default();
    let mut tokens = vec![start.to_string()];
    let mut answers = mv.answers().iter();
    loop {
        match turn.run(&mut laps) {
            Progress::Done(_) => break,
            Progress::Decision(decision) => {
                let Some(&answer) = answers.next() else { break };
                turn.answer(answer).map_err(|_| {
                    Refused::new(
                        ErrorCode::IllegalMove,
                        format!(
                            "{notation}: {answer} is not an option after {} laps; the options are {}",
                            turn.laps(),
                            options(&decision, by).join(", ")
                        ),
                    )
                })?;
                tokens.push(answer.to_string());
            }
        }
    }
    if let Some(extra) = answers.next() {
        return Err(Refused::new(
            ErrorCode::IllegalMove,
            format!("{notation}: {extra} answers no decision point: the turn is over"),
        ));
    }
    let (pending, decision, after) = match turn.result() {
        Some(result) => {
            let mut after = view(&result.game, budget);
            // A turn's own result (a win by emitwe-ebiri, an annulment) is not the
            // position's: the game ended with the turn, and nobody moves after it.
            if result.outcome.is_some() {
                after.outcome = result.outcome;
                after.legal = Legal::default();
            }
            (false, None, after)
        }
        None => {
            let decision = turn.pending_decision().map(|d| PendingDecision {
                by,
                options: options(&d, by),
                results: option_results(Some(game), &turn, by),
            });
            let after = PositionView {
                position: game.position_during(&turn),
                to_move: game.to_move(),
                opening: game.opening_owed(),
                legal: Legal::default(),
                outcome: None,
                akakyala: history(game),
            };
            (true, decision, after)
        }
    };
    Ok(PlayAnswer {
        by,
        mv: tokens.join("/"),
        laps: laps.shown,
        laps_omitted: laps.omitted,
        pending,
        decision,
        after,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::position::read;
    use omweso_protocol::LapKind;
    use omweso_rules::{Ruleset, Side};

    const WORKED: &str = "5,0,0,0,1,1,1,1/0,3,0,5,5,5,0,5/10,4,1,4,4,0,0,4/1,0,0,0,4,0,0,0 s";
    const AFTER_E1: &str = "5,0,0,0,1,1,1,0/0,3,0,5,5,5,0,0/10,4,1,4,4,1,1,6/1,0,0,0,0,2,2,2 n";

    #[test]
    fn e1_of_the_worked_example_gives_the_documented_position() {
        let read = read(Ruleset::Omweso, WORKED, None, None).unwrap();
        let played = play(&read.game, read.budget, "E1").unwrap();
        assert_eq!(played.by, Side::South);
        assert_eq!(played.mv, "E1");
        assert!(!played.pending);
        assert_eq!(played.after.position, AFTER_E1);
        assert_eq!(played.after.to_move, Some(Side::North));
        assert_eq!(played.laps.len(), 2);
        assert_eq!(
            (
                played.laps[0].to.as_str(),
                played.laps[0].kind,
                played.laps[0].captured
            ),
            ("H2", LapKind::Capture, 6)
        );
        assert_eq!(
            (
                played.laps[1].from.as_str(),
                played.laps[1].seeds,
                played.laps[1].to.as_str()
            ),
            ("E1", 6, "F2")
        );
        assert!(played.after.legal.n.is_some());
        assert!(played.after.legal.s.is_none());
    }

    #[test]
    fn refusals_say_what_is_wrong() {
        let read = read(Ruleset::Omweso, WORKED, None, None).unwrap();
        let single = play(&read.game, read.budget, "A1").unwrap_err();
        assert_eq!(single.code, ErrorCode::IllegalMove);
        assert!(single.message.contains("A1"), "{}", single.message);
        let north = play(&read.game, read.budget, "A4").unwrap_err();
        assert_eq!(north.code, ErrorCode::IllegalMove);
        assert_eq!(
            north.message,
            "A4: A4 is North's pit, and North may not move in this position"
        );
        let nonsense = play(&read.game, read.budget, "Z9").unwrap_err();
        assert_eq!(nonsense.code, ErrorCode::BadMove);
        let extra = play(&read.game, read.budget, "E1/a").unwrap_err();
        assert_eq!(extra.code, ErrorCode::IllegalMove);
        assert_eq!(
            extra.message,
            "E1/a: a answers no decision point: the turn is over"
        );
    }

    #[test]
    fn a_mweiso_reverse_start_stops_at_its_decision_with_each_options_result() {
        // The start's board in the main phase (the opening never starts clockwise).
        let start = "2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 s";
        let read = read(Ruleset::Mweiso, start, None, None).unwrap();
        let played = play(&read.game, read.budget, "A1'").unwrap();
        assert!(played.pending);
        assert_eq!(played.mv, "A1'");
        let decision = played.decision.unwrap();
        assert_eq!(decision.by, Side::South);
        assert_eq!(decision.options, ["a", "c", "l"]);
        assert_eq!(decision.results.len(), 3);
        assert!(played.after.legal.is_empty());
        // Answering stepwise: the same start with the answer, from the same position.
        let answered = play(&read.game, read.budget, "A1'/a").unwrap();
        assert_eq!(answered.mv, "A1'/a");
        assert!(!answered.pending);
        assert_eq!(answered.after.position, decision.results[0].position);
        assert_eq!(
            answered.laps[played.laps.len()..],
            decision.results[0].laps[..]
        );
        assert!(answered.after.opening.is_empty());
        assert_eq!(answered.after.to_move, Some(Side::North));
        assert!(answered.after.legal.n.is_some() && answered.after.legal.s.is_none());
    }
}
