//! The tournament's state machine on hand-made histories, with every expected value worked
//! out in the comments.

use omweso_rules::{AnnulReason, Outcome, Side, Victory};
use uuid::Uuid;

use super::*;
use crate::tournament::log::SheetAction;
use omweso_protocol::tournament::{NewTournament, PlayerResult, StandingView, TournamentEvent};

const MINUTE: u64 = 60_000;

fn settings(system: System) -> Settings {
    Settings::from_request(
        NewTournament {
            name: Some("Test".into()),
            system: Some(system),
            rounds: Some(3),
            ..NewTournament::default()
        },
        crate::config::MIN_ROUND_MINUTES,
    )
    .expect("valid settings")
}

fn id(n: u128) -> Uuid {
    Uuid::from_u128(n)
}

/// Player `i` of the tests has id `100 + i`; the director is 1.
fn player(i: u128) -> Uuid {
    id(100 + i)
}

fn new(system: System, players: u128) -> Tournament {
    let create = Entry::Create {
        settings: Box::new(settings(system)),
        director: id(1),
        director_name: "TD".into(),
    };
    let mut t = Tournament::create(id(9), &create, 0).expect("created");
    for i in 0..players {
        t.apply(
            &Entry::Join {
                player: player(i),
                name: format!("P{i}"),
            },
            0,
        )
        .expect("joined");
    }
    t
}

fn pair(t: &mut Tournament, round: u32, pairs: &[(u128, Option<u128>)]) {
    t.apply(
        &Entry::Pair {
            round,
            pairings: pairs
                .iter()
                .map(|&(a, b)| (player(a), b.map(player)))
                .collect(),
            manual: true,
            breaches: Vec::new(),
        },
        0,
    )
    .expect("paired");
}

/// Starts round `round` at `at` with game ids `1000 * round + table`.
fn start(t: &mut Tournament, round: u32, at: u64) -> Vec<Option<Uuid>> {
    let games: Vec<Option<Uuid>> = t
        .start_plan(round)
        .expect("a plan")
        .iter()
        .map(|g| {
            g.as_ref()
                .map(|g| id(1000 * u128::from(round) + u128::from(g.table)))
        })
        .collect();
    t.apply(
        &Entry::Start {
            round,
            games: games.clone(),
            deadline_ms: at + 15 * MINUTE,
        },
        at,
    )
    .expect("started");
    games
}

fn end(t: &mut Tournament, game: Uuid, outcome: Outcome, captured: [u64; 2], at: u64) {
    t.apply(
        &Entry::GameEnd {
            game_id: game,
            outcome,
            moves: [5, 5],
            figures: GameFigures {
                captured,
                turns: 10,
                duration_ms: 60_000,
                ..GameFigures::default()
            },
            replay: None,
            ended_at_ms: None,
            adjudicated: false,
        },
        at,
    )
    .expect("ended");
}

fn win(winner: Side, victory: Victory) -> Outcome {
    Outcome::Win { winner, victory }
}

fn line(t: &Tournament, p: u128) -> StandingView {
    t.standings()
        .into_iter()
        .find(|s| s.player_id == player(p))
        .expect("a line")
}

