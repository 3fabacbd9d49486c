//! A connection whose client reads nothing of an answer is closed after a while
//! (`http_write_stall_seconds`, docs/security.md).
//!
//! hyper's timers cover reading a request's head, not writing its answer: a client that
//! asked for a long download (an export of thousands of games) and read none of it held
//! its connection, and what made the answer (the export's place, its replays), for as long
//! as it liked (issue 41, finding 12). Here a write that has made no progress for the
//! limit fails with `TimedOut`, which ends the connection and drops the answer's body.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// A stream whose writes fail once one has waited `limit` without progress.
pub struct WriteStall<S> {
    stream: S,
    limit: Duration,
    /// Since the first write that found the client's buffer full, until one goes through.
    waiting: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl<S> WriteStall<S> {
    pub fn new(stream: S, limit: Duration) -> WriteStall<S> {
        WriteStall {
            stream,
            limit,
            waiting: None,
        }
    }

    /// `written` is what the stream's write returned: progress clears the clock; a write
    /// still pending starts it, or fails once it has run out.
    fn check<T>(
        &mut self,
        cx: &mut Context<'_>,
        written: Poll<io::Result<T>>,
    ) -> Poll<io::Result<T>> {
        if written.is_ready() {
            self.waiting = None;
            return written;
        }
        let limit = self.limit;
        let waiting = self
            .waiting
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
        match waiting.as_mut().poll(cx) {
            Poll::Ready(()) => {
                self.waiting = None;
                crate::metrics::count(&crate::metrics::METRICS.http_write_stalls);
                Poll::Ready(Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    "the client read nothing of the answer for too long",
                )))
            }
            Poll::Pending => Poll::Pending,
        }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for WriteStall<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for WriteStall<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        let written = Pin::new(&mut this.stream).poll_write(cx, buf);
        this.check(cx, written)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = &mut *self;
        let flushed = Pin::new(&mut this.stream).poll_flush(cx);
        this.check(cx, flushed)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        let written = Pin::new(&mut this.stream).poll_write_vectored(cx, bufs);
        this.check(cx, written)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    /// A reader that takes nothing: the writer fills the pipe's 64 bytes, then its next
    /// write waits; at 30 s it fails. A reader that takes a little in time keeps the
    /// writer going.
    #[tokio::test(start_paused = true)]
    async fn a_write_nobody_reads_fails_at_the_limit_and_progress_resets_the_clock() {
        let (near, mut far) = tokio::io::duplex(64);
        let mut stalled = WriteStall::new(near, Duration::from_secs(30));
        stalled.write_all(&[1; 64]).await.unwrap();
        let started = tokio::time::Instant::now();
        let error = stalled.write_all(&[2; 8]).await.unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::TimedOut);
        assert_eq!(started.elapsed(), Duration::from_secs(30));

        // 29 s of waiting, then the reader takes 8 bytes: the write goes through, and the
        // next wait starts from nothing.
        let mut sink = [0u8; 8];
        let reader = tokio::spawn(async move {
            tokio::time::sleep(Duration::from_secs(29)).await;
            far.read_exact(&mut sink).await.unwrap();
            tokio::time::sleep(Duration::from_secs(29)).await;
            far.read_exact(&mut sink).await.unwrap();
            far
        });
        let started = tokio::time::Instant::now();
        stalled.write_all(&[3; 8]).await.unwrap();
        stalled.write_all(&[4; 8]).await.unwrap();
        assert_eq!(started.elapsed(), Duration::from_secs(58));
        drop(reader.await.unwrap());
    }
}
