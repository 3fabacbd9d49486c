//! Points and standings (docs/rules.md#52-points, 5.5), recomputed from the results as they stand
//! (corrected where corrected). Pure. Points are kept in thousandths ([`Milli`]) so that
//! sums and ties are exact whatever the points table (0.5, 0.25...).

use std::collections::HashSet;

use omweso_rules::Victory;

/// Points in thousandths: 1.5 points is 1500.
pub type Milli = i64;

/// The points table of a tournament (docs/rules.md#52-points defaults).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PointsTable {
    pub win: Milli,
    pub emitwe_ebiri: Milli,
    pub akakyala: Milli,
    pub akawumbi: Milli,
    pub draw: Milli,
    pub loss: Milli,
    pub bye: Milli,
    /// Each player of a game annulled and not replayed.
    pub annulled: Milli,
    pub forfeit_win: Milli,
    pub forfeit_loss: Milli,
}

impl Default for PointsTable {
    fn default() -> PointsTable {
        PointsTable {
            win: 1000,
            emitwe_ebiri: 2000,
            akakyala: 2000,
            akawumbi: 6000,
            draw: 500,
            loss: 0,
            bye: 1000,
            annulled: 500,
            forfeit_win: 1000,
            forfeit_loss: 0,
        }
    }
}

impl PointsTable {
    /// What a win of type `victory` scores. Oware wins are all worth the win value.
    #[must_use]
    pub fn for_win(&self, victory: Victory, oware: bool) -> Milli {
        match victory {
            _ if oware => self.win,
            Victory::EmitweEbiri => self.emitwe_ebiri,
            Victory::Akakyala => self.akakyala,
            Victory::Akawumbi => self.akawumbi,
            _ => self.win,
        }
    }
}

/// How a played game ended, as its score sheet stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// `winner` is 0 (the first player) or 1.
    Win {
        winner: usize,
        victory: Victory,
    },
    Draw,
    /// Annulled and not replayed: the annulment's points each.
    Annulled,
}

/// One round's result for the standings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoundResult {
    /// A game between `players` (first, second), with the seeds each captured.
    Game {
        players: [usize; 2],
        result: GameResult,
        captured: [u32; 2],
    },
    /// A pairing bye.
    Bye { player: usize },
    /// An opponent who never came or withdrew mid-round.
    Forfeit { winner: usize, loser: usize },
    /// A game still being played: no points yet, but not a round without a game.
    Pending { players: [usize; 2] },
}

/// A player's line of the standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    pub player: usize,
    /// 1 for the leader; tied players share a rank.
    pub rank: usize,
    pub points: Milli,
    pub buchholz: Milli,
    pub sonneborn_berger: Milli,
    pub seeds: u64,
    /// Points scored against the other tied players, when they all met (else 0).
    pub direct: Milli,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

