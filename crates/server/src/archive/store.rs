//! The store's reads of the archive (docs/protocol.md#the-archive-addition): a search's
//! page, one finished game's entry, a person's results by ruleset; and the search columns
//! of games that ended before migration 8, filled in at start.

use std::collections::HashMap;

use uuid::Uuid;

use super::sql::{self as archive_sql, ArchiveSearch, Branch};
use crate::store::db::{with_pool, Pool};
use crate::store::params::bind_params;
use crate::store::rows::RowExt;
use crate::store::Store;
use crate::store::{
    ArchiveColumns, GameRow, StoreError, Write, RESULT_ANNULLED, RESULT_DRAW, RESULT_NORTH,
    RESULT_SOUTH,
};

/// A page's key: `(finished_at_ms, id)`, the archive's order (read backwards).
pub type ArchiveKey = (i64, Uuid);

/// A page of a search: its games' entries, newest first, and where the next page starts
/// (`None`: nothing follows).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArchiveFound {
    pub entries: Vec<ArchiveEntry>,
    pub next: Option<ArchiveKey>,
}

/// A finished game as the archive lists it, with its seats' persons as they are now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArchiveEntry {
    pub id: Uuid,
    pub ruleset: String,
    pub south: Option<Uuid>,
    pub north: Option<Uuid>,
    /// `(name, username)` of the seat's person; `None`: no person (the computer).
    pub south_person: Option<(String, Option<String>)>,
    pub north_person: Option<(String, Option<String>)>,
    pub result: Option<String>,
    pub victory: Option<String>,
    pub rated: bool,
    pub tournament_id: Option<Uuid>,
    /// The tournament's name as it is now (`None` outside tournaments).
    pub tournament_name: Option<String>,
    pub move_count: Option<i64>,
    pub created_at_ms: i64,
    pub finished_at_ms: i64,
}

/// A person's finished games of one ruleset: won, lost, drawn (annulled not counted).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ResultCounts {
    pub won: u64,
    pub lost: u64,
    pub drawn: u64,
}

/// Games filled in a transaction at start.
const FILL_BATCH: i64 = 500;

impl Store {
    /// One page of the archive's games matching `search`, newest first (docs/performance.md#the-archive).
    pub async fn archive_search(&self, search: &ArchiveSearch) -> Result<ArchiveFound, StoreError> {
        self.archive_search_within(search, archive_sql::WINDOW)
            .await
    }

    /// [`archive_search`](Store::archive_search) reading at most `window` index entries a
    /// branch when it checks filters beyond its index (tests show the windows' joins with
    /// small ones).
    pub async fn archive_search_within(
        &self,
        search: &ArchiveSearch,
        window: i64,
    ) -> Result<ArchiveFound, StoreError> {
        let take = search.limit + 1;
        let mut found: Vec<ArchiveKey> = Vec::new();
        // Every branch's games are all here down to this key (inclusive); `None`: to the end.
        let mut complete_to: Option<ArchiveKey> = None;
        for branch in Branch::of(search) {
            let until = if archive_sql::has_residual(search, branch) {
                self.archive_key(archive_sql::window_end(search, branch, window))
                    .await?
            } else {
                None
            };
            let keys = self
                .archive_keys(archive_sql::keys(search, branch, until, take))
                .await?;
            let branch_complete_to = if keys.len() >= take {
                keys.last().copied()
            } else {
                until
            };
            complete_to = complete_to.max(branch_complete_to);
            found.extend(keys);
        }
        found.sort_unstable_by(|a, b| b.cmp(a));
        found.dedup();
        if let Some(bound) = complete_to {
            found.retain(|key| *key >= bound);
        }
        let next = if found.len() > search.limit {
            found.truncate(search.limit);
            found.last().copied()
        } else {
            complete_to
        };
        let ids: Vec<Uuid> = found.iter().map(|(_, id)| *id).collect();
        let mut entries = self.archive_entries(&ids).await?;
        let order: HashMap<Uuid, usize> = ids.iter().enumerate().map(|(i, id)| (*id, i)).collect();
        entries.sort_by_key(|entry| order.get(&entry.id).copied().unwrap_or(usize::MAX));
        Ok(ArchiveFound { entries, next })
    }

