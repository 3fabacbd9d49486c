//! The schema migrations, embedded in the binary.
//!
//! `sqlx::migrate!` needs sqlx's `macros` feature, which this crate leaves off, so the files
//! of `migrations/` (at the top of the repository) are embedded here with `include_str!` and
//! handed to sqlx's [`Migrator`] through a [`MigrationSource`]. sqlx then applies them as
//! usual, recording each in `_sqlx_migrations` with the same version, description and
//! checksum `sqlx migrate` (the CLI) would. A unit test below fails if this list and the
//! folder ever disagree.

use std::borrow::Cow;
use std::future::Future;
use std::pin::Pin;

use sqlx::error::BoxDynError;
use sqlx::migrate::{Migration, MigrationSource, MigrationType, Migrator};

/// `(version, description, sql)`, oldest first. The file name is `<version>_<description>.sql`
/// with the description's spaces written as underscores.
const EMBEDDED: &[(i64, &str, &str)] = &[
    (
        1,
        "initial schema",
        include_str!("../../../../migrations/0001_initial_schema.sql"),
    ),
    (
        2,
        "final snapshot",
        include_str!("../../../../migrations/0002_final_snapshot.sql"),
    ),
    (
        3,
        "tournaments",
        include_str!("../../../../migrations/0003_tournaments.sql"),
    ),
    (
        4,
        "session expiry",
        include_str!("../../../../migrations/0004_session_expiry.sql"),
    ),
    (
        5,
        "persons",
        include_str!("../../../../migrations/0005_persons.sql"),
    ),
    (
        6,
        "email",
        include_str!("../../../../migrations/0006_email.sql"),
    ),
    (
        7,
        "ratings",
        include_str!("../../../../migrations/0007_ratings.sql"),
    ),
    (
        8,
        "archive",
        include_str!("../../../../migrations/0008_archive.sql"),
    ),
    (
        9,
        "leases",
        include_str!("../../../../migrations/0009_leases.sql"),
    ),
    (
        10,
        "limited devices",
        include_str!("../../../../migrations/0010_limited_devices.sql"),
    ),
    (
        11,
        "relay codes",
        include_str!("../../../../migrations/0011_relay_codes.sql"),
    ),
    (
        12,
        "known devices",
        include_str!("../../../../migrations/0012_known_devices.sql"),
    ),
    (
        13,
        "rerate pending",
        include_str!("../../../../migrations/0013_rerate_pending.sql"),
    ),
    (
        14,
        "repeated pairs",
        include_str!("../../../../migrations/0014_repeated_pairs.sql"),
    ),
    (
        15,
        "archive names",
        include_str!("../../../../migrations/0015_archive_names.sql"),
    ),
];

/// The newest migration this server knows; a database with a newer one applied is refused.
pub(crate) fn newest_known() -> i64 {
    EMBEDDED.iter().map(|m| m.0).max().unwrap_or(0)
}

#[derive(Debug)]
struct Embedded;

impl MigrationSource<'static> for Embedded {
    fn resolve(
        self,
    ) -> Pin<Box<dyn Future<Output = Result<Vec<Migration>, BoxDynError>> + Send + 'static>> {
        Box::pin(async move {
            Ok(EMBEDDED
                .iter()
                .map(|&(version, description, sql)| {
                    Migration::new(
                        version,
                        Cow::Borrowed(description),
                        MigrationType::Simple,
                        Cow::Borrowed(sql),
                        false,
                    )
                })
                .collect())
        })
    }
}

/// The migrator over the embedded migrations.
pub(crate) async fn migrator() -> Result<Migrator, sqlx::migrate::MigrateError> {
    Migrator::new(Embedded).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    /// The embedded list is exactly the folder: same versions, descriptions and checksums.
    #[tokio::test]
    async fn embedded_migrations_match_the_folder() {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../migrations");
        let on_disk = Migrator::new(dir).await.expect("read migrations/");
        let embedded = migrator().await.expect("embedded migrations");
        let key = |m: &Migration| {
            (
                m.version,
                m.description.to_string(),
                m.checksum.to_vec(),
                m.no_tx,
            )
        };
        let on_disk: Vec<_> = on_disk.iter().map(key).collect();
        let embedded: Vec<_> = embedded.iter().map(key).collect();
        assert_eq!(
            embedded, on_disk,
            "store/migrations.rs EMBEDDED must list every file of migrations/"
        );
        assert_eq!(newest_known(), on_disk.last().map(|m| m.0).unwrap_or(0));
    }
}
