//! The tournament on hand-made histories, with every expected value worked out in the
//! comments.

use super::*;

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
                    seeds: None,
                    adjudicated: false,
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
                seeds: None,
                adjudicated: false,
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
                    seeds: None,
                    adjudicated: false,
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
