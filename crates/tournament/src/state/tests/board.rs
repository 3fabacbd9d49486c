//! Board tables on hand-made histories (docs/rules.md#57-over-the-board-play-and-relays):
//! four players, table 1 at the board and table 2 online; the values worked out in the
//! comments.

use super::*;
use crate::log::BoardAction;
use crate::sheet::Verdict;
use omweso_protocol::over_the_board::{BoardResult, PlayedAt};
use omweso_protocol::tournament::{PerPlayer, RoundStatus};

const DIRECTOR: u128 = 1;

fn at_the_board(t: &mut Tournament, round: u32, table: Option<u32>) {
    t.apply(
        &Entry::PlayedAt {
            round,
            table,
            played_at: PlayedAt::Board,
            by: id(DIRECTOR),
        },
        0,
    )
    .expect("at the board");
}

fn board(t: &mut Tournament, by: Uuid, action: BoardAction, at: u64) -> Result<(), Refusal> {
    t.apply(
        &Entry::BoardSheet {
            round: 1,
            table: 1,
            by,
            action,
        },
        at,
    )
    .map(drop)
}

fn entered(winner: Option<u128>, victory: Option<Victory>, seeds: [u64; 2]) -> BoardAction {
    BoardAction::Enter {
        result: BoardResult {
            winner: winner.map(player),
            victory,
            seeds: PerPlayer {
                first: seeds[0],
                second: seeds[1],
            },
            seeds_on_board: None,
        },
        as_player: false,
    }
}

/// P0-P1 at the board (table 1), P2-P3 online (table 2), round 1 started at 1 000.
fn hall() -> (Tournament, Vec<Option<Uuid>>) {
    let mut t = new(System::Swiss, 4);
    pair(&mut t, 1, &[(0, Some(1)), (2, Some(3))]);
    at_the_board(&mut t, 1, Some(1));
    let games = start(&mut t, 1, 1_000);
    (t, games)
}

fn points(t: &Tournament) -> Vec<(Uuid, f64)> {
    let mut lines: Vec<(Uuid, f64)> = t
        .standings()
        .iter()
        .map(|s| (s.player_id, s.points))
        .collect();
    lines.sort_by_key(|(id, _)| *id);
    lines
}

#[test]
fn a_board_sheet_is_made_by_the_other_players_initials_and_counts_only_then() {
    let (mut t, games) = hall();
    // The board table has its sheet's id but is not watched as a game.
    assert_eq!(t.games_in_play(), vec![(games[1].unwrap(), 1, 2)]);
    assert!(!t.in_play(games[0].unwrap()));
    // P1 enters: P1 won by emitwe-ebiri, 40 seeds to 12 (P0 first).
    board(
        &mut t,
        player(1),
        entered(Some(1), Some(Victory::EmitweEbiri), [12, 40]),
        2_000,
    )
    .unwrap();
    assert_eq!(t.rounds()[0].tables[0].game.as_ref().unwrap().sheet, None);
    assert_eq!(points(&t)[1].1, 0.0, "an entry alone counts for nothing");
    // P0 initials it: the sheet is made, confirmed, and P1 has emitwe-ebiri's 2 points.
    board(&mut t, player(0), BoardAction::Confirm, 3_000).unwrap();
    let sheet = t.rounds()[0].tables[0]
        .game
        .as_ref()
        .unwrap()
        .sheet
        .clone()
        .unwrap();
    assert_eq!(sheet.status(), SheetStatus::Confirmed);
    assert!(sheet.over_the_board);
    assert_eq!(
        sheet.confirms_at(),
        None,
        "nothing confirms itself at the board"
    );
    assert_eq!(sheet.figures.captured, [12, 40]);
    assert_eq!(
        points(&t),
        vec![
            (player(0), 0.0),
            (player(1), 2.0),
            (player(2), 0.0),
            (player(3), 0.0)
        ]
    );
    // Made: only a director's correction changes it now.
    assert_eq!(
        board(&mut t, player(0), BoardAction::Confirm, 4_000)
            .unwrap_err()
            .code,
        ErrorCode::SheetSettled
    );
    // A correction of a board sheet may change its seeds too.
    t.apply(
        &Entry::Sheet {
            game_id: games[0].unwrap(),
            by: id(DIRECTOR),
            action: SheetAction::Correct {
                outcome: win(Side::North, Victory::NoMove),
                reason: "it was a plain win".into(),
                seeds: Some([12, 38]),
                adjudicated: false,
            },
        },
        5_000,
    )
    .unwrap();
    let sheet = t.rounds()[0].tables[0]
        .game
        .as_ref()
        .unwrap()
        .sheet
        .clone()
        .unwrap();
    assert_eq!(sheet.figures.captured, [12, 38]);
    assert_eq!(sheet.corrections[0].seeds, Some(([12, 40], [12, 38])));
    assert_eq!(points(&t)[1], (player(1), 1.0));
}

