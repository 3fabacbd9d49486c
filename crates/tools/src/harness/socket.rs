//! A game's socket as the load tools' players hold it: the stream, the send times of
//! actions waiting for their events, how a player's game ended, the HTTP calls with their
//! retries, and the socket's settings (no Nagle delay, quick ACKs).

use super::stats::Ctx;
use futures_util::StreamExt;
use omweso_protocol::Snapshot;
use serde_json::Value;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

pub(crate) type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// A game where nothing arrives for this long although a move is due has stalled.
pub(crate) const STALL: Duration = Duration::from_secs(20);

/// The same in a game against the computer.
pub(crate) const BOT_STALL: Duration = Duration::from_secs(300);

/// How long to wait before resending an action refused with `rate_limited`.
pub(crate) const RATE_LIMIT_BACKOFF: Duration = Duration::from_millis(60);

/// An open socket and the first message it got (the `state`).
pub(crate) struct Socket {
    pub(crate) ws: Ws,
    pub(crate) _counted: Counted,
    pub(crate) first: Box<Snapshot>,
}

/// How a socket's task ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Exit {
    /// The game ended.
    Ended,
    /// The run is over.
    Stopped,
    /// The game was given up (another of its sockets failed).
    Aborted,
    /// The server closed the socket, or it failed.
    Dropped,
    /// Nothing came for [`STALL`] though a move was due.
    Stalled,
}

/// Send times of a game's actions, by the version their `played` event will have.
#[derive(Default)]
pub(crate) struct Sent(pub(crate) Mutex<Vec<(u64, Instant)>>);

impl Sent {
    pub(crate) fn put(&self, version: u64, at: Instant) {
        if let Ok(mut s) = self.0.lock() {
            s.retain(|&(v, _)| v != version);
            s.push((version, at));
        }
    }

    /// The send time of the action whose event has `version`; older entries are dropped.
    pub(crate) fn take(&self, version: u64) -> Option<Instant> {
        let mut s = self.0.lock().ok()?;
        let found = s.iter().find(|&&(v, _)| v == version).map(|&(_, at)| at);
        s.retain(|&(v, _)| v > version);
        found
    }

    pub(crate) fn forget(&self, version: u64) {
        if let Ok(mut s) = self.0.lock() {
            s.retain(|&(v, _)| v != version);
        }
    }
}

/// One HTTP call; a refusal is counted by its status and code.
pub(crate) async fn http(
    ctx: &Ctx,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> Result<Value, String> {
    let url = format!("{}{path}", ctx.base);
    let mut request = match method {
        "GET" => ctx.http.get(url),
        _ => ctx.http.post(url),
    };
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.map_err(|e| {
        ctx.stats.error("http_failed");
        format!("{method} {path}: {e}")
    })?;
    let status = response.status();
    let value: Value = response.json().await.unwrap_or(Value::Null);
    if !status.is_success() {
        let code = value["error"]["code"].as_str().unwrap_or("no_code");
        ctx.stats.error(&format!("http_{}_{code}", status.as_u16()));
        return Err(format!("{method} {path}: {status} {value}"));
    }
    Ok(value)
}

/// The clients' socket settings: tungstenite's default read buffer is 128 KiB, all of it
/// touched on every read; the server's messages are a few KiB at most (the buffer grows for
/// a larger one).
pub(crate) fn client_config() -> WebSocketConfig {
    WebSocketConfig::default()
        .read_buffer_size(4 * 1024)
        .write_buffer_size(0)
}

/// Asks the kernel to ACK what arrives on this socket at once rather than delaying the ACK
/// (it falls back to delayed ACKs by itself, so this is repeated after every read).
pub(crate) fn quickack(ws: &Ws) {
    #[cfg(target_os = "linux")]
    if let MaybeTlsStream::Plain(tcp) = ws.get_ref() {
        use std::os::fd::AsRawFd;
        let one: libc::c_int = 1;
        // SAFETY: setsockopt reads an int from a valid pointer; the fd is the open socket.
        unsafe {
            libc::setsockopt(
                tcp.as_raw_fd(),
                libc::IPPROTO_TCP,
                libc::TCP_QUICKACK,
                std::ptr::from_ref(&one).cast(),
                std::mem::size_of::<libc::c_int>() as libc::socklen_t,
            );
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = ws;
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

/// Counts an open socket until dropped.
pub(crate) struct Counted(Arc<Ctx>);

impl Counted {
    pub(crate) fn new(ctx: &Arc<Ctx>) -> Counted {
        ctx.stats.conn_opened();
        Counted(ctx.clone())
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        self.0.stats.conn_closed();
    }
}
