//! The sqlx side of [`RecordIo`] (PostgreSQL, and SQLite in memory): a rating write's steps
//! on a transaction's connection, beside the SQLite file's own (`sqlite_writes.rs`). Apart
//! from the ratings' reads of the store (`ratings/store.rs`), which the store's write path does
//! not need.

use sqlx::postgres::PgConnection;
use sqlx::sqlite::SqliteConnection;
use uuid::Uuid;

use crate::store::params::{bind_params, Param, Statement};
use crate::store::rated::{
    pending_of, rating_from, stored_result, Pending, RecordIo, StoredResult,
};
use crate::store::rating_sql;
use crate::store::rows::RowExt;
use crate::store::StoreError;
use omweso_ratings::Rating;

/// A person and their rating from a row of `rating_sql::states_before`.
fn state_row(row: &impl RowExt) -> Result<(Uuid, Rating), StoreError> {
    const T: &str = "rating_history";
    Ok((
        row.uuid(T, "person")?,
        rating_from(
            row.float(T, "rating")?,
            row.float(T, "deviation")?,
            row.float(T, "volatility")?,
            row.int(T, "games")?,
            row.int(T, "last_played_ms")?,
        )?,
    ))
}

pub(crate) fn result_row(row: &impl RowExt) -> Result<StoredResult, StoreError> {
    const T: &str = "rated_results";
    stored_result(
        &row.text(T, "result_key")?,
        row.int(T, "seq")?,
        row.text(T, "ruleset")?,
        &row.text(T, "south")?,
        &row.text(T, "north")?,
        (row.opt_text(T, "score")?, row.opt_text(T, "uncounted")?),
        row.int(T, "at_ms")?,
    )
}

/// The sqlx side of [`RecordIo`]: a transaction's connection, of either backend.
pub(crate) struct SqlxRecord<'a, C>(pub &'a mut C);

macro_rules! impl_record_io {
    ($($connection:ty: $anonymous:expr),*) => {$(
        impl RecordIo for SqlxRecord<'_, $connection> {
            const ANONYMOUS_PLACEHOLDERS: bool = $anonymous;

            async fn take_seq(&mut self) -> Result<i64, StoreError> {
                let row = sqlx::query(rating_sql::TAKE_SEQ).fetch_one(&mut *self.0).await?;
                row.int("rating_record", "results")
            }

            async fn find(&mut self, key: Uuid) -> Result<Option<StoredResult>, StoreError> {
                let row = sqlx::query(&rating_sql::FIND_RESULT)
                    .bind(key.to_string())
                    .fetch_optional(&mut *self.0)
                    .await?;
                row.as_ref().map(result_row).transpose()
            }

            async fn results_from(
                &mut self,
                ruleset: &str,
                seq: i64,
                limit: i64,
            ) -> Result<Vec<StoredResult>, StoreError> {
                let rows = sqlx::query(&rating_sql::RESULTS_FROM)
                    .bind(ruleset)
                    .bind(seq)
                    .bind(limit)
                    .fetch_all(&mut *self.0)
                    .await?;
                rows.iter().map(result_row).collect()
            }

            async fn pair_counted(
                &mut self,
                ruleset: &str,
                (a, b): (Uuid, Uuid),
                (since, until): (i64, i64),
            ) -> Result<i64, StoreError> {
                let row = sqlx::query(rating_sql::PAIR_COUNTED_SINCE)
                    .bind(ruleset)
                    .bind(a.to_string())
                    .bind(b.to_string())
                    .bind(b.to_string())
                    .bind(a.to_string())
                    .bind(since)
                    .bind(until)
                    .fetch_one(&mut *self.0)
                    .await?;
                row.int("rated_results", "n")
            }

            async fn pending(&mut self, ruleset: &str) -> Result<Option<Pending>, StoreError> {
                let row = sqlx::query(rating_sql::PENDING)
                    .bind(ruleset)
                    .fetch_optional(&mut *self.0)
                    .await?;
                row.map(|row| {
                    pending_of(
                        row.int("rerate_pending", "from_seq")?,
                        &row.text("rerate_pending", "also_json")?,
                    )
                })
                .transpose()
            }

            async fn ratings_before(
                &mut self,
                ruleset: &str,
                seq: i64,
                persons: &[Uuid],
            ) -> Result<Vec<(Uuid, Rating)>, StoreError> {
                if persons.is_empty() {
                    return Ok(Vec::new());
                }
                let text = rating_sql::states_before(persons.len(), $anonymous);
                let mut query = sqlx::query(&text).bind(ruleset).bind(seq);
                for person in persons {
                    query = query.bind(person.to_string());
                }
                let rows = query.fetch_all(&mut *self.0).await?;
                rows.iter().map(state_row).collect()
            }

            async fn rated_persons(&mut self, ruleset: &str) -> Result<Vec<Uuid>, StoreError> {
                let rows = sqlx::query(rating_sql::RATED_PERSONS)
                    .bind(ruleset)
                    .fetch_all(&mut *self.0)
                    .await?;
                rows.iter().map(|row| row.uuid("ratings", "person")).collect()
            }

            async fn run(&mut self, statement: Statement) -> Result<u64, StoreError> {
                Ok(bind_params!(sqlx::query(statement.sql), statement.params)
                    .execute(&mut *self.0)
                    .await?
                    .rows_affected())
            }

            async fn run_in_order(
                &mut self,
                sql: &str,
                params: Vec<Param<'static>>,
            ) -> Result<u64, StoreError> {
                // Not kept among the prepared statements: each size is its own text.
                Ok(bind_params!(sqlx::query(sql).persistent(false), params)
                    .execute(&mut *self.0)
                    .await?
                    .rows_affected())
            }
        }
    )*};
}

impl_record_io!(SqliteConnection: true, PgConnection: false);
