//! The store's reads for the game-file exports (docs/game-file.md): a person's finished
//! games a page at a time, newest first, by keyset (never OFFSET), on the `games_south`
//! and `games_north` indexes.

use std::sync::LazyLock;

use uuid::Uuid;

use crate::store::db::with_pool;
use crate::store::{sql, Store};
use crate::store::{GameRow, StoreError};

/// Person `$1`'s finished or annulled games created before `($2, $3)` (time, then id),
/// newest first, at most `$4`.
static FINISHED_GAMES_OF: LazyLock<String> = LazyLock::new(|| {
    format!(
        "SELECT {} FROM games WHERE (south = $1 OR north = $1) \
         AND status IN ('finished', 'annulled') \
         AND (created_at_ms < $2 OR (created_at_ms = $2 AND id < $3)) \
         ORDER BY created_at_ms DESC, id DESC LIMIT $4",
        sql::GAME_COLUMNS
    )
});

/// Where a page of a person's games starts: before this game (its creation time and id).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Before {
    pub created_at_ms: i64,
    pub id: Uuid,
}

impl Before {
    /// Before every game.
    pub const START: Before = Before {
        created_at_ms: i64::MAX,
        id: Uuid::max(),
    };
}

impl Store {
    /// Up to `limit` of `person`'s finished (or annulled) games created before `before`,
    /// newest first.
    pub async fn finished_games_of(
        &self,
        person: Uuid,
        before: Before,
        limit: i64,
    ) -> Result<Vec<GameRow>, StoreError> {
        with_pool!(&self.reads, pool => {
            let rows = sqlx::query(&FINISHED_GAMES_OF)
                .bind(person.to_string())
                .bind(before.created_at_ms)
                .bind(before.id.to_string())
                .bind(limit)
                .fetch_all(pool)
                .await?;
            rows.iter().map(GameRow::from_row).collect()
        })
    }
}
