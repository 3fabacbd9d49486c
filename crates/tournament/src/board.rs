//! A table played over the board (docs/rules.md#57-over-the-board-play-and-relays): the
//! result its players enter and initial from their phones, and, when a relay follows the
//! wooden board, the result its game proposes. Nothing here confirms anything by itself:
//! there is no game record to fall back on, so a sheet is made only when both players
//! agree on one entry, or when a director enters it.
//!
//! Entries speak of the pairing's players, like sheets: index 0 the pairing's first (who
//! moves first at a board table), 1 its second.

use omweso_rules::{Ruleset, Victory};
use uuid::Uuid;

use super::sheet::{Dispute, GameFigures, Verdict};
use omweso_protocol::over_the_board::{BoardEntryView, BoardResult, BoardTableView, ConfirmedFor};
use omweso_protocol::refusal::Refusal;
use omweso_protocol::tournament::PerPlayer;
use omweso_protocol::ErrorCode;

/// One entry of the result, waiting for the other player's initials.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardEntry {
    /// The player who entered it, or the table's relay (`from_relay`).
    pub by: Uuid,
    pub by_name: String,
    pub from_relay: bool,
    pub verdict: Verdict,
    /// Seeds captured by the pairing's first and second player.
    pub captured: [u64; 2],
    pub at_ms: u64,
    /// Which of the pairing's players initialled it.
    pub confirmed: [bool; 2],
    /// The director who initialled for each, a player added without a device (the
    /// initials are theirs, the hand the director's: both are kept).
    pub initialled_for: [Option<DirectorInitials>; 2],
    /// A relayed game's own figures (turns, duration); zero for a player's entry.
    pub figures: GameFigures,
}

/// A director's initials for a player without a device.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DirectorInitials {
    pub by: Uuid,
    /// Their name then.
    pub by_name: String,
}

impl BoardEntry {
    fn agrees_with(&self, verdict: Verdict, captured: [u64; 2]) -> bool {
        self.verdict.same_result(verdict) && self.captured == captured
    }
}

/// What a board table has besides its sheet.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BoardPlay {
    /// A game in the store follows the wooden board, entered by the relay.
    pub relayed: bool,
    /// That game ended: its result stands as an entry (or agreed with one).
    pub game_ended: bool,
    pub entries: Vec<BoardEntry>,
    pub dispute: Option<Dispute>,
    /// The relayed game was annulled (a never-ending turn): not for the players to
    /// initial, the director decides (a replay at the board, or the annulment).
    pub annulled: bool,
    /// How often a player replaced their own entry: bounded, so that the log is too.
    pub replaced: u8,
}

/// How often a player may replace their own entry before it waits for the director.
pub const MAX_REPLACED: u8 = 5;

/// What an entry or an initial did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entered {
    /// Waiting for the other player (or the director).
    Waiting,
    /// Both players agree on this entry: the sheet is made from it.
    Agreed(Box<BoardEntry>),
}

impl BoardPlay {
    /// Two entries differ, or one is disputed: only a director settles the sheet now.
    #[must_use]
    pub fn waiting_for_director(&self) -> bool {
        self.dispute.is_some() || self.entries.len() > 1 || self.annulled
    }

    fn settled_by_director_only(&self) -> Result<(), Refusal> {
        if self.waiting_for_director() {
            return Err(Refusal::new(
                ErrorCode::SheetSettled,
                "the entries differ or one is disputed: the director settles this sheet",
            ));
        }
        Ok(())
    }

    /// Player `me` enters the result. The first entry waits for the other's initials; the
    /// same result entered by the other is their initials; a different one leaves both
    /// for the director. A player may replace their own entry until it is initialled
    /// ([`MAX_REPLACED`] times), and not once a relayed game's end agreed with it (the
    /// game's result stands then).
    pub fn enter(&mut self, me: usize, entry: BoardEntry) -> Result<Entered, Refusal> {
        self.settled_by_director_only()?;
        match self.entries.first_mut() {
            None => {
                self.entries.push(entry);
                Ok(Entered::Waiting)
            }
            Some(standing) if !standing.from_relay && standing.confirmed == own(me) => {
                if standing.agrees_with(entry.verdict, entry.captured) {
                    return Err(Refusal::new(
                        ErrorCode::SheetSettled,
                        "you have entered this result already; the other player initials it",
                    ));
                }
                if self.game_ended {
                    return Err(Refusal::new(
                        ErrorCode::SheetSettled,
                        "the relayed game ended as you entered it: that result stands; if it is wrong, ask the director",
                    ));
                }
                if self.replaced >= MAX_REPLACED {
                    return Err(Refusal::new(
                        ErrorCode::SheetSettled,
                        format!("you have changed your entry {MAX_REPLACED} times: ask the director to enter the result"),
                    ));
                }
                self.replaced += 1;
                *standing = entry;
                Ok(Entered::Waiting)
            }
            Some(standing) if standing.agrees_with(entry.verdict, entry.captured) => {
                standing.confirmed[me] = true;
                Ok(agreed(standing))
            }
            Some(_) => {
                self.entries.push(entry);
                Ok(Entered::Waiting)
            }
        }
    }

