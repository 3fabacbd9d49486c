//! Guest sessions: a player id, a name and a secret token. The token is shown once, kept
//! by the client as a cookie or a bearer token, and stored only as its hash.

use std::num::NonZeroUsize;
use std::sync::Mutex;

use axum::http::HeaderMap;
use rand::RngCore;
use unicode_normalization::UnicodeNormalization;
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
    fn a_name_is_at_most_32_characters_and_none_makes_a_guest() {
        assert_eq!(clean_name(Some(&"a".repeat(32))).unwrap().len(), 32);
        assert_eq!(refused(&"a".repeat(33)), "a name is at most 32 characters");
        assert!(clean_name(None).unwrap().starts_with("Guest-"));
        assert!(clean_name(Some("   ")).unwrap().starts_with("Guest-"));
    }
}
