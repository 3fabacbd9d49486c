//! A stored game (its row and its action log) as a game file's record
//! (docs/game-file.md): the log is replayed through the same [`Table`] that played it,
//! which gives the start of play, every whole move with its player, steal and time, and
//! the result; the record is then replayed by the rules alone and must reach the same
//! positions and result, so what is exported is what was played.

use omweso_gamefile::{GameRecord, MoveRecord, ReplayError as RecordError};
use omweso_protocol::config::TimeControl;
use omweso_rules::{AnnulReason, Game, GameLap, GameMove, Outcome, Preset, Ruleset, Side, TurnEnd};
use uuid::Uuid;

use crate::game::log::{replay_observed, Entry, ReplayError};
use crate::game::table::Table;
use crate::store::{ActionRow, GameRow};

/// What the game's own log does not know: where it is served, and the tournament round
/// it belongs to.
#[derive(Clone, Debug, Default)]
pub struct Context {
    /// The server's public address (`https://host`), for the `Site` tag: the game's page.
    pub site: Option<String>,
    /// The tournament round the game was played in.
    pub tournament: Option<TournamentRound>,
}

/// A tournament game's place: the tournament's name, the round's number, the table's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentRound {
    pub name: String,
    pub round: u32,
    pub board: u32,
}

/// Why a stored game could not be made a record.
#[derive(Debug, thiserror::Error)]
pub enum GameFileError {
    #[error("game {id}: log entry {seq} cannot be read: {source}")]
    Undecodable {
        id: Uuid,
        seq: i64,
        source: serde_json::Error,
    },
    #[error("game {id}: {source}")]
    Log { id: Uuid, source: ReplayError },
    /// The record does not replay to what the table played: a bug, never the player's.
    #[error("game {id}: its record does not replay as it was played: {what}")]
    Mismatch { id: Uuid, what: String },
}

/// The game file's record of the stored game `row` with its log `actions`.
pub fn record_of(
    row: &GameRow,
    actions: &[ActionRow],
    context: &Context,
) -> Result<GameRecord, GameFileError> {
    let id = row.id;
    let mut entries = Vec::with_capacity(actions.len());
    for action in actions {
        let entry: Entry = serde_json::from_str(&action.payload_json).map_err(|source| {
            GameFileError::Undecodable {
                id,
                seq: action.seq,
                source,
            }
        })?;
        entries.push((action.seq, u64::try_from(action.at_ms).unwrap_or(0), entry));
    }
    // When play started (the board was set up) and when each whole move was complete.
    let mut start: Option<(String, u64)> = None;
    let mut done_at: Vec<u64> = Vec::new();
    let table = replay_observed(id, entries, |table, at| {
        if start.is_none() {
            start = table.position().map(|p| (p, at));
        }
        let played = table.moves_played();
        // A relay's undo takes moves back.
        done_at.truncate(played);
        while done_at.len() < played {
            done_at.push(at);
        }
    })
    .map_err(|source| GameFileError::Log { id, source })?;
    let mut record = header(&table, row, context);
    let (start_position, started_at) = start.unwrap_or_default();
    if !start_position.is_empty() && start_position != standard_start(record.ruleset) {
        record.setup = Some(start_position);
    }
    let mut previous = started_at;
    for (entry, &at) in table.history().iter().zip(&done_at) {
        record.moves.push(MoveRecord {
            side: entry.by,
            notation: entry.mv.clone(),
            stolen: entry.stolen,
            emt_ms: Some(at.saturating_sub(previous)),
            budget: None,
            comment: None,
        });
        previous = at;
    }
    record.impasse = table.impasse_view().and_then(|i| {
        i.split.map(|split| omweso_gamefile::ImpasseRecord {
            proposed_by: i.proposed_by,
            split: [split.s, split.n],
        })
    });
    record.set_outcome(table.outcome());
    mark_budget(&mut record, &table).map_err(|what| GameFileError::Mismatch { id, what })?;
    check(&record, &table).map_err(|what| GameFileError::Mismatch { id, what })?;
    Ok(record)
}

/// The ruleset's standard start as docs/game-file.md#starts defines it.
fn standard_start(ruleset: Ruleset) -> String {
    Game::start(ruleset, Preset::Outer, Side::South).to_string()
}

