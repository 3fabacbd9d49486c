//! The store's reads of persons, their devices and codes, and a person's games and
//! tournaments (docs/accounts.md). Their writes are [`SessionChange`](crate::store::SessionChange)s.

use uuid::Uuid;

use crate::store::db::with_pool;
use crate::store::rows::{DeviceRow, EmailCodeRow, LinkCodeRow, PersonRow, RelayCodeRow, RowExt};
use crate::store::{sql, Store};
use crate::store::{GameRow, SessionChange, StoreError, TournamentRow, Write};

/// One of a person's games, with the names its seats' persons have now (`None`: no
/// person, such as the computer).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PersonGame {
    pub game: GameRow,
    pub south_name: Option<String>,
    pub north_name: Option<String>,
}

/// One of a person's tournaments, with the person's role in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PersonTournament {
    pub tournament: TournamentRow,
    pub role: String,
}

impl Store {
    /// The person `id`.
    pub async fn person(&self, id: Uuid) -> Result<Option<PersonRow>, StoreError> {
        with_pool!(&self.reads, pool => {
            let row = sqlx::query(&sql::PERSON_BY_ID)
                .bind(id.to_string())
                .fetch_optional(pool)
                .await?;
            row.as_ref().map(PersonRow::from_row).transpose()
        })
    }

    /// The account whose username folds to `key` (`people::username_key`).
    pub async fn person_by_username_key(&self, key: &str) -> Result<Option<PersonRow>, StoreError> {
        with_pool!(&self.reads, pool => {
            let row = sqlx::query(&sql::PERSON_BY_USERNAME_KEY)
                .bind(key)
                .fetch_optional(pool)
                .await?;
            row.as_ref().map(PersonRow::from_row).transpose()
        })
    }

    /// The devices of `person`, the most recently used first.
    pub async fn devices_of(&self, person: Uuid) -> Result<Vec<DeviceRow>, StoreError> {
        with_pool!(&self.reads, pool => {
            let rows = sqlx::query(sql::DEVICES_OF)
                .bind(person.to_string())
                .fetch_all(pool)
                .await?;
            rows.iter().map(DeviceRow::from_row).collect()
        })
    }

    /// The link code hashing to `code_hash`, unless it expired at `now_ms`.
    pub async fn link_code(
        &self,
        code_hash: &str,
        now_ms: i64,
    ) -> Result<Option<LinkCodeRow>, StoreError> {
        with_pool!(&self.reads, pool => {
            let row = sqlx::query(sql::LINK_CODE)
                .bind(code_hash)
                .bind(now_ms)
                .fetch_optional(pool)
                .await?;
            row.as_ref().map(LinkCodeRow::from_row).transpose()
        })
    }

    /// The relay invite's code hashing to `code_hash`, unless it expired at `now_ms`.
    pub async fn relay_code(
        &self,
        code_hash: &str,
        now_ms: i64,
    ) -> Result<Option<RelayCodeRow>, StoreError> {
        with_pool!(&self.reads, pool => {
            let row = sqlx::query(sql::RELAY_CODE)
                .bind(code_hash)
                .bind(now_ms)
                .fetch_optional(pool)
                .await?;
            row.as_ref().map(RelayCodeRow::from_row).transpose()
        })
    }

    /// The person whose device's mark hashes to `key_hash`, if any.
    pub async fn known_device(&self, key_hash: &str) -> Result<Option<Uuid>, StoreError> {
        with_pool!(&self.reads, pool => {
            let row = sqlx::query(sql::KNOWN_DEVICE)
                .bind(key_hash)
                .fetch_optional(pool)
                .await?;
            row.as_ref()
                .map(|row| row.uuid("known_devices", "person_id"))
                .transpose()
        })
    }

    /// The e-mail code hashing to `code_hash`, unless it expired at `now_ms`.
    pub async fn email_code(
        &self,
        code_hash: &str,
        now_ms: i64,
    ) -> Result<Option<EmailCodeRow>, StoreError> {
        with_pool!(&self.reads, pool => {
            let row = sqlx::query(sql::EMAIL_CODE)
                .bind(code_hash)
                .bind(now_ms)
                .fetch_optional(pool)
                .await?;
            row.as_ref().map(EmailCodeRow::from_row).transpose()
        })
    }

    /// Of `devices`, those still signed in, of persons not disabled.
    pub async fn live_devices(
        &self,
        devices: &[Uuid],
    ) -> Result<std::collections::HashSet<Uuid>, StoreError> {
        let mut live = std::collections::HashSet::new();
        // A few hundred a statement: well under every database's limit on parameters.
        for chunk in devices.chunks(500) {
            let text = sql::live_devices(chunk.len());
            let ids: Vec<Uuid> = with_pool!(&self.reads, pool => {
                let mut query = sqlx::query(&text);
                for id in chunk {
                    query = query.bind(id.to_string());
                }
                let rows = query.fetch_all(pool).await?;
                rows.iter()
                    .map(|row| row.uuid("devices", "id"))
                    .collect::<Result<Vec<_>, _>>()?
            });
            live.extend(ids);
        }
        Ok(live)
    }

