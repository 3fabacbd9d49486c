//! The store's reads of ratings (a player's, a game's changes, the leaderboards, the
//! whole record and its check for `omweso admin rerate`): `impl Store` over the store's
//! pools, so that the ratings' queries sit with the ratings. The writes (a result rated or
//! corrected, inside the writer's transaction with the game's or the sheet's own write)
//! are the store's: `store/rated.rs`, with `store/rated_sqlx.rs` and
//! `store/sqlite_writes.rs`.

use std::collections::{BTreeMap, HashMap};

use omweso_rules::Ruleset;
use uuid::Uuid;

use crate::store::db::{with_pool, Pool};
use crate::store::rated::{rating_from, StoredResult};
use crate::store::rating_sql;
use crate::store::rows::RowExt;
use crate::store::Store;
use crate::store::{StoreError, Write};
use omweso_ratings::glicko::{MS_PER_DAY, PROVISIONAL_DEVIATION, RATING_PERIODS_PER_DAY, SCALE};
use omweso_ratings::{replay, Change, Glicko, Played, Rating};

/// One line of a leaderboard: the account and its rating.
#[derive(Clone, Debug, PartialEq)]
pub struct LeaderLine {
    pub person: Uuid,
    pub username: String,
    pub name: String,
    pub rating: Rating,
}

/// The ratings' tables as stored: every history line and every rating, by ruleset.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RatingTables {
    pub history: HashMap<Ruleset, Vec<Change>>,
    pub ratings: HashMap<Ruleset, BTreeMap<Uuid, Rating>>,
}

/// What `omweso admin rerate` found: how many results and ratings, and what differs
/// between the stored values and those recomputed from the record (empty: identical, to
/// the bit).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RerateReport {
    pub results: usize,
    pub ratings: usize,
    pub differences: Vec<String>,
}

impl Store {
    /// The ratings of `persons` in `ruleset`; a person with no rating yet is absent (a new
    /// player: 1500, provisional).
    pub async fn ratings_of(
        &self,
        persons: &[Uuid],
        ruleset: Ruleset,
    ) -> Result<HashMap<Uuid, Rating>, StoreError> {
        let mut found = HashMap::new();
        for chunk in persons.chunks(500) {
            let text = rating_sql::ratings_of(chunk.len());
            let rows = with_pool!(&self.reads, pool => {
                let mut query = sqlx::query(&text).bind(ruleset.name());
                for id in chunk {
                    query = query.bind(id.to_string());
                }
                let rows = query.fetch_all(pool).await?;
                rows.iter().map(rating_row).collect::<Result<Vec<_>, _>>()?
            });
            found.extend(rows.into_iter().map(|(person, _, rating)| (person, rating)));
        }
        Ok(found)
    }

    /// `person`'s ratings, in every ruleset they are rated in.
    pub async fn ratings_of_person(
        &self,
        person: Uuid,
    ) -> Result<Vec<(Ruleset, Rating)>, StoreError> {
        let mut found = Vec::new();
        for ruleset in Ruleset::ALL {
            if let Some(rating) = self.ratings_of(&[person], ruleset).await?.remove(&person) {
                found.push((ruleset, rating));
            }
        }
        Ok(found)
    }

    /// `person`'s rating history in `ruleset`: the newest `limit` lines, oldest first.
    pub async fn rating_history(
        &self,
        person: Uuid,
        ruleset: Ruleset,
        limit: i64,
    ) -> Result<Vec<Change>, StoreError> {
        let mut lines = with_pool!(&self.reads, pool => {
            let rows = sqlx::query(&rating_sql::HISTORY_OF)
                .bind(person.to_string())
                .bind(ruleset.name())
                .bind(limit)
                .fetch_all(pool)
                .await?;
            rows.iter()
                .map(|row| history_row(row).map(|(_, c)| c))
                .collect::<Result<Vec<_>, StoreError>>()?
        });
        lines.reverse();
        Ok(lines)
    }

    /// What the rated result `key` (a game's id) did to its players' ratings: none when it
    /// was not rated (or no longer counts).
    pub async fn rating_changes(&self, key: Uuid) -> Result<Vec<Change>, StoreError> {
        with_pool!(&self.reads, pool => {
            let rows = sqlx::query(&rating_sql::HISTORY_OF_RESULT)
                .bind(key.to_string())
                .fetch_all(pool)
                .await?;
            rows.iter().map(|row| history_row(row).map(|(_, c)| c)).collect()
        })
    }