/// The standings of `players` players (numbered 0..players) after `rounds` rounds of
/// `results`, in rank order (players with equal everything in their initial order).
#[must_use]
pub fn standings(
    players: usize,
    rounds: usize,
    results: &[RoundResult],
    table: &PointsTable,
    oware: bool,
) -> Vec<Standing> {
    let mut points = vec![0; players];
    let mut seeds = vec![0u64; players];
    let mut rounds_played = vec![0usize; players];
    let mut wdl = vec![(0u32, 0u32, 0u32); players];
    // (opponent, this player's score in that game as a fraction of a win: 1000, 500, 0).
    let mut games: Vec<Vec<(usize, Milli)>> = vec![Vec::new(); players];
    for result in results {
        match *result {
            RoundResult::Game {
                players: [a, b],
                result,
                captured,
            } => {
                let (pa, pb, fa) = match result {
                    GameResult::Win { winner, victory } => {
                        let won = table.for_win(victory, oware);
                        if winner == 0 {
                            (won, table.loss, 1000)
                        } else {
                            (table.loss, won, 0)
                        }
                    }
                    GameResult::Draw => (table.draw, table.draw, 500),
                    GameResult::Annulled => (table.annulled, table.annulled, 500),
                };
                points[a] += pa;
                points[b] += pb;
                seeds[a] += u64::from(captured[0]);
                seeds[b] += u64::from(captured[1]);
                games[a].push((b, fa));
                games[b].push((a, 1000 - fa));
                rounds_played[a] += 1;
                rounds_played[b] += 1;
                for (p, f) in [(a, fa), (b, 1000 - fa)] {
                    let line = &mut wdl[p];
                    match f {
                        1000 => line.0 += 1,
                        500 => line.1 += 1,
                        _ => line.2 += 1,
                    }
                }
            }
            RoundResult::Bye { player } => points[player] += table.bye,
            RoundResult::Forfeit { winner, loser } => {
                points[winner] += table.forfeit_win;
                points[loser] += table.forfeit_loss;
            }
            RoundResult::Pending { players } => {
                for p in players {
                    rounds_played[p] += 1;
                }
            }
        }
    }
    let mut lines: Vec<Standing> = (0..players)
        .map(|p| {
            // A round not played over the board counts as an opponent with the player's
            // own points.
            let unplayed = rounds.saturating_sub(rounds_played[p]) as i64;
            let buchholz =
                games[p].iter().map(|&(o, _)| points[o]).sum::<Milli>() + unplayed * points[p];
            let sonneborn_berger = games[p].iter().map(|&(o, f)| points[o] * f / 1000).sum();
            Standing {
                player: p,
                rank: 0,
                points: points[p],
                buchholz,
                sonneborn_berger,
                seeds: seeds[p],
                direct: 0,
                wins: wdl[p].0,
                draws: wdl[p].1,
                losses: wdl[p].2,
            }
        })
        .collect();
    let key = |s: &Standing| (s.points, s.buchholz, s.sonneborn_berger, s.seeds);
    lines.sort_by(|a, b| key(b).cmp(&key(a)).then(a.player.cmp(&b.player)));
    // Direct encounter inside each group still tied, when all of them met.
    let mut start = 0;
    while start < lines.len() {
        let end = (start..lines.len())
            .find(|&i| key(&lines[i]) != key(&lines[start]))
            .unwrap_or(lines.len());
        if end - start > 1 {
            let group: HashSet<usize> = lines[start..end].iter().map(|s| s.player).collect();
            let all_met = group.iter().all(|&p| {
                let met: HashSet<usize> = games[p].iter().map(|&(o, _)| o).collect();
                group.iter().all(|&q| q == p || met.contains(&q))
            });
            if all_met {
                for line in &mut lines[start..end] {
                    line.direct = direct_points(line.player, &group, results, table, oware);
                }
            }
        }
        start = end;
    }
    let full = |s: &Standing| (key(s), s.direct);
    lines.sort_by(|a, b| full(b).cmp(&full(a)).then(a.player.cmp(&b.player)));
    for i in 0..lines.len() {
        lines[i].rank = if i > 0 && full(&lines[i]) == full(&lines[i - 1]) {
            lines[i - 1].rank
        } else {
            i + 1
        };
    }
    lines
}

