//! [`Writer`]: group commit for everything the server writes while it runs.

use std::ops::Range;
use std::time::{Duration, Instant};

use tokio::runtime::Handle;
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use super::{ActionRow, Store, StoreError, Write};
use crate::metrics::{count, METRICS};
use crate::store::lease::Lease;

/// The most writes committed in one transaction (a caller's writes are never split).
pub const MAX_BATCH: usize = 1024;

/// How long the writer lets a group gather before committing it, when writes come faster
/// than it commits (PostgreSQL's `commit_delay` with `commit_siblings`).
///
/// Left to itself the group commit takes what queued during the last commit, which on a
/// busy server is a few writes: each commit then pays its transaction, its fsync and the
/// wake-ups of its callers' games for few moves. Waiting a little first makes the groups
/// larger and the server's work come in bursts, which it handles with fewer thread
/// wake-ups: on the load of docs/performance.md a 1 ms wait took 7% off the server's CPU
/// per move and 2 ms 14%, for about as much more latency on each move (the server's
/// default is 1 ms, which keeps the p99 well under 20 ms). A quiet server (the last group
/// held one caller) never waits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CommitDelay {
    /// The wait; zero never waits.
    pub wait: Duration,
}

/// A group of at least this many callers shows writes coming faster than the commits.
const BUSY_GROUP: usize = 2;

impl CommitDelay {
    /// How long to wait before gathering the next group, after a group of
    /// `previous_callers`.
    #[must_use]
    pub fn before_next(self, previous_callers: usize) -> Option<Duration> {
        (previous_callers >= BUSY_GROUP && !self.wait.is_zero()).then_some(self.wait)
    }
}

/// Where a caller waits for its writes' result.
type Answer = oneshot::Sender<Result<(), StoreError>>;

enum Msg {
    Write(Vec<Write>, Answer),
    Shutdown(oneshot::Sender<()>),
    /// Now and then: a re-rating under way that this writer did not start (one a node that
    /// stopped left behind) is taken up.
    LookForRerates,
}

/// Writes through one task that commits callers' writes in groups.
///
/// Every [`write`](Writer::write) waits until its own writes are committed. While a
/// transaction is in flight, the writes that arrive queue in a bounded channel; the next
/// transaction takes all of them (up to [`MAX_BATCH`]), so a commit's cost (on SQLite, an
/// fsync) is shared by everything that arrived meanwhile, and the rate of commits adapts to
/// the load by itself, with no timer.
///
/// The server sends *every* write through it: moves, new games and their first log entry,
/// game updates, sessions. A single writer matters on SQLite, which takes one writer at a
/// time: a game insert committed on its own connection would hold the write lock (and
/// pay an fsync) while the group commit slept in SQLite's busy handler.
///
/// Each caller's writes are atomic and each caller gets its own result: if a group's
/// transaction fails (say one row duplicates a `(game_id, seq)`), the callers' writes are
/// retried one caller at a time, each in its own transaction, so that only the offending
/// one fails. Writes from one handle are committed in the order they were made.
///
/// The task ends, after writing everything already queued, when every handle is dropped or
/// [`shutdown`](Writer::shutdown) is called; writes after that fail with
/// [`StoreError::Closed`].
///
/// Dropping a `write` future before it completes does not withdraw the writes: once
/// queued, they are committed, and only the caller's answer is lost.
#[derive(Clone, Debug)]
pub struct Writer {
    tx: mpsc::Sender<Msg>,
    /// A room's writer on one of several nodes: every write carries the room's lease
    /// first, and the store refuses it once another node took the room over
    /// ([`Writer::fenced`], docs/scaling.md#leases-and-fencing).
    fence: Option<Arc<Fence>>,
}

/// A room's lease, and whether the store has refused a write for it (taken over).
#[derive(Debug)]
struct Fence {
    lease: Lease,
    lost: AtomicBool,
}

impl Writer {
    /// Starts the writer task on the current Tokio runtime. `capacity` bounds the queue
    /// (at least 1; [`MAX_BATCH`] or more lets a full group build up while a commit runs);
    /// when it is full, `write` waits for room.
    ///
    /// The writer runs on a thread of its own (one of the runtime's blocking threads),
    /// not among the runtime's workers, and blocks there: it waits for writes, and an
    /// SQLite file is written on that thread, start to commit, with no hand-off to any
    /// other (see `Store::write_blocking`). A task woken from outside the runtime waits in
    /// the workers' shared queue behind the ready socket tasks, and under load each such
    /// hand-off cost about a millisecond (docs/performance.md); a blocked thread is woken
    /// at once.
    pub fn spawn(store: Store, capacity: usize) -> (Writer, JoinHandle<()>) {
        Writer::spawn_with(store, capacity, CommitDelay::default())
    }

