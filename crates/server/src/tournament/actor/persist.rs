//! A change applied, saved (with the games it creates), then published; rebuilt from the
//! log when it could not be saved.

use tokio::time::Instant;

use super::{Actor, RETRY_MS, STANDINGS_EVERY, STANDINGS_GATHER};
use crate::game::registry::SeatedGame;
use crate::store::{RatedResult, TournamentEntryRow, TournamentRow, Write};
use crate::tournament::log::Entry;
use crate::tournament::state::{Refusal, Tournament};
use omweso_protocol::clock::now_ms;
use omweso_protocol::tournament::TournamentEvent;
use omweso_protocol::ErrorCode;

impl Actor {
    /// Applies `entry` now and saves it; see [`Actor::commit_at`].
    pub(super) async fn commit(
        &mut self,
        entry: Entry,
        games: Vec<SeatedGame>,
    ) -> Result<Vec<(u64, TournamentEvent)>, Refusal> {
        self.commit_at(entry, now_ms(), games).await
    }

    /// Applies `entry` at `now`, saves it (with `games`, created and seated in the same
    /// transaction) and publishes its events; refused or unsaved, nothing changed.
    pub(super) async fn commit_at(
        &mut self,
        entry: Entry,
        now: u64,
        games: Vec<SeatedGame>,
    ) -> Result<Vec<(u64, TournamentEvent)>, Refusal> {
        // Not a copy of the whole state for every change (at a thousand players it is
        // megabytes): a save that fails, which is rare, rebuilds the state from the log.
        if self.stale_until.is_some() {
            return Err(unavailable());
        }
        let summary_before = self.t.summary();
        // A rated tournament's sheet made or changed by this entry is rated with it
        // (docs/ratings.md#rated-tournaments).
        let rating_before = self.t.rating_before(&entry);
        let events = self.t.apply(&entry, now)?;
        let rated = self.t.rating_change(rating_before);
        let rate = rated.map(|sheet| {
            Write::Rate(RatedResult {
                key: sheet.key,
                ruleset: self.t.settings().game.ruleset,
                south: sheet.south,
                north: sheet.north,
                score: sheet.score,
                at_ms: i64::try_from(sheet.at_ms).unwrap_or(i64::MAX),
            })
        });
        let saved = self.save(&entry, now, games, rate).await;
        if let Err(refusal) = saved {
            self.rebuild().await;
            return Err(refusal);
        }
        self.next_seq += 1;
        if let Some(sheet) = rated {
            self.tell_rated(sheet.key).await;
        }
        // Saved first: the lobby reads its lists from the store.
        if summary_before != self.t.summary() {
            self.services.lobby.tournaments_changed();
        }
        // A sheet made (a game's end, or a board table's initials) changes the standings:
        // sent gathered with others, at most every few seconds.
        let sheet_made = matches!(entry, Entry::GameEnd { .. })
            || (matches!(entry, Entry::BoardSheet { .. })
                && events
                    .iter()
                    .any(|(_, e)| matches!(e, TournamentEvent::Sheet(_))));
        if sheet_made && self.standings_due.is_none() {
            let due =
                (Instant::now() + STANDINGS_GATHER).max(self.standings_sent + STANDINGS_EVERY);
            self.standings_due = Some(due);
        }
        self.publish(&events);
        Ok(events)
    }

    /// The rated result keyed `key` (a game's id) was just written: the game, when it is in
    /// memory (a page may show it), reads its seats' ratings again and tells its sockets.
    /// A tournament's games are played on the node that holds the tournament, so a game
    /// not loaded here is in nobody's memory: its page reads the store.
    async fn tell_rated(&self, key: uuid::Uuid) {
        if let Some(game) = self.services.games.loaded(key) {
            // Gone: it unloaded meanwhile, and its page reads the store.
            let _ = game.ratings_changed().await;
        }
    }

    /// After a change was applied but could not be saved: the state as the log has it.
    /// If even the log cannot be read, the task ends (its sockets close, clients come
    /// back), and the tournament is rebuilt from its log when next asked for.
    pub(super) async fn rebuild(&mut self) {
        let id = self.t.id();
        let rebuilt = match self.services.store.tournament_log(id).await {
            Ok(rows) => {
                crate::tournament::state::replay(id, crate::tournament::stored::logged(rows))
                    .map_err(|e| e.to_string())
            }
            Err(error) => Err(error.to_string()),
        };
        match rebuilt {
            Ok(t) => {
                self.t = t;
                self.state_frame = None;
                self.stale_until = None;
            }
            Err(error) => {
                // The store is likely down: every change is refused (503) until the state
                // is rebuilt, tried again every few seconds; nothing unsaved was published.
                tracing::error!(tournament = %id, %error, "could not rebuild a tournament after a failed save; trying again");
                self.stale_until = Some(now_ms() + RETRY_MS);
            }
        }
    }

