//! The HTTP API (docs/protocol.md#http).

use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use omweso_rules::{Ruleset, Side};
use serde_json::{json, Value};
use std::collections::HashMap;
use uuid::Uuid;

use crate::address::AddressKey;
use crate::game::extract::{find_game, GameAt, GameId};
use crate::game::log::Entry;
use crate::game::table::{Seat, Table};
use crate::http::error::ApiError;
use crate::http::extract::{ClientAddress, JsonBody};
use crate::lobby::quota::{CreationLimits, OverLimit, Reservation};
use crate::metrics::Limit;
use crate::people::extract::{MaybeSignedIn, SignedIn};
use crate::state::AppState;
use omweso_protocol::config::{GameConfig, SetupKind, TimeControl};
use omweso_protocol::http::{GameCreated, GameList, Joined, NewGame, Opponent, SeatChoice};
use omweso_protocol::ErrorCode;

pub async fn create_game(
    State(state): State<AppState>,
    ClientAddress(ip): ClientAddress,
    signed_in: SignedIn,
    JsonBody(request): JsonBody<NewGame>,
) -> Result<Response, ApiError> {
    let session = &signed_in.session;
    let computer = request
        .opponent
        .map(|Opponent::Computer(computer)| computer);
    // Held until the game is listed (its task lists it as it is spawned, inside
    // `games.create`) or its creation fails: another request of this session at once
    // counts this game.
    let address = AddressKey::of(ip);
    let place = may_create_game(&state, session.player_id, computer.is_some(), ip)?;
    let ruleset = request.ruleset.unwrap_or(Ruleset::Omweso);
    let setup = match (ruleset, request.setup) {
        (Ruleset::Omweso, setup) => setup.unwrap_or(SetupKind::Outer),
        (_, None | Some(SetupKind::Outer)) => SetupKind::Outer,
        (_, Some(_)) => {
            return Err(ApiError::bad_request(
                ErrorCode::BadSetup,
                format!("{ruleset} has one start; setup presets are for omweso"),
            ))
        }
    };
    let time_control = match request.time_control {
        Some(tc) => tc
            .resolve()
            .map_err(|m| ApiError::bad_request(ErrorCode::BadTimeControl, m))?,
        None => TimeControl::CASUAL,
    };
    // Against the computer, a person who played a move and left holds one of the
    // computer's places for the whole grace: bounded (docs/security.md).
    if computer.is_some() && time_control.disconnect_grace_seconds > COMPUTER_GRACE_MAX_SECONDS {
        return Err(ApiError::bad_request(
            ErrorCode::BadTimeControl,
            format!("against the computer, disconnect_grace_seconds is at most {COMPUTER_GRACE_MAX_SECONDS} (ten minutes)"),
        ));
    }
    let side = match request.seat.unwrap_or(SeatChoice::First) {
        SeatChoice::First => Side::South,
        SeatChoice::Second => Side::North,
        SeatChoice::Random => {
            if rand::random::<bool>() {
                Side::South
            } else {
                Side::North
            }
        }
    };
    let config = GameConfig {
        ruleset,
        setup,
        time_control,
        stop_at_ms: None,
        relayed: false,
        rated: rated_choice(
            request.rated,
            session.username.is_some(),
            computer.is_some(),
        )?,
        tournament: None,
    };
    let creator = Seat {
        player: session.player_id,
        name: session.name.clone(),
    };
    // Time-ordered (UUIDv7, 74 random bits): the games being played have the newest ids,
    // so their log entries sit together at the end of the `(game_id, seq)` index and a
    // group commit touches a few pages instead of one page per move (with random ids the
    // database wrote a 4 KiB page per move and the commits could not keep up;
    // docs/performance.md).
    let id = Uuid::now_v7();
    let now = omweso_protocol::clock::now_ms();
    let mut table = Table::new(id, config.clone(), creator.clone(), side, now);
    if let Some(computer) = computer {
        // The computer sits down with the creation (nobody is connected yet to be told),
        // and so it is logged: the creation entry names it, and a replay seats it again.
        table.seat_computer(computer, now)?;
    }
    let entry = Entry::Create {
        config,
        creator,
        side,
        presence_logged: true,
        display_count: true,
        computer,
    };
    // On a task of its own, which holds the game's place: a request dropped while the
    // creation awaits the store (the client gone, the time limit) must not leave a game
    // saved but never listed, which no limit would count until the next restart loaded it.
    let games = std::sync::Arc::clone(&state.games);
    let creation = tokio::spawn(async move {
        let created = games.create(table, entry, Some(address)).await;
        drop(place);
        created
    });
    creation
        .await
        .map_err(|error| ApiError::internal(&error))?
        .map_err(|error| ApiError::internal(&error))?;
    signed_in.mark_used(&state).await;
    Ok((
        StatusCode::CREATED,
        Json(GameCreated {
            game_id: id,
            url: format!("/g/{id}"),
        }),
    )
        .into_response())
}

