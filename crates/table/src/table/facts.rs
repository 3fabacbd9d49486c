//! What a game's score sheet needs (docs/rules.md#51-score-sheets): the seeds each side captured, the
//! turns each played, when play began and ended, and the seeds on each side now. The
//! table keeps the tallies as it plays, so that they are rebuilt from the log with it.

use omweso_rules::{Game, Preset, Side};
use serde::{Deserialize, Serialize};

use super::Table;

/// The game's facts as they stand (`[south, north]` for each pair).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameFacts {
    /// Seeds captured by each side over its turns: on the 4x8 board the seeds taken in
    /// capture laps; in Oware the seeds put in the side's store (the final sweep, at 25
    /// too, and an agreed impasse's split, so that it ends equal to the stores).
    pub captured: [u64; 2],
    /// Whole turns each side played (a stolen turn is the stealer's; a turn waiting at a
    /// decision is not counted until it is over).
    pub turns: [u32; 2],
    /// When play began (both seated and, in free setup, arranged), ms since the epoch.
    pub started_at_ms: Option<u64>,
    /// When the game ended, ms since the epoch.
    pub ended_at_ms: Option<u64>,
    /// Seeds in each side's pits (Oware: houses). Before play begins, the seeds each side
    /// will start with; while a turn waits at a decision, the board before that turn.
    pub seeds_on_side: [u64; 2],
    /// The game was stopped and decided on material ([`Table::adjudicate`]): says so of a
    /// draw too, which the outcome cannot.
    #[serde(default)]
    pub adjudicated: bool,
    /// A free setup's arrangements (docs/rules.md#11-setup), each in its side's own pit order, once
    /// made; `late`: the referee placed it, the player's time being up.
    #[serde(default)]
    pub arrangements: [Option<[u8; 16]>; 2],
    #[serde(default)]
    pub late_arranged: [bool; 2],
}

impl Table {
    /// The game's facts as they stand.
    #[must_use]
    pub fn facts(&self) -> GameFacts {
        GameFacts {
            captured: self.tally.captured,
            turns: self.tally.turns,
            started_at_ms: self.tally.started_at_ms,
            ended_at_ms: self.tally.ended_at_ms,
            seeds_on_side: self.seeds_on_side(),
            adjudicated: self.tally.adjudicated,
            arrangements: self.arrangements.map(|a| a.map(|a| a.counts())),
            late_arranged: self.tally.late_arranged,
        }
    }

    /// Seeds in each side's pits, on the board as it stands between turns (a turn waiting
    /// at a decision has not changed it yet). Before play begins each side's seeds are
    /// theirs though not yet placed: the counts of the start (the same for every preset
    /// and arrangement, which only move a side's seeds among its own pits).
    pub(super) fn seeds_on_side(&self) -> [u64; 2] {
        let board = self.board.unwrap_or_else(|| {
            self.initial_board(self.config.setup.preset().unwrap_or(Preset::Outer), None)
        });
        Side::ALL.map(|side| seeds_on(&board, side))
    }
}

fn seeds_on(board: &Game, side: Side) -> u64 {
    match board {
        Game::Omweso(p) | Game::Mweiso(p) => u64::from(p.board().total(side)),
        Game::Oware(p) => u64::from(p.seeds_on(side)),
    }
}

#[cfg(test)]
mod tests {
    use omweso_rules::{Game, Ruleset, Side};

    use super::super::fixtures::{act, mv, on_board, seated};
    use super::super::Action;
    use super::GameFacts;
    use crate::log::replay;
    use omweso_protocol::config::SetupKind;
    use omweso_protocol::Event;

    /// A position where South's E1 captures 6 seeds and North's answer E3/c captures 14.
    const CAPTURES: &str = "5,0,0,0,1,1,1,1/0,3,0,5,5,5,0,5/10,4,1,4,4,0,0,4/1,0,0,0,4,0,0,0 s";

