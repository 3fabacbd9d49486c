//! Ratings for anyone to read (docs/protocol.md#ratings-addition): an account's rating
//! history (`GET /api/players/{username}/rating-history`) and the leaderboards
//! (`GET /api/leaderboards/{ruleset}`). Both are bounded: the newest
//! [`HISTORY_POINTS`] points of each ruleset, the best [`LEADERBOARD_SIZE`] ratings. And a
//! tournament's players' current ratings (`GET /api/tournaments/{id}/ratings`), one read
//! of the store for the whole field.

use axum::extract::{Path, State};
use axum::Json;
use omweso_rules::Ruleset;

use crate::http::error::ApiError;
use crate::ratings::rating::rounded;
use crate::state::AppState;
use crate::tournament::actor::Command;
use crate::tournament::extract::TournamentAt;
use omweso_protocol::clock::now_ms;
use omweso_protocol::ratings::{
    Leaderboard, LeaderboardEntry, PlayerRating, RatingHistory, RatingPoint, RulesetHistory,
    TournamentRatings,
};
use omweso_protocol::ErrorCode;

/// The most points of one ruleset a history answers (the newest): years of daily play,
/// and a bounded answer (docs/security.md).
pub const HISTORY_POINTS: i64 = 1_000;
/// How many ratings a leaderboard lists.
pub const LEADERBOARD_SIZE: i64 = 100;

/// `GET /api/players/{username}/rating-history`.
pub async fn history(
    State(state): State<AppState>,
    Path(username): Path<String>,
) -> Result<Json<RatingHistory>, ApiError> {
    let person = crate::people::pages_api::account_named(&state, &username).await?;
    let store = state.sessions.store();
    let mut rulesets = Vec::new();
    for ruleset in Ruleset::ALL {
        let lines = store
            .rating_history(person.id, ruleset, HISTORY_POINTS)
            .await?;
        if lines.is_empty() {
            continue;
        }
        rulesets.push(RulesetHistory {
            ruleset,
            points: lines
                .iter()
                .map(|line| RatingPoint {
                    at_ms: line.at_ms,
                    rating: rounded(line.after.glicko.rating),
                    deviation: rounded(line.after.glicko.deviation),
                })
                .collect(),
        });
    }
    Ok(Json(RatingHistory { rulesets }))
}

/// `GET /api/leaderboards/{ruleset}`: the best ratings that are not provisional now.
pub async fn leaderboard(
    State(state): State<AppState>,
    Path(ruleset): Path<String>,
) -> Result<Json<Leaderboard>, ApiError> {
    let ruleset: Ruleset = ruleset
        .parse()
        .map_err(|e: omweso_rules::ParseRulesetError| {
            ApiError::bad_request(ErrorCode::BadRequest, e.to_string())
        })?;
    let now = i64::try_from(now_ms()).unwrap_or(i64::MAX);
    let lines = state
        .sessions
        .store()
        .leaderboard(ruleset, now, LEADERBOARD_SIZE)
        .await?;
    let entries = lines
        .into_iter()
        .zip(1..)
        .map(|(line, rank)| {
            let shown = line.rating.at(now);
            LeaderboardEntry {
                rank,
                username: line.username,
                name: line.name,
                rating: rounded(shown.rating),
                deviation: rounded(shown.deviation),
                games: line.rating.games,
            }
        })
        .collect();
    Ok(Json(Leaderboard { ruleset, entries }))
}

/// `GET /api/tournaments/{id}/ratings`: the rating each player of the tournament has now in
/// its ruleset (the deviation grown by inactivity, so the provisional mark is today's).
/// Anyone may read it, as anyone may read the tournament; it is one query for the whole
/// field however large (the store reads 500 persons a statement).
pub async fn tournament(
    State(state): State<AppState>,
    tournament: TournamentAt,
) -> Result<Json<TournamentRatings>, ApiError> {
    let snapshot = tournament
        .read(|reply| Command::Snapshot {
            viewer: None,
            reply,
        })
        .await?;
    let ids: Vec<uuid::Uuid> = snapshot.players.iter().map(|p| p.player_id).collect();
    let found = state
        .sessions
        .store()
        .ratings_of(&ids, snapshot.ruleset)
        .await?;
    let now = i64::try_from(now_ms()).unwrap_or(i64::MAX);
    let players = ids
        .iter()
        .filter_map(|id| {
            found.get(id).map(|rating| PlayerRating {
                player_id: *id,
                rating: rating.badge(now),
            })
        })
        .collect();
    Ok(Json(TournamentRatings {
        ruleset: snapshot.ruleset,
        players,
    }))
}