/// Whether a new game is rated (docs/ratings.md#what-is-rated): as asked, by default when
/// the creator has an account and the opponent is a person who joins. Refused: rated
/// against the computer, or by a creator without an account. (A rated game whose second
/// player is not an account becomes casual when they sit.)
fn rated_choice(asked: Option<bool>, account: bool, computer: bool) -> Result<bool, ApiError> {
    match asked {
        Some(true) if computer => Err(ApiError::bad_request(
            ErrorCode::BadRequest,
            "games against the computer are not rated; ask for a casual game (rated: false)",
        )),
        Some(true) if !account => Err(ApiError::bad_request(
            ErrorCode::BadRequest,
            "only accounts play rated games: create an account, or ask for a casual game (rated: false)",
        )),
        Some(rated) => Ok(rated),
        None => Ok(account && !computer),
    }
}

/// The limits on creating games, checked with [`crate::lobby::games::Lobby::reserve`] so
/// that requests at once are counted together: unstarted games per session and in all
/// (each one is a task and a row until it starts or expires), or, against the computer
/// (each costing up to a second of a core a move), unfinished ones per session, per
/// address and in all;
/// then the creations per session and per address a minute.
/// The longest disconnect grace of a game against the computer, in seconds.
const COMPUTER_GRACE_MAX_SECONDS: f64 = 600.0;

fn may_create_game(
    state: &AppState,
    player: Uuid,
    computer: bool,
    ip: std::net::IpAddr,
) -> Result<Reservation, ApiError> {
    let limits = &state.config.limits;
    if state.games.live() >= limits.live_games {
        return Err(ApiError::limited(
            Limit::LiveGames,
            "the server is running as many games as it allows; try again when games have finished",
        ));
    }
    let place = state
        .games
        .lobby()
        .reserve(
            player,
            AddressKey::of(ip),
            computer,
            CreationLimits {
                open_games_per_session: limits.open_games_per_session,
                open_games: limits.open_games,
                bot_games_per_session: limits.bot_games_per_session,
                bot_games_per_ip: limits.bot_games_per_ip,
                bot_games: limits.bot_games,
            },
        )
        .map_err(|over| match over {
            OverLimit::BotGamesPerSession(mine) => ApiError::limited(
                Limit::BotGamesPerSession,
                format!(
                    "you have {mine} unfinished games against the computer; finish or resign one first"
                ),
            ),
            OverLimit::BotGamesPerIp(there) => ApiError::limited(
                Limit::BotGamesPerIp,
                format!(
                    "this address has {there} unfinished games against the computer; finish or resign one first"
                ),
            ),
            OverLimit::BotGames => ApiError::limited(
                Limit::BotGames,
                "the computer is playing as many games as this server allows; try again later",
            ),
            OverLimit::OpenGamesPerSession(mine) => ApiError::limited(
                Limit::OpenGamesPerSession,
                format!(
                    "you have {mine} games nobody has started yet; start or wait for those first"
                ),
            ),
            OverLimit::OpenGames => ApiError::limited(
                Limit::OpenGames,
                "the server has too many games waiting for players; join one of them",
            ),
        })?;
    CreationRates {
        what: "games",
        per_session: (
            &state.limiters.games_per_session,
            limits.games_per_session_per_minute,
            Limit::GamesPerSession,
        ),
        per_ip: (
            &state.limiters.games_per_ip,
            limits.games_per_ip_per_minute,
            Limit::GamesPerIp,
        ),
    }
    .take(player, ip)?;
    Ok(place)
}

/// One kind of creation's two rates (docs/security.md): what a session, and what an
/// address, may create a minute, each with its configured rate and its refusal's label.
pub struct CreationRates<'a> {
    /// What is created, in the plural ("games").
    pub what: &'static str,
    pub per_session: (&'a crate::http::limits::Rates<uuid::Uuid>, u32, Limit),
    pub per_ip: (&'a crate::http::limits::Rates<AddressKey>, u32, Limit),
}

impl CreationRates<'_> {
    /// Takes one creation for `player` at `ip`, or refuses by the rate that is spent,
    /// saying which.
    pub fn take(&self, player: uuid::Uuid, ip: std::net::IpAddr) -> Result<(), ApiError> {
        let (rates, per_minute, limit) = self.per_session;
        if !rates.allow(player) {
            return Err(ApiError::limited(
                limit,
                format!(
                    "you created {per_minute} {} in the last minute; wait a little",
                    self.what
                ),
            ));
        }
        let (rates, per_minute, limit) = self.per_ip;
        if !rates.allow(AddressKey::of(ip)) {
            return Err(ApiError::limited(
                limit,
                format!(
                    "this address created {per_minute} {} in the last minute; wait a little",
                    self.what
                ),
            ));
        }
        Ok(())
    }
}

