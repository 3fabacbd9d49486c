//! A game's task loop: commands, timers (the table's deadlines, the batched `crowd`, an
//! unstarted game's removal) and the computer's turns, until the game unloads.

use axum::extract::ws::Utf8Bytes;
use omweso_rules::Side;
use tokio::sync::watch;
use tokio::time::Instant;

use super::persist::persist;
use super::{Actor, Removal, CROWD_EVERY, EXPIRY_RETRY_MS, TIMER_RETRY_MS};
use crate::game::log::Entry;
use crate::game::table::Action;
use crate::metrics::{count, METRICS};
use crate::room::wake::{earliest, instant_of, sleep_until};
use crate::store::Write;
use omweso_protocol::clock::now_ms;
use omweso_protocol::{Frame, Status};

/// The longest a game just loaded waits for the ask that loaded it (a snapshot, a socket)
/// before it may unload, whatever `--finished-game-seconds` says.
const FIRST_ASK_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

impl Actor {
    pub(super) async fn run(mut self, mut shutdown: watch::Receiver<bool>, resumed: bool) {
        let id = self.table.id();
        tracing::debug!(game = %id, "game loaded");
        if resumed {
            self.resume().await;
        }
        // The seats' ratings, for the lobby's entry and the first snapshot.
        self.refresh_ratings().await;
        self.services.lobby.update(self.summary(self.spectators()));
        loop {
            self.computer_turn().await;
            let wake = self.next_wake();
            tokio::select! {
                command = self.rx.recv() => match command {
                    Some(command) => {
                    self.last_asked = Instant::now();
                    self.asked_since_loaded = true;
                    self.handle(command).await;
                    self.sync_presence().await;
                }
                    None => break,
                },
                () = sleep_until(wake) => {
                    self.on_timer().await;
                    self.sync_presence().await;
                }
                thought = self.computer.thought() => self.computer.heard(thought, id),
                _ = shutdown.changed() => {
                    self.close_all(1001, "the server is restarting; reconnect in a moment");
                    break;
                }
            }
            if self.expired {
                break;
            }
            // Another node took this game over (several nodes, docs/scaling.md): the store
            // refuses this node's writes for it; its sockets reconnect there.
            if self.services.writer.fenced_out() {
                tracing::warn!(game = %id, "taken over by another node; unloading");
                self.close_all(1012, crate::room::MOVED);
                break;
            }
            // A finished game nobody watches is unloaded a while after it was last asked
            // anything; it is reloaded from the store when asked for again. Not at once:
            // a finished game asked for again and again (a join, a spectator's socket)
            // was rebuilt from its log each time, over a thousand times a second.
            if self
                .unwatched_until()
                .is_some_and(|until| Instant::now() >= until)
            {
                break;
            }
        }
        self.services.lobby.remove(id);
        // A finished game unloaded (or one removed) gives its lease back; a later read
        // loads it anywhere.
        if let (Some(cluster), Some(lease)) = (&self.services.cluster, self.services.writer.lease())
        {
            // A game over, or removed unstarted: nothing more to play anywhere.
            let done = self.table.status().is_over() || self.expired;
            if done && !self.services.writer.fenced_out() {
                cluster.release(lease).await;
            }
        }
        tracing::debug!(game = %id, "game unloaded");
    }

    /// When an unstarted game is removed, if it is one (or when to try again, after the
    /// store refused the removal).
    /// A timed arrangement is ended by the grace, a tournament game by its round's end.
    /// A relayed game is never removed so.
    pub(super) fn expiry(&self) -> Option<u64> {
        // A relayed game waits for its relay, however long the wooden board takes.
        let open = self.table.status() == Status::Setup
            && !self.table.grace_runs()
            && self.table.config().stop_at_ms.is_none()
            && !self.table.config().relayed;
        open.then(|| {
            let due = self.table.created_at_ms() + self.services.open_game_ttl_ms;
            due.max(self.expiry_retry_at)
        })
    }

    /// When a game against the computer whose person has played nothing yet and is away
    /// is removed: the no-show time after they left (or after its creation, if they never
    /// came), whatever the time control's disconnect grace. Once they have played, the
    /// grace is the time control's, as in any game.
    pub(super) fn no_show(&self) -> Option<u64> {
        let waiting = self.table.computer().is_some()
            && !self.table.status().is_over()
            && !self.table.person_has_played();
        let since = self.person_away_since.filter(|_| waiting)?;
        Some((since + self.services.computer_no_show_ms).max(self.expiry_retry_at))
    }

    /// After a restart: the game goes on from its log with the time the server was down
    /// counting against nobody ([`Table::resume`]). A game not over logs it, so that
    /// the next replay rebuilds the same deadlines and event versions; if the store
    /// refuses, the game goes on and only a later replay would differ (logged).
    pub(super) async fn resume(&mut self) {
        let now = now_ms();
        self.table.resume(now);
        // Logged for every game not over: a restart changes every table (nobody is at it
        // any more), set up or playing, and the replay must see the same.
        if self.table.status().is_over() {
            return;
        }
        let saved = persist(
            &self.services,
            &self.table,
            self.next_seq,
            Entry::Resume,
            now,
            (false, false),
        )
        .await;
        match saved {
            Ok(()) => self.next_seq += 1,
            Err(_) => tracing::error!(
                game = %self.table.id(),
                "could not log the game's resumption: a later replay may differ from this run"
            ),
        }
    }