/// Five players, three rounds: a bye, a withdrawal, a special win worth 2, a correction,
/// and a tie that stays shared.
///
/// - Round 1: A-B, A wins by emitwe-ebiri (2 points); C-D drawn; E has the bye (1).
/// - D withdraws. Round 2: A-C, C wins; E-B, B wins, corrected by the director to E's win.
/// - Round 3: A-E drawn; B-C, C wins.
///
/// Points: A 2+0+0.5 = 2.5; B 0; C 0.5+1+1 = 2.5; D 0.5; E 1+1+0.5 = 2.5.
/// Buchholz (rounds without a game count the player's own points):
/// - A: B 0 + C 2.5 + E 2.5 = 5
/// - B: A 2.5 + E 2.5 + C 2.5 = 7.5
/// - C: D 0.5 + A 2.5 + B 0 = 3
/// - D: C 2.5 + own 0.5 + own 0.5 = 3.5
/// - E: own 2.5 (the bye) + B 0 + A 2.5 = 5
///
/// Sonneborn-Berger (opponent's points x 1 for a win of any type, x 0.5 for a draw):
/// - A: B 0 x 1 + E 2.5 x 0.5 = 1.25
/// - C: D 0.5 x 0.5 + A 2.5 x 1 + B 0 x 1 = 2.75
/// - D: C 2.5 x 0.5 = 1.25
/// - E: B 0 x 1 + A 2.5 x 0.5 = 1.25
///
/// A and E tie on points, Buchholz, SB and seeds (none captured), and drew each other
/// (0.5 each in the direct encounter): they share rank 1. C is third, D fourth, B fifth.
#[test]
fn tiebreaks_on_a_hand_made_crosstable() {
    let (a, b, c, d, e) = (0, 1, 2, 3, 4);
    let mut t = new(System::Swiss, 5);
    pair(&mut t, 1, &[(a, Some(b)), (c, Some(d)), (e, None)]);
    let g = start(&mut t, 1, 0);
    let r1 = [g[0].unwrap(), g[1].unwrap()];
    end(
        &mut t,
        r1[0],
        win(Side::South, Victory::EmitweEbiri),
        [0, 0],
        MINUTE,
    );
    end(&mut t, r1[1], Outcome::Draw, [0, 0], MINUTE);
    assert_eq!(line(&t, a).points, 2.0);
    assert_eq!(line(&t, e).points, 1.0);

    t.apply(
        &Entry::Withdraw {
            player: player(d),
            by: player(d),
        },
        2 * MINUTE,
    )
    .expect("withdrawn");
    pair(&mut t, 2, &[(a, Some(c)), (e, Some(b))]);
    let g = start(&mut t, 2, 20 * MINUTE);
    let r2 = [g[0].unwrap(), g[1].unwrap()];
    end(
        &mut t,
        r2[0],
        win(Side::North, Victory::NoMove),
        [0, 0],
        21 * MINUTE,
    );
    end(
        &mut t,
        r2[1],
        win(Side::North, Victory::NoMove),
        [0, 0],
        21 * MINUTE,
    );
    assert_eq!(line(&t, b).points, 1.0);
    let corrected = t
        .apply(
            &Entry::Sheet {
                game_id: r2[1],
                by: id(1),
                action: SheetAction::Correct {
                    outcome: win(Side::South, Victory::NoMove),
                    reason: "B's last move was illegal".into(),
                },
            },
            22 * MINUTE,
        )
        .expect("corrected");
    // The sheet and the standings change.
    assert_eq!(corrected.len(), 2);
    assert_eq!(line(&t, b).points, 0.0);
    assert_eq!(line(&t, e).points, 2.0);

    pair(&mut t, 3, &[(a, Some(e)), (b, Some(c))]);
    let g = start(&mut t, 3, 40 * MINUTE);
    end(&mut t, g[0].unwrap(), Outcome::Draw, [0, 0], 41 * MINUTE);
    end(
        &mut t,
        g[1].unwrap(),
        win(Side::North, Victory::NoMove),
        [0, 0],
        41 * MINUTE,
    );
    assert_eq!(t.status(), TournamentStatus::Finished);

    let table: Vec<(Uuid, u32, f64, f64, f64)> = t
        .standings()
        .iter()
        .map(|s| {
            (
                s.player_id,
                s.rank,
                s.points,
                s.buchholz,
                s.sonneborn_berger,
            )
        })
        .collect();
    assert_eq!(
        table,
        vec![
            (player(a), 1, 2.5, 5.0, 1.25),
            (player(e), 1, 2.5, 5.0, 1.25),
            (player(c), 3, 2.5, 3.0, 2.75),
            (player(d), 4, 0.5, 3.5, 1.25),
            (player(b), 5, 0.0, 7.5, 0.0),
        ]
    );
    assert_eq!(line(&t, a).direct, 0.5);
    assert_eq!((line(&t, d).games, line(&t, d).draws), (1, 1));
    // The correction is kept, with the original.
    let snap = t.snapshot(None);
    let sheet = snap.rounds[1].pairings[1].sheet.as_ref().expect("a sheet");
    assert_eq!(sheet.first_result, PlayerResult::Won);
    assert_eq!(sheet.corrections.len(), 1);
    assert_eq!(sheet.corrections[0].before.first_result, PlayerResult::Lost);
    assert_eq!(sheet.corrections[0].by_name, "TD");
}

