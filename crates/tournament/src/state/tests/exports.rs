//! The exports of a tournament, exactly.

use super::*;

/// The exports of a small event, exactly: the TRF has no federation it was not given, and
/// its points column adds up from its own codes under the values it declares (A's
/// emitwe-ebiri win is a `1`, worth the win's 1 there, while the standings count 2); the
/// score sheets write a correction's time in ISO 8601 UTC, not in raw milliseconds.
///
/// - Round 1: A-B, A wins by emitwe-ebiri; C has the bye.
/// - Round 2: C-A drawn; B has the bye. The director corrects it to C's win by no move.
#[test]
fn the_exports_add_up_and_say_their_times_in_iso_8601() {
    use crate::export::{render, Kind};
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
                seeds: None,
                adjudicated: false,
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
