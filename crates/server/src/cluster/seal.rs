//! What one node sends another over NATS is sealed with the cluster's secret
//! (docs/scaling.md#trust-between-nodes), so that someone who reaches NATS without it can
//! neither forge a message nor replay one: each message carries one header,
//! `Omweso-Seal: <node>.<time ms>.<number>.<HMAC-SHA256, hex>`, the HMAC over its subject,
//! that node, time and number, its other headers and its payload. A receiver believes a
//! message only if the HMAC is right, its time is within [`MAX_SKEW`] of its own clock,
//! and it has not seen that node's number before; anything else is refused, counted
//! (`omweso_cluster_refused_total`) and logged.
//!
//! A forwarded HTTP request and its answer also have their payload encrypted
//! ([`Seal::encrypt`]: ChaCha20-Poly1305), because they carry what must not be read on the
//! way: a request's session (its person and device, never its token), its body (a code
//! typed in), an answer's codes.
//!
//! Both keys are derived from the secret by HKDF-SHA256, one for each use.

use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use async_nats::HeaderMap;
use hmac::{Hmac, Mac};
use rand::RngCore;
use ring::aead::{self, Aad, LessSafeKey, Nonce, UnboundKey, NONCE_LEN};
use sha2::Sha256;
use uuid::Uuid;

use crate::metrics::{count, METRICS};

/// The header that carries a message's seal.
pub const SEAL: &str = "Omweso-Seal";
/// The shortest cluster secret a node accepts, in characters (`openssl rand -hex 32` makes
/// 64).
pub const MIN_SECRET: usize = 32;
/// How far a message's time may be from the receiver's clock, either way: the nodes'
/// clocks must agree within it (NTP does far better), and a message must be read within it
/// of being sent. A message older than this is refused, so the numbers seen are kept only
/// for a few times this long.
pub const MAX_SKEW: Duration = Duration::from_secs(30);

/// Signs the HMAC input apart from any other use of the secret.
const DOMAIN: &[u8] = b"omweso cluster message v1";

/// Why a message on NATS was not believed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    #[error("it has no seal (it was not sent by a node of this cluster)")]
    Unsealed,
    #[error("its seal is unreadable")]
    Unreadable,
    #[error("its seal is not the cluster's (forged, changed on the way, or sent by a node with another secret)")]
    Forged,
    #[error("it was sent {late_ms} ms from this node's time (more than the {MAX_SKEW:?} allowed: a replay, or the nodes' clocks disagree)")]
    Stale { late_ms: i64 },
    #[error("it was received before (a replay)")]
    Replayed,
    #[error("its encrypted payload does not open")]
    Undecryptable,
}

/// This node's keys, its messages' numbering, and the messages it has seen.
pub struct Seal {
    node: Uuid,
    /// HMAC-SHA256 keyed once; cloned for each message.
    mac: Hmac<Sha256>,
    cipher: LessSafeKey,
    next: AtomicU64,
    seen: Mutex<Seen>,
    /// When a refusal was last logged, and how many were not logged since.
    logged_ms: AtomicU64,
    unlogged: AtomicU64,
}

impl std::fmt::Debug for Seal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Seal")
            .field("node", &self.node)
            .finish_non_exhaustive()
    }
}

impl Seal {
    /// The seal of node `node`, from the cluster's `secret` (at least [`MIN_SECRET`]
    /// characters: checked by the caller, with a message for the operator).
    #[must_use]
    pub fn new(secret: &str, node: Uuid) -> Seal {
        let keys = hkdf::Hkdf::<Sha256>::new(Some(DOMAIN), secret.as_bytes());
        let mut sign = [0u8; 32];
        let mut encrypt = [0u8; 32];
        // 32 bytes are far below HKDF-SHA256's most (8,160): these cannot fail.
        let _ = keys.expand(b"sign", &mut sign);
        let _ = keys.expand(b"encrypt", &mut encrypt);
        let mac = <Hmac<Sha256> as Mac>::new_from_slice(&sign)
            .unwrap_or_else(|_| unreachable!("HMAC takes a key of any length"));
        let cipher = UnboundKey::new(&aead::CHACHA20_POLY1305, &encrypt)
            .unwrap_or_else(|_| unreachable!("a ChaCha20-Poly1305 key is 32 bytes"));
        Seal {
            node,
            mac,
            cipher: LessSafeKey::new(cipher),
            next: AtomicU64::new(1),
            seen: Mutex::new(Seen::new(Instant::now())),
            logged_ms: AtomicU64::new(0),
            unlogged: AtomicU64::new(0),
        }
    }

