//! The transport of every socket: the writer drains the connection's bounded queue (fed by
//! its room's task) in batched flushes and pings to measure latency for the referee; the
//! ping-only reader serves the sockets that take nothing else (tournament, lobby); a
//! kind's own reader (`socket::game`) uses the rate limit and the close codes here.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes};
use futures_util::{SinkExt, StreamExt};
use tokio::sync::mpsc;
// tokio's clock is the system's in the server; in tests it can be paused and advanced, so
// the rate limit and the ping round trips are exact there.
use tokio::time::Instant;

use crate::metrics::{count, METRICS};
use crate::room::Outgoing;
use omweso_protocol::{self, ErrorCode, MAX_FRAME_BYTES};

/// Frames larger than this are refused by the WebSocket layer itself; up to it, the
/// server reads the frame and answers `too_large` past [`MAX_FRAME_BYTES`].
pub(crate) const HARD_FRAME_LIMIT: usize = 4 * MAX_FRAME_BYTES;
/// The socket's read buffer (see `upgrade::open`).
pub(crate) const READ_BUFFER: usize = 4 * 1024;

/// The close reason of a socket whose session was signed out or replaced.
pub(crate) const SIGNED_OUT: &str = "the session was signed out";

/// How a socket is run.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Settings {
    /// Client messages (and pongs) a second, bursts of twice as many.
    pub(crate) rate: u32,
    pub(crate) ping_every: Duration,
    pub(crate) write_timeout: Duration,
}

pub(crate) use super::rate::RateLimit;

/// Pings the writer sent and the reader has not seen answered. A pong counts only if it
/// echoes the nonce of a ping the server sent (a made-up pong cannot buy the referee's
/// latency allowance), and a socket that leaves [`MISSED_PINGS`] pings in a row
/// unanswered is dropped (it no longer reads, so its player is not really there).
#[derive(Debug, Default)]
pub(crate) struct Pings {
    outstanding: VecDeque<(u64, Instant)>,
}

/// Unanswered pings after which a socket is dropped.
const MISSED_PINGS: usize = 3;

impl Pings {
    /// Records a new ping; `None` when [`MISSED_PINGS`] are already unanswered.
    fn send(&mut self) -> Option<u64> {
        if self.outstanding.len() >= MISSED_PINGS {
            return None;
        }
        let nonce = rand::random::<u64>();
        self.outstanding.push_back((nonce, Instant::now()));
        Some(nonce)
    }

    /// The round trip of the ping `payload` answers (it, and any older ping, count as
    /// answered: a client may answer only the newest); `None` for a pong of no ping of ours.
    pub(crate) fn answer(&mut self, payload: &[u8]) -> Option<Duration> {
        let nonce = u64::from_be_bytes(payload.try_into().ok()?);
        let at = self.outstanding.iter().position(|(n, _)| *n == nonce)?;
        let sent = self.outstanding[at].1;
        self.outstanding.drain(..=at);
        Some(sent.elapsed())
    }
}

/// What the reader asks the writer to send.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Local {
    Text(String),
    /// The client closed: finish the closing handshake (the close frame is echoed).
    EchoClose,
    /// The client broke the protocol: close with this code.
    Close(u16, &'static str),
}

/// What a socket that only takes `ping` answers (the tournament's, the lobby's): each
/// writes its own frame type.
pub(crate) struct PingOnly {
    pub(crate) pong: fn() -> String,
    pub(crate) refuse: fn(ErrorCode, String) -> String,
    /// Why anything but `ping` is refused.
    pub(crate) only_ping: &'static str,
}

/// Reads the frames of a socket that only takes `ping`: it is answered, anything else
/// refused saying why, every frame (pongs too) within the message rate.
pub(crate) async fn read_pings<S>(
    stream: &mut S,
    local: &mpsc::Sender<Local>,
    pings: &Mutex<Pings>,
    rate: u32,
    answers: &PingOnly,
) where
    S: futures_util::Stream<Item = Result<Message, axum::Error>> + Unpin,
{
    let mut limit = RateLimit::new(rate);
    while let Some(frame) = stream.next().await {
        let text = match frame {
            Ok(Message::Text(text)) => text,
            Ok(Message::Binary(_)) => {
                let refusal = (answers.refuse)(
                    ErrorCode::BadMessage,
                    "messages are JSON text frames".into(),
                );
                let _ = local.try_send(Local::Text(refusal));
                continue;
            }
            Ok(Message::Pong(payload)) => {
                if limit.allow() {
                    let _ = pings.lock().ok().and_then(|mut p| p.answer(&payload));
                }
                continue;
            }
            Ok(Message::Ping(_)) => continue,
            Ok(Message::Close(_)) => {
                let _ = local.try_send(Local::EchoClose);
                break;
            }
            Err(error) => {
                let (code, reason) = protocol_error_close(error);
                let _ = local.try_send(Local::Close(code, reason));
                break;
            }
        };
        let answer = if !limit.allow() {
            (answers.refuse)(
                ErrorCode::RateLimited,
                "too many messages; slow down".into(),
            )
        } else {
            match omweso_protocol::decode(text.as_str()) {
                Ok(request)
                    if matches!(request.message, omweso_protocol::ClientMessage::Ping(_)) =>
                {
                    (answers.pong)()
                }
                Ok(_) => (answers.refuse)(ErrorCode::UnknownType, answers.only_ping.into()),
                Err(e) => (answers.refuse)(e.code, e.message),
            }
        };
        let _ = local.try_send(Local::Text(answer));
    }
}

