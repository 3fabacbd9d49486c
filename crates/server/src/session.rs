//! Guest sessions: a player id, a name and a secret token. The token is shown once, kept
//! by the client as a cookie or a bearer token, and stored only as its hash.
//!
//! A session expires when unused (docs/security.md, sessions): one that never created,
//! joined or played anything after [`Expiry::unused_ms`] without a request, a used one
//! after [`Expiry::idle_ms`]. Its last use is written when the stored one is older than
//! [`SEEN_EVERY_MS`] ([`Expiry::seen_every_ms`]), not on every request. Signing out, or making a new session in its
//! place (a name change), deletes it: its token is worthless at once, and its open
//! sockets are closed.

use std::collections::HashMap;
use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex};

use axum::http::HeaderMap;
use rand::RngCore;
use tokio_util::sync::CancellationToken;
use unicode_normalization::UnicodeNormalization;
use uuid::Uuid;

use crate::store::{hash_token, SessionChange, SessionRow, Store, StoreError, Write, Writer};

pub const COOKIE: &str = "omweso_session";
/// The longest player name, in characters.
pub const MAX_NAME: usize = 32;
/// A session's last use is stored again once the stored one is this old (5 minutes): a
/// write per session every few minutes at most, not one per request.
pub const SEEN_EVERY_MS: i64 = 5 * 60 * 1000;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Session {
    pub player_id: Uuid,
    pub name: String,
}

/// Why a session was not created.
#[derive(Debug, thiserror::Error)]
pub enum CreateError {
    /// The name asked for is refused; the text says which character and why.
    #[error("{0}")]
    Name(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// How long sessions last without being used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Expiry {
    /// A session that never created, joined or played anything.
    pub unused_ms: i64,
    /// A session that did.
    pub idle_ms: i64,
}

impl Expiry {
    /// From `--unused-session-minutes` and `--session-idle-days`.
    #[must_use]
    pub fn new(unused_minutes: f64, idle_days: f64) -> Expiry {
        let ms = |value: f64| {
            let ms = (value * 1000.0).round();
            if ms.is_finite() && ms < 9.0e15 {
                ms.max(1.0) as i64
            } else {
                i64::MAX / 2
            }
        };
        Expiry {
            unused_ms: ms(unused_minutes * 60.0),
            idle_ms: ms(idle_days * 86_400.0),
        }
    }

    /// How old the stored last use may grow before it is written again:
    /// [`SEEN_EVERY_MS`], or a quarter of an unused session's life if that is shorter (so
    /// that a session in use never looks unused for long enough to expire).
    #[must_use]
    pub fn seen_every_ms(&self) -> i64 {
        SEEN_EVERY_MS.min(self.unused_ms / 4).max(1)
    }

    /// Has a session last seen at `last_seen_ms` expired at `now_ms`?
    #[must_use]
    pub fn expired(&self, used: bool, last_seen_ms: i64, now_ms: i64) -> bool {
        let allowed = if used { self.idle_ms } else { self.unused_ms };
        now_ms.saturating_sub(last_seen_ms) > allowed
    }
}

/// A session as the cache keeps it: with its last use as stored, and whether it was used.
#[derive(Clone, Debug)]
struct Cached {
    session: Session,
    last_seen_ms: i64,
    used: bool,
}

/// Sessions by token hash: the store, with the most recently used kept in memory (a
/// bounded cache: the least recently used leave it first, and are read from the store
/// again when they come back).
#[derive(Debug)]
pub struct Sessions {
    store: Store,
    writer: Writer,
    cache: Mutex<lru::LruCache<String, Cached>>,
    expiry: Expiry,
    ends: Ends,
}

impl Sessions {
    /// Keeps at most `cached` sessions in memory (at least one); sessions expire as
    /// `omweso serve`'s defaults have it.
    pub fn new(store: Store, writer: Writer, cached: usize) -> Sessions {
        let defaults = crate::config::Limits::defaults();
        let expiry = Expiry::new(defaults.unused_session_minutes, defaults.session_idle_days);
        Sessions::with_expiry(store, writer, cached, expiry)
    }

    /// [`Sessions::new`] with sessions expiring after `expiry`.
    pub fn with_expiry(store: Store, writer: Writer, cached: usize, expiry: Expiry) -> Sessions {
        let cached = NonZeroUsize::new(cached).unwrap_or(NonZeroUsize::MIN);
        Sessions {
            store,
            writer,
            cache: Mutex::new(lru::LruCache::new(cached)),
            expiry,
            ends: Ends::default(),
        }
    }

