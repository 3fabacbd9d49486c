//! Score sheets (docs/rules.md#51-score-sheets): filled in by the server when a game ends, confirmed or
//! disputed by its players, confirmed by themselves 60 s after the game unless disputed,
//! corrected by the director with a reason, every correction kept.
//!
//! A sheet speaks of the pairing's players: index 0 is the pairing's `first`, 1 its
//! `second`, whoever moved first in the game (`moved_first`; a replay swaps it).

use omweso_rules::{AnnulReason, Outcome, Side, Victory};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::settings::points;
use super::standings::{GameResult, Milli, PointsTable, RoundResult};
use omweso_protocol::tournament::{
    ArrangementsView, CorrectionView, DisputeView, PerPlayer, PlayerResult, ResultView,
    SheetStatus, SheetView,
};

/// How long after its game a sheet nobody disputed confirms itself.
pub const AUTO_CONFIRM_MS: u64 = 60_000;
/// The longest reason for a dispute or a correction, in characters.
pub const MAX_REASON_CHARS: usize = 500;

/// What a game's result is, in the pairing's terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "result", rename_all = "lowercase")]
pub enum Verdict {
    /// `winner`: 0 (the pairing's first) or 1.
    Win {
        winner: usize,
        victory: Victory,
        /// The opponent never came (or left before making a move): a forfeit.
        #[serde(default)]
        forfeit: bool,
    },
    Draw {
        #[serde(default)]
        adjudicated: bool,
    },
    Annulled {
        reason: AnnulReason,
    },
}

impl Verdict {
    /// A game's outcome, told in game seats (South moved first), as a verdict in the
    /// pairing's terms. `moves` is each seat's number of turns: a player who lost by
    /// abandonment without making one never came, which is a forfeit (docs/rules.md#52-points).
    #[must_use]
    pub fn of_game(outcome: Outcome, moved_first: usize, moves: [u32; 2]) -> Verdict {
        let player_of = |side: Side| match side {
            Side::South => moved_first,
            Side::North => 1 - moved_first,
        };
        match outcome {
            Outcome::Win { winner, victory } => Verdict::Win {
                winner: player_of(winner),
                victory,
                forfeit: victory == Victory::Abandoned && moves[winner.other().index()] == 0,
            },
            Outcome::Draw => Verdict::Draw { adjudicated: false },
            Outcome::Annulled { reason } => Verdict::Annulled { reason },
        }
    }

    /// A director's correction, given as the game's outcome in game seats.
    #[must_use]
    pub fn corrected(outcome: Outcome, moved_first: usize) -> Verdict {
        match Verdict::of_game(outcome, moved_first, [1, 1]) {
            // A corrected result is the director's, not a forfeit nor an adjudication.
            Verdict::Win {
                winner, victory, ..
            } => Verdict::Win {
                winner,
                victory,
                forfeit: false,
            },
            other => other,
        }
    }

    /// The same result, however it came about: the same winner by the same victory (a
    /// forfeit and the abandonment it records are the same), a draw, or the same
    /// annulment.
    #[must_use]
    pub fn same_result(self, other: Verdict) -> bool {
        match (self, other) {
            (
                Verdict::Win {
                    winner: a,
                    victory: v,
                    ..
                },
                Verdict::Win {
                    winner: b,
                    victory: w,
                    ..
                },
            ) => a == b && v == w,
            (Verdict::Draw { .. }, Verdict::Draw { .. }) => true,
            (Verdict::Annulled { reason: a }, Verdict::Annulled { reason: b }) => a == b,
            _ => false,
        }
    }

    /// Each player's result.
    #[must_use]
    pub fn results(self) -> [PlayerResult; 2] {
        match self {
            Verdict::Win {
                winner,
                forfeit,
                victory,
            } => {
                let (won, lost) = if forfeit {
                    (PlayerResult::ForfeitWon, PlayerResult::ForfeitLost)
                } else if victory == Victory::Adjudicated {
                    (PlayerResult::AdjudicatedWon, PlayerResult::AdjudicatedLost)
                } else {
                    (PlayerResult::Won, PlayerResult::Lost)
                };
                if winner == 0 {
                    [won, lost]
                } else {
                    [lost, won]
                }
            }
            Verdict::Draw { adjudicated: true } => [PlayerResult::AdjudicatedDrawn; 2],
            Verdict::Draw { adjudicated: false } => [PlayerResult::Drawn; 2],
            Verdict::Annulled { .. } => [PlayerResult::Annulled; 2],
        }
    }

