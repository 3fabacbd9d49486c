//! [`Write::Rate`](super::Write::Rate) applied inside a transaction: the record of rated
//! results extended or corrected, and the ratings recomputed from the place it changed,
//! by [`ratings::replay`](omweso_ratings::replay), the computation `omweso admin rerate`
//! runs too (docs/ratings.md#corrections).
//!
//! The steps are written once, over [`RecordIo`], which each write path implements: sqlx
//! (PostgreSQL, SQLite in memory: `rated_sqlx.rs`) and the SQLite file's own connection
//! (`sqlite_writes.rs`, whose futures are always ready and are run by [`ready`]).
//!
//! No lost update: every rating transaction first takes the record's next number
//! ([`rating_sql::TAKE_SEQ`], an UPDATE of its one row). On PostgreSQL that locks the row
//! to the end of the transaction, so a second transaction rating at the same moment waits
//! there and then reads what the first committed (each statement of a READ COMMITTED
//! transaction sees what was committed before it began); SQLite runs one write
//! transaction at a time.

use std::collections::{BTreeSet, HashMap};
use std::future::Future;

use omweso_rules::Ruleset;
use uuid::Uuid;

use super::params::{any, text, uuid, Param, Statement};
use super::rating_sql;
use super::rows::{RatedResult, Write};
use super::StoreError;
use omweso_ratings::{replay, Change, Played, Rating, Score};

/// A result of the record as stored, with its ruleset.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct StoredResult {
    pub ruleset: String,
    pub played: Played,
}

/// What the rating steps read and write, in the transaction of one write path.
pub(crate) trait RecordIo {
    /// Whether many-row statements are written with `?` (SQLite) rather than `$N`.
    const ANONYMOUS_PLACEHOLDERS: bool;
    /// [`rating_sql::TAKE_SEQ`]: the next number of the record, taking its lock.
    fn take_seq(&mut self) -> impl Future<Output = Result<i64, StoreError>>;
    /// The result of the record under `key`.
    fn find(&mut self, key: Uuid)
        -> impl Future<Output = Result<Option<StoredResult>, StoreError>>;
    /// The results of `ruleset` from the place `seq` on, in order, at most `limit`.
    fn results_from(
        &mut self,
        ruleset: &str,
        seq: i64,
        limit: i64,
    ) -> impl Future<Output = Result<Vec<StoredResult>, StoreError>>;
    /// How many results of `ruleset` between `a` and `b` (either in either seat) count
    /// and were played after `since` and up to `until` (ms).
    fn pair_counted(
        &mut self,
        ruleset: &str,
        pair: (Uuid, Uuid),
        window: (i64, i64),
    ) -> impl Future<Output = Result<i64, StoreError>>;
    /// The re-rating under way in `ruleset`, if any (`rerate_pending`).
    fn pending(
        &mut self,
        ruleset: &str,
    ) -> impl Future<Output = Result<Option<Pending>, StoreError>>;
    /// The ratings in `ruleset` before the place `seq` of `persons` (at most
    /// [`rating_sql::MAX_PARAMS`] - 2 of them); one not rated by then is absent.
    fn ratings_before(
        &mut self,
        ruleset: &str,
        seq: i64,
        persons: &[Uuid],
    ) -> impl Future<Output = Result<Vec<(Uuid, Rating)>, StoreError>>;
    /// Everyone with a rating in `ruleset`.
    fn rated_persons(
        &mut self,
        ruleset: &str,
    ) -> impl Future<Output = Result<Vec<Uuid>, StoreError>>;
    /// Runs a statement; the number of rows it changed.
    fn run(&mut self, statement: Statement) -> impl Future<Output = Result<u64, StoreError>>;
    /// Runs a statement whose placeholders appear in order (a many-row one, made for its
    /// size), its values bound by position; the number of rows it changed.
    fn run_in_order(
        &mut self,
        sql: &str,
        params: Vec<Param<'static>>,
    ) -> impl Future<Output = Result<u64, StoreError>>;
}

/// A re-rating under way in a ruleset (`rerate_pending`): its next results are rated from
/// `from` on, and `also`'s ratings are computed again although they may have no result
/// from there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Pending {
    pub from: i64,
    pub also: Vec<Uuid>,
}

/// Results between the same two players that count in one day (docs/ratings.md#what-is-rated):
/// a fourth within 24 hours of the first three enters the record as not counting. Issue
/// 41, finding 4: 14 games against two puppet accounts took an account from 1500 to
/// 2057. A double round-robin plays two a day between a pair, a club evening's rematches
/// three; a farm of one opponent counts three a day.
pub(crate) const PAIR_RESULTS_A_DAY: i64 = 3;
const PAIR_DAY_MS: i64 = 24 * 60 * 60 * 1000;

