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

use crate::store::params::{text, uuid, Param};

/// The most index entries one branch of a search reads in one request when filters other
/// than its index's column are given (docs/security.md#the-archive).
pub const WINDOW: i64 = 10_000;

/// What the archive is searched for, the persons and tournaments resolved (store-level:
/// ids, not usernames or names).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ArchiveSearch {
    /// Games with one of these persons in either seat (a username names one person; a
    /// name as the sheets show it, every person of that name); empty: anyone's.
    pub players: Vec<Uuid>,
    /// ...against one of these persons (only with `players`).
    pub opponents: Vec<Uuid>,
    pub ruleset: Option<String>,
    pub result: Option<ResultFilter>,
    pub rated: Option<bool>,
    /// Ended at or after (ms).
    pub from_ms: Option<i64>,
    /// Ended before (ms).
    pub to_ms: Option<i64>,
    /// Games of one of these tournaments (an id names one; a name, every tournament of
    /// that name); empty: any game.
    pub tournaments: Vec<Uuid>,
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

/// One branch of a search: one index range, read newest first, whose games are merged
/// with the other branches'. A search by tournament reads each tournament's index; else a
/// search by player each player's two seat indexes; else one branch reads the ruleset's
/// index or the whole archive's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Branch {
    /// The tournament whose games this branch reads.
    tournament: Option<Uuid>,
    /// The player whose games in `seat` this branch reads (no tournament named).
    player: Option<Uuid>,
    /// The seat the searched players hold in this branch's games; `Any` without players.
    seat: Seat,
}

impl Branch {
    /// The branches of a search.
    pub(crate) fn of(search: &ArchiveSearch) -> Vec<Branch> {
        let seats: &[Seat] = if search.players.is_empty() {
            &[Seat::Any]
        } else {
            &[Seat::South, Seat::North]
        };
        let ways_in: Vec<(Option<Uuid>, Option<Uuid>)> = if !search.tournaments.is_empty() {
            search
                .tournaments
                .iter()
                .map(|&t| (Some(t), None))
                .collect()
        } else if !search.players.is_empty() {
            search.players.iter().map(|&p| (None, Some(p))).collect()
        } else {
            vec![(None, None)]
        };
        ways_in
            .into_iter()
            .flat_map(|(tournament, player)| {
                seats.iter().map(move |&seat| Branch {
                    tournament,
                    player,
                    seat,
                })
            })
            .collect()
    }
}

impl Seat {
    fn columns(self) -> Option<(&'static str, &'static str)> {
        match self {
            Seat::Any => None,
            Seat::South => Some(("south", "north")),
            Seat::North => Some(("north", "south")),
        }
    }

