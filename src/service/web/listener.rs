//! The accept loop: what the server takes on and what it sheds.
//!
//! - A request's head must arrive within the header-read timeout (10 s by
//!   default); hyper starts that timer as soon as a connection waits for a
//!   request, so it also closes a connection idle between keep-alive
//!   requests, and one that never sends anything.
//! - A request must be answered (its body read included) within
//!   [`Limits::request_timeout`], else 408 and the connection closes.
//! - A connection whose writes stall (a client that stopped reading, an SSE
//!   stream it cannot keep up with) for [`Limits::write_stall`] is closed.
//! - Open connections are capped in total and per client address; beyond
//!   either cap a connection is answered 503 at once and closed.
//! - The soft limit on open descriptors is raised to the hard limit at start.
//! - Each connection's kernel send buffer is fixed at [`SEND_BUFFER`], so
//!   that a client that stops reading holds little before its writes stall.
//! - With TLS (`service::tls`), the handshake must finish within the
//!   header-read timeout; a client that cannot complete it (plain HTTP on
//!   the HTTPS port, a certificate it refuses) is closed, having sent
//!   nothing in clear.

use std::collections::HashMap;
use std::convert::Infallible;
use std::future::Future;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Response, StatusCode};
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio_rustls::TlsAcceptor;
use tower::ServiceExt;

use super::headers::secure;

/// The send buffer each accepted connection gets (Linux doubles it for its
/// own bookkeeping). Left to itself Linux grows a connection's buffer up to
/// 4 MB (`tcp_wmem`) for a client that does not read: that is buffering for
/// it, and 1024 such clients would hold 4 GB. 64 KiB still sends the largest
/// page or voice clip at full speed over a hall's network.
pub const SEND_BUFFER: u32 = 64 * 1024;

/// Binds the server's port, with [`SEND_BUFFER`] for every connection it
/// accepts (they inherit it from the listening socket).
pub fn bind(addr: std::net::SocketAddr) -> std::io::Result<TcpListener> {
    let socket = if addr.is_ipv4() {
        tokio::net::TcpSocket::new_v4()?
    } else {
        tokio::net::TcpSocket::new_v6()?
    };
    // As TcpListener::bind does: a restarted server may bind at once while
    // its old connections linger in TIME_WAIT (a second live listener is
    // still refused).
    socket.set_reuseaddr(true)?;
    socket.set_send_buffer_size(SEND_BUFFER)?;
    socket.bind(addr)?;
    socket.listen(1024)
}

/// What the server takes on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub header_timeout: Duration,
    pub request_timeout: Duration,
    pub write_stall: Duration,
    pub max_connections: usize,
    pub max_per_address: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            header_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(30),
            write_stall: Duration::from_secs(30),
            max_connections: 1024,
            max_per_address: 256,
        }
    }
}

/// Raises the soft limit on open descriptors to the hard limit; returns
/// (before, after).
pub fn raise_descriptor_limit() -> Option<(u64, u64)> {
    #[cfg(unix)]
    {
        let mut lim = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit/setrlimit write and read the struct we pass.
        if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) } != 0 {
            return None;
        }
        let before = lim.rlim_cur;
        if lim.rlim_cur < lim.rlim_max {
            lim.rlim_cur = lim.rlim_max;
            // SAFETY: as above.
            if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &lim) } != 0 {
                return Some((before, before));
            }
        }
        Some((before, lim.rlim_cur))
    }
    #[cfg(not(unix))]
    None
}

/// Counts open connections, in total and per address.
#[derive(Default)]
struct Open {
    total: usize,
    per: HashMap<IpAddr, usize>,
}

struct Slot {
    open: Arc<Mutex<Open>>,
    ip: IpAddr,
}

/// Who is at the other end of a request's connection, put into every
/// request's extensions: its address, and whether the connection is
/// encrypted (HTTPS). The routes decide what a plain-HTTP peer beyond
/// this computer may present (the venue arbiter's token: nothing).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Peer {
    pub ip: IpAddr,
    pub secure: bool,
    /// The connection came when the server was nearly full (the last
    /// eighth of `max_connections`): those slots are held back for requests
    /// that carry a valid token, so a flood of strangers cannot take the
    /// players' last way in.
    pub crowded: bool,
}

/// The address a client is counted by: itself for IPv4, its /64 network
/// for IPv6 (one laptop has many addresses there: privacy addresses,
/// aliases), an IPv4 address mapped into IPv6 as that IPv4 address.
///
/// ```
/// use std::net::IpAddr;
/// use tactus::service::listener::client_key;
///
/// let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
/// let b: IpAddr = "2001:db8:1:2:bbbb::7".parse().unwrap();
/// assert_eq!(client_key(a), client_key(b));
/// let v4: IpAddr = "::ffff:192.168.1.9".parse().unwrap();
/// assert_eq!(client_key(v4), "192.168.1.9".parse::<IpAddr>().unwrap());
/// ```
pub fn client_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6(std::net::Ipv6Addr::from(
                u128::from(v6) & !u128::from(u64::MAX),
            )),
        },
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        open.total -= 1;
        if let Some(n) = open.per.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                open.per.remove(&self.ip);
            }
        }
    }
}