    /// Seals a message of this node for `subject`: adds its `Omweso-Seal` to `headers`.
    pub fn sign(&self, subject: &str, headers: &mut HeaderMap, payload: &[u8]) {
        self.sign_at(subject, headers, payload, now_ms());
    }

    fn sign_at(&self, subject: &str, headers: &mut HeaderMap, payload: &[u8], at_ms: i64) {
        let number = self.next.fetch_add(1, Ordering::Relaxed);
        let stamp = format!("{}.{at_ms}.{number}", self.node);
        let tag = self.tag(subject, &stamp, headers, payload);
        headers.insert(SEAL, format!("{stamp}.{}", hex::encode(tag)).as_str());
    }

    /// Believes a message received on `subject`, or says why not (and counts and logs
    /// the refusal): the node that sent it.
    pub fn verify(
        &self,
        subject: &str,
        headers: Option<&HeaderMap>,
        payload: &[u8],
    ) -> Result<Uuid, Refusal> {
        let verified = self.verify_at(subject, headers, payload, now_ms(), Instant::now());
        if let Err(refusal) = &verified {
            self.refused(subject, refusal);
        }
        verified
    }

    fn verify_at(
        &self,
        subject: &str,
        headers: Option<&HeaderMap>,
        payload: &[u8],
        now_ms: i64,
        now: Instant,
    ) -> Result<Uuid, Refusal> {
        let headers = headers.ok_or(Refusal::Unsealed)?;
        let seal = headers.get(SEAL).ok_or(Refusal::Unsealed)?.as_str();
        let (stamp, tag) = seal.rsplit_once('.').ok_or(Refusal::Unreadable)?;
        let mut parts = stamp.split('.');
        let (Some(node), Some(at_ms), Some(number), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(Refusal::Unreadable);
        };
        let node: Uuid = node.parse().map_err(|_| Refusal::Unreadable)?;
        let at_ms: i64 = at_ms.parse().map_err(|_| Refusal::Unreadable)?;
        let number: u64 = number.parse().map_err(|_| Refusal::Unreadable)?;
        let tag = hex::decode(tag).map_err(|_| Refusal::Unreadable)?;
        // The HMAC first: nothing unauthenticated reaches the numbers seen.
        let mut mac = self.mac.clone();
        feed(&mut mac, subject, stamp, headers, payload);
        mac.verify_slice(&tag).map_err(|_| Refusal::Forged)?;
        let late_ms = now_ms.saturating_sub(at_ms);
        if late_ms.unsigned_abs() > MAX_SKEW.as_millis() as u64 {
            return Err(Refusal::Stale { late_ms });
        }
        let fresh = self
            .seen
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .first_time((node, number), now);
        if !fresh {
            return Err(Refusal::Replayed);
        }
        Ok(node)
    }

    fn tag(&self, subject: &str, stamp: &str, headers: &HeaderMap, payload: &[u8]) -> Vec<u8> {
        let mut mac = self.mac.clone();
        feed(&mut mac, subject, stamp, headers, payload);
        mac.finalize().into_bytes().to_vec()
    }

