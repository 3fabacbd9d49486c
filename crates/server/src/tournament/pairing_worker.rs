//! One thread for every tournament's pairing (issue 25, finding 4). A Swiss pairing of a
//! big field runs a weighted matching of about 85 ms at 999 players and needs large
//! tables; run on the async workers it held up every game's moves (a probe game's p99 went
//! from 2 ms to 284 ms with six directors looping it), and each worker kept its own
//! tables (35 -> 329 MB). Here it runs on a thread of its own, one pairing at a time,
//! behind a short bounded queue: the games never wait for it, and its memory is one
//! thread's.

use std::sync::mpsc::{sync_channel, SyncSender, TrySendError};

/// Pairings waiting for the thread at most; past it a director is asked to try again.
const QUEUE: usize = 8;

type Job = Box<dyn FnOnce() + Send>;

/// The pairing thread, shared by every tournament.
#[derive(Clone, Debug)]
pub struct PairingWorker {
    tx: SyncSender<Job>,
}

/// Why a pairing was not computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PairingBusy {
    #[error("the server is pairing other tournaments' rounds just now; try again in a moment")]
    Queue,
    #[error("the pairing could not be computed; try again")]
    Lost,
}

impl PairingWorker {
    /// Starts the thread; it ends when the last handle is dropped.
    pub fn start() -> std::io::Result<PairingWorker> {
        let (tx, rx) = sync_channel::<Job>(QUEUE);
        std::thread::Builder::new()
            .name("pairing".into())
            .spawn(move || {
                for job in rx {
                    job();
                }
            })?;
        Ok(PairingWorker { tx })
    }

    /// Runs `work` on the pairing thread and waits for its answer without holding an
    /// async worker. A panic in `work` loses that answer only: the thread goes on.
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, PairingBusy> {
        let (reply, answer) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move || {
            if let Ok(value) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)) {
                let _ = reply.send(value);
            }
        });
        match self.tx.try_send(job) {
            Ok(()) => answer.await.map_err(|_| PairingBusy::Lost),
            Err(TrySendError::Full(_)) => Err(PairingBusy::Queue),
            Err(TrySendError::Disconnected(_)) => Err(PairingBusy::Lost),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn work_runs_on_the_pairing_thread_and_a_panic_loses_only_its_answer() {
        let worker = PairingWorker::start().expect("a thread");
        let name = worker
            .run(|| std::thread::current().name().map(str::to_owned))
            .await;
        assert_eq!(name, Ok(Some("pairing".to_owned())));
        let lost = worker.run(|| -> u32 { panic!("a bug in a pairing") }).await;
        assert_eq!(lost, Err(PairingBusy::Lost));
        assert_eq!(worker.run(|| 6 * 7).await, Ok(42));
    }

    #[tokio::test]
    async fn a_full_queue_is_refused_at_once() {
        let worker = PairingWorker::start().expect("a thread");
        let (hold, held) = std::sync::mpsc::channel::<()>();
        // The thread is busy with the first job; eight more fill the queue.
        let first = {
            let w = worker.clone();
            tokio::spawn(async move { w.run(move || held.recv().is_ok()).await })
        };
        let mut waiting = Vec::new();
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        for _ in 0..QUEUE {
            let w = worker.clone();
            waiting.push(tokio::spawn(async move { w.run(|| 1).await }));
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        assert_eq!(worker.run(|| 1).await, Err(PairingBusy::Queue));
        let _ = hold.send(());
        assert_eq!(first.await.ok(), Some(Ok(true)));
        for w in waiting {
            assert_eq!(w.await.ok(), Some(Ok(1)));
        }
    }
}
