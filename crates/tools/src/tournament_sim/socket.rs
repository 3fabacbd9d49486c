//! The tournament socket from the client's side: opening it (`/ws/tournaments/{id}`, with
//! or without a session), reading its frames cheaply, and the director's feed of versioned
//! events.

use std::time::Duration;

use futures_util::StreamExt;
use serde::Deserialize;
use tokio::net::TcpStream;
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

use crate::harness::socket::client_config;
use omweso_protocol::tournament::{TournamentEvent, TournamentFrame, TournamentMessage};

pub(crate) type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// Handshakes and the first `state` wait at most this long.
const OPEN_TIMEOUT: Duration = Duration::from_secs(30);

/// The few fields a watcher reads of any frame, borrowed from the text. A `board` comes
/// five times a second per table to every watcher, so it is read in one pass into this
/// rather than into the full types; the large events (a whole round, the standings) are
/// skipped over without being built.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct Lite<'a> {
    #[serde(borrow)]
    pub(crate) t: &'a str,
    #[serde(default)]
    pub(crate) v: Option<u64>,
    #[serde(default, borrow)]
    pub(crate) d: LiteData<'a>,
}

/// `board`: `game_id`, `round`, `version`, `status`; `boards`: `boards`, each a board's;
/// `round` event: `number`, `status`.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct LiteData<'a> {
    #[serde(default, borrow)]
    pub(crate) boards: Vec<LiteData<'a>>,
    #[serde(default)]
    pub(crate) game_id: Option<Uuid>,
    #[serde(default)]
    pub(crate) round: Option<u32>,
    #[serde(default)]
    pub(crate) version: Option<u64>,
    #[serde(default)]
    pub(crate) number: Option<u32>,
    #[serde(default, borrow)]
    pub(crate) status: Option<&'a str>,
}

/// A versioned event's type and version, and for a `round` event its number and status,
/// read off the ends of the frame's text without reading its body. The events are large
/// (the whole standings, the whole round: 40 to 80 KB each at 200 players) and every
/// watcher gets three after each game's end; skipping them with serde took half of the
/// simulator's CPU, which the server then had to share. This reads the layout the server's
/// own types write (`{"t":..,"d":{..},"v":N}`, a round's `number` and `status` first); any
/// other text answers `None`, for the caller to parse it properly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Head<'a> {
    pub(crate) t: &'a str,
    pub(crate) v: u64,
    pub(crate) round: Option<(u32, &'a str)>,
}