    /// Removes a game nobody started in time, or whose person facing the computer did not
    /// come: its row and log, and its sockets.
    pub(super) async fn expire(&mut self, why: Removal) {
        let id = self.table.id();
        match self
            .services
            .writer
            .write(vec![Write::DeleteGame(id)])
            .await
        {
            Ok(()) => {
                count(match why {
                    Removal::Expired => &METRICS.games_expired,
                    Removal::NoShow => &METRICS.computer_no_shows,
                });
                self.close_all(1000, why.reason());
                self.expired = true;
            }
            Err(error) => {
                // Not in a loop against a store that is down: once a minute.
                self.expiry_retry_at = now_ms() + EXPIRY_RETRY_MS;
                tracing::error!(game = %id, %error, "could not remove an expired game");
            }
        }
    }

    pub(super) fn next_wake(&self) -> Option<Instant> {
        let now = now_ms();
        let table = self
            .table
            .next_deadline()
            .map(|at| at.max(self.timers_held_until));
        let at_ms = [table, self.expiry(), self.no_show()]
            .into_iter()
            .flatten()
            .min();
        let mut wake = at_ms.map(|at| instant_of(at, now));
        if self.crowd_dirty {
            wake = earliest(wake, self.crowd_sent + CROWD_EVERY);
        }
        if let Some(computer) = self.computer.wake() {
            wake = earliest(wake, computer);
        }
        if let Some(until) = self.unwatched_until() {
            wake = earliest(wake, until);
        }
        wake
    }

    /// When a finished game nobody watches unloads: `finished_linger` after it was last
    /// asked anything; `None` while it is played or watched. A game just loaded waits for
    /// the ask that loaded it (which follows its spawn), up to [`FIRST_ASK_WAIT`]: with a
    /// short linger it could leave before that ask came, and the asker found it gone.
    fn unwatched_until(&self) -> Option<Instant> {
        let linger = if self.asked_since_loaded {
            self.services.finished_linger
        } else {
            self.services.finished_linger.max(FIRST_ASK_WAIT)
        };
        (self.table.status().is_over() && self.room.connections.is_empty())
            .then(|| self.last_asked + linger)
    }

    /// The computer's part, after every change and wake: plays its answer once its least
    /// delay is over, then starts on whatever it has to do next (a search on the pool),
    /// dropping what the game has moved past.
    pub(super) async fn computer_turn(&mut self) {
        if self.table.computer().is_none() {
            return;
        }
        let version = self.table.version();
        if let Some((side, action)) = self.computer.take_due(version) {
            self.play_computer(side, action).await;
        }
        self.computer.look(&self.table, &self.services.computer);
    }

    /// Plays the computer's action as its seat, exactly as a person's is played: the
    /// table checks it, it is saved, then shown.
    pub(super) async fn play_computer(&mut self, side: Side, action: Action) {
        let version = self.table.version();
        let before = self.table.savepoint();
        let now = now_ms();
        match self.table.act(side, &action, now) {
            Err(refusal) => {
                tracing::error!(game = %self.table.id(), %version, ?action, message = %refusal.message, "the table refused the computer's move");
                self.computer.refused(version);
            }
            Ok(events) => {
                let entry = Entry::Act {
                    side,
                    action: action.clone(),
                };
                match self.commit(entry, now, events, None).await {
                    Ok(()) => count(&METRICS.computer_moves),
                    Err(_) => {
                        self.table.rollback(before);
                        self.computer.save_failed(version, side, action);
                    }
                }
            }
        }
    }

    pub(super) async fn on_timer(&mut self) {
        let now = now_ms();
        let due = self.table.next_deadline().is_some_and(|at| now >= at);
        if due && now >= self.timers_held_until {
            let before = self.table.savepoint();
            let events = self.table.tick(now);
            if !events.is_empty() {
                if let Err(refusal) = self.commit(Entry::Tick, now, events, None).await {
                    // Undone, and tried again in a second: a deadline is not lost because
                    // the store was down when it passed, nor retried in a busy loop.
                    self.table.rollback(before);
                    self.timers_held_until = now + TIMER_RETRY_MS;
                    tracing::error!(game = %self.table.id(), "{}", refusal.message);
                }
            }
        }
        if self.crowd_dirty && self.crowd_sent + CROWD_EVERY <= Instant::now() {
            self.crowd_dirty = false;
            self.crowd_sent = Instant::now();
            let crowd: Utf8Bytes = Frame::crowd(self.spectators(), self.connected())
                .to_text()
                .into();
            self.broadcast(&crowd);
            self.services.lobby.update(self.summary(self.spectators()));
        }
        if self.expiry().is_some_and(|at| now >= at) {
            self.expire(Removal::Expired).await;
        } else if self.no_show().is_some_and(|at| now >= at) {
            self.expire(Removal::NoShow).await;
        }
    }
}
