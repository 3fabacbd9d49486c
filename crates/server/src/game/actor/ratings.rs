//! The ratings a game's seats show (docs/ratings.md, docs/protocol.md#ratings-addition),
//! and the rated result a rated game's end writes.
//!
//! The seats' ratings are read from the store when the seats change and once a rated
//! game is over (its changes), never on a move: the snapshot and the lobby's entry take
//! them from here.

use axum::extract::ws::Utf8Bytes;
use omweso_protocol::clock::now_ms;
use omweso_protocol::lobby::GameSummary;
use omweso_protocol::ratings::{SeatRating, SeatRatingsNow};
use omweso_protocol::{Frame, Snapshot};
use omweso_rules::{Outcome, Side};
use uuid::Uuid;

use super::Actor;
use crate::game::table::Table;
use crate::store::RatedResult;
use omweso_ratings::rating::{badge, new_player_badge};
use omweso_ratings::too_short::too_short_to_rate;
use omweso_ratings::Score;

use super::seat_ratings::SeatRatings;

/// The rated result of `table`'s end, when it is one to rate here: a rated game
/// (`config.rated`: both players are accounts), not a tournament's (rated by its sheet),
/// over and not annulled, in which both players moved, and not given up before each made
/// a few turns (`ratings::too_short`; docs/ratings.md#what-is-rated).
pub(super) fn rated_result(table: &Table) -> Option<RatedResult> {
    let config = table.config();
    if !config.rated || config.tournament.is_some() {
        return None;
    }
    let outcome = table.outcome()?;
    let score = match outcome {
        Outcome::Win {
            winner: Side::South,
            ..
        } => Score::SouthWon,
        Outcome::Win {
            winner: Side::North,
            ..
        } => Score::NorthWon,
        Outcome::Draw => Score::Draw,
        Outcome::Annulled { .. } => return None,
    };
    let facts = table.facts();
    if facts.turns.contains(&0) {
        return None;
    }
    if let Outcome::Win { victory, .. } = outcome {
        if too_short_to_rate(victory, facts.turns) {
            return None;
        }
    }
    let south = table.seat(Side::South)?.player;
    let north = table.seat(Side::North)?.player;
    let at_ms = facts.ended_at_ms.unwrap_or_else(now_ms);
    Some(RatedResult {
        key: table.id(),
        ruleset: config.ruleset,
        south,
        north,
        score: Some(score),
        at_ms: i64::try_from(at_ms).unwrap_or(i64::MAX),
    })
}

impl Actor {
    /// The seats' persons (none for an empty seat or the computer's).
    fn seated_persons(&self) -> [Option<Uuid>; 2] {
        let computer = self.table.computer().map(|(side, _)| side);
        Side::ALL.map(|side| {
            (computer != Some(side))
                .then(|| self.table.seat(side).map(|s| s.player))
                .flatten()
        })
    }

    /// Reads the seats' ratings again when the seats changed since the last read, or the
    /// game ended. A failed read keeps what was shown (ratings are not worth refusing a
    /// move for), logged.
    pub(super) async fn refresh_ratings(&mut self) {
        let persons = self.seated_persons();
        let over = self.table.status().is_over();
        if self.ratings.read_for == Some((persons, over)) {
            return;
        }
        match self.read_ratings(persons, over).await {
            Ok(read) => self.ratings = read,
            Err(error) => {
                tracing::warn!(game = %self.table.id(), %error, "could not read the seats' ratings");
            }
        }
    }