/// The results one step of a re-rating rates at most. Each step is one transaction of the
/// writer, which every write of the server waits for: at about 25 µs a result in a release
/// build (docs/performance.md#re-rating-a-correction), a few milliseconds, like a group of
/// moves' commit, where a correction 3,000 results deep held every write for 54-104 ms and
/// one 100,000 deep for seconds (issue 41, finding 5).
pub(crate) const STEP_RESULTS: i64 = 200;

/// A [`Pending`] from its columns.
pub(crate) fn pending_of(from: i64, also_json: &str) -> Result<Pending, StoreError> {
    let also: Vec<Uuid> = serde_json::from_str(also_json).map_err(|e| {
        StoreError::Corrupt(format!(
            "rerate_pending.also_json: {also_json:?} is not a list of ids: {e}"
        ))
    })?;
    Ok(Pending { from, also })
}

/// Applies a [`Write::Rate`], [`Write::Rerate`] or [`Write::RerateStep`] (any other
/// write: nothing).
pub(crate) async fn apply<Io: RecordIo>(io: &mut Io, write: &Write) -> Result<(), StoreError> {
    match write {
        Write::Rate(result) => rate(io, result).await,
        Write::Rerate(ruleset) => rerate(io, *ruleset).await,
        Write::RerateStep(ruleset) => {
            io.take_seq().await?;
            step(io, ruleset.name()).await.map(|_| ())
        }
        _ => Ok(()),
    }
}

/// Adds `result` to the record, or corrects the result stored under its key, and rates
/// from it on.
pub(crate) async fn rate<Io: RecordIo>(
    io: &mut Io,
    result: &RatedResult,
) -> Result<(), StoreError> {
    if result.south == result.north {
        return Err(StoreError::Invalid(format!(
            "rated result {}: south and north are the same person",
            result.key
        )));
    }
    let ruleset = result.ruleset.name();
    let seq = io.take_seq().await?;
    match io.find(result.key).await? {
        None => {
            // Past the day's share of one pair, a result enters the record as not
            // counting, once and for all (a later correction of another does not bring it
            // back): the record alone still says every rating.
            let repeated = result.score.is_some()
                && io
                    .pair_counted(
                        ruleset,
                        (result.south, result.north),
                        (result.at_ms.saturating_sub(PAIR_DAY_MS), result.at_ms),
                    )
                    .await?
                    >= PAIR_RESULTS_A_DAY;
            io.run(any(
                rating_sql::INSERT_RESULT,
                vec![
                    uuid(result.key),
                    Param::Int(seq),
                    text(ruleset),
                    uuid(result.south),
                    uuid(result.north),
                    score(result.score),
                    Param::Int(result.at_ms),
                    Param::Text(repeated.then(|| "repeated".to_owned())),
                ],
            ))
            .await?;
            if io.pending(ruleset).await?.is_some() {
                // A re-rating is under way before it: its steps rate this result when
                // they come to it, from the ratings they will have made.
                return Ok(());
            }
            let results = played(io.results_from(ruleset, seq, 1).await?);
            recompute(io, ruleset, (seq, None), results, Vec::new()).await
        }
        Some(old) => {
            if old.ruleset != ruleset {
                return Err(StoreError::Invalid(format!(
                    "rated result {}: a correction in {ruleset} of a result in {}",
                    result.key, old.ruleset
                )));
            }
            io.run(any(
                rating_sql::UPDATE_RESULT,
                vec![
                    uuid(result.key),
                    uuid(result.south),
                    uuid(result.north),
                    score(result.score),
                    Param::Int(result.at_ms),
                ],
            ))
            .await?;
            // The old players too: one who is no longer in it is rated again without it.
            // Rated from there on a step at a time: this transaction takes the first.
            schedule(
                io,
                ruleset,
                old.played.seq,
                &[old.played.south, old.played.north],
            )
            .await?;
            step(io, ruleset).await.map(|_| ())
        }
    }
}

/// Recomputes every rating of `ruleset` from the record's first result on (the operator's
/// `omweso admin rerate`): the path a correction takes, from the start.
pub(crate) async fn rerate<Io: RecordIo>(io: &mut Io, ruleset: Ruleset) -> Result<(), StoreError> {
    let ruleset = ruleset.name();
    io.take_seq().await?;
    let everyone = io.rated_persons(ruleset).await?;
    let results = played(io.results_from(ruleset, i64::MIN, i64::MAX).await?);
    // Everything from the start: a re-rating under way is done with it.
    io.run(any(rating_sql::CLEAR_PENDING, vec![text(ruleset)]))
        .await?;
    recompute(io, ruleset, (i64::MIN, None), results, everyone).await
}

