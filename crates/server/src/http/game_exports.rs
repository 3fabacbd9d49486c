//! Game files over HTTP (docs/game-file.md, docs/protocol.md "Game files and exports
//! (addition)"): the exports (one game, a player's finished games, a tournament's games;
//! OGN or NDJSON, streamed), and a file read for the analysis board.

use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::archive::export::{self, Exporter, Format};
use crate::archive::game_file::TournamentRound;
use crate::http::address::AddressKey;
use crate::http::error::ApiError;
use crate::http::extract::{ClientAddress, GameId, JsonBody, SignedIn};
use crate::metrics::Limit;
use crate::state::AppState;
use crate::tournament::state::Tournament;
use omweso_protocol::ErrorCode;

/// `?format=ogn|ndjson`.
#[derive(Debug, Deserialize)]
pub struct FormatQuery {
    format: Option<String>,
}

impl FormatQuery {
    fn format(&self) -> Result<Format, ApiError> {
        Format::named(self.format.as_deref()).ok_or_else(|| {
            ApiError::bad_request(
                ErrorCode::BadRequest,
                format!(
                    "unknown format {:?}: ask for format=ogn (the game file, docs/game-file.md) or format=ndjson",
                    self.format.as_deref().unwrap_or_default()
                ),
            )
        })
    }
}

/// Counts an export against its address's limit.
pub fn may_export(state: &AppState, ip: std::net::IpAddr) -> Result<(), ApiError> {
    if state.limiters.exports_per_ip.allow(AddressKey::of(ip)) {
        return Ok(());
    }
    Err(ApiError::limited(
        Limit::ExportsPerIp,
        format!(
            "{} exports from your address in the last minute; wait a little",
            state.config.limits.exports_per_ip_per_minute
        ),
    ))
}

/// The exporter of a request: the `Site` tag names the host the client asked.
pub fn exporter(state: &AppState, headers: &HeaderMap) -> Exporter {
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .filter(|h| {
            !h.is_empty()
                && h.len() <= 255
                && h.chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']'))
        });
    Exporter {
        store: state.store.clone(),
        pool: state.games.pool().clone(),
        site: host.map(|h| format!("//{h}")),
    }
}

fn file_response(format: Format, name: &str, body: axum::body::Body) -> Response {
    let disposition = format!("attachment; filename=\"{name}.{}\"", format.extension());
    (
        [
            (header::CONTENT_TYPE, format.content_type().to_owned()),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        body,
    )
        .into_response()
}

/// `GET /api/games/{id}/export?format=ogn|ndjson`: one game, finished or not.
pub async fn game(
    State(state): State<AppState>,
    _: SignedIn,
    GameId(id): GameId,
    Query(query): Query<FormatQuery>,
    ClientAddress(ip): ClientAddress,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let format = query.format()?;
    may_export(&state, ip)?;
    let row = state
        .store
        .game(id)
        .await?
        .ok_or_else(|| ApiError::not_found("game"))?;
    let exporter = exporter(&state, &headers);
    let tournament = match row_tournament(&row) {
        Some(tid) => tournament_round(&state, tid, id).await,
        None => None,
    };
    let record = exporter
        .record(row, tournament)
        .await
        .map_err(|e| ApiError::internal(&e))?;
    Ok(file_response(
        format,
        &format!("game-{id}"),
        format.render(&record).into(),
    ))
}

/// `GET /api/players/{username}/games/export?format=ogn|ndjson`: an account's finished
/// games, newest first (at most [`export::MAX_PLAYER_GAMES`]).
pub async fn player(
    State(state): State<AppState>,
    _: SignedIn,
    Path(username): Path<String>,
    Query(query): Query<FormatQuery>,
    ClientAddress(ip): ClientAddress,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let format = query.format()?;
    may_export(&state, ip)?;
    let person = crate::http::people::account_named(&state, &username).await?;
    let name = person.username.clone().unwrap_or_default();
    let texts = exporter(&state, &headers).player_games(person.id, format);
    Ok(file_response(
        format,
        &format!("{}-games", file_name(&name)),
        export::body(texts),
    ))
}

/// `games.ogn` / `games.ndjson` of `GET /api/tournaments/{id}/{file}`: every game the
/// tournament's rounds created (replaced ones too), by round and table.
pub fn tournament(
    state: &AppState,
    headers: &HeaderMap,
    t: &Tournament,
    format: Format,
) -> Response {
    let name = t.settings().name.clone();
    let ids = t
        .game_tables()
        .into_iter()
        .map(|(id, round, board)| {
            let place = TournamentRound {
                name: name.clone(),
                round,
                board,
            };
            (id, Some(place))
        })
        .collect();
    let texts = exporter(state, headers).games(ids, format);
    file_response(format, "games", export::body(texts))
}

/// The tournament a stored game's configuration names.
fn row_tournament(row: &crate::store::GameRow) -> Option<uuid::Uuid> {
    serde_json::from_str::<omweso_protocol::config::GameConfig>(&row.config_json)
        .ok()?
        .tournament
}

/// The tournament's name and the game's round and table, when the tournament is there.
async fn tournament_round(
    state: &AppState,
    tournament: uuid::Uuid,
    game: uuid::Uuid,
) -> Option<TournamentRound> {
    let handle = state.tournaments.get(tournament).await.ok()??;
    let t = handle
        .ask(|reply| crate::tournament::actor::Command::State { reply })
        .await
        .ok()?;
    let (round, table) = t.game_table(game)?;
    Some(TournamentRound {
        name: t.settings().name.clone(),
        round,
        board: table,
    })
}

/// A username as a file name: its letters, digits, `.`, `_` and `-`.
fn file_name(name: &str) -> String {
    let kept: String = name
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '.' | '_' | '-'))
        .collect();
    if kept.is_empty() {
        "player".to_owned()
    } else {
        kept
    }
}

/// The most games the analysis board reads from one file.
pub const MAX_READ_GAMES: usize = 200;
/// The largest file the analysis board reads (the route's body limit): a long game is a
/// few kilobytes.
pub const MAX_READ_BYTES: usize = 256 * 1024;

/// The body of `POST /api/analysis/read-game`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReadGame {
    text: String,
}

/// `POST /api/analysis/read-game`: a game file's games, each replayed (its start and the
/// position after each move), for the analysis board to step through; a file that cannot
/// be read is refused saying where and what is wrong.
pub async fn read_game(
    State(state): State<AppState>,
    signed: SignedIn,
    JsonBody(body): JsonBody<ReadGame>,
) -> Result<Json<Value>, ApiError> {
    state.analysis.may_analyse(signed.player_id())?;
    let answer = state
        .games
        .pool()
        .run(move || read_answer(&body.text))
        .await
        .map_err(|e| ApiError::internal(&format!("the engine pool: {e:?}")))??;
    Ok(Json(answer))
}

fn read_answer(text: &str) -> Result<Value, ApiError> {
    let games = omweso_gamefile::parse_games(text)
        .map_err(|e| ApiError::bad_request(ErrorCode::BadRequest, format!("the game file, {e}")))?;
    if games.is_empty() {
        return Err(ApiError::bad_request(
            ErrorCode::BadRequest,
            "the game file holds no game",
        ));
    }
    if games.len() > MAX_READ_GAMES {
        return Err(ApiError::bad_request(
            ErrorCode::BadRequest,
            format!(
                "the game file holds {} games; the analysis board reads at most {MAX_READ_GAMES}",
                games.len()
            ),
        ));
    }
    let games: Vec<Value> = games
        .iter()
        .map(omweso_gamefile::GameRecord::report)
        .collect();
    Ok(json!({ "games": games }))
}