/// A sheet confirms itself 60 s after its game unless disputed; the round's time running
/// out closes it (its unfinished games are to be adjudicated).
#[test]
fn time_confirms_sheets_and_closes_the_round() {
    let mut t = new(System::Swiss, 4);
    pair(&mut t, 1, &[(0, Some(1)), (2, Some(3))]);
    let g = start(&mut t, 1, 0);
    end(&mut t, g[0].unwrap(), Outcome::Draw, [3, 4], MINUTE);
    // The sheet's 60 s run first, then the round's 15 minutes.
    assert_eq!(t.next_deadline(), Some(2 * MINUTE));
    assert!(t
        .apply(&Entry::Tick, 2 * MINUTE - 1)
        .expect("tick")
        .is_empty());
    let events = t.apply(&Entry::Tick, 2 * MINUTE).expect("tick");
    assert_eq!(events.len(), 1);
    assert_eq!(
        t.snapshot(None).rounds[0].pairings[0]
            .sheet
            .as_ref()
            .map(|s| s.status),
        Some(SheetStatus::Confirmed)
    );
    assert_eq!(t.next_deadline(), Some(15 * MINUTE));
    assert!(t.games_to_adjudicate().is_empty());
    t.apply(&Entry::Tick, 15 * MINUTE).expect("tick");
    assert!(t.rounds()[0].closing);
    assert!(
        !t.snapshot(None).rounds[0].ended_by_director,
        "its time ran out"
    );
    assert_eq!(t.games_to_adjudicate(), vec![g[1].unwrap()]);
    assert_eq!(t.next_deadline(), None);
    // A disputed sheet never confirms itself.
    end(
        &mut t,
        g[1].unwrap(),
        win(Side::South, Victory::Adjudicated),
        [0, 0],
        15 * MINUTE,
    );
    t.apply(
        &Entry::Sheet {
            game_id: g[1].unwrap(),
            by: player(3),
            action: SheetAction::Dispute {
                reason: "I had more seeds".into(),
            },
        },
        15 * MINUTE + 1,
    )
    .expect("disputed");
    assert_eq!(t.next_deadline(), None);
    let sheet = t.snapshot(None).rounds[0].pairings[1]
        .sheet
        .clone()
        .expect("a sheet");
    assert_eq!(sheet.status, SheetStatus::Disputed);
    assert_eq!(sheet.first_result, PlayerResult::AdjudicatedWon);
    assert_eq!(t.rounds()[0].status(), RoundStatus::Finished);
}

/// An annulled game is replayed while a quarter of the round is left (3:45 of 15:00),
/// the first move swapped; later it scores the annulment's 0.5 each.
#[test]
fn annulled_games_are_replayed_while_a_quarter_of_the_round_is_left() {
    let mut t = new(System::Swiss, 4);
    pair(&mut t, 1, &[(0, Some(1)), (2, Some(3))]);
    let g = start(&mut t, 1, 0);
    let annulled = Outcome::Annulled {
        reason: AnnulReason::NeverEnding,
    };
    let quarter = 15 * MINUTE / 4;
    let (first, second) = t
        .replay_for(g[0].unwrap(), 15 * MINUTE - quarter)
        .expect("a replay");
    assert_eq!((first.player, second.player), (player(1), player(0)));
    assert_eq!(t.replay_for(g[0].unwrap(), 15 * MINUTE - quarter + 1), None);
    // The pairing's first sits South in the first game (who is at which game's seat is
    // what `presence` shows).
    assert_eq!(t.seated_in(g[0].unwrap()), Some([player(0), player(1)]));
    t.apply(
        &Entry::GameEnd {
            game_id: g[0].unwrap(),
            outcome: annulled,
            moves: [3, 2],
            figures: GameFigures::default(),
            replay: Some(id(77)),
            ended_at_ms: None,
            adjudicated: false,
        },
        MINUTE,
    )
    .expect("replayed");
    let table = &t.rounds()[0].tables[0];
    assert_eq!(table.replaced.len(), 1);
    let game = table.game.as_ref().expect("the replay");
    assert_eq!((game.game_id, game.moved_first), (id(77), 1));
    // In the replay the second sits South; the replaced game is no longer anyone's seat.
    assert_eq!(t.seated_in(id(77)), Some([player(1), player(0)]));
    assert_eq!(t.seated_in(g[0].unwrap()), None);
    assert!(t.is_member(id(1)) && t.is_member(player(3)) && !t.is_member(player(9)));
    assert_eq!(line(&t, 0).points, 0.0);
    // The replay, South being the pairing's second, is won by South: the second wins.
    end(
        &mut t,
        id(77),
        win(Side::South, Victory::NoMove),
        [7, 2],
        2 * MINUTE,
    );
    assert_eq!(line(&t, 1).points, 1.0);
    assert_eq!(line(&t, 1).seeds, 7);
    // Too late to replay: the annulment stands, 0.5 each.
    end(&mut t, g[1].unwrap(), annulled, [0, 0], 14 * MINUTE);
    assert_eq!((line(&t, 2).points, line(&t, 3).points), (0.5, 0.5));
}