    /// Of `persons`, each that is stored, and whether it is an account (has a username).
    pub async fn accounts_among(
        &self,
        persons: &[Uuid],
    ) -> Result<std::collections::HashMap<Uuid, bool>, StoreError> {
        let mut found = std::collections::HashMap::new();
        // A few hundred a statement, as `live_devices`.
        for chunk in persons.chunks(500) {
            let text = sql::persons_among(chunk.len());
            let rows: Vec<(Uuid, bool)> = with_pool!(&self.reads, pool => {
                let mut query = sqlx::query(&text);
                for id in chunk {
                    query = query.bind(id.to_string());
                }
                let rows = query.fetch_all(pool).await?;
                rows.iter()
                    .map(|row| Ok((
                        row.uuid("persons", "id")?,
                        row.opt_text("persons", "username")?.is_some(),
                    )))
                    .collect::<Result<Vec<_>, StoreError>>()?
            });
            found.extend(rows);
        }
        Ok(found)
    }

    /// Whether `person` holds the recovery code hashing to `code_hash` (still unused).
    pub async fn has_recovery_code(
        &self,
        person: Uuid,
        code_hash: &str,
    ) -> Result<bool, StoreError> {
        with_pool!(&self.reads, pool => {
            let row = sqlx::query(sql::RECOVERY_CODE_COUNT)
                .bind(person.to_string())
                .bind(code_hash)
                .fetch_one(pool)
                .await?;
            Ok(row.int("recovery_codes", "n")? > 0)
        })
    }

    /// `person`'s games, newest first, at most `limit`.
    pub async fn games_of(&self, person: Uuid, limit: i64) -> Result<Vec<PersonGame>, StoreError> {
        with_pool!(&self.reads, pool => {
            let rows = sqlx::query(&sql::GAMES_OF)
                .bind(person.to_string())
                .bind(limit)
                .fetch_all(pool)
                .await?;
            rows.iter()
                .map(|row| {
                    Ok(PersonGame {
                        game: GameRow::from_row(row)?,
                        south_name: row.opt_text("persons", "south_name")?,
                        north_name: row.opt_text("persons", "north_name")?,
                    })
                })
                .collect()
        })
    }

    /// `person`'s tournaments, newest first, at most `limit`.
    pub async fn tournaments_of(
        &self,
        person: Uuid,
        limit: i64,
    ) -> Result<Vec<PersonTournament>, StoreError> {
        with_pool!(&self.reads, pool => {
            let rows = sqlx::query(sql::TOURNAMENTS_OF)
                .bind(person.to_string())
                .bind(limit)
                .fetch_all(pool)
                .await?;
            rows.iter()
                .map(|row| {
                    Ok(PersonTournament {
                        tournament: TournamentRow::from_row(row)?,
                        role: row.text("tournament_people", "role")?,
                    })
                })
                .collect()
        })
    }

    /// Fills `tournament_people` from the tournaments' logs when it is empty and there are
    /// tournaments (a database from before persons): their directors and players. Run at
    /// start; does nothing once filled.
    pub async fn fill_tournament_people(&self) -> Result<usize, StoreError> {
        let (count, entries) = with_pool!(&self.reads, pool => {
            let count: i64 = sqlx::query(sql::TOURNAMENT_PEOPLE_COUNT)
                .fetch_one(pool)
                .await
                .map(|row| row.int("tournament_people", "n"))??;
            if count > 0 {
                (count, Vec::new())
            } else {
                let rows = sqlx::query(sql::TOURNAMENT_PEOPLE_FROM_LOGS)
                    .fetch_all(pool)
                    .await?;
                let entries = rows
                    .iter()
                    .map(crate::store::TournamentEntryRow::from_row)
                    .collect::<Result<Vec<_>, _>>()?;
                (count, entries)
            }
        });
        if count > 0 {
            return Ok(0);
        }
        let writes: Vec<Write> = entries
            .iter()
            .filter_map(|entry| {
                let payload: serde_json::Value = serde_json::from_str(&entry.payload_json).ok()?;
                let (key, role) = match entry.kind.as_str() {
                    "create" => ("director", "director"),
                    _ => ("player", "player"),
                };
                let person = payload.get(key)?.as_str()?.parse::<Uuid>().ok()?;
                Some(Write::Session(SessionChange::InTournament {
                    person_id: person,
                    tournament_id: entry.tournament_id,
                    role: role.to_owned(),
                    at_ms: entry.at_ms,
                }))
            })
            .collect();
        // One transaction: a fill cut short leaves the table empty, to be filled again.
        self.write(&writes).await?;
        Ok(writes.len())
    }
}