    /// Sessions in memory now.
    #[must_use]
    pub fn cached(&self) -> usize {
        self.cache.lock().map_or(0, |cache| cache.len())
    }

    /// Creates a session; returns it with its token.
    pub async fn create(&self, name: Option<&str>) -> Result<(Session, String), CreateError> {
        let name = clean_name(name).map_err(CreateError::Name)?;
        let mut bytes = [0u8; 32];
        rand::rng().fill_bytes(&mut bytes);
        let token = hex::encode(bytes);
        let session = Session {
            player_id: Uuid::new_v4(),
            name,
        };
        let now = now_ms();
        let row = SessionRow {
            player_id: session.player_id,
            token_hash: hash_token(&token),
            name: session.name.clone(),
            created_at_ms: now,
            last_seen_ms: now,
            used: false,
        };
        self.writer
            .write(vec![Write::InsertSession(row.clone())])
            .await?;
        self.remember(
            row.token_hash,
            Cached {
                session: session.clone(),
                last_seen_ms: now,
                used: false,
            },
        );
        Ok((session, token))
    }

    fn remember(&self, hash: String, cached: Cached) {
        if let Ok(mut cache) = self.cache.lock() {
            cache.put(hash, cached);
        }
    }

    /// The session a token belongs to, unless it expired (then it is deleted) or was
    /// revoked. Counts as a use of it.
    pub async fn find(&self, token: &str) -> Result<Option<Session>, StoreError> {
        let hash = hash_token(token);
        let now = now_ms();
        let cached = self
            .cache
            .lock()
            .ok()
            .and_then(|mut cache| cache.get(&hash).cloned());
        let cached = match cached {
            Some(cached) => cached,
            None => {
                let Some(row) = self.store.session_by_token_hash(&hash).await? else {
                    return Ok(None);
                };
                Cached {
                    session: Session {
                        player_id: row.player_id,
                        name: row.name,
                    },
                    last_seen_ms: row.last_seen_ms,
                    used: row.used,
                }
            }
        };
        if self.expiry.expired(cached.used, cached.last_seen_ms, now) {
            // Gone for good: from memory now, from the database in the background (the
            // sweep would take it anyway).
            self.forget(&hash);
            let expired = Write::Session(SessionChange::Revoke(cached.session.player_id));
            let writer = self.writer.clone();
            tokio::spawn(async move {
                if let Err(error) = writer.write(vec![expired]).await {
                    tracing::warn!(%error, "could not delete an expired session");
                }
            });
            return Ok(None);
        }
        let mut seen = cached.clone();
        if now - cached.last_seen_ms >= self.expiry.seen_every_ms() {
            seen.last_seen_ms = now;
            let write = Write::Session(SessionChange::Seen {
                player_id: cached.session.player_id,
                at_ms: now,
            });
            let writer = self.writer.clone();
            tokio::spawn(async move {
                if let Err(error) = writer.write(vec![write]).await {
                    tracing::warn!(%error, "could not store a session's last use");
                }
            });
        }
        let session = seen.session.clone();
        self.remember(hash, seen);
        Ok(Some(session))
    }

    /// Records that the session of `token` created, joined or played something: it now
    /// lasts the longer idle time. Written once per session.
    pub async fn mark_used(&self, token: &str) -> Result<(), StoreError> {
        let hash = hash_token(token);
        let now = now_ms();
        let player_id = {
            let Ok(mut cache) = self.cache.lock() else {
                return Ok(());
            };
            match cache.get_mut(&hash) {
                Some(cached) if cached.used => return Ok(()),
                Some(cached) => {
                    cached.used = true;
                    cached.last_seen_ms = now;
                    Some(cached.session.player_id)
                }
                None => None,
            }
        };
        let player_id = match player_id {
            Some(player_id) => player_id,
            None => match self.store.session_by_token_hash(&hash).await? {
                Some(row) if !row.used => row.player_id,
                _ => return Ok(()),
            },
        };
        self.writer
            .write(vec![Write::Session(SessionChange::Used {
                player_id,
                at_ms: now,
            })])
            .await
    }