    /// The best `limit` ratings of `ruleset` that are not provisional at `now_ms`, of
    /// accounts not disabled, best first.
    pub async fn leaderboard(
        &self,
        ruleset: Ruleset,
        now_ms: i64,
        limit: i64,
    ) -> Result<Vec<LeaderLine>, StoreError> {
        let per_ms = RATING_PERIODS_PER_DAY / MS_PER_DAY * SCALE * SCALE;
        let lines = with_pool!(&self.reads, pool => {
            let rows = sqlx::query(rating_sql::LEADERBOARD)
                .bind(ruleset.name())
                .bind(now_ms)
                .bind(per_ms)
                .bind(PROVISIONAL_DEVIATION * PROVISIONAL_DEVIATION)
                .bind(limit)
                .fetch_all(pool)
                .await?;
            rows.iter()
                .map(|row| {
                    let (person, _, rating) = rating_row(row)?;
                    Ok(LeaderLine {
                        person,
                        username: row.text("persons", "username")?,
                        name: row.text("persons", "name")?,
                        rating,
                    })
                })
                .collect::<Result<Vec<_>, StoreError>>()?
        });
        Ok(lines
            .into_iter()
            .filter(|line| !line.rating.at(now_ms).provisional())
            .collect())
    }

    /// The ratings' tables as stored.
    pub async fn rating_tables(&self) -> Result<RatingTables, StoreError> {
        Ok(self.rating_snapshot().await?.1)
    }

    /// The record and the ratings' tables as they stood at one moment: read in one read
    /// transaction (on SQLite its snapshot, taken by the first read; on PostgreSQL
    /// REPEATABLE READ), so that a game ending between the reads never shows as a
    /// difference between them.
    async fn rating_snapshot(&self) -> Result<(Vec<StoredResult>, RatingTables), StoreError> {
        macro_rules! read_all {
            ($tx:expr) => {{
                let results = sqlx::query(&rating_sql::ALL_RESULTS)
                    .fetch_all(&mut *$tx)
                    .await?;
                let results = results
                    .iter()
                    .map(crate::store::rated_sqlx::result_row)
                    .collect::<Result<Vec<_>, _>>()?;
                let history = sqlx::query(&rating_sql::ALL_HISTORY)
                    .fetch_all(&mut *$tx)
                    .await?;
                let history = history
                    .iter()
                    .map(history_row)
                    .collect::<Result<Vec<_>, _>>()?;
                let ratings = sqlx::query(&rating_sql::ALL_RATINGS)
                    .fetch_all(&mut *$tx)
                    .await?;
                let ratings = ratings
                    .iter()
                    .map(rating_row)
                    .collect::<Result<Vec<_>, _>>()?;
                (results, history, ratings)
            }};
        }
        let (results, history, ratings) = match &self.reads {
            Pool::Sqlite(pool) => {
                let mut tx = pool.begin().await?;
                let read = read_all!(tx);
                tx.rollback().await?;
                read
            }
            Pool::Postgres(pool) => {
                let mut tx = pool.begin().await?;
                sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                    .execute(&mut *tx)
                    .await?;
                let read = read_all!(tx);
                tx.rollback().await?;
                read
            }
        };
        let mut tables = RatingTables::default();
        for (ruleset, change) in history {
            tables.history.entry(ruleset).or_default().push(change);
        }
        for (person, ruleset, rating) in ratings {
            tables
                .ratings
                .entry(ruleset)
                .or_default()
                .insert(person, rating);
        }
        Ok((results, tables))
    }

    /// The rulesets whose ratings are being computed again a step at a time (a
    /// correction's re-rating, docs/ratings.md#corrections), each with the place of the
    /// record its next step starts from.
    pub async fn pending_rerates(&self) -> Result<Vec<(Ruleset, i64)>, StoreError> {
        let rows: Vec<(String, i64)> = with_pool!(&self.reads, pool => {
            let rows = sqlx::query(rating_sql::PENDING_RULESETS)
                .fetch_all(pool)
                .await?;
            rows.iter()
                .map(|row| Ok((
                    row.text("rerate_pending", "ruleset")?,
                    row.int("rerate_pending", "from_seq")?,
                )))
                .collect::<Result<Vec<_>, StoreError>>()?
        });
        rows.into_iter()
            .map(|(ruleset, from)| Ok((parse_ruleset(&ruleset, "rerate_pending")?, from)))
            .collect()
    }