/// The tags: event, site, date, round, players, the game's id and kind, time control.
fn header(table: &Table, row: &GameRow, context: &Context) -> GameRecord {
    let config = table.config();
    let mut record = GameRecord::new(config.ruleset);
    record.akakyala = config.ruleset == Ruleset::Omweso && config.time_control.akakyala;
    let (date, time) =
        omweso_gamefile::date_and_time(i64::try_from(table.created_at_ms()).unwrap_or(0));
    let event = match &context.tournament {
        Some(t) => t.name.clone(),
        None if table.config().relayed => "Relayed game".to_owned(),
        None => "Casual game".to_owned(),
    };
    record.set_tag("Event", event);
    if let Some(site) = &context.site {
        record.set_tag(
            "Site",
            format!("{}/g/{}", site.trim_end_matches('/'), row.id),
        );
    }
    record.set_tag("Date", date);
    record.set_tag("UTCTime", time);
    match &context.tournament {
        Some(t) => {
            record.set_tag("Round", t.round.to_string());
            record.set_tag("Board", t.board.to_string());
        }
        None => record.set_tag("Round", "-"),
    }
    for (side, tag) in [(Side::South, "South"), (Side::North, "North")] {
        let name = table.seat(side).map_or("?", |s| s.name.as_str());
        record.set_tag(tag, name);
    }
    record.set_tag("GameId", row.id.to_string());
    if config.rated {
        record.set_tag("Rated", "true");
    }
    if let Some(tournament) = config.tournament {
        record.set_tag("Tournament", tournament.to_string());
    }
    record.set_tag("TimeControl", time_control(&table.time_control()));
    record
}

/// docs/game-file.md's `TimeControl`: `referee=3 limit=180 pace=4 arrange=120`, `-` for none.
fn time_control(tc: &TimeControl) -> String {
    let mut parts = Vec::new();
    if let Some(r) = tc.referee_seconds {
        parts.push(format!("referee={r}"));
    }
    if let Some(l) = tc.move_limit_seconds {
        parts.push(format!("limit={l}"));
        parts.push(format!("pace={}", tc.sowing_pace));
    }
    if let Some(a) = tc.arrange_seconds {
        parts.push(format!("arrange={a}"));
    }
    if parts.is_empty() {
        "-".to_owned()
    } else {
        parts.join(" ")
    }
}

/// A game annulled as `budget` by its last turn running out of sowing: that turn's
/// `[%budget N]`, the largest budget that stops it where it stopped (the server's own,
/// less what the player spent at decision points, is one of them).
fn mark_budget(record: &mut GameRecord, table: &Table) -> Result<(), String> {
    let annulled = table.outcome()
        == Some(Outcome::Annulled {
            reason: AnnulReason::Budget,
        });
    let (Some(last), Some(stored), true) = (
        record.moves.last().cloned(),
        table.history().last().map(|h| h.position.clone()),
        annulled,
    ) else {
        return Ok(());
    };
    // The game before the last move, by the rules alone.
    let mut before = record.clone();
    before.moves.pop();
    before.impasse = None;
    before.set_outcome(None);
    let game = before.replay().map_err(|e| e.to_string())?.end;
    let board = if last.stolen {
        game.with_side_to_move(last.side)
    } else {
        game
    };
    let mv = GameMove::parse(record.ruleset, &last.notation).map_err(|e| e.to_string())?;
    let most = table.time_control().budget(0);
    let mut laps: Vec<GameLap> = Vec::new();
    let Ok(played) = board.play_observed(&mv, Some(most), &mut laps) else {
        return Err(format!("the last move {} is illegal", last.notation));
    };
    if played.summary.end != TurnEnd::Budget {
        // It ended (the limit ran out at a decision, which the file does not record), or
        // never ends: no budget to mark.
        return Ok(());
    }
    // The seeds sown by the end of each lap: a budget of exactly that many stops the
    // turn after that lap.
    let mut sown: Vec<u64> = vec![0];
    for lap in &laps {
        let total = sown.last().copied().unwrap_or(0) + u64::from(lap.seeds);
        sown.push(total);
    }
    let candidates = std::iter::once(most).chain(sown.into_iter().rev());
    for budget in candidates {
        let Ok(result) = board.play(&mv, Some(budget)) else {
            continue;
        };
        if result.summary.end == TurnEnd::Budget && result.game.to_string() == stored {
            if let Some(m) = record.moves.last_mut() {
                m.budget = Some(budget);
            }
            return Ok(());
        }
    }
    Err(format!(
        "no budget stops the last move {} where it stopped",
        last.notation
    ))
}

/// The record replays, by the rules alone, to every position and the result the table
/// played.
fn check(record: &GameRecord, table: &Table) -> Result<(), String> {
    let replay = record.replay().map_err(|e: RecordError| e.to_string())?;
    for (i, (entry, game)) in table.history().iter().zip(&replay.positions).enumerate() {
        if entry.position != game.to_string() {
            return Err(format!(
                "after move {} ({}) the table had {} and the rules give {game}",
                i + 1,
                entry.mv,
                entry.position
            ));
        }
    }
    if replay.outcome != table.outcome() {
        return Err(format!(
            "the table's result is {:?} and the record's {:?}",
            table.outcome(),
            replay.outcome
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    /// A game file replays turns under the server's hard cap (docs/game-file.md#replay):
    /// the two must stay equal, or a stored turn could replay differently.
    #[test]
    fn files_replay_under_the_servers_cap() {
        assert_eq!(
            omweso_gamefile::REPLAY_SEED_CAP,
            omweso_protocol::config::TURN_SEED_CAP
        );
    }
}
