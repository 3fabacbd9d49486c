//! The threads the computer player thinks on. A search takes up to about a second of one
//! core (level 8), a thousand times a legal-move listing, so it has threads of its own:
//! on the engine pool it would hold up the listings every human move waits for, and on the
//! async workers every socket. The pool has one thread per core, at the lowest priority
//! (nice 19: the async workers, the writer and the engine pool all come first), and a
//! bounded queue that is never waited on: a game whose search finds the queue full asks
//! again a little later ([`Busy`]), so a crowd of computer games slows the computer's
//! answers, never a human's move.
//!
//! The queue is fair ([`crate::pools::fair_queue`]): searches are taken round-robin by the
//! address that created the game (an IPv6 /64), then by session within an address, so one
//! player's hundred games wait behind each other, and a newcomer's first search waits for
//! at most one search of each other address (docs/security.md). A game knows its asker
//! from its creation ([`SearchPool::asking_for`]); after a restart the address is not
//! known (it is not stored), and the game's session stands for it.
//!
//! Each search carries a `stop` flag ([`Searching`]): raised when the game no longer
//! wants the answer (it ended, the position changed, its task stopped), it ends a search
//! under way early and skips one still queued.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;

use tokio::sync::oneshot;
use uuid::Uuid;

use crate::address::AddressKey;
use crate::metrics::METRICS;
use crate::pools::fair::{FairPool, PoolSettings};

/// Searches waiting for a thread at most, on the whole server; past it a game asks again
/// later ([`Busy`]).
pub const QUEUE: usize = 256;

/// Searches waiting at most for the games of one address: a quarter of the queue, so
/// that three other addresses' players still find room.
pub const QUEUE_PER_ADDRESS: usize = QUEUE / 4;

/// Whose turn a search waits for: the address that created the game, or, for a game
/// whose address is not known (restored after a restart), its session alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Group {
    Address(AddressKey),
    Session(Uuid),
}

/// Who asks for a game's searches: its group, and the session that created it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Asker {
    pub group: Group,
    pub session: Uuid,
}

impl Asker {
    /// The asker for a game created by `session` from `address` (`None`: not known).
    #[must_use]
    pub fn of(address: Option<AddressKey>, session: Uuid) -> Asker {
        Asker {
            group: address.map_or(Group::Session(session), Group::Address),
            session,
        }
    }
}

/// A handle to the pool, asking as one [`Asker`]; cheap to clone. The threads end when
/// every handle is dropped.
#[derive(Clone, Debug)]
pub struct SearchPool {
    pool: FairPool<Group>,
    asker: Asker,
}

/// The queue (or the share of the game's address in it) is full, or the pool stopped: ask
/// again later.
#[derive(Debug, thiserror::Error)]
#[error("the search queue is full")]
pub struct Busy;

/// A search asked for: its answer, and the flag that stops it. Dropping it raises the
/// flag, so a game that stops waiting (ends, moves on, unloads) never leaves a search
/// running for nobody.
#[derive(Debug)]
pub struct Searching<T> {
    pub answer: oneshot::Receiver<T>,
    stop: Arc<AtomicBool>,
}

impl<T> Searching<T> {
    /// Stops the search (a queued one is skipped; one under way ends early).
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

impl<T> Drop for Searching<T> {
    fn drop(&mut self) {
        self.stop();
    }
}

impl SearchPool {
    /// Starts `threads` threads (at least one) at the lowest priority.
    pub fn start(threads: usize) -> std::io::Result<SearchPool> {
        let pool = FairPool::start(PoolSettings {
            threads,
            name: "omweso-search",
            nice: 19,
            queue: QUEUE,
            per_group: QUEUE_PER_ADDRESS,
        })?;
        Ok(SearchPool {
            pool,
            asker: Asker::of(None, Uuid::nil()),
        })
    }

    /// A pool of one thread per core.
    pub fn per_core() -> std::io::Result<SearchPool> {
        SearchPool::start(thread::available_parallelism().map_or(1, usize::from))
    }