    /// docs/rules.md#3-oware-abapa: the move that reaches 25 stops the game and each side takes the seeds
    /// left in its own houses; the sheet's seeds count that sweep, so that a game played
    /// from the start ends with 48 between them.
    #[test]
    fn the_sweep_at_25_counts_on_the_sheet() {
        // Stores 21 and 19 when the board was put there; South's E1 captures 5 (26), then
        // South takes F1's 2 (28) and North A2's 1 (20).
        let mut t = on_board(Ruleset::Oware, "1,0,0,0,1,2/0,0,0,0,3,1 s 21 19");
        t.act(Side::South, &mv("E1"), 2_000).unwrap();
        assert_eq!(
            t.position().as_deref(),
            Some("0,0,0,0,0,0/0,0,0,0,0,0 n 28 20")
        );
        assert_eq!(t.facts().captured, [7, 1]);
        assert_eq!(t.facts().seeds_on_side, [0, 0]);
    }

    #[test]
    fn a_capture_counts_for_the_side_that_made_it_once_its_turn_is_over() {
        let mut t = on_board(Ruleset::Omweso, CAPTURES);
        let before = GameFacts {
            captured: [0, 0],
            turns: [0, 0],
            started_at_ms: Some(1_000),
            ended_at_ms: None,
            seeds_on_side: [32, 32],
            adjudicated: false,
            arrangements: [None, None],
            late_arranged: [false, false],
        };
        assert_eq!(t.facts(), before);
        t.act(Side::South, &mv("E1"), 2_000).unwrap();
        let after_south = GameFacts {
            captured: [6, 0],
            turns: [1, 0],
            seeds_on_side: [38, 26],
            ..before
        };
        assert_eq!(t.facts(), after_south);
        // North's E3 stops at a decision: nothing is counted until the turn is over.
        t.act(Side::North, &mv("E3"), 3_000).unwrap();
        assert!(t.pending.is_some());
        assert_eq!(t.facts(), after_south);
        let choice = Action::Decide { choice: "c".into() };
        t.act(Side::North, &choice, 4_000).unwrap();
        assert_eq!(
            t.facts(),
            GameFacts {
                captured: [6, 14],
                turns: [1, 1],
                seeds_on_side: [24, 40],
                ..after_south
            }
        );
    }

    #[test]
    fn an_oware_capture_is_what_the_store_gained() {
        let mut t = on_board(Ruleset::Oware, "4,4,4,4,4,1/4,4,4,4,4,1 s 3 3");
        assert_eq!(t.facts().seeds_on_side, [21, 21]);
        // F1's one seed makes F2 two: captured.
        t.act(Side::South, &mv("F1"), 2_000).unwrap();
        assert_eq!(t.facts().captured, [2, 0]);
        assert_eq!(t.facts().seeds_on_side, [20, 20]);
        assert_eq!(t.position().unwrap(), "4,4,4,4,4,0/4,4,4,4,4,0 n 5 3");

        let mut t = on_board(Ruleset::Oware, "1,4,4,4,4,4/1,4,4,4,4,4 n 3 3");
        // North's A2 sows into A1, South's first house: two, captured.
        t.act(Side::North, &mv("A2"), 2_000).unwrap();
        let facts = t.facts();
        assert_eq!((facts.captured, facts.turns), ([0, 2], [0, 1]));
        assert_eq!(facts.seeds_on_side, [20, 20]);
    }

    #[test]
    fn play_begins_when_the_second_player_sits_and_ends_with_the_game() {
        let (mut t, _) = seated(Ruleset::Omweso, SetupKind::Free);
        assert_eq!(t.facts().started_at_ms, None);
        // Unarranged, each side's 32 seeds are still theirs.
        assert_eq!(t.facts().seeds_on_side, [32, 32]);
        t.act(Side::North, &Action::Resign, 5_000).unwrap();
        assert_eq!(t.facts().started_at_ms, None);
        assert_eq!(t.facts().ended_at_ms, Some(5_000));

        let (mut t, _) = seated(Ruleset::Oware, SetupKind::Outer);
        assert_eq!(t.facts().started_at_ms, Some(1_000));
        assert_eq!(t.facts().seeds_on_side, [24, 24]);
        t.act(Side::South, &Action::Resign, 9_000).unwrap();
        assert_eq!(t.facts().ended_at_ms, Some(9_000));
    }

