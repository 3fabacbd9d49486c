//! A board table's entries on hand-made cases: who agrees with whom, what waits for the
//! director, and what a board result may say.

use super::*;
use omweso_rules::Victory;

const FIRST: Uuid = Uuid::from_u128(1);
const SECOND: Uuid = Uuid::from_u128(2);

fn win(winner: usize, victory: Victory) -> Verdict {
    Verdict::Win {
        winner,
        victory,
        forfeit: false,
    }
}

fn entry(me: usize, verdict: Verdict, captured: [u64; 2]) -> BoardEntry {
    let mut confirmed = [false; 2];
    confirmed[me] = true;
    BoardEntry {
        by: [FIRST, SECOND][me],
        by_name: ["Kato", "Nakato"][me].to_owned(),
        from_relay: false,
        verdict,
        captured,
        at_ms: 1_000,
        confirmed,
        initialled_for: [None, None],
        figures: GameFigures::default(),
    }
}

#[test]
fn the_other_players_initials_make_the_sheet() {
    let mut board = BoardPlay::default();
    let first = entry(0, win(0, Victory::NoMove), [40, 12]);
    assert_eq!(board.enter(0, first.clone()), Ok(Entered::Waiting));
    assert!(!board.waiting_for_director());
    // The author cannot initial their own entry twice.
    assert_eq!(board.confirm(0).unwrap_err().code, ErrorCode::SheetSettled);
    let Ok(Entered::Agreed(agreed)) = board.confirm(1) else {
        panic!("the second player's initials make the sheet");
    };
    assert_eq!(agreed.confirmed, [true, true]);
    assert_eq!(agreed.verdict, win(0, Victory::NoMove));
    assert_eq!(agreed.captured, [40, 12]);
}

#[test]
fn the_same_result_entered_by_the_other_is_their_initials() {
    let mut board = BoardPlay::default();
    board
        .enter(1, entry(1, Verdict::Draw { adjudicated: false }, [20, 20]))
        .unwrap();
    let Ok(Entered::Agreed(agreed)) =
        board.enter(0, entry(0, Verdict::Draw { adjudicated: false }, [20, 20]))
    else {
        panic!("the same draw with the same seeds agrees");
    };
    assert_eq!(agreed.by, SECOND, "the standing entry is the one made");
    assert_eq!(board.entries.len(), 1);
}

#[test]
fn entries_that_differ_wait_for_the_director_with_both_kept() {
    let mut board = BoardPlay::default();
    board
        .enter(0, entry(0, win(0, Victory::NoMove), [40, 12]))
        .unwrap();
    // The same winner but other seeds: a different entry.
    assert_eq!(
        board.enter(1, entry(1, win(0, Victory::NoMove), [38, 14])),
        Ok(Entered::Waiting)
    );
    assert!(board.waiting_for_director());
    assert_eq!(board.entries.len(), 2);
    assert_eq!(board.entries[1].captured, [38, 14]);
    // Nobody but the director settles it now.
    assert_eq!(board.confirm(1).unwrap_err().code, ErrorCode::SheetSettled);
    assert_eq!(
        board
            .enter(0, entry(0, win(0, Victory::NoMove), [38, 14]))
            .unwrap_err()
            .code,
        ErrorCode::SheetSettled
    );
}

#[test]
fn a_player_may_replace_their_own_entry_until_it_is_initialled() {
    let mut board = BoardPlay::default();
    board
        .enter(0, entry(0, win(0, Victory::NoMove), [40, 12]))
        .unwrap();
    board
        .enter(0, entry(0, win(0, Victory::EmitweEbiri), [41, 12]))
        .unwrap();
    assert_eq!(board.entries.len(), 1);
    assert_eq!(board.entries[0].verdict, win(0, Victory::EmitweEbiri));
    assert!(!board.waiting_for_director());
}

#[test]
fn a_dispute_needs_an_entry_and_then_waits_for_the_director() {
    let mut board = BoardPlay::default();
    assert_eq!(
        board.dispute(1, "no".into(), 5).unwrap_err().code,
        ErrorCode::NotStarted
    );
    board
        .enter(0, entry(0, win(0, Victory::Akawumbi), [50, 2]))
        .unwrap();
    board.dispute(1, "it was emitwe-ebiri".into(), 5).unwrap();
    assert!(board.waiting_for_director());
    assert_eq!(board.dispute.as_ref().map(|d| d.by), Some(1));
}

