//! What request bodies being received may hold of the server's memory, in all and per
//! address (docs/security.md, "Work a single request can cause").
//!
//! A body is read into memory whole before its handler sees it (64 KiB at most, 256 KiB
//! for a game file). Each connection was bounded, but not how many bodies arrive at once:
//! slow bodies sent across 8 addresses (2,048 connections each) took a server from 107 to
//! 609 MB, and a probe game's p99 to 1.6 s (issue 41, finding 9). A body's bytes are now
//! charged to a budget of the whole server and one of its address as they arrive
//! ([`Budgeted`]), and given back when the request is answered; past either, the body
//! fails and the request is refused (`http::edge::within_body_budget`). Charged as they
//! arrive, not as announced: bodies announced (`Content-Length`) and never sent, from 32
//! addresses, held the whole server's budget, and every other visitor's small request was
//! refused 503 (the re-run of issue 41's attacks). Holding memory now takes sending it.

use std::collections::HashMap;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};

use axum::body::{Body, Bytes};
use http_body::{Frame, SizeHint};

use crate::address::AddressKey;

/// The largest body any route reads (a game file for the analysis board).
pub const LARGEST_BODY: u64 = 256 * 1024;

/// The bytes of bodies being received, in all and per address.
#[derive(Debug)]
pub struct BodyBudget {
    all: u64,
    /// The bytes one address may have being received at once.
    pub per_address: u64,
    held: Mutex<Held>,
}

#[derive(Debug, Default)]
struct Held {
    all: u64,
    by_address: HashMap<AddressKey, u64>,
}

/// Why a body could not be taken now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Over {
    Address,
    Server,
}

/// A body's bytes, given back when dropped.
#[derive(Debug)]
pub struct Charge {
    budget: Arc<BodyBudget>,
    address: AddressKey,
    bytes: u64,
}

impl Charge {
    /// Takes `more`'s bytes into this charge (one charge to give back, not two).
    fn absorb(&mut self, mut more: Charge) {
        self.bytes += std::mem::take(&mut more.bytes);
    }
}

impl Drop for Charge {
    fn drop(&mut self) {
        let mut held = self.budget.lock();
        held.all = held.all.saturating_sub(self.bytes);
        if let Some(bytes) = held.by_address.get_mut(&self.address) {
            *bytes = bytes.saturating_sub(self.bytes);
            if *bytes == 0 {
                held.by_address.remove(&self.address);
            }
        }
    }
}

/// Why a body failed: it would have passed a budget ([`Over`]). Found in the source
/// chain of the extractor's refusal, which answers it as the edge does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the request's body passed the bytes being received at once ({0:?})")]
pub struct OverBudget(pub Over);

/// The bytes of one request's body charged so far, shared by its body as it arrives and
/// the request as it is answered: given back when both are done.
#[derive(Debug)]
pub struct Charging {
    budget: Arc<BodyBudget>,
    address: AddressKey,
    charged: Mutex<Option<Charge>>,
}

impl Charging {
    /// `bytes` more of this body, or the budget it would pass.
    fn take(&self, bytes: u64) -> Result<(), Over> {
        let mut charged = self.charged.lock().unwrap_or_else(PoisonError::into_inner);
        let more = self.budget.charge(self.address, bytes)?;
        match charged.as_mut() {
            Some(charge) => charge.absorb(more),
            None => *charged = Some(more),
        }
        Ok(())
    }

    /// The bytes charged so far.
    #[cfg(test)]
    fn bytes(&self) -> u64 {
        self.charged
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .as_ref()
            .map_or(0, |c| c.bytes)
    }
}

/// A request body whose bytes are charged as they arrive; a frame past a budget fails
/// the body with [`OverBudget`].
pub struct Budgeted {
    inner: Body,
    charging: Arc<Charging>,
}

impl Budgeted {
    /// `inner`, charged to `budget` for `address`; the [`Charging`] to hold until the
    /// request is answered.
    pub fn wrap(
        inner: Body,
        budget: &Arc<BodyBudget>,
        address: AddressKey,
    ) -> (Body, Arc<Charging>) {
        let charging = Arc::new(Charging {
            budget: Arc::clone(budget),
            address,
            charged: Mutex::new(None),
        });
        let body = Budgeted {
            inner,
            charging: Arc::clone(&charging),
        };
        (Body::new(body), charging)
    }
}

