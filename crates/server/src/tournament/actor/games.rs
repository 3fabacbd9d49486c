//! The tournament's games: watched, their news turned into boards and presence, their
//! ends recorded, and stopped at the round's deadline.

use std::sync::Arc;

use omweso_rules::{Outcome, Ruleset, Side, Victory};
use uuid::Uuid;

use super::{Actor, Adjudication, RETRY_MS};
use crate::game::news::TableNews;
use crate::game::registry::SeatedGame;
use crate::tournament::log::Entry;
use crate::tournament::sheet::GameFigures;
use omweso_protocol::clock::now_ms;
use omweso_protocol::config::GameConfig;
use omweso_protocol::tournament::BoardView;
use omweso_protocol::ErrorCode;

impl Actor {
    /// Watches a game of the tournament: its news comes to this task from now on, and
    /// its news as it stands now is taken at once (a game that ended while nobody
    /// listened is recorded).
    pub(super) async fn watch(&mut self, game_id: Uuid) {
        if self.watching.contains(&game_id) || !self.t.in_play(game_id) {
            return;
        }
        let handle = match self.services.games.get(game_id).await {
            Ok(Some(handle)) => handle,
            Ok(None) => {
                // Its round's deadline adjudicates it (from its last news, if any).
                tracing::error!(tournament = %self.t.id(), game = %game_id, "a game of the tournament is missing");
                return;
            }
            Err(error) => {
                tracing::error!(tournament = %self.t.id(), game = %game_id, %error, "a game of the tournament could not be loaded; trying again");
                self.rewatch_at = now_ms() + RETRY_MS;
                return;
            }
        };
        match handle.watch(self.news_tx.clone()).await {
            Ok(news) => {
                self.watching.insert(game_id);
                self.on_news(news).await;
            }
            Err(_) => self.rewatch_at = now_ms() + RETRY_MS,
        }
    }

    pub(super) async fn on_news(&mut self, news: TableNews) {
        let Some((round, table)) = self.t.game_table(news.game_id) else {
            return;
        };
        self.note_at_game(&news);
        if !self.t.in_play(news.game_id) {
            return;
        }
        if self
            .news
            .get(&news.game_id)
            .is_some_and(|seen| seen.version > news.version)
        {
            // Older than what this task has (a watch's answer overtaken by the news).
            return;
        }
        let board = BoardView {
            table,
            game_id: news.game_id,
            position: news.position.clone(),
            to_move: news.to_move,
            last_move: news.last_move.clone(),
            clock: news.clock,
            outcome: news.outcome,
            round,
            version: news.version,
            status: news.status,
        };
        // News of a player coming or going repeats the board: it is not sent again.
        if self.boards.get(&news.game_id) != Some(&board) {
            self.boards.insert(news.game_id, board);
            self.dirty.insert(news.game_id);
        }
        let ended = news.outcome.filter(|_| news.status.is_over());
        self.news.insert(news.game_id, news.clone());
        if let Some(outcome) = ended {
            self.flush_boards();
            self.record_end(&news, outcome).await;
        }
    }

    /// Notes who is at the game `news` is of (its page open), for the tournament's
    /// presence: whether the game is in play or over.
    fn note_at_game(&mut self, news: &TableNews) {
        let before = self.at_games.get(&news.game_id).copied();
        let now = news.present.contains(&true).then_some(news.present);
        if before != now {
            match now {
                Some(present) => self.at_games.insert(news.game_id, present),
                None => self.at_games.remove(&news.game_id),
            };
            self.presence_dirty = true;
        }
    }

    /// A game ended: its sheet is filled in, and an annulled game with time left is
    /// replayed at once (the new game created with the entry).
    pub(super) async fn record_end(&mut self, news: &TableNews, outcome: Outcome) {
        let now = now_ms();
        let facts = &news.facts;
        let figures = GameFigures {
            captured: facts.captured,
            turns: facts.turns[0] + facts.turns[1],
            duration_ms: match (facts.started_at_ms, facts.ended_at_ms) {
                (Some(start), Some(end)) => end.saturating_sub(start),
                _ => 0,
            },
            arrangements: match facts.arrangements {
                [Some(south), Some(north)] => Some([south, north]),
                _ => None,
            },
            late_arranged: facts.late_arranged,
            // A game's sheet has its captures; only a board adjudication has these.
            on_board: None,
        };
        let ended = facts.ended_at_ms.map_or(now, |end| end.min(now));
        let replay = matches!(outcome, Outcome::Annulled { .. })
            .then(|| self.t.replay_for(news.game_id, ended))
            .flatten();
        let mut games = Vec::new();
        let replay_id = replay.map(|(first, second)| {
            let id = Uuid::now_v7();
            // The replay is the tournament's game as its first was: rated alike.
            let config = GameConfig {
                stop_at_ms: self.t.deadline_of(news.game_id),
                tournament: Some(self.t.id()),
                rated: self.t.rates(first.player, second.player),
                ..self.t.settings().game.clone()
            };
            games.push(SeatedGame {
                id,
                config,
                first,
                second,
            });
            id
        });
        let entry = Entry::GameEnd {
            game_id: news.game_id,
            outcome,
            moves: facts.turns,
            figures,
            replay: replay_id,
            ended_at_ms: facts.ended_at_ms,
            adjudicated: facts.adjudicated,
        };
        match self.commit_at(entry, now, games).await {
            Ok(_) => {
                self.adjudicating.remove(&news.game_id);
                // Watched from the task's loop (a watch may itself record an end).
                self.to_watch.extend(replay_id);
            }
            Err(refusal) if refusal.code == ErrorCode::Unavailable => {
                // Not lost: the game is asked for its news again (it may have unloaded
                // meanwhile; it is then reloaded, ended, from the store).
                tracing::error!(game = %news.game_id, "a game's end could not be recorded; retrying");
                self.news.remove(&news.game_id);
                self.watching.remove(&news.game_id);
                self.adjudicating.remove(&news.game_id);
                self.rewatch_at = now + RETRY_MS;
            }
            Err(refusal) => {
                tracing::warn!(game = %news.game_id, "a game's end was not recorded: {}", refusal.message);
            }
        }
    }

