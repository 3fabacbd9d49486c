//! The engine asked about an analysed position: its best move within a thinking time, the
//! score, how deep and wide it looked, and its principal line with the position after
//! each move (so the page can show the line without playing it). Blocking: it runs on the
//! analysis threads (`super::service`), never on the async workers.

use std::sync::atomic::AtomicBool;

use omweso_rules::{Game, Side};
use omweso_search::{best_move, Limit, Query, SearchError};

use super::Refused;
use omweso_protocol::analysis::{LineMove, SearchAnswer};
use omweso_protocol::ErrorCode;

/// The longest thinking time a page may ask for (the engine CLI allows 60 s; a request
/// must be answered within the server's request time limit, 15 s by default).
pub const MAX_MILLIS: u64 = 10_000;

/// What a search is asked, checked.
#[derive(Clone, Copy, Debug)]
pub struct Checked {
    pub game: Game,
    pub side: Side,
    pub budget: u64,
    pub millis: u64,
}

/// Checks a search's question before it takes a thread: a thinking time out of
/// 1..=[`MAX_MILLIS`] (`bad_limit`), a finished position (`game_over`), and who plays
/// (`bad_side`: a side that may not move, or none named while both owe Mweiso's opening).
pub fn check(game: Game, budget: u64, millis: u64, side: Option<Side>) -> Result<Checked, Refused> {
    if !(1..=MAX_MILLIS).contains(&millis) {
        return Err(Refused::new(
            ErrorCode::BadLimit,
            format!("millis must be 1 to {MAX_MILLIS}, not {millis}"),
        ));
    }
    if game.outcome().is_some() {
        return Err(Refused::new(
            ErrorCode::GameOver,
            "the game is over in this position",
        ));
    }
    let side = match (game.to_move(), side) {
        (_, Some(side)) if !game.may_move(side) => {
            return Err(Refused::new(
                ErrorCode::BadSide,
                format!("{} may not move in this position", side.name()),
            ))
        }
        (_, Some(side)) | (Some(side), None) => side,
        (None, None) => {
            return Err(Refused::new(
                ErrorCode::BadSide,
                "both players owe their Mweiso opening turn: say which plays with \"side\"",
            ))
        }
    };
    Ok(Checked {
        game,
        side,
        budget,
        millis,
    })
}

/// Searches `checked` until its time is up or `stop` is raised.
pub fn search(checked: &Checked, stop: &AtomicBool) -> Result<SearchAnswer, Refused> {
    let query = Query {
        game: checked.game,
        side: checked.side,
        max_seeds: Some(checked.budget),
        limit: Limit::Millis(checked.millis),
        seed: rand::random(),
    };
    let found = best_move(&query, stop).map_err(|e| match e {
        SearchError::GameOver | SearchError::NoLegalMove { .. } => {
            Refused::new(ErrorCode::GameOver, e.to_string())
        }
        SearchError::NotToMove { .. } => Refused::new(ErrorCode::BadSide, e.to_string()),
        SearchError::TooLong { .. } => Refused::new(ErrorCode::BadLimit, e.to_string()),
    })?;
    // The line as played on the board: each move from the position the one before it left
    // (a line the rules refuse is cut where they refuse it).
    let mut line = if found.pv.first() == Some(&found.mv) {
        found.pv.clone()
    } else {
        vec![found.mv.clone()]
    };
    let mut pv = Vec::with_capacity(line.len());
    let mut game = checked.game;
    for mv in line.drain(..) {
        let by = mv.side();
        let Ok(result) = game.play(&mv, Some(checked.budget)) else {
            tracing::warn!(%mv, "the engine's line has a move the rules refuse; cut there");
            break;
        };
        pv.push(LineMove {
            by,
            mv: mv.to_string(),
            position: result.game.to_string(),
            outcome: result.outcome,
        });
        game = result.game;
        if result.outcome.is_some() {
            break;
        }
    }
    let score = if found.score.is_finite() {
        found.score.clamp(-1.0, 1.0)
    } else {
        0.0
    };
    Ok(SearchAnswer {
        side: checked.side,
        mv: found.mv.to_string(),
        score,
        depth: found.depth,
        nodes: found.nodes,
        millis: checked.millis,
        pv,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::position::read;
    use omweso_rules::Ruleset;

    const WORKED: &str = "5,0,0,0,1,1,1,1/0,3,0,5,5,5,0,5/10,4,1,4,4,0,0,4/1,0,0,0,4,0,0,0 s";

    #[test]
    fn the_best_move_is_legal_and_its_line_is_played_out() {
        let read = read(Ruleset::Omweso, WORKED, None, None).unwrap();
        let checked = check(read.game, read.budget, 50, None).unwrap();
        let answer = search(&checked, &AtomicBool::new(false)).unwrap();
        assert_eq!(answer.side, Side::South);
        assert!(["E1", "H2", "E2", "D2", "B2", "A2"].contains(&answer.mv.as_str()));
        assert!((-1.0..=1.0).contains(&answer.score));
        assert_eq!(answer.pv[0].mv, answer.mv);
        assert_eq!(answer.pv[0].by, Side::South);
        let first = read.game.play(
            &omweso_rules::GameMove::parse(Ruleset::Omweso, &answer.mv).unwrap(),
            Some(720),
        );
        assert_eq!(answer.pv[0].position, first.unwrap().game.to_string());
    }

    #[test]
    fn a_search_is_refused_before_it_starts_when_it_cannot_answer() {
        let read = read(Ruleset::Omweso, WORKED, None, None).unwrap();
        let long = check(read.game, 720, 10_001, None).unwrap_err();
        assert_eq!(long.code, ErrorCode::BadLimit);
        assert_eq!(long.message, "millis must be 1 to 10000, not 10001");
        assert_eq!(
            check(read.game, 720, 0, None).unwrap_err().code,
            ErrorCode::BadLimit
        );
        let north = check(read.game, 720, 100, Some(Side::North)).unwrap_err();
        assert_eq!(north.code, ErrorCode::BadSide);
        assert_eq!(north.message, "North may not move in this position");
        let opening = "2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 o";
        let mweiso = read_mweiso(opening);
        assert_eq!(
            check(mweiso, 720, 100, None).unwrap_err().code,
            ErrorCode::BadSide
        );
        assert_eq!(
            check(mweiso, 720, 100, Some(Side::North)).unwrap().side,
            Side::North
        );
    }

    fn read_mweiso(text: &str) -> Game {
        read(Ruleset::Mweiso, text, None, None).unwrap().game
    }
}
