//! The accept loop: every TCP connection the server takes, with the limits that keep a
//! client from holding the server's connections or file descriptors (docs/security.md).
//!
//! `axum::serve` sets no header-read timeout and no cap on connections: a client sending
//! half a header, or thousands of idle connections, kept them open forever, and at the
//! process's open-file limit new clients were refused. Here each connection is served by
//! hyper's HTTP/1 with a timer, so that headers must arrive, and a kept-alive connection
//! must send its next request, within `http_idle_seconds`; connections are counted in all
//! and per address, and the count is held by the stream itself, so that a connection
//! upgraded to a WebSocket still counts until it closes.

use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::http::{HeaderMap, Request};
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, OwnedSemaphorePermit, Semaphore};
use tokio_util::task::TaskTracker;

use crate::address::AddressKey;
use crate::http::limits::{Held, Holdings};
use crate::http::write_stall::WriteStall;
use crate::metrics::Limit;

/// The client's address, as a request extension: the TCP peer's, or for a request from a
/// trusted proxy, the address its `X-Forwarded-For` names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientIp(pub IpAddr);

/// The accept loop's settings.
#[derive(Clone, Debug)]
pub struct AcceptLimits {
    pub connections: usize,
    pub connections_per_ip: usize,
    pub idle: Duration,
    /// How long a write may wait on a client that reads nothing before the connection is
    /// closed (`http_write_stall_seconds`).
    pub write_stall: Duration,
    pub trusted_proxies: Arc<[IpAddr]>,
}

/// Open files kept free of connections: the database, its log, the listener, metrics.
const FILES_RESERVED: usize = 64;

impl AcceptLimits {
    /// The connection ceiling, lowered to fit the process's open-file limit (which this
    /// raises to its hard limit first, as servers do).
    #[must_use]
    pub fn fitted_to_open_files(mut self) -> AcceptLimits {
        if let Some(files) = raise_open_file_limit() {
            let fits = files.saturating_sub(FILES_RESERVED).max(1);
            if fits < self.connections {
                tracing::warn!(
                    files,
                    connections = fits,
                    "the open-file limit allows fewer connections than configured"
                );
                self.connections = fits;
            }
        }
        self
    }
}

/// Accepts connections on `listener` and serves `router` on each until `stop` turns true;
/// then asks every connection to finish its request and close. Connection tasks are
/// tracked on `connections`, for shutdown to wait for.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: AcceptLimits,
    mut stop: watch::Receiver<bool>,
    connections: TaskTracker,
) {
    let total = Arc::new(Semaphore::new(limits.connections));
    let per_ip: Holdings<AddressKey> = Holdings::default();
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    // Out of file descriptors or a connection reset before it was taken:
                    // wait a moment rather than spin.
                    tracing::warn!(%error, "accept error");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = stopped(&mut stop) => return,
        };
        let Some(counted) = count(stream, peer, &total, &per_ip, &limits) else {
            continue;
        };
        let router = router.clone();
        let stop = stop.clone();
        let limits = limits.clone();
        connections.spawn(serve_connection(counted, peer, router, limits, stop));
    }
}

/// Counts a new connection, or refuses it (closing it at once) past a ceiling.
fn count(
    stream: TcpStream,
    peer: SocketAddr,
    total: &Arc<Semaphore>,
    per_ip: &Holdings<AddressKey>,
    limits: &AcceptLimits,
) -> Option<Counted> {
    let Ok(permit) = total.clone().try_acquire_owned() else {
        Limit::Connections.refused();
        return None;
    };
    // A trusted proxy carries many clients' connections: it is not held to one client's.
    let peer_ip = peer.ip().to_canonical();
    let held = if limits.trusted_proxies.contains(&peer_ip) {
        None
    } else {
        let key = AddressKey::of(peer_ip);
        let Some(held) = per_ip.try_hold(key, limits.connections_per_ip) else {
            Limit::ConnectionsPerIp.refused();
            return None;
        };
        Some(held)
    };
    // Game messages are small and latency-bound: without TCP_NODELAY, a message written
    // while the previous one waits for its ACK sits out the client's delayed ACK (~40 ms).
    let _ = stream.set_nodelay(true);
    Some(Counted {
        stream: WriteStall::new(stream, limits.write_stall),
        _permit: permit,
        _held: held,
    })
}

