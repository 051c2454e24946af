//! The accept loop: what the server takes on and what it sheds.
//!
//! - A request's head must arrive within the header-read timeout (5 s by
//!   default); hyper starts that timer as soon as a connection waits for a
//!   request, so it also closes a connection idle between keep-alive
//!   requests, and one that never sends anything. A head larger than
//!   [`MAX_HEAD`] is answered 431 and the connection closed.
//! - A request must be answered (its body read included) within
//!   [`Limits::request_timeout`], else 408 and the connection closes.
//! - A connection whose writes stall (a client that stopped reading, an SSE
//!   stream it cannot keep up with) for [`Limits::write_stall`] is closed.
//! - Who holds a slot is the door's ([`super::admission`]): connections
//!   are capped in total, per client address, and per address among those
//!   that have not sent a request yet; at the total the oldest connection
//!   without a known token makes way. A connection refused at the door is
//!   answered 503 at once and closed.
//! - A refused request (401, 403, 404, 413, 429, 431, 503, …) closes its
//!   connection with its answer: a refused client holds no slot while it
//!   thinks of its next try, and no body it announced is waited for.
//! - The soft limit on open descriptors is raised to the hard limit at start.
//! - Each connection's kernel send buffer is fixed at [`SEND_BUFFER`], so
//!   that a client that stops reading holds little before its writes stall.
//! - With TLS (`service::security::tls`), the handshake must finish within the
//!   header-read timeout; a client that cannot complete it (plain HTTP on
//!   the HTTPS port, a certificate it refuses) is closed, having sent
//!   nothing in clear.

use crate::service::startup::config::{
    DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_PER_ADDRESS, DEFAULT_WRITE_STALL_SECS, ServerConfig,
};
use std::convert::Infallible;
use std::future::Future;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
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

use super::admission::{Admission, AdmissionLimits, Held, Mark};
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
    /// Connections from one client address that have not sent a request
    /// yet (a browser opens a few ahead of its requests; a flood opens
    /// hundreds).
    pub max_silent_per_address: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            header_timeout: Duration::from_secs(5),
            request_timeout: Duration::from_secs(30),
            write_stall: Duration::from_secs(DEFAULT_WRITE_STALL_SECS),
            max_connections: DEFAULT_MAX_CONNECTIONS,
            max_per_address: DEFAULT_MAX_PER_ADDRESS,
            max_silent_per_address: 16,
        }
    }
}

impl Limits {
    /// The limits the venue file's `[server]` sets (each at least 1).
    pub fn of(server: &ServerConfig) -> Limits {
        Limits {
            header_timeout: Duration::from_secs(server.header_timeout.max(1)),
            max_connections: server.max_connections.max(1),
            max_per_address: server.max_per_address.max(1),
            write_stall: Duration::from_secs(server.write_stall.max(1)),
            max_silent_per_address: Limits::default()
                .max_silent_per_address
                .min(server.max_per_address.max(1)),
            ..Limits::default()
        }
    }
}

/// The largest request head read (request line and headers): beyond it the
/// answer is 431 and the connection closes. Every real request of the pages
/// is under 2 KiB.
pub const MAX_HEAD: usize = 16 * 1024;

/// Connections being answered 503 at the door at once; beyond, a refused
/// connection is closed without an answer (a flood of them would otherwise
/// hold a descriptor each for the second the answer may take).
pub const MAX_REFUSING: usize = 256;