#[test]
fn only_the_tables_players_or_a_director_enter_and_the_director_settles_a_disagreement() {
    let (mut t, _) = hall();
    let result = entered(Some(0), Some(Victory::NoMove), [30, 10]);
    // P2 plays at table 2; 77 is nobody.
    for by in [player(2), id(77)] {
        assert_eq!(
            board(&mut t, by, result.clone(), 2_000).unwrap_err().code,
            ErrorCode::NotYourGame
        );
    }
    board(&mut t, player(0), result, 2_000).unwrap();
    board(
        &mut t,
        player(1),
        entered(Some(1), Some(Victory::NoMove), [10, 30]),
        2_500,
    )
    .unwrap();
    let game = t.rounds()[0].tables[0].game.clone().unwrap();
    assert!(game.board.as_ref().unwrap().waiting_for_director());
    assert_eq!(game.sheet, None);
    // The director enters what stands: a draw, 20 each. The sheet is made at once.
    board(&mut t, id(DIRECTOR), entered(None, None, [20, 20]), 3_000).unwrap();
    let sheet = t.rounds()[0].tables[0].game.clone().unwrap().sheet.unwrap();
    assert_eq!(sheet.status(), SheetStatus::Confirmed);
    assert_eq!(sheet.entered_by, Some(id(DIRECTOR)));
    assert_eq!(points(&t)[0], (player(0), 0.5));
    // Online tables take no board entries.
    let online = t.apply(
        &Entry::BoardSheet {
            round: 1,
            table: 2,
            by: player(2),
            action: entered(Some(2), Some(Victory::NoMove), [30, 10]),
        },
        3_000,
    );
    assert_eq!(online.unwrap_err().code, ErrorCode::BadRequest);
}

#[test]
fn an_omweso_draw_an_older_server_took_at_the_board_still_replays_as_it_was() {
    // The tournament's task now refuses a draw of Omweso (docs/rules.md#15-end-of-the-game),
    // but a log that holds one replays: the entries a player made and initialled stand.
    let (mut t, games) = hall();
    assert_eq!(t.settings().game.ruleset, omweso_rules::Ruleset::Omweso);
    board(&mut t, player(0), entered(None, None, [20, 20]), 2_000).unwrap();
    board(&mut t, player(1), BoardAction::Confirm, 3_000).unwrap();
    let sheet = t.rounds()[0].tables[0].game.clone().unwrap().sheet.unwrap();
    assert_eq!(sheet.verdict(), Verdict::Draw { adjudicated: false });
    assert_eq!(points(&t)[0], (player(0), 0.5));
    // So does a correction to a plain draw logged before "adjudicated" could be said.
    let correct = |adjudicated: bool| Entry::Sheet {
        game_id: games[0].unwrap(),
        by: id(DIRECTOR),
        action: SheetAction::Correct {
            outcome: Outcome::Draw,
            reason: "equal seeds".into(),
            seeds: None,
            adjudicated,
        },
    };
    t.apply(&correct(false), 4_000).unwrap();
    let sheet = t.rounds()[0].tables[0].game.clone().unwrap().sheet.unwrap();
    assert_eq!(sheet.verdict(), Verdict::Draw { adjudicated: false });
    // A correction that says it is an adjudication makes the plain draw adjudicated.
    t.apply(&correct(true), 5_000).unwrap();
    let sheet = t.rounds()[0].tables[0].game.clone().unwrap().sheet.unwrap();
    assert_eq!(sheet.verdict(), Verdict::Draw { adjudicated: true });
    assert_eq!(
        sheet.corrections[1].before,
        Verdict::Draw { adjudicated: false }
    );
    assert_eq!(points(&t)[0], (player(0), 0.5));
}

