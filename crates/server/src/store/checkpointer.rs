//! [`Checkpointer`]: copies an SQLite file's write-ahead log back into the database file,
//! on a thread of its own and at the lowest CPU priority, so that moves never wait for it.
//!
//! Left to itself, SQLite checkpoints inside the commit that takes the log past 1000
//! pages: under load one group commit in 70 took 10 to 25 ms instead of 1, and every move
//! arriving meanwhile waited for it. At 3,300 moves/s the p99 was 23 ms with those
//! checkpoints and 7 ms with none at all (docs/performance.md). So commits never
//! checkpoint; this thread does, in PASSIVE mode, which never blocks the writer, every
//! [`CHECKPOINT_EVERY`]: rarely enough that a page rewritten by many commits (the index
//! page of a game in play) is copied once, not once per commit.
//!
//! A passive checkpoint that races with commits stops short of the log's end, and SQLite
//! only starts the log again from its beginning (instead of growing it) once a checkpoint
//! has reached the end. So after each pass this thread asks the writer to finish: between
//! two of its commits, nothing is appended, and only what was committed during the pass is
//! left to copy ([`SqliteWrites::finish_checkpoint`](super::sqlite_writes::SqliteWrites)).

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use rusqlite::Connection;

use super::StoreError;

/// How often the log is copied back (and, right after, started again by the writer).
pub(crate) const CHECKPOINT_EVERY: Duration = Duration::from_secs(1);

/// The checkpointing thread of one SQLite file; stopped by [`Checkpointer::stop`] or when
/// dropped.
#[derive(Debug)]
pub(crate) struct Checkpointer {
    stop: Option<mpsc::SyncSender<()>>,
    thread: Option<JoinHandle<()>>,
    /// Set after each pass that copied something: the writer should finish the checkpoint.
    finish: Arc<AtomicBool>,
}

impl Checkpointer {
    /// Opens a connection of its own to the (WAL-mode) database at `path` and starts
    /// checkpointing it.
    pub(crate) fn start(path: &Path) -> Result<Checkpointer, StoreError> {
        let conn = Connection::open(path)?;
        // The pass that reaches the log's end syncs the database file before SQLite may
        // start the log again; with synchronous=OFF it would not, so say FULL rather than
        // rely on the build's default.
        conn.pragma_update(None, "synchronous", "FULL")?;
        let (stop, stopped) = mpsc::sync_channel(1);
        let finish = Arc::new(AtomicBool::new(false));
        let asks = Arc::clone(&finish);
        let thread = std::thread::Builder::new()
            .name("sqlite-checkpoint".into())
            .spawn(move || run(&conn, &stopped, &asks))
            .map_err(StoreError::Thread)?;
        Ok(Checkpointer {
            stop: Some(stop),
            thread: Some(thread),
            finish,
        })
    }

    /// Whether a pass has ended since the last call: the writer should now finish the
    /// checkpoint.
    pub(crate) fn take_finish_request(&self) -> bool {
        self.finish.swap(false, Ordering::Relaxed)
    }

    /// Stops the thread and waits for it (at most one pass in progress).
    pub(crate) fn stop(&mut self) {
        // Dropping the sender wakes the thread at once.
        self.stop.take();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for Checkpointer {
    fn drop(&mut self) {
        self.stop();
    }
}

fn run(conn: &Connection, stopped: &mpsc::Receiver<()>, finish: &AtomicBool) {
    lower_priority();
    let mut failing = false;
    let mut last_synced = None;
    loop {
        match stopped.recv_timeout(CHECKPOINT_EVERY) {
            Err(RecvTimeoutError::Timeout) => {}
            Ok(()) | Err(RecvTimeoutError::Disconnected) => return,
        }
        // Logged once per run of failures, not at every pass.
        match pass(conn, &mut last_synced) {
            Ok(copied_something) => {
                failing = false;
                if copied_something {
                    finish.store(true, Ordering::Relaxed);
                }
            }
            Err(error) if !failing => {
                failing = true;
                tracing::warn!(%error, "SQLite checkpoint failed; will retry");
            }
            Err(_) => {}
        }
    }
}

/// One pass: copies the log into the database file and syncs it. False when there was
/// nothing to do: an empty log, or one already copied and synced by the previous pass
/// with nothing committed since (an idle server, whose log SQLite only starts again at
/// the next write). `last_synced` is the log's state after the last sync.
fn pass(conn: &Connection, last_synced: &mut Option<WalProgress>) -> Result<bool, StoreError> {
    let first = passive_checkpoint(conn)?;
    if first.logged == 0 || (first.complete() && *last_synced == Some(first)) {
        return Ok(false);
    }
    // A second copy right away takes what was committed during the first, which is
    // little; what the writer will be left with is less still.
    let second = passive_checkpoint(conn)?;
    sync_database_file(conn)?;
    *last_synced = Some(second);
    Ok(true)
}

/// Gives this thread the lowest CPU priority (nice 19): a pass copies megabytes, and on a
/// busy machine it should take the time the game sockets leave, not share it with them.
/// The log is only a little longer meanwhile. Lowering one's own priority needs no
/// privilege; should it fail anyway, the thread runs at normal priority.
fn lower_priority() {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: setpriority only reads its integer arguments; on Linux, PRIO_PROCESS
        // with 0 names the calling thread.
        let result = unsafe { libc::setpriority(libc::PRIO_PROCESS, 0, 19) };
        if result != 0 {
            tracing::debug!("could not lower the checkpointer's priority");
        }
    }
}

/// Flushes the database file to disk through this connection's own file handle.
///
/// A passive checkpoint that commits overtook writes its pages into the database file but
/// does not sync it: the sync is left to the checkpoint that reaches the log's end, which
/// is the writer's (see the module's comment), and which then had to flush every page the
/// pass wrote: 5 to 20 ms during which no move was saved. Synced here, the writer's sync
/// only has its own few pages to write.
///
/// SQLite's handle is used rather than a file opened here: closing any descriptor of the
/// database file would drop the POSIX locks SQLite holds on it for the whole process.
fn sync_database_file(conn: &Connection) -> Result<(), StoreError> {
    use rusqlite::ffi;
    let mut file: *mut ffi::sqlite3_file = std::ptr::null_mut();
    // SAFETY: `conn` is open and used only by this thread; SQLITE_FCNTL_FILE_POINTER writes
    // the `sqlite3_file` of the main database (owned by the connection, valid while it is
    // open) into `file`. xSync is that file's own method, called with a valid flag.
    let rc = unsafe {
        let rc = ffi::sqlite3_file_control(
            conn.handle(),
            c"main".as_ptr(),
            ffi::SQLITE_FCNTL_FILE_POINTER,
            std::ptr::from_mut(&mut file).cast(),
        );
        if rc != ffi::SQLITE_OK || file.is_null() || (*file).pMethods.is_null() {
            rc
        } else {
            match (*(*file).pMethods).xSync {
                Some(sync) => sync(file, ffi::SQLITE_SYNC_NORMAL),
                None => ffi::SQLITE_OK,
            }
        }
    };
    if rc == ffi::SQLITE_OK {
        Ok(())
    } else {
        Err(StoreError::Sqlite(rusqlite::Error::SqliteFailure(
            ffi::Error::new(rc),
            Some("syncing the database file".into()),
        )))
    }
}

/// How far a checkpoint got, in pages of the write-ahead log.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct WalProgress {
    /// Another connection's checkpoint was running: this one copied nothing.
    pub busy: bool,
    /// Pages in the log.
    pub logged: i64,
    /// Pages of it now copied into the database file.
    pub copied: i64,
}

