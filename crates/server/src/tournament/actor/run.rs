//! A tournament's task loop: commands, its games' news and stops, and its timers (the
//! round clock, batched boards and standings, retries, unloading and expiry).

use tokio::sync::watch;
use tokio::time::Instant;

use super::{Actor, BOARD_EVERY, IDLE_UNLOAD, RETRY_MS, STANDINGS_EVERY};
use crate::room::wake::{earliest, instant_of, sleep_until};
use crate::store::Write;
use crate::tournament::log::Entry;
use omweso_protocol::clock::now_ms;
use omweso_protocol::tournament::TournamentStatus;
use omweso_protocol::ErrorCode;

impl Actor {
    pub(super) async fn run(mut self, mut shutdown: watch::Receiver<bool>) {
        let id = self.t.id();
        self.to_watch.extend(
            self.t
                .games_in_play()
                .into_iter()
                .map(|(game_id, _, _)| game_id),
        );
        loop {
            // Replays created (and, after a restart, every game in play) are watched
            // here, not where they are made: watching may itself record an end.
            while let Some(game_id) = self.to_watch.pop() {
                self.watch(game_id).await;
            }
            self.adjudicate_due();
            // A finished tournament nobody has watched or asked for a while is unloaded;
            // it is rebuilt from its log when asked for again.
            if self.idle_until().is_some_and(|at| at <= Instant::now()) {
                break;
            }
            if self.stale_until.is_some_and(|at| at <= now_ms()) {
                self.rebuild().await;
            }
            // One that never started a round in its time is removed, log and all.
            if self.expiry().is_some_and(|at| at <= now_ms()) && self.expire().await {
                break;
            }
            let wake = self.next_wake();
            tokio::select! {
                command = self.rx.recv() => match command {
                    Some(command) => {
                        self.last_command = Instant::now();
                        self.handle(command).await;
                    }
                    None => break,
                },
                Some(news) = self.news_rx.recv() => self.on_news(news).await,
                Some(answer) = self.adjudications_rx.recv() => self.on_adjudication(answer).await,
                () = sleep_until(wake) => self.on_timer().await,
                _ = shutdown.changed() => {
                    self.close_all(1001, "the server is restarting; reconnect in a moment");
                    break;
                }
            }
            // Another node took this tournament over (several nodes, docs/scaling.md):
            // the store refuses this node's writes for it; its sockets reconnect there.
            if self.services.writer.fenced_out() {
                tracing::warn!(tournament = %id, "taken over by another node; unloading");
                self.close_all(1012, crate::room::MOVED);
                break;
            }
        }
        tracing::debug!(tournament = %id, "tournament unloaded");
    }

    /// When this task unloads, if it is idle: a finished tournament without sockets,
    /// [`IDLE_UNLOAD`] after the last command.
    pub(super) fn idle_until(&self) -> Option<Instant> {
        (self.t.status() == TournamentStatus::Finished && self.room.connections.is_empty())
            .then(|| self.last_command + IDLE_UNLOAD)
    }

    /// When this tournament is removed if it has not started a round by then (or when to
    /// try again, after the store refused the removal).
    pub(super) fn expiry(&self) -> Option<u64> {
        (self.t.status() == TournamentStatus::Open).then(|| {
            let due = self.t.created_at_ms() + self.services.open_tournament_ms;
            due.max(self.expiry_retry_at)
        })
    }

    /// Removes a tournament that never started (docs/security.md): its row and log go, its
    /// watchers are told, the lobby forgets it. Whether it was removed; if the store
    /// refused, it is tried again later.
    pub(super) async fn expire(&mut self) -> bool {
        let id = self.t.id();
        if let Err(error) = self
            .services
            .writer
            .write(vec![Write::DeleteTournament(id)])
            .await
        {
            tracing::error!(tournament = %id, %error, "could not remove an expired tournament");
            self.expiry_retry_at = now_ms() + RETRY_MS;
            return false;
        }
        tracing::info!(tournament = %id, "a tournament that never started was removed");
        if let (Some(cluster), Some(lease)) = (&self.services.cluster, self.services.writer.lease())
        {
            cluster.release(lease).await;
        }
        self.services.lobby.tournaments_changed();
        self.close_all(1000, "this tournament never started and has been removed");
        true
    }

    pub(super) fn next_wake(&self) -> Option<Instant> {
        let now = now_ms();
        let deadline = self.t.next_deadline().map(|at| at.max(self.held_until));
        let mut wake = deadline.map(|at| instant_of(at, now));
        if !self.dirty.is_empty() || self.presence_dirty {
            wake = earliest(wake, self.boards_sent + BOARD_EVERY);
        }
        let unwatched = self
            .t
            .games_in_play()
            .iter()
            .any(|(id, _, _)| !self.watching.contains(id));
        let stop_again = self
            .t
            .games_to_adjudicate()
            .iter()
            .any(|id| !self.adjudicating.contains(id));
        if let Some(idle) = self.idle_until() {
            wake = earliest(wake, idle);
        }
        if let Some(due) = self.standings_due {
            wake = earliest(wake, due);
        }
        if let Some(at) = self.stale_until {
            wake = earliest(wake, instant_of(at, now));
        }
        if let Some(expiry) = self.expiry() {
            wake = earliest(wake, instant_of(expiry, now));
        }
        for (retry, at) in [
            (unwatched, self.rewatch_at),
            (stop_again, self.adjudicate_retry_at),
        ] {
            if retry {
                wake = earliest(wake, instant_of(at, now));
            }
        }
        wake
    }

    pub(super) async fn on_timer(&mut self) {
        let now = now_ms();
        if self.t.next_deadline().is_some_and(|at| now >= at) && now >= self.held_until {
            if let Err(refusal) = self.commit_at(Entry::Tick, now, Vec::new()).await {
                if refusal.code == ErrorCode::Unavailable {
                    self.held_until = now + RETRY_MS;
                }
            }
        }
        if (!self.dirty.is_empty() || self.presence_dirty)
            && self.boards_sent + BOARD_EVERY <= Instant::now()
        {
            self.flush_boards();
        }
        if self.standings_due.is_some_and(|due| due <= Instant::now()) {
            self.standings_due = None;
            self.standings_sent = Instant::now();
            if self.commit(Entry::Standings, Vec::new()).await.is_err() {
                // Not saved: tried again with the next period.
                self.standings_due = Some(Instant::now() + STANDINGS_EVERY);
            }
        }
        if now >= self.rewatch_at {
            self.to_watch.extend(
                self.t
                    .games_in_play()
                    .into_iter()
                    .map(|(game_id, _, _)| game_id)
                    .filter(|game_id| !self.watching.contains(game_id)),
            );
        }
    }
}
