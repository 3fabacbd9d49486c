//! [`ActionWriter`]: group commit for the action log.

use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;

use super::{ActionRow, Store, StoreError};

/// The most actions written in one transaction.
pub const MAX_BATCH: usize = 256;

enum Msg {
    Append(ActionRow, oneshot::Sender<Result<(), StoreError>>),
    Shutdown(oneshot::Sender<()>),
}

/// Appends actions through one task that commits them in groups.
///
/// Every [`append`](ActionWriter::append) waits until its own row is committed. While a
/// transaction is in flight, the appends that arrive queue in a bounded channel; the next
/// transaction takes all of them (up to [`MAX_BATCH`]), so a commit's cost (on SQLite, an
/// fsync) is shared by every action that arrived meanwhile, and the rate of commits adapts
/// to the load by itself, with no timer.
///
/// Each caller gets its own result: if a group's transaction fails (say one row duplicates
/// a `(game_id, seq)`), its rows are retried one by one, each in its own transaction, so
/// that only the offending append fails. Appends from one handle are written in the order
/// they were made.
///
/// The task ends, after writing everything already queued, when every handle is dropped or
/// [`shutdown`](ActionWriter::shutdown) is called; appends after that fail with
/// [`StoreError::Closed`].
///
/// Dropping an `append` future before it completes does not withdraw the action: once
/// queued, it is written, and only the caller's answer is lost.
#[derive(Clone, Debug)]
pub struct ActionWriter {
    tx: mpsc::Sender<Msg>,
}

impl ActionWriter {
    /// Starts the writer task on the current Tokio runtime. `capacity` bounds the queue
    /// (at least 1; [`MAX_BATCH`] or more lets a full group build up while a commit runs);
    /// when it is full, `append` waits for room.
    pub fn spawn(store: Store, capacity: usize) -> (ActionWriter, JoinHandle<()>) {
        let (tx, rx) = mpsc::channel(capacity.max(1));
        let task = tokio::spawn(run(store, rx));
        (ActionWriter { tx }, task)
    }

    /// Appends one action; returns once it is committed, or with the error that kept it
    /// out (for instance [`StoreError::is_conflict`] for a `seq` already taken).
    pub async fn append(&self, action: ActionRow) -> Result<(), StoreError> {
        let (done, result) = oneshot::channel();
        self.tx
            .send(Msg::Append(action, done))
            .await
            .map_err(|_| StoreError::Closed)?;
        result.await.map_err(|_| StoreError::Closed)?
    }

    /// Stops accepting appends, through every handle, and waits until everything queued
    /// before has been written. Returns at once if the writer has already ended.
    pub async fn shutdown(&self) {
        let (done, finished) = oneshot::channel();
        if self.tx.send(Msg::Shutdown(done)).await.is_ok() {
            // An error only means the task is gone, which is what we wait for.
            let _ = finished.await;
        }
    }
}

async fn run(store: Store, mut rx: mpsc::Receiver<Msg>) {
    let mut rows: Vec<ActionRow> = Vec::with_capacity(MAX_BATCH);
    let mut waiters: Vec<oneshot::Sender<Result<(), StoreError>>> = Vec::with_capacity(MAX_BATCH);
    let mut shutdown_waiters: Vec<oneshot::Sender<()>> = Vec::new();

    // `recv` keeps returning what is queued after `close`, then `None`.
    while let Some(first) = rx.recv().await {
        let mut next = Some(first);
        while let Some(msg) = next.take() {
            match msg {
                Msg::Append(row, done) => {
                    rows.push(row);
                    waiters.push(done);
                }
                Msg::Shutdown(done) => {
                    rx.close();
                    shutdown_waiters.push(done);
                }
            }
            if rows.len() < MAX_BATCH {
                next = rx.try_recv().ok();
            }
        }
        if !rows.is_empty() {
            commit(&store, &mut rows, &mut waiters).await;
        }
    }
    for done in shutdown_waiters {
        let _ = done.send(());
    }
}

/// Writes `rows` in one transaction and answers each waiter; on failure, retries the rows
/// one by one so that each waiter gets its own row's result.
async fn commit(
    store: &Store,
    rows: &mut Vec<ActionRow>,
    waiters: &mut Vec<oneshot::Sender<Result<(), StoreError>>>,
) {
    match store.append_actions(rows).await {
        Ok(()) => {
            for done in waiters.drain(..) {
                // The caller may have stopped waiting; its row is written all the same.
                let _ = done.send(Ok(()));
            }
        }
        Err(e) if rows.len() == 1 => {
            if let Some(done) = waiters.pop() {
                let _ = done.send(Err(e));
            }
        }
        Err(e) => {
            tracing::warn!(
                error = %e,
                rows = rows.len(),
                "group commit of actions failed; writing them one by one"
            );
            for (row, done) in rows.iter().zip(waiters.drain(..)) {
                let result = store.append_actions(std::slice::from_ref(row)).await;
                let _ = done.send(result);
            }
        }
    }
    rows.clear();
}