    async fn read_ratings(
        &self,
        persons: [Option<Uuid>; 2],
        over: bool,
    ) -> Result<SeatRatings, crate::store::StoreError> {
        let store = &self.services.store;
        let mut read = SeatRatings {
            read_for: Some((persons, over)),
            read_at: Some(tokio::time::Instant::now()),
            ..SeatRatings::default()
        };
        let ruleset = self.table.config().ruleset;
        let mut accounts = Vec::new();
        for person in persons.into_iter().flatten() {
            if store
                .person(person)
                .await?
                .is_some_and(|p| p.username.is_some())
            {
                accounts.push(person);
            }
        }
        let ratings = store.ratings_of(&accounts, ruleset).await?;
        let now = i64::try_from(now_ms()).unwrap_or(i64::MAX);
        let changes = if over && self.table.config().rated {
            store.rating_changes(self.table.id()).await?
        } else {
            Vec::new()
        };
        for (i, person) in persons.into_iter().enumerate() {
            let Some(person) = person.filter(|p| accounts.contains(p)) else {
                continue;
            };
            if let Some(change) = changes.iter().find(|c| c.person == person) {
                // A rated game over: the rating it was played at, and what it did.
                read.badges[i] = Some(badge(&change.before));
                read.changes[i] = Some(change.shown());
            } else {
                read.badges[i] = Some(
                    ratings
                        .get(&person)
                        .map_or_else(new_player_badge, |r| r.badge(now)),
                );
            }
        }
        Ok(read)
    }

    /// The game's rated result was written or changed by its tournament's sheet: the
    /// seats' ratings are read again, whatever was read before, and every socket is sent
    /// them when they differ from what it was shown.
    pub(super) async fn ratings_changed(&mut self) {
        let shown = (self.ratings.badges, self.ratings.changes);
        self.ratings.read_for = None;
        self.refresh_ratings().await;
        if (self.ratings.badges, self.ratings.changes) != shown {
            let frame: Utf8Bytes = Frame::ratings(self.ratings_now()).to_text().into();
            self.broadcast(&frame);
        }
    }

    /// A rated game over, asked for (a snapshot, a socket opening): its seats' ratings read
    /// again, since a correction of an earlier result (this tournament's sheet or any
    /// other of these players' games) re-rates every result after it, this one's
    /// included, and tells only the corrected game. At most once every
    /// `READ_AGAIN_AFTER` (2 s): sockets opened in a loop cost no read each. Sockets
    /// already open are sent the new figures when they differ. Any other game keeps what
    /// it read.
    pub(super) async fn ratings_read_again_if_rated_over(&mut self) {
        let fresh = self
            .ratings
            .read_at
            .is_some_and(|at| at.elapsed() < super::seat_ratings::READ_AGAIN_AFTER);
        if self.table.config().rated && self.table.status().is_over() && !fresh {
            self.ratings_changed().await;
        }
    }

    /// The `ratings` a socket resuming this game is sent after what it missed: a rated
    /// game over, whose ratings may have changed since (its sheet made or corrected while
    /// the socket was away); `None` for any other.
    pub(super) fn ratings_on_resume(&self) -> Option<Frame> {
        let rated = self.table.config().rated && self.table.status().is_over();
        (rated && self.ratings.badges.iter().any(Option::is_some))
            .then(|| Frame::ratings(self.ratings_now()))
    }

    /// The seats' ratings as the `ratings` frame says them.
    fn ratings_now(&self) -> SeatRatingsNow {
        let seat = |i: usize| {
            self.ratings.badges[i].map(|rating| SeatRating {
                rating,
                rating_change: self.ratings.changes[i],
            })
        };
        SeatRatingsNow {
            s: seat(0),
            n: seat(1),
        }
    }

    /// Puts the seats' ratings into `snapshot`.
    pub(super) fn fill_ratings(&self, snapshot: &mut Snapshot) {
        for (i, seat) in [&mut snapshot.seats.s, &mut snapshot.seats.n]
            .into_iter()
            .enumerate()
        {
            if let Some(seat) = seat {
                seat.rating = self.ratings.badges[i];
                seat.rating_change = self.ratings.changes[i];
            }
        }
    }

    /// The game as the lobby lists it, with the seats' ratings.
    pub(super) fn summary(&self, spectators: usize) -> GameSummary {
        let mut summary = self.table.summary(spectators);
        summary.ratings.s = self.ratings.badges[0];
        summary.ratings.n = self.ratings.badges[1];
        summary
    }
}
