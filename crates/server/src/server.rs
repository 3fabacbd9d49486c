//! The server as a library function: `run(listener, config, shutdown)` (mini-redis style),
//! so tests start it on port 0 and `main` stays thin.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use axum::http::{header, Extensions, HeaderMap, StatusCode, Version};
use axum::routing::{get, post};
use axum::Router;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tower_http::compression::predicate::{Predicate, SizeAbove};
use tower_http::compression::CompressionLayer;

use crate::config::ServeConfig;
use crate::http::accept::{self, AcceptLimits};
use crate::pools::engine::EnginePool;
use crate::pools::search::SearchPool;
use crate::state::AppState;
use crate::store::{CommitDelay, Store, StoreError, Writer};
use crate::{assets, http};

/// How long shutdown waits for sockets to take their close frames.
const CLOSE_GRACE: Duration = Duration::from_secs(3);

#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error("database: {0}")]
    Store(#[from] StoreError),
    #[error("network: {0}")]
    Io(#[from] std::io::Error),
    #[error("{0}")]
    Config(String),
    #[error("{0}")]
    Cluster(#[from] crate::cluster::node::JoinError),
    #[error("this node lost its lease (it could not renew its heartbeat in time) and stopped, so as never to play a game another node took over")]
    LeaseLost,
}

/// The routes.
pub fn router(state: AppState) -> Router {
    let router = Router::new()
        .route("/healthz", get(crate::game::api::healthz))
        .route(
            "/api/session",
            post(crate::people::accounts_api::create_session)
                .delete(crate::people::accounts_api::sign_out),
        )
        .route("/api/account", post(crate::people::accounts_api::sign_up))
        .route(
            "/api/account/password",
            axum::routing::put(crate::people::accounts_api::change_password),
        )
        .route(
            "/api/account/recovery-codes",
            post(crate::people::accounts_api::renew_recovery_codes),
        )
        .route("/api/login", post(crate::people::accounts_api::log_in))
        .route(
            "/api/login/recovery",
            post(crate::people::accounts_api::recover),
        )
        .merge(crate::people::email_api::routes())
        .route(
            "/api/devices",
            get(crate::people::accounts_api::devices)
                .delete(crate::people::accounts_api::sign_out_others),
        )
        .route(
            "/api/devices/{id}",
            axum::routing::delete(crate::people::accounts_api::sign_out_device),
        )
        .route(
            "/api/link-codes",
            post(crate::people::accounts_api::make_link_code),
        )
        .route(
            "/api/link",
            post(crate::people::accounts_api::use_link_code),
        )
        .route(
            "/api/players/{username}",
            get(crate::people::pages_api::player),
        )
        .route(
            "/api/players/{username}/rating-history",
            get(crate::ratings::api::history),
        )
        .route(
            "/api/leaderboards/{ruleset}",
            get(crate::ratings::api::leaderboard),
        )
        .route(
            "/api/tournaments/{id}/ratings",
            get(crate::ratings::api::tournament),
        )
        .route("/api/me/games", get(crate::people::pages_api::my_games))
        .route("/api/archive", get(crate::archive::api::search))
        .route("/api/archive/{id}", get(crate::archive::api::entry))
        .route("/games", get(assets::page))
        .route("/api/games/{id}", get(crate::game::api::get_game))
        .route("/api/games/{id}/join", post(crate::game::api::join_game))
        .route(
            "/api/games/{id}/export",
            get(crate::archive::exports_api::game),
        )
        .route(
            "/api/players/{username}/games/export",
            get(crate::archive::exports_api::player),
        )
        .route("/ws/games/{id}", get(crate::game::socket::upgrade))
        .route(
            "/api/me",
            get(crate::people::accounts_api::me).patch(crate::people::accounts_api::rename),
        )
        .route("/api/analysis/legal", post(crate::analysis::api::legal))
        .route("/api/analysis/play", post(crate::analysis::api::play))
        .route("/api/analysis/search", post(crate::analysis::api::search))
        .route(
            "/api/analysis/read-game",
            post(crate::archive::exports_api::read_game).layer(
                axum::extract::DefaultBodyLimit::max(crate::archive::exports_api::MAX_READ_BYTES),
            ),
        )
        .route("/analysis", get(assets::page))
        .route("/howto", get(assets::page))
        .route("/howto/{game}", get(assets::page))
        .route(
            "/api/games",
            get(crate::game::api::list_games).post(crate::game::api::create_game),
        )
        .route(
            "/api/tournaments",
            get(crate::tournament::api::list).post(crate::tournament::api::create),
        )
        .route("/api/tournaments/{id}", get(crate::tournament::api::get))
        .route(
            "/api/tournaments/{id}/join",
            post(crate::tournament::api::join),
        )
        .route(
            "/api/tournaments/{id}/withdraw",
            post(crate::tournament::api::withdraw),
        )
        .route(
            "/api/tournaments/{id}/rounds",
            post(crate::tournament::api::pair),
        )
        .route(
            "/api/tournaments/{id}/rounds/{n}",
            axum::routing::put(crate::tournament::api::edit_round),
        )
        .route(
            "/api/tournaments/{id}/rounds/{n}/start",
            post(crate::tournament::api::start_round),
        )
        .route(
            "/api/tournaments/{id}/rounds/{n}/end",
            post(crate::tournament::api::end_round),
        )
        .route(
            "/api/tournaments/{id}/sheets/{game_id}",
            post(crate::tournament::api::sheet),
        )
        .route(
            "/api/tournaments/{id}/forbidden-pairs",
            axum::routing::put(crate::tournament::api::forbidden_pairs),
        )
        .route(
            "/api/tournaments/{id}/{file}",
            get(crate::tournament::api::export),
        )
        .route(
            "/ws/tournaments/{id}",
            get(crate::tournament::socket::upgrade),
        )
        .route("/ws/lobby", get(crate::lobby::socket::upgrade))
        .route("/t/{id}", get(assets::page))
        // The hall screen, the print view, a table's sheet entry and its relay's page.
        .route("/t/{id}/{*rest}", get(assets::page))
        .route("/account", get(assets::page))
        .route("/link", get(assets::page))
        .route("/me", get(assets::page))
        .route("/@/{username}", get(assets::page))
        // Part D's leaderboards page (web/leaderboard/), over GET /api/leaderboards/{ruleset}.
        .route("/leaderboards", get(assets::page))
        .route("/leaderboards/{ruleset}", get(assets::page))
        .route("/", get(assets::page))
        .route("/g/{id}", get(assets::page))
        .route("/static/{*path}", get(assets::asset))
        .merge(crate::tournament::people_api::routes())
        .merge(crate::tournament::otb_api::routes())
        .fallback(crate::game::api::not_found)
        // A game's or tournament's request is answered by the node holding it (several
        // nodes, docs/scaling.md); a server alone passes every request on.
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            crate::cluster::forward::to_owner,
        ))
        .layer(axum::extract::DefaultBodyLimit::max(
            http::limits::BODY_LIMIT,
        ))
        // Before the body is read, here or by a forward to another node.
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            http::edge::within_body_budget::<AppState>,
        ))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            http::edge::guard_state_changes::<AppState>,
        ))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            http::edge::time_limit::<AppState>,
        ))
        .layer(axum::middleware::from_fn(http::edge::json_refusals))
        .layer(compress_api_answers());
    http::edge::with_security_headers(router, &state.config).with_state(state)
}

