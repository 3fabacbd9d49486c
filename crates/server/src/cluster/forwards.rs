//! The requests this node forwards to the nodes holding their rooms (`forward`), counted
//! while they wait (their body arriving, their answer awaited): per client address and in
//! all, with an announced body past the API's limit refused before any of it is read.
//! Apart from `forward`, which needs the node, so that the node can hold these.

use std::sync::Arc;

use axum::extract::Request;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::address::AddressKey;
use crate::http::accept::ClientIp;
use crate::http::error::ApiError;
use crate::http::limits::{Held, Holdings, BODY_LIMIT};
use crate::metrics::Limit;
use omweso_protocol::ErrorCode;

/// Forwarded requests one client address may have waiting on this node at once (its body
/// arriving, or its answer awaited): a forwarded request is answered in milliseconds, so
/// this is far above what a hall of players behind one address asks at once, and keeps
/// one address's slow bodies from holding the places of everyone else's.
pub const FORWARDS_PER_ADDRESS: usize = 32;
/// Forwarded requests waiting on this node at once, from every address: with
/// [`BODY_LIMIT`], at most 64 MiB of bodies.
pub const FORWARDS_AT_ONCE: usize = 1024;

/// The forwarded requests waiting on this node, per client address and in all.
#[derive(Debug)]
pub struct Forwards {
    per_address: Holdings<AddressKey>,
    all: Arc<Semaphore>,
}

impl Default for Forwards {
    fn default() -> Forwards {
        Forwards {
            per_address: Holdings::default(),
            all: Arc::new(Semaphore::new(FORWARDS_AT_ONCE)),
        }
    }
}

/// A forwarded request's places, given back when it is dropped.
#[derive(Debug)]
pub struct Waiting {
    _address: Held<AddressKey>,
    _all: OwnedSemaphorePermit,
}

impl Forwards {
    /// Takes the places of `request`, or refuses it without reading its body: an announced
    /// body past [`BODY_LIMIT`] (413), an address with [`FORWARDS_PER_ADDRESS`] waiting
    /// (429), or [`FORWARDS_AT_ONCE`] waiting in all (503).
    pub fn take(&self, request: &Request) -> Result<Waiting, ApiError> {
        let announced = request
            .headers()
            .get(axum::http::header::CONTENT_LENGTH)
            .and_then(|length| length.to_str().ok())
            .and_then(|length| length.trim().parse::<u64>().ok());
        if announced.is_some_and(|length| length > BODY_LIMIT as u64) {
            return Err(too_large());
        }
        let ip = request
            .extensions()
            .get::<ClientIp>()
            .map_or(std::net::IpAddr::from([0, 0, 0, 0]), |ip| ip.0);
        let address = self
            .per_address
            .try_hold(AddressKey::of(ip), FORWARDS_PER_ADDRESS)
            .ok_or_else(|| {
                ApiError::limited(
                    Limit::ForwardsPerIp,
                    format!(
                        "{FORWARDS_PER_ADDRESS} requests from your address are already waiting for the server holding this game or tournament; try again in a moment"
                    ),
                )
            })?;
        let all = Arc::clone(&self.all).try_acquire_owned().map_err(|_| {
            ApiError::new(
                ErrorCode::Unavailable,
                "too many requests are waiting for the servers holding their games; try again in a moment",
            )
        })?;
        Ok(Waiting {
            _address: address,
            _all: all,
        })
    }
}

pub fn too_large() -> ApiError {
    ApiError::new(
        ErrorCode::TooLarge,
        format!("a request body may be at most {BODY_LIMIT} bytes"),
    )
}