    pub(super) async fn save(
        &self,
        entry: &Entry,
        now: u64,
        games: Vec<SeatedGame>,
        rate: Option<Write>,
    ) -> Result<(), Refusal> {
        let id = self.t.id();
        let payload_json = serde_json::to_string(entry).map_err(|error| {
            tracing::error!(tournament = %id, %error, "could not encode an entry");
            unavailable()
        })?;
        let mut writes = vec![
            Write::AppendTournamentEntry(TournamentEntryRow {
                tournament_id: id,
                seq: self.next_seq,
                at_ms: i64::try_from(now).unwrap_or(i64::MAX),
                kind: entry.kind().to_owned(),
                payload_json,
            }),
            Write::UpdateTournament(row(&self.t)),
        ];
        // Who is in the tournament, for their page: written with the entry that makes it so.
        match entry {
            Entry::Join { player, .. } => {
                writes.push(super::in_tournament(*player, id, "player", now));
            }
            // A person without a device: made with the entry that adds them.
            Entry::AddPlayer { player, name, .. } => {
                writes.push(Write::Session(crate::store::SessionChange::NewPerson {
                    person_id: *player,
                    name: name.clone(),
                    at_ms: i64::try_from(now).unwrap_or(i64::MAX),
                }));
                writes.push(super::in_tournament(*player, id, "player", now));
            }
            Entry::CoDirectorAdded { player, .. } | Entry::CoDirectorAccepted { player, .. } => {
                writes.push(super::in_tournament(*player, id, "co-director", now));
            }
            // A relay invite's code found again when it is typed at `/link` (the log keeps
            // it by its table; this finds the table by the code), until it is claimed.
            Entry::RelayInvited {
                round,
                table,
                code_hash,
                expires_at_ms,
                ..
            } => {
                writes.push(Write::Session(crate::store::SessionChange::AddRelayCode(
                    crate::store::RelayCodeRow {
                        code_hash: code_hash.clone(),
                        tournament_id: id,
                        round: *round,
                        table: *table,
                        expires_at_ms: i64::try_from(*expires_at_ms).unwrap_or(i64::MAX),
                    },
                )));
            }
            Entry::Relay {
                code_hash: Some(code_hash),
                ..
            } => {
                writes.push(Write::Session(crate::store::SessionChange::TakeRelayCode {
                    code_hash: code_hash.clone(),
                }));
            }
            _ => {}
        }
        writes.extend(rate);
        let saved = if games.is_empty() {
            self.services
                .writer
                .write(writes)
                .await
                .map_err(|e| e.to_string())
        } else {
            // The round's games are written with the tournament's entries, through the
            // games' writer: the tournament's lease fences them too (several nodes).
            writes.extend(self.services.writer.lease().cloned().map(Write::Fence));
            self.services
                .games
                .create_seated(games, writes)
                .await
                .map(|_| ())
                .map_err(|e| e.to_string())
        };
        saved.map_err(|error| {
            tracing::error!(tournament = %id, %error, "could not save a tournament's change");
            unavailable()
        })
    }
}

/// The store's row for a tournament (what the lobby lists).
#[must_use]
pub fn row(t: &Tournament) -> TournamentRow {
    let summary = t.summary();
    TournamentRow {
        id: t.id(),
        name: summary.name,
        ruleset: summary.ruleset.to_string(),
        system: summary.system.name().to_owned(),
        director: t.director(),
        status: summary.status.name().to_owned(),
        players: i64::from(summary.players),
        round: i64::from(summary.round),
        created_at_ms: i64::try_from(t.created_at_ms()).unwrap_or(i64::MAX),
        updated_at_ms: i64::try_from(now_ms()).unwrap_or(i64::MAX),
    }
}

pub(super) fn unavailable() -> Refusal {
    Refusal::new(
        ErrorCode::Unavailable,
        "the server could not save this; nothing changed, try again",
    )
}