pub(crate) fn head(text: &str) -> Option<Head<'_>> {
    let rest = text.strip_prefix(r#"{"t":""#)?;
    let (t, rest) = rest.split_once('"')?;
    if matches!(t, "board" | "boards" | "presence" | "pong" | "error") {
        // Unversioned: no need to look for a version from the end of each board.
        return None;
    }
    // `"v":` with an unescaped quote cannot be inside a string, and only the frame's own
    // last field is followed by nothing but digits and the closing brace.
    let body = text.strip_suffix('}')?;
    let at = body.rfind(r#","v":"#)?;
    let v = body[at + 5..].parse().ok()?;
    let round = if t == "round" {
        let rest = rest.strip_prefix(r#","d":{"number":"#)?;
        let (number, rest) = rest.split_once(',')?;
        let (status, _) = rest.strip_prefix(r#""status":""#)?.split_once('"')?;
        Some((number.parse().ok()?, status))
    } else {
        None
    };
    Some(Head { t, v, round })
}

/// A board's game, round and version, read off its text: a table's board five times a
/// second to every watcher, the bulk of what the simulator reads. The server writes
/// `game_id` second and `round`, `version`, `status` last; any other text answers `None`,
/// for the caller to parse it properly.
pub(crate) fn board(text: &str) -> Option<(Uuid, u32, u64)> {
    let inner = text
        .strip_prefix(r#"{"t":"board","d":{"table":"#)?
        .strip_suffix("}}")?;
    board_fields(inner)
}

/// The game, round and version of every board of a `boards` message, in its order, read
/// off its text as [`board`] reads one; `None` for any other text.
pub(crate) fn boards(text: &str) -> Option<Vec<(Uuid, u32, u64)>> {
    let list = text
        .strip_prefix(r#"{"t":"boards","d":{"boards":[{"table":"#)?
        .strip_suffix("}]}}")?;
    // Between two boards, and nowhere inside one (no object in a board has a `table`
    // first, and a quote inside a string is escaped).
    list.split(r#"},{"table":"#).map(board_fields).collect()
}

/// One board's fields between its `{"table":` and its closing brace.
fn board_fields(inner: &str) -> Option<(Uuid, u32, u64)> {
    let (_, rest) = inner.split_once(r#","game_id":""#)?;
    let game = Uuid::try_parse(rest.get(..36)?).ok()?;
    // A quote inside a string is escaped, so these keys are found only as keys; the last
    // of each is the board's own (an outcome, before them, has no such field).
    let body = inner.strip_suffix('"')?;
    let (body, _status) = body.rsplit_once(r#","status":""#)?;
    let (body, version) = body.rsplit_once(r#","version":"#)?;
    let (_, round) = body.rsplit_once(r#","round":"#)?;
    Some((game, round.parse().ok()?, version.parse().ok()?))
}

/// Opens the tournament's socket (as the session of `token`, else anonymously) and waits
/// for its `state`; answers the socket and the state's version.
pub(crate) async fn open(
    base: &str,
    tournament: Uuid,
    token: Option<&str>,
) -> Result<(Ws, u64), String> {
    let host = base.strip_prefix("http://").unwrap_or(base);
    let url = match token {
        Some(token) => format!("ws://{host}/ws/tournaments/{tournament}?token={token}"),
        None => format!("ws://{host}/ws/tournaments/{tournament}"),
    };
    let (mut ws, _) = tokio::time::timeout(
        OPEN_TIMEOUT,
        tokio_tungstenite::connect_async_with_config(url, Some(client_config()), true),
    )
    .await
    .map_err(|_| "the tournament socket's handshake timed out".to_owned())?
    .map_err(|e| format!("tournament socket: {e}"))?;
    let deadline = tokio::time::Instant::now() + OPEN_TIMEOUT;
    loop {
        let frame = tokio::time::timeout_at(deadline, ws.next())
            .await
            .map_err(|_| "no state on the tournament socket within 30 s".to_owned())?;
        match frame {
            Some(Ok(Message::Text(text))) => {
                let lite: Lite = serde_json::from_str(text.as_str())
                    .map_err(|e| format!("an unreadable message: {e}"))?;
                match (lite.t, lite.v) {
                    ("state", Some(v)) => return Ok((ws, v)),
                    ("error", _) => return Err(format!("the socket was refused: {text}")),
                    _ => {}
                }
            }
            Some(Ok(Message::Close(frame))) => {
                return Err(format!("the server closed the socket: {frame:?}"))
            }
            Some(Ok(_)) => {}
            Some(Err(e)) => return Err(format!("tournament socket: {e}")),
            None => return Err("the socket closed before its state".into()),
        }
    }
}

/// Waits for the close handshake briefly, so the server sees a clean close.
pub(crate) async fn close(ws: &mut Ws) {
    let _ = tokio::time::timeout(Duration::from_secs(2), async {
        if ws.close(None).await.is_ok() {
            while let Some(Ok(_)) = ws.next().await {}
        }
    })
    .await;
}

/// What the director's socket tells the director.
#[derive(Debug)]
pub(crate) enum Feed {
    Event(Box<TournamentEvent>),
    /// Something wrong with the stream (a version gap, an unreadable event, an error):
    /// a protocol error.
    Fault(String),
    /// The socket closed or failed.
    Closed(String),
}

/// Reads the director's socket until `stop`: every versioned event, in order, is passed
/// on (the channel is bounded: a director that does not read holds the socket back);
/// `board` messages are skipped.
pub(crate) async fn feed(
    mut ws: Ws,
    mut version: u64,
    tx: mpsc::Sender<Feed>,
    stop: CancellationToken,
) {
    loop {
        let frame = tokio::select! {
            () = stop.cancelled() => break,
            frame = ws.next() => frame,
        };
        let item = match frame {
            Some(Ok(Message::Text(text))) => match serde_json::from_str::<Lite>(text.as_str()) {
                Ok(lite) if matches!(lite.t, "board" | "boards" | "presence" | "pong") => continue,
                Ok(lite) if lite.t == "error" => Feed::Fault(format!("an error frame: {text}")),
                Ok(lite) => match lite.v {
                    Some(v) if v != version + 1 => {
                        let fault = format!("event {v} came after {version}");
                        version = v;
                        Feed::Fault(fault)
                    }
                    Some(v) => {
                        version = v;
                        match serde_json::from_str::<TournamentFrame>(text.as_str()) {
                            Ok(TournamentFrame {
                                message: TournamentMessage::Event(event),
                                ..
                            }) => Feed::Event(Box::new(event)),
                            Ok(_) => continue,
                            Err(e) => Feed::Fault(format!("an unreadable event ({e}): {text}")),
                        }
                    }
                    None => continue,
                },
                Err(e) => Feed::Fault(format!("an unreadable message ({e}): {text}")),
            },
            Some(Ok(Message::Close(frame))) => Feed::Closed(format!(
                "the server closed the director's socket: {frame:?}"
            )),
            Some(Err(e)) => Feed::Closed(format!("the director's socket failed: {e}")),
            None => Feed::Closed("the director's socket closed".into()),
            Some(Ok(_)) => continue,
        };
        let closed = matches!(item, Feed::Closed(_));
        // Once the run is over nobody reads the channel: a full one must not hold the
        // task (and the run's end, which waits for it) forever.
        let passed = tokio::select! {
            sent = tx.send(item) => sent.is_ok(),
            () = stop.cancelled() => false,
        };
        if closed {
            return;
        }
        if !passed {
            break;
        }
    }
    close(&mut ws).await;
}

#[cfg(test)]
mod tests {
    use super::*;
    use omweso_protocol::tournament::{
        BoardView, RoundStatus, RoundView, StatusChanged, TournamentStatus,
    };

    #[test]
    fn the_head_of_the_servers_own_frames() {
        let round = RoundView {
            number: 3,
            status: RoundStatus::Finished,
            deadline: Some(1),
            pairings: Vec::new(),
            manual: false,
            breaches: Vec::new(),
            started_at: None,
            closing: false,
            ended_by_director: false,
        };
        let text = TournamentFrame::event(41, TournamentEvent::Round(round)).to_text();
        assert_eq!(
            head(&text),
            Some(Head {
                t: "round",
                v: 41,
                round: Some((3, "finished"))
            }),
            "{text}"
        );
        let status = TournamentEvent::Status(StatusChanged {
            status: TournamentStatus::Running,
        });
        let text = TournamentFrame::event(7, status).to_text();
        assert_eq!(
            head(&text),
            Some(Head {
                t: "status",
                v: 7,
                round: None
            })
        );
        let board = BoardView {
            table: 12,
            game_id: Uuid::now_v7(),
            position: Some("2222222222222222/0000000000000000".into()),
            to_move: Some(omweso_rules::Side::North),
            last_move: Some("E1".into()),
            clock: omweso_protocol::ClockView::default(),
            outcome: None,
            round: 4,
            version: 57,
            status: omweso_protocol::Status::Playing,
        };
        let text = TournamentFrame::board(board.clone()).to_text();
        assert_eq!(super::board(&text), Some((board.game_id, 4, 57)), "{text}");
        assert_eq!(head(&text), None);
        assert_eq!(super::board(r#"{"t":"board","d":{"table":1}}"#), None);
        let mut other = board.clone();
        other.table = 13;
        other.game_id = Uuid::now_v7();
        other.version = 9;
        other.outcome = Some(omweso_rules::Outcome::Win {
            winner: omweso_rules::Side::South,
            victory: omweso_rules::Victory::Resigned,
        });
        other.status = omweso_protocol::Status::Finished;
        let text = TournamentFrame::live_boards(vec![other.clone(), board.clone()])
            .unwrap()
            .to_text();
        assert_eq!(
            super::boards(&text),
            Some(vec![(board.game_id, 4, 57), (other.game_id, 4, 9)]),
            "{text}"
        );
        assert_eq!(head(&text), None);
        assert_eq!(super::board(&text), None);
        assert_eq!(
            super::boards(r#"{"t":"boards","d":{"boards":[{"table":1}]}}"#),
            None
        );
        // The full parse reads the same.
        let lite: Lite = serde_json::from_str(&text).unwrap();
        assert_eq!(lite.t, "boards");
        assert_eq!(lite.d.boards[1].version, Some(9));
        // Not a versioned frame, or not the server's layout: left to the full parse.
        assert_eq!(head(r#"{"t":"pong","d":{}}"#), None);
        assert_eq!(
            head(r#"{"t":"status","v":7,"d":{"status":"running"}}"#),
            None
        );
        assert_eq!(head(r#"{"t":"x","d":{"name":","v":3"}}"#), None);
    }
}
