//! Stored games exported as game files (docs/game-file.md), OGN or NDJSON, streamed: the
//! games are loaded a page at a time, each replayed into its record on the file threads
//! (`pools::fair_work`: in the turn of the asker's address, apart from the games' engine
//! pool), and sent as soon as its text is ready, so a long export holds one page in
//! memory. An export holds a place of [`Streaming`] while its body streams: one at a time
//! per address, a few in all.

use axum::body::{Body, Bytes};
use futures_util::stream::{self, Stream, StreamExt};
use omweso_gamefile::{write_game, GameRecord};
use uuid::Uuid;

use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::game_file::{record_of, Context, TournamentRound};
use super::stored_games::Before;
use crate::address::AddressKey;
use crate::http::limits::{Held, Holdings};
use crate::pools::fair_work::{FairWork, WorkRefused};
use crate::store::{GameRow, Store, StoreError};

/// How long an export's next game may wait for the file threads before the export stops:
/// as long as an unread answer may stall (`http_write_stall_seconds`' default).
const PATIENCE: Duration = Duration::from_secs(30);

/// The games a page of an export loads at once.
pub const PAGE: i64 = 50;
/// The most games one export of a player's games holds (the newest).
pub const MAX_PLAYER_GAMES: usize = 10_000;

/// An export's format: `?format=ogn` (the default) or `ndjson`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Ogn,
    Ndjson,
}

impl Format {
    /// The format a query's `format` names; `None` for any other word.
    #[must_use]
    pub fn named(name: Option<&str>) -> Option<Format> {
        match name {
            None | Some("ogn") => Some(Format::Ogn),
            Some("ndjson") => Some(Format::Ndjson),
            Some(_) => None,
        }
    }

    #[must_use]
    pub const fn content_type(self) -> &'static str {
        match self {
            Format::Ogn => omweso_gamefile::MEDIA_TYPE,
            Format::Ndjson => "application/x-ndjson; charset=utf-8",
        }
    }

    #[must_use]
    pub const fn extension(self) -> &'static str {
        match self {
            Format::Ogn => "ogn",
            Format::Ndjson => "ndjson",
        }
    }

    /// One game's text: its OGN (ending with a blank line), or its NDJSON line.
    #[must_use]
    pub fn render(self, record: &GameRecord) -> String {
        match self {
            Format::Ogn => write_game(record),
            Format::Ndjson => {
                let mut line = record.to_ndjson().to_string();
                line.push('\n');
                line
            }
        }
    }
}

/// Why a game could not be exported.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    GameFile(#[from] super::game_file::GameFileError),
    #[error("the file threads did not replay the game: {0}")]
    Work(#[from] WorkRefused),
}

/// The exports streaming, per address and in all.
#[derive(Debug)]
pub struct Streaming {
    all: Arc<Semaphore>,
    per_address: Holdings<AddressKey>,
    at_once_per_address: usize,
}

/// Why an export could not start now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Crowded {
    /// The address has its exports streaming already.
    Address,
    /// The server has its exports streaming already.
    Server,
}

/// An export's place while its body streams; given back when the body ends or is
/// dropped (the client went away, or stopped reading for too long).
#[derive(Debug)]
pub struct ExportPlace {
    _all: OwnedSemaphorePermit,
    _address: Held<AddressKey>,
}

impl Streaming {
    #[must_use]
    pub fn new(at_once: usize, at_once_per_address: usize) -> Streaming {
        Streaming {
            all: Arc::new(Semaphore::new(at_once)),
            per_address: Holdings::default(),
            at_once_per_address,
        }
    }

    /// A place for an export from `address`, or why there is none now.
    pub fn admit(&self, address: AddressKey) -> Result<ExportPlace, Crowded> {
        let held = self
            .per_address
            .try_hold(address, self.at_once_per_address)
            .ok_or(Crowded::Address)?;
        let permit = self
            .all
            .clone()
            .try_acquire_owned()
            .map_err(|_| Crowded::Server)?;
        Ok(ExportPlace {
            _all: permit,
            _address: held,
        })
    }
}

/// Whose export it is: the file threads take turns by address, then by session.
#[derive(Clone, Copy, Debug)]
pub struct Asker {
    pub address: AddressKey,
    pub session: Uuid,
}

/// What an export reads the stored games with.
#[derive(Clone, Debug)]
pub struct Exporter {
    pub store: Store,
    pub work: FairWork,
    pub asker: Asker,
    /// The server's address as the client named it (for the `Site` tag).
    pub site: Option<String>,
    /// The export's place, held as long as the exporter (moved into its body's stream).
    pub place: Option<Arc<ExportPlace>>,
}