    /// Makes the session of `token` worthless at once: deleted from memory and from the
    /// database, and its open sockets told to close. `false` if there was none.
    pub async fn revoke(&self, token: &str) -> Result<bool, StoreError> {
        let hash = hash_token(token);
        let cached = self
            .cache
            .lock()
            .ok()
            .and_then(|mut cache| cache.pop(&hash));
        let player_id = match cached {
            Some(cached) => cached.session.player_id,
            None => match self.store.session_by_token_hash(&hash).await? {
                Some(row) => row.player_id,
                None => return Ok(false),
            },
        };
        self.writer
            .write(vec![Write::Session(SessionChange::Revoke(player_id))])
            .await?;
        self.ends.end(player_id);
        Ok(true)
    }

    /// Deletes the sessions that expired (and gives a last use to those stored before
    /// last uses were); run at start and then every few minutes.
    pub async fn sweep(&self) -> Result<(), StoreError> {
        let now = now_ms();
        self.writer
            .write(vec![Write::Session(SessionChange::Expire {
                now_ms: now,
                before_ms: now.saturating_sub(self.expiry.idle_ms),
                unused_before_ms: now.saturating_sub(self.expiry.unused_ms),
            })])
            .await
    }

    /// What a socket of `player` holds to learn that its session ended (signed out or
    /// replaced); nothing to learn for a socket without a session.
    #[must_use]
    pub fn watch_end(&self, player: Option<Uuid>) -> SessionEnd {
        SessionEnd(player.map(|player| self.ends.watch(player)))
    }

    fn forget(&self, hash: &str) {
        if let Ok(mut cache) = self.cache.lock() {
            cache.pop(hash);
        }
    }
}

fn now_ms() -> i64 {
    i64::try_from(omweso_protocol::clock::now_ms()).unwrap_or(i64::MAX)
}

/// The sessions that have sockets open, each with the token its sockets wait on and how
/// many of them hold it (an entry leaves with the last socket).
#[derive(Debug, Default)]
struct Ends {
    by_player: Arc<Mutex<HashMap<Uuid, (CancellationToken, usize)>>>,
}

impl Ends {
    fn watch(&self, player: Uuid) -> Watched {
        let token = match self.by_player.lock() {
            Ok(mut map) => {
                let entry = map
                    .entry(player)
                    .or_insert_with(|| (CancellationToken::new(), 0));
                entry.1 += 1;
                entry.0.clone()
            }
            // A poisoned map: this socket is not told, and holds no place in it.
            Err(_) => CancellationToken::new(),
        };
        Watched {
            player,
            token,
            by_player: Arc::clone(&self.by_player),
        }
    }

