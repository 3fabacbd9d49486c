//! The archive the benchmark searches (docs/performance.md#the-archive): a generated,
//! reproducible set of finished games and their players' accounts, loaded in bulk (one
//! transaction of prepared inserts on SQLite, `COPY` on PostgreSQL), since a million games
//! played through the server would take days.
//!
//! The shape follows what a busy site would hold: players' activity is skewed (player `k`
//! of `n` is drawn with density falling as `1/sqrt(k)`, so the busiest holds about 1.4%
//! of all seats), 4% of games against the computer, Omweso 60%, Oware 30%, Mweiso 10%,
//! half rated (never against the computer), a tenth in tournaments of about 25 games, South
//! and North each winning 47%, 4% drawn and 2% annulled (never rated), and the games'
//! ends spread evenly over three years. A game's last snapshot (`final_json`) is left out:
//! no search reads it, and on both databases a long value is kept out of the row's page.

use std::io;

use omweso_protocol::config::{GameConfig, SetupKind, TimeControl};
use omweso_rules::{AnnulReason, Outcome, Ruleset, Side, Victory};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use uuid::Uuid;

use crate::game::archive_columns::archive_columns;
use crate::people::names::username_key;

/// The computer's seat: an id no person has (the table's own is
/// `crates/table/src/table/computer.rs` `PLAYER`; any id without a person reads the same here).
const COMPUTER: Uuid = Uuid::from_u128(0xc0de);

/// When the generated archive's first game ends: 2023-01-01 00:00 UTC.
const START_MS: i64 = 1_672_531_200_000;
/// Over how long the games' ends are spread: three years.
const SPAN_MS: i64 = 3 * 365 * 24 * 3600 * 1000;

/// The generated archive's size and seed.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    pub games: u64,
    pub seed: u64,
}

impl Shape {
    /// Players: one for every 50 games (20,000 for a million), at least 20.
    #[must_use]
    pub fn players(&self) -> u64 {
        (self.games / 50).max(20)
    }

    /// Tournaments: one for every 250 games (each holds a tenth of 250, about 25).
    #[must_use]
    pub fn tournaments(&self) -> u64 {
        (self.games / 250).max(1)
    }

    /// Player `k`'s id (`k` from 0, the busiest).
    #[must_use]
    pub fn player(&self, k: u64) -> Uuid {
        Uuid::from_u64_pair(0x0a7c_41fe_0000_0000, k + 1)
    }

    /// Player `k`'s username: `p00000` for the busiest.
    #[must_use]
    pub fn username(k: u64) -> String {
        format!("p{k:05}")
    }

    /// Player `k`'s name, as the sheets show it: `Player 0` for the busiest.
    #[must_use]
    pub fn name(k: u64) -> String {
        format!("Player {k}")
    }

    /// Tournament `k`'s id.
    #[must_use]
    pub fn tournament(&self, k: u64) -> Uuid {
        Uuid::from_u64_pair(0x7041_0000_0000_0000, k + 1)
    }

    /// Tournament `k`'s name: `Tournament 0`...
    #[must_use]
    pub fn tournament_name(k: u64) -> String {
        format!("Tournament {k}")
    }
}

/// The columns a generated tournament fills (finished Swiss events of Omweso, directed by
/// the busiest player: only their names and ids are searched), in order.
const TOURNAMENT_COLUMNS: &str = "id, name, ruleset, system, director, status, players, round, \
     created_at_ms, updated_at_ms";

/// One generated game: the values of a `games` row, in [`GAME_COLUMNS`]' order.
pub struct GameValues {
    pub id: Uuid,
    pub ruleset: &'static str,
    pub config_json: String,
    pub south: Uuid,
    pub north: Uuid,
    pub status: &'static str,
    pub outcome_json: String,
    pub created_at_ms: i64,
    pub finished_at_ms: i64,
    pub rated: bool,
    pub tournament_id: Option<Uuid>,
    pub result: String,
    pub victory: Option<String>,
    pub move_count: i64,
}

/// The columns a generated game fills, in order.
pub const GAME_COLUMNS: &str = "id, ruleset, setup, config_json, south, north, creator, status, \
     outcome_json, created_at_ms, updated_at_ms, rated, tournament_id, result, victory, \
     finished_at_ms, move_count";

