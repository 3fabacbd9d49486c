//! docs/protocol.md against the protocol's types (`omweso_protocol`), so that the page
//! cannot drift from what the server sends and reads.
//!
//! The conventions the page follows (its section "How the examples are checked"):
//!
//! - Every ```` ```json ```` block holds one or more JSON values, one after the other.
//! - A value with a `"t"` is a socket message: a client's (`t` in
//!   [`ClientMessage::TYPES`]) must decode as a [`Request`] (through the server's own
//!   [`decode`]), any other must read as a server [`Frame`]; each must write back as the
//!   same JSON value (key order aside).
//! - A block whose fence names a type after `json` (```` ```json Snapshot ````) holds
//!   bodies of that type (see [`check_typed`]); in the request bodies a client writes
//!   (`NewSession`, `NewGame`) numbers compare as numbers (`3` is `3.0`).
//! - ```` ```json TournamentFrame ```` and ```` ```json LobbyFrame ```` hold the messages of a
//!   tournament socket and of the lobby socket; every one of their types has an example.
//! - ```` ```json refused ```` holds pairs: a client frame the decoder refuses, then the
//!   `error` the server answers it with.
//! - ```` ```json (abbreviated) ```` is not checked; any other block without a `"t"` fails.
//! - The "Error codes" table lists every [`ErrorCode`] once with its HTTP status, and a
//!   status written before a code anywhere in the prose (`` `409 seats_taken` ``) is the
//!   code's.
//! - Every client and server message type has at least one checked example.
//!
//! About 700 lines, and left so: one checker of one page (its blocks, its conventions, its
//! error table), whose parts are read together when the page's conventions change.

use std::collections::{BTreeMap, BTreeSet};

use omweso_protocol::accounts::{
    AccountCreated, AccountInfo, Credentials, DeviceList, EmailChange, EmailReset,
    EmailResetConfirm, LinkCodeInfo, Linked, NewDevices, PasswordChange, PasswordOnly, PlayerPage,
    Recovery, RecoveryCodes, Rename, UseCode,
};
use omweso_protocol::analysis::{
    PlayAnswer, PlayQuery, PositionQuery, PositionView, SearchAnswer, SearchQuery,
};
use omweso_protocol::archive::{ArchiveGame, ArchivePage};
use omweso_protocol::http::{
    ErrorBody, GameCreated, GameList, Joined, NewGame, NewSession, SessionInfo,
};
use omweso_protocol::lobby::{GameSummary, LobbyFrame};
use omweso_protocol::over_the_board::{
    AddPlayer, BoardSheetRequest, BoardTableView, ClaimRelay, PrintCodes, RelayDone, RelayInvite,
    RelayRequest, SetPlayedAt,
};
use omweso_protocol::ratings::{Leaderboard, RatingHistory, TournamentRatings};
use omweso_protocol::tournament::{
    AcceptCoDirectorInvite, AddCoDirector, CoDirectorInvite, CoDirectorList, DirectorActions,
    EditRound, ForbiddenPairs, NewTournament, SheetRequest, SheetView, TournamentCreated,
    TournamentFrame, TournamentJoined, TournamentList, TournamentMessage, TournamentReply,
    TournamentSnapshot, WithdrawRequest,
};
use omweso_protocol::{
    decode, ClientMessage, ErrorCode, Event, Frame, LegalSide, OptionResult, Reply, Request,
    ServerMessage, Snapshot, StartResult,
};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

const DOC: &str = include_str!("../../../docs/protocol.md");

/// Every server message type. [`server_type`] matches every variant without a wildcard, so
/// a new variant does not compile until it is named there; name it here too.
const SERVER_TYPES: [&str; 17] = [
    "state",
    "crowd",
    "ratings",
    "ack",
    "error",
    "pong",
    "joined",
    "started",
    "arranged",
    "played",
    "decision",
    "count",
    "steal",
    "end",
    "impasse_proposed",
    "impasse_declined",
    "undone",
];

/// Every message type of a tournament socket; [`tournament_type`] names every variant.
const TOURNAMENT_TYPES: [&str; 14] = [
    "state",
    "board",
    "boards",
    "presence",
    "error",
    "pong",
    "player",
    "round",
    "sheet",
    "standings",
    "status",
    "directors",
    "players",
    "device_linked",
];

