//! What the HTTP layer reads of the server's state: its settings, the limiters behind the
//! limits and the budget of bodies being received. A trait here, implemented by the
//! server's state (`state.rs`), so that the edge, the extractors and the code limits work
//! on any state that gives these three and `http/` names no concern's handle.

use std::sync::Arc;

use crate::config::ServeConfig;
use crate::http::body_budget::BodyBudget;
use crate::http::limits::Limiters;

pub trait EdgeState: Clone + Send + Sync + 'static {
    /// The server's settings (limits, proxies, origins).
    fn config(&self) -> &ServeConfig;
    /// The counters and keyed rates behind the limits.
    fn limiters(&self) -> &Limiters;
    /// The bytes of request bodies being received, in all and per address.
    fn body_budget(&self) -> &Arc<BodyBudget>;
}
