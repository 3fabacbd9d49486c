//! Threads that take their jobs from a [`FairQueue`]: the computer's search pool
//! (`pools::search`) and the analysis engine's threads (`analysis::service`). A job is
//! queued without waiting (refused when its queue or its group's share is full), and the
//! threads take the next by the queue's turns, so one group's flood waits behind itself.
//!
//! The threads end when every handle to the pool is dropped.

use std::hash::Hash;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread;

use uuid::Uuid;

use crate::pools::fair_queue::FairQueue;
pub use crate::pools::fair_queue::Full;

type Job = Box<dyn FnOnce() + Send + 'static>;

/// A handle to the pool; cheap to clone.
pub struct FairPool<G> {
    handle: Arc<Handle<G>>,
    threads: usize,
}

impl<G> Clone for FairPool<G> {
    fn clone(&self) -> Self {
        FairPool {
            handle: Arc::clone(&self.handle),
            threads: self.threads,
        }
    }
}

impl<G> std::fmt::Debug for FairPool<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FairPool")
            .field("threads", &self.threads)
            .finish_non_exhaustive()
    }
}

/// Closes the pool when the last handle goes.
struct Handle<G> {
    shared: Arc<Shared<G>>,
}

impl<G> Drop for Handle<G> {
    fn drop(&mut self) {
        self.shared.lock().closed = true;
        self.shared.ready.notify_all();
    }
}

struct Shared<G> {
    queue: Mutex<Queued<G>>,
    ready: Condvar,
}

struct Queued<G> {
    jobs: FairQueue<G, Job>,
    closed: bool,
}

impl<G> Shared<G> {
    /// The queue. Every change under the lock is one push or pop, so a poisoned lock is
    /// taken as it is.
    fn lock(&self) -> MutexGuard<'_, Queued<G>> {
        self.queue.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// How a pool's threads run and how much it queues.
#[derive(Clone, Copy, Debug)]
pub struct PoolSettings {
    /// Threads (at least one), named `{name}-N`.
    pub threads: usize,
    pub name: &'static str,
    /// The threads' nice value (higher yields more).
    pub nice: i32,
    /// Jobs waiting at most, in all.
    pub queue: usize,
    /// Jobs waiting at most from one group.
    pub per_group: usize,
}

impl<G: Clone + Eq + Hash + Send + 'static> FairPool<G> {
    /// Starts the threads.
    pub fn start(settings: PoolSettings) -> std::io::Result<FairPool<G>> {
        let threads = settings.threads.max(1);
        let shared = Arc::new(Shared {
            queue: Mutex::new(Queued {
                jobs: FairQueue::new(settings.queue, settings.per_group),
                closed: false,
            }),
            ready: Condvar::new(),
        });
        for n in 0..threads {
            let shared = Arc::clone(&shared);
            let nice = settings.nice;
            thread::Builder::new()
                .name(format!("{}-{n}", settings.name))
                .spawn(move || work(&shared, nice))?;
        }
        Ok(FairPool {
            handle: Arc::new(Handle { shared }),
            threads,
        })
    }

    /// How many jobs run at once at most.
    #[must_use]
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Jobs waiting, in all.
    #[must_use]
    pub fn queued(&self) -> usize {
        self.handle.shared.lock().jobs.len()
    }

    /// Queues `job` for `member` of `group` without waiting; refused (the job dropped,
    /// unrun) when the queue or the group's share is full, or the pool is closing.
    pub fn try_push(
        &self,
        group: G,
        member: Uuid,
        job: impl FnOnce() + Send + 'static,
    ) -> Result<(), Full> {
        let shared = &self.handle.shared;
        let mut queued = shared.lock();
        if queued.closed {
            return Err(Full::Queue);
        }
        queued
            .jobs
            .push(group, member, Box::new(job))
            .map_err(|(full, _)| full)?;
        drop(queued);
        shared.ready.notify_one();
        Ok(())
    }
}

fn work<G: Clone + Eq + Hash>(shared: &Shared<G>, nice: i32) {
    set_priority(nice);
    loop {
        let job = {
            let mut queued = shared.lock();
            loop {
                if let Some((_, _, job)) = queued.jobs.pop() {
                    break job;
                }
                if queued.closed {
                    return;
                }
                queued = shared
                    .ready
                    .wait(queued)
                    .unwrap_or_else(PoisonError::into_inner);
            }
        };
        // A panicking job drops its reply (its asker sees no answer); the thread goes on.
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job));
    }
}

/// The calling thread's nice value.
fn set_priority(nice: i32) {
    #[cfg(unix)]
    // SAFETY: setpriority on the calling thread (who = 0 with PRIO_PROCESS acts on the
    // calling thread on Linux) only changes its scheduling priority.
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, 0, nice);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;
    use std::time::Duration;

    /// One thread, held busy; jobs queued meanwhile run by the turns: the second group's
    /// one job second, not after the first group's six.
    #[test]
    fn the_threads_take_jobs_by_the_queues_turns() {
        let pool = FairPool::<&'static str>::start(PoolSettings {
            threads: 1,
            name: "fair-test",
            nice: 0,
            queue: 8,
            per_group: 6,
        })
        .unwrap();
        let (gate, held) = mpsc::channel::<()>();
        let (done, order) = mpsc::channel::<u32>();
        pool.try_push("a", Uuid::nil(), move || {
            let _ = held.recv();
        })
        .unwrap();
        // Until the thread has taken the gate job, it counts in the queue: wait for that.
        while pool.queued() > 0 {
            thread::sleep(Duration::from_millis(1));
        }
        for i in 0..6 {
            let done = done.clone();
            pool.try_push("a", Uuid::nil(), move || done.send(i).unwrap())
                .unwrap();
        }
        // A seventh of a's is past its share of six; b's one still fits.
        assert_eq!(pool.try_push("a", Uuid::nil(), || ()), Err(Full::Group));
        let late = done.clone();
        pool.try_push("b", Uuid::nil(), move || late.send(100).unwrap())
            .unwrap();
        assert_eq!(pool.queued(), 7);
        gate.send(()).unwrap();
        let seen: Vec<u32> = (0..7)
            .map(|_| order.recv_timeout(Duration::from_secs(5)).unwrap())
            .collect();
        assert_eq!(seen, [0, 100, 1, 2, 3, 4, 5]);
    }
}