/// The close code RFC 6455 gives a broken frame: 1009 too big, 1007 not UTF-8, 1002 any
/// other protocol error.
pub(crate) fn protocol_error_close(error: axum::Error) -> (u16, &'static str) {
    let inner = error.into_inner();
    match inner.downcast_ref::<tungstenite::Error>() {
        Some(tungstenite::Error::Capacity(_)) => (1009, "the frame is too large"),
        Some(tungstenite::Error::Utf8(_)) => (1007, "a text frame must be UTF-8"),
        _ => (1002, "the frame breaks the WebSocket protocol"),
    }
}

pub(crate) fn close(code: u16, reason: &'static str) -> Message {
    Message::Close(Some(CloseFrame {
        code,
        reason: Utf8Bytes::from_static(reason),
    }))
}

/// Why the writer stopped.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Stop {
    /// The socket is done (closed, or a write failed).
    Done,
    /// A write did not complete in time: the client does not read.
    TimedOut,
}

/// Writes what the game and the reader queue for this connection, and pings, until the
/// socket is done; returns why it stopped. Generic over the sink, like [`read`].
pub(crate) async fn write<K>(
    mut sink: K,
    mut from_game: mpsc::Receiver<Outgoing>,
    mut local: mpsc::Receiver<Local>,
    pings: Arc<Mutex<Pings>>,
    settings: Settings,
) -> Stop
where
    K: futures_util::Sink<Message> + Unpin,
{
    let mut ping = tokio::time::interval(settings.ping_every);
    ping.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    // The first tick is at once: the first ping goes out with the first messages.
    let timeout = settings.write_timeout;
    let stop = loop {
        let first = tokio::select! {
            // The reader's own messages first: its echo of a client's close is queued
            // before the game lets go of this connection, and must win that race.
            biased;
            text = local.recv() => match text {
                Some(Local::Text(text)) => Some(Outgoing::Text(text.into())),
                Some(Local::EchoClose) => {
                    // tungstenite queued the echo when the close arrived; closing the sink
                    // flushes it.
                    let _ = tokio::time::timeout(timeout, sink.close()).await;
                    break Stop::Done;
                }
                Some(Local::Close(code, reason)) => Some(Outgoing::Close(code, reason)),
                None => break Stop::Done,
            },
            outgoing = from_game.recv() => outgoing,
            _ = ping.tick() => {
                let nonce = pings.lock().ok().and_then(|mut p| p.send());
                let Some(nonce) = nonce else {
                    count(&METRICS.dropped_silent_sockets);
                    let _ = tokio::time::timeout(
                        timeout,
                        sink.send(close(1008, "no answer to three pings")),
                    )
                    .await;
                    break Stop::Done;
                };
                let ping = Message::Ping(nonce.to_be_bytes().to_vec().into());
                match tokio::time::timeout(timeout, sink.send(ping)).await {
                    Ok(Ok(())) => continue,
                    Ok(Err(_)) => break Stop::Done,
                    Err(_) => break Stop::TimedOut,
                }
            }
        };
        // Everything already queued goes out in one flush: one write and one TCP segment
        // for an `ack` and its `played`, instead of one each.
        let mut next = first;
        let flushed = loop {
            match next {
                Some(Outgoing::Text(text)) => {
                    // Shared with the game's other sockets: a count goes up, nothing is copied.
                    let message = Message::Text(text);
                    match tokio::time::timeout(timeout, sink.feed(message)).await {
                        Ok(Ok(())) => {}
                        Ok(Err(_)) => break Err(Stop::Done),
                        Err(_) => break Err(Stop::TimedOut),
                    }
                }
                Some(Outgoing::Close(code, reason)) => {
                    let _ = tokio::time::timeout(timeout, sink.send(close(code, reason))).await;
                    break Err(Stop::Done);
                }
                None => {
                    // The game dropped this connection: it could not keep up.
                    let _ = tokio::time::timeout(
                        timeout,
                        sink.send(close(1008, "too slow to keep up; reconnect to resync")),
                    )
                    .await;
                    break Err(Stop::Done);
                }
            }
            next = match from_game.try_recv() {
                Ok(outgoing) => Some(outgoing),
                Err(mpsc::error::TryRecvError::Empty) => break Ok(()),
                Err(mpsc::error::TryRecvError::Disconnected) => None,
            };
        };
        if let Err(stop) = flushed {
            break stop;
        }
        match tokio::time::timeout(timeout, sink.flush()).await {
            Ok(Ok(())) => {}
            Ok(Err(_)) => break Stop::Done,
            Err(_) => break Stop::TimedOut,
        }
    };
    if matches!(stop, Stop::TimedOut) {
        count(&METRICS.dropped_write_timeouts);
    }
    stop
}

#[cfg(test)]
#[path = "connection_tests.rs"]
mod tests;
