//! Persons and their devices (docs/accounts.md). A person is a player id: every seat,
//! director role, sheet and tournament entry names it. A device is one secret token, kept
//! by the client as a cookie or a bearer token and stored only as its hash; a person may
//! hold any number of devices, so whatever the person holds follows them to each. A person
//! is a guest, or an account once it has a username and a password (`accounts`).
//!
//! A device's session expires when unused (docs/security.md#sessions): one whose person
//! never created, joined or played anything after [`Expiry::unused_ms`] without a
//! request, a used one after [`Expiry::idle_ms`]. Its last use is written when the stored
//! one is older than [`SEEN_EVERY_MS`] ([`Expiry::seen_every_ms`]), not on every request.
//! Signing a device out deletes it: its token is worthless at once, and its open sockets
//! are closed.
//!
//! Names and usernames (`names`) and link, recovery and e-mail codes with the QR code
//! (`codes`) are the pure `omweso-people` crate, named here as they are used. Files:
//! `expiry`, `ends` (sockets told of a sign-out), `password` (hashing and strength), `accounts`
//! (sign-up, log-in, recovery, devices, link codes), `email` (an account's address and
//! password reset by mail), `known_devices` (the mark of a device that logged in),
//! `password_turn` (fair turns at hashing), `their_tournaments` (what the people's routes ask
//! of the tournaments above them, which answer it). Its HTTP calls: `accounts_api`, `email_api`,
//! `pages_api` (a person's page); its extractors (the session a request is made as):
//! `extract`.

pub mod accounts;
pub mod accounts_api;
pub mod email;
pub mod email_api;
mod ends;
mod expiry;
pub mod extract;
pub mod known_devices;
pub mod pages_api;
pub mod password;
pub mod password_turn;
pub mod store;
pub mod their_tournaments;

use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use axum::http::HeaderMap;
use rand::RngCore;
use uuid::Uuid;

pub use crate::http::token::{token_from, COOKIE};
use crate::store::{
    hash_token, NewDevice, SessionChange, SessionRow, Store, StoreError, Write, Writer,
};
pub use ends::SessionEnd;
pub use expiry::{Expiry, SEEN_EVERY_MS};
pub use omweso_people::{clean_name, clean_text, codes, names, MAX_NAME};
/// A session kept in memory is read from the store again once this old (a minute): a
/// device signed out or an account disabled by `omweso admin`, another process, stops
/// working within it.
pub const RECHECK_MS: i64 = 60_000;
/// The longest device label kept (from the User-Agent), in characters.
const MAX_LABEL: usize = 60;

/// Who a request is made as: the person (its player id, name and username, if an
/// account) and the device.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Session {
    pub player_id: Uuid,
    pub name: String,
    pub username: Option<String>,
    pub device_id: Uuid,
    /// A device a tournament's director linked for one of its players: the tournament it
    /// is the person in, and only there (`people::extract`'s `SignedIn` refuses it;
    /// docs/security.md#accounts).
    pub only_tournament: Option<Uuid>,
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

/// A session as the cache keeps it: with its device's last use as stored, whether its
/// person was used, and when it was last read from the store.
#[derive(Clone, Debug)]
struct Cached {
    session: Session,
    last_seen_ms: i64,
    used: bool,
    checked_ms: i64,
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
    ends: ends::Ends,
    passwords: password::Passwords,
    /// Counts sign-outs and token rotations: a lookup that began before one does not put
    /// what it read into the cache (it may be the very session just signed out).
    sign_outs: AtomicU64,
    /// What "now" is for last uses and codes' lives (a test moves it forward).
    clock: crate::wall_clock::WallClock,
}

/// A new random token and its hash.
fn new_token() -> (String, String) {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    let token = hex::encode(bytes);
    let hash = hash_token(&token);
    (token, hash)
}