    /// As [`Writer::spawn`], a busy writer letting each group gather for `delay`.
    pub fn spawn_with(
        store: Store,
        capacity: usize,
        delay: CommitDelay,
    ) -> (Writer, JoinHandle<()>) {
        let (tx, rx) = mpsc::channel(capacity.max(1));
        let runtime = Handle::current();
        let task = tokio::task::spawn_blocking(move || run(&store, rx, &runtime, delay));
        // A weak handle: the writer still ends when every real one is dropped.
        let weak = tx.downgrade();
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(PENDING_EVERY).await;
                let Some(tx) = weak.upgrade() else { return };
                // A full queue means a busy writer, which looks after its own writes.
                let _ = tx.try_send(Msg::LookForRerates);
            }
        });
        (Writer { tx, fence: None }, task)
    }

    /// This writer for a room held by `lease`: each of its writes is refused by the store
    /// (as a whole) once the lease is no longer this node's at this epoch.
    #[must_use]
    pub fn fenced(&self, lease: Lease) -> Writer {
        Writer {
            tx: self.tx.clone(),
            fence: Some(Arc::new(Fence {
                lease,
                lost: AtomicBool::new(false),
            })),
        }
    }

    /// The lease this writer's writes carry, if it is a room's on one of several nodes.
    #[must_use]
    pub fn lease(&self) -> Option<&Lease> {
        self.fence.as_ref().map(|f| &f.lease)
    }

    /// Whether the store refused a write because the room was taken over: its task must
    /// stop (another node plays it now).
    #[must_use]
    pub fn fenced_out(&self) -> bool {
        self.fence
            .as_ref()
            .is_some_and(|f| f.lost.load(Ordering::Relaxed))
    }

    /// Commits `writes` atomically (see [`Store::write`] for their order and refusals);
    /// returns once they are committed, or with the error that kept them out.
    pub async fn write(&self, mut writes: Vec<Write>) -> Result<(), StoreError> {
        if let Some(fence) = &self.fence {
            writes.insert(0, Write::Fence(fence.lease.clone()));
        }
        let (done, result) = oneshot::channel();
        self.tx
            .send(Msg::Write(writes, done))
            .await
            .map_err(|_| StoreError::Closed)?;
        let result = result.await.map_err(|_| StoreError::Closed)?;
        if let (Some(fence), Err(StoreError::Fenced { .. })) = (&self.fence, &result) {
            fence.lost.store(true, Ordering::Relaxed);
        }
        result
    }

    /// Appends one entry to a game's log; returns once it is committed, or with the error
    /// that kept it out (for instance [`StoreError::is_conflict`] for a `seq` already taken).
    pub async fn append(&self, action: ActionRow) -> Result<(), StoreError> {
        self.write(vec![Write::AppendAction(action)]).await
    }

    /// How many messages wait in the queue, not yet taken into a group (each caller's
    /// writes are one). What arrives while a group commits is the next group: a test
    /// makes sure that two callers are committed together by waiting for both here.
    pub fn queued(&self) -> usize {
        self.tx.max_capacity() - self.tx.capacity()
    }

    /// Stops accepting writes, through every handle, and waits until everything queued
    /// before has been committed. Returns at once if the writer has already ended.
    pub async fn shutdown(&self) {
        let (done, finished) = oneshot::channel();
        if self.tx.send(Msg::Shutdown(done)).await.is_ok() {
            // An error only means the task is gone, which is what we wait for.
            let _ = finished.await;
        }
    }
}

/// The writes of one transaction, and whom to answer.
#[derive(Default)]
struct Group {
    writes: Vec<Write>,
    /// Each caller's writes, as a range of `writes`, and its answer.
    callers: Vec<(Range<usize>, Answer)>,
}

/// How often an idle writer looks for a re-rating under way that it did not start (one
/// a node that stopped left behind, docs/scaling.md).
const PENDING_EVERY: Duration = Duration::from_secs(60);

fn run(store: &Store, mut rx: mpsc::Receiver<Msg>, runtime: &Handle, delay: CommitDelay) {
    let mut group = Group::default();
    let mut shutdown_waiters: Vec<oneshot::Sender<()>> = Vec::new();
    let mut previous_callers = 0;
    // The rulesets being re-rated a step at a time (a correction's, or one a crash cut),
    // whose steps run between the groups until none is left.
    let mut rerating = pending_rerates(store, runtime);

    loop {
        // With steps to run, the next group is taken if one is queued and the step runs
        // either way; else the writer waits for writes (looking for steps now and then).
        let first = if rerating.is_empty() {
            // `blocking_recv` keeps returning what is queued after `close`, then `None`.
            match rx.blocking_recv() {
                Some(Msg::LookForRerates) => {
                    rerating = pending_rerates(store, runtime);
                    None
                }
                Some(first) => Some(first),
                None => break,
            }
        } else {
            match rx.try_recv() {
                Ok(first) => Some(first),
                Err(mpsc::error::TryRecvError::Empty) => None,
                Err(mpsc::error::TryRecvError::Disconnected) => break,
            }
        };
        if let Some(first) = first {
            let rated = commit_group(
                store,
                &mut rx,
                runtime,
                (first, delay, &mut previous_callers),
                (&mut group, &mut shutdown_waiters),
            );
            if rated {
                rerating = pending_rerates(store, runtime);
            }
        }
        if !rerating.is_empty() {
            step_rerates(store, runtime, &rerating);
            rerating = pending_rerates(store, runtime);
        }
    }
    for done in shutdown_waiters {
        let _ = done.send(());
    }
}