/// The points `player` scored in games against the other players of `group`.
fn direct_points(
    player: usize,
    group: &HashSet<usize>,
    results: &[RoundResult],
    table: &PointsTable,
    oware: bool,
) -> Milli {
    results
        .iter()
        .filter_map(|r| match *r {
            RoundResult::Game {
                players: [a, b],
                result,
                ..
            } if (a == player && group.contains(&b)) || (b == player && group.contains(&a)) => {
                let me = usize::from(b == player);
                Some(match result {
                    GameResult::Win { winner, victory } if winner == me => {
                        table.for_win(victory, oware)
                    }
                    GameResult::Win { .. } => table.loss,
                    GameResult::Draw => table.draw,
                    GameResult::Annulled => table.annulled,
                })
            }
            _ => None,
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn win(first: usize, second: usize, winner: usize) -> RoundResult {
        RoundResult::Game {
            players: [first, second],
            result: GameResult::Win {
                winner,
                victory: Victory::NoMove,
            },
            captured: [0, 0],
        }
    }

    /// Four players, three rounds, worked out by hand.
    /// R1: 0 beats 3, 1 draws 2. R2: 0 beats 2 by emitwe-ebiri (2 points), 3 beats 1.
    /// R3: 0 loses to 1, 2 beats 3.
    /// Points: 0 = 1 + 2 + 0 = 3; 1 = 0.5 + 0 + 1 = 1.5; 2 = 0.5 + 0 + 1 = 1.5; 3 = 0 + 1 + 0 = 1.
    /// Buchholz: 0 = 1 + 1.5 + 1.5 = 4; 1 = 1.5 + 1 + 3 = 5.5; 2 = 1.5 + 3 + 1 = 5.5;
    /// 3 = 3 + 1.5 + 1.5 = 6.
    /// Sonneborn-Berger: 0 = 1 (beat 3) + 1.5 (beat 2) = 2.5; 1 = 0.5 * 1.5 (drew 2) + 3
    /// (beat 0) = 3.75; 2 = 0.5 * 1.5 (drew 1) + 1 (beat 3) = 1.75; 3 = 1.5 (beat 1) = 1.5.
    #[test]
    fn a_small_swiss_worked_out_by_hand() {
        let results = [
            win(0, 3, 0),
            RoundResult::Game {
                players: [1, 2],
                result: GameResult::Draw,
                captured: [10, 12],
            },
            RoundResult::Game {
                players: [2, 0],
                result: GameResult::Win {
                    winner: 1,
                    victory: Victory::EmitweEbiri,
                },
                captured: [3, 20],
            },
            win(3, 1, 0),
            win(0, 1, 1),
            win(2, 3, 0),
        ];
        let s = standings(4, 3, &results, &PointsTable::default(), false);
        let summary: Vec<_> = s
            .iter()
            .map(|l| (l.player, l.rank, l.points, l.buchholz, l.sonneborn_berger))
            .collect();
        assert_eq!(
            summary,
            [
                (0, 1, 3000, 4000, 2500),
                (1, 2, 1500, 5500, 3750),
                (2, 3, 1500, 5500, 1750),
                (3, 4, 1000, 6000, 1500),
            ]
        );
        assert_eq!((s[1].wins, s[1].draws, s[1].losses), (1, 1, 1));
        assert_eq!(s[0].seeds, 20);
    }

    /// A bye counts its points, and in the Buchholz as an opponent with the player's own
    /// points; Oware wins are all worth the win value.
    #[test]
    fn byes_and_oware_wins() {
        // Three players, two rounds. R1: 0 beats 1 (akawumbi would be 6 in Omweso), 2 bye.
        // R2: 2 beats 0, 1 bye.
        let results = [
            RoundResult::Game {
                players: [0, 1],
                result: GameResult::Win {
                    winner: 0,
                    victory: Victory::Akawumbi,
                },
                captured: [25, 3],
            },
            RoundResult::Bye { player: 2 },
            win(2, 0, 0),
            RoundResult::Bye { player: 1 },
        ];
        let s = standings(3, 2, &results, &PointsTable::default(), true);
        // Points: 0 = 1, 1 = 1 (bye), 2 = 2. Buchholz: 2 = 1 (beat 0) + 2 (own, bye) = 3;
        // 0 = 1 + 2 = 3; 1 = 1 (lost to 0) + 1 (own, bye) = 2. SB: 0 = 1 (beat 1); 1 = 0.
        let summary: Vec<_> = s
            .iter()
            .map(|l| (l.player, l.rank, l.points, l.buchholz, l.sonneborn_berger))
            .collect();
        assert_eq!(
            summary,
            [
                (2, 1, 2000, 3000, 1000),
                (0, 2, 1000, 3000, 1000),
                (1, 3, 1000, 2000, 0)
            ]
        );
    }

    /// Players equal on points, Buchholz, SB and seeds are split by their games against
    /// each other; still equal, they share the rank.
    #[test]
    fn direct_encounter_and_shared_ranks() {
        // Two players, one drawn game: everything equal, both rank 1.
        let drawn = [RoundResult::Game {
            players: [0, 1],
            result: GameResult::Draw,
            captured: [5, 5],
        }];
        let s = standings(2, 1, &drawn, &PointsTable::default(), false);
        assert_eq!((s[0].rank, s[1].rank), (1, 1));
        assert_eq!((s[0].direct, s[1].direct), (500, 500));
        // Annulled and not replayed: half a point each, counted as a draw.
        let annulled = [RoundResult::Game {
            players: [0, 1],
            result: GameResult::Annulled,
            captured: [0, 0],
        }];
        let s = standings(2, 1, &annulled, &PointsTable::default(), false);
        assert_eq!((s[0].points, s[0].draws), (500, 1));
        // A forfeit: the winner's points, no game, no Buchholz from the absent opponent
        // (the round counts the player's own points).
        let forfeit = [RoundResult::Forfeit {
            winner: 1,
            loser: 0,
        }];
        let s = standings(2, 1, &forfeit, &PointsTable::default(), false);
        assert_eq!((s[0].player, s[0].points, s[0].buchholz), (1, 1000, 1000));
        assert_eq!((s[1].player, s[1].points, s[1].buchholz), (0, 0, 0));
    }
}