#[test]
fn a_relayed_games_end_proposes_unless_a_player_said_the_same() {
    let relay = BoardEntry {
        by: Uuid::from_u128(9),
        from_relay: true,
        confirmed: [false; 2],
        ..entry(0, win(1, Victory::NoMove), [10, 44])
    };
    let mut board = BoardPlay::default();
    board.game_proposes(relay.clone());
    assert!(board.game_ended);
    assert_eq!(board.entries.len(), 1);
    // Both players initial the relay's proposal.
    assert_eq!(board.confirm(0), Ok(Entered::Waiting));
    assert!(matches!(board.confirm(1), Ok(Entered::Agreed(_))));

    let mut board = BoardPlay::default();
    board
        .enter(1, entry(1, win(1, Victory::NoMove), [10, 44]))
        .unwrap();
    board.game_proposes(relay.clone());
    assert_eq!(board.entries.len(), 1, "the same result: no second entry");
    let mut other = BoardPlay::default();
    other
        .enter(1, entry(1, win(1, Victory::NoMove), [12, 44]))
        .unwrap();
    other.game_proposes(relay);
    assert!(
        other.waiting_for_director(),
        "the relay and a player differ"
    );
}

#[test]
fn a_board_result_is_checked_against_the_table_and_the_ruleset() {
    let ids = [FIRST, SECOND];
    let result = |winner: Option<Uuid>, victory: Option<Victory>, seeds: [u64; 2]| BoardResult {
        winner,
        victory,
        seeds: PerPlayer {
            first: seeds[0],
            second: seeds[1],
        },
        seeds_on_board: None,
    };
    assert_eq!(
        board_verdict(
            &result(Some(SECOND), Some(Victory::EmitweEbiri), [20, 30]),
            ids,
            Ruleset::Omweso,
            true,
            false
        ),
        Ok((win(1, Victory::EmitweEbiri), [20, 30]))
    );
    assert_eq!(
        board_verdict(
            &result(None, None, [24, 24]),
            ids,
            Ruleset::Oware,
            false,
            false
        ),
        Ok((Verdict::Draw { adjudicated: false }, [24, 24]))
    );
    let refused = |r: BoardResult, ruleset: Ruleset, akakyala: bool| {
        board_verdict(&r, ids, ruleset, akakyala, false)
            .unwrap_err()
            .message
    };
    assert_eq!(
        refused(
            result(Some(FIRST), Some(Victory::NoMove), [30, 35]),
            Ruleset::Omweso,
            true
        ),
        "the seeds captured add up to 65, more than the 64 a game of omweso has"
    );
    assert_eq!(
        board_verdict(
            &result(Some(FIRST), Some(Victory::Captures), [25, 20]),
            ids,
            Ruleset::Oware,
            false,
            false
        ),
        Ok((win(0, Victory::Captures), [25, 20]))
    );
    assert_eq!(
        refused(
            result(Some(FIRST), Some(Victory::Captures), [25, 24]),
            Ruleset::Oware,
            false
        ),
        "the seeds captured add up to 49, more than the 48 a game of oware has"
    );
    assert_eq!(
        refused(result(Some(FIRST), Some(Victory::Akakyala), [10, 0]), Ruleset::Omweso, false),
        "a game of omweso at the board is won by no-move, emitwe-ebiri, akawumbi, resigned, not \"akakyala\""
    );
    assert_eq!(
        refused(
            result(Some(FIRST), Some(Victory::NoMove), [30, 10]),
            Ruleset::Oware,
            false
        ),
        "a game of oware at the board is won by captures, resigned, not \"no-move\""
    );
    assert_eq!(
        refused(
            result(None, Some(Victory::NoMove), [0, 0]),
            Ruleset::Omweso,
            false
        ),
        "a draw has no victory type (\"no-move\" was given)"
    );
    assert_eq!(
        refused(result(Some(FIRST), None, [0, 0]), Ruleset::Omweso, false),
        "say how the game was won (the victory type)"
    );
    assert_eq!(
        refused(
            result(Some(Uuid::from_u128(3)), Some(Victory::NoMove), [0, 0]),
            Ruleset::Omweso,
            false
        ),
        "the winner must be one of this table's two players"
    );
}

#[test]
fn a_director_initials_for_a_player_without_a_device_once_and_only_an_entry_standing() {
    let td = DirectorInitials {
        by: Uuid::from_u128(7),
        by_name: "TD".into(),
    };
    let mut board = BoardPlay::default();
    assert_eq!(
        board.confirm_for(1, "Okello", td.clone()).unwrap_err().message,
        "nobody has entered this table's result yet: there is nothing to initial for Okello; enter it"
    );
    board
        .enter(0, entry(0, win(0, Victory::NoMove), [40, 12]))
        .unwrap();
    let Ok(Entered::Agreed(agreed)) = board.confirm_for(1, "Okello", td.clone()) else {
        panic!("the director's initials for the other player make the sheet");
    };
    assert_eq!(agreed.confirmed, [true, true]);
    assert_eq!(agreed.initialled_for, [None, Some(td.clone())]);
    assert_eq!(
        board.confirm_for(0, "Kato", td).unwrap_err().message,
        "Kato has initialled this entry already"
    );
}