/// The API's JSON (and its CSV and text exports) compressed as the client accepts, once
/// big enough to gain. The web files come compressed already (src/assets), and a WebSocket
/// upgrade has no body: neither is touched.
fn compress_api_answers() -> CompressionLayer<impl Predicate> {
    let api_text = |_: StatusCode, _: Version, headers: &HeaderMap, _: &Extensions| {
        headers
            .get(header::CONTENT_TYPE)
            .and_then(|value| value.to_str().ok())
            .is_some_and(|value| {
                [
                    "application/json",
                    "text/csv",
                    "text/plain",
                    "application/x-ogn",
                    "application/x-ndjson",
                ]
                .iter()
                .any(|t| value.starts_with(t))
            })
    };
    CompressionLayer::new().compress_when(SizeAbove::new(256).and(api_text))
}

/// Tells whoever waits that the server is ready (database open, games restored), or that
/// it failed before getting there.
#[derive(Clone, Debug)]
pub struct Ready(
    watch::Sender<Option<bool>>,
    watch::Sender<Option<std::net::SocketAddr>>,
);

impl Ready {
    #[must_use]
    pub fn new() -> Ready {
        Ready(watch::channel(None).0, watch::channel(None).0)
    }

    /// Where metrics are served, once ready (`None` when off).
    #[must_use]
    pub fn metrics_addr(&self) -> Option<std::net::SocketAddr> {
        *self.1.borrow()
    }