    /// `plain`, encrypted with the cluster's key: a random nonce, then the ciphertext and
    /// its tag.
    #[must_use]
    pub fn encrypt(&self, plain: &[u8]) -> Vec<u8> {
        let mut nonce = [0u8; NONCE_LEN];
        rand::rng().fill_bytes(&mut nonce);
        let mut body = plain.to_vec();
        // Fails only past ChaCha20-Poly1305's 256 GiB a message.
        if self
            .cipher
            .seal_in_place_append_tag(Nonce::assume_unique_for_key(nonce), Aad::empty(), &mut body)
            .is_err()
        {
            return Vec::new();
        }
        let mut sealed = nonce.to_vec();
        sealed.extend_from_slice(&body);
        sealed
    }

    /// What [`Seal::encrypt`] made of it.
    pub fn decrypt(&self, sealed: &[u8]) -> Result<Vec<u8>, Refusal> {
        if sealed.len() < NONCE_LEN {
            return Err(Refusal::Undecryptable);
        }
        let (nonce, body) = sealed.split_at(NONCE_LEN);
        let nonce = Nonce::try_assume_unique_for_key(nonce).map_err(|_| Refusal::Undecryptable)?;
        let mut body = body.to_vec();
        let length = self
            .cipher
            .open_in_place(nonce, Aad::empty(), &mut body)
            .map_err(|_| Refusal::Undecryptable)?
            .len();
        body.truncate(length);
        Ok(body)
    }