fn tournament_type(message: &TournamentMessage) -> &'static str {
    use omweso_protocol::tournament::TournamentEvent;
    match message {
        TournamentMessage::Event(event) => match event {
            TournamentEvent::Player(_) => "player",
            TournamentEvent::Round(_) => "round",
            TournamentEvent::Sheet(_) => "sheet",
            TournamentEvent::Standings(_) => "standings",
            TournamentEvent::Status(_) => "status",
            TournamentEvent::Directors(_) => "directors",
            TournamentEvent::Players(_) => "players",
            TournamentEvent::DeviceLinked(_) => "device_linked",
        },
        TournamentMessage::Reply(reply) => match reply {
            TournamentReply::State(_) => "state",
            TournamentReply::Board(_) => "board",
            TournamentReply::Boards(_) => "boards",
            TournamentReply::Presence(_) => "presence",
            TournamentReply::Error(_) => "error",
            TournamentReply::Pong(_) => "pong",
        },
    }
}

/// Every message type of the lobby socket; [`lobby_type`] names every variant.
const LOBBY_TYPES: [&str; 3] = ["lobby", "error", "pong"];

fn lobby_type(frame: &LobbyFrame) -> &'static str {
    match frame {
        LobbyFrame::Lobby(_) => "lobby",
        LobbyFrame::Error(_) => "error",
        LobbyFrame::Pong(_) => "pong",
    }
}

fn server_type(message: &ServerMessage) -> &'static str {
    match message {
        ServerMessage::Event(event) => match event {
            Event::Joined { .. } => "joined",
            Event::Started { .. } => "started",
            Event::Arranged { .. } => "arranged",
            Event::Played(_) => "played",
            Event::Decision { .. } => "decision",
            Event::Count { .. } => "count",
            Event::Steal { .. } => "steal",
            Event::End { .. } => "end",
            Event::ImpasseProposed { .. } => "impasse_proposed",
            Event::ImpasseDeclined { .. } => "impasse_declined",
            Event::Undone(_) => "undone",
        },
        ServerMessage::Reply(reply) => match reply {
            Reply::State(_) => "state",
            Reply::Crowd(_) => "crowd",
            Reply::Ratings(_) => "ratings",
            Reply::Ack(_) => "ack",
            Reply::Error(_) => "error",
            Reply::Pong(_) => "pong",
        },
    }
}

/// A fenced block of the page: the text after the opening fence, its body, and the line
/// (1-based) of the opening fence.
struct Block {
    info: String,
    body: String,
    line: usize,
}

fn blocks(doc: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut open: Option<Block> = None;
    for (i, line) in doc.lines().enumerate() {
        match open.as_mut() {
            None => {
                if let Some(info) = line.strip_prefix("```") {
                    open = Some(Block {
                        info: info.trim().to_owned(),
                        body: String::new(),
                        line: i + 1,
                    });
                }
            }
            Some(block) => {
                if line.trim_start().starts_with("```") {
                    blocks.push(open.take().expect("a block is open"));
                } else {
                    block.body.push_str(line);
                    block.body.push('\n');
                }
            }
        }
    }
    assert!(
        open.is_none(),
        "docs/protocol.md: the block at line {} is never closed",
        open.map_or(0, |b| b.line)
    );
    blocks
}

/// The block's JSON values, each with the line it starts on.
fn values(block: &Block) -> Result<Vec<(usize, Value)>, String> {
    let mut values = Vec::new();
    let mut stream = serde_json::Deserializer::from_str(&block.body).into_iter::<Value>();
    loop {
        let start = stream.byte_offset();
        match stream.next() {
            None => return Ok(values),
            Some(Ok(value)) => {
                let skipped = block.body[start..]
                    .chars()
                    .take_while(|c| c.is_whitespace())
                    .filter(|c| *c == '\n')
                    .count();
                let line = block.line + 1 + block.body[..start].matches('\n').count() + skipped;
                values.push((line, value));
            }
            Some(Err(e)) => {
                return Err(format!(
                    "line {}: not JSON: {e} (the block opens at line {})",
                    block.line + e.line(),
                    block.line
                ))
            }
        }
    }
}