    /// A number from `seed`, different at every call (xorshift): the same game every run.
    fn pick(seed: &mut u64, below: usize) -> usize {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        usize::try_from(*seed % below as u64).unwrap()
    }

    /// Plays a game of `ruleset` (each move's start and then its answers one by one, so
    /// that turns stop at their decisions) and checks the facts against the events and the
    /// replayed log.
    fn played_game(ruleset: Ruleset, mut seed: u64) {
        let (mut t, mut log) = seated(ruleset, SetupKind::Outer);
        let mut shown_captures = [0u64; 2];
        let mut at = 2_000;
        while !t.status().is_over() && t.moves_played() < 120 {
            let query = t.legal_query();
            let (side, board) = query.sides[0];
            let moves = board.legal_moves(side, Some(query.budget));
            let whole = moves[pick(&mut seed, moves.len())].to_string();
            let mut tokens = whole.split('/');
            let mut events = act(&mut t, &mut log, side, mv(tokens.next().unwrap()), at);
            for choice in tokens {
                at += 700;
                let decide = Action::Decide {
                    choice: choice.into(),
                };
                events.extend(act(&mut t, &mut log, side, decide, at));
            }
            for (_, event) in events {
                if let Event::Played(played) = event {
                    let omitted = played.laps_omitted.map_or(0, |o| o.captured);
                    let laps: u64 = played.laps.iter().map(|l| u64::from(l.captured)).sum();
                    shown_captures[played.by.index()] += laps + omitted;
                }
            }
            at += 1_300;
        }
        let facts = t.facts();
        assert!(facts.turns[0] + facts.turns[1] >= 4, "{ruleset}: {facts:?}");
        assert!(
            facts.captured[0] + facts.captured[1] > 0,
            "{ruleset}: {facts:?}"
        );
        let history_turns = Side::ALL.map(|side| {
            let mine = t.history.iter().filter(|h| h.by == side).count();
            u32::try_from(mine).unwrap()
        });
        assert_eq!(facts.turns, history_turns);
        match t.board.and_then(|b| b.scores()) {
            Some(stores) => assert_eq!(facts.captured, stores.map(u64::from)),
            None => assert_eq!(facts.captured, shown_captures),
        }
        let total: u64 = facts.seeds_on_side.iter().sum();
        let expected = if ruleset == Ruleset::Oware {
            48 - facts.captured[0] - facts.captured[1]
        } else {
            64
        };
        assert_eq!(total, expected);
        assert_eq!(facts.ended_at_ms.is_some(), t.status().is_over());

        let replayed = replay(t.id(), log).unwrap();
        assert_eq!(replayed.facts(), facts);
        assert_eq!(replayed.version(), t.version());
        assert_eq!(replayed.position(), t.position());
    }

    #[test]
    fn the_facts_agree_with_the_events_and_the_replayed_log() {
        for seed in [1, 7, 42] {
            played_game(Ruleset::Omweso, seed);
            played_game(Ruleset::Mweiso, seed);
            played_game(Ruleset::Oware, seed);
        }
    }

    #[test]
    fn the_seeds_of_a_hand_made_board_are_counted_per_side() {
        let t = on_board(
            Ruleset::Mweiso,
            "2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 s",
        );
        assert_eq!(t.facts().seeds_on_side, [32, 32]);
        let game = Game::parse(Ruleset::Oware, "0,0,0,0,0,9/1,2,3,0,0,0 s 20 13").unwrap();
        assert_eq!(super::seeds_on(&game, Side::South), 6);
        assert_eq!(super::seeds_on(&game, Side::North), 9);
    }
}