    /// The same pool, its searches asked as `asker` (a game's, from its creation).
    #[must_use]
    pub fn asking_for(&self, asker: Asker) -> SearchPool {
        SearchPool {
            pool: self.pool.clone(),
            asker,
        }
    }

    /// How many searches run at once at most.
    #[must_use]
    pub fn threads(&self) -> usize {
        self.pool.threads()
    }

    /// Queues `search` (given the stop flag, which it should watch) without waiting, in
    /// its asker's turn: [`Busy`] when the queue or the asker's address's share of it is
    /// full. The answer is dropped, unsent, if the search panics or was stopped before it
    /// began.
    pub fn try_run<T, F>(&self, search: F) -> Result<Searching<T>, Busy>
    where
        T: Send + 'static,
        F: FnOnce(&AtomicBool) -> T + Send + 'static,
    {
        let (reply, answer) = oneshot::channel();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let job = move || {
            METRICS.searches_queued.dec();
            if flag.load(Ordering::Relaxed) {
                return;
            }
            let started = std::time::Instant::now();
            let result = search(&flag);
            METRICS.search.observe(started.elapsed());
            let _ = reply.send(result);
        };
        METRICS.searches_queued.inc();
        match self
            .pool
            .try_push(self.asker.group, self.asker.session, job)
        {
            Ok(()) => {
                METRICS.searches.inc();
                Ok(Searching { answer, stop })
            }
            Err(_) => {
                METRICS.searches_queued.dec();
                METRICS.searches_busy.inc();
                Err(Busy)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[tokio::test]
    async fn runs_searches_off_the_calling_thread_and_survives_a_panic() {
        let pool = SearchPool::start(1).unwrap();
        let mut name = pool
            .try_run(|_| thread::current().name().map(str::to_owned))
            .unwrap();
        assert_eq!(
            (&mut name.answer).await.unwrap().as_deref(),
            Some("omweso-search-0")
        );
        let mut panicked = pool.try_run(|_| -> u32 { panic!("a bad search") }).unwrap();
        assert!((&mut panicked.answer).await.is_err());
        let mut after = pool.try_run(|_| 6 * 7).unwrap();
        assert_eq!((&mut after.answer).await.unwrap(), 42);
    }

    #[tokio::test]
    async fn dropping_a_search_stops_it_and_a_full_queue_is_refused_at_once() {
        let pool = SearchPool::start(1).unwrap();
        // The one thread runs a search that ends only when stopped.
        let (began, started) = std::sync::mpsc::channel();
        let mut long = pool
            .try_run(move |stop: &AtomicBool| {
                let _ = began.send(());
                while !stop.load(Ordering::Relaxed) {
                    thread::sleep(Duration::from_millis(1));
                }
                "stopped"
            })
            .unwrap();
        started.recv().unwrap();
        // One asker's share of the queue fills up behind it, and then refuses without
        // waiting; another address still finds room.
        let queued: Vec<_> = (0..QUEUE_PER_ADDRESS)
            .map(|i| pool.try_run(move |_| i).unwrap())
            .collect();
        assert!(pool.try_run(|_| 0).is_err());
        let elsewhere = pool.asking_for(Asker::of(
            Some(AddressKey::of("203.0.113.9".parse().unwrap())),
            Uuid::from_u128(7),
        ));
        let other = elsewhere.try_run(|_| 99).unwrap();
        // Dropped before they began: each is skipped, its answer never sent.
        let skipped: Vec<_> = queued.iter().map(|s| s.stop.clone()).collect();
        drop(queued);
        assert!(skipped.iter().all(|s| s.load(Ordering::Relaxed)));
        long.stop();
        assert_eq!((&mut long.answer).await.unwrap(), "stopped");
        // The other address's search was taken second, before the skipped ones.
        let mut other = other;
        assert_eq!((&mut other.answer).await.unwrap(), 99);
        // Once the thread has skipped through the queue, there is room again.
        let mut next = loop {
            if let Ok(next) = pool.try_run(|_| 7) {
                break next;
            }
            tokio::time::sleep(Duration::from_millis(1)).await;
        };
        assert_eq!((&mut next.answer).await.unwrap(), 7);
    }
}
