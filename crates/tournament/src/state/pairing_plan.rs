//! The pairing plan: what the pairing reads of a tournament ([`PairingFacts`], built in one
//! place for the Swiss pairing and for checking a director's pairing), the next round's
//! pairing (docs/rules.md#54-pairing: Swiss, or the round-robin's Berger table), a director's pairing
//! checked against the absolute rules, and the games a round's start creates.

use uuid::Uuid;

use crate::log::{Entry, LoggedPairing};
use crate::standings::Milli;
use crate::{berger, pairing};
use omweso_protocol::tournament::{RoundStatus, System};
use omweso_protocol::ErrorCode;

use super::*;

/// What the pairing reads of a tournament, owned, so that one [`pairing::SwissInput`] can
/// borrow it: built by [`Tournament::pairing_facts`] for the Swiss pairing and for checking
/// a director's pairing alike.
///
/// The pairing numbers its players in their initial order (it ranks equal scores by that
/// number): here pairing number `k` is player `order[k]` of the tournament, which is
/// registration order unless a rated tournament seeded its field by rating.
pub(super) struct PairingFacts {
    /// Pairing number -> player index, and back.
    order: Vec<usize>,
    number_of: Vec<usize>,
    names: Vec<String>,
    /// The players' points after each started round, and now: `points[r][k]`.
    points: Vec<Vec<Milli>>,
    active: Vec<bool>,
    forbidden: Vec<(usize, usize)>,
    balance_first_move: bool,
    history: Vec<pairing::PastRound>,
}

impl PairingFacts {
    pub(super) fn input(&self) -> pairing::SwissInput<'_> {
        pairing::SwissInput {
            names: &self.names,
            points: self.points.last().map_or(&[][..], Vec::as_slice),
            active: &self.active,
            forbidden: &self.forbidden,
            balance_first_move: self.balance_first_move,
            history: &self.history,
        }
    }

    /// A pairing in the pairing's numbers, in player indices.
    fn to_players(&self, p: berger::Pairing) -> berger::Pairing {
        berger::Pairing {
            first: self.order[p.first],
            second: p.second.map(|s| self.order[s]),
        }
    }

    /// A pairing in player indices, in the pairing's numbers.
    fn to_numbers(&self, p: berger::Pairing) -> berger::Pairing {
        berger::Pairing {
            first: self.number_of[p.first],
            second: p.second.map(|s| self.number_of[s]),
        }
    }
}

impl Tournament {
    /// What the pairing reads of the tournament now, in the initial order.
    pub(super) fn pairing_facts(&self) -> PairingFacts {
        let order = self.initial_order();
        let mut number_of = vec![0; order.len()];
        for (k, &p) in order.iter().enumerate() {
            number_of[p] = k;
        }
        let in_order = |values: &[Milli]| -> Vec<Milli> {
            // A player who joined after a round has no points before it.
            order
                .iter()
                .filter_map(|&p| values.get(p).copied())
                .collect()
        };
        let points: Vec<Vec<Milli>> = self.points_by_round().iter().map(|r| in_order(r)).collect();
        let mut facts = PairingFacts {
            names: order
                .iter()
                .map(|&p| self.players[p].name.clone())
                .collect(),
            active: order.iter().map(|&p| !self.players[p].withdrawn).collect(),
            forbidden: Vec::new(),
            balance_first_move: self.settings.balance_first_move,
            history: Vec::new(),
            points: Vec::new(),
            order,
            number_of,
        };
        facts.forbidden = self
            .forbidden()
            .into_iter()
            .map(|(a, b)| (facts.number_of[a], facts.number_of[b]))
            .collect();
        facts.history = self
            .past_rounds(&points)
            .into_iter()
            .map(|round| pairing::PastRound {
                pairs: round
                    .pairs
                    .into_iter()
                    .map(|p| facts.to_numbers(p))
                    .collect(),
                points_before: round.points_before,
            })
            .collect();
        facts.points = points;
        facts
    }

    /// The players' points after each started round, and now: `history[r][p]`.
    pub(super) fn points_by_round(&self) -> Vec<Vec<Milli>> {
        let table = &self.settings.points;
        let oware = self.settings.oware();
        let mut running = vec![0; self.players.len()];
        let mut history = vec![running.clone()];
        for round in self.rounds.iter().filter(|r| r.started_at_ms.is_some()) {
            for t in &round.tables {
                for (player, pts) in self.table_points(t, table, oware) {
                    running[player] += pts;
                }
            }
            history.push(running.clone());
        }
        history
    }

