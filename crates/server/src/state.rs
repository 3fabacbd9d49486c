//! What every request handler shares.

use std::sync::Arc;

use tokio::sync::watch;
use tokio_util::task::TaskTracker;

use crate::config::ServeConfig;
use crate::game::actor::Services;
use crate::game::computer::ComputerServices;
use crate::game::registry::Registry;
use crate::lobby::games::Lobby;
use crate::people::Sessions;
use crate::pools::engine::EnginePool;
use crate::pools::search::SearchPool;
use crate::store::{Store, Writer};

#[derive(Clone)]
pub struct AppState(Arc<Inner>);

pub struct Inner {
    pub store: Store,
    pub games: std::sync::Arc<Registry>,
    pub tournaments: crate::tournament::registry::Tournaments,
    pub sessions: Sessions,
    pub limiters: crate::http::limits::Limiters,
    /// The analysis board's engine threads and limits.
    pub analysis: crate::analysis::Analysis,
    /// The threads for visitors' game files (a file read, an export's replays).
    pub files: crate::pools::fair_work::FairWork,
    /// The bytes of request bodies being received, in all and per address.
    pub body_budget: std::sync::Arc<crate::http::body_budget::BodyBudget>,
    /// Turns at checking a password, given out by address then session.
    pub password_turns: crate::pools::fair_turns::FairTurns,
    /// Exports streaming, per address and in all.
    pub exports: crate::archive::export::Streaming,
    pub config: ServeConfig,
    /// The mail the server sends (off unless the operator set up SMTP).
    pub mailer: crate::mail::Mailer,
    /// The latest `lobby` frame, for the lobby sockets (`lobby::feed`).
    pub lobby_feed: watch::Receiver<crate::lobby::feed::LobbyText>,
    /// The open WebSocket connections, so shutdown can wait for their close frames.
    pub sockets: TaskTracker,
    pub shutdown: watch::Receiver<bool>,
    /// This node among several (docs/scaling.md); `None` on a server alone.
    pub cluster: Option<Arc<crate::cluster::node::Cluster>>,
}

impl AppState {
    /// Also starts the lobby feed's task (`lobby::feed::spawn`): call it in a runtime.
    pub fn new(
        store: Store,
        writer: Writer,
        (pool, pairing): (EnginePool, crate::tournament::pairing_worker::PairingWorker),
        (analysis, files): (crate::analysis::Analysis, crate::pools::fair_work::FairWork),
        search: SearchPool,
        (config, mailer): (ServeConfig, crate::mail::Mailer),
        (shutdown, cluster): (
            watch::Receiver<bool>,
            Option<Arc<crate::cluster::node::Cluster>>,
        ),
    ) -> AppState {
        let lobby = Lobby::default();
        let services = Services {
            writer: writer.clone(),
            shutdown: shutdown.clone(),
            pool,
            lobby: lobby.clone(),
            open_game_ttl_ms: omweso_protocol::config::ms(config.limits.open_game_hours * 3600.0),
            computer: ComputerServices {
                pool: search,
                delay: std::time::Duration::from_millis(config.limits.computer_delay_ms),
            },
            computer_no_show_ms: omweso_protocol::config::ms(
                config.limits.computer_no_show_seconds,
            ),
            store: store.clone(),
            cluster: cluster.clone(),
            finished_linger: std::time::Duration::from_secs_f64(
                config.limits.finished_game_seconds,
            ),
        };
        let games = Arc::new(Registry::new(store.clone(), services));
        let tournaments = crate::tournament::registry::Tournaments::new(
            store.clone(),
            crate::tournament::actor::Services {
                writer: writer.clone(),
                games: Arc::clone(&games),
                shutdown: shutdown.clone(),
                lobby: Arc::clone(lobby.changes()),
                live_games: config.limits.live_games,
                pairing,
                store: store.clone(),
                open_tournament_ms: omweso_protocol::config::ms(
                    config.limits.open_tournament_days * 86_400.0,
                ),
                cluster: cluster.clone(),
            },
        );
        let lobby_feed = crate::lobby::feed::spawn(lobby, store.clone(), shutdown.clone());
        AppState(Arc::new(Inner {
            games,
            tournaments,
            sessions: Sessions::with_expiry(
                store.clone(),
                writer,
                config.limits.session_cache,
                crate::people::Expiry::new(
                    config.limits.unused_session_minutes,
                    config.limits.session_idle_days,
                ),
            )
            .with_clock(config.wall_clock.clone()),
            limiters: crate::http::limits::Limiters::new(&config.limits),
            analysis,
            files,
            password_turns: crate::people::password::turns(),
            body_budget: crate::http::body_budget::BodyBudget::new(
                config.limits.body_bytes,
                config.limits.body_bytes_per_ip,
            ),
            exports: crate::archive::export::Streaming::new(
                config.limits.exports_at_once,
                config.limits.exports_at_once_per_ip,
            ),
            store,
            config,
            mailer,
            lobby_feed,
            sockets: TaskTracker::new(),
            shutdown,
            cluster,
        }))
    }
}

impl AppState {
    /// The tournaments as the people's routes ask them (`people::their_tournaments`).
    #[must_use]
    pub fn their_tournaments(&self) -> &dyn crate::people::their_tournaments::TheirTournaments {
        &self.tournaments
    }

    /// The tournaments as the archive asks them (`archive::tournament_rounds`).
    #[must_use]
    pub fn tournament_rounds(&self) -> &dyn crate::archive::tournament_rounds::TournamentRounds {
        &self.tournaments
    }
}

/// What the HTTP layer reads of this state (`http::edge_state`).
impl crate::http::edge_state::EdgeState for AppState {
    fn config(&self) -> &ServeConfig {
        &self.config
    }

    fn limiters(&self) -> &crate::http::limits::Limiters {
        &self.limiters
    }

    fn body_budget(&self) -> &Arc<crate::http::body_budget::BodyBudget> {
        &self.body_budget
    }
}

impl std::ops::Deref for AppState {
    type Target = Inner;

    fn deref(&self) -> &Inner {
        &self.0
    }
}