/// Every game of `shape`, oldest end first, the same for the same seed.
pub fn games(shape: Shape) -> impl Iterator<Item = GameValues> {
    let mut rng = SmallRng::seed_from_u64(shape.seed);
    let players = shape.players();
    let step = SPAN_MS / i64::try_from(shape.games.max(1)).unwrap_or(i64::MAX);
    (0..shape.games).map(move |i| {
        let pick = |rng: &mut SmallRng| {
            let u: f64 = rng.random();
            ((players as f64) * u * u) as u64 % players
        };
        let south = shape.player(pick(&mut rng));
        let against_computer = rng.random_bool(0.04);
        let north = if against_computer {
            COMPUTER
        } else {
            // A person never plays themself.
            let mut north = shape.player(pick(&mut rng));
            while north == south {
                north = shape.player(pick(&mut rng));
            }
            north
        };
        let ruleset = match rng.random_range(0..10) {
            0..6 => Ruleset::Omweso,
            6..9 => Ruleset::Oware,
            _ => Ruleset::Mweiso,
        };
        let outcome = match rng.random_range(0..100) {
            0..47 => win(Side::South, &mut rng),
            47..94 => win(Side::North, &mut rng),
            94..98 => Outcome::Draw,
            _ => Outcome::Annulled {
                reason: AnnulReason::NeverEnding,
            },
        };
        let annulled = matches!(outcome, Outcome::Annulled { .. });
        let rated = !against_computer && !annulled && rng.random_bool(0.5);
        let tournament = (!against_computer && rng.random_bool(0.1))
            .then(|| shape.tournament(rng.random_range(0..shape.tournaments())));
        let offset = i64::try_from(i).unwrap_or(i64::MAX);
        let finished_at_ms = START_MS + offset * step + rng.random_range(0..step.max(1));
        let created_at_ms = finished_at_ms - rng.random_range(300_000..2_400_000);
        let move_count = rng.random_range(10..150);
        let config = GameConfig {
            ruleset,
            setup: SetupKind::Outer,
            time_control: TimeControl::CASUAL,
            stop_at_ms: None,
            relayed: false,
            rated,
            tournament,
        };
        let columns = archive_columns(&config, Some((outcome, finished_at_ms, Some(move_count))));
        GameValues {
            id: Uuid::from_u128(rng.random::<u128>() & !(0xf << 76) | (0x4 << 76)),
            ruleset: ruleset.name(),
            config_json: serde_json::to_string(&config).unwrap_or_default(),
            south,
            north,
            status: if annulled { "annulled" } else { "finished" },
            outcome_json: serde_json::to_string(&outcome).unwrap_or_default(),
            created_at_ms,
            finished_at_ms,
            rated,
            tournament_id: tournament,
            result: columns.result.unwrap_or_default(),
            victory: columns.victory,
            move_count,
        }
    })
}

fn win(winner: Side, rng: &mut SmallRng) -> Outcome {
    let victory = match rng.random_range(0..20) {
        0..12 => Victory::NoMove,
        12..17 => Victory::Resigned,
        17 => Victory::Abandoned,
        18 => Victory::Captures,
        _ => Victory::EmitweEbiri,
    };
    Outcome::Win { winner, victory }
}

/// Loads `shape`'s players and games into the SQLite file at `path` (migrated, no games):
/// one transaction of prepared inserts, the log not synced (a benchmark's data, not a
/// site's: the server itself never turns that off).
pub fn load_sqlite(path: &std::path::Path, shape: Shape) -> Result<(), rusqlite::Error> {
    let mut conn = rusqlite::Connection::open(path)?;
    conn.pragma_update(None, "synchronous", "OFF")?;
    let tx = conn.transaction()?;
    {
        let mut person = tx.prepare(
            "INSERT INTO persons (id, name, username, username_key, created_at_ms, used) \
             VALUES (?1, ?2, ?3, ?4, ?5, 1)",
        )?;
        for k in 0..shape.players() {
            let username = Shape::username(k);
            person.execute(rusqlite::params![
                shape.player(k).to_string(),
                Shape::name(k),
                username,
                username_key(&username),
                START_MS,
            ])?;
        }
        let mut tournament = tx.prepare(&format!(
            "INSERT INTO tournaments ({TOURNAMENT_COLUMNS}) \
             VALUES (?1, ?2, 'omweso', 'swiss', ?3, 'finished', 25, 5, ?4, ?4)"
        ))?;
        for k in 0..shape.tournaments() {
            tournament.execute(rusqlite::params![
                shape.tournament(k).to_string(),
                Shape::tournament_name(k),
                shape.player(0).to_string(),
                START_MS,
            ])?;
        }
        let placeholders = (1..=17)
            .map(|i| format!("?{i}"))
            .collect::<Vec<_>>()
            .join(", ");
        let mut game = tx.prepare(&format!(
            "INSERT INTO games ({GAME_COLUMNS}) VALUES ({placeholders})"
        ))?;
        for g in games(shape) {
            game.execute(rusqlite::params![
                g.id.to_string(),
                g.ruleset,
                "outer",
                g.config_json,
                g.south.to_string(),
                g.north.to_string(),
                g.south.to_string(),
                g.status,
                g.outcome_json,
                g.created_at_ms,
                g.finished_at_ms,
                i64::from(g.rated),
                g.tournament_id.map(|t| t.to_string()),
                g.result,
                g.victory,
                g.finished_at_ms,
                g.move_count,
            ])?;
        }
    }
    tx.commit()
}

