//! The tournament's state machine under test: the fixtures here (a tournament of numbered
//! players, a round paired, started and its games ended), then `histories` (hand-made
//! histories, every expected value worked out in the comments), `properties` (random
//! tournaments that must keep the invariants) and `exports` (the CSV and TRF of a small
//! event, exactly).

use omweso_rules::{AnnulReason, Outcome, Side, Victory};
use uuid::Uuid;

use super::*;
use crate::log::SheetAction;
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
        crate::settings::MIN_ROUND_MINUTES,
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
            by: None,
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
            by: None,
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

mod board;
mod directors;
mod exports;
mod histories;
mod properties;
mod seeding;
mod sheet_ratings;
