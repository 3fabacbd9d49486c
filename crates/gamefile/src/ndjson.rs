//! A game as one JSON object (docs/game-file.md#ndjson), for NDJSON exports: lichess's
//! field names where the meaning is the same (`id`, `rated`, `variant`, `createdAt`,
//! `status`, `players`, `winner`, `moves`, `tournament`), ours for the rest.

use serde_json::{json, Map, Value};

use omweso_rules::{Side, Victory};

use crate::record::{GameRecord, GameResult, Termination};

impl GameRecord {
    /// The game as one NDJSON line's object.
    #[must_use]
    pub fn to_ndjson(&self) -> Value {
        let mut out = Map::new();
        if let Some(id) = self.tag("GameId") {
            out.insert("id".into(), json!(id));
        }
        out.insert("rated".into(), json!(self.tag("Rated") == Some("true")));
        out.insert("variant".into(), json!(self.ruleset.name()));
        if let Some(ms) = self.created_at_ms() {
            out.insert("createdAt".into(), json!(ms));
        }
        out.insert("status".into(), json!(self.lichess_status()));
        let player = |name: &str, rating: &str| {
            let mut p = Map::new();
            if let Some(name) = self.tag(name) {
                p.insert("user".into(), json!({ "name": name }));
            }
            if let Some(rating) = self.tag(rating).and_then(|r| r.parse::<i64>().ok()) {
                p.insert("rating".into(), json!(rating));
            }
            Value::Object(p)
        };
        out.insert(
            "players".into(),
            json!({
                "south": player("South", "SouthRating"),
                "north": player("North", "NorthRating"),
            }),
        );
        if let Some(winner) = self.result.winner() {
            out.insert("winner".into(), json!(side_word(winner)));
        }
        out.insert("result".into(), json!(self.result.token()));
        if let Some(t) = self.termination {
            out.insert("termination".into(), json!(t.name()));
        }
        let moves: Vec<String> = self
            .moves
            .iter()
            .map(|m| {
                if m.stolen {
                    format!("{}^", m.notation)
                } else {
                    m.notation.clone()
                }
            })
            .collect();
        out.insert("moves".into(), json!(moves.join(" ")));
        if self.moves.iter().any(|m| m.emt_ms.is_some()) {
            let times: Vec<Value> = self.moves.iter().map(|m| json!(m.emt_ms)).collect();
            out.insert("moveTimes".into(), Value::Array(times));
        }
        if self
            .moves
            .iter()
            .any(|m| m.comment.is_some() || m.budget.is_some())
        {
            let notes: Vec<Value> = self
                .moves
                .iter()
                .map(|m| match (&m.comment, m.budget) {
                    (None, None) => Value::Null,
                    (comment, budget) => {
                        let mut note = Map::new();
                        if let Some(c) = comment {
                            note.insert("comment".into(), json!(c));
                        }
                        if let Some(b) = budget {
                            note.insert("budget".into(), json!(b));
                        }
                        Value::Object(note)
                    }
                })
                .collect();
            out.insert("moveNotes".into(), Value::Array(notes));
        }
        if let Some(setup) = &self.setup {
            out.insert("initialPosition".into(), json!(setup));
        }
        if self.akakyala {
            out.insert("akakyala".into(), json!(true));
        }
        if let Some(impasse) = self.impasse {
            out.insert(
                "impasse".into(),
                json!({
                    "proposedBy": side_word(impasse.proposed_by),
                    "split": { "south": impasse.split[0], "north": impasse.split[1] },
                }),
            );
        }
        if let Some(tournament) = self.tag("Tournament") {
            out.insert("tournament".into(), json!(tournament));
        }
        let tags: Map<String, Value> = self
            .tags
            .iter()
            .map(|t| (t.name.clone(), json!(t.value)))
            .collect();
        out.insert("tags".into(), Value::Object(tags));
        Value::Object(out)
    }

    /// lichess's `status` word for the way the game ended.
    fn lichess_status(&self) -> &'static str {
        match (self.result, self.termination) {
            (GameResult::Unfinished, _) => "started",
            (GameResult::Annulled, _) => "aborted",
            (_, Some(Termination::Victory(Victory::Resigned))) => "resign",
            (_, Some(Termination::Victory(Victory::Abandoned))) => "timeout",
            (_, Some(Termination::Victory(Victory::Adjudicated))) => "outoftime",
            (GameResult::Draw, _) => "draw",
            _ => "variantEnd",
        }
    }

    /// `Date` (`YYYY.MM.DD`) and `UTCTime` (`HH:MM:SS`) as ms since the Unix epoch.
    #[must_use]
    pub fn created_at_ms(&self) -> Option<i64> {
        let date = self.tag("Date")?;
        let time = self.tag("UTCTime").unwrap_or("00:00:00");
        let mut d = date.split('.').map(|p| p.parse::<i64>().ok());
        let (year, month, day) = (d.next()??, d.next()??, d.next()??);
        let mut t = time.split(':').map(|p| p.parse::<i64>().ok());
        let (h, m, s) = (t.next()??, t.next()??, t.next()??);
        if !(1..=12).contains(&month) || !(1..=31).contains(&day) || h > 23 || m > 59 || s > 59 {
            return None;
        }
        let days = days_from_civil(year, month, day);
        Some(((days * 24 + h) * 60 + m) * 60_000 + s * 1000)
    }
}

const fn side_word(side: Side) -> &'static str {
    match side {
        Side::South => "south",
        Side::North => "north",
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
pub(crate) const fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The `Date` and `UTCTime` tag values of `ms` since the Unix epoch.
#[must_use]
pub fn date_and_time(ms: i64) -> (String, String) {
    let days = ms.div_euclid(86_400_000);
    let in_day = ms.rem_euclid(86_400_000) / 1000;
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = if z >= 0 { z } else { z - 146_096 } / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (
        format!("{year:04}.{month:02}.{day:02}"),
        format!(
            "{:02}:{:02}:{:02}",
            in_day / 3600,
            in_day / 60 % 60,
            in_day % 60
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_convert_both_ways() {
        // 2026-11-27 14:03:07 UTC.
        let ms = 1_795_788_187_000;
        assert_eq!(
            date_and_time(ms),
            ("2026.11.27".to_owned(), "14:03:07".to_owned())
        );
        assert_eq!(
            date_and_time(0),
            ("1970.01.01".to_owned(), "00:00:00".to_owned())
        );
        let mut r = GameRecord::new(omweso_rules::Ruleset::Oware);
        r.set_tag("Date", "2026.11.27");
        r.set_tag("UTCTime", "14:03:07");
        assert_eq!(r.created_at_ms(), Some(ms));
    }
}
