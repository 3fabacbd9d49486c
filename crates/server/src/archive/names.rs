//! The persons and tournaments an archive search names, found in the store
//! (docs/protocol.md#the-archive-addition): a player by their username or by the name the
//! sheets show (a guest's too), a tournament by its id or its name. What
//! `GET /api/archive` and the benchmark do before the search itself.

use uuid::Uuid;

use super::search::{Asked, PersonAsked, TournamentAsked};
use super::sql::ArchiveSearch;
use crate::people::names::username_key;
use crate::store::{Store, StoreError};

/// The most persons one name finds when each is read by two index ranges (one per seat),
/// and the most tournaments one name finds (one range each): more is refused, saying how
/// to narrow the search (docs/security.md#the-archive).
pub const MAX_NAMESAKES: usize = 20;
/// The most persons one name finds when they are only checked on the games another index
/// reads (a player within tournaments, an opponent): a list of ids in one statement.
pub const MAX_NAMESAKES_CHECKED: usize = 500;

/// Why the names of a search could not be found.
#[derive(Debug, thiserror::Error)]
pub enum NamesError {
    #[error(transparent)]
    Store(#[from] StoreError),
    /// More than [`MAX_NAMESAKES`]: the refusal's message, naming its field.
    #[error("{0}")]
    TooMany(String),
}

/// `asked`'s search with its persons and tournaments found; `None` when a name or an
/// account it gives is nobody's (no games, and no search to run).
pub async fn resolve(store: &Store, asked: Asked) -> Result<Option<ArchiveSearch>, NamesError> {
    let mut search = asked.search;
    if let Some(tournament) = &asked.tournament {
        search.tournaments = tournaments(store, tournament).await?;
        if search.tournaments.is_empty() {
            return Ok(None);
        }
    }
    if let Some(player) = &asked.player {
        // Within tournaments the players are checked on the tournaments' games; else each
        // is a way in of its own.
        let (most, narrower) = if search.tournaments.is_empty() {
            (MAX_NAMESAKES, ", or add the tournament they played in")
        } else {
            (MAX_NAMESAKES_CHECKED, "")
        };
        search.players = persons(store, ("player", most, narrower), player).await?;
        if search.players.is_empty() {
            return Ok(None);
        }
    }
    if let Some(opponent) = &asked.opponent {
        search.opponents =
            persons(store, ("opponent", MAX_NAMESAKES_CHECKED, ""), opponent).await?;
        if search.opponents.is_empty() {
            return Ok(None);
        }
    }
    Ok(Some(search))
}

/// `most` and one, to tell "exactly" from "more".
fn one_more(most: usize) -> i64 {
    i64::try_from(most + 1).unwrap_or(i64::MAX)
}

/// The persons `asked` names: the account of that username, and (unless asked as
/// `@username`) every person of that name who finished a game; more than `most` is
/// refused, naming `field` and saying how to narrow it (`narrower`).
async fn persons(
    store: &Store,
    (field, most, narrower): (&str, usize, &str),
    asked: &PersonAsked,
) -> Result<Vec<Uuid>, NamesError> {
    let (username, name) = match asked {
        PersonAsked::Username(username) => (username, None),
        PersonAsked::UsernameOrName(text) => (text, Some(text)),
    };
    let mut found: Vec<Uuid> = store
        .person_by_username_key(&username_key(username))
        .await?
        // An account disabled by the operator is found by nobody: its page answers 404,
        // and so does the archive (issue 41, finding 14).
        .filter(|p| p.username.is_some() && p.disabled_at_ms.is_none())
        .map(|p| p.id)
        .into_iter()
        .collect();
    if let Some(name) = name {
        for id in store.persons_named(name, one_more(most)).await? {
            if !found.contains(&id) {
                found.push(id);
            }
        }
        if found.len() > most {
            return Err(NamesError::TooMany(format!(
                "{field}: more than {most} people named {name:?} have played here; \
                 search by a username (@name){narrower}"
            )));
        }
    }
    Ok(found)
}

/// The tournaments `asked` names: the one of that id, or every tournament of that name.
async fn tournaments(store: &Store, asked: &TournamentAsked) -> Result<Vec<Uuid>, NamesError> {
    match asked {
        TournamentAsked::Id(id) => Ok(vec![*id]),
        TournamentAsked::Name(name) => {
            let found = store
                .tournaments_named(name, one_more(MAX_NAMESAKES))
                .await?;
            if found.len() > MAX_NAMESAKES {
                return Err(NamesError::TooMany(format!(
                    "tournament: more than {MAX_NAMESAKES} tournaments are named {name:?}; \
                     give the tournament's id (its page's address ends with it)"
                )));
            }
            Ok(found)
        }
    }
}
