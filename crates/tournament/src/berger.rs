//! Round-robin pairings from the FIDE Berger tables (docs/rules.md#54-pairing, FIDE Handbook C.05
//! Annex 1): every player meets every other once, with the first move (white) balanced.
//! Pure: players are numbered 1..=n in their initial order.
//!
//! For n players (one more, a bye seat, when n is odd), in round r of the n - 1:
//! - the players x, y below n with x + y ≡ r + 1 (mod n - 1) meet; the smaller number moves
//!   first when x + y is odd, the larger when it is even;
//! - the one left, p with 2p ≡ r + 1, meets n, who moves first in even rounds;
//! - the table with n is table 1, then (p + k, p - k) for k = 1, 2, ... (numbers taken
//!   cyclically in 1..n-1), which is the order of the printed tables.
//!
//! A double round-robin plays the table twice, the second cycle with first moves swapped.

/// One table of a round: who moves first, and who second (`None`: the bye seat, when the
/// number of players is odd).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pairing {
    pub first: usize,
    pub second: Option<usize>,
}

/// The rounds of a round-robin for `players` players (`double`: two cycles), each a list
/// of tables in order. A player paired with the bye seat has `second: None`. Fewer than
/// two players have no rounds.
#[must_use]
pub fn rounds(players: usize, double: bool) -> Vec<Vec<Pairing>> {
    if players < 2 {
        return Vec::new();
    }
    let n = players + players % 2;
    let m = n - 1;
    // `i` in 1..=m, wrapped into 1..=m.
    let wrap = |i: isize| -> usize { ((i - 1).rem_euclid(m as isize) + 1) as usize };
    let seat = |number: usize| (number <= players).then_some(number);
    // Only seat n can be the bye, and its opponent is always a player.
    let table = |white: usize, black: usize| match seat(white) {
        Some(first) => Pairing {
            first,
            second: seat(black),
        },
        None => Pairing {
            first: black,
            second: None,
        },
    };
    let mut cycle = Vec::with_capacity(m);
    for r in 1..=m {
        let target = (r + 1) % m;
        // 2p ≡ r + 1 (mod m), m odd: p is unique.
        let p = (1..=m).find(|p| (2 * p) % m == target).unwrap_or(1);
        let mut tables = Vec::with_capacity(n / 2);
        tables.push(if r % 2 == 0 { table(n, p) } else { table(p, n) });
        for k in 1..n / 2 {
            let x = wrap(p as isize + k as isize);
            let y = wrap(p as isize - k as isize);
            let (low, high) = (x.min(y), x.max(y));
            tables.push(if (x + y) % 2 == 1 {
                table(low, high)
            } else {
                table(high, low)
            });
        }
        cycle.push(tables);
    }
    if double {
        let swapped: Vec<Vec<Pairing>> = cycle
            .iter()
            .map(|tables| {
                tables
                    .iter()
                    .map(|t| match t.second {
                        Some(second) => Pairing {
                            first: second,
                            second: Some(t.first),
                        },
                        None => *t,
                    })
                    .collect()
            })
            .collect();
        cycle.extend(swapped);
    }
    cycle
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn pairs(round: &[Pairing]) -> Vec<(usize, Option<usize>)> {
        round.iter().map(|t| (t.first, t.second)).collect()
    }

    /// FIDE's printed table for 6 players.
    #[test]
    fn six_players_match_the_fide_table() {
        let r = rounds(6, false);
        let expected: [[(usize, usize); 3]; 5] = [
            [(1, 6), (2, 5), (3, 4)],
            [(6, 4), (5, 3), (1, 2)],
            [(2, 6), (3, 1), (4, 5)],
            [(6, 5), (1, 4), (2, 3)],
            [(3, 6), (4, 2), (5, 1)],
        ];
        assert_eq!(r.len(), 5);
        for (round, want) in r.iter().zip(expected) {
            let want: Vec<_> = want.iter().map(|&(a, b)| (a, Some(b))).collect();
            assert_eq!(pairs(round), want);
        }
    }

    /// FIDE's printed table for 4 players.
    #[test]
    fn four_players_match_the_fide_table() {
        let r = rounds(4, false);
        let got: Vec<_> = r.iter().map(|round| pairs(round)).collect();
        assert_eq!(
            got,
            [
                vec![(1, Some(4)), (2, Some(3))],
                vec![(4, Some(3)), (1, Some(2))],
                vec![(2, Some(4)), (3, Some(1))],
            ]
        );
    }

    /// Compares `rounds(players)` with a printed table, written as FIDE prints it: each
    /// round a list of "first-second" tables.
    fn assert_matches_printed(players: usize, printed: &[&str]) {
        let r = rounds(players, false);
        assert_eq!(
            r.len(),
            printed.len(),
            "{players} players: number of rounds"
        );
        for (i, (round, line)) in r.iter().zip(printed).enumerate() {
            let want: Vec<(usize, Option<usize>)> = line
                .split(", ")
                .map(|t| {
                    let (a, b) = t.split_once('-').expect("a table is first-second");
                    let a: usize = a.parse().expect("a player number");
                    let b: usize = b.parse().expect("a player number");
                    (a, Some(b))
                })
                .collect();
            assert_eq!(pairs(round), want, "{players} players, round {}", i + 1);
        }
    }

    /// FIDE's printed table for 7 or 8 players (Handbook C.05 Annex 1).
    #[test]
    fn eight_players_match_the_fide_table() {
        assert_matches_printed(
            8,
            &[
                "1-8, 2-7, 3-6, 4-5",
                "8-5, 6-4, 7-3, 1-2",
                "2-8, 3-1, 4-7, 5-6",
                "8-6, 7-5, 1-4, 2-3",
                "3-8, 4-2, 5-1, 6-7",
                "8-7, 1-6, 2-5, 3-4",
                "4-8, 5-3, 6-2, 7-1",
            ],
        );
    }

    /// FIDE's printed table for 9 or 10 players (Handbook C.05 Annex 1).
    #[test]
    fn ten_players_match_the_fide_table() {
        assert_matches_printed(
            10,
            &[
                "1-10, 2-9, 3-8, 4-7, 5-6",
                "10-6, 7-5, 8-4, 9-3, 1-2",
                "2-10, 3-1, 4-9, 5-8, 6-7",
                "10-7, 8-6, 9-5, 1-4, 2-3",
                "3-10, 4-2, 5-1, 6-9, 7-8",
                "10-8, 9-7, 1-6, 2-5, 3-4",
                "4-10, 5-3, 6-2, 7-1, 8-9",
                "10-9, 1-8, 2-7, 3-6, 4-5",
                "5-10, 6-4, 7-3, 8-2, 9-1",
            ],
        );
    }

    /// Five players: the table for six, seat 6 being the bye.
    #[test]
    fn an_odd_number_gets_a_bye_seat() {
        let r = rounds(5, false);
        assert_eq!(pairs(&r[0]), [(1, None), (2, Some(5)), (3, Some(4))]);
        assert_eq!(pairs(&r[1]), [(4, None), (5, Some(3)), (1, Some(2))]);
        // Each player has exactly one bye.
        let byes: Vec<usize> = r
            .iter()
            .flat_map(|round| round.iter().filter(|t| t.second.is_none()).map(|t| t.first))
            .collect();
        let mut sorted = byes.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, [1, 2, 3, 4, 5]);
    }

    #[test]
    fn everyone_meets_everyone_once_with_balanced_first_moves() {
        for players in 2..=20 {
            let r = rounds(players, false);
            let mut met = HashSet::new();
            let mut firsts = vec![0usize; players + 1];
            for round in &r {
                let mut seen = HashSet::new();
                for t in round {
                    assert!(
                        seen.insert(t.first),
                        "{players}: {} twice in a round",
                        t.first
                    );
                    if let Some(second) = t.second {
                        assert!(seen.insert(second));
                        let pair = (t.first.min(second), t.first.max(second));
                        assert!(met.insert(pair), "{players}: {pair:?} meet twice");
                        firsts[t.first] += 1;
                    }
                }
                assert_eq!(seen.len(), players, "{players}: everyone has a place");
            }
            assert_eq!(met.len(), players * (players - 1) / 2);
            // Each player plays every other once (with an odd number, one round is a bye).
            let played = players - 1;
            for (p, &f) in firsts.iter().enumerate().skip(1) {
                let diff = (2 * f).abs_diff(played);
                assert!(
                    diff <= 1,
                    "{players}: player {p} moves first {f} of {played}"
                );
            }
        }
    }

    #[test]
    fn a_double_round_robin_swaps_first_moves_in_its_second_cycle() {
        let r = rounds(4, true);
        assert_eq!(r.len(), 6);
        assert_eq!(pairs(&r[3]), [(4, Some(1)), (3, Some(2))]);
        assert_eq!(pairs(&r[5]), [(4, Some(2)), (1, Some(3))]);
        assert!(rounds(1, true).is_empty());
    }
}