impl http_body::Body for Budgeted {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        let this = self.get_mut();
        match Pin::new(&mut this.inner).poll_frame(cx) {
            Poll::Ready(Some(Ok(frame))) => {
                let bytes = frame.data_ref().map_or(0, |data| data.len() as u64);
                match this.charging.take(bytes) {
                    Ok(()) => Poll::Ready(Some(Ok(frame))),
                    Err(over) => Poll::Ready(Some(Err(axum::Error::new(OverBudget(over))))),
                }
            }
            other => other,
        }
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// The budget a failed body passed, if that is why it failed: searched along the error's
/// sources (axum wraps it in its own refusal).
#[must_use]
pub fn over_budget(error: &(dyn std::error::Error + 'static)) -> Option<Over> {
    let mut next = Some(error);
    while let Some(error) = next {
        if let Some(OverBudget(over)) = error.downcast_ref::<OverBudget>() {
            return Some(*over);
        }
        next = error.source();
    }
    None
}

impl BodyBudget {
    #[must_use]
    pub fn new(all: u64, per_address: u64) -> Arc<BodyBudget> {
        Arc::new(BodyBudget {
            all,
            per_address,
            held: Mutex::new(Held::default()),
        })
    }

    /// Every change under the lock is a few additions: a poisoned lock is taken as it is.
    fn lock(&self) -> std::sync::MutexGuard<'_, Held> {
        self.held.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// `bytes` for a body from `address`, or which budget it would pass.
    pub fn charge(self: &Arc<Self>, address: AddressKey, bytes: u64) -> Result<Charge, Over> {
        let mut held = self.lock();
        let by_address = held.by_address.get(&address).copied().unwrap_or(0);
        if by_address.saturating_add(bytes) > self.per_address {
            return Err(Over::Address);
        }
        if held.all.saturating_add(bytes) > self.all {
            return Err(Over::Server);
        }
        held.all += bytes;
        *held.by_address.entry(address).or_insert(0) += bytes;
        Ok(Charge {
            budget: Arc::clone(self),
            address,
            bytes,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::IpAddr;

    fn address(last: u8) -> AddressKey {
        AddressKey::of(IpAddr::from([198, 51, 100, last]))
    }

    #[test]
    fn bodies_are_charged_to_their_address_and_the_server_until_answered() {
        let budget = BodyBudget::new(300, 200);
        let a = budget.charge(address(1), 150).unwrap();
        assert_eq!(budget.charge(address(1), 51).unwrap_err(), Over::Address);
        let b = budget.charge(address(1), 50).unwrap();
        let c = budget.charge(address(2), 100).unwrap();
        // 300 held in all: even a byte from a third address waits.
        assert_eq!(budget.charge(address(3), 1).unwrap_err(), Over::Server);
        drop(a);
        let _d = budget.charge(address(3), 150).unwrap();
        drop((b, c));
        assert_eq!(budget.lock().all, 150);
        assert_eq!(budget.lock().by_address.len(), 1);
    }

    /// A body announced but not sent holds nothing: its bytes are charged as they
    /// arrive, a frame past the address's budget fails the body (found as `OverBudget`
    /// along the error's sources), and all is given back when its `Charging` is dropped.
    #[tokio::test]
    async fn a_body_is_charged_as_its_bytes_arrive() {
        let budget = BodyBudget::new(1_000, 250);
        let chunks: Vec<Result<Bytes, std::io::Error>> = vec![
            Ok(Bytes::from(vec![b'a'; 100])),
            Ok(Bytes::from(vec![b'b'; 100])),
        ];
        let (body, charging) = Budgeted::wrap(
            Body::from_stream(futures_util::stream::iter(chunks)),
            &budget,
            address(1),
        );
        assert_eq!(charging.bytes(), 0, "nothing before a byte arrives");
        let read = axum::body::to_bytes(body, 10_000)
            .await
            .expect("200 bytes fit");
        assert_eq!((read.len(), charging.bytes()), (200, 200));
        assert_eq!(budget.lock().all, 200);
        // A second body from the address: its first 50 bytes fit, the next 100 do not.
        let chunks: Vec<Result<Bytes, std::io::Error>> = vec![
            Ok(Bytes::from(vec![b'c'; 50])),
            Ok(Bytes::from(vec![b'd'; 100])),
        ];
        let (body, second) = Budgeted::wrap(
            Body::from_stream(futures_util::stream::iter(chunks)),
            &budget,
            address(1),
        );
        let error = axum::body::to_bytes(body, 10_000).await.unwrap_err();
        assert_eq!(over_budget(&error), Some(Over::Address), "{error}");
        assert_eq!(second.bytes(), 50);
        drop((charging, second));
        assert_eq!(budget.lock().all, 0);
        assert!(budget.lock().by_address.is_empty());
    }
}