    /// The finished game `id`'s entry; `None` if there is no such game or it is not over.
    pub async fn archive_entry(&self, id: Uuid) -> Result<Option<ArchiveEntry>, StoreError> {
        Ok(self.archive_entries(&[id]).await?.pop())
    }

    /// The persons named `name` (as the sheets show it; letters compared without case)
    /// who finished a game, at most `limit` of them: an archive search by name.
    pub async fn persons_named(&self, name: &str, limit: i64) -> Result<Vec<Uuid>, StoreError> {
        self.ids_named(archive_sql::PERSONS_NAMED, "persons", name, limit)
            .await
    }

    /// The tournaments named `name` (letters compared without case), the newest first, at
    /// most `limit` of them: an archive search by a tournament's name.
    pub async fn tournaments_named(&self, name: &str, limit: i64) -> Result<Vec<Uuid>, StoreError> {
        self.ids_named(archive_sql::TOURNAMENTS_NAMED, "tournaments", name, limit)
            .await
    }

    async fn ids_named(
        &self,
        sql: &str,
        table: &str,
        name: &str,
        limit: i64,
    ) -> Result<Vec<Uuid>, StoreError> {
        let q = archive_sql::named(sql, name, limit);
        with_pool!(&self.reads, pool => {
            let rows = bind_params!(sqlx::query(&q.sql), q.params)
                .fetch_all(pool)
                .await?;
            rows.iter().map(|row| row.uuid(table, "id")).collect()
        })
    }

    /// `person`'s won, lost and drawn games by ruleset (as stored: `omweso`...), over all
    /// their finished games.
    pub async fn results_of(
        &self,
        person: Uuid,
    ) -> Result<Vec<(String, ResultCounts)>, StoreError> {
        let mut counts: Vec<(String, ResultCounts)> = Vec::new();
        for (column, won, lost) in [
            ("south", RESULT_SOUTH, RESULT_NORTH),
            ("north", RESULT_NORTH, RESULT_SOUTH),
        ] {
            let text = archive_sql::results_of(column);
            let rows: Vec<(String, Option<String>, i64)> = with_pool!(&self.reads, pool => {
                let rows = sqlx::query(&text)
                    .bind(person.to_string())
                    .fetch_all(pool)
                    .await?;
                rows.iter()
                    .map(|row| Ok((
                        row.text("games", "ruleset")?,
                        row.opt_text("games", "result")?,
                        row.int("games", "n")?,
                    )))
                    .collect::<Result<Vec<_>, StoreError>>()?
            });
            for (ruleset, result, n) in rows {
                let n = u64::try_from(n).unwrap_or(0);
                let index = match counts.iter().position(|(r, _)| *r == ruleset) {
                    Some(index) => index,
                    None => {
                        counts.push((ruleset, ResultCounts::default()));
                        counts.len() - 1
                    }
                };
                let tally = &mut counts[index].1;
                match result.as_deref() {
                    Some(r) if r == won => tally.won += n,
                    Some(r) if r == lost => tally.lost += n,
                    Some(RESULT_DRAW) => tally.drawn += n,
                    _ => {}
                }
            }
        }
        counts.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(counts)
    }

    /// Fills in the search columns of the games that ended before migration 8 (from their
    /// configuration, outcome and last snapshot, and the tournaments' logs), a batch a
    /// transaction. Run at start; finds nothing to do once done. Returns how many it filled.
    pub async fn fill_archive_columns(&self) -> Result<usize, StoreError> {
        let mut filled = 0;
        let mut tournament_of: Option<HashMap<Uuid, Uuid>> = None;
        loop {
            let ids: Vec<Uuid> = with_pool!(&self.reads, pool => {
                let rows = sqlx::query(archive_sql::UNFILLED)
                    .bind(FILL_BATCH)
                    .fetch_all(pool)
                    .await?;
                rows.iter().map(|row| row.uuid("games", "id")).collect::<Result<_, _>>()?
            });
            if ids.is_empty() {
                return Ok(filled);
            }
            if tournament_of.is_none() {
                tournament_of = Some(self.tournament_games().await?);
            }
            let tournaments = tournament_of.as_ref();
            let mut writes = Vec::with_capacity(ids.len());
            for id in ids {
                let Some(mut row) = self.game(id).await? else {
                    continue;
                };
                let in_tournament = tournaments.and_then(|t| t.get(&id).copied());
                row.archive = filled_columns(&row, in_tournament);
                writes.push(Write::UpdateGame(row));
            }
            filled += writes.len();
            self.write(&writes).await?;
        }
    }

