//! A small pool of threads for the rules engine's heavier work (listing a position's legal
//! moves with what each start does, rebuilding a game from its log), so that it never runs on the async
//! workers that carry every socket. Its queue is bounded: when it is full, callers wait
//! for a place (back-pressure on the games asking), never an unbounded backlog.

use std::sync::{Arc, Mutex};
use std::thread;

use tokio::sync::{mpsc, oneshot};

use crate::metrics::METRICS;

/// Jobs waiting for a thread at most; more callers wait to queue.
pub const QUEUE: usize = 256;

type Job = Box<dyn FnOnce() + Send + 'static>;

/// A handle to the pool; cheap to clone. The threads end when every handle is dropped.
#[derive(Clone, Debug)]
pub struct EnginePool {
    jobs: mpsc::Sender<Job>,
}

/// The pool stopped (the server is shutting down) or the job panicked.
#[derive(Debug, thiserror::Error)]
#[error("the engine pool could not run this job")]
pub struct PoolGone;

impl EnginePool {
    /// Starts `threads` threads (at least one) at low priority, so that the sockets' own
    /// threads win when the machine is short of CPU.
    pub fn start(threads: usize) -> std::io::Result<EnginePool> {
        EnginePool::start_named("omweso-engine", threads)
    }

    /// As [`EnginePool::start`], the threads named `{name}-N` (another pool of the same
    /// kind: the analysis board's searches).
    pub fn start_named(name: &str, threads: usize) -> std::io::Result<EnginePool> {
        let (jobs, queue) = mpsc::channel::<Job>(QUEUE);
        let queue = Arc::new(Mutex::new(queue));
        for n in 0..threads.max(1) {
            let queue = queue.clone();
            thread::Builder::new()
                .name(format!("{name}-{n}"))
                .spawn(move || work(&queue))?;
        }
        Ok(EnginePool { jobs })
    }

    /// A pool of one thread per core.
    pub fn per_core() -> std::io::Result<EnginePool> {
        EnginePool::start(thread::available_parallelism().map_or(1, usize::from))
    }

    /// Runs `job` on a pool thread and returns its result.
    pub async fn run<T, F>(&self, job: F) -> Result<T, PoolGone>
    where
        T: Send + 'static,
        F: FnOnce() -> T + Send + 'static,
    {
        let (reply, answer) = oneshot::channel();
        let job: Job = Box::new(move || {
            let _ = reply.send(job());
        });
        METRICS.engine_jobs_queued.inc();
        let sent = self.jobs.send(job).await;
        METRICS.engine_jobs_queued.dec();
        sent.map_err(|_| PoolGone)?;
        answer.await.map_err(|_| PoolGone)
    }
}

fn work(queue: &Mutex<mpsc::Receiver<Job>>) {
    lower_priority();
    loop {
        // One thread waits on the queue at a time; the others wait for the lock. The lock
        // is released before the job runs.
        let job = match queue.lock() {
            Ok(mut queue) => queue.blocking_recv(),
            Err(_) => return,
        };
        let Some(job) = job else { return };
        let started = std::time::Instant::now();
        // A panicking job drops its reply (its caller sees PoolGone); the thread goes on.
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job));
        METRICS.engine_job.observe(started.elapsed());
    }
}

/// Nice 5: engine work yields to the threads that carry moves and sockets.
fn lower_priority() {
    #[cfg(unix)]
    // SAFETY: setpriority on the calling thread (who = 0 with PRIO_PROCESS acts on the
    // calling thread on Linux) only changes its scheduling priority.
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, 0, 5);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn runs_jobs_and_survives_a_panicking_one() {
        let pool = EnginePool::start(2).unwrap();
        assert_eq!(pool.run(|| 6 * 7).await.unwrap(), 42);
        let panicked = pool.run(|| -> u32 { panic!("a bad job") }).await;
        assert!(panicked.is_err());
        let results =
            futures_util::future::join_all((0..100u64).map(|i| pool.run(move || i * i))).await;
        let total: u64 = results.into_iter().map(Result::unwrap).sum();
        assert_eq!(total, (0..100u64).map(|i| i * i).sum::<u64>());
    }

    #[tokio::test]
    async fn jobs_run_off_the_calling_thread() {
        let pool = EnginePool::start(1).unwrap();
        let name = pool
            .run(|| thread::current().name().map(str::to_owned))
            .await
            .unwrap();
        assert_eq!(name.as_deref(), Some("omweso-engine-0"));
    }
}
