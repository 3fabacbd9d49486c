//! The wire protocol as types, both ways (docs/protocol.md, its additions included):
//! every message a client sends or the server answers, over HTTP and on a game's socket,
//! serializes from and deserializes into exactly one type here. The
//! server writes its messages with them, and the load generator and the tests read them
//! with them, so a shape is declared once.
//!
//! - [`client`]: what a client sends on a socket ([`ClientMessage`]) and [`decode`], which
//!   refuses a bad frame saying what is wrong.
//! - [`server`]: what the server sends on a socket: [`Frame`] = an [`Event`] with its
//!   version, `state`, or a reply (`ack`, `error`, `crowd`, `pong`).
//! - [`game`]: a game as messages show it: [`Event`], [`Snapshot`], laps, the clock, and
//!   what a player may do now ([`Legal`], [`OptionResult`]).
//! - [`http`]: the bodies of the `/api` calls.
//! - [`code`]: every error code, with its HTTP status ([`ErrorCode`]).
//! - [`analysis`]: the analysis calls' bodies (a position, a move played out, the
//!   engine's best move).
//! - [`tournament`]: a tournament's bodies and its socket's frames; [`lobby`]: the lobby
//!   socket's frames and the game summaries its lists carry.
//! - [`sheet_parts`]: what a score sheet and a board table's entries share.
//! - [`over_the_board`]: tables played at a wooden board: where, their sheets entered
//!   from phones, relays and the printed sheets' QR codes.
//! - [`archive`]: the archive of finished games: a search, its pages, a player's results.
//! - [`ratings`]: ratings per ruleset, their history, the leaderboards, a seat's badge.
//! - [`config`]: a game's settings as a client asks for them (ruleset, setup, time
//!   control).
//! - [`refusal`]: a refused request ([`refusal::Refusal`]): an error code and what is
//!   wrong, the one refusal type of every domain.
//!
//! This crate depends on the rules and on serde (with serde_json, uuid, thiserror, tracing
//! and `http` for an error code's status) only: the server, the pure domain crates, the
//! tools (`omweso loadgen`, `omweso tournament-sim`) and the tests all speak through it,
//! and none of them reaches into another's internals to do so.

pub mod accounts;
pub mod analysis;
pub mod archive;
pub mod client;
pub mod clock;
pub mod code;
pub mod config;
pub mod game;
pub mod http;
pub mod lobby;
pub mod over_the_board;
pub mod ratings;
pub mod refusal;
pub mod server;
pub mod sheet_parts;
pub mod tournament;

pub use client::{decode, ClientMessage, DecodeError, Request, MAX_FRAME_BYTES};
pub use code::ErrorCode;
pub use game::{
    Arrangements, ClockView, Computer, ComputerLevel, Event, HistoryEntry, Impasse, LapKind,
    LapView, Legal, LegalSide, OmittedLaps, OptionResult, Played, SeatView, Seats, Snapshot, Split,
    StartResult, Status, Undone,
};
pub use server::{Frame, Reply, ServerMessage};

/// A message's JSON text. The protocol's types have string keys and no custom
/// serializers, so serde_json cannot fail on them; were it ever to, the failure is logged
/// and the client gets an `error` frame instead of an empty message.
fn to_text<T: serde::Serialize>(message: &T) -> String {
    match serde_json::to_string(message) {
        Ok(text) => text,
        Err(error) => {
            tracing::error!(%error, "could not encode a message");
            r#"{"t":"error","d":{"code":"unavailable","message":"the server could not encode its answer"}}"#
                .to_owned()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use omweso_rules::Side;
    use serde_json::json;

    fn round_trip(frame: &Frame) -> serde_json::Value {
        let text = frame.to_text();
        let back: Frame = serde_json::from_str(&text).unwrap();
        assert_eq!(&back, frame, "{text}");
        serde_json::from_str(&text).unwrap()
    }

    #[test]
    fn replies_have_the_contracts_shapes() {
        assert_eq!(round_trip(&Frame::pong()), json!({"t":"pong","d":{}}));
        assert_eq!(round_trip(&Frame::ack(None)), json!({"t":"ack","d":{}}));
        assert_eq!(
            round_trip(&Frame::ack(Some(json!("m1")))),
            json!({"t":"ack","d":{"id":"m1"}})
        );
        assert_eq!(
            round_trip(&Frame::error(Some(json!(4)), ErrorCode::IllegalMove, "no")),
            json!({"t":"error","d":{"id":4,"code":"illegal_move","message":"no"}})
        );
        assert_eq!(
            round_trip(&Frame::crowd(3, [true, false])),
            json!({"t":"crowd","d":{"spectators":3,"connected":{"s":true,"n":false}}})
        );
    }

    #[test]
    fn events_carry_their_version() {
        let event = Event::Decision {
            by: Side::South,
            options: vec!["a".into(), "c".into()],
            results: Vec::new(),
            clock: ClockView::default(),
        };
        assert_eq!(
            round_trip(&Frame::event(7, event)),
            json!({"t":"decision","v":7,"d":{"by":"s","options":["a","c"],"results":[],
                "clock":{"referee_deadline":null,"steal_open":false,"move_deadline":null}}})
        );
        let end = Event::end(omweso_rules::Outcome::Draw);
        let value = round_trip(&Frame::event(9, end));
        assert_eq!(value["t"], "end");
        assert_eq!(value["v"], 9);
    }

    #[test]
    fn a_message_with_only_the_contracts_fields_is_read() {
        // docs/protocol.md's own examples, without any of the server's additions.
        let decision: Frame = serde_json::from_value(
            json!({"t":"decision","v":3,"d":{"by":"s","options":["a","c"]}}),
        )
        .unwrap();
        let ServerMessage::Event(Event::Decision {
            options,
            results,
            clock,
            ..
        }) = decision.message
        else {
            panic!("{decision:?}");
        };
        assert_eq!(options, ["a", "c"]);
        assert!(results.is_empty());
        assert_eq!(clock, ClockView::default());
        let played: Frame = serde_json::from_value(json!({"t":"played","v":4,"d":{"by":"s",
            "move":"E1","stolen":false,"laps":[],"position":"p","outcome":null}}))
        .unwrap();
        let ServerMessage::Event(Event::Played(played)) = played.message else {
            panic!("{played:?}");
        };
        assert!(!played.pending);
        assert!(played.legal.is_empty());
    }
}
