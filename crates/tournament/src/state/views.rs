//! The views: what the tournament's socket and pages show of it (the snapshot for a
//! viewer, a round, the standings, the lobby's summary) and the events that carry a change
//! of them.

use uuid::Uuid;

use crate::settings::points;
use crate::sheet::sheet_without_game;
use crate::standings::{standings, RoundResult};
use omweso_protocol::tournament::{
    PairingView, PlayerView, ReplacedGame, RoundView, SheetChanged, StandingView, StandingsChanged,
    TournamentEvent, TournamentSnapshot, TournamentSummary,
};

use super::*;

impl Tournament {
    pub(super) fn player_view(&self, index: usize) -> PlayerView {
        let p = &self.players[index];
        PlayerView {
            player_id: p.id,
            name: p.name.clone(),
            withdrawn: p.withdrawn,
            joined_after_round: p.joined_after_round,
            added_by_director: p.added_by_director,
            seed: p.seed,
            seed_rating: p.seed_rating,
        }
    }

    pub(super) fn sheet_event(&self, r: usize, t: usize, game: &TableGame) -> TournamentEvent {
        let round = &self.rounds[r];
        let table = &round.tables[t];
        TournamentEvent::Sheet(Box::new(SheetChanged {
            round: round.number,
            table: table.number,
            game_id: Some(game.game_id),
            sheet: self
                .game_sheet(table, game)
                .unwrap_or_else(|| sheet_without_game(None, &self.settings.points)),
        }))
    }

    pub(super) fn game_sheet(
        &self,
        table: &Table,
        game: &TableGame,
    ) -> Option<omweso_protocol::tournament::SheetView> {
        let players = table.players()?;
        let sheet = game.sheet.as_ref()?;
        let ids = players.map(|p| self.players[p].id);
        Some(sheet.view(
            game.game_id,
            ids,
            game.moved_first,
            &self.settings.points,
            self.settings.oware(),
        ))
    }

    #[must_use]
    pub fn round_view(&self, r: usize) -> RoundView {
        let round = &self.rounds[r];
        RoundView {
            number: round.number,
            status: round.status(),
            deadline: round.deadline_ms,
            pairings: round
                .tables
                .iter()
                .map(|t| {
                    let sheet = match &t.game {
                        Some(game) => self.game_sheet(t, game),
                        None if round.started_at_ms.is_none() => None,
                        None if t.second.is_none() && !t.no_game => {
                            Some(sheet_without_game(None, &self.settings.points))
                        }
                        None => t
                            .forfeit_winner
                            .map(|w| sheet_without_game(Some(w), &self.settings.points)),
                    };
                    PairingView {
                        table: t.number,
                        first: self.players[t.first].id,
                        second: t.second.map(|s| self.players[s].id),
                        game_id: t.game.as_ref().map(|g| g.game_id),
                        sheet,
                        replaced: t
                            .replaced
                            .iter()
                            .map(|g| ReplacedGame {
                                game_id: g.game_id,
                                sheet: self.game_sheet(t, g),
                            })
                            .collect(),
                        played_at: t.played_at,
                        board: self.board_view(round, t),
                    }
                })
                .collect(),
            manual: round.manual,
            breaches: round.breaches.clone(),
            started_at: round.started_at_ms,
            closing: round.closing,
            ended_by_director: round.ended_by_director,
        }
    }

    /// The standings as the sheets stand (docs/rules.md#55-standings-and-tiebreaks).
    #[must_use]
    pub fn standings(&self) -> Vec<StandingView> {
        let mut results = Vec::new();
        let mut started = 0;
        for round in self.rounds.iter().filter(|r| r.started_at_ms.is_some()) {
            started += 1;
            for t in &round.tables {
                let Some(players) = t.players() else {
                    if !t.no_game {
                        results.push(RoundResult::Bye { player: t.first });
                    }
                    continue;
                };
                if t.no_game {
                    if let Some(w) = t.forfeit_winner {
                        results.push(RoundResult::Forfeit {
                            winner: players[w],
                            loser: players[1 - w],
                        });
                    }
                    continue;
                }
                match t.game.as_ref().and_then(|g| g.sheet.as_ref()) {
                    Some(sheet) => results.push(sheet.round_result(players)),
                    // Being played: not a round without a game (Buchholz would count the
                    // player's own points for it until it ends).
                    None => results.push(RoundResult::Pending { players }),
                }
            }
        }
        standings(
            self.players.len(),
            started,
            &results,
            &self.settings.points,
            self.settings.oware(),
        )
        .into_iter()
        .map(|s| StandingView {
            rank: u32::try_from(s.rank).unwrap_or(u32::MAX),
            player_id: self.players[s.player].id,
            name: self.players[s.player].name.clone(),
            points: points(s.points),
            buchholz: points(s.buchholz),
            sonneborn_berger: points(s.sonneborn_berger),
            seeds: s.seeds,
            games: s.wins + s.draws + s.losses,
            wins: s.wins,
            draws: s.draws,
            losses: s.losses,
            direct: points(s.direct),
        })
        .collect()
    }

    pub(super) fn standings_event(&self) -> TournamentEvent {
        TournamentEvent::Standings(StandingsChanged {
            standings: self.standings(),
        })
    }

    /// The snapshot as `viewer` sees it.
    #[must_use]
    pub fn snapshot(&self, viewer: Option<Uuid>) -> TournamentSnapshot {
        let planned = self.rounds_planned();
        TournamentSnapshot {
            tournament_id: self.id,
            name: self.settings.name.clone(),
            ruleset: self.settings.game.ruleset,
            system: self.settings.system,
            settings: self.settings.view(planned),
            status: self.status(),
            director: self.director,
            you: viewer.filter(|v| self.by_id.contains_key(v)),
            players: (0..self.players.len())
                .map(|i| self.player_view(i))
                .collect(),
            rounds: (0..self.rounds.len()).map(|r| self.round_view(r)).collect(),
            standings: self.standings(),
            version: self.version,
            rounds_planned: planned,
            created_at_ms: self.created_at_ms,
            director_name: self.director_name.clone(),
            co_directors: self.co_director_views(),
        }
    }

    /// The lobby's line.
    #[must_use]
    pub fn summary(&self) -> TournamentSummary {
        TournamentSummary {
            tournament_id: self.id,
            name: self.settings.name.clone(),
            ruleset: self.settings.game.ruleset,
            system: self.settings.system,
            status: self.status(),
            players: u32::try_from(self.players.len()).unwrap_or(u32::MAX),
            round: self.rounds.len() as u32,
        }
    }
}
