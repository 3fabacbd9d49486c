//! The client protocol's envelope (`shared/PROTOCOL.md`): decoding what clients send, and
//! the unversioned messages the server answers with.

use serde_json::{json, Map, Value};

use crate::game::table::Action;

/// The largest text frame accepted; a longer one is answered with `too_large`.
pub const MAX_FRAME_BYTES: usize = 16 * 1024;

/// What a client asks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClientMessage {
    Act(Action),
    Ping,
}

/// A decoded client frame: its `id` (echoed in `ack`/`error`) and message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    pub id: Option<Value>,
    pub message: ClientMessage,
}

/// A frame that could not be decoded: the error code, what is wrong, and the `id` if one
/// could be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    pub id: Option<Value>,
    pub code: &'static str,
    pub message: String,
}

/// Decodes one text frame.
pub fn decode(text: &str) -> Result<Request, DecodeError> {
    let fail = |id: Option<Value>, code, message: String| DecodeError { id, code, message };
    if text.len() > MAX_FRAME_BYTES {
        return Err(fail(
            None,
            "too_large",
            format!(
                "a message is at most {MAX_FRAME_BYTES} bytes; this one is {}",
                text.len()
            ),
        ));
    }
    let value: Value = serde_json::from_str(text)
        .map_err(|e| fail(None, "bad_message", format!("not JSON: {e}")))?;
    let Value::Object(mut envelope) = value else {
        return Err(fail(
            None,
            "bad_message",
            "a message is a JSON object {\"t\":..,\"d\":..}".into(),
        ));
    };
    let id = match envelope.remove("id") {
        None | Some(Value::Null) => None,
        Some(id @ (Value::String(_) | Value::Number(_))) => Some(id),
        Some(_) => {
            return Err(fail(
                None,
                "bad_message",
                "\"id\" must be a string or a number".into(),
            ))
        }
    };
    let t = match envelope.remove("t") {
        Some(Value::String(t)) => t,
        Some(_) => return Err(fail(id, "bad_message", "\"t\" must be a string".into())),
        None => return Err(fail(id, "bad_message", "the message has no \"t\"".into())),
    };
    let mut d = match envelope.remove("d") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(d)) => d,
        Some(_) => return Err(fail(id, "bad_message", "\"d\" must be an object".into())),
    };
    if let Some(extra) = envelope.keys().next() {
        return Err(fail(
            id,
            "bad_message",
            format!("unknown field \"{extra}\" in the envelope; it has t, d and id"),
        ));
    }
    let mut string = |name: &str| match d.remove(name) {
        Some(Value::String(s)) => Ok(s),
        Some(_) => Err(format!("\"{name}\" must be a string")),
        None => Err(format!("{t} needs \"{name}\"")),
    };
    let message = match t.as_str() {
        "move" => string("move").map(|notation| ClientMessage::Act(Action::Move { notation })),
        "decide" => string("choice").map(|choice| ClientMessage::Act(Action::Decide { choice })),
        "arrange" => match d.remove("pits") {
            Some(Value::Array(items)) => items
                .iter()
                .map(|v| {
                    v.as_u64()
                        .ok_or_else(|| format!("\"pits\" holds whole numbers, not {v}"))
                })
                .collect::<Result<Vec<u64>, String>>()
                .map(|pits| ClientMessage::Act(Action::Arrange { pits })),
            _ => Err("arrange needs \"pits\": 16 counts in your pit order 0..15".into()),
        },
        "resign" => Ok(ClientMessage::Act(Action::Resign)),
        "ping" => Ok(ClientMessage::Ping),
        other => {
            return Err(fail(
                id,
                "unknown_type",
                format!(
                "unknown message type \"{other}\": expected move, decide, arrange, resign or ping"
            ),
            ))
        }
    }
    .map_err(|message| fail(id.clone(), "bad_message", message))?;
    if let Some(extra) = d.keys().next() {
        return Err(fail(
            id,
            "bad_message",
            format!("unknown field \"{extra}\" in {t}"),
        ));
    }
    Ok(Request { id, message })
}

fn with_id(mut d: Map<String, Value>, id: Option<&Value>) -> Value {
    if let Some(id) = id {
        d.insert("id".into(), id.clone());
    }
    Value::Object(d)
}

/// `{"t":"ack","d":{"id":..}}`.
#[must_use]
pub fn ack(id: Option<&Value>) -> String {
    json!({"t": "ack", "d": with_id(Map::new(), id)}).to_string()
}

/// `{"t":"error","d":{"id":..,"code":..,"message":..}}`.
#[must_use]
pub fn error(id: Option<&Value>, code: &str, message: &str) -> String {
    let mut d = Map::new();
    d.insert("code".into(), code.into());
    d.insert("message".into(), message.into());
    json!({"t": "error", "d": with_id(d, id)}).to_string()
}

#[must_use]
pub fn pong() -> String {
    json!({"t": "pong", "d": {}}).to_string()
}

/// `{"t":"crowd","d":{"spectators":N,"connected":{"s":..,"n":..}}}`.
#[must_use]
pub fn crowd(spectators: usize, connected: [bool; 2]) -> String {
    json!({"t": "crowd", "d": {"spectators": spectators, "connected": {"s": connected[0], "n": connected[1]}}}).to_string()
}

/// `{"t":"state","v":N,"d":snapshot}`.
#[must_use]
pub fn state(snapshot: &crate::game::events::Snapshot) -> String {
    json!({"t": "state", "v": snapshot.version, "d": snapshot}).to_string()
}