/// A player who never came (abandoned without a move) loses by forfeit; a player who
/// withdrew before the round started forfeits their pairing without a game.
#[test]
fn forfeits() {
    let mut t = new(System::Swiss, 4);
    pair(&mut t, 1, &[(0, Some(1)), (2, Some(3))]);
    t.apply(
        &Entry::Withdraw {
            player: player(3),
            by: id(1),
        },
        0,
    )
    .expect("the director withdraws a player");
    let g = start(&mut t, 1, 0);
    assert_eq!(g[1], None, "no game for a withdrawn player's pairing");
    t.apply(
        &Entry::GameEnd {
            game_id: g[0].unwrap(),
            outcome: win(Side::South, Victory::Abandoned),
            moves: [1, 0],
            figures: GameFigures::default(),
            replay: None,
            ended_at_ms: None,
            adjudicated: false,
        },
        MINUTE,
    )
    .expect("ended");
    let snap = t.snapshot(None);
    let sheets: Vec<_> = snap.rounds[0]
        .pairings
        .iter()
        .map(|p| p.sheet.as_ref().map(|s| (s.first_result, s.second_result)))
        .collect();
    assert_eq!(
        sheets,
        vec![
            Some((PlayerResult::ForfeitWon, Some(PlayerResult::ForfeitLost))),
            Some((PlayerResult::ForfeitWon, Some(PlayerResult::ForfeitLost))),
        ]
    );
    // Forfeits score 1 / 0 and count as rounds not played (Buchholz: own points).
    assert_eq!((line(&t, 0).points, line(&t, 0).games), (1.0, 0));
    assert_eq!(line(&t, 2).buchholz, 1.0);
    assert_eq!(t.rounds()[0].status(), RoundStatus::Finished);
}

#[test]
fn who_may_do_what() {
    let mut t = new(System::Swiss, 2);
    let code = |r: Result<Vec<(u64, TournamentEvent)>, Refusal>| r.map(|_| ()).unwrap_err().code;
    assert_eq!(
        code(t.apply(
            &Entry::Join {
                player: player(0),
                name: "again".into()
            },
            0
        )),
        ErrorCode::AlreadyJoined
    );
    assert_eq!(
        code(t.apply(
            &Entry::Withdraw {
                player: player(0),
                by: player(1)
            },
            0
        )),
        ErrorCode::NotDirector
    );
    pair(&mut t, 1, &[(0, Some(1))]);
    let g = start(&mut t, 1, 0);
    assert_eq!(
        code(t.apply(
            &Entry::EndRound {
                round: 1,
                by: player(0)
            },
            0
        )),
        ErrorCode::NotDirector
    );
    end(&mut t, g[0].unwrap(), Outcome::Draw, [0, 0], 1);
    let confirm = |by| Entry::Sheet {
        game_id: g[0].unwrap(),
        by,
        action: SheetAction::Confirm,
    };
    assert_eq!(code(t.apply(&confirm(id(1)), 2)), ErrorCode::NotYourGame);
    t.apply(&confirm(player(0)), 2).expect("confirmed");
    assert_eq!(
        code(t.apply(&confirm(player(0)), 3)),
        ErrorCode::SheetSettled
    );
    // Nothing changed by a refusal: the version counts only what was applied.
    let version = t.version();
    assert_eq!(code(t.apply(&confirm(id(5)), 4)), ErrorCode::NotYourGame);
    assert_eq!(t.version(), version);
}

/// A round-robin pairs from the Berger tables over the field at its first round, and
/// closes to late players from then.
#[test]
fn a_round_robin_follows_berger_and_fixes_its_field() {
    let mut t = new(System::RoundRobin, 4);
    assert_eq!(t.rounds_planned(), 3);
    let Entry::Pair { pairings, .. } = t.pair_next().expect("round 1") else {
        panic!("a pairing");
    };
    // FIDE's table for 4, round 1: 1-4, 2-3.
    assert_eq!(
        pairings,
        vec![(player(0), Some(player(3))), (player(1), Some(player(2)))]
    );
    pair(&mut t, 1, &[(0, Some(3)), (1, Some(2))]);
    let refusal = t
        .apply(
            &Entry::Join {
                player: player(9),
                name: "late".into(),
            },
            0,
        )
        .map(|_| ())
        .unwrap_err();
    assert_eq!(refusal.code, ErrorCode::TournamentClosed);
}

