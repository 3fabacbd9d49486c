//! The archive's statements (docs/performance.md#the-archive), built for each search from
//! its filters, with their bound values.
//!
//! Every search reads one index of `migrations/0008_archive.sql` backwards from where the
//! page starts: the index of the one column the search fixes (its tournament, else the
//! player's seat, else its ruleset, else none), ordered by `(finished_at_ms, id)`. The
//! other filters are checked on the index entries as they are read (every index carries
//! them, but the tournament's), and are written so that no planner takes them for the way
//! in: `ruleset || '' = $n` is the same test as `ruleset = $n`, but SQLite will not pick
//! the ruleset's index for it instead of the player's. A search with such filters reads at
//! most [`WINDOW`] entries a request (the window's end found first, by the same index): a
//! rare combination cannot make one request read the whole archive.

use uuid::Uuid;

use super::params::{text, uuid, Param};

/// The most index entries one branch of a search reads in one request when filters other
/// than its index's column are given (docs/security.md#the-archive).
pub const WINDOW: i64 = 10_000;

/// What the archive is searched for, the persons resolved (store-level: ids, not
/// usernames).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ArchiveSearch {
    /// Games with this person in either seat.
    pub player: Option<Uuid>,
    /// ...against this person (only with `player`).
    pub opponent: Option<Uuid>,
    pub ruleset: Option<String>,
    pub result: Option<ResultFilter>,
    pub rated: Option<bool>,
    /// Ended at or after (ms).
    pub from_ms: Option<i64>,
    /// Ended before (ms).
    pub to_ms: Option<i64>,
    pub tournament: Option<Uuid>,
    /// The page starts after this `(finished_at_ms, id)`: the previous page's cursor.
    pub before: Option<(i64, Uuid)>,
    /// Games a page.
    pub limit: usize,
}

/// A result searched for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResultFilter {
    /// The `result` column is this (`south`, `north`, `draw`, `annulled`).
    Is(&'static str),
    /// The player won (needs a player).
    PlayerWon,
    /// The player lost (needs a player).
    PlayerLost,
}

/// Which seat a branch of a search by player looks at; `Any` without a player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    Any,
    South,
    North,
}

impl Seat {
    /// The branches of a search: one per seat the player may hold.
    pub(crate) fn branches(search: &ArchiveSearch) -> &'static [Seat] {
        if search.player.is_some() {
            &[Seat::South, Seat::North]
        } else {
            &[Seat::Any]
        }
    }

    fn columns(self) -> Option<(&'static str, &'static str)> {
        match self {
            Seat::Any => None,
            Seat::South => Some(("south", "north")),
            Seat::North => Some(("north", "south")),
        }
    }

    /// The `result` meaning the player won or lost in this seat.
    fn result(self, filter: ResultFilter) -> Option<&'static str> {
        use super::rows::{RESULT_NORTH, RESULT_SOUTH};
        match (filter, self) {
            (ResultFilter::Is(result), _) => Some(result),
            (ResultFilter::PlayerWon, Seat::South) | (ResultFilter::PlayerLost, Seat::North) => {
                Some(RESULT_SOUTH)
            }
            (ResultFilter::PlayerWon, Seat::North) | (ResultFilter::PlayerLost, Seat::South) => {
                Some(RESULT_NORTH)
            }
            // Refused before: won and lost need a player.
            (_, Seat::Any) => None,
        }
    }
}

/// A statement and the values of its `$1, $2, ...`.
#[derive(Clone, Debug, Default)]
pub(crate) struct Query {
    pub(crate) sql: String,
    pub(crate) params: Vec<Param<'static>>,
}

impl Query {
    fn bind(&mut self, param: Param<'static>) -> String {
        self.params.push(param);
        format!("${}", self.params.len())
    }
}

/// The conditions that bound the index range a branch reads: the index's column, the
/// page's start, the dates. `WHERE` and all.
fn range(search: &ArchiveSearch, seat: Seat, q: &mut Query) -> Vec<String> {
    let mut conditions = vec!["finished_at_ms IS NOT NULL".to_owned()];
    if let Some(tournament) = search.tournament {
        let t = q.bind(uuid(tournament));
        conditions.push(format!("tournament_id = {t} AND tournament_id IS NOT NULL"));
    } else if let (Some((mine, _)), Some(player)) = (seat.columns(), search.player) {
        let p = q.bind(uuid(player));
        conditions.push(format!("{mine} = {p}"));
    } else if let Some(ruleset) = &search.ruleset {
        let r = q.bind(text(ruleset));
        conditions.push(format!("ruleset = {r}"));
    }
    if let Some((at, id)) = search.before {
        let at = q.bind(Param::Int(at));
        let id = q.bind(uuid(id));
        conditions.push(format!("(finished_at_ms, id) < ({at}, {id})"));
    }
    if let Some(from) = search.from_ms {
        let from = q.bind(Param::Int(from));
        conditions.push(format!("finished_at_ms >= {from}"));
    }
    if let Some(to) = search.to_ms {
        let to = q.bind(Param::Int(to));
        conditions.push(format!("finished_at_ms < {to}"));
    }
    conditions
}