async fn serve_connection(
    stream: Counted,
    peer: SocketAddr,
    router: Router,
    limits: AcceptLimits,
    mut stop: watch::Receiver<bool>,
) {
    let trusted = limits.trusted_proxies.clone();
    let service = hyper::service::service_fn(move |mut request: Request<Incoming>| {
        let ip = client_ip(peer.ip(), request.headers(), &trusted);
        request.extensions_mut().insert(ClientIp(ip));
        tower_service::Service::call(&mut router.clone(), request)
    });
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.idle);
    let connection = builder
        .serve_connection(TokioIo::new(stream), service)
        .with_upgrades();
    tokio::pin!(connection);
    let served = tokio::select! {
        served = connection.as_mut() => served,
        () = stopped(&mut stop) => {
            connection.as_mut().graceful_shutdown();
            connection.await
        }
    };
    if served.is_err_and(|error| error.is_timeout()) {
        crate::metrics::count(&crate::metrics::METRICS.http_idle_timeouts);
    }
}

/// Completes once `stop` turns true (or its sender is gone).
async fn stopped(stop: &mut watch::Receiver<bool>) {
    let _ = stop.wait_for(|stop| *stop).await;
}

/// The client's address: the peer's, unless the peer is a trusted proxy; then the last
/// address of `X-Forwarded-For` that is not itself a trusted proxy (the one the nearest
/// untrusted hop connected from: addresses left of it could be forged by the client).
/// Addresses are canonical: an IPv4-mapped IPv6 address (a dual-stack listener's view of
/// an IPv4 client) is its IPv4 address, for the trusted proxies as for the client.
#[must_use]
pub fn client_ip(peer: IpAddr, headers: &HeaderMap, trusted: &[IpAddr]) -> IpAddr {
    let peer = peer.to_canonical();
    if !trusted.contains(&peer) {
        return peer;
    }
    let forwarded = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .map(str::trim)
        .collect::<Vec<_>>();
    forwarded
        .iter()
        .rev()
        .map(|hop| hop.parse::<IpAddr>().map(|ip| ip.to_canonical()))
        .find(|hop| !matches!(hop, Ok(ip) if trusted.contains(ip)))
        .and_then(Result::ok)
        .unwrap_or(peer)
}

/// A TCP stream that holds its places in the connection counts until it is dropped,
/// wherever it goes (hyper hands it to the WebSocket on an upgrade), and fails a write
/// its client has left waiting too long ([`WriteStall`]).
struct Counted {
    stream: WriteStall<TcpStream>,
    _permit: OwnedSemaphorePermit,
    _held: Option<Held<AddressKey>>,
}

impl AsyncRead for Counted {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Counted {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }
}

/// Raises the soft open-file limit to the hard one; returns the limit in force.
fn raise_open_file_limit() -> Option<usize> {
    #[cfg(unix)]
    {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit and setrlimit read and write the struct passed, nothing else.
        unsafe {
            if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
                return None;
            }
            if limit.rlim_cur < limit.rlim_max {
                let raised = libc::rlimit {
                    rlim_cur: limit.rlim_max,
                    rlim_max: limit.rlim_max,
                };
                if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                    limit = raised;
                }
            }
        }
        usize::try_from(limit.rlim_cur).ok()
    }
    #[cfg(not(unix))]
    {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn forwarded(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert("x-forwarded-for", value.parse().unwrap());
        headers
    }

    #[test]
    fn the_client_address_comes_from_a_trusted_proxy_only() {
        let proxy: IpAddr = "10.0.0.2".parse().unwrap();
        let peer: IpAddr = "198.51.100.7".parse().unwrap();
        let trusted = [proxy];
        // An untrusted peer's header is ignored: it could name anyone.
        assert_eq!(client_ip(peer, &forwarded("203.0.113.9"), &trusted), peer);
        // Through the proxy: the address it appended, not one the client put before it.
        assert_eq!(
            client_ip(proxy, &forwarded("1.2.3.4, 203.0.113.9"), &trusted),
            "203.0.113.9".parse::<IpAddr>().unwrap()
        );
        // Through two trusted proxies, the nearest untrusted hop.
        let trusted = [proxy, "10.0.0.3".parse().unwrap()];
        assert_eq!(
            client_ip(proxy, &forwarded("203.0.113.9, 10.0.0.3"), &trusted),
            "203.0.113.9".parse::<IpAddr>().unwrap()
        );
        // No header, or garbage where the client's address should be: the proxy itself.
        assert_eq!(client_ip(proxy, &HeaderMap::new(), &trusted), proxy);
        assert_eq!(client_ip(proxy, &forwarded("nonsense"), &trusted), proxy);
    }
}