    /// The victory's name, the annulment's reason, or `None` for a draw.
    #[must_use]
    pub fn victory(self) -> Option<String> {
        match self {
            Verdict::Win { forfeit: true, .. } => Some("forfeit".into()),
            Verdict::Win { victory, .. } => Some(victory.name().into()),
            Verdict::Draw { .. } => None,
            Verdict::Annulled { reason } => Some(reason.name().into()),
        }
    }

    /// Each player's points.
    #[must_use]
    pub fn points(self, table: &PointsTable, oware: bool) -> [Milli; 2] {
        match self {
            Verdict::Win {
                winner,
                forfeit: true,
                ..
            } => ordered(winner, table.forfeit_win, table.forfeit_loss),
            Verdict::Win {
                winner, victory, ..
            } => ordered(winner, table.for_win(victory, oware), table.loss),
            Verdict::Draw { .. } => [table.draw; 2],
            Verdict::Annulled { .. } => [table.annulled; 2],
        }
    }

    fn view(self) -> ResultView {
        let [first, second] = self.results();
        ResultView {
            first_result: first,
            second_result: Some(second),
            victory: self.victory(),
        }
    }
}

fn ordered(winner: usize, won: Milli, lost: Milli) -> [Milli; 2] {
    if winner == 0 {
        [won, lost]
    } else {
        [lost, won]
    }
}

/// A player's dispute.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dispute {
    pub by: usize,
    pub reason: String,
    pub at_ms: u64,
}

impl Dispute {
    /// As the views show it, `ids` the pairing's players.
    #[must_use]
    pub fn view(&self, ids: [Uuid; 2]) -> DisputeView {
        DisputeView {
            by: ids[self.by],
            reason: self.reason.clone(),
            at_ms: self.at_ms,
        }
    }
}

/// A director's correction.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Correction {
    pub at_ms: u64,
    pub by: Uuid,
    pub by_name: String,
    pub reason: String,
    pub before: Verdict,
    pub after: Verdict,
    /// A board sheet's seeds changed with it: before and after, in the pairing's order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seeds: Option<([u64; 2], [u64; 2])>,
}

/// What the game itself tells the sheet, in the pairing's terms.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameFigures {
    pub captured: [u64; 2],
    pub turns: u32,
    pub duration_ms: u64,
    /// A free setup's arrangements, each in its side's own pit order (absent from sheets
    /// filled before they were kept, and for a preset start).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arrangements: Option<[[u8; 16]; 2]>,
    /// Which of them the referee placed, the player's time being up (docs/rules.md#11-setup).
    #[serde(default, skip_serializing_if = "is_neither")]
    pub late_arranged: [bool; 2],
    /// A board table's adjudication in Omweso or Mweiso: the seeds on each side of the
    /// board it was decided on, in the pairing's order (not captures: the standings do not
    /// count them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub on_board: Option<[u64; 2]>,
}

fn is_neither(late: &[bool; 2]) -> bool {
    *late == [false; 2]
}

/// One game's score sheet.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sheet {
    /// As the server filled it in.
    pub filled: Verdict,
    pub figures: GameFigures,
    pub ended_at_ms: u64,
    pub confirmed: [bool; 2],
    /// Nobody disputed it within [`AUTO_CONFIRM_MS`].
    pub auto_confirmed: bool,
    pub dispute: Option<Dispute>,
    pub corrections: Vec<Correction>,
    /// Entered at the board (docs/rules.md#57-over-the-board-play-and-relays): it never
    /// confirms itself.
    #[serde(default)]
    pub over_the_board: bool,
    /// The director who entered it for the players: it stands confirmed.
    #[serde(default)]
    pub entered_by: Option<Uuid>,
    /// The game was decided before both players moved (docs/rules.md#6-ratings: not
    /// rated, whatever a correction makes its result).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unplayed: bool,
}

impl Sheet {
    #[must_use]
    pub fn new(filled: Verdict, figures: GameFigures, ended_at_ms: u64) -> Sheet {
        Sheet {
            filled,
            figures,
            ended_at_ms,
            confirmed: [false; 2],
            auto_confirmed: false,
            dispute: None,
            corrections: Vec::new(),
            over_the_board: false,
            entered_by: None,
            unplayed: false,
        }
    }

    /// A board table's sheet, made when both players initialled one entry, or a director
    /// entered it (`entered_by`).
    #[must_use]
    pub fn at_the_board(
        verdict: Verdict,
        figures: GameFigures,
        at_ms: u64,
        entered_by: Option<Uuid>,
    ) -> Sheet {
        Sheet {
            confirmed: [entered_by.is_none(); 2],
            over_the_board: true,
            entered_by,
            ..Sheet::new(verdict, figures, at_ms)
        }
    }

    /// The result as it stands: the last correction's, else as filled.
    #[must_use]
    pub fn verdict(&self) -> Verdict {
        self.corrections.last().map_or(self.filled, |c| c.after)
    }

