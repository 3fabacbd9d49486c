//! The archive of finished games (docs/protocol.md#the-archive-addition): a search
//! (`GET /api/archive`), one game's entry (`GET /api/archive/{id}`), and a player's
//! results by ruleset on their page.

use omweso_rules::Ruleset;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// `GET /api/archive` takes (the query string; every field optional). Times are ms since
/// the Unix epoch; the server checks every field and says which is wrong.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArchiveQuery {
    /// A username or a name as the sheets show it (a guest's too): the games, in either
    /// seat, of that account and of every person of that name; `@name`: the account alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<String>,
    /// As `player`: only games against them (needs `player`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opponent: Option<String>,
    /// `omweso`, `mweiso` or `oware`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ruleset: Option<String>,
    /// `south`, `north`, `draw`, `annulled`; or, with `player`, `won` or `lost` (theirs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
    /// `true` or `false`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rated: Option<String>,
    /// Games that ended at or after this time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// Games that ended before this time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    /// A tournament's id, or its name (every tournament of that name): its games.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament: Option<String>,
    /// The `next` of the page before: the games after it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<String>,
    /// Games a page (1 to 100; 50 when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<String>,
}

/// `GET /api/archive` answers: finished games, the most recently ended first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArchivePage {
    pub games: Vec<ArchiveGame>,
    /// Give it as `after` (with the same filters) for the games that follow; `null` when
    /// there are none. A page may hold fewer games than asked, even none, and still have a
    /// `next`: each request reads a bounded part of the archive (docs/security.md).
    pub next: Option<String>,
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ArchiveResult {
    South,
    North,
    Draw,
    Annulled,
}

/// A seat of a finished game: its person's name as it is now, and their username when
/// they have an account.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArchiveSeat {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub username: Option<String>,
}

/// One finished game in the archive.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArchiveGame {
    pub id: Uuid,
    pub ruleset: Ruleset,
    pub south: Option<ArchiveSeat>,
    pub north: Option<ArchiveSeat>,
    pub result: ArchiveResult,
    /// How it was won (`resigned`, `no-move`, ...), or why it was annulled
    /// (`never-ending`, `budget`); absent for a draw.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub victory: Option<String>,
    pub rated: bool,
    /// The tournament it was played in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament: Option<Uuid>,
    /// That tournament's name (addition).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament_name: Option<String>,
    /// Whole moves played (absent when unknown: games that ended before the server kept
    /// their last position).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moves: Option<u32>,
    pub created_at_ms: i64,
    pub finished_at_ms: i64,
}

/// A player's results in one ruleset, over all their finished games (annulled ones not
/// counted).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RulesetResults {
    pub ruleset: Ruleset,
    pub won: u32,
    pub lost: u32,
    pub drawn: u32,
}
