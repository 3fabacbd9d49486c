//! Stored games exported as game files (docs/game-file.md), OGN or NDJSON, streamed: the
//! games are loaded a page at a time, each replayed into its record on the engine pool,
//! and sent as soon as its text is ready, so a long export holds one page in memory.

use axum::body::{Body, Bytes};
use futures_util::stream::{self, Stream};
use omweso_gamefile::{write_game, GameRecord};
use uuid::Uuid;

use super::game_file::{record_of, Context, TournamentRound};
use crate::pools::engine::EnginePool;
use crate::store::{db::Before, GameRow, Store, StoreError};

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
    #[error("the engine pool is gone")]
    PoolGone,
}

/// What an export reads the stored games with.
#[derive(Clone, Debug)]
pub struct Exporter {
    pub store: Store,
    pub pool: EnginePool,
    /// The server's address as the client named it (for the `Site` tag).
    pub site: Option<String>,
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
        // Replaying plays every move again: engine work, on the pool.
        self.pool
            .run(move || record_of(&row, &actions, &context))
            .await
            .map_err(|_| ExportError::PoolGone)?
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

/// A streamed body of `texts`.
pub fn body(texts: impl Stream<Item = Result<Bytes, std::io::Error>> + Send + 'static) -> Body {
    Body::from_stream(texts)
}