pub async fn join_game(
    State(state): State<AppState>,
    signed_in: SignedIn,
    GameAt(game): GameAt,
) -> Result<Json<Joined>, ApiError> {
    let seat = Seat {
        player: signed_in.player_id(),
        name: signed_in.session.name.clone(),
    };
    let account = signed_in.session.username.is_some();
    let seat = game
        .join(seat, account)
        .await
        .map_err(|gone| ApiError::internal(&gone))??;
    signed_in.mark_used(&state).await;
    Ok(Json(Joined { seat }))
}

/// A game's snapshot as the viewer sees it: a finished game not in memory from its
/// stored final snapshot, any other from its task (loaded if need be). Watching needs no
/// session: without one, `you` is `null`.
pub async fn get_game(
    State(state): State<AppState>,
    MaybeSignedIn(session): MaybeSignedIn,
    GameId(id): GameId,
) -> Result<Response, ApiError> {
    // Watching needs no name: without a session (or with one the server no longer
    // knows) the game is shown as to any visitor; so it is to a device limited to another
    // tournament than this game's.
    let viewer = match session {
        Some(session) if session.only_tournament.is_some() => {
            let tournament = state
                .games
                .row(id)
                .await?
                .and_then(|row| row.archive.tournament_id);
            (tournament == session.only_tournament).then_some(session.player_id)
        }
        Some(session) => Some(session.player_id),
        None => None,
    };
    if let Some(snapshot) = finished_snapshot(&state, id, viewer).await? {
        return Ok(Json(snapshot).into_response());
    }
    let snapshot = find_game(&state, id)
        .await?
        .snapshot(viewer)
        .await
        .map_err(|gone| ApiError::internal(&gone))?;
    Ok(Json(snapshot).into_response())
}

/// A finished game that is not in memory, from the final snapshot stored with its end
/// (no replay of its log); `None` when the game is loaded, unfinished, or ended before
/// final snapshots were stored.
async fn finished_snapshot(
    state: &AppState,
    id: Uuid,
    viewer: Option<Uuid>,
) -> Result<Option<Value>, ApiError> {
    if state.games.loaded(id).is_some() {
        return Ok(None);
    }
    let Some(row) = state.games.row(id).await? else {
        return Err(ApiError::not_found("game"));
    };
    let Some(text) = row.final_json else {
        return Ok(None);
    };
    let mut snapshot: Value = serde_json::from_str(&text).map_err(|e| ApiError::internal(&e))?;
    let you = if viewer.is_some() && row.south == viewer {
        json!("s")
    } else if viewer.is_some() && row.north == viewer {
        json!("n")
    } else {
        Value::Null
    };
    snapshot["you"] = you;
    if snapshot["rated"] == json!(true) {
        // Stored with the end, before its rating: the changes are read beside it.
        let changes = state.store.rating_changes(id).await?;
        for (side, person) in [("s", row.south), ("n", row.north)] {
            let change = changes.iter().find(|c| Some(c.person) == person);
            if let (Some(change), Some(seat)) = (change, snapshot["seats"].get_mut(side)) {
                if seat.is_object() {
                    seat["rating"] = json!(omweso_ratings::rating::badge(&change.before));
                    seat["rating_change"] = json!(change.shown());
                }
            }
        }
    }
    Ok(Some(snapshot))
}

pub async fn healthz(State(state): State<AppState>) -> Result<&'static str, ApiError> {
    state.store.ping().await?;
    Ok("ok")
}

/// The lobby: `?list=open` (waiting for a second player) or `?list=live` (playing), the
/// newest 50, from the summaries the games keep up to date (no game is asked).
pub async fn list_games(
    State(state): State<AppState>,
    _: SignedIn,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Json<GameList>, ApiError> {
    let open = match query.get("list").map(String::as_str) {
        Some("open") => true,
        Some("live") => false,
        _ => {
            return Err(ApiError::bad_request(
                ErrorCode::BadList,
                "list must be \"open\" or \"live\"",
            ))
        }
    };
    Ok(Json(GameList {
        games: state.games.lobby().list(open),
    }))
}

/// Any path the server does not serve.
pub async fn not_found() -> ApiError {
    ApiError::not_found("page or call at this path")
}