    /// Player `me` initials the entry standing.
    pub fn confirm(&mut self, me: usize) -> Result<Entered, Refusal> {
        self.settled_by_director_only()?;
        let Some(standing) = self.entries.first_mut() else {
            return Err(Refusal::new(
                ErrorCode::NotStarted,
                "nobody has entered this table's result yet: enter it",
            ));
        };
        if standing.confirmed[me] {
            return Err(Refusal::new(
                ErrorCode::SheetSettled,
                "you have initialled this entry already; the other player initials it",
            ));
        }
        standing.confirmed[me] = true;
        Ok(agreed(standing))
    }

    /// A director initials the entry standing for player `player` (named `name`), who has
    /// no device: their initials, in the director's hand.
    pub fn confirm_for(
        &mut self,
        player: usize,
        name: &str,
        by: DirectorInitials,
    ) -> Result<Entered, Refusal> {
        if self.waiting_for_director() {
            return Err(Refusal::new(
                ErrorCode::SheetSettled,
                "the entries differ or one is disputed: there is nothing to initial; enter the result that stands",
            ));
        }
        let Some(standing) = self.entries.first_mut() else {
            return Err(Refusal::new(
                ErrorCode::NotStarted,
                format!("nobody has entered this table's result yet: there is nothing to initial for {name}; enter it"),
            ));
        };
        if standing.confirmed[player] {
            return Err(Refusal::new(
                ErrorCode::SheetSettled,
                format!("{name} has initialled this entry already"),
            ));
        }
        standing.confirmed[player] = true;
        standing.initialled_for[player] = Some(by);
        Ok(agreed(standing))
    }

    /// Player `me` disputes the entry standing.
    pub fn dispute(&mut self, me: usize, reason: String, at_ms: u64) -> Result<(), Refusal> {
        self.settled_by_director_only()?;
        if self.entries.is_empty() {
            return Err(Refusal::new(
                ErrorCode::NotStarted,
                "there is no entry to dispute: enter the result as you saw it",
            ));
        }
        self.dispute = Some(Dispute {
            by: me,
            reason,
            at_ms,
        });
        Ok(())
    }

    /// The relayed game ended with `entry`: it stands as the proposal, unless a player's
    /// entry says the same (then it is that entry), or another (then the director
    /// settles).
    pub fn game_proposes(&mut self, entry: BoardEntry) {
        self.game_ended = true;
        if matches!(entry.verdict, Verdict::Annulled { .. }) {
            // Not a result to initial: a replay at the board, or the annulment, is the
            // director's to decide (docs/rules.md#53-rounds).
            self.annulled = true;
            self.entries.push(entry);
            return;
        }
        let agrees = self
            .entries
            .iter()
            .any(|e| e.agrees_with(entry.verdict, entry.captured));
        if !agrees {
            self.entries.push(entry);
        }
    }

    /// As the snapshot shows it; `ids` the pairing's players.
    #[must_use]
    pub fn view(
        &self,
        ids: [Uuid; 2],
        relay: Option<(Uuid, &str)>,
        missing: bool,
    ) -> BoardTableView {
        BoardTableView {
            entries: self
                .entries
                .iter()
                .map(|e| BoardEntryView {
                    by: e.by,
                    by_name: e.by_name.clone(),
                    from_relay: e.from_relay,
                    winner: match e.verdict {
                        Verdict::Win { winner, .. } => Some(ids[winner]),
                        _ => None,
                    },
                    victory: match e.verdict {
                        Verdict::Win { victory, .. } => Some(victory),
                        _ => None,
                    },
                    seeds: PerPlayer {
                        first: e.captured[0],
                        second: e.captured[1],
                    },
                    at_ms: e.at_ms,
                    confirmed_by: (0..2).filter(|&i| e.confirmed[i]).map(|i| ids[i]).collect(),
                    confirmed_for: (0..2)
                        .filter_map(|i| {
                            e.initialled_for[i].as_ref().map(|d| ConfirmedFor {
                                player: ids[i],
                                by: d.by,
                                by_name: d.by_name.clone(),
                            })
                        })
                        .collect(),
                })
                .collect(),
            dispute: self.dispute.as_ref().map(|d| d.view(ids)),
            waiting_for_director: self.waiting_for_director(),
            relay: relay.map(|(id, _)| id),
            relay_name: relay.map(|(_, name)| name.to_owned()),
            relayed: self.relayed,
            missing,
        }
    }
}

