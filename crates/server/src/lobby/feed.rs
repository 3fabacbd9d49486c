//! The pushed lobby behind `GET /ws/lobby`: ONE task for the whole server, not one per
//! socket. Told that a list changed ([`LobbyChanges`](super::changes::LobbyChanges), set
//! by the games and the tournaments), it reads the lists again, encodes the `lobby` frame
//! once and publishes its text on a `watch`; every lobby socket sends the latest text
//! whenever it changes (`crate::lobby::socket`). A socket that cannot keep up skips
//! to the latest text: nothing queues up per socket.
//!
//! Changes are coalesced: a push at most every [`PUSH_EVERY`], each [`SETTLE`] after the
//! first change it carries, so that a burst (a round's games starting) is one push. The
//! live games' move counts are read every [`MOVE_COUNTS_EVERY`], not on every move. The games' lists come from the in-memory `lobby::games::Lobby`;
//! the tournaments' from the store, read here only, and only when a tournament's line
//! changed. A push whose text is the last one's is not made.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::Utf8Bytes;
use tokio::sync::watch;
use tokio::time::Instant;

use super::changes::Changed;

use super::tournaments;
use crate::lobby::games::Lobby;
use crate::room::wake::sleep_until;
use crate::store::{Store, StoreError};
use omweso_protocol::lobby::{LobbyFrame, LobbyView, TournamentLists};
use omweso_protocol::tournament::TournamentStatus;

/// The least time between two pushes (at most four a second).
pub const PUSH_EVERY: Duration = Duration::from_millis(250);
/// How long after a change the lists are read: the rest of a burst joins it.
pub const SETTLE: Duration = Duration::from_millis(50);
/// How often the live games' move counts are read again when nothing else changed (a
/// move alone is not a change: see `Lobby::set_moves`).
pub const MOVE_COUNTS_EVERY: Duration = Duration::from_secs(3);
/// How long after the store failed to list the tournaments it is asked again.
const RETRY: Duration = Duration::from_secs(1);

/// The latest `lobby` frame's text; `None` until the lists are first read.
pub type LobbyText = Option<Utf8Bytes>;

/// Starts the feed over `lobby` (whose changes it follows) and `store`, until `shutdown`;
/// the receiver is what each lobby socket clones.
pub fn spawn(
    lobby: Lobby,
    store: Store,
    shutdown: watch::Receiver<bool>,
) -> watch::Receiver<LobbyText> {
    let (tx, rx) = watch::channel(None);
    tokio::spawn(run(lobby, store, tx, shutdown));
    rx
}

async fn run(
    lobby: Lobby,
    store: Store,
    tx: watch::Sender<LobbyText>,
    mut shutdown: watch::Receiver<bool>,
) {
    let changes = Arc::clone(lobby.changes());
    let mut tournaments = TournamentLists::default();
    let mut changed = Changed::ALL;
    let mut retry_at: Option<Instant> = None;
    loop {
        if changed.tournaments {
            match read_tournaments(&store).await {
                Ok(lists) => {
                    tournaments = lists;
                    retry_at = None;
                }
                Err(error) => {
                    // The games are pushed meanwhile, with the tournaments last read.
                    tracing::warn!(%error, "the lobby could not list the tournaments; trying again");
                    retry_at = Some(Instant::now() + RETRY);
                }
            }
        }
        let view = LobbyView {
            open_games: lobby.list(true),
            live_games: lobby.list(false),
            tournaments: tournaments.clone(),
        };
        let text: Utf8Bytes = LobbyFrame::lobby(view).to_text().into();
        tx.send_if_modified(|latest| {
            if latest.as_deref() == Some(&*text) {
                return false;
            }
            *latest = Some(text);
            true
        });
        // The next push is at least PUSH_EVERY after this one: changes meanwhile wait.
        if stopped(&mut shutdown, tokio::time::sleep(PUSH_EVERY - SETTLE)).await {
            break;
        }
        let waited = tokio::select! {
            changed = changes.wait() => Some(changed),
            () = sleep_until(retry_at) => Some(Changed { games: false, tournaments: true }),
            () = tokio::time::sleep(MOVE_COUNTS_EVERY) => Some(Changed { games: true, tournaments: false }),
            _ = shutdown.wait_for(|stop| *stop) => None,
        };
        let Some(first) = waited else { break };
        if stopped(&mut shutdown, tokio::time::sleep(SETTLE)).await {
            break;
        }
        changed = first.or(changes.take());
        changed.tournaments |= retry_at.is_some_and(|at| at <= Instant::now());
    }
    // Dropping the sender tells every lobby socket the server is stopping.
    tracing::debug!("lobby feed stopped");
}

/// The three tournament lists, as `GET /api/tournaments?list=` answers each.
async fn read_tournaments(store: &Store) -> Result<TournamentLists, StoreError> {
    Ok(TournamentLists {
        open: tournaments::list(store, TournamentStatus::Open).await?,
        running: tournaments::list(store, TournamentStatus::Running).await?,
        finished: tournaments::list(store, TournamentStatus::Finished).await?,
    })
}

/// Runs `wait` unless the server stops first; `true` if it did.
async fn stopped(shutdown: &mut watch::Receiver<bool>, wait: impl std::future::Future) -> bool {
    tokio::select! {
        _ = wait => false,
        _ = shutdown.wait_for(|stop| *stop) => true,
    }
}
