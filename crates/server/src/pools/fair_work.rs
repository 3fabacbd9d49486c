//! Threads that run jobs asked for by requests, in turns (docs/security.md, "fair
//! queues"): a [`FairQueue`](crate::pools::fair_queue) by address (an IPv6 /64), then by
//! session, so that one address's burst waits behind itself and a newcomer waits for at
//! most one job of every other address. Two pools are made of it: the **file threads**
//! (a game file read for the analysis board, an export's replays), apart from the games'
//! engine pool so that no file ever delays a game's legal moves; and the **password
//! threads** (argon2id hashes, zxcvbn), so that a flood of log-ins from many addresses
//! does not keep a person's own log-in waiting.
//!
//! A job whose asker has gone (its request answered with an error, or dropped by the
//! client) or whose deadline has passed before its turn comes is skipped, not run: what
//! was refused costs nothing more.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::oneshot;
use uuid::Uuid;

use crate::address::AddressKey;
use crate::pools::fair::{FairPool, Full, PoolSettings};

/// How often a job that waits for room ([`FairWork::run_waiting`]) asks again.
const ROOM_EVERY: Duration = Duration::from_millis(50);

/// Why a job was not run; each pool's callers say it in their own words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WorkRefused {
    /// The asker's address has its share of the queue waiting already.
    #[error("the address has its share of the queue waiting")]
    AddressBusy,
    /// The whole queue is full.
    #[error("the queue is full")]
    Busy,
    /// Its turn came after its deadline.
    #[error("its turn came after its deadline")]
    TooLate,
    #[error("the job ended without an answer")]
    Gone,
}

/// How a pool runs and how much it queues.
#[derive(Clone, Copy, Debug)]
pub struct FairWorkSettings {
    /// Threads (at least one), named `{name}-N`.
    pub threads: usize,
    pub name: &'static str,
    /// The threads' nice value (higher yields more).
    pub nice: i32,
    /// Jobs waiting for each thread at most (besides the one it runs).
    pub waiting_per_thread: usize,
    /// Jobs one address may have waiting at most.
    pub waiting_per_address: usize,
}

/// The pool's handle; cheap to clone.
#[derive(Clone, Debug)]
pub struct FairWork {
    threads: FairPool<AddressKey>,
    waiting_per_address: usize,
}

/// Raised when the asker's future is dropped before its answer came: the job, if still
/// waiting, is then skipped.
struct Abandoned(Arc<AtomicBool>);

impl Drop for Abandoned {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// The file threads' settings: at nice 10, below the games' engine pool.
#[must_use]
pub fn file_threads(threads: usize) -> FairWorkSettings {
    FairWorkSettings {
        threads,
        name: "omweso-files",
        nice: 10,
        waiting_per_thread: 16,
        waiting_per_address: 4,
    }
}

impl FairWork {
    /// Starts the threads.
    pub fn start(settings: FairWorkSettings) -> std::io::Result<FairWork> {
        let threads = settings.threads.max(1);
        Ok(FairWork {
            threads: FairPool::start(PoolSettings {
                threads,
                name: settings.name,
                nice: settings.nice,
                queue: threads * settings.waiting_per_thread,
                per_group: settings.waiting_per_address,
            })?,
            waiting_per_address: settings.waiting_per_address,
        })
    }

    /// Jobs one address may have waiting at most.
    #[must_use]
    pub fn waiting_per_address(&self) -> usize {
        self.waiting_per_address
    }

    /// Runs `job` in the turn of `member` at `address`; refused at once when the queue or
    /// the address's share of it is full, and skipped when its turn comes after
    /// `deadline` or after this future was dropped.
    pub async fn run<T, F>(
        &self,
        address: AddressKey,
        member: Uuid,
        deadline: Instant,
        job: F,
    ) -> Result<T, WorkRefused>
    where
        T: Send + 'static,
        F: FnOnce() -> T + Send + 'static,
    {
        let (answer, abandoned) = self
            .push(address, member, deadline, job)
            .map_err(|(refused, _)| refused)?;
        let _abandoned = abandoned;
        answer.await.map_err(|_| WorkRefused::Gone)?
    }