    #[must_use]
    pub fn status(&self) -> SheetStatus {
        if !self.corrections.is_empty() {
            SheetStatus::Corrected
        } else if self.dispute.is_some() {
            SheetStatus::Disputed
        } else if self.auto_confirmed || self.confirmed == [true; 2] || self.entered_by.is_some() {
            SheetStatus::Confirmed
        } else {
            SheetStatus::Pending
        }
    }

    /// When it confirms itself, while it is pending.
    #[must_use]
    pub fn confirms_at(&self) -> Option<u64> {
        (self.status() == SheetStatus::Pending && !self.over_the_board)
            .then_some(self.ended_at_ms + AUTO_CONFIRM_MS)
    }

    /// The game's result for the standings, between `players` (the pairing's first and
    /// second, numbered as the standings number them).
    #[must_use]
    pub fn round_result(&self, players: [usize; 2]) -> RoundResult {
        let captured = self
            .figures
            .captured
            .map(|c| u32::try_from(c).unwrap_or(u32::MAX));
        let result = match self.verdict() {
            Verdict::Win {
                winner,
                forfeit: true,
                ..
            } => {
                return RoundResult::Forfeit {
                    winner: players[winner],
                    loser: players[1 - winner],
                }
            }
            Verdict::Win {
                winner, victory, ..
            } => GameResult::Win { winner, victory },
            Verdict::Draw { .. } => GameResult::Draw,
            Verdict::Annulled { .. } => GameResult::Annulled,
        };
        RoundResult::Game {
            players,
            result,
            captured,
        }
    }

    /// As the snapshot shows it; `ids` are the pairing's players, `moved_first` the index
    /// of the one who moved first.
    #[must_use]
    pub fn view(
        &self,
        game_id: Uuid,
        ids: [Uuid; 2],
        moved_first: usize,
        table: &PointsTable,
        oware: bool,
    ) -> SheetView {
        let verdict = self.verdict();
        let [first_result, second_result] = verdict.results();
        let [p1, p2] = verdict.points(table, oware);
        SheetView {
            status: self.status(),
            first_result,
            second_result: Some(second_result),
            victory: verdict.victory(),
            seeds: PerPlayer {
                first: self.figures.captured[0],
                second: self.figures.captured[1],
            },
            turns: self.figures.turns,
            duration_ms: self.figures.duration_ms,
            points: PerPlayer {
                first: points(p1),
                second: points(p2),
            },
            corrections: self
                .corrections
                .iter()
                .map(|c| CorrectionView {
                    at_ms: c.at_ms,
                    by: c.by,
                    by_name: c.by_name.clone(),
                    reason: c.reason.clone(),
                    before: c.before.view(),
                    after: c.after.view(),
                })
                .collect(),
            game_id: Some(game_id),
            moved_first: Some(ids[moved_first]),
            confirmed_by: (0..2)
                .filter(|&i| self.confirmed[i])
                .map(|i| ids[i])
                .collect(),
            dispute: self.dispute.as_ref().map(|d| d.view(ids)),
            confirms_at: self.confirms_at(),
            arrangements: self
                .figures
                .arrangements
                .map(|[first, second]| ArrangementsView {
                    first,
                    second,
                    late: PerPlayer {
                        first: self.figures.late_arranged[0],
                        second: self.figures.late_arranged[1],
                    },
                }),
            over_the_board: self.over_the_board,
            seeds_on_board: self
                .figures
                .on_board
                .map(|[first, second]| PerPlayer { first, second }),
        }
    }
}