    /// Recomputes every rating from the record, in memory, and compares with the stored
    /// values (`omweso admin rerate --check`); changes nothing.
    pub async fn rerate_check(&self) -> Result<RerateReport, StoreError> {
        let (results, stored) = self.rating_snapshot().await?;
        let mut record: HashMap<Ruleset, Vec<Played>> = HashMap::new();
        for result in &results {
            let ruleset = parse_ruleset(&result.ruleset, "rated_results")?;
            record
                .entry(ruleset)
                .or_default()
                .push(result.played.clone());
        }
        let mut recomputed = RatingTables::default();
        for (ruleset, played) in &record {
            let mut ratings = HashMap::new();
            let changes = replay(&mut ratings, played);
            if !changes.is_empty() {
                recomputed.history.insert(*ruleset, changes);
            }
            if !ratings.is_empty() {
                recomputed
                    .ratings
                    .insert(*ruleset, ratings.into_iter().collect());
            }
        }
        // A re-rating under way differs from the record until its last step: said first.
        let mut found: Vec<String> = self
            .pending_rerates()
            .await?
            .into_iter()
            .map(|(ruleset, from)| {
                format!(
                    "{ruleset}: a re-rating is under way, from result {from}: check again when it is done"
                )
            })
            .collect();
        found.extend(differences(&stored, &recomputed));
        Ok(RerateReport {
            results: results.len(),
            ratings: stored.ratings.values().map(BTreeMap::len).sum(),
            differences: found,
        })
    }

    /// Recomputes every rating from the record and stores them, in one transaction
    /// (`omweso admin rerate`); then checks, and answers what the check found.
    pub async fn rerate(&self) -> Result<RerateReport, StoreError> {
        let writes: Vec<Write> = Ruleset::ALL.into_iter().map(Write::Rerate).collect();
        self.write(&writes).await?;
        self.rerate_check().await
    }
}

/// Every difference between the stored tables and the recomputed ones, at most 20
/// described, then how many more.
fn differences(stored: &RatingTables, recomputed: &RatingTables) -> Vec<String> {
    let mut found = Vec::new();
    for ruleset in Ruleset::ALL {
        let empty = Vec::new();
        let (a, b) = (
            stored.history.get(&ruleset).unwrap_or(&empty),
            recomputed.history.get(&ruleset).unwrap_or(&empty),
        );
        if a.len() != b.len() {
            found.push(format!(
                "{ruleset}: {} history lines stored, {} recomputed",
                a.len(),
                b.len()
            ));
        }
        // The stored lines come by (seq, person); the recomputed by seq, south first.
        let mut b_sorted = b.clone();
        b_sorted.sort_by_key(|c| (c.seq, c.person));
        for (s, r) in a.iter().zip(&b_sorted) {
            if s != r {
                found.push(format!(
                    "{ruleset}: result {} ({}) for {}: stored {:?}, recomputed {:?}",
                    s.seq, s.key, s.person, s.after, r.after
                ));
            }
        }
        let none = BTreeMap::new();
        let (a, b) = (
            stored.ratings.get(&ruleset).unwrap_or(&none),
            recomputed.ratings.get(&ruleset).unwrap_or(&none),
        );
        for person in a
            .keys()
            .chain(b.keys())
            .collect::<std::collections::BTreeSet<_>>()
        {
            if a.get(person) != b.get(person) {
                found.push(format!(
                    "{ruleset}: rating of {person}: stored {:?}, recomputed {:?}",
                    a.get(person),
                    b.get(person)
                ));
            }
        }
    }
    if found.len() > 20 {
        let more = found.len() - 20;
        found.truncate(20);
        found.push(format!("and {more} more"));
    }
    found
}

fn parse_ruleset(name: &str, table: &str) -> Result<Ruleset, StoreError> {
    name.parse()
        .map_err(|e| StoreError::Corrupt(format!("{table}.ruleset: {e}")))
}

fn rating_row(row: &impl RowExt) -> Result<(Uuid, Ruleset, Rating), StoreError> {
    const T: &str = "ratings";
    let rating = rating_from(
        row.float(T, "rating")?,
        row.float(T, "deviation")?,
        row.float(T, "volatility")?,
        row.int(T, "games")?,
        row.int(T, "last_played_ms")?,
    )?;
    Ok((
        row.uuid(T, "person")?,
        parse_ruleset(&row.text(T, "ruleset")?, T)?,
        rating,
    ))
}

fn history_row(row: &impl RowExt) -> Result<(Ruleset, Change), StoreError> {
    const T: &str = "rating_history";
    Ok((
        parse_ruleset(&row.text(T, "ruleset")?, T)?,
        Change {
            seq: row.int(T, "seq")?,
            key: row.uuid(T, "result_key")?,
            person: row.uuid(T, "person")?,
            at_ms: row.int(T, "at_ms")?,
            before: Glicko {
                rating: row.float(T, "before_rating")?,
                deviation: row.float(T, "before_deviation")?,
                volatility: row.float(T, "before_volatility")?,
            },
            after: rating_from(
                row.float(T, "rating")?,
                row.float(T, "deviation")?,
                row.float(T, "volatility")?,
                row.int(T, "games")?,
                row.int(T, "last_played_ms")?,
            )?,
        },
    ))
}