    /// What each player of a settled table scored.
    pub(super) fn table_points(
        &self,
        t: &Table,
        table: &crate::standings::PointsTable,
        oware: bool,
    ) -> Vec<(usize, Milli)> {
        let Some(players) = t.players() else {
            // A bye whose player withdrew before the round started scores nothing.
            return if t.no_game {
                Vec::new()
            } else {
                vec![(t.first, table.bye)]
            };
        };
        if t.no_game {
            return match t.forfeit_winner {
                Some(w) => vec![
                    (players[w], table.forfeit_win),
                    (players[1 - w], table.forfeit_loss),
                ],
                None => Vec::new(),
            };
        }
        match t.game.as_ref().and_then(|g| g.sheet.as_ref()) {
            Some(sheet) => {
                let pts = sheet.verdict().points(table, oware);
                vec![(players[0], pts[0]), (players[1], pts[1])]
            }
            None => Vec::new(),
        }
    }

    pub(super) fn forbidden(&self) -> Vec<(usize, usize)> {
        self.settings
            .forbidden_pairs
            .iter()
            .filter_map(|[a, b]| Some((self.player_index(*a)?, self.player_index(*b)?)))
            .collect()
    }

    /// Pairs the next round (docs/rules.md#54-pairing): the Swiss pairing, or the round-robin's
    /// Berger table. Refused when the previous round is not finished, the tournament is
    /// complete, or no pairing keeps the absolute rules (saying which and for whom).
    pub fn pair_next(&self) -> Result<Entry, Refusal> {
        self.may_pair_next()?;
        let number = self.rounds.len() as u32 + 1;
        let pairs: Vec<berger::Pairing> = match self.settings.system {
            System::Swiss => {
                let facts = self.pairing_facts();
                pairing::swiss(&facts.input())
                    .map_err(|e| Refusal::listing(ErrorCode::NoPairing, e.message))?
                    .into_iter()
                    .map(|p| facts.to_players(p))
                    .collect()
            }
            System::RoundRobin | System::DoubleRoundRobin => {
                let field: Vec<usize> = match &self.field {
                    Some(field) => field.clone(),
                    None => self.active_in_order(),
                };
                let schedule = berger::rounds(
                    field.len(),
                    self.settings.system == System::DoubleRoundRobin,
                );
                let Some(round) = schedule.get(number as usize - 1) else {
                    return refuse(
                        ErrorCode::RoundNotReady,
                        "every round of the round-robin is paired",
                    );
                };
                // Berger numbers players from 1. The bye seat's table goes last, as in
                // a Swiss: tables are numbered from the top pairing.
                let mut pairs: Vec<berger::Pairing> = round
                    .iter()
                    .map(|p| berger::Pairing {
                        first: field[p.first - 1],
                        second: p.second.map(|s| field[s - 1]),
                    })
                    .collect();
                pairs.sort_by_key(|p| p.second.is_none());
                pairs
            }
        };
        if pairs.is_empty() {
            return refuse(ErrorCode::NoPairing, "fewer than two players to pair");
        }
        Ok(Entry::Pair {
            round: number,
            pairings: pairs
                .iter()
                .map(|p| {
                    (
                        self.players[p.first].id,
                        p.second.map(|s| self.players[s].id),
                    )
                })
                .collect(),
            manual: false,
            breaches: Vec::new(),
            by: None,
        })
    }

    /// The active players in the initial order (a round-robin's field: Berger's player 1
    /// is the top seed).
    pub(super) fn active_in_order(&self) -> Vec<usize> {
        self.initial_order()
            .into_iter()
            .filter(|&p| !self.players[p].withdrawn)
            .collect()
    }

    pub(super) fn may_pair_next(&self) -> Result<(), Refusal> {
        if let Some(last) = self.rounds.last() {
            match last.status() {
                RoundStatus::Paired => {
                    return refuse(
                        ErrorCode::RoundNotReady,
                        format!(
                            "round {} is paired and not started yet; start it or edit its pairing",
                            last.number
                        ),
                    )
                }
                RoundStatus::Playing => {
                    return refuse(
                        ErrorCode::RoundNotReady,
                        format!("round {} is still being played", last.number),
                    )
                }
                RoundStatus::Finished => {}
            }
        }
        if !self.rounds.is_empty() && self.rounds.len() as u32 >= self.rounds_planned() {
            return refuse(
                ErrorCode::RoundNotReady,
                "every round of the tournament has been played",
            );
        }
        if self.active().count() < 2 {
            return refuse(ErrorCode::NoPairing, "fewer than two players to pair");
        }
        Ok(())
    }