    /// As [`FairWork::run`], but when the queue has no room it waits for some (asking
    /// again every [`ROOM_EVERY`]) until `deadline`: an export's next game, which its
    /// address's own other jobs should delay, not cut.
    pub async fn run_waiting<T, F>(
        &self,
        address: AddressKey,
        member: Uuid,
        deadline: Instant,
        job: F,
    ) -> Result<T, WorkRefused>
    where
        T: Send + 'static,
        F: FnOnce() -> T + Send + 'static,
    {
        let mut job = Some(job);
        loop {
            let Some(next) = job.take() else {
                return Err(WorkRefused::Gone);
            };
            match self.push(address, member, deadline, next) {
                Ok((answer, abandoned)) => {
                    let _abandoned = abandoned;
                    return answer.await.map_err(|_| WorkRefused::Gone)?;
                }
                Err((WorkRefused::AddressBusy | WorkRefused::Busy, back))
                    if Instant::now() + ROOM_EVERY < deadline =>
                {
                    job = back;
                    tokio::time::sleep(ROOM_EVERY).await;
                }
                Err((refused, _)) => return Err(refused),
            }
        }
    }

    /// Queues `job`; on a refusal the job comes back (when it was not consumed) with why.
    #[allow(clippy::type_complexity)]
    fn push<T, F>(
        &self,
        address: AddressKey,
        member: Uuid,
        deadline: Instant,
        job: F,
    ) -> Result<(oneshot::Receiver<Result<T, WorkRefused>>, Abandoned), (WorkRefused, Option<F>)>
    where
        T: Send + 'static,
        F: FnOnce() -> T + Send + 'static,
    {
        let (reply, answer) = oneshot::channel();
        let gone = Arc::new(AtomicBool::new(false));
        let skipped = gone.clone();
        // The job travels in a slot the refusal can take it back from: a refused push
        // drops the closure, and its `job` would be lost with it.
        let slot = Arc::new(std::sync::Mutex::new(Some(job)));
        let held = slot.clone();
        let queued = move || {
            let job = held
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .take();
            let Some(job) = job else { return };
            if skipped.load(Ordering::Relaxed) {
                return;
            }
            if Instant::now() >= deadline {
                let _ = reply.send(Err(WorkRefused::TooLate));
                return;
            }
            let _ = reply.send(Ok(job()));
        };
        match self.threads.try_push(address, member, queued) {
            Ok(()) => Ok((answer, Abandoned(gone))),
            Err(full) => {
                let back = slot
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .take();
                let why = match full {
                    Full::Group => WorkRefused::AddressBusy,
                    Full::Queue => WorkRefused::Busy,
                };
                Err((why, back))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::IpAddr;
    use std::sync::mpsc;

    fn address(last: u8) -> AddressKey {
        AddressKey::of(IpAddr::from([198, 51, 100, last]))
    }

    fn far() -> Instant {
        Instant::now() + Duration::from_secs(30)
    }

    /// A job of `at` that holds the pool's one thread until the gate is opened (or
    /// dropped): returned once the thread has taken it, so that what is queued after it
    /// waits.
    async fn hold(
        work: &FairWork,
        at: AddressKey,
    ) -> (
        mpsc::Sender<()>,
        tokio::task::JoinHandle<Result<(), WorkRefused>>,
    ) {
        let (gate, held) = mpsc::channel::<()>();
        let (started, running) = tokio::sync::oneshot::channel::<()>();
        let busy = tokio::spawn({
            let work = work.clone();
            async move {
                work.run(at, Uuid::nil(), far(), move || {
                    let _ = started.send(());
                    let _ = held.recv();
                })
                .await
            }
        });
        running.await.unwrap();
        (gate, busy)
    }

    /// Until `count` jobs wait.
    async fn until_queued(work: &FairWork, count: usize) {
        while work.threads.queued() < count {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }

    /// One thread held busy; an address's five jobs: four wait, the fifth is refused at
    /// once; another address's one job runs before the first address's waiting four.
    #[tokio::test]
    async fn an_address_waits_behind_itself_and_past_its_share_is_refused() {
        let work = FairWork::start(file_threads(1)).unwrap();
        let (gate, busy) = hold(&work, address(1)).await;
        let (done, order) = mpsc::channel::<&'static str>();
        let mut flood = Vec::new();
        for n in 0..work.waiting_per_address() {
            let pool = work.clone();
            let done = done.clone();
            flood.push(tokio::spawn(async move {
                pool.run(address(1), Uuid::nil(), far(), move || {
                    let _ = done.send("flood");
                })
                .await
            }));
            until_queued(&work, n + 1).await;
        }
        let refused = work.run(address(1), Uuid::nil(), far(), || ()).await;
        assert_eq!(refused, Err(WorkRefused::AddressBusy));
        let newcomer = tokio::spawn({
            let work = work.clone();
            let done = done.clone();
            async move {
                work.run(address(2), Uuid::nil(), far(), move || {
                    let _ = done.send("newcomer");
                })
                .await
            }
        });
        until_queued(&work, work.waiting_per_address() + 1).await;
        gate.send(()).unwrap();
        busy.await.unwrap().unwrap();
        newcomer.await.unwrap().unwrap();
        for job in flood {
            job.await.unwrap().unwrap();
        }
        drop(done);
        let order: Vec<_> = order.iter().collect();
        assert_eq!(order, ["flood", "newcomer", "flood", "flood", "flood"]);
    }

    /// A job whose asker went away while it waited, and one whose time was up when its
    /// turn came, are not run.
    #[tokio::test]
    async fn a_job_nobody_waits_for_any_more_is_not_run() {
        let work = FairWork::start(file_threads(1)).unwrap();
        let (gate, busy) = hold(&work, address(1)).await;
        let ran = Arc::new(AtomicBool::new(false));
        let dropped = tokio::spawn({
            let work = work.clone();
            let ran = ran.clone();
            async move {
                work.run(address(2), Uuid::nil(), far(), move || {
                    ran.store(true, Ordering::Relaxed);
                })
                .await
            }
        });
        until_queued(&work, 1).await;
        let late = {
            let work = work.clone();
            let ran = ran.clone();
            let soon = Instant::now() + Duration::from_millis(50);
            tokio::spawn(async move {
                work.run(address(3), Uuid::nil(), soon, move || {
                    ran.store(true, Ordering::Relaxed);
                })
                .await
            })
        };
        until_queued(&work, 2).await;
        dropped.abort();
        let _ = dropped.await;
        tokio::time::sleep(Duration::from_millis(60)).await;
        gate.send(()).unwrap();
        busy.await.unwrap().unwrap();
        assert_eq!(late.await.unwrap(), Err(WorkRefused::TooLate));
        // The pool ran everything it had: the dropped job was taken and skipped.
        assert_eq!(work.run(address(4), Uuid::nil(), far(), || 7).await, Ok(7));
        assert!(!ran.load(Ordering::Relaxed));
    }

    /// A job that waits for room gets it when the address's own jobs are done.
    #[tokio::test]
    async fn a_waiting_job_is_queued_when_room_comes() {
        let work = FairWork::start(file_threads(1)).unwrap();
        let (gate, busy) = hold(&work, address(1)).await;
        let mut flood = Vec::new();
        for n in 0..work.waiting_per_address() {
            let pool = work.clone();
            flood.push(tokio::spawn(async move {
                pool.run(address(1), Uuid::nil(), far(), || ()).await
            }));
            until_queued(&work, n + 1).await;
        }
        let waiting = tokio::spawn({
            let work = work.clone();
            async move {
                work.run_waiting(address(1), Uuid::nil(), far(), || 42)
                    .await
            }
        });
        // It found no room, and waits for some.
        tokio::time::sleep(Duration::from_millis(120)).await;
        assert!(!waiting.is_finished());
        gate.send(()).unwrap();
        busy.await.unwrap().unwrap();
        for job in flood {
            job.await.unwrap().unwrap();
        }
        assert_eq!(waiting.await.unwrap(), Ok(42));
    }
}