/// A player who withdraws between the pairing and the start is not paired, not even to
/// their bye; a game being played is not a round without a game for Buchholz; a director
/// may uphold a disputed sheet (the same result, kept as a correction).
#[test]
fn withdrawn_byes_pending_games_and_upheld_sheets() {
    let mut t = new(System::Swiss, 3);
    pair(&mut t, 1, &[(0, Some(1)), (2, None)]);
    t.apply(
        &Entry::Withdraw {
            player: player(2),
            by: player(2),
        },
        0,
    )
    .expect("withdrawn");
    let g = start(&mut t, 1, 0);
    assert_eq!(line(&t, 2).points, 0.0, "no bye for a withdrawn player");
    assert!(t.snapshot(None).rounds[0].pairings[1].sheet.is_none());
    // Player 0's game is being played: no round without a game yet (Buchholz 0, not 0
    // plus their own points), and the round is not finished.
    assert_eq!(line(&t, 0).buchholz, 0.0);
    assert_eq!(t.rounds()[0].status(), RoundStatus::Playing);
    end(
        &mut t,
        g[0].unwrap(),
        win(Side::South, Victory::NoMove),
        [0, 0],
        MINUTE,
    );
    assert_eq!(t.rounds()[0].status(), RoundStatus::Finished);
    t.apply(
        &Entry::Sheet {
            game_id: g[0].unwrap(),
            by: player(1),
            action: SheetAction::Dispute {
                reason: "I won".into(),
            },
        },
        MINUTE + 1,
    )
    .expect("disputed");
    t.apply(
        &Entry::Sheet {
            game_id: g[0].unwrap(),
            by: id(1),
            action: SheetAction::Correct {
                outcome: win(Side::South, Victory::NoMove),
                reason: "the record shows South won".into(),
            },
        },
        MINUTE + 2,
    )
    .expect("upheld");
    let sheet = t.snapshot(None).rounds[0].pairings[0]
        .sheet
        .clone()
        .expect("a sheet");
    assert_eq!(sheet.status, SheetStatus::Corrected);
    assert_eq!(sheet.first_result, PlayerResult::Won);
    assert_eq!(sheet.corrections[0].before, sheet.corrections[0].after);
}