    /// The started rounds as the pairing reads them.
    pub(super) fn past_rounds(&self, points: &[Vec<Milli>]) -> Vec<pairing::PastRound> {
        self.rounds
            .iter()
            .filter(|r| r.started_at_ms.is_some())
            .enumerate()
            .map(|(i, r)| pairing::PastRound {
                pairs: r
                    .tables
                    .iter()
                    .filter(|t| !t.no_game || t.second.is_none())
                    .map(|t| berger::Pairing {
                        // The colours that count are who moved first in the last game.
                        first: match (&t.game, t.second) {
                            (Some(g), Some(second)) if g.moved_first == 1 => second,
                            _ => t.first,
                        },
                        second: match (&t.game, t.second) {
                            (Some(g), Some(_)) if g.moved_first == 1 => Some(t.first),
                            _ => t.second,
                        },
                    })
                    .collect(),
                points_before: points[i].clone(),
            })
            .collect()
    }

    /// The director's pairing for round `number` (the next round, or the paired one not
    /// started yet), checked against the absolute rules: an unknown or repeated player is
    /// refused; a breach is refused unless `confirm_breach`, and then recorded.
    pub fn manual_pairing(
        &self,
        number: u32,
        pairings: &[LoggedPairing],
        confirm_breach: bool,
    ) -> Result<Entry, Refusal> {
        let next = self.rounds.len() as u32 + 1;
        let replaces = self
            .rounds
            .last()
            .is_some_and(|r| r.number == number && r.status() == RoundStatus::Paired);
        if number == next {
            self.may_pair_next()?;
        } else if !replaces {
            return refuse(
                ErrorCode::RoundNotReady,
                format!("round {number} cannot be paired now: only the next round, or a paired round not started, can be"),
            );
        }
        if pairings.is_empty() {
            return refuse(ErrorCode::BadPairing, "the pairing is empty");
        }
        let mut seen = vec![false; self.players.len()];
        let mut pairs = Vec::with_capacity(pairings.len());
        for &(first, second) in pairings {
            let mut index = |id: Uuid| -> Result<usize, Refusal> {
                let Some(i) = self.player_index(id) else {
                    return refuse(
                        ErrorCode::BadPairing,
                        format!("{id} is not a player of this tournament"),
                    );
                };
                if std::mem::replace(&mut seen[i], true) {
                    return refuse(
                        ErrorCode::BadPairing,
                        format!("{} is paired twice", self.players[i].name),
                    );
                }
                Ok(i)
            };
            let first = index(first)?;
            let second = second.map(&mut index).transpose()?;
            pairs.push(berger::Pairing { first, second });
        }
        let facts = self.pairing_facts();
        let pairs: Vec<berger::Pairing> = pairs.into_iter().map(|p| facts.to_numbers(p)).collect();
        let (errors, breaches): (Vec<pairing::Breach>, Vec<pairing::Breach>) =
            pairing::check(&facts.input(), &pairs, self.settings.meetings_allowed())
                .into_iter()
                .partition(|b| b.rule == 0);
        if !errors.is_empty() {
            // Not an absolute rule a director may choose to break: a pairing that cannot
            // be played (an active player left out: withdraw them instead).
            let messages: Vec<String> = errors.into_iter().map(|b| b.message).collect();
            return Err(Refusal::listing(ErrorCode::BadPairing, messages.join("; ")));
        }
        let breaches: Vec<String> = breaches.into_iter().map(|b| b.message).collect();
        if !breaches.is_empty() && !confirm_breach {
            return Err(Refusal::listing(
                ErrorCode::PairingBreach,
                format!(
                    "{}; send it again with confirm_breach to pair it anyway",
                    breaches.join("; ")
                ),
            ));
        }
        Ok(Entry::Pair {
            round: number,
            pairings: pairings.to_vec(),
            manual: true,
            breaches,
            by: None,
        })
    }

    /// The games round `number`'s start creates, in table order (tables without a game
    /// are byes, or forfeits because a player withdrew).
    pub fn start_plan(&self, number: u32) -> Result<Vec<Option<PlannedGame>>, Refusal> {
        let round = self.round(number)?;
        if round.status() != RoundStatus::Paired {
            return refuse(
                ErrorCode::RoundNotReady,
                format!("round {number} has already started"),
            );
        }
        Ok(round
            .tables
            .iter()
            .map(|t| {
                let second = t.second?;
                if self.players[t.first].withdrawn || self.players[second].withdrawn {
                    return None;
                }
                Some(PlannedGame {
                    table: t.number,
                    first: self.seat(t.first),
                    second: self.seat(second),
                    played_at: t.played_at,
                    relayed: t.relay.is_some(),
                })
            })
            .collect())
    }

    pub(super) fn round(&self, number: u32) -> Result<&Round, Refusal> {
        self.rounds
            .iter()
            .find(|r| r.number == number)
            .ok_or_else(|| {
                Refusal::new(ErrorCode::NotFound, format!("round {number} is not paired"))
            })
    }
}
