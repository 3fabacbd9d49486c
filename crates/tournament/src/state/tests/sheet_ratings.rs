//! What a rated tournament's sheets give the ratings: the result when a sheet is made, the
//! same key again when a correction changes it (`None` once it no longer counts), nothing
//! for a forfeit, a game decided before both moved, or a player without an account.

use super::seeding::rated_with;
use super::*;
use crate::state::SheetRating;
use omweso_ratings::Score;

/// Applies `entry` as the tournament's task does and answers the rated result it writes.
fn written(t: &mut Tournament, entry: &Entry, at: u64) -> Option<SheetRating> {
    let before = t.rating_before(entry);
    t.apply(entry, at).expect("applied");
    t.rating_change(before)
}

/// A game's end as its task reports it: `moves` each side's turns, the figures' their
/// sum.
fn ended(game: Uuid, outcome: Outcome, moves: [u32; 2]) -> Entry {
    Entry::GameEnd {
        game_id: game,
        outcome,
        moves,
        figures: GameFigures {
            turns: moves[0] + moves[1],
            ..GameFigures::default()
        },
        replay: None,
        ended_at_ms: None,
        adjudicated: false,
    }
}

fn correct(game: Uuid, outcome: Outcome) -> Entry {
    Entry::Sheet {
        game_id: game,
        by: id(1),
        action: SheetAction::Correct {
            outcome,
            reason: "recounted".into(),
            seeds: None,
            adjudicated: false,
        },
    }
}

/// Round 1: P0-P1 (P0 moves first, South) and P2-P3 (P3 has no account). P0 wins: rated
/// South won, at the game's end. The director corrects it to a draw (same key, a draw,
/// the game's end time kept), upholds the draw (nothing new), then annuls it (the key
/// again, counting for nothing). P2-P3's sheet counts for nothing.
#[test]
fn a_sheet_is_rated_when_made_and_again_when_corrected() {
    let mut t = rated_with(&[Some(1500), Some(1600), Some(1700), None]);
    pair(&mut t, 1, &[(0, Some(1)), (2, Some(3))]);
    let games = start(&mut t, 1, 0);
    let (g1, g2) = (games[0].expect("a game"), games[1].expect("a game"));
    let won = written(
        &mut t,
        &ended(g1, win(Side::South, Victory::Resigned), [3, 3]),
        MINUTE,
    );
    let rated = SheetRating {
        key: g1,
        south: player(0),
        north: player(1),
        score: Some(Score::SouthWon),
        at_ms: MINUTE,
    };
    assert_eq!(won, Some(rated));
    let drawn = written(&mut t, &correct(g1, Outcome::Draw), 5 * MINUTE);
    assert_eq!(
        drawn,
        Some(SheetRating {
            score: Some(Score::Draw),
            ..rated
        })
    );
    assert_eq!(
        written(&mut t, &correct(g1, Outcome::Draw), 6 * MINUTE),
        None
    );
    let annulled = written(
        &mut t,
        &correct(
            g1,
            Outcome::Annulled {
                reason: AnnulReason::NeverEnding,
            },
        ),
        7 * MINUTE,
    );
    assert_eq!(
        annulled,
        Some(SheetRating {
            score: None,
            ..rated
        })
    );
    // Between an account and a person without one: not rated.
    assert_eq!(
        written(
            &mut t,
            &ended(g2, win(Side::North, Victory::Resigned), [4, 4]),
            MINUTE
        ),
        None
    );
}

/// A forfeit (the loser never moved) and a game resigned before both moved are not rated,
/// even when the director corrects them to a result; a win by the player who moved
/// second (North) is rated NorthWon.
#[test]
fn forfeits_and_unplayed_games_are_not_rated() {
    let mut t = rated_with(&[
        Some(1500),
        Some(1500),
        Some(1500),
        Some(1500),
        Some(1500),
        Some(1500),
    ]);
    pair(&mut t, 1, &[(0, Some(1)), (2, Some(3)), (4, Some(5))]);
    let games: Vec<Uuid> = start(&mut t, 1, 0).into_iter().flatten().collect();
    let forfeit = written(
        &mut t,
        &ended(games[0], win(Side::South, Victory::Abandoned), [1, 0]),
        MINUTE,
    );
    assert_eq!(forfeit, None);
    let resigned_at_once = written(
        &mut t,
        &ended(games[1], win(Side::North, Victory::Resigned), [0, 0]),
        MINUTE,
    );
    assert_eq!(resigned_at_once, None);
    assert_eq!(
        written(
            &mut t,
            &correct(games[1], win(Side::South, Victory::Resigned)),
            2 * MINUTE
        ),
        None,
        "decided before both moved: never rated"
    );
    let north = written(
        &mut t,
        &ended(games[2], win(Side::North, Victory::Resigned), [7, 7]),
        MINUTE,
    );
    assert_eq!(
        north.map(|r| (r.south, r.north, r.score)),
        Some((player(4), player(5), Some(Score::NorthWon)))
    );
}

/// Issue 41, finding 4: a game given up before each player made three turns is too short
/// to rate (`ratings::too_short`), and stays so when corrected to another giving-up; a
/// correction to a win on the board counts, as a short board win would.
#[test]
fn a_game_given_up_after_a_turn_or_two_is_not_rated() {
    let mut t = rated_with(&[Some(1500), Some(1600)]);
    pair(&mut t, 1, &[(0, Some(1))]);
    let games = start(&mut t, 1, 0);
    let game = games[0].expect("a game");
    let short = written(
        &mut t,
        &ended(game, win(Side::North, Victory::Resigned), [2, 2]),
        MINUTE,
    );
    assert_eq!(short, None);
    assert_eq!(
        written(
            &mut t,
            &correct(game, win(Side::South, Victory::Abandoned)),
            2 * MINUTE
        ),
        None
    );
    let on_the_board = written(
        &mut t,
        &correct(game, win(Side::South, Victory::NoMove)),
        3 * MINUTE,
    );
    assert_eq!(on_the_board.map(|r| r.score), Some(Some(Score::SouthWon)));
}
