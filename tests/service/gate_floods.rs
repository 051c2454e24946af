//! Issue 43, item 1: no visitor can fill the connection slots. Each attack
//! is the one the issue reports, at its size or larger, from several
//! loopback source addresses (a laptop with several addresses, or many
//! laptops), held while the assistant's moves are sent:
//!
//! - 4 × 256 token-less live streams, held and read;
//! - 1,024 connections that never send a request (4 × 256), and 2,048 from
//!   128 addresses, twice the server's connection limit;
//! - 4 × 256 connections trickling a request head.
//!
//! Before the gate each one left every move answered 503. The assertions
//! are answers and counts, never speeds; `tactus bench gate` measures the
//! move's answer time under each flood.

use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

use crate::common::{Server, post, tokens, venue_without_boards};

/// A connection from `source`; `None` if the server (or the kernel, at its
/// backlog) would not take it.
async fn connect(addr: &str, source: &str) -> Option<TcpStream> {
    let socket = TcpSocket::new_v4().ok()?;
    socket.bind(format!("{source}:0").parse().ok()?).ok()?;
    tokio::time::timeout(Duration::from_secs(10), socket.connect(addr.parse().ok()?))
        .await
        .ok()?
        .ok()
}

/// Reads `s` to its end; whether the end came within `limit`.
async fn read_to_end(mut s: TcpStream, limit: Duration) -> (bool, Vec<u8>) {
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    let ended = tokio::time::timeout(limit, async {
        loop {
            match s.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) if got.len() < 64 * 1024 => got.extend_from_slice(&buf[..n]),
                Ok(_) => {}
            }
        }
    })
    .await
    .is_ok();
    (ended, got)
}

