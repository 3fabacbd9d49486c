//! What clients send on a game's socket (docs/protocol.md#client-to-server), and
//! the decoder that turns a text frame into it or into a refusal that says what is wrong.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::ErrorCode;

/// The largest text frame accepted; a longer one is answered with `too_large`.
pub const MAX_FRAME_BYTES: usize = 16 * 1024;

/// `{"move":"E1"}`: start a turn; the notation may stop before a decision point or
/// include its answers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    #[serde(rename = "move")]
    pub mv: String,
}

/// `{"choice":"c"}`: answer the pending decision point.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DecideRequest {
    pub choice: String,
}

/// `{"pits":[16 counts]}`: the free-setup arrangement, in the side's own pit order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArrangeRequest {
    pub pits: Vec<u64>,
}

/// `{"accept":true}`: the answer to the opponent's proposal to stop at an Oware impasse
/// (addition, docs/rules.md#3-oware-abapa).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImpasseAnswer {
    pub accept: bool,
}

/// `{}`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Empty {}

/// What a client asks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "t", content = "d", rename_all = "lowercase")]
pub enum ClientMessage {
    Move(MoveRequest),
    Decide(DecideRequest),
    Arrange(ArrangeRequest),
    Resign(Empty),
    Ping(Empty),
    /// Propose to stop at an Oware impasse (addition).
    Impasse(Empty),
    /// Accept or decline the opponent's proposal (addition).
    #[serde(rename = "impasse_answer")]
    ImpasseAnswer(ImpasseAnswer),
}

impl ClientMessage {
    /// The message types, as `t` names them (a test checks each against the enum).
    pub const TYPES: [&'static str; 7] = [
        "move",
        "decide",
        "arrange",
        "resign",
        "ping",
        "impasse",
        "impasse_answer",
    ];
}

/// A client frame: the message and its optional `id`, echoed in `ack` or `error`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Request {
    #[serde(flatten)]
    pub message: ClientMessage,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<Value>,
}

impl Request {
    /// The frame's text.
    #[must_use]
    pub fn to_text(&self) -> String {
        super::to_text(self)
    }
}

/// A frame that could not be decoded: the error code, what is wrong, and the `id` if one
/// could be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    pub id: Option<Value>,
    pub code: ErrorCode,
    pub message: String,
}

