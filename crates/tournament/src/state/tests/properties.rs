//! Random histories (any entries, in any order, at any times): a refusal changes nothing,
//! the version counts the events, the standings list everyone, and a replay of the
//! accepted entries rebuilds the same tournament.

use proptest::prelude::*;

use super::*;
use crate::log::BoardAction;
use omweso_protocol::over_the_board::{BoardResult, PlayedAt};
use omweso_protocol::tournament::PerPlayer;

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
    Some(match op % 13 {
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
                by: None,
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
                        seeds: None,
                        adjudicated: false,
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
        // Over the board: a table (or a round) moved, a sheet entered, initialled or
        // disputed, a relay named (its game created when the round is played), a player
        // added by the director.
        9 => Entry::PlayedAt {
            round: t.rounds().last()?.number,
            table: (a % 3 != 0).then_some(u32::from(a % 5) + 1),
            played_at: if b % 3 == 0 {
                PlayedAt::Online
            } else {
                PlayedAt::Board
            },
            by: if b % 5 == 0 { someone(b) } else { id(1) },
        },
        10 => {
            let round = t.rounds().get(usize::from(a) % t.rounds().len().max(1))?;
            let table = round
                .tables
                .get(usize::from(b) % round.tables.len().max(1))?;
            let players = [table.first, table.second?].map(|p| t.players()[p].id);
            let by = match b % 4 {
                0 => id(1),
                1 => someone(a),
                n => players[usize::from(n) - 2],
            };
            let winner = match a % 3 {
                0 => None,
                n => Some(players[usize::from(n) - 1]),
            };
            Entry::BoardSheet {
                round: round.number,
                table: table.number,
                by,
                action: match a % 5 {
                    0 | 1 => BoardAction::Enter {
                        result: BoardResult {
                            winner,
                            victory: winner.map(|_| Victory::NoMove),
                            seeds: PerPlayer {
                                first: u64::from(b % 40),
                                second: u64::from(a % 20),
                            },
                            seeds_on_board: None,
                        },
                        as_player: false,
                    },
                    2 | 3 => BoardAction::Confirm,
                    _ => BoardAction::Dispute {
                        reason: "not what we saw".into(),
                    },
                },
            }
        }
        11 => {
            let round = t.rounds().last()?;
            let table = round
                .tables
                .get(usize::from(a) % round.tables.len().max(1))?;
            let game = t
                .relay_game_to_create(round.number, table.number)
                .map(|(game, ..)| game);
            Entry::Relay {
                round: round.number,
                table: table.number,
                relay: (b % 4 != 0).then(|| someone(b)),
                name: "Relay".into(),
                code_hash: None,
                by: Some(if b % 7 == 0 { someone(a) } else { id(1) }),
                game: game.filter(|_| b % 4 != 0),
            }
        }
        12 => {
            *next_id += 1;
            Entry::AddPlayer {
                player: id(*next_id),
                name: format!("Board {next_id}"),
                by: if a % 4 == 0 { someone(b) } else { id(1) },
            }
        }
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
