//! What the server sends on a game's socket (docs/protocol.md#server-to-client):
//! one [`Frame`] type, the versioned game [`Event`]s and the unversioned replies.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::client::Empty;
use super::game::{Event, Snapshot};
use super::ErrorCode;

/// `crowd`: who is here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Crowd {
    pub spectators: usize,
    pub connected: Connected,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Connected {
    pub s: bool,
    pub n: bool,
}

/// `ack`: the message with this `id` was carried out (and is durable).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ack {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<Value>,
}

/// `error`: the message with this `id` was refused; nothing changed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorReply {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<Value>,
    pub code: ErrorCode,
    pub message: String,
}

/// The messages that are not game events.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "t", content = "d", rename_all = "lowercase")]
pub enum Reply {
    /// The snapshot, versioned with the game's current version.
    State(Box<Snapshot>),
    Crowd(Crowd),
    /// Addition: the seats' ratings changed after the game ended.
    Ratings(super::ratings::SeatRatingsNow),
    Ack(Ack),
    Error(ErrorReply),
    Pong(Empty),
}

/// Any message the server sends.
// Most messages are events, the large variant: boxing it would cost every decoded frame
// an allocation to save the few replies some bytes.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ServerMessage {
    Event(Event),
    Reply(Reply),
}

/// A frame's envelope only: which message and which version, for a reader that routes
/// or counts frames without decoding them (the load generator's spectators).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct Envelope {
    pub t: String,
    #[serde(default)]
    pub v: Option<u64>,
}

/// One server frame: `{"t":..,"d":..}`, with `"v"` for the versioned ones (the events and
/// `state`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Frame {
    #[serde(flatten)]
    pub message: ServerMessage,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub v: Option<u64>,
}

impl Frame {
    /// The game's event `event`, at version `v`.
    #[must_use]
    pub fn event(v: u64, event: Event) -> Frame {
        Frame {
            message: ServerMessage::Event(event),
            v: Some(v),
        }
    }

    /// `state`, at the snapshot's version.
    #[must_use]
    pub fn state(snapshot: Snapshot) -> Frame {
        Frame {
            v: Some(snapshot.version),
            message: ServerMessage::Reply(Reply::State(Box::new(snapshot))),
        }
    }

    #[must_use]
    pub fn reply(reply: Reply) -> Frame {
        Frame {
            message: ServerMessage::Reply(reply),
            v: None,
        }
    }

    #[must_use]
    pub fn ack(id: Option<Value>) -> Frame {
        Frame::reply(Reply::Ack(Ack { id }))
    }

    #[must_use]
    pub fn error(id: Option<Value>, code: ErrorCode, message: impl Into<String>) -> Frame {
        Frame::reply(Reply::Error(ErrorReply {
            id,
            code,
            message: message.into(),
        }))
    }

    #[must_use]
    pub fn pong() -> Frame {
        Frame::reply(Reply::Pong(Empty {}))
    }

    /// `ratings`: the seats' ratings as they now stand.
    #[must_use]
    pub fn ratings(now: super::ratings::SeatRatingsNow) -> Frame {
        Frame::reply(Reply::Ratings(now))
    }

    #[must_use]
    pub fn crowd(spectators: usize, connected: [bool; 2]) -> Frame {
        Frame::reply(Reply::Crowd(Crowd {
            spectators,
            connected: Connected {
                s: connected[0],
                n: connected[1],
            },
        }))
    }

    /// The frame's text (serialized once, however many sockets it goes to).
    #[must_use]
    pub fn to_text(&self) -> String {
        super::to_text(self)
    }
}
