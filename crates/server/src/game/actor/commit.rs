//! A change made durable, then shown: saved through the writer while the engine pool
//! lists the next legal moves, acknowledged, then published to every socket and watcher.

use std::sync::Arc;

use axum::extract::ws::Utf8Bytes;
use omweso_rules::Side;
use serde_json::Value;

use super::persist::persist;
use super::Actor;
use crate::game::legal;
use crate::game::log::Entry;
use crate::game::table::{Refusal, Table};
use crate::metrics::{count, METRICS};
use crate::pools::engine::EnginePool;
use crate::room::ConnId;
use omweso_protocol::{Event, Frame, Legal, Snapshot};

impl Actor {
    pub(super) async fn snapshot(&mut self, you: Option<Side>) -> Snapshot {
        let legal = self.legal().await;
        let mut snapshot = self
            .table
            .snapshot(you, self.connected(), self.spectators(), &legal);
        self.fill_ratings(&mut snapshot);
        snapshot
    }

    /// What the players may do now: from the cache when this version was listed already,
    /// else listed on the engine pool (never on the async workers).
    pub(super) async fn legal(&mut self) -> Arc<Legal> {
        let version = self.table.version();
        if let Some((_, cached)) = self.legal.as_ref().filter(|(v, _)| *v == version) {
            return cached.clone();
        }
        let listed = Arc::new(list_legal(&self.services.pool, &self.table).await);
        self.legal = Some((version, listed.clone()));
        listed
    }

    /// Saves `entry` (the action that made `events`) and, once it is durable, sends the
    /// events out, each that opens a turn with what the players may now do. The listing
    /// runs on the engine pool while the store commits, so it adds nothing to a move's
    /// latency unless it takes longer than the commit.
    pub(super) async fn commit(
        &mut self,
        entry: Entry,
        now: u64,
        mut events: Vec<(u64, Event)>,
        ack: Option<(ConnId, Option<Value>)>,
    ) -> Result<(), Refusal> {
        let row_changed = events.iter().any(|(_, e)| {
            matches!(
                e,
                Event::Joined { .. } | Event::Started { .. } | Event::End { .. } | Event::Undone(_)
            )
        });
        let ends = events.iter().any(|(_, e)| matches!(e, Event::End { .. }));
        let pool = self.services.pool.clone();
        let opens_turn = events.iter_mut().any(|(_, e)| e.legal_mut().is_some());
        let listing = async {
            if opens_turn {
                Some(list_legal(&pool, &self.table).await)
            } else {
                None
            }
        };
        let (saved, listed) = tokio::join!(
            persist(
                &self.services,
                &self.table,
                self.next_seq,
                entry,
                now,
                (row_changed, ends)
            ),
            listing
        );
        saved?;
        self.next_seq += 1;
        if row_changed {
            // A seat taken, or the end with the rating changes just committed.
            self.refresh_ratings().await;
        }
        // Durable first, then acknowledged, then shown to everyone.
        if let Some((conn, id)) = ack {
            self.reply(conn, Frame::ack(id));
        }
        if let Some(listed) = listed {
            for (_, event) in &mut events {
                if let Some(legal) = event.legal_mut() {
                    legal.clone_from(&listed);
                }
            }
            self.legal = Some((self.table.version(), Arc::new(listed)));
        }
        self.publish(events);
        Ok(())
    }

    pub(super) fn publish(&mut self, events: Vec<(u64, Event)>) {
        if events.is_empty() {
            // A change nobody sees (a presence entry saved alone): no news.
            return;
        }
        // A move changes only the lobby's move count: set in place, without rebuilding
        // the summary (this runs for every move of every game).
        let reseated = events.iter().any(|(_, e)| {
            matches!(
                e,
                Event::Joined { .. } | Event::Started { .. } | Event::End { .. } | Event::Undone(_)
            )
        });
        for (v, event) in events {
            match &event {
                Event::Steal { .. } => count(&METRICS.steals),
                Event::End { outcome, .. } => {
                    count(&METRICS.games_ended);
                    if matches!(outcome, omweso_rules::Outcome::Annulled { .. }) {
                        count(&METRICS.annulments);
                    }
                }
                _ => {}
            }
            let message: Utf8Bytes = Frame::event(v, event).to_text().into();
            let slow = self.room.publish(v, message);
            self.dropped_slow(slow);
        }
        if !self.watchers.is_empty() {
            self.tell_watchers();
        }
        if reseated {
            self.services.lobby.update(self.summary(self.spectators()));
        } else {
            self.services
                .lobby
                .set_moves(self.table.id(), self.table.moves_played());
        }
    }
}

/// What the players of `table` may do now: listed here when that is cheap (the usual
/// position, cheaper than the hand-off), else on the engine pool, never holding this
/// worker for long.
async fn list_legal(pool: &EnginePool, table: &Table) -> Legal {
    let query = table.legal_query();
    if query.sides.is_empty() {
        return Legal::default();
    }
    if let Some(listed) = legal::list_within(&query, legal::INLINE_LISTING_WORK) {
        count(&METRICS.legal_listed_inline);
        return listed;
    }
    count(&METRICS.legal_listed_on_pool);
    // The pool is gone only while the server shuts down: no moves are shown then.
    pool.run(move || legal::list(&query))
        .await
        .unwrap_or_default()
}
