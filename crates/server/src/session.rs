//! Guest sessions: a player id, a name and a secret token. The token is shown once, kept
//! by the client as a cookie or a bearer token, and stored only as its hash.

use std::num::NonZeroUsize;
use std::sync::Mutex;

use axum::http::HeaderMap;
use rand::RngCore;
use uuid::Uuid;

use crate::store::{hash_token, SessionRow, Store, StoreError, Write, Writer};

pub const COOKIE: &str = "omweso_session";
/// The longest player name, in characters.
pub const MAX_NAME: usize = 32;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Session {
    pub player_id: Uuid,
    pub name: String,
}

/// Sessions by token hash: the store, with the most recently used kept in memory (a
/// bounded cache: the least recently used leave it first, and are read from the store
/// again when they come back).
#[derive(Debug)]
pub struct Sessions {
    store: Store,
    writer: Writer,
    cache: Mutex<lru::LruCache<String, Session>>,
}

impl Sessions {
    /// Keeps at most `cached` sessions in memory (at least one).
    pub fn new(store: Store, writer: Writer, cached: usize) -> Sessions {
        let cached = NonZeroUsize::new(cached).unwrap_or(NonZeroUsize::MIN);
        Sessions {
            store,
            writer,
            cache: Mutex::new(lru::LruCache::new(cached)),
        }
    }

    /// Sessions in memory now.
    #[must_use]
    pub fn cached(&self) -> usize {
        self.cache.lock().map_or(0, |cache| cache.len())
    }

    /// Creates a session; returns it with its token.
    pub async fn create(&self, name: Option<&str>) -> Result<(Session, String), String> {
        let name = clean_name(name)?;
        let mut bytes = [0u8; 32];
        rand::rng().fill_bytes(&mut bytes);
        let token = hex::encode(bytes);
        let session = Session {
            player_id: Uuid::new_v4(),
            name,
        };
        let row = SessionRow {
            player_id: session.player_id,
            token_hash: hash_token(&token),
            name: session.name.clone(),
            created_at_ms: i64::try_from(crate::clock::now_ms()).unwrap_or(i64::MAX),
        };
        self.writer
            .write(vec![Write::InsertSession(row.clone())])
            .await
            .map_err(|e| e.to_string())?;
        self.remember(row.token_hash, session.clone());
        Ok((session, token))
    }

    fn remember(&self, hash: String, session: Session) {
        if let Ok(mut cache) = self.cache.lock() {
            cache.put(hash, session);
        }
    }

    /// The session a token belongs to.
    pub async fn find(&self, token: &str) -> Result<Option<Session>, StoreError> {
        let hash = hash_token(token);
        let cached = self
            .cache
            .lock()
            .ok()
            .and_then(|mut cache| cache.get(&hash).cloned());
        if cached.is_some() {
            return Ok(cached);
        }
        let Some(row) = self.store.session_by_token_hash(&hash).await? else {
            return Ok(None);
        };
        let session = Session {
            player_id: row.player_id,
            name: row.name,
        };
        self.remember(hash, session.clone());
        Ok(Some(session))
    }
}

/// The token a request carries: `Authorization: Bearer`, else the session cookie.
#[must_use]
pub fn token_from(headers: &HeaderMap) -> Option<String> {
    if let Some(bearer) = headers
        .get(axum::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
    {
        return Some(bearer.trim().to_owned());
    }
    headers
        .get_all(axum::http::header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == COOKIE)
        .map(|(_, v)| v.to_owned())
}

/// A player name: trimmed, 1 to 32 characters, no control characters; a guest name when
/// none is given.
pub fn clean_name(name: Option<&str>) -> Result<String, String> {
    let Some(name) = name.map(str::trim).filter(|n| !n.is_empty()) else {
        let mut tag = [0u8; 2];
        rand::rng().fill_bytes(&mut tag);
        return Ok(format!("Guest-{}", hex::encode(tag)));
    };
    if name.chars().count() > MAX_NAME {
        return Err(format!("a name is at most {MAX_NAME} characters"));
    }
    if name.chars().any(char::is_control) {
        return Err("a name cannot hold control characters".into());
    }
    Ok(name.to_owned())
}
