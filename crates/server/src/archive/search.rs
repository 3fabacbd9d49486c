//! A search of the archive as a client asks it (`GET /api/archive`'s query, an
//! [`ArchiveQuery`]): checked field by field, each refusal naming the field and what is
//! wrong; its page's cursor; and a stored entry as the protocol shows it.

use omweso_protocol::archive::{ArchiveGame, ArchiveQuery, ArchiveResult, ArchiveSeat};
use omweso_rules::Ruleset;
use uuid::Uuid;

use super::sql::{ArchiveSearch, ResultFilter};
use super::store::{ArchiveEntry, ArchiveKey};
use crate::store::{RESULT_ANNULLED, RESULT_DRAW, RESULT_NORTH, RESULT_SOUTH};

/// Games a page when the search does not say.
pub const DEFAULT_LIMIT: usize = 50;
/// The most games a page (docs/security.md#the-archive).
pub const MAX_LIMIT: usize = 100;
/// The longest username or name looked up (longer ones are nobody's).
const MAX_NAME: usize = 64;

/// A person a search names: an account by its username (`@kato`), or a text that may be a
/// username or a name as the sheets show it (`Kato Moses`), which finds both.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PersonAsked {
    Username(String),
    UsernameOrName(String),
}

/// A tournament a search names: by its id, or by its name (every tournament of it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TournamentAsked {
    Id(Uuid),
    Name(String),
}

/// A search checked: the persons and tournaments still to be found, and the rest of the
/// search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Asked {
    pub player: Option<PersonAsked>,
    pub opponent: Option<PersonAsked>,
    pub tournament: Option<TournamentAsked>,
    /// Everything but the persons and tournaments (empty here).
    pub search: ArchiveSearch,
}

/// A name as typed, as names are kept: NFC, runs of spaces one space (docs/security.md#names).
fn as_kept(text: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .nfc()
        .collect()
}

/// Checks every field of `query`; the refusal names the first field that is wrong.
pub fn parse(query: ArchiveQuery) -> Result<Asked, String> {
    let person = |field: &str, value: Option<String>| -> Result<Option<PersonAsked>, String> {
        match value.as_deref().map(str::trim) {
            None | Some("") => Ok(None),
            Some(name) if name.chars().count() > MAX_NAME => Err(format!(
                "{field}: a username or a name has at most {MAX_NAME} characters"
            )),
            Some(name) => Ok(Some(match name.strip_prefix('@') {
                Some(username) => PersonAsked::Username(username.to_owned()),
                None => PersonAsked::UsernameOrName(as_kept(name)),
            })),
        }
    };
    let player = person("player", query.player)?;
    let opponent = person("opponent", query.opponent)?;
    if opponent.is_some() && player.is_none() {
        return Err("opponent: give a player too (the games of player against opponent)".into());
    }
    let ruleset = match given(&query.ruleset) {
        None => None,
        Some(text) => Some(
            text.parse::<Ruleset>()
                .map_err(|_| format!("ruleset: {text:?} is not omweso, mweiso or oware"))?
                .to_string(),
        ),
    };
    let result = match given(&query.result) {
        None => None,
        Some("south") => Some(ResultFilter::Is(RESULT_SOUTH)),
        Some("north") => Some(ResultFilter::Is(RESULT_NORTH)),
        Some("draw" | "drawn") => Some(ResultFilter::Is(RESULT_DRAW)),
        Some("annulled") => Some(ResultFilter::Is(RESULT_ANNULLED)),
        Some(won @ ("won" | "lost")) if player.is_none() => {
            return Err(format!("result: {won} needs a player (whose result it is)"))
        }
        Some("won") => Some(ResultFilter::PlayerWon),
        Some("lost") => Some(ResultFilter::PlayerLost),
        Some(other) => {
            return Err(format!(
                "result: {other:?} is not south, north, draw, annulled, won or lost"
            ))
        }
    };
    let rated = match given(&query.rated) {
        None => None,
        Some("true") => Some(true),
        Some("false") => Some(false),
        Some(other) => return Err(format!("rated: {other:?} is not true or false")),
    };
    let time = |field: &str, value: &Option<String>| -> Result<Option<i64>, String> {
        given(value)
            .map(|text| {
                text.parse::<i64>().map_err(|_| {
                    format!("{field}: {text:?} is not a time (ms since 1970-01-01 UTC)")
                })
            })
            .transpose()
    };
    let from_ms = time("from", &query.from)?;
    let to_ms = time("to", &query.to)?;
    if let (Some(from), Some(to)) = (from_ms, to_ms) {
        if from >= to {
            return Err("from: must be before to".into());
        }
    }
    let tournament = match given(&query.tournament) {
        None => None,
        Some(text) if text.chars().count() > MAX_NAME => {
            return Err(format!(
                "tournament: a tournament's name or id has at most {MAX_NAME} characters"
            ))
        }
        Some(text) => Some(match text.parse::<Uuid>() {
            Ok(id) => TournamentAsked::Id(id),
            Err(_) => TournamentAsked::Name(as_kept(text)),
        }),
    };
    let before = given(&query.after).map(parse_cursor).transpose()?;
    let limit = match given(&query.limit) {
        None => DEFAULT_LIMIT,
        Some(text) => match text.parse::<usize>() {
            Ok(n) if (1..=MAX_LIMIT).contains(&n) => n,
            _ => {
                return Err(format!(
                    "limit: {text:?} is not a number from 1 to {MAX_LIMIT}"
                ))
            }
        },
    };
    Ok(Asked {
        player,
        opponent,
        tournament,
        search: ArchiveSearch {
            players: Vec::new(),
            opponents: Vec::new(),
            ruleset,
            result,
            rated,
            from_ms,
            to_ms,
            tournaments: Vec::new(),
            before,
            limit,
        },
    })
}