/// What a device is called in its person's list: its browser and system, from the
/// User-Agent (`Chrome on Android`), else the client's own words, cut short.
#[must_use]
pub fn device_label(headers: &HeaderMap) -> String {
    let agent = headers
        .get(axum::http::header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let browser = [
        ("Edg/", "Edge"),
        ("OPR/", "Opera"),
        ("SamsungBrowser/", "Samsung Internet"),
        ("Firefox/", "Firefox"),
        ("Chrome/", "Chrome"),
        ("Safari/", "Safari"),
    ]
    .iter()
    .find(|(mark, _)| agent.contains(mark))
    .map(|(_, name)| *name);
    let system = [
        ("Android", "Android"),
        ("iPhone", "iPhone"),
        ("iPad", "iPad"),
        ("Windows", "Windows"),
        ("Mac OS", "macOS"),
        ("CrOS", "ChromeOS"),
        ("Linux", "Linux"),
    ]
    .iter()
    .find(|(mark, _)| agent.contains(mark))
    .map(|(_, name)| *name);
    match (browser, system) {
        (Some(browser), Some(system)) => format!("{browser} on {system}"),
        (Some(one), None) | (None, Some(one)) => one.to_owned(),
        (None, None) if agent.trim().is_empty() => "A device".to_owned(),
        (None, None) => agent
            .chars()
            .filter(|c| !c.is_control())
            .take(MAX_LABEL)
            .collect(),
    }
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
            ends: ends::Ends::default(),
            passwords: password::Passwords::default(),
            sign_outs: AtomicU64::new(0),
            clock: crate::wall_clock::WallClock::default(),
        }
    }

    /// These sessions reading "now" from `clock` (the server's, which a test may move).
    #[must_use]
    pub fn with_clock(mut self, clock: crate::wall_clock::WallClock) -> Sessions {
        self.clock = clock;
        self
    }

    fn now_ms(&self) -> i64 {
        self.clock.now_ms()
    }

    /// Sessions in memory now.
    #[must_use]
    pub fn cached(&self) -> usize {
        self.cache.lock().map_or(0, |cache| cache.len())
    }

    /// Creates a guest person with this first device, called `label`; returns it with
    /// its token.
    pub async fn create(
        &self,
        name: Option<&str>,
        label: &str,
    ) -> Result<(Session, String), CreateError> {
        let name = clean_name(name).map_err(CreateError::Name)?;
        Ok(self.new_person(Uuid::new_v4(), name, label, None).await?)
    }

    /// A new person `person_id` named `name` with a first device called `label`. With
    /// `account` (its username, and the write that makes it one: `SessionChange::MakeAccount`
    /// of `person_id`), the person is an account from the start, written in the same
    /// transaction.
    pub(crate) async fn new_person(
        &self,
        person_id: Uuid,
        name: String,
        label: &str,
        account: Option<(String, Write)>,
    ) -> Result<(Session, String), StoreError> {
        let (token, token_hash) = new_token();
        let (username, make_account) = account.unzip();
        let session = Session {
            player_id: person_id,
            name,
            username,
            device_id: Uuid::new_v4(),
            only_tournament: None,
        };
        let now = self.now_ms();
        let used = make_account.is_some();
        let row = SessionRow {
            player_id: session.player_id,
            device_id: session.device_id,
            token_hash: token_hash.clone(),
            name: session.name.clone(),
            username: None,
            label: label.to_owned(),
            created_at_ms: now,
            last_seen_ms: now,
            used,
            tournament_id: None,
        };
        let mut writes = vec![Write::InsertSession(row)];
        writes.extend(make_account);
        self.writer.write(writes).await?;
        self.remember(token_hash, session.clone(), now, used);
        Ok((session, token))
    }

    /// Another device of the person `person` (log-in, a link code), written with `also`
    /// in one transaction (what makes it allowed: a code used, say); returns it with its
    /// token. The device is limited to `person.only_tournament`, if any.
    pub(crate) async fn add_device(
        &self,
        person: Session,
        label: &str,
        also: Vec<Write>,
    ) -> Result<(Session, String), StoreError> {
        let (token, token_hash) = new_token();
        let now = self.now_ms();
        let session = Session {
            device_id: Uuid::new_v4(),
            ..person
        };
        let mut writes = also;
        writes.push(Write::Session(SessionChange::AddDevice(NewDevice {
            id: session.device_id,
            person_id: session.player_id,
            token_hash: token_hash.clone(),
            label: label.to_owned(),
            at_ms: now,
            tournament_id: session.only_tournament,
        })));
        self.writer.write(writes).await?;
        self.remember(token_hash, session.clone(), now, true);
        Ok((session, token))
    }

    fn remember(&self, hash: String, session: Session, now: i64, used: bool) {
        if let Ok(mut cache) = self.cache.lock() {
            cache.put(
                hash,
                Cached {
                    session,
                    last_seen_ms: now,
                    used,
                    checked_ms: now,
                },
            );
        }
    }

    /// The session a token belongs to, unless it expired (then it is deleted) or was
    /// signed out, or its account disabled. Counts as a use of it.
    pub async fn find(&self, token: &str) -> Result<Option<Session>, StoreError> {
        let hash = hash_token(token);
        let now = self.now_ms();
        let sign_outs = self.sign_outs.load(Ordering::Acquire);
        let cached = self
            .cache
            .lock()
            .ok()
            .and_then(|mut cache| cache.get(&hash).cloned());
        let cached = match cached {
            Some(cached) if now - cached.checked_ms < RECHECK_MS => cached,
            earlier => {
                let Some(row) = self.store.session_by_token_hash(&hash).await? else {
                    self.forget(&hash);
                    return Ok(None);
                };
                Cached {
                    session: Session {
                        player_id: row.player_id,
                        name: row.name,
                        username: row.username,
                        device_id: row.device_id,
                        only_tournament: row.tournament_id,
                    },
                    last_seen_ms: earlier
                        .as_ref()
                        .map_or(row.last_seen_ms, |c| c.last_seen_ms.max(row.last_seen_ms)),
                    used: row.used || earlier.is_some_and(|c| c.used),
                    checked_ms: now,
                }
            }
        };
        if self.expiry.expired(cached.used, cached.last_seen_ms, now) {
            // Gone for good: from memory now, from the database in the background (the
            // sweep would take it anyway).
            self.forget(&hash);
            self.write_in_background(
                SessionChange::Revoke(cached.session.device_id),
                "could not delete an expired session",
            );
            return Ok(None);
        }
        let mut seen = cached.clone();
        if now - cached.last_seen_ms >= self.expiry.seen_every_ms() {
            seen.last_seen_ms = now;
            self.write_in_background(
                SessionChange::Seen {
                    device_id: cached.session.device_id,
                    at_ms: now,
                },
                "could not store a session's last use",
            );
        }
        let session = seen.session.clone();
        if let Ok(mut cache) = self.cache.lock() {
            // Under the lock that sign-outs take to forget: a sign-out either came before
            // (and is seen here) or comes after (and forgets this entry).
            if self.sign_outs.load(Ordering::Acquire) == sign_outs {
                cache.put(hash, seen);
            }
        }
        Ok(Some(session))
    }

    fn write_in_background(&self, change: SessionChange, failure: &'static str) {
        let writer = self.writer.clone();
        tokio::spawn(async move {
            if let Err(error) = writer.write(vec![Write::Session(change)]).await {
                tracing::warn!(%error, "{failure}");
            }
        });
    }

    /// Records that the session of the token hashed `hash` (`store::hash_token`) created,
    /// joined or played something: it now lasts the longer idle time. Written once per
    /// device. By the hash, because a request forwarded by another node carries its
    /// session's hash, never its token (`cluster::forward`).
    pub async fn mark_used(&self, hash: &str) -> Result<(), StoreError> {
        let hash = hash.to_owned();
        let now = self.now_ms();
        let session = {
            let Ok(mut cache) = self.cache.lock() else {
                return Ok(());
            };
            match cache.get_mut(&hash) {
                Some(cached) if cached.used => return Ok(()),
                Some(cached) => {
                    cached.used = true;
                    cached.last_seen_ms = now;
                    Some((cached.session.device_id, cached.session.player_id))
                }
                None => None,
            }
        };
        let (device_id, person_id) = match session {
            Some(session) => session,
            None => match self.store.session_by_token_hash(&hash).await? {
                Some(row) if !row.used => (row.device_id, row.player_id),
                _ => return Ok(()),
            },
        };
        self.writer
            .write(vec![Write::Session(SessionChange::Used {
                device_id,
                person_id,
                at_ms: now,
            })])
            .await
    }

    /// Signs out the device of `token`: deleted from memory and from the database, and
    /// its open sockets told to close. `false` if there was none.
    pub async fn revoke(&self, token: &str) -> Result<bool, StoreError> {
        let hash = hash_token(token);
        let cached = self
            .cache
            .lock()
            .ok()
            .and_then(|mut cache| cache.pop(&hash));
        let device_id = match cached {
            Some(cached) => cached.session.device_id,
            None => match self.store.session_by_token_hash(&hash).await? {
                Some(row) => row.device_id,
                None => return Ok(false),
            },
        };
        self.writer
            .write(vec![Write::Session(SessionChange::Revoke(device_id))])
            .await?;
        // Again once deleted: a lookup that read the row before the delete committed
        // must not cache it.
        self.forget(&hash);
        self.ends.end_device(device_id);
        Ok(true)
    }

    /// Signs out `person`'s device `device` (from the list of their devices). `false`
    /// when the person has no such device.
    pub async fn revoke_device(&self, person: Uuid, device: Uuid) -> Result<bool, StoreError> {
        let devices = self.store.devices_of(person).await?;
        if !devices.iter().any(|d| d.id == device) {
            return Ok(false);
        }
        self.writer
            .write(vec![Write::Session(SessionChange::Revoke(device))])
            .await?;
        self.forget_where(|s| s.device_id == device);
        self.ends.end_device(device);
        Ok(true)
    }

    /// Signs out every device of `person` but `keep` (none: all of them), written with
    /// `also` in one transaction.
    pub(crate) async fn revoke_all(
        &self,
        person: Uuid,
        keep: Option<Uuid>,
        also: Vec<Write>,
    ) -> Result<(), StoreError> {
        let mut writes = also;
        writes.push(Write::Session(SessionChange::RevokeAll {
            person_id: person,
            keep,
        }));
        self.writer.write(writes).await?;
        self.forget_where(|s| s.player_id == person && Some(s.device_id) != keep);
        self.ends.end_person(person, keep);
        Ok(())
    }

    /// Gives the device of `token` a new token, written with `also` in one transaction
    /// (sign-up: the guest made an account): the old token is worthless, the device and
    /// its open sockets stay. Returns the new token and the session as it is now, `None`
    /// when `token` names no device.
    pub(crate) async fn rotate(
        &self,
        token: &str,
        also: Vec<Write>,
        now_known_as: impl FnOnce(Session) -> Session,
    ) -> Result<Option<(Session, String)>, StoreError> {
        let Some(session) = self.find(token).await? else {
            return Ok(None);
        };
        let (new, new_hash) = new_token();
        let mut writes = also;
        writes.push(Write::Session(SessionChange::Rotate {
            device_id: session.device_id,
            token_hash: new_hash.clone(),
        }));
        self.writer.write(writes).await?;
        self.forget(&hash_token(token));
        let session = now_known_as(session);
        self.remember(new_hash, session.clone(), self.now_ms(), true);
        Ok(Some((session, new)))
    }

    /// Renames `person` (every device of theirs sees the new name at once).
    pub async fn rename(&self, person: Uuid, name: &str) -> Result<(), StoreError> {
        self.writer
            .write(vec![Write::Session(SessionChange::Rename {
                person_id: person,
                name: name.to_owned(),
            })])
            .await?;
        self.renamed_in_cache(person, name);
        Ok(())
    }

    /// Every device of `person` in memory now shows `name`.
    fn renamed_in_cache(&self, person: Uuid, name: &str) {
        if let Ok(mut cache) = self.cache.lock() {
            for (_, cached) in cache.iter_mut() {
                if cached.session.player_id == person {
                    cached.session.name = name.to_owned();
                }
            }
        }
    }

    /// Deletes the devices that expired (and guests left with nothing), and expired link
    /// codes; run at start and then every few minutes.
    pub async fn sweep(&self) -> Result<(), StoreError> {
        let now = self.now_ms();
        self.writer
            .write(vec![Write::Session(SessionChange::Expire {
                now_ms: now,
                before_ms: now.saturating_sub(self.expiry.idle_ms),
                unused_before_ms: now.saturating_sub(self.expiry.unused_ms),
            })])
            .await
    }

    /// Ends the sockets of devices no longer signed in, or of disabled accounts: signed
    /// out by another process (`omweso admin`), which this one's sign-outs never heard
    /// of. Run every [`RECHECK_MS`].
    pub async fn end_sockets_of_gone_devices(&self) -> Result<usize, StoreError> {
        let watched = self.ends.watched();
        if watched.is_empty() {
            return Ok(0);
        }
        let live = self.store.live_devices(&watched).await?;
        let gone: Vec<Uuid> = watched.into_iter().filter(|d| !live.contains(d)).collect();
        for device in &gone {
            self.forget_where(|s| s.device_id == *device);
            self.ends.end_device(*device);
        }
        Ok(gone.len())
    }

    /// What a socket of `session` holds to learn that its device was signed out; nothing
    /// to learn for a socket without a session.
    #[must_use]
    pub fn watch_end(&self, session: Option<&Session>) -> SessionEnd {
        SessionEnd(session.map(|s| self.ends.watch(s.device_id, s.player_id)))
    }

    /// The store sessions are kept in.
    pub(crate) fn store(&self) -> &Store {
        &self.store
    }

    fn forget(&self, hash: &str) {
        if let Ok(mut cache) = self.cache.lock() {
            self.sign_outs.fetch_add(1, Ordering::AcqRel);
            cache.pop(hash);
        }
    }

    /// Drops from memory every session `which` names (a walk of the bounded cache, for
    /// the rare sign-out of other devices).
    fn forget_where(&self, which: impl Fn(&Session) -> bool) {
        if let Ok(mut cache) = self.cache.lock() {
            self.sign_outs.fetch_add(1, Ordering::AcqRel);
            let hashes: Vec<String> = cache
                .iter()
                .filter(|(_, cached)| which(&cached.session))
                .map(|(hash, _)| hash.clone())
                .collect();
            for hash in hashes {
                cache.pop(&hash);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn agent(text: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(axum::http::header::USER_AGENT, text.parse().unwrap());
        headers
    }

    #[test]
    fn a_device_is_called_by_its_browser_and_system() {
        assert_eq!(
            device_label(&agent("Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36")),
            "Chrome on Android"
        );
        assert_eq!(
            device_label(&agent("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1")),
            "Safari on iPhone"
        );
        assert_eq!(device_label(&agent("omweso-bot/1.0")), "omweso-bot/1.0");
        assert_eq!(device_label(&HeaderMap::new()), "A device");
    }
}