    /// Stops every game of a round whose time is up, all at once: each is asked by a task
    /// of its own (the game logs its stop), and answers on `adjudications`.
    pub(super) fn adjudicate_due(&mut self) {
        if now_ms() < self.adjudicate_retry_at {
            return;
        }
        for game_id in self.t.games_to_adjudicate() {
            if !self.adjudicating.insert(game_id) {
                continue;
            }
            let games = Arc::clone(&self.services.games);
            let answers = self.adjudications_tx.clone();
            tokio::spawn(async move {
                let answer = match games.get(game_id).await {
                    Ok(None) => Adjudication::Missing(game_id),
                    Ok(Some(handle)) => match handle.adjudicate().await {
                        Ok(Ok(news)) => Adjudication::Ended(Box::new(news)),
                        // Over already: its end is recorded, or on its way, or was
                        // missed; its news says which.
                        Ok(Err(refusal)) if refusal.code == ErrorCode::GameOver => {
                            match handle.news().await {
                                Ok(news) => Adjudication::Ended(Box::new(news)),
                                Err(_) => Adjudication::Retry(game_id),
                            }
                        }
                        Ok(Err(_)) | Err(_) => Adjudication::Retry(game_id),
                    },
                    Err(_) => Adjudication::Retry(game_id),
                };
                let _ = answers.send(answer).await;
            });
        }
    }

    pub(super) async fn on_adjudication(&mut self, answer: Adjudication) {
        match answer {
            Adjudication::Ended(news) => {
                self.adjudicating.remove(&news.game_id);
                self.on_news(*news).await;
            }
            Adjudication::Retry(game_id) => {
                self.adjudicating.remove(&game_id);
                self.adjudicate_retry_at = now_ms() + RETRY_MS;
            }
            Adjudication::Missing(game_id) => {
                let news = self.news.get(&game_id).cloned();
                let outcome = fallback_adjudication(self.t.settings().game.ruleset, news.as_ref());
                tracing::warn!(game = %game_id, %outcome, "a game of the tournament is missing; adjudicated from its last news");
                let mut news = news.unwrap_or_else(|| unseen(game_id));
                news.facts.adjudicated = true;
                self.record_end(&news, outcome).await;
                self.adjudicating.remove(&game_id);
            }
        }
    }
}

/// A game's adjudication from its last news, when the game itself cannot be asked
/// (docs/rules.md#53-rounds: Oware on seeds captured, Omweso and Mweiso on seeds on each side; no
/// news at all: a draw).
fn fallback_adjudication(ruleset: Ruleset, news: Option<&TableNews>) -> Outcome {
    let Some(news) = news else {
        return Outcome::Draw;
    };
    let measure = if ruleset == Ruleset::Oware {
        news.facts.captured
    } else {
        news.facts.seeds_on_side
    };
    match measure[0].cmp(&measure[1]) {
        std::cmp::Ordering::Greater => Outcome::Win {
            winner: Side::South,
            victory: Victory::Adjudicated,
        },
        std::cmp::Ordering::Less => Outcome::Win {
            winner: Side::North,
            victory: Victory::Adjudicated,
        },
        std::cmp::Ordering::Equal => Outcome::Draw,
    }
}

/// The news of a game never heard from (it could not be loaded).
fn unseen(game_id: Uuid) -> TableNews {
    TableNews {
        game_id,
        version: 0,
        status: omweso_protocol::Status::Playing,
        position: None,
        to_move: None,
        last_move: None,
        clock: omweso_protocol::ClockView::default(),
        outcome: None,
        facts: crate::game::table::GameFacts::default(),
        present: [false; 2],
    }
}