/// Records that `ruleset` is to be rated again from the place `from` on (with `also`):
/// from the earlier of it and a re-rating already under way, with both's persons.
async fn schedule<Io: RecordIo>(
    io: &mut Io,
    ruleset: &str,
    from: i64,
    also: &[Uuid],
) -> Result<(), StoreError> {
    let mut pending = io.pending(ruleset).await?.unwrap_or(Pending {
        from,
        also: Vec::new(),
    });
    pending.from = pending.from.min(from);
    pending.also = pending
        .also
        .iter()
        .chain(also)
        .copied()
        .collect::<BTreeSet<Uuid>>()
        .into_iter()
        .collect();
    set_pending(io, ruleset, &pending).await
}

async fn set_pending<Io: RecordIo>(
    io: &mut Io,
    ruleset: &str,
    pending: &Pending,
) -> Result<(), StoreError> {
    let also = serde_json::to_string(&pending.also)
        .map_err(|e| StoreError::Invalid(format!("the persons of a re-rating: {e}")))?;
    io.run(any(
        rating_sql::SET_PENDING,
        vec![
            text(ruleset),
            Param::Int(pending.from),
            Param::Text(Some(also)),
        ],
    ))
    .await?;
    Ok(())
}

/// One step of `ruleset`'s re-rating under way, if there is one: the next
/// [`STEP_RESULTS`] results rated; the last step (the record's end reached) rates what is
/// left and ends it. Whether more steps are due. The caller holds the record's lock
/// ([`RecordIo::take_seq`]).
pub(crate) async fn step<Io: RecordIo>(io: &mut Io, ruleset: &str) -> Result<bool, StoreError> {
    let Some(pending) = io.pending(ruleset).await? else {
        return Ok(false);
    };
    let mut results = played(
        io.results_from(ruleset, pending.from, STEP_RESULTS + 1)
            .await?,
    );
    let next = (results.len() > STEP_RESULTS as usize).then(|| {
        let next = results[STEP_RESULTS as usize].seq;
        results.truncate(STEP_RESULTS as usize);
        next
    });
    recompute(io, ruleset, (pending.from, next), results, pending.also).await?;
    match next {
        Some(from) => {
            let rest = Pending {
                from,
                also: Vec::new(),
            };
            set_pending(io, ruleset, &rest).await?;
            Ok(true)
        }
        None => {
            io.run(any(rating_sql::CLEAR_PENDING, vec![text(ruleset)]))
                .await?;
            Ok(false)
        }
    }
}

fn played(results: Vec<StoredResult>) -> Vec<Played> {
    results.into_iter().map(|r| r.played).collect()
}

/// Rates `results`, `ruleset`'s record from the place `from` up to `until` (`None`: its
/// end), again: each player of those results (and each of `also`) from their rating
/// before `from`; the history in that span and the players' ratings rewritten. A player
/// who plays again after `until` has their rating written again by the step that rates
/// that result.
///
/// Set-based, because it runs inside the writer's transaction, which every write of the
/// server waits for (docs/performance.md#re-rating-a-correction): one read of the record,
/// the players' values before it a thousand players a read, the computation in memory,
/// one delete, and the writes many rows a statement.
async fn recompute<Io: RecordIo>(
    io: &mut Io,
    ruleset: &str,
    (from, until): (i64, Option<i64>),
    results: Vec<Played>,
    also: Vec<Uuid>,
) -> Result<(), StoreError> {
    // Sorted, so that the writes come in the same order on every path and every run.
    let persons: Vec<Uuid> = results
        .iter()
        .flat_map(|r| [r.south, r.north])
        .chain(also)
        .collect::<BTreeSet<Uuid>>()
        .into_iter()
        .collect();
    let mut ratings = HashMap::new();
    for chunk in persons.chunks(STATES_PER_READ) {
        ratings.extend(io.ratings_before(ruleset, from, chunk).await?);
    }
    let changes = replay(&mut ratings, &results);
    let delete = match until {
        None => any(
            rating_sql::DELETE_HISTORY_FROM,
            vec![text(ruleset), Param::Int(from)],
        ),
        Some(until) => any(
            rating_sql::DELETE_HISTORY_BETWEEN,
            vec![text(ruleset), Param::Int(from), Param::Int(until)],
        ),
    };
    io.run(delete).await?;
    for chunk in changes.chunks(rating_sql::MAX_PARAMS / rating_sql::HISTORY_WIDTH) {
        let params = chunk
            .iter()
            .flat_map(|change| history_line(ruleset, change))
            .collect();
        io.run_in_order(
            &rating_sql::insert_history(chunk.len(), Io::ANONYMOUS_PLACEHOLDERS),
            params,
        )
        .await?;
    }
    let (rated, unrated): (Vec<Uuid>, Vec<Uuid>) = persons
        .iter()
        .partition(|person| ratings.contains_key(person));
    for chunk in rated.chunks(rating_sql::MAX_PARAMS / rating_sql::RATING_WIDTH) {
        let params = chunk
            .iter()
            .flat_map(|person| rating_line(ruleset, *person, &ratings[person]))
            .collect();
        io.run_in_order(
            &rating_sql::upsert_ratings(chunk.len(), Io::ANONYMOUS_PLACEHOLDERS),
            params,
        )
        .await?;
    }
    for chunk in unrated.chunks(rating_sql::MAX_PARAMS - 1) {
        let params = std::iter::once(text(ruleset))
            .chain(chunk.iter().map(|person| uuid(*person)))
            .collect();
        io.run_in_order(
            &rating_sql::delete_ratings(chunk.len(), Io::ANONYMOUS_PLACEHOLDERS),
            params,
        )
        .await?;
    }
    Ok(())
}

