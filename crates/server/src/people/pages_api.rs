//! What a person did, for anyone to read: the player page (`GET /api/players/{username}`)
//! and a device's own "your games" (`GET /api/me/games`, guests too).

use axum::extract::{Path, State};
use axum::Json;
use omweso_rules::{Outcome, Ruleset, Side};
use uuid::Uuid;

use super::store::{PersonGame, PersonTournament};
use crate::address::AddressKey;
use crate::http::error::ApiError;
use crate::http::extract::ClientAddress;
use crate::metrics::Limit;
use crate::people::extract::SignedIn;
use crate::state::AppState;
use crate::store::PersonRow;
use omweso_protocol::accounts::{PersonalResult, PlayerGame, PlayerPage, PlayerTournament};
use omweso_protocol::archive::RulesetResults;

/// Games and tournaments a page lists: the newest.
const LISTED: i64 = 100;
/// The name a seat shows when no person holds it (the computer's).
const NO_PERSON: &str = "Computer";

/// The account `username` names (as typed: the lookup folds it), `not_found` for none, a
/// guest or a disabled account: every public read of an account (its page, its ratings'
/// history, its games' export) answers the same for all three.
pub async fn account_named(state: &AppState, username: &str) -> Result<PersonRow, ApiError> {
    state
        .sessions
        .person_by_username(username)
        .await?
        .filter(|p| p.username.is_some() && p.disabled_at_ms.is_none())
        .ok_or_else(|| ApiError::not_found("player"))
}

/// `GET /api/players/{username}`: an account's page. Guests have none (their games are on
/// their own devices' "your games").
pub async fn player(
    State(state): State<AppState>,
    ClientAddress(ip): ClientAddress,
    Path(username): Path<String>,
) -> Result<Json<PlayerPage>, ApiError> {
    may_read_page(&state, ip)?;
    let person = account_named(&state, &username).await?;
    page(&state, person).await.map(Json)
}

/// `GET /api/me/games`: the page of the person the request is made as.
pub async fn my_games(
    State(state): State<AppState>,
    ClientAddress(ip): ClientAddress,
    signed_in: SignedIn,
) -> Result<Json<PlayerPage>, ApiError> {
    may_read_page(&state, ip)?;
    let person = state
        .sessions
        .store()
        .person(signed_in.player_id())
        .await?
        .ok_or_else(ApiError::unauthorized)?;
    page(&state, person).await.map(Json)
}

/// Takes one player page of `ip`'s a minute, or refuses it: each reads a person's newest
/// games and tournaments and counts all their results.
fn may_read_page(state: &AppState, ip: std::net::IpAddr) -> Result<(), ApiError> {
    if state.limiters.player_pages_per_ip.allow(AddressKey::of(ip)) {
        return Ok(());
    }
    Err(ApiError::limited(
        Limit::PlayerPagesPerIp,
        format!(
            "this address read {} player pages in the last minute; wait a minute",
            state.config.limits.player_pages_per_ip_per_minute
        ),
    ))
}

async fn page(state: &AppState, person: PersonRow) -> Result<PlayerPage, ApiError> {
    let store = state.sessions.store();
    let games = store.games_of(person.id, LISTED).await?;
    let tournaments = store.tournaments_of(person.id, LISTED).await?;
    let results = store.results_of(person.id).await?;
    let now = i64::try_from(omweso_protocol::clock::now_ms()).unwrap_or(i64::MAX);
    let ratings = store
        .ratings_of_person(person.id)
        .await?
        .into_iter()
        .map(|(ruleset, rating)| rating.view(ruleset, now))
        .collect();
    Ok(PlayerPage {
        player_id: person.id,
        name: person.name,
        username: person.username,
        member_since_ms: person.created_at_ms,
        games: games
            .iter()
            .filter_map(|game| player_game(person.id, game))
            .collect(),
        tournaments: tournaments.iter().filter_map(player_tournament).collect(),
        results: results
            .into_iter()
            .filter_map(|(ruleset, counts)| {
                let count = |n: u64| u32::try_from(n).unwrap_or(u32::MAX);
                Some(RulesetResults {
                    ruleset: parsed(&ruleset, person.id)?,
                    won: count(counts.won),
                    lost: count(counts.lost),
                    drawn: count(counts.drawn),
                })
            })
            .collect(),
        ratings,
    })
}

/// A game as `person` sees it on their page; `None` for a row that cannot be read (logged).
fn player_game(person: Uuid, game: &PersonGame) -> Option<PlayerGame> {
    let row = &game.game;
    let ruleset = parsed(&row.ruleset, row.id)?;
    let seat = if row.south == Some(person) {
        Some(Side::South)
    } else if row.north == Some(person) {
        Some(Side::North)
    } else {
        None
    };
    let (opponent_id, opponent_name) = match seat {
        Some(Side::South) => (row.north, &game.north_name),
        _ => (row.south, &game.south_name),
    };
    let opponent = opponent_id.map(|_| {
        opponent_name
            .clone()
            .unwrap_or_else(|| NO_PERSON.to_owned())
    });
    let outcome: Option<Outcome> = row
        .outcome_json
        .as_deref()
        .and_then(|json| serde_json::from_str(json).ok());
    let result = match (outcome, seat) {
        (Some(Outcome::Win { winner, .. }), Some(seat)) if winner == seat => PersonalResult::Won,
        (Some(Outcome::Win { .. }), Some(_)) => PersonalResult::Lost,
        (Some(Outcome::Draw), Some(_)) => PersonalResult::Drawn,
        _ => PersonalResult::None,
    };
    Some(PlayerGame {
        id: row.id,
        ruleset,
        status: row.status.clone(),
        seat,
        opponent,
        result,
        created_at_ms: row.created_at_ms,
    })
}

fn player_tournament(entry: &PersonTournament) -> Option<PlayerTournament> {
    let row = &entry.tournament;
    Some(PlayerTournament {
        id: row.id,
        name: row.name.clone(),
        ruleset: parsed(&row.ruleset, row.id)?,
        status: row.status.clone(),
        role: entry.role.clone(),
        created_at_ms: row.created_at_ms,
    })
}

fn parsed(ruleset: &str, id: Uuid) -> Option<Ruleset> {
    match ruleset.parse() {
        Ok(ruleset) => Some(ruleset),
        Err(error) => {
            tracing::warn!(%id, ruleset, %error, "a stored ruleset that is not one");
            None
        }
    }
}