    /// Game id -> its tournament, from every tournament's `game_end` entries.
    async fn tournament_games(&self) -> Result<HashMap<Uuid, Uuid>, StoreError> {
        let rows: Vec<(Uuid, String)> = with_pool!(&self.reads, pool => {
            let rows = sqlx::query(archive_sql::TOURNAMENT_GAME_ENDS)
                .fetch_all(pool)
                .await?;
            rows.iter()
                .map(|row| Ok((
                    row.uuid("tournament_log", "tournament_id")?,
                    row.text("tournament_log", "payload_json")?,
                )))
                .collect::<Result<Vec<_>, StoreError>>()?
        });
        Ok(rows
            .into_iter()
            .filter_map(|(tournament, payload)| {
                let payload: serde_json::Value = serde_json::from_str(&payload).ok()?;
                let game = payload.get("game_id")?.as_str()?.parse::<Uuid>().ok()?;
                Some((game, tournament))
            })
            .collect())
    }

    async fn archive_key(&self, q: archive_sql::Query) -> Result<Option<ArchiveKey>, StoreError> {
        Ok(self.archive_keys(q).await?.pop())
    }

    async fn archive_keys(&self, q: archive_sql::Query) -> Result<Vec<ArchiveKey>, StoreError> {
        with_pool!(&self.reads, pool => {
            let rows = bind_params!(sqlx::query(&q.sql), q.params)
                .fetch_all(pool)
                .await?;
            rows.iter()
                .map(|row| Ok((row.int("games", "finished_at_ms")?, row.uuid("games", "id")?)))
                .collect()
        })
    }

    async fn archive_entries(&self, ids: &[Uuid]) -> Result<Vec<ArchiveEntry>, StoreError> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let text = archive_sql::entries(ids.len());
        with_pool!(&self.reads, pool => {
            let mut query = sqlx::query(&text);
            for id in ids {
                query = query.bind(id.to_string());
            }
            let rows = query.fetch_all(pool).await?;
            rows.iter().map(ArchiveEntry::from_row).collect()
        })
    }
}

impl ArchiveEntry {
    fn from_row(row: &impl RowExt) -> Result<Self, StoreError> {
        const T: &str = "games";
        let person = |name: &str, username: &str| -> Result<_, StoreError> {
            Ok(row
                .opt_text("persons", name)?
                .map(|name| (name, row.opt_text("persons", username).ok().flatten())))
        };
        Ok(ArchiveEntry {
            id: row.uuid(T, "id")?,
            ruleset: row.text(T, "ruleset")?,
            south: row.opt_uuid(T, "south")?,
            north: row.opt_uuid(T, "north")?,
            south_person: person("south_name", "south_username")?,
            north_person: person("north_name", "north_username")?,
            result: row.opt_text(T, "result")?,
            victory: row.opt_text(T, "victory")?,
            rated: row.int(T, "rated")? != 0,
            tournament_id: row.opt_uuid(T, "tournament_id")?,
            tournament_name: row.opt_text("tournaments", "tournament_name")?,
            move_count: row.opt_int(T, "move_count")?,
            created_at_ms: row.int(T, "created_at_ms")?,
            finished_at_ms: row.int(T, "finished_at_ms")?,
        })
    }
}

