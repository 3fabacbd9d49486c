//! The results a ruleset knows (docs/rules.md#15-end-of-the-game, 2, 3 and 5.3), checked by
//! the tournament's task before a board table's entry or a sheet's correction is logged,
//! never in the state machine: a log written before a check existed must still replay, so
//! a draw an Omweso board table was once allowed stays as it was.
//!
//! Omweso and Mweiso have no draws in play: the only draw they know is the director's
//! adjudication when the round's time is up, on equal seeds on each side of the board
//! (docs/rules.md#53-rounds). Oware is drawn in play, 24-24.

use omweso_rules::{Outcome, Ruleset, Victory};
use uuid::Uuid;

use super::board::seeds_in_play;
use super::log::BoardAction;
use super::sheet::Verdict;
use super::state::{Refusal, Tournament};
use omweso_protocol::over_the_board::BoardResult;
use omweso_protocol::ErrorCode;

/// Whether a game of `ruleset` can end in a draw at the board (or online) by its rules.
#[must_use]
pub const fn draws_in_play(ruleset: Ruleset) -> bool {
    matches!(ruleset, Ruleset::Oware)
}

/// The ruleset's name as the messages say it.
fn called(ruleset: Ruleset) -> &'static str {
    match ruleset {
        Ruleset::Omweso => "Omweso",
        Ruleset::Mweiso => "Mweiso",
        Ruleset::Oware => "Oware",
    }
}

fn bad(message: String) -> Refusal {
    Refusal::new(ErrorCode::BadRequest, message)
}

/// Whether `by` may log `action` on board table `table` of round `round` of `t`: an
/// entry's result must be one the ruleset knows (a draw of Omweso or Mweiso only as a
/// director's adjudication), and an adjudication of Omweso or Mweiso gives the seeds on
/// each side of the board it is decided on, which must say what it decided. What the
/// state machine checks itself (the winner a player of the table, the victory one of the
/// ruleset's, the seeds captured no more than the game has) is left to it.
pub fn may_enter_at_the_board(
    t: &Tournament,
    by: Uuid,
    (round, table): (u32, u32),
    action: &BoardAction,
) -> Result<(), Refusal> {
    let BoardAction::Enter { result, .. } = action else {
        return Ok(());
    };
    let ruleset = t.settings().game.ruleset;
    let directs = t.directs(by);
    no_draw_in_play(result, ruleset, directs)?;
    let ids = t
        .rounds()
        .iter()
        .find(|r| r.number == round)
        .and_then(|r| r.tables.iter().find(|x| x.number == table))
        .and_then(|x| Some([x.first, x.second?]))
        .map(|players| players.map(|p| t.players()[p].id));
    seeds_on_the_board(t, result, ruleset, directs, ids)
}

fn no_draw_in_play(result: &BoardResult, ruleset: Ruleset, directs: bool) -> Result<(), Refusal> {
    if result.winner.is_some() || draws_in_play(ruleset) {
        return Ok(());
    }
    let name = called(ruleset);
    match result.victory {
        // The director's adjudication: the one draw these games know.
        Some(_) => Ok(()),
        None if directs => Err(bad(format!(
            "a game of {name} has no draws in play: say who won, or adjudicate it (victory \"adjudicated\"): a draw on equal seeds on each side when the round's time is up"
        ))),
        None => Err(bad(format!(
            "a game of {name} has no draws: say who won and how (only the director adjudicates a draw, on equal seeds on each side, when the round's time is up)"
        ))),
    }
}