    /// The `result` meaning the player won or lost in this seat.
    fn result(self, filter: ResultFilter) -> Option<&'static str> {
        use crate::store::rows::{RESULT_NORTH, RESULT_SOUTH};
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
fn range(search: &ArchiveSearch, branch: Branch, q: &mut Query) -> Vec<String> {
    let mut conditions = vec!["finished_at_ms IS NOT NULL".to_owned()];
    if let Some(tournament) = branch.tournament {
        let t = q.bind(uuid(tournament));
        conditions.push(format!("tournament_id = {t} AND tournament_id IS NOT NULL"));
    } else if let (Some((mine, _)), Some(player)) = (branch.seat.columns(), branch.player) {
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

/// `expr` is one of `ids`: `= $n` for one (the plan the single-person search always had),
/// `IN ($n, ...)` for several.
fn one_of(expr: &str, ids: &[Uuid], q: &mut Query) -> String {
    let values: Vec<String> = ids.iter().map(|&id| q.bind(uuid(id))).collect();
    match values.as_slice() {
        [one] => format!("{expr} = {one}"),
        _ => format!("{expr} IN ({})", values.join(", ")),
    }
}

/// The filters checked on each entry read (see the module's comment for `|| ''`).
fn residual(search: &ArchiveSearch, branch: Branch, q: &mut Query) -> Vec<String> {
    let mut conditions = Vec::new();
    if let Some((mine, theirs)) = branch.seat.columns() {
        // The tournament's index is the way in: the players' seat is checked on each entry.
        if branch.tournament.is_some() {
            conditions.push(one_of(&format!("{mine} || ''"), &search.players, q));
        }
        if !search.opponents.is_empty() {
            conditions.push(one_of(&format!("{theirs} || ''"), &search.opponents, q));
        }
    }
    let ruleset_drives = branch.tournament.is_none() && branch.seat == Seat::Any;
    if let (Some(ruleset), false) = (&search.ruleset, ruleset_drives) {
        let r = q.bind(text(ruleset));
        conditions.push(format!("ruleset || '' = {r}"));
    }
    if let Some(rated) = search.rated {
        let r = q.bind(Param::Int(i64::from(rated)));
        conditions.push(format!("rated = {r}"));
    }
    if let Some(result) = search.result.and_then(|filter| branch.seat.result(filter)) {
        let r = q.bind(text(result));
        conditions.push(format!("result = {r}"));
    }
    conditions
}

/// Whether a branch checks filters beyond its index range (then it reads a window).
#[must_use]
pub(crate) fn has_residual(search: &ArchiveSearch, branch: Branch) -> bool {
    !residual(search, branch, &mut Query::default()).is_empty()
}

/// The key of the last entry of a branch's window: the `window`th entry of its index
/// range from the page's start (none when the range holds fewer).
#[must_use]
pub(crate) fn window_end(search: &ArchiveSearch, branch: Branch, window: i64) -> Query {
    let mut q = Query::default();
    let conditions = range(search, branch, &mut q).join(" AND ");
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
    branch: Branch,
    until: Option<(i64, Uuid)>,
    take: usize,
) -> Query {
    let mut q = Query::default();
    let mut conditions = range(search, branch, &mut q);
    if let Some((at, id)) = until {
        let at = q.bind(Param::Int(at));
        let id = q.bind(uuid(id));
        conditions.push(format!("(finished_at_ms, id) >= ({at}, {id})"));
    }
    conditions.extend(residual(search, branch, &mut q));
    let limit = q.bind(Param::Int(i64::try_from(take).unwrap_or(i64::MAX)));
    q.sql = format!(
        "SELECT finished_at_ms, id FROM games WHERE {} \
         ORDER BY finished_at_ms DESC, id DESC LIMIT {limit}",
        conditions.join(" AND ")
    );
    q
}

/// The columns an archive entry shows, with its seats' persons and its tournament's name
/// as they are now.
const ENTRY_COLUMNS: &str = "g.id, g.ruleset, g.south, g.north, g.result, g.victory, \
     g.rated, g.tournament_id, g.move_count, g.created_at_ms, g.finished_at_ms, \
     ps.name AS south_name, ps.username AS south_username, \
     pn.name AS north_name, pn.username AS north_username, t.name AS tournament_name";

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
         LEFT JOIN tournaments t ON t.id = g.tournament_id \
         WHERE g.id IN ({placeholders}) AND g.finished_at_ms IS NOT NULL"
    )
}

/// The persons named `$1` (as the sheets show it, letters compared without case: A to Z
/// on SQLite, whose `lower` folds ASCII only) who finished a game, at most `$2`; not a
/// disabled account, whose games are nobody's to find as its page is nobody's to read.
/// Read by `persons_name` (migration 15), each one's games by the seats' archive indexes.
pub(crate) const PERSONS_NAMED: &str = "SELECT p.id FROM persons p \
     WHERE lower(p.name) = lower($1) AND p.disabled_at_ms IS NULL \
     AND (EXISTS (SELECT 1 FROM games g WHERE g.south = p.id AND g.finished_at_ms IS NOT NULL) \
       OR EXISTS (SELECT 1 FROM games g WHERE g.north = p.id AND g.finished_at_ms IS NOT NULL)) \
     ORDER BY p.id LIMIT $2";

/// The tournaments named `$1` (letters compared as for persons), the newest first, at
/// most `$2`. Read by `tournaments_name` (migration 15).
pub(crate) const TOURNAMENTS_NAMED: &str = "SELECT id FROM tournaments \
     WHERE lower(name) = lower($1) ORDER BY created_at_ms DESC, id LIMIT $2";

/// A lookup by name (`PERSONS_NAMED` or `TOURNAMENTS_NAMED`) of `name`, at most `limit`.
#[must_use]
pub(crate) fn named(sql: &str, name: &str, limit: i64) -> Query {
    Query {
        sql: sql.to_owned(),
        params: vec![text(name), Param::Int(limit)],
    }
}

/// A person's finished games counted by ruleset and result, in the seat `column`
/// (`south` or `north`): `$1` the person. Read from the seat's archive index alone.
#[must_use]
pub(crate) fn results_of(column: &str) -> String {
    // A game in which one person held both seats is counted once, as South's: counted
    // as both it was a win and a loss of the same game.
    let once = if column == "north" {
        " AND (south IS NULL OR south <> $1)"
    } else {
        ""
    };
    format!(
        "SELECT ruleset, result, COUNT(*) AS n FROM games \
         WHERE {column} = $1 AND finished_at_ms IS NOT NULL{once} GROUP BY ruleset, result"
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
