//! The analysis board's HTTP calls (`/api/analysis/legal`, `/play`, `/search`; docs/
//! protocol.md "Analysis"): each reads the session and the body, asks the analysis
//! service (`crate::analysis`) and answers. Listing and playing run on the games' engine
//! pool; searches on the service's threads, stopped when their request goes away.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use axum::extract::State;
use axum::Json;

use crate::address::AddressKey;
use crate::analysis::{play, position, search};
use crate::http::error::ApiError;
use crate::http::extract::{ClientAddress, JsonBody};
use crate::people::extract::SignedIn;
use crate::state::AppState;
use omweso_protocol::analysis::{
    PlayAnswer, PlayQuery, PositionQuery, PositionView, SearchAnswer, SearchQuery,
};
use omweso_protocol::ErrorCode;

fn pool_gone(_: crate::pools::engine::PoolGone) -> ApiError {
    ApiError::new(
        ErrorCode::Unavailable,
        "the server could not compute this just now; try again",
    )
}

/// `POST /api/analysis/legal`: who may move in a position, and what each start does.
pub async fn legal(
    State(state): State<AppState>,
    signed: SignedIn,
    JsonBody(query): JsonBody<PositionQuery>,
) -> Result<Json<PositionView>, ApiError> {
    state.analysis.may_analyse(signed.player_id())?;
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
    signed: SignedIn,
    JsonBody(query): JsonBody<PlayQuery>,
) -> Result<Json<PlayAnswer>, ApiError> {
    state.analysis.may_analyse(signed.player_id())?;
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
    ClientAddress(ip): ClientAddress,
    signed: SignedIn,
    JsonBody(query): JsonBody<SearchQuery>,
) -> Result<Json<SearchAnswer>, ApiError> {
    let read = position::read(
        query.ruleset,
        &query.position,
        query.max_seeds,
        query.akakyala,
    )?;
    let checked = search::check(read.game, read.budget, query.millis, query.side)?;
    let permit = state.analysis.may_search(signed.player_id())?;
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
            AddressKey::of(ip),
            signed.player_id(),
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