    /// `true` once the server is ready, `false` if it stopped before.
    pub async fn wait(&self) -> bool {
        let mut rx = self.0.subscribe();
        let ready = match rx.wait_for(Option::is_some).await {
            Ok(state) => state.unwrap_or(false),
            Err(_) => false,
        };
        ready
    }

    fn set(&self, ready: bool) {
        self.0.send_replace(Some(ready));
    }
}

impl Default for Ready {
    fn default() -> Ready {
        Ready::new()
    }
}

/// Serves on `listener` until `shutdown` completes; then stops accepting, closes every
/// socket with a close frame, flushes the action log and closes the database.
pub async fn run(
    listener: TcpListener,
    config: ServeConfig,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    run_with(listener, config, shutdown, Ready::new()).await
}

/// As [`run`], reporting readiness on `ready`.
pub async fn run_with(
    listener: TcpListener,
    config: ServeConfig,
    shutdown: impl Future<Output = ()> + Send + 'static,
    ready: Ready,
) -> Result<(), ServeError> {
    let result = serve(listener, config, shutdown, &ready).await;
    ready.set(result.is_ok());
    result
}

async fn serve(
    listener: TcpListener,
    config: ServeConfig,
    shutdown: impl Future<Output = ()> + Send + 'static,
    ready: &Ready,
) -> Result<(), ServeError> {
    let config_metrics = config.metrics().map_err(ServeError::Config)?;
    config.limits.validate().map_err(ServeError::Config)?;
    // A node that will refuse to join the others (no NATS credentials, no cluster secret)
    // says so before it touches the database: it used to migrate it first.
    if !config.nats_url.is_empty() {
        crate::cluster::credentials::Credentials::from_settings(
            &config.nats_url,
            &config.cluster_credentials,
        )
        .map_err(crate::cluster::node::JoinError::from)?;
    }
    let store = Store::open(&config.database_url).await?;
    let delay = CommitDelay {
        wait: Duration::from_micros(config.commit_delay_us),
    };
    let (writer, writer_task) = Writer::spawn_with(store.clone(), 4096, delay);
    let cluster = if config.nats_url.is_empty() {
        None
    } else {
        match crate::cluster::node::Cluster::join(
            &config.nats_url,
            &config.node_name,
            &config.cluster_credentials,
            store.clone(),
            Duration::from_secs_f64(config.lease_seconds.clamp(1.0, 600.0)),
        )
        .await
        {
            Ok(cluster) => Some(cluster),
            Err(error) => {
                writer.shutdown().await;
                let _ = writer_task.await;
                store.close().await;
                return Err(error.into());
            }
        }
    };
    let served = serve_with(
        listener,
        config,
        shutdown,
        ready,
        config_metrics,
        (&store, &writer),
        cluster.clone(),
    )
    .await;
    // Also when serving failed (restoring the games, binding the metrics address): the
    // log is flushed and the database closed in order, not dropped.
    writer.shutdown().await;
    let _ = writer_task.await;
    // Its rooms wrote their last: the others may take them over at once.
    if let Some(cluster) = &cluster {
        if !matches!(served, Err(ServeError::LeaseLost)) {
            cluster.leave().await;
        }
    }
    store.close().await;
    served
}