/// Decodes one text frame. The envelope is checked by hand so that each refusal names
/// what is wrong with it (and echoes the `id` when there is one); the message itself is
/// read by serde into [`ClientMessage`], refusing unknown and ill-typed fields.
pub fn decode(text: &str) -> Result<Request, DecodeError> {
    let fail = |id: Option<Value>, code, message: String| DecodeError { id, code, message };
    if text.len() > MAX_FRAME_BYTES {
        return Err(fail(
            None,
            ErrorCode::TooLarge,
            format!(
                "a message is at most {MAX_FRAME_BYTES} bytes; this one is {}",
                text.len()
            ),
        ));
    }
    let value: Value = serde_json::from_str(text)
        .map_err(|e| fail(None, ErrorCode::BadMessage, format!("not JSON: {e}")))?;
    let Value::Object(mut envelope) = value else {
        return Err(fail(
            None,
            ErrorCode::BadMessage,
            "a message is a JSON object {\"t\":..,\"d\":..}".into(),
        ));
    };
    let id = match envelope.remove("id") {
        None | Some(Value::Null) => None,
        Some(id @ (Value::String(_) | Value::Number(_))) => Some(id),
        Some(_) => {
            return Err(fail(
                None,
                ErrorCode::BadMessage,
                "\"id\" must be a string or a number".into(),
            ))
        }
    };
    let bad =
        |id: &Option<Value>, message: String| fail(id.clone(), ErrorCode::BadMessage, message);
    let t = match envelope.remove("t") {
        Some(Value::String(t)) => t,
        Some(_) => return Err(bad(&id, "\"t\" must be a string".into())),
        None => return Err(bad(&id, "the message has no \"t\"".into())),
    };
    if !ClientMessage::TYPES.contains(&t.as_str()) {
        return Err(fail(
            id,
            ErrorCode::UnknownType,
            format!(
                "unknown message type \"{t}\": expected {}",
                ClientMessage::TYPES.join(", ")
            ),
        ));
    }
    let d = match envelope.remove("d") {
        None | Some(Value::Null) => Value::Object(Map::new()),
        Some(d @ Value::Object(_)) => d,
        Some(_) => return Err(bad(&id, "\"d\" must be an object".into())),
    };
    if let Some(extra) = envelope.keys().next() {
        return Err(bad(
            &id,
            format!("unknown field \"{extra}\" in the envelope; it has t, d and id"),
        ));
    }
    let mut message = Map::new();
    message.insert("t".into(), Value::String(t.clone()));
    message.insert("d".into(), d);
    match serde_json::from_value::<ClientMessage>(Value::Object(message)) {
        Ok(message) => Ok(Request { message, id }),
        Err(e) => Err(bad(&id, format!("{t}: {e}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_type_decodes_and_encodes_back() {
        let cases = [
            (
                json!({"t":"move","d":{"move":"E1/c"},"id":7}),
                ClientMessage::Move(MoveRequest { mv: "E1/c".into() }),
            ),
            (
                json!({"t":"decide","d":{"choice":"a"}}),
                ClientMessage::Decide(DecideRequest { choice: "a".into() }),
            ),
            (
                json!({"t":"arrange","d":{"pits":[4,4,4,4,4,4,4,4,0,0,0,0,0,0,0,0]}}),
                ClientMessage::Arrange(ArrangeRequest {
                    pits: [4, 4, 4, 4, 4, 4, 4, 4, 0, 0, 0, 0, 0, 0, 0, 0].to_vec(),
                }),
            ),
            (
                json!({"t":"resign","d":{}}),
                ClientMessage::Resign(Empty {}),
            ),
            (json!({"t":"ping"}), ClientMessage::Ping(Empty {})),
            (
                json!({"t":"impasse","d":{},"id":"i1"}),
                ClientMessage::Impasse(Empty {}),
            ),
            (
                json!({"t":"impasse_answer","d":{"accept":false}}),
                ClientMessage::ImpasseAnswer(ImpasseAnswer { accept: false }),
            ),
        ];
        let mut names = Vec::new();
        for (frame, message) in cases {
            let decoded = decode(&frame.to_string()).unwrap();
            assert_eq!(decoded.message, message);
            assert_eq!(decoded.id, frame.get("id").cloned());
            let encoded: Value = serde_json::from_str(&decoded.to_text()).unwrap();
            names.push(encoded["t"].as_str().unwrap().to_owned());
            assert_eq!(encoded["t"], frame["t"]);
            assert_eq!(decode(&decoded.to_text()).unwrap(), decoded);
        }
        assert_eq!(names, ClientMessage::TYPES);
    }

    #[test]
    fn refusals_name_what_is_wrong() {
        let refuse = |text: &str| decode(text).unwrap_err();
        let e = refuse(r#"{"t":"fly","id":"x"}"#);
        assert_eq!(e.code, ErrorCode::UnknownType);
        assert_eq!(e.id, Some(json!("x")));
        assert_eq!(
            e.message,
            "unknown message type \"fly\": expected move, decide, arrange, resign, ping, impasse, impasse_answer"
        );
        let e = refuse(r#"{"t":"impasse_answer","d":{}}"#);
        assert_eq!(e.message, "impasse_answer: missing field `accept`");
        let e = refuse(r#"{"t":"impasse_answer","d":{"accept":"yes"}}"#);
        assert_eq!(
            e.message,
            "impasse_answer: invalid type: string \"yes\", expected a boolean"
        );
        let e = refuse(r#"{"t":"impasse","d":{"x":1}}"#);
        assert_eq!(e.code, ErrorCode::BadMessage);
        let e = refuse(r#"{"t":"move","d":{},"id":3}"#);
        assert_eq!(
            (e.code, e.id, e.message.as_str()),
            (
                ErrorCode::BadMessage,
                Some(json!(3)),
                "move: missing field `move`"
            )
        );
        let e = refuse(r#"{"t":"move","d":{"move":"E1","x":1}}"#);
        assert_eq!(e.message, "move: unknown field `x`, expected `move`");
        let e = refuse(r#"{"t":"arrange","d":{"pits":[1.5]}}"#);
        assert_eq!(
            e.message,
            "arrange: invalid type: floating point `1.5`, expected u64"
        );
        assert_eq!(refuse("[1]").code, ErrorCode::BadMessage);
        assert_eq!(
            refuse(r#"{"t":"ping","id":{}}"#).message,
            "\"id\" must be a string or a number"
        );
        assert_eq!(
            refuse(r#"{"t":"ping","x":1}"#).message,
            "unknown field \"x\" in the envelope; it has t, d and id"
        );
        assert_eq!(
            refuse(r#"{"t":"ping","d":[]}"#).message,
            "\"d\" must be an object"
        );
        let long = format!(
            r#"{{"t":"move","d":{{"move":"{}"}}}}"#,
            "A".repeat(MAX_FRAME_BYTES)
        );
        assert_eq!(refuse(&long).code, ErrorCode::TooLarge);
    }
}