/// Upholding keeps the sheet as it was: a forfeit stays a forfeit (not a game played, for
/// Buchholz), an adjudicated draw stays adjudicated. A correction names only a victory the
/// ruleset has (Omweso: no `captures`).
#[test]
fn upholding_keeps_forfeits_and_adjudications_and_victories_fit_the_ruleset() {
    let mut t = new(System::Swiss, 4);
    pair(&mut t, 1, &[(0, Some(1)), (2, Some(3))]);
    let g = start(&mut t, 1, 0);
    // Table 1: P1 never came (South wins by abandonment without a move of North's).
    t.apply(
        &Entry::GameEnd {
            game_id: g[0].unwrap(),
            outcome: win(Side::South, Victory::Abandoned),
            moves: [1, 0],
            figures: GameFigures::default(),
            replay: None,
            ended_at_ms: None,
            adjudicated: false,
        },
        MINUTE,
    )
    .expect("ended");
    // Table 2: stopped at the deadline, equal seeds: an adjudicated draw.
    t.apply(
        &Entry::GameEnd {
            game_id: g[1].unwrap(),
            outcome: Outcome::Draw,
            moves: [5, 5],
            figures: GameFigures::default(),
            replay: None,
            ended_at_ms: None,
            adjudicated: true,
        },
        15 * MINUTE,
    )
    .expect("ended");
    let correct = |t: &mut Tournament, game: Uuid, outcome: Outcome| {
        t.apply(
            &Entry::Sheet {
                game_id: game,
                by: id(1),
                action: SheetAction::Correct {
                    outcome,
                    reason: "checked".into(),
                },
            },
            16 * MINUTE,
        )
        .map(|_| ())
    };
    correct(&mut t, g[0].unwrap(), win(Side::South, Victory::Abandoned)).expect("upheld");
    correct(&mut t, g[1].unwrap(), Outcome::Draw).expect("upheld");
    let snap = t.snapshot(None);
    let results: Vec<_> = snap.rounds[0]
        .pairings
        .iter()
        .map(|p| {
            let s = p.sheet.as_ref().expect("a sheet");
            (s.status, s.first_result, s.second_result, s.victory.clone())
        })
        .collect();
    assert_eq!(
        results,
        vec![
            (
                SheetStatus::Corrected,
                PlayerResult::ForfeitWon,
                Some(PlayerResult::ForfeitLost),
                Some("forfeit".to_owned())
            ),
            (
                SheetStatus::Corrected,
                PlayerResult::AdjudicatedDrawn,
                Some(PlayerResult::AdjudicatedDrawn),
                None
            ),
        ]
    );
    // Still a forfeit: 1 point, no game played.
    assert_eq!((line(&t, 0).points, line(&t, 0).games), (1.0, 0));
    // A real change is the director's result: the draw becomes a plain win.
    correct(&mut t, g[1].unwrap(), win(Side::North, Victory::NoMove)).expect("corrected");
    let sheet = t.snapshot(None).rounds[0].pairings[1]
        .sheet
        .clone()
        .expect("a sheet");
    assert_eq!(
        (sheet.first_result, sheet.second_result),
        (PlayerResult::Lost, Some(PlayerResult::Won))
    );
    // The actor refuses a victory the ruleset does not have before it reaches the log.
    assert_eq!(
        t.settings()
            .impossible_victory(&win(Side::North, Victory::Captures))
            .as_deref(),
        Some("a game of omweso cannot be won by captures")
    );
    assert_eq!(
        t.settings()
            .impossible_victory(&win(Side::North, Victory::Impasse))
            .as_deref(),
        Some("a game of omweso cannot be won by impasse")
    );
    assert_eq!(
        t.settings()
            .impossible_victory(&win(Side::North, Victory::Akawumbi)),
        None
    );
}

mod properties {
    use proptest::prelude::*;

    use super::*;

    /// One step of a random tournament: what to try, two small numbers to pick with, and
    /// how far the clock moves first.
    type Step = (u8, u8, u8, u16);

    fn outcome(pick: u8) -> Outcome {
        match pick % 6 {
            0 => win(Side::South, Victory::NoMove),
            1 => win(Side::North, Victory::Akawumbi),
            2 => win(Side::South, Victory::Abandoned),
            3 => Outcome::Draw,
            4 => Outcome::Annulled {
                reason: AnnulReason::Budget,
            },
            _ => win(Side::North, Victory::Adjudicated),
        }
    }