impl WalProgress {
    /// All of the log is in the database file: the next commit starts it again from its
    /// beginning (unless a reader still uses its end).
    pub(crate) fn complete(self) -> bool {
        !self.busy && self.logged == self.copied
    }
}

/// `PRAGMA wal_checkpoint(PASSIVE)` on `conn`: copies what it can without waiting for
/// anyone. Another checkpoint already running is not an error: it comes back `busy`.
pub(crate) fn passive_checkpoint(conn: &Connection) -> Result<WalProgress, StoreError> {
    let (busy, logged, copied): (i64, i64, i64) =
        conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |row| {
            Ok((row.get(0)?, row.get(1)?, row.get(2)?))
        })?;
    Ok(WalProgress {
        busy: busy != 0,
        logged,
        copied,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A WAL-mode database in the temp directory, removed when dropped.
    struct TempDb(std::path::PathBuf);

    impl Drop for TempDb {
        fn drop(&mut self) {
            for suffix in ["", "-wal", "-shm"] {
                let mut path = self.0.clone().into_os_string();
                path.push(suffix);
                let _ = std::fs::remove_file(path);
            }
        }
    }

    fn wal_db() -> (TempDb, Connection) {
        let path = std::env::temp_dir().join(format!("omweso-ckpt-{}.db", uuid::Uuid::new_v4()));
        let conn = Connection::open(&path).unwrap();
        let mode: String = conn
            .query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))
            .unwrap();
        assert_eq!(mode, "wal");
        conn.pragma_update(None, "wal_autocheckpoint", 0).unwrap();
        conn.execute_batch("CREATE TABLE t (x INTEGER)").unwrap();
        (TempDb(path), conn)
    }

    #[test]
    fn a_pass_copies_and_syncs_only_when_something_was_committed() {
        let (db, writer) = wal_db();
        let checkpointer = Connection::open(&db.0).unwrap();
        let mut last_synced = None;
        // The table's creation is in the log: copied, synced, the writer asked to finish.
        assert!(pass(&checkpointer, &mut last_synced).unwrap());
        let after_first = last_synced.expect("a synced state");
        assert!(after_first.complete());
        assert!(after_first.logged > 0);
        // Nothing committed since: an idle server's checkpointer does nothing.
        assert!(!pass(&checkpointer, &mut last_synced).unwrap());
        assert!(!pass(&checkpointer, &mut last_synced).unwrap());
        assert_eq!(last_synced, Some(after_first));
        // A commit (which starts the log again, as it was all copied) is work again.
        writer.execute("INSERT INTO t VALUES (1)", []).unwrap();
        assert!(pass(&checkpointer, &mut last_synced).unwrap());
        assert_ne!(last_synced, Some(after_first));
    }

    #[test]
    fn the_database_file_is_synced_through_sqlites_handle() {
        let (db, writer) = wal_db();
        writer.execute("INSERT INTO t VALUES (1)", []).unwrap();
        let checkpointer = Connection::open(&db.0).unwrap();
        sync_database_file(&checkpointer).unwrap();
        // The connection is intact after the sync: its locks and its file still work.
        let rows: i64 = checkpointer
            .query_row("SELECT COUNT(*) FROM t", [], |r| r.get(0))
            .unwrap();
        assert_eq!(rows, 1);
    }

    #[test]
    fn progress_is_complete_only_when_everything_was_copied_by_this_checkpoint() {
        let done = WalProgress {
            busy: false,
            logged: 7,
            copied: 7,
        };
        assert!(done.complete());
        assert!(!WalProgress { copied: 6, ..done }.complete());
        assert!(!WalProgress { busy: true, ..done }.complete());
    }
}