/// Deletes expired sessions every few minutes (more often when unused ones last less
/// than ten minutes), until the server stops. A session is refused once expired whether
/// or not the sweep has run; the sweep keeps the table from growing.
fn spawn_session_sweep(state: &AppState) {
    let unused = state.config.limits.unused_session_minutes * 60.0;
    let every = Duration::from_secs_f64((unused / 2.0).clamp(1.0, 300.0));
    let state = state.clone();
    let mut stopped = state.shutdown.clone();
    tokio::spawn(async move {
        loop {
            tokio::select! {
                () = tokio::time::sleep(every) => {}
                _ = stopped.wait_for(|stop| *stop) => return,
            }
            if let Err(error) = state.sessions.sweep().await {
                tracing::warn!(%error, "could not delete the expired sessions");
            }
        }
    });
}

/// Every minute, the sockets of devices signed out (or accounts disabled) by another
/// process are ended, as this process's own sign-outs end theirs.
fn spawn_socket_recheck(state: &AppState) {
    let every = Duration::from_millis(crate::people::RECHECK_MS.unsigned_abs());
    let state = state.clone();
    let mut stopped = state.shutdown.clone();
    tokio::spawn(async move {
        loop {
            tokio::select! {
                () = tokio::time::sleep(every) => {}
                _ = stopped.wait_for(|stop| *stop) => return,
            }
            match state.sessions.end_sockets_of_gone_devices().await {
                Ok(0) => {}
                Ok(ended) => tracing::info!(ended, "sockets of devices signed out elsewhere ended"),
                Err(error) => tracing::warn!(%error, "could not check the sockets' devices"),
            }
        }
    });
}

