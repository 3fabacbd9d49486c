//! A Swiss round: the bye, the matching, the first moves, the table order.

use std::cmp::Reverse;

use super::colours::{orient, Balance, Seating};
use super::field::Field;
use super::{bye, matching, weights, Pairing, PairingError, SwissInput};

/// The pairing of the next Swiss round (docs/rules.md#54-pairing), in table order: table 1 is the
/// pair with the most points (the higher of its two, then their sum), then the better
/// ranked; the bye (`second: None`) last. Every active player is at one table, and no
/// absolute rule is broken; when that cannot be, the error names the rule and the players
/// it leaves out. The same input always gives the same pairing.
pub fn swiss(input: &SwissInput) -> Result<Vec<Pairing>, PairingError> {
    let field = Field::new(input)?;
    let bye = bye::designate(&field)?;
    let players: Vec<usize> = field
        .ranking
        .iter()
        .copied()
        .filter(|&p| Some(p) != bye)
        .collect();
    let table = weights::table(&field, &players)?;
    let mate = matching::max_weight(players.len(), &table);

    // (i, j) with i < j: positions in `players`, so players[i] is the higher-ranked.
    let mut pairs = Vec::with_capacity(players.len() / 2);
    for (i, m) in mate.iter().enumerate() {
        match *m {
            Some(j) if i < j => pairs.push((i, j)),
            Some(_) => {}
            // `designate` found a pairing of all of them, and every pair is worth more
            // than everything else together: the matching must pair everyone.
            None => {
                return Err(PairingError::new(
                    0,
                    vec![players[i]],
                    format!(
                        "{} was left unpaired though a full pairing exists: this is a bug",
                        field.name(players[i])
                    ),
                ))
            }
        }
    }
    let points = input.points;
    pairs.sort_by_key(|&(i, j)| {
        let (a, b) = (players[i], players[j]);
        (
            Reverse(points[a]),
            Reverse(i128::from(points[a]) + i128::from(points[b])),
            i,
        )
    });

    let mut tables: Vec<Pairing> = pairs
        .iter()
        .enumerate()
        .map(|(t, &(i, j))| {
            let (high, low) = (players[i], players[j]);
            let seating = orient(
                &Balance::new(&field.record.sides[high]),
                &Balance::new(&field.record.sides[low]),
            );
            let high_first = match seating {
                Seating::HigherFirst => true,
                Seating::LowerFirst => false,
                // Table t + 1: odd tables give the higher-ranked the first move.
                Seating::ByTable => t % 2 == 0,
            };
            if high_first {
                Pairing {
                    first: high,
                    second: Some(low),
                }
            } else {
                Pairing {
                    first: low,
                    second: Some(high),
                }
            }
        })
        .collect();
    if let Some(p) = bye {
        tables.push(Pairing {
            first: p,
            second: None,
        });
    }
    Ok(tables)
}