fn own(me: usize) -> [bool; 2] {
    let mut confirmed = [false; 2];
    confirmed[me] = true;
    confirmed
}

fn agreed(entry: &BoardEntry) -> Entered {
    if entry.confirmed == [true; 2] {
        Entered::Agreed(Box::new(entry.clone()))
    } else {
        Entered::Waiting
    }
}

/// The seeds a game is played with: what a player can have captured at most.
#[must_use]
pub const fn seeds_in_play(ruleset: Ruleset) -> u64 {
    match ruleset {
        Ruleset::Oware => 48,
        Ruleset::Omweso | Ruleset::Mweiso => 64,
    }
}

/// The result entered at the board, checked, in the pairing's terms: the winner one of
/// the table's two players (`ids`), a victory a board game can end by in this ruleset
/// (a draw names none), seeds no more than the game has.
///
/// A director adjudicating a table the round's time left unfinished names the victory
/// `adjudicated`: a win, or with no winner a draw, decided on the seeds
/// (docs/rules.md#53-rounds).
pub fn board_verdict(
    result: &BoardResult,
    ids: [Uuid; 2],
    ruleset: Ruleset,
    akakyala: bool,
    directs: bool,
) -> Result<(Verdict, [u64; 2]), Refusal> {
    let bad = |message: String| Refusal::new(ErrorCode::BadRequest, message);
    let seeds = seeds_in_play(ruleset);
    let captured = [result.seeds.first, result.seeds.second];
    if captured[0].saturating_add(captured[1]) > seeds {
        return Err(bad(format!(
            "the seeds captured add up to {}, more than the {seeds} a game of {ruleset} has",
            captured[0].saturating_add(captured[1])
        )));
    }
    let verdict = match (result.winner, result.victory) {
        (None, None) => Verdict::Draw { adjudicated: false },
        (None, Some(Victory::Adjudicated)) if directs => Verdict::Draw { adjudicated: true },
        (None, Some(victory)) => {
            return Err(bad(format!(
                "a draw has no victory type (\"{}\" was given)",
                victory.name()
            )))
        }
        (Some(_), None) => return Err(bad("say how the game was won (the victory type)".into())),
        (Some(winner), Some(victory)) => {
            let Some(index) = ids.iter().position(|&id| id == winner) else {
                return Err(Refusal::new(
                    ErrorCode::NotInTournament,
                    "the winner must be one of this table's two players",
                ));
            };
            let adjudicated = directs && victory == Victory::Adjudicated;
            if let Some(why) =
                impossible_at_the_board(victory, ruleset, akakyala).filter(|_| !adjudicated)
            {
                return Err(bad(why));
            }
            Verdict::Win {
                winner: index,
                victory,
                forfeit: false,
            }
        }
    };
    Ok((verdict, captured))
}

/// Why `victory` cannot be how a game of `ruleset` ended at a board, if it cannot: the
/// server's own ends (abandonment, adjudication, an impasse agreed on the site) are not
/// entered by players; the rules' victories of another game are refused.
fn impossible_at_the_board(victory: Victory, ruleset: Ruleset, akakyala: bool) -> Option<String> {
    let allowed: &[Victory] = match ruleset {
        Ruleset::Omweso if akakyala => &[
            Victory::NoMove,
            Victory::EmitweEbiri,
            Victory::Akawumbi,
            Victory::Akakyala,
            Victory::Resigned,
        ],
        Ruleset::Omweso => &[
            Victory::NoMove,
            Victory::EmitweEbiri,
            Victory::Akawumbi,
            Victory::Resigned,
        ],
        Ruleset::Mweiso => &[Victory::NoMove, Victory::EmitweEbiri, Victory::Resigned],
        Ruleset::Oware => &[Victory::Captures, Victory::Resigned],
    };
    (!allowed.contains(&victory)).then(|| {
        let names: Vec<&str> = allowed.iter().map(|v| v.name()).collect();
        format!(
            "a game of {ruleset} at the board is won by {}, not \"{}\"",
            names.join(", "),
            victory.name()
        )
    })
}

#[cfg(test)]
mod tests;