/// Whether an answer with `status` closes its connection: every refusal
/// that did not use what the client sent (a missing or wrong token, an
/// unknown page, a body over its limit, a full server), so a refused
/// client holds no slot. A 409 or 422 (a move that does not fit the game)
/// is the normal course of play and keeps the connection.
pub fn closes_connection(status: StatusCode) -> bool {
    status == StatusCode::SERVICE_UNAVAILABLE
        || (status.is_client_error()
            && status != StatusCode::CONFLICT
            && status != StatusCode::UNPROCESSABLE_ENTITY)
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
/// use tactus::service::web::listener::client_key;
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

/// Serves `app` on `listener` within `limits` until `shutdown` resolves,
/// over TLS when `tls` is given.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: Limits,
    tls: Option<TlsAcceptor>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let door = Admission::new(AdmissionLimits {
        max_connections: limits.max_connections,
        max_per_address: limits.max_per_address,
        max_silent_per_address: limits.max_silent_per_address,
    });
    let refusing = Arc::new(AtomicUsize::new(0));
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
        match door.admit(client_key(peer.ip())) {
            Err(why) => {
                tracing::debug!("refused {}: {why}", peer.ip());
                if refusing.fetch_add(1, Ordering::Relaxed) < MAX_REFUSING {
                    let refusing = refusing.clone();
                    tokio::spawn(async move {
                        refuse(stream).await;
                        refusing.fetch_sub(1, Ordering::Relaxed);
                    });
                } else {
                    refusing.fetch_sub(1, Ordering::Relaxed);
                    drop(stream);
                }
            }
            Ok(held) => {
                let _ = stream.set_nodelay(true);
                let peer = Peer {
                    ip: peer.ip(),
                    secure: tls.is_some(),
                    crowded: held.crowded,
                };
                tokio::spawn(connection(
                    stream,
                    app.clone(),
                    limits,
                    tls.clone(),
                    stop_rx.clone(),
                    held,
                    peer,
                ));
            }
        }
    }
    let _ = stop_tx.send(true);
    // Connections finish their requests; live streams are cut after a while.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(2);
    while door.open() > 0 && tokio::time::Instant::now() < deadline {
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
    held: Held,
    peer: Peer,
) {
    let stream = Stall::new(stream, limits.write_stall);
    let mark = held.mark();
    let serving = async move {
        match tls {
            None => http(stream, app, limits, stop, mark, peer).await,
            Some(acceptor) => {
                match tokio::time::timeout(limits.header_timeout, acceptor.accept(stream)).await {
                    Ok(Ok(stream)) => http(stream, app, limits, stop, mark, peer).await,
                    Ok(Err(e)) => tracing::debug!("TLS handshake: {e}"),
                    Err(_) => tracing::debug!("TLS handshake: not complete in time"),
                }
            }
        }
    };
    // A connection whose slot went to a newcomer is dropped where it
    // stands (its socket closed); the slot is given back either way.
    tokio::select! {
        () = serving => {}
        () = held.evicted() => tracing::debug!("{}: closed to make room", peer.ip),
    }
}

/// Serves HTTP/1.1 on one connection (plain, or inside TLS).
async fn http<S>(
    stream: S,
    app: Router,
    limits: Limits,
    mut stop: watch::Receiver<bool>,
    mark: Mark,
    peer: Peer,
) where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let io = TokioIo::new(stream);
    // Whether an answer refused the request (and so closes the connection):
    // the client may still be sending what it announced.
    let refused = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let refused_here = refused.clone();
    let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
        let app = app.clone();
        let refused = refused_here.clone();
        mark.spoke();
        request.extensions_mut().insert(peer);
        request.extensions_mut().insert(mark.clone());
        // Boxed: hyper hands the connection back (to linger) only for a
        // service whose futures can move.
        Box::pin(async move {
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
            if closes_connection(response.status()) {
                refused.store(true, Ordering::Relaxed);
                response.headers_mut().insert(
                    axum::http::header::CONNECTION,
                    axum::http::HeaderValue::from_static("close"),
                );
            }
            secure(response.headers_mut());
            Ok::<_, Infallible>(response)
        })
    });
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .max_buf_size(MAX_HEAD)
        .keep_alive(true);
    let mut conn = builder.serve_connection(io, service);
    let stopping = async move {
        let _ = stop.wait_for(|s| *s).await;
    };
    let finished = {
        let serving = std::future::poll_fn(|cx| conn.poll_without_shutdown(cx));
        tokio::select! {
            r = serving => Some(r),
            () = stopping => None,
        }
    };
    let done = match finished {
        Some(r) => r,
        None => {
            Pin::new(&mut conn).graceful_shutdown();
            std::future::poll_fn(|cx| conn.poll_without_shutdown(cx)).await
        }
    };
    let mut io = conn.into_parts().io.into_inner();
    if done.is_ok() && refused.load(Ordering::Relaxed) {
        linger(&mut io).await;
    }
    let _ = tokio::time::timeout(Duration::from_secs(1), io.shutdown()).await;
}

/// The most a refused connection is read for after its answer, and for how
/// long: enough for a body a client was sending when it was refused, so
/// that closing does not reset the connection before the client has read
/// the answer (an RST discards what the client had not yet read).
pub const LINGER_BYTES: usize = 4 * 1024 * 1024;
pub const LINGER: Duration = Duration::from_secs(2);

/// After a refusal: our side closed for writing (the client sees the end of
/// the answer), then what the client still sends is read and dropped, until
/// it closes, [`LINGER`] passes or [`LINGER_BYTES`] were read.
async fn linger<S: AsyncRead + AsyncWrite + Unpin>(io: &mut S) {
    let _ = tokio::time::timeout(LINGER, async {
        if io.shutdown().await.is_err() {
            return;
        }
        let mut sink = vec![0u8; 16 * 1024];
        let mut read = 0;
        while read < LINGER_BYTES {
            match tokio::io::AsyncReadExt::read(io, &mut sink).await {
                Ok(0) | Err(_) => break,
                Ok(n) => read += n,
            }
        }
    })
    .await;
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