/// Loads `shape`'s players and games into the PostgreSQL database at `url` (migrated, no
/// games) with `COPY`, then has it gather its statistics and visibility map (`VACUUM
/// ANALYZE`: what its autovacuum does on a site after such a load).
pub async fn load_postgres(url: &str, shape: Shape) -> Result<(), sqlx::Error> {
    use sqlx::Connection;
    let mut conn = sqlx::PgConnection::connect(url).await?;
    let mut copy = conn
        .copy_in_raw(
            "COPY persons (id, name, username, username_key, created_at_ms, used) FROM STDIN",
        )
        .await?;
    let mut chunk = String::new();
    for k in 0..shape.players() {
        let username = Shape::username(k);
        chunk.push_str(&format!(
            "{}\t{}\t{username}\t{}\t{START_MS}\t1\n",
            shape.player(k),
            Shape::name(k),
            username_key(&username)
        ));
    }
    copy.send(chunk.as_bytes()).await?;
    copy.finish().await?;
    let mut copy = conn
        .copy_in_raw(&format!(
            "COPY tournaments ({TOURNAMENT_COLUMNS}) FROM STDIN"
        ))
        .await?;
    let mut chunk = String::new();
    for k in 0..shape.tournaments() {
        chunk.push_str(&format!(
            "{}\t{}\tomweso\tswiss\t{}\tfinished\t25\t5\t{START_MS}\t{START_MS}\n",
            shape.tournament(k),
            Shape::tournament_name(k),
            shape.player(0),
        ));
    }
    copy.send(chunk.as_bytes()).await?;
    copy.finish().await?;
    let mut copy = conn
        .copy_in_raw(&format!("COPY games ({GAME_COLUMNS}) FROM STDIN"))
        .await?;
    let mut chunk = String::with_capacity(1 << 20);
    for g in games(shape) {
        // The text format: tabs between values, \N for NULL; no value here holds a tab,
        // a newline or a backslash.
        let opt = |v: Option<String>| v.unwrap_or_else(|| "\\N".to_owned());
        chunk.push_str(&format!(
            "{}\t{}\touter\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\n",
            g.id,
            g.ruleset,
            g.config_json,
            g.south,
            g.north,
            g.south,
            g.status,
            g.outcome_json,
            g.created_at_ms,
            g.finished_at_ms,
            i64::from(g.rated),
            opt(g.tournament_id.map(|t| t.to_string())),
            g.result,
            opt(g.victory),
            g.finished_at_ms,
            g.move_count,
        ));
        if chunk.len() > 1 << 20 {
            copy.send(chunk.as_bytes()).await?;
            chunk.clear();
        }
    }
    copy.send(chunk.as_bytes()).await?;
    copy.finish().await?;
    sqlx::query("VACUUM ANALYZE games")
        .execute(&mut conn)
        .await?;
    sqlx::query("VACUUM ANALYZE persons")
        .execute(&mut conn)
        .await?;
    sqlx::query("VACUUM ANALYZE tournaments")
        .execute(&mut conn)
        .await?;
    conn.close().await
}

/// The SQLite file a `sqlite:` URL names.
pub fn sqlite_path(url: &str) -> io::Result<std::path::PathBuf> {
    let rest = url
        .strip_prefix("sqlite://")
        .or_else(|| url.strip_prefix("sqlite:"))
        .filter(|rest| !rest.starts_with(":memory:") && !rest.is_empty())
        .ok_or_else(|| io::Error::other(format!("{url:?} is not an SQLite file's URL")))?;
    Ok(rest.split('?').next().unwrap_or(rest).into())
}
