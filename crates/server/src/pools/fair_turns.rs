//! Turns at something only a few may do at once, given out in a
//! [`FairQueue`](crate::pools::fair_queue)'s order (by address, then by session) rather
//! than first come, first served: a semaphore whose waiters take turns. The password
//! checks use it (docs/security.md#accounts): with two hashes at a time and one queue for
//! everybody, 40 addresses sending log-ins within their own limits kept 659 of 800 waiting
//! past 5 s, a person's own log-in among them; in turns, a newcomer's waits for at most
//! one of every other address.
//!
//! A waiter that gives up (its patience ran out, or its request was dropped) leaves its
//! place to the next: a turn is never handed to nobody.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::sync::oneshot;
use uuid::Uuid;

use crate::address::AddressKey;
use crate::pools::fair_queue::{FairQueue, Full};
use crate::pools::fair_work::WorkRefused;

/// The turns; cheap to clone.
#[derive(Clone, Debug)]
pub struct FairTurns {
    shared: Arc<Mutex<Shared>>,
}

#[derive(Debug)]
struct Shared {
    free: usize,
    waiting: FairQueue<AddressKey, oneshot::Sender<Turn>>,
}

/// One turn; the next waiter (by the queue's turns) gets it when this is dropped.
#[derive(Debug)]
pub struct Turn {
    shared: Option<Arc<Mutex<Shared>>>,
}

impl Drop for Turn {
    fn drop(&mut self) {
        let Some(shared) = self.shared.take() else {
            return;
        };
        let mut state = shared.lock().unwrap_or_else(PoisonError::into_inner);
        while let Some((_, _, next)) = state.waiting.pop() {
            let handed = Turn {
                shared: Some(Arc::clone(&shared)),
            };
            match next.send(handed) {
                Ok(()) => return,
                // That waiter gave up: the turn comes back, unused (disarmed, so that its
                // own drop does not hand it on while this one does), for the next.
                Err(mut unused) => unused.shared = None,
            }
        }
        state.free += 1;
    }
}

impl FairTurns {
    /// `turns` at once; at most `waiting` waiting in all, `per_address` from one address.
    #[must_use]
    pub fn new(turns: usize, waiting: usize, per_address: usize) -> FairTurns {
        FairTurns {
            shared: Arc::new(Mutex::new(Shared {
                free: turns.max(1),
                waiting: FairQueue::new(waiting, per_address),
            })),
        }
    }

    /// A turn for `member` at `address`: at once if one is free and nobody waits, else
    /// when the queue's turns come to it, for at most `patience` (`TooLate`); refused at
    /// once when the queue or the address's share of it is full.
    pub async fn take(
        &self,
        address: AddressKey,
        member: Uuid,
        patience: Duration,
    ) -> Result<Turn, WorkRefused> {
        let answer = {
            let mut state = self.shared.lock().unwrap_or_else(PoisonError::into_inner);
            if state.free > 0 && state.waiting.is_empty() {
                state.free -= 1;
                return Ok(Turn {
                    shared: Some(Arc::clone(&self.shared)),
                });
            }
            let (tx, rx) = oneshot::channel();
            state
                .waiting
                .push(address, member, tx)
                .map_err(|(full, _)| match full {
                    Full::Group => WorkRefused::AddressBusy,
                    Full::Queue => WorkRefused::Busy,
                })?;
            rx
        };
        match tokio::time::timeout(patience, answer).await {
            Ok(Ok(turn)) => Ok(turn),
            Ok(Err(_)) => Err(WorkRefused::Gone),
            Err(_) => Err(WorkRefused::TooLate),
        }
    }

    /// Turns free now.
    #[must_use]
    pub fn free(&self) -> usize {
        self.shared
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .free
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::IpAddr;

    fn address(last: u8) -> AddressKey {
        AddressKey::of(IpAddr::from([198, 51, 100, last]))
    }

    const LONG: Duration = Duration::from_secs(60);

    /// One turn, held; an address queues three waiters, then another address one: the
    /// newcomer is served second, not fourth; past an address's share, refused at once.
    #[tokio::test]
    async fn turns_go_by_address_and_a_newcomer_waits_behind_one_of_each() {
        let turns = FairTurns::new(1, 16, 3);
        let held = turns.take(address(1), Uuid::nil(), LONG).await.unwrap();
        let (order_tx, mut order) = tokio::sync::mpsc::unbounded_channel();
        let mut waiting = Vec::new();
        for (i, who) in [(1, "flood"), (1, "flood"), (1, "flood"), (2, "newcomer")] {
            let turns = turns.clone();
            let order_tx = order_tx.clone();
            waiting.push(tokio::spawn(async move {
                let turn = turns.take(address(i), Uuid::nil(), LONG).await.unwrap();
                order_tx.send(who).unwrap();
                drop(turn);
            }));
            tokio::task::yield_now().await;
        }
        // Each waiter is in the queue before the next is spawned; one more from the
        // flooding address is past its share.
        while turns.shared.lock().unwrap().waiting.len() < 4 {
            tokio::task::yield_now().await;
        }
        assert_eq!(
            turns.take(address(1), Uuid::nil(), LONG).await.unwrap_err(),
            WorkRefused::AddressBusy
        );
        drop(held);
        for waiter in waiting {
            waiter.await.unwrap();
        }
        drop(order_tx);
        let mut seen = Vec::new();
        while let Some(who) = order.recv().await {
            seen.push(who);
        }
        assert_eq!(seen, ["flood", "newcomer", "flood", "flood"]);
        assert_eq!(turns.free(), 1);
    }

    /// A waiter whose patience ran out is refused, and the turn it would have had goes
    /// to the next; none is lost.
    #[tokio::test(start_paused = true)]
    async fn a_waiter_that_gave_up_leaves_its_turn_to_the_next() {
        let turns = FairTurns::new(1, 16, 4);
        let held = turns.take(address(1), Uuid::nil(), LONG).await.unwrap();
        let impatient = {
            let turns = turns.clone();
            tokio::spawn(async move {
                turns
                    .take(address(2), Uuid::nil(), Duration::from_secs(5))
                    .await
            })
        };
        tokio::task::yield_now().await;
        let patient = {
            let turns = turns.clone();
            tokio::spawn(async move { turns.take(address(3), Uuid::nil(), LONG).await })
        };
        tokio::time::sleep(Duration::from_secs(6)).await;
        assert_eq!(impatient.await.unwrap().unwrap_err(), WorkRefused::TooLate);
        drop(held);
        let turn = patient.await.unwrap().unwrap();
        assert_eq!(turns.free(), 0);
        drop(turn);
        assert_eq!(turns.free(), 1);
    }
}