/// Three moves of the game, in turn, as the assistant sends them, each on
/// a fresh connection from 127.0.0.1: their statuses.
async fn three_moves(addr: &str, assistant: &str, moves: [&'static str; 3]) -> Vec<u16> {
    let (addr, token) = (addr.to_owned(), assistant.to_owned());
    tokio::task::spawn_blocking(move || {
        moves
            .iter()
            .map(|mv| {
                post(
                    &addr,
                    "/api/tables/1/move",
                    &token,
                    &format!(r#"{{"move":"{mv}"}}"#),
                )
                .status
            })
            .collect()
    })
    .await
    .unwrap()
}

fn server(dir: &std::path::Path) -> (Server, String) {
    // The test process holds thousands of sockets too.
    tactus::service::web::listener::raise_descriptor_limit();
    let venue = venue_without_boards(dir, 1);
    let data = dir.join("data");
    let server = Server::start(&data, &["--config", venue.to_str().unwrap()]);
    let (_, assistant, _) = tokens(&data, "1");
    (server, assistant)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_4_x_256_streams_held_and_read_leaves_the_moves_answered() {
    let dir = tempfile::tempdir().unwrap();
    let (server, assistant) = server(dir.path());
    let addr = server.addr.clone();
    // Every stream is opened, then read by a task of its own until the
    // server closes it: the streams the caps refuse must be closed by the
    // server at once, not kept alive.
    let mut readers = Vec::new();
    for n in 2..=5 {
        for _ in 0..256 {
            let Some(mut s) = connect(&addr, &format!("127.0.0.{n}")).await else {
                continue;
            };
            let sent = s
                .write_all(
                    b"GET /api/tables/1/events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n",
                )
                .await;
            if sent.is_ok() {
                readers.push(tokio::spawn(read_to_end(s, Duration::from_secs(20))));
            }
        }
    }
    assert!(readers.len() >= 1000, "{} streams opened", readers.len());
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(
        three_moves(&addr, &assistant, ["e4", "e5", "Nf3"]).await,
        [200, 200, 200]
    );
    // Every stream not held was closed by the server: answered 503 with
    // `Connection: close`, or (under load, a connection the gate made way
    // with before its request was read) closed without an answer. None is
    // left open, the streams held are within the caps (8 per address), and
    // most are refused with the 503.
    let opened = readers.len();
    let (mut held, mut refused, mut closed) = (0, 0, 0);
    for r in readers {
        let (ended, got) = r.await.unwrap();
        let head = String::from_utf8_lossy(&got).to_ascii_lowercase();
        if head.starts_with("http/1.1 200") {
            held += 1;
            continue;
        }
        assert!(ended, "a stream not held was left open: {head:?}");
        if head.starts_with("http/1.1 503") {
            assert!(head.contains("connection: close"), "{head}");
            refused += 1;
        } else {
            assert!(head.is_empty(), "neither held nor refused: {head}");
            closed += 1;
        }
    }
    assert!(held <= 4 * 8, "{held} streams held");
    // Most are refused with the 503: 992 of 992 not held on a quiet
    // machine, 850 of about 990 in the most loaded full run seen.
    assert!(refused >= opened / 2, "{refused} of {opened} answered 503");
    println!("streams: {held} held, {refused} refused and closed, {closed} closed unanswered");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thousand_idle_connections_leave_the_moves_answered() {
    let dir = tempfile::tempdir().unwrap();
    let (server, assistant) = server(dir.path());
    let addr = server.addr.clone();
    // 4 × 256 that never send a request.
    let mut idle = Vec::new();
    for n in 2..=5 {
        for _ in 0..256 {
            if let Some(s) = connect(&addr, &format!("127.0.0.{n}")).await {
                idle.push(s);
            }
        }
    }
    assert_eq!(idle.len(), 1024);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        three_moves(&addr, &assistant, ["e4", "e5", "Nf3"]).await,
        [200, 200, 200]
    );
    drop(idle);

    // 2,048 from 128 addresses (16 each): twice the connection limit, and
    // no address over its cap of connections without a request. The
    // oldest of them make way for the assistant.
    let mut idle = Vec::new();
    for n in 0..128 {
        for _ in 0..16 {
            if let Some(s) = connect(&addr, &format!("127.0.{}.{}", 10 + n / 64, 2 + n % 64)).await
            {
                idle.push(s);
            }
        }
    }
    assert!(idle.len() >= 2000, "{} connected", idle.len());
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        three_moves(&addr, &assistant, ["Nc6", "Bb5", "a6"]).await,
        [200, 200, 200]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thousand_slow_heads_leave_the_moves_answered() {
    let dir = tempfile::tempdir().unwrap();
    let (server, assistant) = server(dir.path());
    let addr = server.addr.clone();
    // 4 × 256 connections, each sending the start of a request head and a
    // byte of a header every second (a slowloris).
    let mut slow = Vec::new();
    for n in 2..=5 {
        for _ in 0..256 {
            if let Some(mut s) = connect(&addr, &format!("127.0.0.{n}")).await {
                let _ = s
                    .write_all(b"GET /api/tables/1 HTTP/1.1\r\nHost: x\r\nX-Slow: a")
                    .await;
                slow.push(s);
            }
        }
    }
    assert_eq!(slow.len(), 1024);
    let trickle = tokio::spawn(async move {
        for _ in 0..6 {
            tokio::time::sleep(Duration::from_secs(1)).await;
            for s in &mut slow {
                let _ = s.write_all(b"a").await;
            }
        }
        slow
    });
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        three_moves(&addr, &assistant, ["e4", "e5", "Nf3"]).await,
        [200, 200, 200]
    );
    // A head that has not arrived within the header timeout is closed:
    // after it, every slow connection has been closed by the server.
    let slow = trickle.await.unwrap();
    let mut closed = 0;
    for s in slow {
        let (ended, _) = read_to_end(s, Duration::from_secs(15)).await;
        closed += usize::from(ended);
    }
    assert_eq!(closed, 1024, "slow heads closed by the server");
}

/// A page's stream opened with a ticket (which only a token can get) is a
/// known connection: a flood of strangers' reads from many addresses past
/// the connection limit closes the strangers' connections to make room,
/// never it (before, the oldest anonymous connection, the page's, went
/// first).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ticket_s_stream_is_never_closed_to_make_room() {
    let dir = tempfile::tempdir().unwrap();
    tactus::service::web::listener::raise_descriptor_limit();
    let venue = venue_without_boards(dir.path(), 1);
    let text = std::fs::read_to_string(&venue).unwrap();
    std::fs::write(&venue, format!("[server]\nmax_connections = 16\n\n{text}")).unwrap();
    let data = dir.path().join("data");
    let server = Server::start(&data, &["--config", venue.to_str().unwrap()]);
    let addr = server.addr.clone();
    let (player, _, _) = tokens(&data, "1");
    let (a, p) = (addr.clone(), player.clone());
    let r = tokio::task::spawn_blocking(move || post(&a, "/api/tables/1/stream-ticket", &p, ""))
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{}", r.body);
    let ticket = r.json()["ticket"].as_str().unwrap().to_owned();
    let mut page = connect(&addr, "127.0.0.2").await.unwrap();
    page.write_all(
        format!("GET /api/tables/1/events?ticket={ticket} HTTP/1.1\r\nHost: x\r\n\r\n").as_bytes(),
    )
    .await
    .unwrap();
    let mut head = [0u8; 12];
    page.read_exact(&mut head).await.unwrap();
    assert_eq!(&head, b"HTTP/1.1 200");
    // 64 strangers' connections from 32 addresses, four times the limit,
    // each sending a read and kept open (anonymous, like the page's stream,
    // which is older than all of them).
    let mut flood = Vec::new();
    for n in 0..32 {
        for _ in 0..2 {
            let Some(mut s) = connect(&addr, &format!("127.0.3.{}", 2 + n)).await else {
                continue;
            };
            s.write_all(b"GET /api/tables HTTP/1.1\r\nHost: x\r\n\r\n")
                .await
                .unwrap();
            // Answered 200, or 503 on the last eighth of the slots, which
            // are kept for known tokens; either way it took a slot first.
            let mut head = [0u8; 12];
            s.read_exact(&mut head).await.unwrap();
            assert!(
                &head == b"HTTP/1.1 200" || &head == b"HTTP/1.1 503",
                "{}",
                String::from_utf8_lossy(&head)
            );
            flood.push(s);
        }
    }
    assert_eq!(flood.len(), 64);
    // The page's stream is still open: it still reads (the state it was
    // sent), and the server has not ended it.
    let mut buf = [0u8; 4096];
    let read = tokio::time::timeout(Duration::from_secs(2), page.read(&mut buf)).await;
    assert!(matches!(read, Ok(Ok(n)) if n > 0), "{read:?}");
    loop {
        match tokio::time::timeout(Duration::from_millis(500), page.read(&mut buf)).await {
            Err(_) => break,
            Ok(Ok(0)) | Ok(Err(_)) => panic!("the ticket's stream was closed for a newcomer"),
            Ok(Ok(_)) => {}
        }
    }
}