    /// The entry a step asks for, made from the state as it is (so that most are
    /// accepted, and the rest are refusals worth checking).
    fn entry(t: &Tournament, (op, a, b, _): Step, next_id: &mut u128) -> Option<Entry> {
        let players = t.players().len() as u128;
        let someone = |n: u8| player(u128::from(n) % (players + 2));
        let in_play = t.games_in_play();
        Some(match op % 9 {
            0 => Entry::Join {
                player: someone(a),
                name: format!("P{a}"),
            },
            1 => Entry::Withdraw {
                player: someone(a),
                by: if b % 2 == 0 { someone(a) } else { id(1) },
            },
            2 => t.pair_next().ok()?,
            3 => {
                let number = t.rounds().last()?.number;
                let plan = t.start_plan(number).ok()?;
                Entry::Start {
                    round: number,
                    games: plan
                        .iter()
                        .map(|g| {
                            g.as_ref().map(|_| {
                                *next_id += 1;
                                id(*next_id)
                            })
                        })
                        .collect(),
                    deadline_ms: 0,
                }
            }
            4 | 5 => {
                let &(game_id, _, _) = in_play.get(usize::from(a) % in_play.len().max(1))?;
                let replay = matches!(outcome(b), Outcome::Annulled { .. }) && b % 4 < 2;
                Entry::GameEnd {
                    game_id,
                    outcome: outcome(b),
                    moves: [u32::from(a % 3), u32::from(b % 3)],
                    figures: GameFigures {
                        captured: [u64::from(a), u64::from(b)],
                        turns: 3,
                        duration_ms: 1000,
                        ..GameFigures::default()
                    },
                    replay: replay.then(|| {
                        *next_id += 1;
                        id(*next_id)
                    }),
                    // Sometimes the game ended a little before the entry.
                    ended_at_ms: (a % 2 == 0).then_some(u64::from(b) * 100),
                    adjudicated: a % 5 == 0,
                }
            }
            6 => {
                let games: Vec<Uuid> = t
                    .rounds()
                    .iter()
                    .flat_map(|r| &r.tables)
                    .filter_map(|t| t.game.as_ref().map(|g| g.game_id))
                    .collect();
                let game_id = *games.get(usize::from(a) % games.len().max(1))?;
                Entry::Sheet {
                    game_id,
                    by: if b % 3 == 0 { id(1) } else { someone(b) },
                    action: match b % 4 {
                        0 => SheetAction::Correct {
                            outcome: outcome(a),
                            reason: "seen".into(),
                        },
                        1 => SheetAction::Dispute {
                            reason: "no".into(),
                        },
                        _ => SheetAction::Confirm,
                    },
                }
            }
            7 => Entry::EndRound {
                round: t.rounds().last()?.number,
                by: if a % 2 == 0 { id(1) } else { someone(a) },
            },
            _ => Entry::Tick,
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Whatever happens: a refusal changes nothing; an accepted entry raises the
        /// version by exactly its events; the standings list every player; and replaying
        /// the accepted entries rebuilds the very same tournament.
        #[test]
        fn any_history_replays_to_the_same_tournament(
            system in 0u8..3,
            steps in proptest::collection::vec((0u8..=255, 0u8..=255, 0u8..=255, 0u16..5000), 1..120),
        ) {
            let system = [System::Swiss, System::RoundRobin, System::DoubleRoundRobin][usize::from(system)];
            let mut t = new(system, 0);
            let mut log = Vec::new();
            let mut now = 0u64;
            let mut next_id = 10_000u128;
            for step in steps {
                now += u64::from(step.3) * 1000;
                let Some(mut entry) = entry(&t, step, &mut next_id) else {
                    continue;
                };
                if let Entry::Start { deadline_ms, .. } = &mut entry {
                    *deadline_ms = now + 15 * MINUTE;
                }
                let before = serde_json::to_value(t.snapshot(None)).expect("encodes");
                let version = t.version();
                match t.apply(&entry, now) {
                    Ok(events) => {
                        prop_assert_eq!(t.version(), version + events.len() as u64);
                        log.push((entry, now));
                    }
                    Err(refusal) => {
                        prop_assert!(!refusal.message.is_empty());
                        let after = serde_json::to_value(t.snapshot(None)).expect("encodes");
                        prop_assert_eq!(&after, &before, "refusing {:?} changed the tournament", entry);
                    }
                }
                prop_assert_eq!(t.standings().len(), t.players().len());
            }
            let mut replayed = new(system, 0);
            for (entry, at) in &log {
                let text = serde_json::to_string(entry).expect("encodes");
                let entry: Entry = serde_json::from_str(&text).expect("decodes");
                prop_assert!(replayed.apply(&entry, *at).is_ok(), "{:?} refused on replay", entry);
            }
            prop_assert_eq!(
                serde_json::to_value(replayed.snapshot(None)).expect("encodes"),
                serde_json::to_value(t.snapshot(None)).expect("encodes")
            );
        }
    }
}

/// The exports of a small event, exactly: the TRF has no federation it was not given, and
/// its points column adds up from its own codes under the values it declares (A's
/// emitwe-ebiri win is a `1`, worth the win's 1 there, while the standings count 2); the
/// score sheets write a correction's time in ISO 8601 UTC, not in raw milliseconds.
///
/// - Round 1: A-B, A wins by emitwe-ebiri; C has the bye.
/// - Round 2: C-A drawn; B has the bye. The director corrects it to C's win by no move.
#[test]
fn the_exports_add_up_and_say_their_times_in_iso_8601() {
    use crate::tournament::export::{render, Kind};
    let mut t = new(System::Swiss, 3);
    pair(&mut t, 1, &[(0, Some(1)), (2, None)]);
    let r1 = start(&mut t, 1, 0);
    end(
        &mut t,
        r1[0].expect("a game"),
        win(Side::South, Victory::EmitweEbiri),
        [8, 0],
        MINUTE,
    );
    pair(&mut t, 2, &[(2, Some(0)), (1, None)]);
    let r2 = start(&mut t, 2, 20 * MINUTE);
    end(
        &mut t,
        r2[0].expect("a game"),
        Outcome::Draw,
        [0, 0],
        21 * MINUTE,
    );
    // 2026-11-25 19:43:36.170 UTC.
    t.apply(
        &Entry::Sheet {
            game_id: r2[0].expect("a game"),
            by: id(1),
            action: SheetAction::Correct {
                outcome: win(Side::South, Victory::NoMove),
                reason: "recounted".into(),
            },
        },
        1_795_635_816_170,
    )
    .expect("corrected");
    // The standings: A 2 (emitwe-ebiri) + 0 = 2; B 0 + 1 (bye) = 1; C 1 (bye) + 1 = 2.
    assert_eq!(line(&t, 0).points, 2.0);
    assert_eq!(line(&t, 1).points, 1.0);
    assert_eq!(line(&t, 2).points, 2.0);

    let trf = render(&t, Kind::Trf);
    let expected = [
        "012 Test",
        "022 online (omweso)",
        "042 1970/01/01",
        "052 1970/01/01",
        "062 3",
        "072 0",
        "092 Swiss System (omweso, first move = white)",
        "122 15 min per round",
        "XXR 3",
        "BBW  1.0",
        "BBD  0.5",
        "BBL  0.0",
        "BBZ  0.0",
        "BBF  0.0",
        "BBU  1.0",
    ];
    let lines: Vec<&str> = trf.lines().collect();
    assert_eq!(lines[..expected.len()], expected, "{trf}");
    let players = &lines[expected.len()..];
    assert_eq!(players.len(), 3, "{trf}");
    // The points column (columns 81-84) is each line's codes added up: A 1 + 0, B 0 + 1,
    // C 1 + 1; the rank (85-89) is the tournament's: C and A on 2, C ahead on Buchholz
    // (own 2 for the bye + A 2 = 4, against A's B 1 + C 2 = 3), then B.
    let points_and_rank = |l: &str| (l[80..84].to_owned(), l[84..89].trim().to_owned());
    assert_eq!(points_and_rank(players[0]), (" 1.0".into(), "2".into()));
    assert_eq!(&players[0][89..], "     2 w 1     3 b 0", "{trf}");
    assert_eq!(points_and_rank(players[1]), (" 1.0".into(), "3".into()));
    assert_eq!(&players[1][89..], "     1 b 0  0000 - U", "{trf}");
    assert_eq!(points_and_rank(players[2]), (" 2.0".into(), "1".into()));
    assert_eq!(&players[2][89..], "  0000 - U     1 w 1", "{trf}");
    assert!(!trf.contains("\n032"), "no federation line: {trf}");

    let sheets = render(&t, Kind::SheetsCsv);
    assert!(
        sheets
            .contains("2026-11-25T19:43:36Z by TD (recounted): drawn/drawn - -> won/lost no-move"),
        "{sheets}"
    );
    assert!(!sheets.contains("1795635816170"), "{sheets}");

    // A federation set by the director is named, after the place line.
    let mut with = settings(System::Swiss);
    with.federation = Some("UGA".into());
    let create = Entry::Create {
        settings: Box::new(with),
        director: id(1),
        director_name: "TD".into(),
    };
    let named = Tournament::create(id(9), &create, 0).expect("created");
    let trf = render(&named, Kind::Trf);
    assert!(
        trf.starts_with("012 Test\n022 online (omweso)\n032 UGA\n042 1970/01/01\n"),
        "{trf}"
    );
}

/// "End round now": the round closes as when its time runs out, and says the director
/// ended it (the page said it "ran out of time"); a round whose time ran out does not.
#[test]
fn a_round_ended_by_the_director_says_so() {
    let mut t = new(System::Swiss, 4);
    pair(&mut t, 1, &[(0, Some(1)), (2, Some(3))]);
    let g = start(&mut t, 1, 0);
    let events = t
        .apply(
            &Entry::EndRound {
                round: 1,
                by: id(1),
            },
            5 * MINUTE,
        )
        .expect("ended");
    let [(_, TournamentEvent::Round(view))] = events.as_slice() else {
        panic!("one round event, not {events:?}");
    };
    assert!(view.closing);
    assert!(view.ended_by_director);
    assert_eq!(t.games_to_adjudicate(), vec![g[0].unwrap(), g[1].unwrap()]);
    // The flag is part of the snapshot, and of the JSON the pages read.
    let json = serde_json::to_value(&t.snapshot(None).rounds[0]).expect("JSON");
    assert_eq!(json["ended_by_director"], true);
    assert_eq!(json["closing"], true);
}