/// An adjudication of Omweso or Mweiso is decided on the seeds on each side of the board
/// (docs/rules.md#53-rounds): they are given, add up to the board's seeds (none leaves an
/// Omweso board), and say what was decided (more wins, equal is a draw). Oware's is on the
/// pieces taken, a player's own result on the seeds captured.
fn seeds_on_the_board(
    t: &Tournament,
    result: &BoardResult,
    ruleset: Ruleset,
    directs: bool,
    ids: Option<[Uuid; 2]>,
) -> Result<(), Refusal> {
    let adjudicated = directs && result.victory == Some(Victory::Adjudicated);
    let name = called(ruleset);
    let on_board = match (result.seeds_on_board, ruleset) {
        (Some(_), Ruleset::Oware) => {
            return Err(bad(
                "Oware is adjudicated on the pieces taken: give them (seeds), not seeds_on_board"
                    .into(),
            ))
        }
        (Some(_), _) if !adjudicated => {
            return Err(bad(
                "the seeds on each side of the board are an adjudication's, the director's: give the seeds captured".into(),
            ))
        }
        (None, Ruleset::Omweso | Ruleset::Mweiso) if adjudicated => {
            return Err(bad(format!(
                "an adjudication of {name} is decided on the seeds on each side of the board: give them (seeds_on_board)"
            )))
        }
        (Some(on_board), _) => on_board,
        (None, _) => return Ok(()),
    };
    let (a, b) = (on_board.first, on_board.second);
    let board = seeds_in_play(ruleset);
    let total = a.saturating_add(b);
    if total != board {
        return Err(bad(format!(
            "the seeds on each side add up to {total}: a board of {name} holds {board} (count them again)"
        )));
    }
    let Some(ids) = ids else {
        // No such table, or a bye: the state machine says so.
        return Ok(());
    };
    let decided = match a.cmp(&b) {
        std::cmp::Ordering::Greater => Some(ids[0]),
        std::cmp::Ordering::Less => Some(ids[1]),
        std::cmp::Ordering::Equal => None,
    };
    if result.winner == decided {
        return Ok(());
    }
    Err(bad(match (result.winner, decided) {
        (None, _) => {
            format!("the seeds on each side are not equal ({a} to {b}): more wins, equal is a draw")
        }
        (Some(_), None) => {
            format!("the seeds on each side are equal ({a} to {b}): that is a draw")
        }
        (Some(_), Some(more)) => format!(
            "the seeds on each side say {} has more ({a} to {b}): more wins, equal is a draw",
            t.name_of(more)
        ),
    }))
}

/// Whether `by` may correct the sheet of `game_id` to `outcome` (`adjudicated`: a draw
/// decided on the seeds): a draw of Omweso or Mweiso only as an adjudication (or the
/// adjudicated draw the sheet has, upheld); `adjudicated` names a draw, never a win. Only
/// a director's correction with a reason is checked: the state machine refuses the others
/// first (not a director, no reason), as it always has.
pub fn may_correct_to(
    t: &Tournament,
    by: Uuid,
    game_id: Uuid,
    correction: (&Outcome, &str, bool),
) -> Result<(), Refusal> {
    let (outcome, reason, adjudicated) = correction;
    if !t.directs(by) || reason.trim().is_empty() {
        return Ok(());
    }
    let is_draw = matches!(outcome, Outcome::Draw);
    if adjudicated && !is_draw {
        return Err(bad(
            "\"adjudicated\" marks a draw decided on the seeds; a win on adjudication is the victory \"adjudicated\"".into(),
        ));
    }
    let ruleset = t.settings().game.ruleset;
    if !is_draw || adjudicated || draws_in_play(ruleset) {
        return Ok(());
    }
    let standing = t
        .rounds()
        .iter()
        .flat_map(|r| &r.tables)
        .filter_map(|table| table.game.as_ref())
        .find(|g| g.game_id == game_id)
        .and_then(|g| g.sheet.as_ref())
        .map(super::sheet::Sheet::verdict);
    if standing == Some(Verdict::Draw { adjudicated: true }) {
        // The adjudicated draw it has, upheld (a dispute rejected).
        return Ok(());
    }
    Err(bad(format!(
        "a game of {} has no draws: a draw is only the director's adjudication, on equal seeds on each side (\"adjudicated\": true)",
        called(ruleset)
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_oware_is_drawn_in_play() {
        assert!(draws_in_play(Ruleset::Oware));
        assert!(!draws_in_play(Ruleset::Omweso));
        assert!(!draws_in_play(Ruleset::Mweiso));
    }
}