#[test]
fn a_director_initials_for_a_player_they_added_but_not_at_their_own_table() {
    // P0 (a phone) v Okello (added, no device) at table 1; the director plays Apio (added)
    // at table 2. Both at the board.
    let mut t = new(System::Swiss, 1);
    for (who, name) in [(500, "Okello"), (501, "Apio")] {
        t.apply(
            &Entry::AddPlayer {
                player: id(who),
                name: name.into(),
                by: id(DIRECTOR),
            },
            0,
        )
        .unwrap();
    }
    t.apply(
        &Entry::Join {
            player: id(DIRECTOR),
            name: "TD".into(),
        },
        0,
    )
    .unwrap();
    t.apply(
        &Entry::Pair {
            round: 1,
            pairings: vec![(player(0), Some(id(500))), (id(DIRECTOR), Some(id(501)))],
            manual: true,
            breaches: Vec::new(),
            by: None,
        },
        0,
    )
    .unwrap();
    at_the_board(&mut t, 1, None);
    start(&mut t, 1, 1_000);
    let sheet_of = |t: &mut Tournament, table: u32, by: Uuid, action: BoardAction| {
        t.apply(
            &Entry::BoardSheet {
                round: 1,
                table,
                by,
                action,
            },
            2_000,
        )
        .map(drop)
    };
    sheet_of(
        &mut t,
        1,
        player(0),
        entered(Some(0), Some(Victory::NoMove), [30, 8]),
    )
    .unwrap();
    sheet_of(
        &mut t,
        1,
        id(DIRECTOR),
        BoardAction::ConfirmFor { player: id(500) },
    )
    .unwrap();
    let game = t.rounds()[0].tables[0].game.clone().unwrap();
    let entry = &game.board.as_ref().unwrap().entries[0];
    assert_eq!(entry.confirmed, [true, true]);
    assert_eq!(
        entry.initialled_for,
        [
            None,
            Some(crate::board::DirectorInitials {
                by: id(DIRECTOR),
                by_name: "TD".into()
            })
        ]
    );
    assert_eq!(game.sheet.unwrap().status(), SheetStatus::Confirmed);
    // At their own table the director would initial their opponent's side themselves:
    // refused (their own entry there makes the sheet, as any director's does).
    let refused = sheet_of(
        &mut t,
        2,
        id(DIRECTOR),
        BoardAction::ConfirmFor { player: id(501) },
    )
    .unwrap_err();
    assert_eq!(
        (refused.code, refused.message.as_str()),
        (
            ErrorCode::BadRequest,
            "you play at this table: another director initials for Apio, or enters the result"
        )
    );
}

#[test]
fn the_trf_names_where_the_event_was_played_not_online_for_the_board() {
    use crate::export::{render, Kind};
    let place = |t: &Tournament| {
        render(t, Kind::Trf)
            .lines()
            .find(|l| l.starts_with("022 "))
            .map(str::to_owned)
    };
    // Every table at the board.
    let mut t = new(System::Swiss, 2);
    pair(&mut t, 1, &[(0, Some(1))]);
    at_the_board(&mut t, 1, None);
    start(&mut t, 1, 1_000);
    assert_eq!(place(&t).as_deref(), Some("022 over the board (omweso)"));
    // A hall whose round had a table online too.
    let (t, _) = hall();
    assert_eq!(
        place(&t).as_deref(),
        Some("022 online and over the board (omweso)")
    );
    // Online only, as before.
    let mut t = new(System::Swiss, 2);
    pair(&mut t, 1, &[(0, Some(1))]);
    start(&mut t, 1, 1_000);
    assert_eq!(place(&t).as_deref(), Some("022 online (omweso)"));
}

#[test]
fn a_board_table_without_a_sheet_holds_the_round_and_is_missing_when_time_is_up() {
    let (mut t, games) = hall();
    end(
        &mut t,
        games[1].unwrap(),
        win(Side::South, Victory::NoMove),
        [30, 2],
        5_000,
    );
    assert_eq!(t.rounds()[0].status(), RoundStatus::Playing);
    // The deadline (1 000 + 15 minutes) passes: the board table is not adjudicated by
    // the server (no game), it is the director's.
    t.apply(&Entry::Tick, 1_000 + 15 * MINUTE).unwrap();
    assert!(t.rounds()[0].closing);
    assert_eq!(t.games_to_adjudicate(), Vec::<Uuid>::new());
    assert_eq!(t.missing_sheets(), vec![(1, 1)]);
    let view = t.round_view(0);
    assert!(view.pairings[0].board.as_ref().unwrap().missing);
    board(
        &mut t,
        id(DIRECTOR),
        entered(Some(0), Some(Victory::NoMove), [25, 20]),
        1_000 + 16 * MINUTE,
    )
    .unwrap();
    assert_eq!(t.missing_sheets(), Vec::<(u32, u32)>::new());
    assert_eq!(t.rounds()[0].status(), RoundStatus::Finished);
}