/// Persons whose values before a place one read asks for.
const STATES_PER_READ: usize = 1000;

/// The values of a history line, in `rating_sql::HISTORY_COLUMNS`' order.
fn history_line(ruleset: &str, change: &Change) -> [Param<'static>; rating_sql::HISTORY_WIDTH] {
    [
        Param::Int(change.seq),
        uuid(change.person),
        text(ruleset),
        uuid(change.key),
        Param::Int(change.at_ms),
        Param::Float(change.after.glicko.rating),
        Param::Float(change.after.glicko.deviation),
        Param::Float(change.after.glicko.volatility),
        Param::Int(i64::from(change.after.games)),
        Param::Float(change.before.rating),
        Param::Float(change.before.deviation),
        Param::Float(change.before.volatility),
        Param::Int(change.after.last_played_ms),
    ]
}

/// The values of a rating, in `rating_sql::RATING_COLUMNS`' order.
fn rating_line(
    ruleset: &str,
    person: Uuid,
    rating: &Rating,
) -> [Param<'static>; rating_sql::RATING_WIDTH] {
    [
        uuid(person),
        text(ruleset),
        Param::Float(rating.glicko.rating),
        Param::Float(rating.glicko.deviation),
        Param::Float(rating.glicko.volatility),
        Param::Int(i64::from(rating.games)),
        Param::Int(rating.last_played_ms),
    ]
}

fn score(score: Option<Score>) -> Param<'static> {
    Param::Text(score.map(|s| s.name().to_owned()))
}

/// A stored result from its columns; `Corrupt` naming the column that is wrong.
pub(crate) fn stored_result(
    key: &str,
    seq: i64,
    ruleset: String,
    south: &str,
    north: &str,
    (score, uncounted): (Option<String>, Option<String>),
    at_ms: i64,
) -> Result<StoredResult, StoreError> {
    let id = |text: &str, column: &str| {
        Uuid::parse_str(text).map_err(|e| {
            StoreError::Corrupt(format!(
                "rated_results.{column}: {text:?} is not a UUID: {e}"
            ))
        })
    };
    let score = match score {
        None => None,
        Some(name) => Some(Score::from_name(&name).ok_or_else(|| {
            StoreError::Corrupt(format!("rated_results.score: {name:?} is not a score"))
        })?),
    };
    // A result the record keeps as not counting (one pair's fourth in a day) is rated as
    // one that no longer counts.
    let score = score.filter(|_| uncounted.is_none());
    Ok(StoredResult {
        ruleset,
        played: Played {
            seq,
            key: id(key, "result_key")?,
            south: id(south, "south")?,
            north: id(north, "north")?,
            score,
            at_ms,
        },
    })
}

/// A rating from the history's columns (`games` checked to fit).
pub(crate) fn rating_from(
    rating: f64,
    deviation: f64,
    volatility: f64,
    games: i64,
    last_played_ms: i64,
) -> Result<Rating, StoreError> {
    Ok(Rating {
        glicko: omweso_ratings::Glicko {
            rating,
            deviation,
            volatility,
        },
        games: u32::try_from(games)
            .map_err(|_| StoreError::Corrupt(format!("ratings.games: {games} out of range")))?,
        last_played_ms,
    })
}

/// Runs a future that never waits (the SQLite file's [`RecordIo`], whose every step is a
/// blocking call that has finished when it returns) to its end, on this thread.
pub(crate) fn ready<T>(
    future: impl Future<Output = Result<T, StoreError>>,
) -> Result<T, StoreError> {
    let mut future = std::pin::pin!(future);
    let mut context = std::task::Context::from_waker(std::task::Waker::noop());
    match future.as_mut().poll(&mut context) {
        std::task::Poll::Ready(result) => result,
        std::task::Poll::Pending => Err(StoreError::Unsupported(
            "a blocking database step waited (a bug: it never should)".to_owned(),
        )),
    }
}