impl Exporter {
    /// The record of the stored game `row`.
    pub async fn record(
        &self,
        row: GameRow,
        tournament: Option<TournamentRound>,
    ) -> Result<GameRecord, ExportError> {
        let actions = self.store.actions(row.id).await?;
        let context = Context {
            site: self.site.clone(),
            tournament,
        };
        // Replaying plays every move again: engine work, on the file threads.
        self.work
            .run_waiting(
                self.asker.address,
                self.asker.session,
                Instant::now() + PATIENCE,
                move || record_of(&row, &actions, &context),
            )
            .await?
            .map_err(ExportError::from)
    }

    /// The texts of the games `ids` (each with its tournament round, if any), in order; a
    /// game no longer stored is left out.
    pub fn games(
        self,
        ids: Vec<(Uuid, Option<TournamentRound>)>,
        format: Format,
    ) -> impl Stream<Item = Result<Bytes, std::io::Error>> + Send {
        stream::unfold(
            (self, ids.into_iter()),
            move |(exporter, mut ids)| async move {
                loop {
                    let (id, tournament) = ids.next()?;
                    match exporter.store.game(id).await {
                        Ok(Some(row)) => {
                            let text = exporter.text(row, tournament, format).await;
                            return Some((text, (exporter, ids)));
                        }
                        Ok(None) => continue,
                        Err(e) => return Some((Err(broken(&e)), (exporter, ids))),
                    }
                }
            },
        )
    }

    /// The texts of `person`'s finished games, newest first, at most [`MAX_PLAYER_GAMES`].
    pub fn player_games(
        self,
        person: Uuid,
        format: Format,
    ) -> impl Stream<Item = Result<Bytes, std::io::Error>> + Send {
        struct Pages {
            exporter: Exporter,
            before: Option<Before>,
            page: std::vec::IntoIter<GameRow>,
            sent: usize,
        }
        let start = Pages {
            exporter: self,
            before: Some(Before::START),
            page: Vec::new().into_iter(),
            sent: 0,
        };
        stream::unfold(start, move |mut pages| async move {
            loop {
                if pages.sent >= MAX_PLAYER_GAMES {
                    return None;
                }
                if let Some(row) = pages.page.next() {
                    pages.sent += 1;
                    let text = pages.exporter.text(row, None, format).await;
                    return Some((text, pages));
                }
                let before = pages.before?;
                match pages
                    .exporter
                    .store
                    .finished_games_of(person, before, PAGE)
                    .await
                {
                    Ok(rows) => {
                        // A short page is the last.
                        pages.before = match rows.last() {
                            Some(last) if rows.len() as i64 == PAGE => Some(Before {
                                created_at_ms: last.created_at_ms,
                                id: last.id,
                            }),
                            _ => None,
                        };
                        pages.page = rows.into_iter();
                    }
                    Err(e) => {
                        pages.before = None;
                        return Some((Err(broken(&e)), pages));
                    }
                }
            }
        })
    }

    /// One game's text; a game that cannot be made a record ends the stream with an
    /// error (logged), so that a client never takes a cut file for a whole one.
    async fn text(
        &self,
        row: GameRow,
        tournament: Option<TournamentRound>,
        format: Format,
    ) -> Result<Bytes, std::io::Error> {
        match self.record(row, tournament).await {
            Ok(record) => Ok(Bytes::from(format.render(&record))),
            Err(e) => Err(broken(&e)),
        }
    }
}

/// An export that cannot go on: logged, and the body is cut (the client sees an
/// incomplete transfer, not a shorter file).
fn broken(error: &dyn std::fmt::Display) -> std::io::Error {
    tracing::error!(%error, "an export stopped");
    std::io::Error::other("the export stopped")
}

/// A streamed body of `texts`. Fused: the compression layer asks its body again after the
/// end (to finish its own stream), and an `unfold` asked again after its end panics,
/// which cut every compressed export (every browser's download) after its last game.
pub fn body(texts: impl Stream<Item = Result<Bytes, std::io::Error>> + Send + 'static) -> Body {
    Body::from_stream(texts.fuse())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::IpAddr;

    fn address(last: u8) -> AddressKey {
        AddressKey::of(IpAddr::from([198, 51, 100, last]))
    }

    /// One export per address and three in all: a second from the address waits for
    /// the first's place; a fourth address waits for any; each place comes back when its
    /// export's stream (which holds it) is dropped.
    #[test]
    fn an_export_holds_its_addresss_place_and_one_of_the_servers_until_it_ends() {
        let streaming = Streaming::new(3, 1);
        let first = streaming.admit(address(1)).unwrap();
        assert_eq!(streaming.admit(address(1)).unwrap_err(), Crowded::Address);
        let _second = streaming.admit(address(2)).unwrap();
        let _third = streaming.admit(address(3)).unwrap();
        assert_eq!(streaming.admit(address(4)).unwrap_err(), Crowded::Server);
        drop(first);
        assert_eq!(streaming.admit(address(2)).unwrap_err(), Crowded::Address);
        let _again = streaming.admit(address(1)).unwrap();
        assert_eq!(streaming.admit(address(4)).unwrap_err(), Crowded::Server);
    }
}