/// The filters checked on each entry read (see the module's comment for `|| ''`).
fn residual(search: &ArchiveSearch, seat: Seat, q: &mut Query) -> Vec<String> {
    let mut conditions = Vec::new();
    if let Some((mine, theirs)) = seat.columns() {
        // The tournament's index is the way in: the player's seat is checked on each entry.
        if let (Some(_), Some(player)) = (search.tournament, search.player) {
            let p = q.bind(uuid(player));
            conditions.push(format!("{mine} || '' = {p}"));
        }
        if let Some(opponent) = search.opponent {
            let o = q.bind(uuid(opponent));
            conditions.push(format!("{theirs} || '' = {o}"));
        }
    }
    let ruleset_drives = search.tournament.is_none() && seat == Seat::Any;
    if let (Some(ruleset), false) = (&search.ruleset, ruleset_drives) {
        let r = q.bind(text(ruleset));
        conditions.push(format!("ruleset || '' = {r}"));
    }
    if let Some(rated) = search.rated {
        let r = q.bind(Param::Int(i64::from(rated)));
        conditions.push(format!("rated = {r}"));
    }
    if let Some(result) = search.result.and_then(|filter| seat.result(filter)) {
        let r = q.bind(text(result));
        conditions.push(format!("result = {r}"));
    }
    conditions
}

/// Whether a branch checks filters beyond its index range (then it reads a window).
#[must_use]
pub(crate) fn has_residual(search: &ArchiveSearch, seat: Seat) -> bool {
    !residual(search, seat, &mut Query::default()).is_empty()
}

/// The key of the last entry of a branch's window: the `window`th entry of its index
/// range from the page's start (none when the range holds fewer).
#[must_use]
pub(crate) fn window_end(search: &ArchiveSearch, seat: Seat, window: i64) -> Query {
    let mut q = Query::default();
    let conditions = range(search, seat, &mut q).join(" AND ");
    let offset = q.bind(Param::Int(window.max(1) - 1));
    q.sql = format!(
        "SELECT finished_at_ms, id FROM games WHERE {conditions} \
         ORDER BY finished_at_ms DESC, id DESC LIMIT 1 OFFSET {offset}"
    );
    q
}

/// The keys of a branch's games on the page: at most `take`, newest first, read no
/// further than `until` (the window's end, included) when given.
#[must_use]
pub(crate) fn keys(
    search: &ArchiveSearch,
    seat: Seat,
    until: Option<(i64, Uuid)>,
    take: usize,
) -> Query {
    let mut q = Query::default();
    let mut conditions = range(search, seat, &mut q);
    if let Some((at, id)) = until {
        let at = q.bind(Param::Int(at));
        let id = q.bind(uuid(id));
        conditions.push(format!("(finished_at_ms, id) >= ({at}, {id})"));
    }
    conditions.extend(residual(search, seat, &mut q));
    let limit = q.bind(Param::Int(i64::try_from(take).unwrap_or(i64::MAX)));
    q.sql = format!(
        "SELECT finished_at_ms, id FROM games WHERE {} \
         ORDER BY finished_at_ms DESC, id DESC LIMIT {limit}",
        conditions.join(" AND ")
    );
    q
}

/// The columns an archive entry shows, with its seats' persons as they are now.
const ENTRY_COLUMNS: &str = "g.id, g.ruleset, g.south, g.north, g.result, g.victory, \
     g.rated, g.tournament_id, g.move_count, g.created_at_ms, g.finished_at_ms, \
     ps.name AS south_name, ps.username AS south_username, \
     pn.name AS north_name, pn.username AS north_username";

/// The entries of the finished games `$1..$n`.
#[must_use]
pub(crate) fn entries(n: usize) -> String {
    let placeholders = (1..=n)
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(", ");
    format!(
        "SELECT {ENTRY_COLUMNS} FROM games g \
         LEFT JOIN persons ps ON ps.id = g.south LEFT JOIN persons pn ON pn.id = g.north \
         WHERE g.id IN ({placeholders}) AND g.finished_at_ms IS NOT NULL"
    )
}

/// A person's finished games counted by ruleset and result, in the seat `column`
/// (`south` or `north`): `$1` the person. Read from the seat's archive index alone.
#[must_use]
pub(crate) fn results_of(column: &str) -> String {
    format!(
        "SELECT ruleset, result, COUNT(*) AS n FROM games \
         WHERE {column} = $1 AND finished_at_ms IS NOT NULL GROUP BY ruleset, result"
    )
}

/// Finished games whose search columns are not filled in (they ended before migration
/// 8), a batch at a time. The WHERE clause is the partial index `games_archive_unfilled`'s
/// (migration 8), so that once all are filled, finding none reads nothing.
pub(crate) const UNFILLED: &str = "SELECT id FROM games \
     WHERE status IN ('finished', 'annulled') AND finished_at_ms IS NULL ORDER BY id LIMIT $1";

/// Which tournament each game belongs to, from the tournaments' logs (a game ends with a
/// `game_end` entry in its tournament's log): for games created before their
/// configuration named their tournament.
pub(crate) const TOURNAMENT_GAME_ENDS: &str =
    "SELECT tournament_id, payload_json FROM tournament_log WHERE kind = 'game_end'";