/// The sheet of a pairing without a game: a bye, or a forfeit decided at the round's
/// start (`forfeit_winner`: the player whose opponent had withdrawn).
#[must_use]
pub fn sheet_without_game(forfeit_winner: Option<usize>, table: &PointsTable) -> SheetView {
    let (first_result, second_result, pts) = match forfeit_winner {
        None => (PlayerResult::Bye, None, [table.bye, 0]),
        Some(0) => (
            PlayerResult::ForfeitWon,
            Some(PlayerResult::ForfeitLost),
            [table.forfeit_win, table.forfeit_loss],
        ),
        Some(_) => (
            PlayerResult::ForfeitLost,
            Some(PlayerResult::ForfeitWon),
            [table.forfeit_loss, table.forfeit_win],
        ),
    };
    SheetView {
        status: SheetStatus::Confirmed,
        first_result,
        second_result,
        victory: forfeit_winner.map(|_| "forfeit".to_owned()),
        seeds: PerPlayer::default(),
        turns: 0,
        duration_ms: 0,
        points: PerPlayer {
            first: points(pts[0]),
            second: points(pts[1]),
        },
        corrections: Vec::new(),
        game_id: None,
        moved_first: None,
        confirmed_by: Vec::new(),
        dispute: None,
        confirms_at: None,
        arrangements: None,
        over_the_board: false,
        seeds_on_board: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TABLE: PointsTable = PointsTable {
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
    };

    #[test]
    fn a_game_is_told_in_the_pairings_terms() {
        // The pairing's second moved first (a replay): South is player 1.
        let verdict = Verdict::of_game(
            Outcome::Win {
                winner: Side::South,
                victory: Victory::EmitweEbiri,
            },
            1,
            [5, 4],
        );
        assert_eq!(
            verdict,
            Verdict::Win {
                winner: 1,
                victory: Victory::EmitweEbiri,
                forfeit: false
            }
        );
        assert_eq!(verdict.results(), [PlayerResult::Lost, PlayerResult::Won]);
        assert_eq!(verdict.points(&TABLE, false), [0, 2000]);
        // Oware wins are all worth the win value.
        assert_eq!(verdict.points(&TABLE, true), [0, 1000]);
    }

    #[test]
    fn an_oware_game_stopped_at_an_impasse_scores_as_played() {
        // Won on captures after the split: a win, worth the win value, its victory named.
        let verdict = Verdict::of_game(
            Outcome::Win {
                winner: Side::North,
                victory: Victory::Impasse,
            },
            0,
            [12, 12],
        );
        assert_eq!(verdict.results(), [PlayerResult::Lost, PlayerResult::Won]);
        assert_eq!(verdict.points(&TABLE, true), [0, 1000]);
        assert_eq!(verdict.victory().as_deref(), Some("impasse"));
        // 24-24 after the split: a draw like any other.
        let verdict = Verdict::of_game(Outcome::Draw, 0, [12, 12]);
        assert_eq!(verdict.results(), [PlayerResult::Drawn; 2]);
        assert_eq!(verdict.points(&TABLE, true), [500, 500]);
    }

    #[test]
    fn an_opponent_who_never_moved_and_was_abandoned_forfeits() {
        let outcome = Outcome::Win {
            winner: Side::South,
            victory: Victory::Abandoned,
        };
        let forfeit = Verdict::of_game(outcome, 0, [1, 0]);
        assert_eq!(
            forfeit.results(),
            [PlayerResult::ForfeitWon, PlayerResult::ForfeitLost]
        );
        assert_eq!(forfeit.victory().as_deref(), Some("forfeit"));
        // North had moved: an abandonment over the board, a plain win.
        let played = Verdict::of_game(outcome, 0, [3, 2]);
        assert_eq!(played.results(), [PlayerResult::Won, PlayerResult::Lost]);
        assert_eq!(played.victory().as_deref(), Some("abandoned"));
    }

    #[test]
    fn a_sheet_confirms_and_keeps_its_corrections() {
        let mut sheet = Sheet::new(
            Verdict::Draw { adjudicated: true },
            GameFigures {
                captured: [12, 9],
                turns: 31,
                duration_ms: 840_000,
                ..GameFigures::default()
            },
            1_000,
        );
        assert_eq!(sheet.status(), SheetStatus::Pending);
        assert_eq!(sheet.confirms_at(), Some(61_000));
        sheet.confirmed[0] = true;
        assert_eq!(sheet.status(), SheetStatus::Pending);
        sheet.confirmed[1] = true;
        assert_eq!(sheet.status(), SheetStatus::Confirmed);
        assert_eq!(sheet.confirms_at(), None);
        let after = Verdict::corrected(
            Outcome::Win {
                winner: Side::North,
                victory: Victory::NoMove,
            },
            0,
        );
        sheet.corrections.push(Correction {
            at_ms: 2_000,
            by: Uuid::nil(),
            by_name: "TD".into(),
            reason: "the clock was wrong".into(),
            before: sheet.verdict(),
            after,
            seeds: None,
        });
        assert_eq!(sheet.status(), SheetStatus::Corrected);
        assert_eq!(
            sheet.round_result([4, 7]),
            RoundResult::Game {
                players: [4, 7],
                result: GameResult::Win {
                    winner: 1,
                    victory: Victory::NoMove
                },
                captured: [12, 9]
            }
        );
        let ids = [Uuid::from_u128(1), Uuid::from_u128(2)];
        let view = sheet.view(Uuid::from_u128(9), ids, 0, &TABLE, false);
        assert_eq!(view.first_result, PlayerResult::Lost);
        assert_eq!(view.points.second, 1.0);
        assert_eq!(view.corrections.len(), 1);
        assert_eq!(
            view.corrections[0].before.first_result,
            PlayerResult::AdjudicatedDrawn
        );
    }
}
