//! What nodes say to each other over NATS: the subjects and the header names
//! (docs/scaling.md#what-crosses-nats). A frame's text travels as the message's payload,
//! as the socket gets it; what it is and whom it is for are headers, so nothing is
//! encoded twice.

use std::collections::HashSet;
use std::net::IpAddr;
use std::sync::{Mutex, OnceLock, PoisonError};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::store::lease::LeaseKind;

/// A socket of another node, as the node knows it: the node, and the socket's number there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RemoteKey {
    pub node: Uuid,
    pub key: u64,
}

/// A room: a game or a tournament.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RoomName {
    pub kind: LeaseKind,
    pub id: Uuid,
}

impl RoomName {
    #[must_use]
    pub fn game(id: Uuid) -> RoomName {
        RoomName {
            kind: LeaseKind::Game,
            id,
        }
    }

    #[must_use]
    pub fn tournament(id: Uuid) -> RoomName {
        RoomName {
            kind: LeaseKind::Tournament,
            id,
        }
    }
}

fn kind_name(kind: LeaseKind) -> &'static str {
    match kind {
        LeaseKind::Game => "game",
        LeaseKind::Tournament => "tournament",
    }
}

/// Where a room's frames are published by its owner: `omweso.room.game.<id>`.
#[must_use]
pub fn room_subject(room: RoomName) -> String {
    format!("omweso.room.{}.{}", kind_name(room.kind), room.id)
}

/// Where a node takes the requests of other nodes' sockets for its rooms.
#[must_use]
pub fn rooms_subject(node: Uuid) -> String {
    format!("omweso.node.{node}.rooms")
}

/// Where a node takes the HTTP requests other nodes forward to it.
#[must_use]
pub fn http_subject(node: Uuid) -> String {
    format!("omweso.node.{node}.http")
}

/// A frame for one socket: `<node>.<number>`; absent, the frame is for every socket.
pub const TO: &str = "Omweso-To";
/// The frame closes the socket with this code; the payload is the reason.
pub const CLOSE: &str = "Omweso-Close";
/// What a request to a room's owner asks: `connect`, `client`, `latency`, `disconnect`.
pub const OP: &str = "Omweso-Op";
/// The room a request is for: `game.<id>` or `tournament.<id>`.
pub const ROOM: &str = "Omweso-Room";
/// The connection's number in the owner's room (after `connect`).
pub const CONN: &str = "Omweso-Conn";
/// The socket's session's player (`connect`).
pub const PLAYER: &str = "Omweso-Player";
/// The last version the client saw (`connect`, `?v=`).
pub const RESUME: &str = "Omweso-Resume";
/// A round trip in milliseconds (`latency`).
pub const LATENCY: &str = "Omweso-Latency";
/// A refusal of a request, in words.
pub const ERROR: &str = "Omweso-Error";

/// A forwarded HTTP request, as the node asked sends it to the room's node: its method,
/// path and query, client address and headers, and the session the node asked found for
/// its token (the token itself never crosses NATS). Sent [`pack`]ed with the body, then
/// encrypted and sealed (`seal`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HttpRequestHead {
    pub method: String,
    pub uri: String,
    pub client: Option<IpAddr>,
    pub headers: Vec<(String, String)>,
    pub session: Option<ForwardedSession>,
}

/// The session of a forwarded request, found by the node asked: its person and device, and
/// the hash of its token (as the database keeps it), to record its use with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ForwardedSession {
    pub player_id: Uuid,
    pub name: String,
    pub username: Option<String>,
    pub device_id: Uuid,
    pub token_hash: String,
    /// A device limited to one tournament (a director's code): that tournament, so that
    /// the node asked holds it to it as the node that found it would.
    #[serde(default)]
    pub only_tournament: Option<Uuid>,
}

/// A forwarded request's answer: its status and headers, [`pack`]ed with its body.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HttpAnswerHead {
    pub status: u16,
    pub headers: Vec<(String, String)>,
}

/// `head` as JSON, its length first (4 bytes, big-endian), then `body` as it is.
#[must_use]
pub fn pack<T: Serialize>(head: &T, body: &[u8]) -> Vec<u8> {
    let head = serde_json::to_vec(head).unwrap_or_default();
    let mut packed = Vec::with_capacity(4 + head.len() + body.len());
    packed.extend_from_slice(&u32::try_from(head.len()).unwrap_or(u32::MAX).to_be_bytes());
    packed.extend_from_slice(&head);
    packed.extend_from_slice(body);
    packed
}

