//! Game files over HTTP (docs/game-file.md, docs/protocol.md "Game files and exports
//! (addition)"): the exports (one game, a player's finished games, a tournament's games;
//! OGN or NDJSON, streamed), and a file read for the analysis board.

use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use std::sync::Arc;
use std::time::Instant;

use crate::address::AddressKey;
use crate::archive::export::{self, Asker, Crowded, ExportError, ExportPlace, Exporter, Format};
use crate::archive::game_file::TournamentRound;
use crate::game::extract::GameId;
use crate::http::error::ApiError;
use crate::http::extract::{ClientAddress, JsonBody};
use crate::metrics::Limit;
use crate::people::extract::SignedIn;
use crate::pools::fair_work::WorkRefused;
use crate::state::AppState;
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

/// Whose export or file read it is, for the file threads' turns.
pub fn asker(ip: std::net::IpAddr, signed_in: &SignedIn) -> Asker {
    Asker {
        address: AddressKey::of(ip),
        session: signed_in.player_id(),
    }
}

/// A job the file threads did not run, as the API answers it.
fn file_work_refused(state: &AppState, refused: WorkRefused) -> ApiError {
    match refused {
        WorkRefused::AddressBusy => ApiError::limited(
            Limit::FileWorkPerIp,
            format!(
                "this address has {} game files waiting to be read already; wait for them",
                state.files.waiting_per_address()
            ),
        ),
        WorkRefused::Busy => ApiError::new(
            ErrorCode::Unavailable,
            "the server is busy with other people's game files; try again in a few seconds",
        ),
        WorkRefused::TooLate => ApiError::new(
            ErrorCode::Unavailable,
            "the server was busy with other people's game files until this request's time was up; try again",
        ),
        WorkRefused::Gone => ApiError::internal(&refused),
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

/// A place for a streamed export (a player's or a tournament's games) from `ip`: one at a
/// time per address, a few in all; refused while there is none.
pub fn may_stream_export(
    state: &AppState,
    ip: std::net::IpAddr,
) -> Result<Arc<ExportPlace>, ApiError> {
    match state.exports.admit(AddressKey::of(ip)) {
        Ok(place) => Ok(Arc::new(place)),
        Err(Crowded::Address) => Err(ApiError::limited(
            Limit::ExportsAtOncePerIp,
            format!(
                "{} export{} from your address {} still downloading; wait for {} to finish",
                state.config.limits.exports_at_once_per_ip,
                if state.config.limits.exports_at_once_per_ip == 1 {
                    ""
                } else {
                    "s"
                },
                if state.config.limits.exports_at_once_per_ip == 1 {
                    "is"
                } else {
                    "are"
                },
                if state.config.limits.exports_at_once_per_ip == 1 {
                    "it"
                } else {
                    "them"
                },
            ),
        )),
        Err(Crowded::Server) => {
            Limit::ExportsAtOnce.refused();
            Err(ApiError::new(
                ErrorCode::Unavailable,
                "the server is sending as many exports as it can at once; try again in a minute",
            ))
        }
    }
}

/// The exporter of a request: the `Site` tag names the host the client asked; its replays
/// take the file threads in the turn of `asker`; `place` is held while it streams.
pub fn exporter(
    state: &AppState,
    headers: &HeaderMap,
    asker: Asker,
    place: Option<Arc<ExportPlace>>,
) -> Exporter {
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
        work: state.files.clone(),
        asker,
        site: host.map(|h| format!("//{h}")),
        place,
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
    signed_in: SignedIn,
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
    let exporter = exporter(&state, &headers, asker(ip, &signed_in), None);
    let tournament = match row_tournament(&row) {
        Some(tid) => state.tournament_rounds().round_of(tid, id).await,
        None => None,
    };
    let record = exporter
        .record(row, tournament)
        .await
        .map_err(|e| match e {
            ExportError::Work(refused) => file_work_refused(&state, refused),
            e => ApiError::internal(&e),
        })?;
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
    signed_in: SignedIn,
    Path(username): Path<String>,
    Query(query): Query<FormatQuery>,
    ClientAddress(ip): ClientAddress,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let format = query.format()?;
    may_export(&state, ip)?;
    let person = crate::people::pages_api::account_named(&state, &username).await?;
    let name = person.username.clone().unwrap_or_default();
    let place = may_stream_export(&state, ip)?;
    let texts = exporter(&state, &headers, asker(ip, &signed_in), Some(place))
        .player_games(person.id, format);
    Ok(file_response(
        format,
        &format!("{}-games", file_name(&name)),
        export::body(texts),
    ))
}

/// `games.ogn` / `games.ndjson` of `GET /api/tournaments/{id}/{file}`: the games `ids`
/// names (every game the tournament's rounds created, replaced ones too, by round and
/// table, each with its place; the tournament's route lists them).
pub fn tournament(
    state: &AppState,
    headers: &HeaderMap,
    (asker, place): (Asker, Arc<ExportPlace>),
    ids: Vec<(uuid::Uuid, Option<TournamentRound>)>,
    format: Format,
) -> Response {
    let texts = exporter(state, headers, asker, Some(place)).games(ids, format);
    file_response(format, "games", export::body(texts))
}

/// The tournament a stored game's configuration names.
fn row_tournament(row: &crate::store::GameRow) -> Option<uuid::Uuid> {
    serde_json::from_str::<omweso_protocol::config::GameConfig>(&row.config_json)
        .ok()?
        .tournament
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
/// The most moves, over all its games, the analysis board reads from one file: two
/// hundred long games. What it answers grows with the moves (the position after each).
pub const MAX_READ_MOVES: usize = 50_000;
/// The largest file the analysis board reads (the route's body limit): a long game is a
/// few kilobytes.
#[allow(clippy::cast_possible_truncation)]
pub const MAX_READ_BYTES: usize = crate::http::body_budget::LARGEST_BODY as usize;

/// The body of `POST /api/analysis/read-game`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReadGame {
    text: String,
}

/// `POST /api/analysis/read-game`: a game file's games, each replayed (its start and the
/// position after each move), for the analysis board to step through; a file that cannot
/// be read is refused saying where and what is wrong. Read on the file threads in the
/// turn of the caller's address; a read still waiting when its request's time is up (or
/// after the client went) is not done.
pub async fn read_game(
    State(state): State<AppState>,
    signed: SignedIn,
    ClientAddress(ip): ClientAddress,
    JsonBody(body): JsonBody<ReadGame>,
) -> Result<Response, ApiError> {
    state.analysis.may_analyse(signed.player_id())?;
    let deadline =
        Instant::now() + std::time::Duration::from_secs_f64(state.config.limits.request_seconds);
    let asker = asker(ip, &signed);
    let answer = state
        .files
        .run(asker.address, asker.session, deadline, move || {
            read_answer(&body.text)
        })
        .await
        .map_err(|refused| file_work_refused(&state, refused))??;
    Ok(([(header::CONTENT_TYPE, "application/json")], answer).into_response())
}

/// The answer's JSON text: `{"games": [...]}`, each game's report written straight from
/// its record.
fn read_answer(text: &str) -> Result<String, ApiError> {
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
    let moves: usize = games.iter().map(|g| g.moves.len()).sum();
    if moves > MAX_READ_MOVES {
        return Err(ApiError::bad_request(
            ErrorCode::BadRequest,
            format!(
                "the game file holds {moves} moves; the analysis board reads at most {MAX_READ_MOVES} from one file"
            ),
        ));
    }
    #[derive(serde::Serialize)]
    struct Games<'a> {
        games: Vec<omweso_gamefile::Report<'a>>,
    }
    let games = Games {
        games: games
            .iter()
            .map(omweso_gamefile::GameRecord::report)
            .collect(),
    };
    serde_json::to_string(&games).map_err(|e| ApiError::internal(&e))
}