/// A field given and not empty (a form's empty field is no filter).
fn given(value: &Option<String>) -> Option<&str> {
    value.as_deref().map(str::trim).filter(|v| !v.is_empty())
}

/// A page's cursor as the client holds it: `<finished_at_ms>_<id>`.
#[must_use]
pub fn cursor_text((at, id): ArchiveKey) -> String {
    format!("{at}_{id}")
}

/// The key a cursor names; refused when it is no cursor this server gave.
pub fn parse_cursor(text: &str) -> Result<ArchiveKey, String> {
    let bad = || format!("after: {text:?} is not the next of an archive page");
    let (at, id) = text.split_once('_').ok_or_else(bad)?;
    Ok((
        at.parse::<i64>().map_err(|_| bad())?,
        id.parse::<Uuid>().map_err(|_| bad())?,
    ))
}

/// The name a seat shows when no person holds it (the computer's).
const NO_PERSON: &str = "Computer";

/// A stored entry as the protocol shows it; `None` (logged) for one that cannot be read.
#[must_use]
pub fn archive_game(entry: &ArchiveEntry) -> Option<ArchiveGame> {
    let ruleset = match entry.ruleset.parse::<Ruleset>() {
        Ok(ruleset) => ruleset,
        Err(error) => {
            tracing::warn!(game = %entry.id, %error, "an archived game with no ruleset");
            return None;
        }
    };
    let result = match entry.result.as_deref() {
        Some(RESULT_SOUTH) => ArchiveResult::South,
        Some(RESULT_NORTH) => ArchiveResult::North,
        Some(RESULT_DRAW) => ArchiveResult::Draw,
        Some(RESULT_ANNULLED) => ArchiveResult::Annulled,
        other => {
            tracing::warn!(game = %entry.id, result = ?other, "an archived game with no result");
            return None;
        }
    };
    let seat = |id: Option<Uuid>, person: &Option<(String, Option<String>)>| {
        id.map(|_| match person {
            Some((name, username)) => ArchiveSeat {
                name: name.clone(),
                username: username.clone(),
            },
            None => ArchiveSeat {
                name: NO_PERSON.to_owned(),
                username: None,
            },
        })
    };
    Some(ArchiveGame {
        id: entry.id,
        ruleset,
        south: seat(entry.south, &entry.south_person),
        north: seat(entry.north, &entry.north_person),
        result,
        victory: entry.victory.clone(),
        rated: entry.rated,
        tournament: entry.tournament_id,
        tournament_name: entry.tournament_name.clone(),
        moves: entry.move_count.and_then(|n| u32::try_from(n).ok()),
        created_at_ms: entry.created_at_ms,
        finished_at_ms: entry.finished_at_ms,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(pairs: &[(&str, &str)]) -> ArchiveQuery {
        let fields: serde_json::Map<String, serde_json::Value> = pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), serde_json::Value::from(*v)))
            .collect();
        serde_json::from_value(serde_json::Value::Object(fields)).expect("known fields")
    }

    #[test]
    fn a_full_search_is_read_field_by_field() {
        let id = Uuid::from_u128(5);
        let asked = parse(query(&[
            ("player", "@Kato"),
            ("opponent", "nakato"),
            ("ruleset", "oware"),
            ("result", "won"),
            ("rated", "true"),
            ("from", "1000"),
            ("to", "2000"),
            ("tournament", &id.to_string()),
            ("after", &format!("1500_{id}")),
            ("limit", "20"),
        ]))
        .unwrap();
        assert_eq!(asked.player, Some(PersonAsked::Username("Kato".into())));
        assert_eq!(
            asked.opponent,
            Some(PersonAsked::UsernameOrName("nakato".into()))
        );
        assert_eq!(asked.tournament, Some(TournamentAsked::Id(id)));
        assert_eq!(
            asked.search,
            ArchiveSearch {
                players: Vec::new(),
                opponents: Vec::new(),
                ruleset: Some("oware".into()),
                result: Some(ResultFilter::PlayerWon),
                rated: Some(true),
                from_ms: Some(1000),
                to_ms: Some(2000),
                tournaments: Vec::new(),
                before: Some((1500, id)),
                limit: 20,
            }
        );
    }

    #[test]
    fn empty_fields_are_no_filter_and_the_page_has_fifty() {
        let asked = parse(query(&[("player", ""), ("ruleset", " "), ("result", "")])).unwrap();
        assert_eq!(asked.player, None);
        assert_eq!(asked.search.ruleset, None);
        assert_eq!(asked.search.limit, DEFAULT_LIMIT);
    }

    #[test]
    fn every_refusal_names_its_field() {
        let cases: &[(&[(&str, &str)], &str)] = &[
            (&[("opponent", "x")], "opponent: give a player too"),
            (&[("ruleset", "chess")], "ruleset: \"chess\" is not omweso"),
            (&[("result", "won")], "result: won needs a player"),
            (&[("result", "maybe")], "result: \"maybe\" is not south"),
            (&[("rated", "yes")], "rated: \"yes\" is not true or false"),
            (
                &[("from", "yesterday")],
                "from: \"yesterday\" is not a time",
            ),
            (&[("from", "5"), ("to", "5")], "from: must be before to"),
            (
                &[("after", "12")],
                "after: \"12\" is not the next of an archive page",
            ),
            (
                &[("limit", "0")],
                "limit: \"0\" is not a number from 1 to 100",
            ),
            (
                &[("limit", "101")],
                "limit: \"101\" is not a number from 1 to 100",
            ),
        ];
        for (pairs, expected) in cases {
            let refusal = parse(query(pairs)).unwrap_err();
            assert!(refusal.starts_with(expected), "{pairs:?}: {refusal}");
        }
        let long = "x".repeat(65);
        assert!(parse(query(&[("player", &long)]))
            .unwrap_err()
            .starts_with("player: a username or a name has at most 64"));
        assert!(parse(query(&[("tournament", &long)]))
            .unwrap_err()
            .starts_with("tournament: a tournament's name or id has at most 64"));
    }

    #[test]
    fn a_name_is_searched_as_names_are_kept_and_a_tournament_by_its_name() {
        let asked = parse(query(&[
            ("player", "  Kato   Moses "),
            ("tournament", "Kampala  Open"),
        ]))
        .unwrap();
        assert_eq!(
            asked.player,
            Some(PersonAsked::UsernameOrName("Kato Moses".into()))
        );
        assert_eq!(
            asked.tournament,
            Some(TournamentAsked::Name("Kampala Open".into()))
        );
        // "e" and a combining acute is the "é" a kept name holds.
        let asked = parse(query(&[("player", "Rene\u{301}")])).unwrap();
        assert_eq!(
            asked.player,
            Some(PersonAsked::UsernameOrName("Ren\u{e9}".into()))
        );
    }

    #[test]
    fn a_cursor_reads_back_as_its_key() {
        let key = (1_712_345_678_901, Uuid::from_u128(0xabc));
        assert_eq!(parse_cursor(&cursor_text(key)), Ok(key));
        assert_eq!(
            cursor_text(key),
            "1712345678901_00000000-0000-0000-0000-000000000abc"
        );
    }
}