async fn serve_with(
    listener: TcpListener,
    config: ServeConfig,
    shutdown: impl Future<Output = ()> + Send + 'static,
    ready: &Ready,
    config_metrics: Option<std::net::SocketAddr>,
    (store, writer): (&Store, &Writer),
    cluster: Option<Arc<crate::cluster::node::Cluster>>,
) -> Result<(), ServeError> {
    let (stop, stopped) = watch::channel(false);
    let pool = match config.limits.engine_threads {
        0 => EnginePool::per_core(),
        threads => EnginePool::start(threads),
    }?;
    let search = match config.limits.search_threads {
        0 => SearchPool::per_core(),
        threads => SearchPool::start(threads),
    }?;
    let accept_limits = AcceptLimits {
        connections: config.limits.connections,
        connections_per_ip: config.limits.connections_per_ip,
        idle: Duration::from_secs_f64(config.limits.http_idle_seconds),
        write_stall: Duration::from_secs_f64(config.limits.http_write_stall_seconds),
        trusted_proxies: config
            .limits
            .trusted_proxies()
            .map_err(ServeError::Config)?
            .into(),
    }
    .fitted_to_open_files();
    let analysis = crate::analysis::Analysis::start(&config.limits)?;
    let files = crate::pools::fair_work::FairWork::start(crate::pools::fair_work::file_threads(
        config.limits.file_threads,
    ))?;
    let pairing = crate::tournament::pairing_worker::PairingWorker::start()?;
    let mailer =
        crate::mail::Mailer::start(&config, stopped.clone()).map_err(ServeError::Config)?;
    let state = AppState::new(
        store.clone(),
        writer.clone(),
        (pool, pairing),
        (analysis, files),
        search,
        (config, mailer),
        (stopped.clone(), cluster.clone()),
    );
    // The heartbeat first: restoring the games and tournaments below may take longer than
    // the lease, which must not run out meanwhile.
    let (lost_tx, lost) = tokio::sync::oneshot::channel();
    if let Some(cluster) = &cluster {
        crate::cluster::upkeep::spawn_heartbeat(
            state.shutdown.clone(),
            Arc::clone(cluster),
            lost_tx,
        );
    }
    let restored = state.games.restore_unfinished().await?;
    tracing::info!(restored, backend = store.backend(), "games restored");
    let tournaments = state.tournaments.restore_unfinished().await?;
    tracing::info!(tournaments, "tournaments restored");
    state.sessions.sweep().await?;
    let filled = store.fill_tournament_people().await?;
    if filled > 0 {
        tracing::info!(filled, "tournaments' people listed from their logs");
    }
    let archived = store.fill_archive_columns().await?;
    if archived > 0 {
        tracing::info!(archived, "finished games' archive columns filled in");
    }
    spawn_session_sweep(&state);
    spawn_socket_recheck(&state);
    let app = router(state.clone());
    if let Some(cluster) = &cluster {
        let rooms: Arc<dyn crate::cluster::local_rooms::LocalRooms> = Arc::new(state.clone());
        crate::cluster::rooms::serve(Arc::clone(&rooms), Arc::clone(cluster))
            .await
            .map_err(|e| ServeError::Config(format!("NATS: {e}")))?;
        crate::cluster::forward::serve(app.clone(), Arc::clone(cluster))
            .await
            .map_err(|e| ServeError::Config(format!("NATS: {e}")))?;
        crate::lobby::across_nodes::spawn(
            state.games.lobby().clone(),
            Arc::clone(cluster),
            state.shutdown.clone(),
        )
        .await
        .map_err(|e| ServeError::Config(format!("NATS: {e}")))?;
        crate::cluster::upkeep::spawn_sweep(rooms, state.shutdown.clone(), Arc::clone(cluster));
    }
    assets::warm();
    if let Some(addr) = config_metrics {
        let metrics = TcpListener::bind(addr)
            .await
            .map_err(|e| ServeError::Config(ServeConfig::metrics_bind_error(addr, &e)))?;
        ready.1.send_replace(metrics.local_addr().ok());
        let games = state.clone();
        let routes = Router::new().route(
            "/metrics",
            get(move || {
                let live = games.games.live();
                let sessions = games.sessions.cached();
                async move {
                    (
                        [(
                            axum::http::header::CONTENT_TYPE,
                            crate::metrics::CONTENT_TYPE,
                        )],
                        crate::metrics::render(live, sessions),
                    )
                }
            }),
        );
        let mut stopped = state.shutdown.clone();
        tokio::spawn(async move {
            let _ = axum::serve(metrics, routes)
                .with_graceful_shutdown(async move {
                    let _ = stopped.wait_for(|stop| *stop).await;
                })
                .await;
        });
    }
    ready.set(true);
    let lease_lost = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let lost_flag = Arc::clone(&lease_lost);
    tokio::spawn(async move {
        tokio::select! {
            () = shutdown => tracing::info!("shutting down"),
            Ok(()) = lost => {
                lost_flag.store(true, std::sync::atomic::Ordering::SeqCst);
                tracing::error!("stopping: this node lost its lease");
            }
        }
        let _ = stop.send(true);
    });
    let connections = tokio_util::task::TaskTracker::new();
    accept::serve(listener, app, accept_limits, stopped, connections.clone()).await;
    // Every connection was asked to finish its request and close.
    connections.close();
    if tokio::time::timeout(CLOSE_GRACE, connections.wait())
        .await
        .is_err()
    {
        tracing::warn!("some connections did not finish in time");
    }
    state.sockets.close();
    if tokio::time::timeout(CLOSE_GRACE, state.sockets.wait())
        .await
        .is_err()
    {
        tracing::warn!("some sockets did not close in time");
    }
    if lease_lost.load(std::sync::atomic::Ordering::SeqCst) {
        return Err(ServeError::LeaseLost);
    }
    Ok(())
}
