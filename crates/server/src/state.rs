//! What every request handler shares.

use std::sync::Arc;

use tokio::sync::watch;
use tokio_util::task::TaskTracker;

use crate::config::ServeConfig;
use crate::game::registry::Registry;
use crate::session::Sessions;
use crate::store::{Store, Writer};

#[derive(Clone)]
pub struct AppState(Arc<Inner>);

pub struct Inner {
    pub store: Store,
    pub games: Registry,
    pub sessions: Sessions,
    pub config: ServeConfig,
    /// The open WebSocket connections, so shutdown can wait for their close frames.
    pub sockets: TaskTracker,
    pub shutdown: watch::Receiver<bool>,
}

impl AppState {
    pub fn new(
        store: Store,
        writer: Writer,
        config: ServeConfig,
        shutdown: watch::Receiver<bool>,
    ) -> AppState {
        AppState(Arc::new(Inner {
            games: Registry::new(store.clone(), writer.clone(), shutdown.clone()),
            sessions: Sessions::new(store.clone(), writer),
            store,
            config,
            sockets: TaskTracker::new(),
            shutdown,
        }))
    }
}

impl std::ops::Deref for AppState {
    type Target = Inner;

    fn deref(&self) -> &Inner {
        &self.0
    }
}
