//! What nodes say to each other over NATS: the subjects and the header names
//! (docs/scaling.md#what-crosses-nats). A frame's text travels as the message's payload,
//! as the socket gets it; what it is and whom it is for are headers, so nothing is
//! encoded twice.

use std::collections::HashSet;
use std::sync::{Mutex, OnceLock, PoisonError};

use uuid::Uuid;

use super::lease::LeaseKind;

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

/// A forwarded HTTP request's method, path and query, client address; the response's
/// status. The request's and response's own headers travel with this prefix.
pub const HTTP_METHOD: &str = "Omweso-Method";
pub const HTTP_URI: &str = "Omweso-Uri";
pub const HTTP_CLIENT: &str = "Omweso-Client";
pub const HTTP_STATUS: &str = "Omweso-Status";
pub const HTTP_HEADER: &str = "H-";

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