/// The search columns of a game that ended before migration 8: rated and its tournament
/// from its configuration (else the tournament whose log ended it), the result from its
/// outcome, the end from its row's last update (its end: nothing changes a game's row
/// after it), the moves from its last snapshot when kept. A row that cannot be read gets
/// its end and no result, so that it is not looked at again (the archive leaves it out).
fn filled_columns(row: &GameRow, in_tournament: Option<Uuid>) -> ArchiveColumns {
    let config: Option<omweso_protocol::config::GameConfig> =
        serde_json::from_str(&row.config_json).ok();
    let outcome: Option<omweso_rules::Outcome> = row
        .outcome_json
        .as_deref()
        .and_then(|json| serde_json::from_str(json).ok());
    let move_count = row
        .final_json
        .as_deref()
        .and_then(|json| serde_json::from_str::<serde_json::Value>(json).ok())
        .and_then(|snapshot| Some(snapshot.get("history")?.as_array()?.len()))
        .and_then(|n| i64::try_from(n).ok());
    let mut columns = match (&config, outcome) {
        (Some(config), Some(outcome)) => crate::game::archive_columns::archive_columns(
            config,
            Some((outcome, row.updated_at_ms, move_count)),
        ),
        _ => {
            tracing::warn!(game = %row.id, "a finished game whose configuration or outcome cannot be read");
            ArchiveColumns {
                result: (row.status == "annulled").then(|| RESULT_ANNULLED.to_owned()),
                finished_at_ms: Some(row.updated_at_ms),
                move_count,
                ..ArchiveColumns::default()
            }
        }
    };
    if columns.tournament_id.is_none() {
        columns.tournament_id = in_tournament;
    }
    columns
}

impl Store {
    /// The plans the database makes for a search's statements, read as the search reads
    /// them (each branch's window end, then its keys within it): `(statement, plan lines)`.
    /// For the benchmark's report (docs/performance.md#the-archive).
    pub async fn archive_plans(
        &self,
        search: &ArchiveSearch,
        window: i64,
    ) -> Result<Vec<(String, Vec<String>)>, StoreError> {
        let mut plans = Vec::new();
        for branch in Branch::of(search) {
            let mut until = None;
            if archive_sql::has_residual(search, branch) {
                let end = archive_sql::window_end(search, branch, window);
                plans.push((end.sql.clone(), self.plan(end.clone()).await?));
                until = self.archive_key(end).await?;
            }
            let keys = archive_sql::keys(search, branch, until, search.limit + 1);
            plans.push((keys.sql.clone(), self.plan(keys).await?));
        }
        Ok(plans)
    }

    /// The plans of the lookups a search by a person's name (`persons`) or a tournament's
    /// (`tournaments`) makes before the search: `(statement, plan lines)`. For the
    /// benchmark's report.
    pub async fn name_plans(
        &self,
        persons: Option<&str>,
        tournaments: Option<&str>,
    ) -> Result<Vec<(String, Vec<String>)>, StoreError> {
        let mut plans = Vec::new();
        for (sql, name) in [
            (archive_sql::PERSONS_NAMED, persons),
            (archive_sql::TOURNAMENTS_NAMED, tournaments),
        ] {
            if let Some(name) = name {
                let q = archive_sql::named(sql, name, 21);
                plans.push((q.sql.clone(), self.plan(q).await?));
            }
        }
        Ok(plans)
    }

    async fn plan(&self, q: archive_sql::Query) -> Result<Vec<String>, StoreError> {
        match &self.reads {
            Pool::Sqlite(pool) => {
                let text = format!("EXPLAIN QUERY PLAN {}", q.sql);
                let rows = bind_params!(sqlx::query(&text), q.params)
                    .fetch_all(pool)
                    .await?;
                rows.iter().map(|row| row.text("plan", "detail")).collect()
            }
            Pool::Postgres(pool) => {
                let text = format!("EXPLAIN {}", q.sql);
                let rows = bind_params!(sqlx::query(&text), q.params)
                    .fetch_all(pool)
                    .await?;
                rows.iter()
                    .map(|row| row.text("plan", "QUERY PLAN"))
                    .collect()
            }
        }
    }
}