    /// Counts a refusal, and logs it: the first at once, then at most one line every
    /// [`LOG_EVERY_MS`] with how many were not logged (a flood of forged messages must not
    /// flood the log).
    pub fn refused(&self, subject: &str, refusal: &Refusal) {
        count(&METRICS.cluster_refused);
        let now = u64::try_from(now_ms()).unwrap_or(0);
        let last = self.logged_ms.load(Ordering::Relaxed);
        if now.saturating_sub(last) >= LOG_EVERY_MS
            && self
                .logged_ms
                .compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
        {
            let unlogged = self.unlogged.swap(0, Ordering::Relaxed);
            tracing::warn!(
                subject,
                %refusal,
                refused_since_last_said = unlogged,
                "a message on NATS was refused"
            );
        } else {
            self.unlogged.fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// At most one log line about refused messages this often (they are all counted).
const LOG_EVERY_MS: u64 = 10_000;

/// The HMAC's input: every field with its length first, so that no two messages give the
/// same bytes; the headers other than the seal in the order of their names, each name's
/// values in their order (a receiver's map may list them in any order).
fn feed(mac: &mut Hmac<Sha256>, subject: &str, stamp: &str, headers: &HeaderMap, payload: &[u8]) {
    let mut field = |bytes: &[u8]| {
        mac.update(&(bytes.len() as u64).to_be_bytes());
        mac.update(bytes);
    };
    field(DOMAIN);
    field(subject.as_bytes());
    field(stamp.as_bytes());
    let mut named: Vec<(&str, &Vec<async_nats::HeaderValue>)> = headers
        .iter()
        .map(|(name, values)| (name.as_ref(), values))
        .filter(|(name, _)| *name != SEAL)
        .collect();
    named.sort_unstable_by(|a, b| a.0.cmp(b.0));
    field(&(named.len() as u64).to_be_bytes());
    for (name, values) in named {
        field(name.as_bytes());
        field(&(values.len() as u64).to_be_bytes());
        for value in values {
            field(value.as_str().as_bytes());
        }
    }
    field(payload);
}

/// The messages seen lately, by their node and number: three generations, the newest
/// taking what comes, turned every [`MAX_SKEW`]. A number stays at least twice
/// [`MAX_SKEW`] after it was seen, as long as a message with it could still pass the time
/// check (its time at most [`MAX_SKEW`] ahead, then at most [`MAX_SKEW`] behind); only
/// messages whose seal was right are kept, so nobody without the secret can grow it.
struct Seen {
    generations: [HashSet<(Uuid, u64)>; 3],
    turned: Instant,
}

impl Seen {
    fn new(now: Instant) -> Seen {
        Seen {
            generations: Default::default(),
            turned: now,
        }
    }

    /// Whether `key` is seen for the first time; it is remembered.
    fn first_time(&mut self, key: (Uuid, u64), now: Instant) -> bool {
        while now.saturating_duration_since(self.turned) >= MAX_SKEW {
            self.generations.rotate_right(1);
            self.generations[0].clear();
            self.turned += MAX_SKEW;
            if now.saturating_duration_since(self.turned) >= MAX_SKEW * 3 {
                // Idle for long: everything is old.
                for generation in &mut self.generations {
                    generation.clear();
                }
                self.turned = now;
            }
        }
        if self.generations.iter().any(|g| g.contains(&key)) {
            return false;
        }
        self.generations[0].insert(key);
        true
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.generations.iter().map(HashSet::len).sum()
    }
}

fn now_ms() -> i64 {
    i64::try_from(omweso_protocol::clock::now_ms()).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &str = "0123456789abcdef0123456789abcdef";

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for (name, value) in pairs {
            headers.append(*name, *value);
        }
        headers
    }

    #[test]
    fn a_sealed_message_is_believed_once() {
        let (a, b) = (Uuid::from_u128(1), Uuid::from_u128(2));
        let (sender, receiver) = (Seal::new(SECRET, a), Seal::new(SECRET, b));
        let mut h = headers(&[("Omweso-Op", "client"), ("Omweso-Conn", "3")]);
        sender.sign("omweso.node.x.rooms", &mut h, b"{\"t\":\"resign\"}");
        assert_eq!(
            receiver.verify("omweso.node.x.rooms", Some(&h), b"{\"t\":\"resign\"}"),
            Ok(a)
        );
        assert_eq!(
            receiver.verify("omweso.node.x.rooms", Some(&h), b"{\"t\":\"resign\"}"),
            Err(Refusal::Replayed)
        );
        // Each message has its own number: the next is believed.
        let mut next = HeaderMap::new();
        sender.sign("omweso.lobby.x", &mut next, b"");
        assert_eq!(receiver.verify("omweso.lobby.x", Some(&next), b""), Ok(a));
    }

    #[test]
    fn anything_changed_unsealed_or_sealed_with_another_secret_is_refused() {
        let sender = Seal::new(SECRET, Uuid::from_u128(1));
        let receiver = Seal::new(SECRET, Uuid::from_u128(2));
        let sealed = |pairs: &[(&str, &str)], payload: &[u8]| {
            let mut h = headers(pairs);
            sender.sign("s", &mut h, payload);
            h
        };
        let h = sealed(&[("Omweso-To", "n.1")], b"frame");
        assert_eq!(
            receiver.verify("t", Some(&h), b"frame"),
            Err(Refusal::Forged),
            "another subject"
        );
        assert_eq!(
            receiver.verify("s", Some(&h), b"frame!"),
            Err(Refusal::Forged),
            "another payload"
        );
        let mut changed = h.clone();
        changed.insert("Omweso-To", "n.2");
        assert_eq!(
            receiver.verify("s", Some(&changed), b"frame"),
            Err(Refusal::Forged),
            "a header changed"
        );
        let mut added = h.clone();
        added.insert("Omweso-Close", "1000");
        assert_eq!(
            receiver.verify("s", Some(&added), b"frame"),
            Err(Refusal::Forged),
            "a header added"
        );
        let mut removed = sealed(&[("Omweso-To", "n.1"), ("Omweso-Close", "1000")], b"");
        let mut without = HeaderMap::new();
        without.insert(SEAL, removed.get(SEAL).unwrap().as_str());
        without.insert("Omweso-To", "n.1");
        assert_eq!(
            receiver.verify("s", Some(&without), b""),
            Err(Refusal::Forged),
            "a header removed"
        );
        // A header's name in other letters is another header: it would hide it from a
        // receiver that looks it up by name.
        removed.insert("omweso-to", "n.1");
        assert_eq!(
            receiver.verify("s", Some(&removed), b""),
            Err(Refusal::Forged)
        );
        assert_eq!(
            receiver.verify("s", Some(&headers(&[("Omweso-To", "n.1")])), b""),
            Err(Refusal::Unsealed)
        );
        assert_eq!(receiver.verify("s", None, b""), Err(Refusal::Unsealed));
        for nonsense in [
            "",
            "x",
            "a.b.c.d",
            "00000000-0000-0000-0000-000000000001.1.2.zz",
        ] {
            assert_eq!(
                receiver.verify("s", Some(&headers(&[(SEAL, nonsense)])), b""),
                Err(Refusal::Unreadable),
                "{nonsense}"
            );
        }
        let other = Seal::new("another secret, just as long as it", Uuid::from_u128(3));
        let mut h = HeaderMap::new();
        other.sign("s", &mut h, b"");
        assert_eq!(receiver.verify("s", Some(&h), b""), Err(Refusal::Forged));
    }

    #[test]
    fn a_message_out_of_its_time_is_refused_and_numbers_are_kept_as_long_as_it_counts() {
        let sender = Seal::new(SECRET, Uuid::from_u128(1));
        let receiver = Seal::new(SECRET, Uuid::from_u128(2));
        let skew = i64::try_from(MAX_SKEW.as_millis()).unwrap();
        let now_ms = 1_000_000_000;
        let start = Instant::now();
        let mut old = HeaderMap::new();
        sender.sign_at("s", &mut old, b"", now_ms - skew - 1);
        assert_eq!(
            receiver.verify_at("s", Some(&old), b"", now_ms, start),
            Err(Refusal::Stale { late_ms: skew + 1 })
        );
        let mut ahead = HeaderMap::new();
        sender.sign_at("s", &mut ahead, b"", now_ms + skew);
        assert_eq!(
            receiver.verify_at("s", Some(&ahead), b"", now_ms, start),
            Ok(Uuid::from_u128(1))
        );
        // Replayed as late as its time allows (2 x MAX_SKEW on): still refused.
        for after in [MAX_SKEW, MAX_SKEW * 2] {
            let elapsed = i64::try_from(after.as_millis()).unwrap();
            assert_eq!(
                receiver.verify_at("s", Some(&ahead), b"", now_ms + elapsed, start + after),
                Err(Refusal::Replayed),
                "{after:?} on"
            );
        }
        // Past that, its time refuses it, and its number is forgotten.
        let late = MAX_SKEW * 2 + Duration::from_millis(1);
        let late_ms = now_ms + i64::try_from(late.as_millis()).unwrap();
        assert_eq!(
            receiver.verify_at("s", Some(&ahead), b"", late_ms, start + late),
            Err(Refusal::Stale { late_ms: skew + 1 })
        );
        let mut seen = receiver.seen.lock().unwrap();
        assert!(seen.first_time((Uuid::from_u128(9), 1), start + MAX_SKEW * 4));
        assert_eq!(seen.len(), 1, "the old numbers are gone");
    }

    #[test]
    fn an_encrypted_payload_opens_only_with_the_same_secret() {
        let seal = Seal::new(SECRET, Uuid::from_u128(1));
        let plain = b"{\"code\":\"ABCD-EF23\"}";
        let sealed = seal.encrypt(plain);
        assert!(!sealed.windows(4).any(|w| w == b"ABCD"));
        assert_ne!(seal.encrypt(plain), sealed, "a fresh nonce each time");
        assert_eq!(seal.decrypt(&sealed).unwrap(), plain);
        let other = Seal::new("another secret, just as long as it", Uuid::from_u128(1));
        assert_eq!(other.decrypt(&sealed), Err(Refusal::Undecryptable));
        let mut changed = sealed.clone();
        changed[NONCE_LEN] ^= 1;
        assert_eq!(seal.decrypt(&changed), Err(Refusal::Undecryptable));
        assert_eq!(seal.decrypt(b"short"), Err(Refusal::Undecryptable));
        assert_eq!(seal.decrypt(&seal.encrypt(b"")).unwrap(), b"");
    }
}
