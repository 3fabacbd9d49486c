//! The analysis board's HTTP calls (`/api/analysis/legal`, `/play`, `/search`; docs/
//! protocol.md "Analysis"): stateless and read-only. Each takes a position (typed in, or
//! read from a game's history by the page) and answers what the rules or the engine say of
//! it; no game is asked or touched, so a spectator analysing a running game cannot disturb
//! it. Listing and playing run on the games' engine pool (bounded work: the listing's and
//! the sowing budget's caps); searches on threads of their own ([`service::Analysis`]),
//! bounded per session and in all.

pub mod play;
pub mod position;
pub mod search;
pub mod service;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use axum::extract::State;
use axum::http::HeaderMap;
use axum::Json;

use crate::http::address::AddressKey;
use crate::http::error::ApiError;
use crate::http::extract::{body, client_ip, session};
use crate::state::AppState;
use omweso_protocol::analysis::{
    PlayAnswer, PlayQuery, PositionQuery, PositionView, SearchAnswer, SearchQuery,
};
use omweso_protocol::ErrorCode;

pub use service::Analysis;

/// A refused analysis: the server's one refusal type (`crate::refusal`), under the name
/// this module's files use.
pub use crate::refusal::Refusal as Refused;

fn pool_gone(_: crate::pools::engine::PoolGone) -> ApiError {
    ApiError::new(
        ErrorCode::Unavailable,
        "the server could not compute this just now; try again",
    )
}

/// `POST /api/analysis/legal`: who may move in a position, and what each start does.
pub async fn legal(
    State(state): State<AppState>,
    headers: HeaderMap,
    bytes: axum::body::Bytes,
) -> Result<Json<PositionView>, ApiError> {
    let session = session(&state, &headers).await?;
    let query: PositionQuery = body(&bytes)?;
    state.analysis.may_analyse(session.player_id)?;
    let read = position::read(
        query.ruleset,
        &query.position,
        query.max_seeds,
        query.akakyala,
    )?;
    let view = state
        .games
        .pool()
        .run(move || position::view(&read.game, read.budget))
        .await
        .map_err(pool_gone)?;
    Ok(Json(view))
}

/// `POST /api/analysis/play`: a move played out, lap by lap, up to its end or its next
/// decision point.
pub async fn play(
    State(state): State<AppState>,
    headers: HeaderMap,
    bytes: axum::body::Bytes,
) -> Result<Json<PlayAnswer>, ApiError> {
    let session = session(&state, &headers).await?;
    let query: PlayQuery = body(&bytes)?;
    state.analysis.may_analyse(session.player_id)?;
    let read = position::read(
        query.ruleset,
        &query.position,
        query.max_seeds,
        query.akakyala,
    )?;
    let notation = query.mv;
    let played = state
        .games
        .pool()
        .run(move || play::play(&read.game, read.budget, &notation))
        .await
        .map_err(pool_gone)??;
    Ok(Json(played))
}

/// `POST /api/analysis/search`: the engine's best move, its score and its line.
pub async fn search(
    State(state): State<AppState>,
    ip: Option<axum::Extension<crate::http::accept::ClientIp>>,
    headers: HeaderMap,
    bytes: axum::body::Bytes,
) -> Result<Json<SearchAnswer>, ApiError> {
    let session = session(&state, &headers).await?;
    let query: SearchQuery = body(&bytes)?;
    let read = position::read(
        query.ruleset,
        &query.position,
        query.max_seeds,
        query.akakyala,
    )?;
    let checked = search::check(read.game, read.budget, query.millis, query.side)?;
    let permit = state.analysis.may_search(session.player_id)?;
    // Answered within the request's time limit, or the search is wasted: it thinks only
    // for what its request has left when its turn comes.
    let deadline = std::time::Instant::now()
        + std::time::Duration::from_secs_f64(state.config.limits.request_seconds);
    // The search stops when this request is dropped (the page went away, or the request
    // ran out of time), so nobody's thread thinks for an answer nobody will read.
    let stop = StopOnDrop(Arc::new(AtomicBool::new(false)));
    let answer = state
        .analysis
        .search(
            AddressKey::of(client_ip(ip)),
            session.player_id,
            permit,
            checked,
            deadline,
            Arc::clone(&stop.0),
        )
        .await?;
    drop(stop);
    Ok(Json(answer))
}

/// Raises the stop flag when dropped.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}