/// The rulesets with a re-rating under way; none when they cannot be read (logged: the
/// next rating write or the idle check looks again).
fn pending_rerates(store: &Store, runtime: &Handle) -> Vec<omweso_rules::Ruleset> {
    match runtime.block_on(store.pending_rerates()) {
        Ok(pending) => pending.into_iter().map(|(ruleset, _)| ruleset).collect(),
        Err(error) => {
            tracing::warn!(%error, "could not read the re-ratings under way");
            Vec::new()
        }
    }
}

/// One step of each re-rating under way, in one transaction.
fn step_rerates(store: &Store, runtime: &Handle, rulesets: &[omweso_rules::Ruleset]) {
    let writes: Vec<Write> = rulesets.iter().copied().map(Write::RerateStep).collect();
    let started = Instant::now();
    if let Err(error) = store.write_blocking(&writes, runtime) {
        tracing::warn!(%error, "a step of a re-rating failed; it is tried again");
        // Not at once and for ever: the next group, or the idle check, comes first.
        std::thread::sleep(Duration::from_millis(100));
    }
    METRICS.database_commit.observe(started.elapsed());
    count(&METRICS.database_commits);
    store.after_commit_blocking();
}

/// Gathers the group that `first` begins (as much as is queued, up to [`MAX_BATCH`]) and
/// commits it; whether it held a rating write (which may have started a re-rating).
fn commit_group(
    store: &Store,
    rx: &mut mpsc::Receiver<Msg>,
    runtime: &Handle,
    (first, delay, previous_callers): (Msg, CommitDelay, &mut usize),
    (group, shutdown_waiters): (&mut Group, &mut Vec<oneshot::Sender<()>>),
) -> bool {
    {
        if let Some(wait) = delay.before_next(*previous_callers) {
            // This thread is the writer's own: sleeping holds up nothing but the group.
            std::thread::sleep(wait);
        }
        let mut next = Some(first);
        while let Some(msg) = next.take() {
            match msg {
                Msg::LookForRerates => {}
                Msg::Write(writes, done) => {
                    let start = group.writes.len();
                    group.writes.extend(writes);
                    group.callers.push((start..group.writes.len(), done));
                }
                Msg::Shutdown(done) => {
                    rx.close();
                    shutdown_waiters.push(done);
                }
            }
            if group.writes.len() < MAX_BATCH {
                next = rx.try_recv().ok();
            }
        }
        *previous_callers = group.callers.len();
        let rated = group
            .writes
            .iter()
            .any(|w| matches!(w, Write::Rate(_) | Write::Rerate(_)));
        if !group.callers.is_empty() {
            commit(store, group, runtime);
            store.after_commit_blocking();
        }
        rated
    }
}

/// Commits `group` in one transaction and answers each caller; on failure, retries each
/// caller's writes in a transaction of their own so that each gets its own result.
fn commit(store: &Store, group: &mut Group, runtime: &Handle) {
    let started = Instant::now();
    let result = store.write_blocking(&group.writes, runtime);
    METRICS.database_commit.observe(started.elapsed());
    count(&METRICS.database_commits);
    METRICS.database_writes.inc_by(group.writes.len() as u64);
    match result {
        Ok(()) => {
            for (_, done) in group.callers.drain(..) {
                // The caller may have stopped waiting; its writes are committed all the same.
                let _ = done.send(Ok(()));
            }
        }
        Err(e) if group.callers.len() == 1 => {
            if let Some((_, done)) = group.callers.pop() {
                let _ = done.send(Err(e));
            }
        }
        Err(e) => {
            tracing::warn!(
                error = %e,
                callers = group.callers.len(),
                "group commit failed; committing each caller's writes on its own"
            );
            for (range, done) in group.callers.drain(..) {
                let result = store.write_blocking(&group.writes[range], runtime);
                let _ = done.send(result);
            }
        }
    }
    group.writes.clear();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_busy_writer_waits_and_only_with_a_delay_set() {
        let delay = CommitDelay {
            wait: Duration::from_millis(1),
        };
        // The last group had no caller (the first) or one (a quiet server): no wait.
        assert_eq!(delay.before_next(0), None);
        assert_eq!(delay.before_next(1), None);
        // Two callers or more came during one commit: the next group gathers for 1 ms.
        assert_eq!(delay.before_next(2), Some(Duration::from_millis(1)));
        assert_eq!(delay.before_next(MAX_BATCH), Some(Duration::from_millis(1)));
        // No delay configured: never.
        assert_eq!(CommitDelay::default().before_next(50), None);
    }
}