#[test]
fn a_relay_named_before_the_start_has_its_game_started_with_the_round_and_its_end_proposes() {
    let mut t = new(System::Swiss, 4);
    pair(&mut t, 1, &[(0, Some(1)), (2, Some(3))]);
    at_the_board(&mut t, 1, None);
    // Before the start: no game to create yet.
    assert_eq!(t.relay_game_to_create(1, 1), None);
    t.apply(
        &Entry::Relay {
            round: 1,
            table: 1,
            relay: Some(id(50)),
            name: "Achan".into(),
            code_hash: None,
            by: Some(id(DIRECTOR)),
            game: None,
        },
        0,
    )
    .unwrap();
    let plan = t.start_plan(1).unwrap();
    let creates: Vec<bool> = plan
        .iter()
        .map(|p| p.as_ref().unwrap().creates_game())
        .collect();
    assert_eq!(
        creates,
        vec![true, false],
        "table 1 relayed, table 2 at the board only"
    );
    let games = start(&mut t, 1, 1_000);
    assert_eq!(t.relay_game(1, 1, id(50)), Ok(games[0].unwrap()));
    assert_eq!(
        t.relay_game(1, 1, player(0)).unwrap_err().code,
        ErrorCode::NotYourGame
    );
    assert_eq!(
        t.relay_game(1, 2, id(50)).unwrap_err().code,
        ErrorCode::NotYourGame
    );
    // The relay names table 2 too, during the round: its game is created with the entry.
    let created = t.relay_game_to_create(1, 2).map(|(game, ..)| game);
    assert_eq!(created, games[1]);
    t.apply(
        &Entry::Relay {
            round: 1,
            table: 2,
            relay: Some(id(50)),
            name: "Achan".into(),
            code_hash: None,
            by: Some(id(DIRECTOR)),
            game: created,
        },
        2_000,
    )
    .unwrap();
    assert_eq!(t.games_in_play().len(), 2);
    // Table 1's game ends: its result is proposed, initialled by neither yet.
    end(
        &mut t,
        games[0].unwrap(),
        win(Side::North, Victory::Resigned),
        [4, 9],
        3_000,
    );
    let game = t.rounds()[0].tables[0].game.clone().unwrap();
    let board_play = game.board.unwrap();
    assert!(board_play.game_ended);
    assert_eq!(board_play.entries[0].by, id(50));
    assert_eq!(board_play.entries[0].confirmed, [false, false]);
    assert_eq!(game.sheet, None);
    assert!(!t.in_play(games[0].unwrap()), "no longer watched");
    board(&mut t, player(1), BoardAction::Confirm, 4_000).unwrap();
    board(&mut t, player(0), BoardAction::Confirm, 5_000).unwrap();
    let sheet = t.rounds()[0].tables[0].game.clone().unwrap().sheet.unwrap();
    assert_eq!(sheet.figures.turns, 10, "the relayed game's turns");
    assert_eq!(sheet.figures.captured, [4, 9]);
    assert_eq!(points(&t)[1], (player(1), 1.0));
}

#[test]
fn relay_invites_are_good_once_and_until_they_expire() {
    let (mut t, games) = hall();
    let invite = |code: &str, expires: u64| Entry::RelayInvited {
        round: 1,
        table: 1,
        code_hash: code.into(),
        expires_at_ms: expires,
        by: id(DIRECTOR),
    };
    let claim = |code: &str, who: u128| Entry::Relay {
        round: 1,
        table: 1,
        relay: Some(id(who)),
        name: format!("R{who}"),
        code_hash: Some(code.into()),
        by: None,
        game: None,
    };
    t.apply(&invite("old", 10_000), 2_000).unwrap();
    t.apply(&invite("new", 10_000), 2_000).unwrap();
    // The older code was replaced; the game is created with the first relay's entry.
    assert_eq!(
        t.apply(&claim("old", 60), 3_000).unwrap_err().code,
        ErrorCode::BadCode
    );
    let with_game = Entry::Relay {
        round: 1,
        table: 1,
        relay: Some(id(60)),
        name: "R60".into(),
        code_hash: Some("new".into()),
        by: None,
        game: games[0],
    };
    t.apply(&with_game, 3_000).unwrap();
    assert_eq!(
        t.apply(&claim("new", 61), 3_500).unwrap_err().code,
        ErrorCode::BadCode
    );
    t.apply(&invite("late", 4_000), 3_600).unwrap();
    assert_eq!(
        t.apply(&claim("late", 62), 4_000).unwrap_err().code,
        ErrorCode::BadCode
    );
    assert_eq!(t.relay_game(1, 1, id(60)), Ok(games[0].unwrap()));
}