/// The first characters of a value, to say which one is wrong.
fn short(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(100) {
        Some((at, _)) => format!("{}...", &text[..at]),
        None => text,
    }
}

/// Where a serialized value and the example differ first, as a JSON path.
fn first_difference(path: &str, example: &Value, written: &Value) -> String {
    match (example, written) {
        (Value::Object(a), Value::Object(b)) => {
            let keys: BTreeSet<&String> = a.keys().chain(b.keys()).collect();
            for key in keys {
                match (a.get(key), b.get(key)) {
                    (Some(x), Some(y)) if x == y => {}
                    (Some(x), Some(y)) => return first_difference(&format!("{path}.{key}"), x, y),
                    (Some(_), None) => {
                        return format!("{path}.{key} is in the example but the type does not write it (an unknown field, or one skipped when empty)")
                    }
                    (None, Some(y)) => {
                        return format!("{path}.{key} is missing from the example (the type writes {y})")
                    }
                    (None, None) => unreachable!(),
                }
            }
            format!("{path}: equal")
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                if x != y {
                    return first_difference(&format!("{path}[{i}]"), x, y);
                }
            }
            format!("{path}: equal")
        }
        _ => format!("{path}: the example has {example}, the type writes {written}"),
    }
}

/// Every number as an `f64`: a client may write `3` where the server reads `3.0`.
fn numbers_as_floats(value: &Value) -> Value {
    match value {
        Value::Number(n) => n
            .as_f64()
            .and_then(serde_json::Number::from_f64)
            .map_or_else(|| value.clone(), Value::Number),
        Value::Array(items) => Value::Array(items.iter().map(numbers_as_floats).collect()),
        Value::Object(fields) => Value::Object(
            fields
                .iter()
                .map(|(k, v)| (k.clone(), numbers_as_floats(v)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// `value` read as `T` and written back is `value` again.
fn round_trip<T: DeserializeOwned + Serialize>(
    value: &Value,
    loose_numbers: bool,
) -> Result<T, String> {
    let typed: T =
        serde_json::from_value(value.clone()).map_err(|e| format!("does not read: {e}"))?;
    let written = serde_json::to_value(&typed).map_err(|e| format!("does not write: {e}"))?;
    let (example, written) = if loose_numbers {
        (numbers_as_floats(value), numbers_as_floats(&written))
    } else {
        (value.clone(), written)
    };
    if example == written {
        Ok(typed)
    } else {
        Err(format!(
            "does not write back the same: {}",
            first_difference("", &example, &written)
        ))
    }
}

/// What the test saw: the message types with a checked example, and what is wrong.
#[derive(Default)]
struct Report {
    client_types: BTreeSet<String>,
    server_types: BTreeSet<&'static str>,
    tournament_types: BTreeSet<&'static str>,
    lobby_types: BTreeSet<&'static str>,
    problems: Vec<String>,
}

impl Report {
    fn problem(&mut self, line: usize, value: &Value, what: impl std::fmt::Display) {
        self.problems.push(format!(
            "docs/protocol.md line {line}: {what}\n    {}",
            short(value)
        ));
    }
}

fn check_socket_message(report: &mut Report, line: usize, value: &Value) {
    let Some(t) = value.get("t").and_then(Value::as_str) else {
        return report.problem(
            line,
            value,
            "a block without a type names no \"t\": name the body's type after ```json, or mark it ```json (abbreviated)",
        );
    };
    if ClientMessage::TYPES.contains(&t) {
        let text = value.to_string();
        match decode(&text) {
            Ok(decoded) => {
                match round_trip::<Request>(value, false) {
                    Ok(read) if read == decoded => {}
                    Ok(read) => report.problem(
                        line,
                        value,
                        format!("the decoder reads {decoded:?}, serde {read:?}"),
                    ),
                    Err(e) => report.problem(line, value, format!("client message {t:?} {e}")),
                }
                report.client_types.insert(t.to_owned());
            }
            Err(e) => report.problem(
                line,
                value,
                format!(
                    "client message {t:?} is refused: {} {:?}",
                    e.code, e.message
                ),
            ),
        }
        return;
    }
    match round_trip::<Frame>(value, false) {
        Ok(frame) => {
            let name = server_type(&frame.message);
            if name != t {
                report.problem(
                    line,
                    value,
                    format!("\"t\" is {t:?} but it reads as {name:?}"),
                );
            }
            let versioned = matches!(
                frame.message,
                ServerMessage::Event(_) | ServerMessage::Reply(Reply::State(_))
            );
            if versioned != frame.v.is_some() {
                report.problem(
                    line,
                    value,
                    if versioned {
                        format!("{t:?} is versioned: it needs a \"v\"")
                    } else {
                        format!("{t:?} is not versioned: it has no \"v\"")
                    },
                );
            }
            if let ServerMessage::Reply(Reply::State(snapshot)) = &frame.message {
                if frame.v != Some(snapshot.version) {
                    report.problem(line, value, "a state's \"v\" is its snapshot's version");
                }
            }
            report.server_types.insert(name);
        }
        Err(e) => {
            // The untagged frame says only that no variant matched: say what each says.
            let mut bare = value.clone();
            if let Some(fields) = bare.as_object_mut() {
                fields.remove("v");
            }
            let event = serde_json::from_value::<Event>(bare.clone()).err();
            let reply = serde_json::from_value::<Reply>(bare).err();
            let why = match (event, reply) {
                (Some(event), Some(reply)) => {
                    format!(" (as an event: {event}; as a reply: {reply})")
                }
                _ => String::new(),
            };
            report.problem(line, value, format!("server message {t:?} {e}{why}"));
        }
    }
}

/// A block of bodies of the type its fence names.
fn check_typed(report: &mut Report, tag: &str, line: usize, value: &Value) -> bool {
    let result = match tag {
        "Snapshot" => round_trip::<Snapshot>(value, false).map(drop),
        "StartResult" => round_trip::<StartResult>(value, false).map(drop),
        "OptionResult" => round_trip::<OptionResult>(value, false).map(drop),
        "LegalSide" => round_trip::<LegalSide>(value, false).map(drop),
        "NewSession" => round_trip::<NewSession>(value, true).map(drop),
        "NewGame" => round_trip::<NewGame>(value, true).map(drop),
        "SessionInfo" => round_trip::<SessionInfo>(value, false).map(drop),
        "GameCreated" => round_trip::<GameCreated>(value, false).map(drop),
        "Joined" => round_trip::<Joined>(value, false).map(drop),
        "GameList" => round_trip::<GameList>(value, false).map(drop),
        "ErrorBody" => round_trip::<ErrorBody>(value, false).map(drop),
        "NewTournament" => round_trip::<NewTournament>(value, true).map(drop),
        "TournamentCreated" => round_trip::<TournamentCreated>(value, false).map(drop),
        "TournamentList" => round_trip::<TournamentList>(value, false).map(drop),
        "TournamentSnapshot" => round_trip::<TournamentSnapshot>(value, false).map(drop),
        "TournamentJoined" => round_trip::<TournamentJoined>(value, false).map(drop),
        "WithdrawRequest" => round_trip::<WithdrawRequest>(value, false).map(drop),
        "EditRound" => round_trip::<EditRound>(value, false).map(drop),
        "ForbiddenPairs" => round_trip::<ForbiddenPairs>(value, false).map(drop),
        "SheetRequest" => round_trip::<SheetRequest>(value, false).map(drop),
        "SheetView" => round_trip::<SheetView>(value, false).map(drop),
        "BoardTableView" => round_trip::<BoardTableView>(value, false).map(drop),
        "SetPlayedAt" => round_trip::<SetPlayedAt>(value, false).map(drop),
        "AddPlayer" => round_trip::<AddPlayer>(value, false).map(drop),
        "BoardSheetRequest" => round_trip::<BoardSheetRequest>(value, false).map(drop),
        "RelayInvite" => round_trip::<RelayInvite>(value, false).map(drop),
        "ClaimRelay" => round_trip::<ClaimRelay>(value, false).map(drop),
        "RelayRequest" => round_trip::<RelayRequest>(value, false).map(drop),
        "RelayDone" => round_trip::<RelayDone>(value, false).map(drop),
        "PrintCodes" => round_trip::<PrintCodes>(value, false).map(drop),
        "Credentials" => round_trip::<Credentials>(value, false).map(drop),
        "AccountCreated" => round_trip::<AccountCreated>(value, false).map(drop),
        "Recovery" => round_trip::<Recovery>(value, false).map(drop),
        "PasswordChange" => round_trip::<PasswordChange>(value, false).map(drop),
        "PasswordOnly" => round_trip::<PasswordOnly>(value, false).map(drop),
        "RecoveryCodes" => round_trip::<RecoveryCodes>(value, false).map(drop),
        "Rename" => round_trip::<Rename>(value, false).map(drop),
        "DeviceList" => round_trip::<DeviceList>(value, false).map(drop),
        "LinkCodeInfo" => round_trip::<LinkCodeInfo>(value, false).map(drop),
        "UseCode" => round_trip::<UseCode>(value, false).map(drop),
        "Linked" => round_trip::<Linked>(value, false).map(drop),
        "NewDevices" => round_trip::<NewDevices>(value, false).map(drop),
        "PlayerPage" => round_trip::<PlayerPage>(value, false).map(drop),
        "ArchivePage" => round_trip::<ArchivePage>(value, false).map(drop),
        "ArchiveGame" => round_trip::<ArchiveGame>(value, false).map(drop),
        "AddCoDirector" => round_trip::<AddCoDirector>(value, false).map(drop),
        "AcceptCoDirectorInvite" => round_trip::<AcceptCoDirectorInvite>(value, false).map(drop),
        "CoDirectorList" => round_trip::<CoDirectorList>(value, false).map(drop),
        "CoDirectorInvite" => round_trip::<CoDirectorInvite>(value, false).map(drop),
        "DirectorActions" => round_trip::<DirectorActions>(value, false).map(drop),
        "EmailChange" => round_trip::<EmailChange>(value, false).map(drop),
        "EmailReset" => round_trip::<EmailReset>(value, false).map(drop),
        "EmailResetConfirm" => round_trip::<EmailResetConfirm>(value, false).map(drop),
        "AccountInfo" => round_trip::<AccountInfo>(value, false).map(drop),
        "PositionQuery" => round_trip::<PositionQuery>(value, true).map(drop),
        "PositionView" => round_trip::<PositionView>(value, false).map(drop),
        "PlayQuery" => round_trip::<PlayQuery>(value, true).map(drop),
        "PlayAnswer" => round_trip::<PlayAnswer>(value, false).map(drop),
        "SearchQuery" => round_trip::<SearchQuery>(value, true).map(drop),
        "SearchAnswer" => round_trip::<SearchAnswer>(value, false).map(drop),
        "RatingHistory" => round_trip::<RatingHistory>(value, false).map(drop),
        "Leaderboard" => round_trip::<Leaderboard>(value, false).map(drop),
        "TournamentRatings" => round_trip::<TournamentRatings>(value, false).map(drop),
        "GameSummary" => round_trip::<GameSummary>(value, false).map(drop),
        "TournamentFrame" => match round_trip::<TournamentFrame>(value, false) {
            Ok(frame) => {
                let name = tournament_type(&frame.message);
                if value.get("t").and_then(Value::as_str) != Some(name) {
                    Err(format!("\"t\" does not read as {name:?}"))
                } else if frame.v.is_some()
                    != !matches!(
                        frame.message,
                        TournamentMessage::Reply(
                            TournamentReply::Board(_)
                                | TournamentReply::Boards(_)
                                | TournamentReply::Presence(_)
                                | TournamentReply::Pong(_)
                                | TournamentReply::Error(_)
                        )
                    )
                {
                    Err(format!("{name:?}: only events and state carry \"v\""))
                } else {
                    report.tournament_types.insert(name);
                    Ok(())
                }
            }
            Err(e) => Err(e),
        },
        "LobbyFrame" => match round_trip::<LobbyFrame>(value, false) {
            Ok(frame) => {
                let name = lobby_type(&frame);
                if value.get("t").and_then(Value::as_str) != Some(name) {
                    Err(format!("\"t\" does not read as {name:?}"))
                } else if value.get("v").is_some() {
                    Err(format!("{name:?}: no lobby message carries \"v\""))
                } else {
                    report.lobby_types.insert(name);
                    Ok(())
                }
            }
            Err(e) => Err(e),
        },
        _ => return false,
    };
    if let Err(e) = result {
        report.problem(line, value, format!("{tag} {e}"));
    }
    true
}

/// A `refused` block: each client frame, then the error the decoder answers it with.
fn check_refused(report: &mut Report, values: &[(usize, Value)]) {
    if values.len() % 2 != 0 {
        let (line, value) = &values[values.len() - 1];
        return report.problem(
            *line,
            value,
            "a refused block holds pairs: a frame, then its error",
        );
    }
    for pair in values.chunks(2) {
        let ((line, sent), (error_line, answer)) = (&pair[0], &pair[1]);
        let refusal = match decode(&sent.to_string()) {
            Ok(request) => {
                report.problem(
                    *line,
                    sent,
                    format!("is not refused: it decodes as {request:?}"),
                );
                continue;
            }
            Err(refusal) => refusal,
        };
        let expected = Frame::error(refusal.id, refusal.code, refusal.message);
        match round_trip::<Frame>(answer, false) {
            Ok(frame) if frame == expected => {
                report.server_types.insert("error");
            }
            Ok(_) => report.problem(
                *error_line,
                answer,
                format!(
                    "the server answers {}",
                    serde_json::to_string(&expected).unwrap_or_default()
                ),
            ),
            Err(e) => report.problem(*error_line, answer, format!("the error {e}")),
        }
    }
}

fn check_examples() -> Report {
    let mut report = Report::default();
    let json_blocks: Vec<Block> = blocks(DOC)
        .into_iter()
        .filter(|b| b.info == "json" || b.info.starts_with("json "))
        .collect();
    assert!(
        json_blocks.len() > 10,
        "docs/protocol.md has only {} json blocks",
        json_blocks.len()
    );
    for block in &json_blocks {
        let tag = block.info["json".len()..].trim();
        if tag == "(abbreviated)" {
            continue;
        }
        let values = match values(block) {
            Ok(values) if values.is_empty() => {
                report.problems.push(format!(
                    "docs/protocol.md line {}: an empty block",
                    block.line
                ));
                continue;
            }
            Ok(values) => values,
            Err(e) => {
                report.problems.push(format!("docs/protocol.md {e}"));
                continue;
            }
        };
        if tag == "refused" {
            check_refused(&mut report, &values);
            continue;
        }
        for (line, value) in &values {
            if tag.is_empty() {
                check_socket_message(&mut report, *line, value);
            } else if !check_typed(&mut report, tag, *line, value) {
                report.problem(
                    *line,
                    value,
                    format!("```json {tag}: no such type to check"),
                );
                break;
            }
        }
    }
    report
}

#[test]
fn every_example_reads_as_its_type_and_writes_back_the_same() {
    let report = check_examples();
    assert!(
        report.problems.is_empty(),
        "{} example(s) of docs/protocol.md disagree with the protocol's types:\n{}",
        report.problems.len(),
        report.problems.join("\n")
    );
}

#[test]
fn every_message_type_has_a_checked_example() {
    let report = check_examples();
    let missing_client: Vec<&str> = ClientMessage::TYPES
        .into_iter()
        .filter(|t| !report.client_types.contains(*t))
        .collect();
    let missing_server: Vec<&str> = SERVER_TYPES
        .into_iter()
        .filter(|t| !report.server_types.contains(t))
        .collect();
    assert!(
        missing_client.is_empty() && missing_server.is_empty(),
        "docs/protocol.md has no checked example of the client message(s) {missing_client:?} \
         nor of the server message(s) {missing_server:?}"
    );
    let missing_tournament: Vec<&str> = TOURNAMENT_TYPES
        .into_iter()
        .filter(|t| !report.tournament_types.contains(t))
        .collect();
    assert!(
        missing_tournament.is_empty(),
        "docs/protocol.md has no checked example of the tournament socket's {missing_tournament:?}"
    );
    let missing_lobby: Vec<&str> = LOBBY_TYPES
        .into_iter()
        .filter(|t| !report.lobby_types.contains(t))
        .collect();
    assert!(
        missing_lobby.is_empty(),
        "docs/protocol.md has no checked example of the lobby socket's {missing_lobby:?}"
    );
    // Each name is in the prose as `t`, too (`played`, `ping`).
    for name in ClientMessage::TYPES.into_iter().chain(SERVER_TYPES) {
        assert!(
            DOC.contains(&format!("\"t\":\"{name}\"")),
            "docs/protocol.md never shows a message with \"t\":\"{name}\""
        );
    }
}

fn code_named(name: &str) -> Option<ErrorCode> {
    serde_json::from_value(Value::String(name.to_owned())).ok()
}

/// The rows of the table under `## Error codes`: (line, code cell, status cell).
fn error_table() -> Vec<(usize, String, String)> {
    let lines: Vec<&str> = DOC.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.trim() == "## Error codes")
        .expect("docs/protocol.md has a section \"## Error codes\"");
    let mut rows = Vec::new();
    let mut in_table = false;
    for (i, line) in lines.iter().enumerate().skip(start + 1) {
        if line.starts_with("## ") {
            break;
        }
        if !line.starts_with('|') {
            if in_table {
                break;
            }
            continue;
        }
        in_table = true;
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        if cells.len() < 3 {
            rows.push((i + 1, (*line).to_owned(), String::new()));
            continue;
        }
        if cells[0] == "code" || cells[0].starts_with("---") {
            continue;
        }
        rows.push((i + 1, cells[0].to_owned(), cells[1].to_owned()));
    }
    rows
}

#[test]
fn the_error_table_lists_every_code_once_with_its_status() {
    let mut problems = Vec::new();
    let mut listed: BTreeMap<&'static str, usize> = BTreeMap::new();
    for (line, code_cell, status_cell) in error_table() {
        let name = code_cell.trim_matches('`');
        let Some(code) = code_named(name) else {
            problems.push(format!(
                "line {line}: {code_cell} is not an error code (one code per row, in backticks)"
            ));
            continue;
        };
        if let Some(first) = listed.insert(code.as_str(), line) {
            problems.push(format!(
                "line {line}: {code} is listed twice (line {first} too)"
            ));
        }
        let status = code.status().as_u16();
        if status_cell != status.to_string() {
            problems.push(format!(
                "line {line}: {code} has the status {status}, not {status_cell:?}"
            ));
        }
    }
    for code in ErrorCode::ALL {
        if !listed.contains_key(code.as_str()) {
            problems.push(format!(
                "{code} ({}) is missing from the error table",
                code.status().as_u16()
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "docs/protocol.md, \"Error codes\":\n{}",
        problems.join("\n")
    );
}

#[test]
fn a_status_written_with_a_code_is_the_codes() {
    let mut problems = Vec::new();
    let mut in_block = false;
    for (i, line) in DOC.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
            continue;
        }
        if in_block {
            continue;
        }
        // The spans between backticks: `413 too_large`.
        for span in line.split('`').skip(1).step_by(2) {
            let Some((status, name)) = span.split_once(' ') else {
                continue;
            };
            let is_status = status.len() == 3 && status.bytes().all(|b| b.is_ascii_digit());
            let is_name =
                !name.is_empty() && name.bytes().all(|b| b.is_ascii_lowercase() || b == b'_');
            if !is_status || !is_name {
                continue;
            }
            match code_named(name) {
                Some(code) if code.status().as_u16().to_string() == status => {}
                Some(code) => problems.push(format!(
                    "line {}: `{span}`: {code} has the status {}",
                    i + 1,
                    code.status().as_u16()
                )),
                None => problems.push(format!("line {}: `{span}`: no such code", i + 1)),
            }
        }
    }
    assert!(
        problems.is_empty(),
        "docs/protocol.md:\n{}",
        problems.join("\n")
    );
}