/// What [`pack`] made: the head and the body; `None` if it is not that.
#[must_use]
pub fn unpack<T: DeserializeOwned>(packed: &[u8]) -> Option<(T, &[u8])> {
    let (length, rest) = packed.split_first_chunk::<4>()?;
    let length = usize::try_from(u32::from_be_bytes(*length)).ok()?;
    if length > rest.len() {
        return None;
    }
    let (head, body) = rest.split_at(length);
    Some((serde_json::from_slice(head).ok()?, body))
}

#[must_use]
pub fn remote_key(key: RemoteKey) -> String {
    format!("{}.{}", key.node, key.key)
}

#[must_use]
pub fn parse_remote_key(text: &str) -> Option<RemoteKey> {
    let (node, key) = text.split_once('.')?;
    Some(RemoteKey {
        node: node.parse().ok()?,
        key: key.parse().ok()?,
    })
}

#[must_use]
pub fn room_header(room: RoomName) -> String {
    format!("{}.{}", kind_name(room.kind), room.id)
}

#[must_use]
pub fn parse_room(text: &str) -> Option<RoomName> {
    let (kind, id) = text.split_once('.')?;
    let kind = match kind {
        "game" => LeaseKind::Game,
        "tournament" => LeaseKind::Tournament,
        _ => return None,
    };
    Some(RoomName {
        kind,
        id: id.parse().ok()?,
    })
}

/// A close reason received from another node, as the `&'static str` a socket's close
/// takes. The server's reasons are a few fixed sentences: each is kept once; past a
/// bound (a peer sending made-up ones) a general reason is used instead.
#[must_use]
pub fn close_reason(text: &str) -> &'static str {
    const GENERAL: &str = "the room closed; reconnect in a moment";
    const MOST: usize = 64;
    static KNOWN: OnceLock<Mutex<HashSet<&'static str>>> = OnceLock::new();
    let mut known = KNOWN
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(PoisonError::into_inner);
    if let Some(reason) = known.get(text) {
        return reason;
    }
    if known.len() >= MOST || text.len() > 123 {
        return GENERAL;
    }
    let reason: &'static str = Box::leak(text.to_owned().into_boxed_str());
    known.insert(reason);
    reason
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back_as_written() {
        let id = Uuid::from_u128(7);
        let room = RoomName::game(id);
        assert_eq!(
            room_subject(room),
            "omweso.room.game.00000000-0000-0000-0000-000000000007"
        );
        assert_eq!(parse_room(&room_header(room)), Some(room));
        let t = RoomName::tournament(id);
        assert_eq!(parse_room(&room_header(t)), Some(t));
        assert_eq!(parse_room("match.x"), None);
        let key = RemoteKey { node: id, key: 42 };
        assert_eq!(parse_remote_key(&remote_key(key)), Some(key));
        assert_eq!(parse_remote_key("nonsense"), None);
    }

    #[test]
    fn a_packed_request_unpacks_as_it_was() {
        let head = HttpRequestHead {
            method: "POST".into(),
            uri: "/api/games/x/join?y=1".into(),
            client: Some("203.0.113.7".parse().unwrap()),
            headers: vec![("content-type".into(), "application/json".into())],
            session: Some(ForwardedSession {
                player_id: Uuid::from_u128(1),
                name: "Nakato".into(),
                username: None,
                device_id: Uuid::from_u128(2),
                token_hash: "ab".into(),
                only_tournament: Some(Uuid::from_u128(3)),
            }),
        };
        let packed = pack(&head, b"{\"a\":1}");
        let (back, body): (HttpRequestHead, &[u8]) = unpack(&packed).unwrap();
        assert_eq!(back, head);
        assert_eq!(body, b"{\"a\":1}");
        assert!(unpack::<HttpRequestHead>(&packed[..10]).is_none());
        assert!(unpack::<HttpRequestHead>(b"\xff\xff\xff\xff{}").is_none());
        assert!(unpack::<HttpRequestHead>(b"").is_none());
    }

    #[test]
    fn a_close_reason_is_kept_once_and_bounded() {
        let a = close_reason("the game moved");
        let b = close_reason(&String::from("the game moved"));
        assert!(std::ptr::eq(a, b));
        assert_eq!(
            close_reason(&"x".repeat(200)),
            "the room closed; reconnect in a moment"
        );
    }
}