    fn end(&self, player: Uuid) {
        let ended = self
            .by_player
            .lock()
            .ok()
            .and_then(|mut map| map.remove(&player));
        if let Some((token, _)) = ended {
            token.cancel();
        }
    }
}

#[derive(Debug)]
struct Watched {
    player: Uuid,
    token: CancellationToken,
    by_player: Arc<Mutex<HashMap<Uuid, (CancellationToken, usize)>>>,
}

impl Drop for Watched {
    fn drop(&mut self) {
        if let Ok(mut map) = self.by_player.lock() {
            if let Some(entry) = map.get_mut(&self.player) {
                // Once ended, the entry this socket counted in is gone (a later one is
                // another's).
                if !self.token.is_cancelled() {
                    entry.1 = entry.1.saturating_sub(1);
                    if entry.1 == 0 {
                        map.remove(&self.player);
                    }
                }
            }
        }
    }
}

/// Held by a socket: completes when its session is signed out or replaced.
#[derive(Debug)]
pub struct SessionEnd(Option<Watched>);

impl SessionEnd {
    /// Completes when the session ends; never for a socket without a session.
    pub async fn ended(&self) {
        match &self.0 {
            Some(watched) => watched.token.cancelled().await,
            None => std::future::pending().await,
        }
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

/// A player name: trimmed and normalised to NFC, 1 to 32 characters, with nothing in it
/// that would let one name pass for another (docs/security.md, names); a guest name when
/// none is given. Every refusal says which character and why, and mentions the name (the
/// API tells a name error by that word).
pub fn clean_name(name: Option<&str>) -> Result<String, String> {
    let Some(name) = name.map(str::trim).filter(|n| !n.is_empty()) else {
        let mut tag = [0u8; 2];
        rand::rng().fill_bytes(&mut tag);
        return Ok(format!("Guest-{}", hex::encode(tag)));
    };
    clean_text(name, MAX_NAME, "a name")
}

/// A name others will read (a player's, a tournament's): `text` trimmed by the caller,
/// normalised to NFC, at most `max` characters, with nothing in it that would let one name
/// pass for another. `noun` ("a name", "a tournament name") starts every refusal.
pub fn clean_text(text: &str, max: usize, noun: &str) -> Result<String, String> {
    // NFC first: "e" + a combining acute and the precomposed "é" are one name, not two
    // that look alike.
    let text: String = text.nfc().collect();
    if text.chars().count() > max {
        return Err(format!("{noun} is at most {max} characters"));
    }
    for c in text.chars() {
        if let Some(why) = refused_in_names(c) {
            return Err(format!("{noun} cannot hold U+{:04X} ({why})", u32::from(c)));
        }
    }
    if text.contains("  ") {
        return Err(format!("{noun} cannot hold two spaces in a row"));
    }
    if !text.chars().any(is_visible) {
        return Err(format!("{noun} needs a letter, a digit or a symbol"));
    }
    Ok(text)
}

/// Why `c` cannot be in a name, if it cannot.
fn refused_in_names(c: char) -> Option<&'static str> {
    use unicode_properties::{GeneralCategory as G, UnicodeGeneralCategory};
    match c.general_category() {
        G::Control => return Some("a control character"),
        // Bidi controls (U+202E turns "Alice" around), zero-width characters, U+FEFF...
        G::Format => return Some("an invisible or direction-changing character"),
        G::LineSeparator | G::ParagraphSeparator => return Some("a line break"),
        G::PrivateUse | G::Surrogate | G::Unassigned => {
            return Some("a character with no agreed meaning")
        }
        _ => {}
    }
    if c.is_whitespace() && c != ' ' {
        return Some("a space other than the plain space");
    }
    // Characters that draw nothing yet are not format characters: Hangul and braille
    // fillers, variation selectors (but U+FE0F, which emoji use), and their like.
    let invisible = matches!(
        c,
        '\u{034F}'
            | '\u{115F}'
            | '\u{1160}'
            | '\u{17B4}'
            | '\u{17B5}'
            | '\u{180B}'..='\u{180F}'
            | '\u{2800}'
            | '\u{3164}'
            | '\u{FFA0}'
            | '\u{FE00}'..='\u{FE0E}'
            | '\u{E0100}'..='\u{E01EF}'
    );
    invisible.then_some("an invisible character")
}

/// A letter, digit, punctuation mark or symbol: something a reader sees.
fn is_visible(c: char) -> bool {
    use unicode_properties::{GeneralCategoryGroup as Group, UnicodeGeneralCategory};
    matches!(
        c.general_category_group(),
        Group::Letter | Group::Number | Group::Punctuation | Group::Symbol
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(name: &str) -> String {
        clean_name(Some(name)).expect_err(name)
    }

    #[test]
    fn invisible_and_direction_changing_characters_are_refused() {
        assert_eq!(
            refused("\u{202e}ecilA"),
            "a name cannot hold U+202E (an invisible or direction-changing character)"
        );
        assert_eq!(
            refused("Alice\u{200b}"),
            "a name cannot hold U+200B (an invisible or direction-changing character)"
        );
        // Trimming keeps U+FEFF (it is not white space): refused, not emptied to a guest.
        assert_eq!(
            refused("\u{feff}"),
            "a name cannot hold U+FEFF (an invisible or direction-changing character)"
        );
        assert_eq!(
            refused("Ali\u{00a0}ce"),
            "a name cannot hold U+00A0 (a space other than the plain space)"
        );
        assert_eq!(
            refused("A\u{3164}"),
            "a name cannot hold U+3164 (an invisible character)"
        );
        assert_eq!(refused("Al  ice"), "a name cannot hold two spaces in a row");
        assert_eq!(
            refused("Kato\u{7}"),
            "a name cannot hold U+0007 (a control character)"
        );
        assert_eq!(
            refused("\u{e000}x"),
            "a name cannot hold U+E000 (a character with no agreed meaning)"
        );
        assert_eq!(
            refused("\u{0301}\u{0301}"),
            "a name needs a letter, a digit or a symbol"
        );
    }

    #[test]
    fn names_are_trimmed_normalised_and_may_be_in_any_script() {
        assert_eq!(clean_name(Some("  Kato  ")).unwrap(), "Kato");
        // "e" and a combining acute become the one character "é".
        let nfc = clean_name(Some("Nakate\u{0301}")).unwrap();
        assert_eq!(nfc, "Nakat\u{00e9}");
        assert_eq!(nfc.chars().count(), 6);
        for fine in [
            "\u{014c}kello \u{1f981}",
            "Nam\u{0304}uli",
            "\u{1f600}\u{fe0f}",
            "Wasswa-2",
            "Ssemakula J.",
        ] {
            assert_eq!(clean_name(Some(fine)).unwrap(), fine, "{fine}");
        }
    }

    #[test]
    fn sessions_expire_by_their_last_use_and_whether_they_were_used() {
        let expiry = Expiry::new(60.0, 30.0);
        assert_eq!(expiry.unused_ms, 3_600_000);
        assert_eq!(expiry.idle_ms, 2_592_000_000);
        assert_eq!(expiry.seen_every_ms(), 300_000);
        let seen = 1_000_000;
        assert!(!expiry.expired(false, seen, seen + 3_600_000));
        assert!(expiry.expired(false, seen, seen + 3_600_001));
        assert!(!expiry.expired(true, seen, seen + 3_600_001));
        assert!(!expiry.expired(true, seen, seen + 2_592_000_000));
        assert!(expiry.expired(true, seen, seen + 2_592_000_001));
        // A short life is written more often than every 5 minutes: a quarter of it.
        let short = Expiry::new(2.0 / 60.0, 1.0);
        assert_eq!((short.unused_ms, short.seen_every_ms()), (2_000, 500));
    }

    #[test]
    fn a_name_is_at_most_32_characters_and_none_makes_a_guest() {
        assert_eq!(clean_name(Some(&"a".repeat(32))).unwrap().len(), 32);
        assert_eq!(refused(&"a".repeat(33)), "a name is at most 32 characters");
        assert!(clean_name(None).unwrap().starts_with("Guest-"));
        assert!(clean_name(Some("   ")).unwrap().starts_with("Guest-"));
    }
}

// BEGIN H2 STUBS
// Stand-ins for the persons and link codes the lead's branch provides (issue 27's
// contract), so that the tournament side builds and is tested on its own: the lead drops
// this block when merging. Until accounts exist, a guest's name stands for a username
// (looked up among the sessions in memory), and a link code is made but links nothing.

/// A person (the contract's `Person`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Person {
    pub id: Uuid,
    pub name: String,
    pub username: Option<String>,
    pub created_at_ms: i64,
}

/// A one-time code that makes another device a person (the contract's `LinkCode`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkCode {
    pub code: String,
    pub expires_at_ms: i64,
    pub qr_svg: String,
    pub url: String,
}

impl Sessions {
    /// STUB: the person whose session in memory is named `username` (case aside).
    pub async fn person_by_username(&self, username: &str) -> Result<Option<Person>, StoreError> {
        let wanted = username.trim().to_lowercase();
        let Ok(cache) = self.cache.lock() else {
            return Ok(None);
        };
        Ok(cache
            .iter()
            .map(|(_, cached)| &cached.session)
            .find(|s| s.name.to_lowercase() == wanted)
            .map(|s| Person {
                id: s.player_id,
                name: s.name.clone(),
                username: Some(s.name.clone()),
                created_at_ms: 0,
            }))
    }

    /// STUB: a code of the contract's shape, valid 10 minutes, that links nothing yet.
    pub async fn issue_link_code(
        &self,
        person: Uuid,
        made_by: Uuid,
    ) -> Result<LinkCode, StoreError> {
        const ALPHABET: &[u8] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
        let _ = (person, made_by);
        let mut bytes = [0u8; 8];
        rand::rng().fill_bytes(&mut bytes);
        let letters: String = bytes
            .iter()
            .map(|b| char::from(ALPHABET[usize::from(*b) % ALPHABET.len()]))
            .collect();
        Ok(LinkCode {
            code: format!("{}-{}", &letters[..4], &letters[4..]),
            expires_at_ms: now_ms() + 10 * 60 * 1000,
            qr_svg: "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 8 8\"><rect width=\"8\" height=\"8\" fill=\"#fff\"/><rect x=\"1\" y=\"1\" width=\"2\" height=\"2\"/></svg>".to_owned(),
            url: format!("/link?code={letters}"),
        })
    }
}
// END H2 STUBS