#[test]
fn a_player_added_by_the_director_is_marked_and_only_a_director_adds() {
    let mut t = new(System::Swiss, 2);
    let add = |by: Uuid| Entry::AddPlayer {
        player: id(500),
        name: "Okello".into(),
        by,
    };
    assert_eq!(
        t.apply(&add(player(0)), 0).unwrap_err().code,
        ErrorCode::NotDirector
    );
    t.apply(&add(id(DIRECTOR)), 0).unwrap();
    let view = t.snapshot(None).players[2].clone();
    assert_eq!(
        (view.name.as_str(), view.added_by_director),
        ("Okello", true)
    );
}

#[test]
fn where_a_table_is_played_is_set_before_the_start_and_kept_by_an_edited_pairing() {
    let mut t = new(System::Swiss, 4);
    pair(&mut t, 1, &[(0, Some(1)), (2, Some(3))]);
    at_the_board(&mut t, 1, Some(2));
    // The director edits the pairing: table 2 stays at the board.
    pair(&mut t, 1, &[(0, Some(2)), (1, Some(3))]);
    let places: Vec<PlayedAt> = t.rounds()[0].tables.iter().map(|t| t.played_at).collect();
    assert_eq!(places, vec![PlayedAt::Online, PlayedAt::Board]);
    start(&mut t, 1, 1_000);
    let late = t.apply(
        &Entry::PlayedAt {
            round: 1,
            table: None,
            played_at: PlayedAt::Online,
            by: id(DIRECTOR),
        },
        2_000,
    );
    assert_eq!(late.unwrap_err().code, ErrorCode::RoundNotReady);
}

#[test]
fn a_hall_replays_from_its_log_to_the_same_tournament() {
    let mut t = new(System::Swiss, 4);
    let mut log = vec![];
    let mut apply = |t: &mut Tournament, entry: Entry, at: u64| {
        t.apply(&entry, at).expect("applies");
        log.push((at, entry));
    };
    apply(
        &mut t,
        Entry::AddPlayer {
            player: id(500),
            name: "Okello".into(),
            by: id(DIRECTOR),
        },
        0,
    );
    let paired = t.pair_next().unwrap();
    apply(&mut t, paired, 10);
    apply(
        &mut t,
        Entry::PlayedAt {
            round: 1,
            table: None,
            played_at: PlayedAt::Board,
            by: id(DIRECTOR),
        },
        20,
    );
    let games: Vec<Option<Uuid>> = t
        .start_plan(1)
        .unwrap()
        .iter()
        .map(|g| g.as_ref().map(|g| id(3000 + u128::from(g.table))))
        .collect();
    apply(
        &mut t,
        Entry::Start {
            round: 1,
            games: games.clone(),
            deadline_ms: 30 + 15 * MINUTE,
            by: Some(id(DIRECTOR)),
        },
        30,
    );
    let [a, b] = {
        let table = &t.rounds()[0].tables[0];
        [table.first, table.second.unwrap()].map(|p| t.players()[p].id)
    };
    apply(
        &mut t,
        Entry::BoardSheet {
            round: 1,
            table: 1,
            by: a,
            action: entered_by(b, [3, 30]),
        },
        40,
    );
    apply(
        &mut t,
        Entry::BoardSheet {
            round: 1,
            table: 1,
            by: b,
            action: BoardAction::Confirm,
        },
        50,
    );
    // Replayed entry by entry on a fresh tournament: the same snapshot and version.
    let mut again = new(System::Swiss, 4);
    for (at, entry) in &log {
        again.apply(entry, *at).expect("replays");
    }
    assert_eq!(again.version(), t.version());
    assert_eq!(
        serde_json::to_value(again.snapshot(None)).unwrap(),
        serde_json::to_value(t.snapshot(None)).unwrap()
    );
}

fn entered_by(winner: Uuid, seeds: [u64; 2]) -> BoardAction {
    BoardAction::Enter {
        result: BoardResult {
            winner: Some(winner),
            victory: Some(Victory::NoMove),
            seeds: PerPlayer {
                first: seeds[0],
                second: seeds[1],
            },
            seeds_on_board: None,
        },
        as_player: false,
    }
}