/// Serves `app` on `listener` within `limits` until `shutdown` resolves,
/// over TLS when `tls` is given.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: Limits,
    tls: Option<TlsAcceptor>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let open = Arc::new(Mutex::new(Open::default()));
    let (stop_tx, stop_rx) = watch::channel(false);
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    // Out of descriptors or similar: wait, do not spin.
                    tracing::warn!("accept: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            _ = &mut shutdown => break,
        };
        let ip = client_key(peer.ip());
        let mut crowded = false;
        let slot = {
            let mut o = open.lock().unwrap_or_else(|e| e.into_inner());
            let mine = o.per.get(&ip).copied().unwrap_or(0);
            if o.total >= limits.max_connections || mine >= limits.max_per_address {
                None
            } else {
                crowded = o.total >= limits.max_connections - limits.max_connections / 8;
                o.total += 1;
                *o.per.entry(ip).or_insert(0) += 1;
                Some(Slot {
                    open: open.clone(),
                    ip,
                })
            }
        };
        match slot {
            None => {
                tokio::spawn(refuse(stream));
            }
            Some(slot) => {
                let _ = stream.set_nodelay(true);
                let peer = Peer {
                    ip: peer.ip(),
                    secure: tls.is_some(),
                    crowded,
                };
                tokio::spawn(connection(
                    stream,
                    app.clone(),
                    limits,
                    tls.clone(),
                    stop_rx.clone(),
                    slot,
                    peer,
                ));
            }
        }
    }
    let _ = stop_tx.send(true);
    // Connections finish their requests; live streams are cut after a while.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(2);
    while open.lock().map(|o| o.total).unwrap_or(0) > 0 && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    Ok(())
}

/// Answers 503 to a connection beyond the caps, then closes it.
async fn refuse(mut stream: TcpStream) {
    const BODY: &str = "{\"error\":\"the server is at its connection limit: try again shortly\"}";
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: {}\r\nretry-after: 1\r\nconnection: close\r\n\r\n{BODY}",
        BODY.len()
    );
    let _ = tokio::time::timeout(Duration::from_secs(1), async {
        stream.write_all(answer.as_bytes()).await?;
        stream.shutdown().await?;
        // Read what the client sent, so that closing does not reset the
        // connection before it has read the answer.
        let mut sink = [0u8; 1024];
        loop {
            match tokio::io::AsyncReadExt::read(&mut stream, &mut sink).await {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
        }
        Ok::<_, std::io::Error>(())
    })
    .await;
}

async fn connection(
    stream: TcpStream,
    app: Router,
    limits: Limits,
    tls: Option<TlsAcceptor>,
    stop: watch::Receiver<bool>,
    slot: Slot,
    peer: Peer,
) {
    let stream = Stall::new(stream, limits.write_stall);
    match tls {
        None => http(stream, app, limits, stop, slot, peer).await,
        Some(acceptor) => {
            match tokio::time::timeout(limits.header_timeout, acceptor.accept(stream)).await {
                Ok(Ok(stream)) => http(stream, app, limits, stop, slot, peer).await,
                Ok(Err(e)) => tracing::debug!("TLS handshake: {e}"),
                Err(_) => tracing::debug!("TLS handshake: not complete in time"),
            }
        }
    }
}

/// Serves HTTP/1.1 on one connection (plain, or inside TLS).
async fn http<S>(
    stream: S,
    app: Router,
    limits: Limits,
    mut stop: watch::Receiver<bool>,
    _slot: Slot,
    peer: Peer,
) where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let io = TokioIo::new(stream);
    let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
        let app = app.clone();
        request.extensions_mut().insert(peer);
        async move {
            let mut response = match tokio::time::timeout(
                limits.request_timeout,
                app.oneshot(request.map(Body::new)),
            )
            .await
            {
                Ok(Ok(r)) => r,
                Ok(Err(never)) => match never {},
                Err(_) => timed_out(),
            };
            secure(response.headers_mut());
            Ok::<_, Infallible>(response)
        }
    });
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .keep_alive(true);
    let conn = builder.serve_connection(io, service);
    tokio::pin!(conn);
    let stopping = async move {
        let _ = stop.wait_for(|s| *s).await;
    };
    tokio::select! {
        _ = conn.as_mut() => {}
        () = stopping => {
            conn.as_mut().graceful_shutdown();
            let _ = conn.await;
        }
    }
}

fn timed_out() -> Response<Body> {
    let mut r = Response::new(Body::from(
        "{\"error\":\"the request was not complete in time\"}",
    ));
    *r.status_mut() = StatusCode::REQUEST_TIMEOUT;
    r.headers_mut().insert(
        axum::http::header::CONTENT_TYPE,
        axum::http::HeaderValue::from_static("application/json"),
    );
    r.headers_mut().insert(
        axum::http::header::CONNECTION,
        axum::http::HeaderValue::from_static("close"),
    );
    r
}

/// A stream whose writes fail once they have waited `limit` for the client
/// to read: a client that stops reading cannot hold a connection (and the
/// data queued for it) for ever.
struct Stall {
    inner: TcpStream,
    limit: Duration,
    waiting: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl Stall {
    fn new(inner: TcpStream, limit: Duration) -> Stall {
        Stall {
            inner,
            limit,
            waiting: None,
        }
    }

    fn stalled<T>(
        &mut self,
        cx: &mut Context<'_>,
        poll: Poll<std::io::Result<T>>,
    ) -> Poll<std::io::Result<T>> {
        match poll {
            Poll::Pending => {
                let limit = self.limit;
                let timer = self
                    .waiting
                    .get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
                match timer.as_mut().poll(cx) {
                    Poll::Ready(()) => Poll::Ready(Err(std::io::Error::new(
                        std::io::ErrorKind::TimedOut,
                        "the client stopped reading",
                    ))),
                    Poll::Pending => Poll::Pending,
                }
            }
            ready => {
                self.waiting = None;
                ready
            }
        }
    }
}

impl AsyncRead for Stall {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl AsyncWrite for Stall {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let poll = Pin::new(&mut self.inner).poll_write(cx, buf);
        self.stalled(cx, poll)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        let poll = Pin::new(&mut self.inner).poll_flush(cx);
        self.stalled(cx, poll)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}
