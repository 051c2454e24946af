//! Issue 43, item 5: heads and bodies over their limits are refused before
//! they are read, and deeply nested JSON is refused; the server answers
//! the next request as before. The limits are in `docs/bounds.md`.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use crate::common::{Server, post, tokens, venue_token, venue_without_boards};

/// Sends `head` and then at most `body_bytes` of body (the rest is never
/// sent); the answer's head as text, and whether the server closed.
fn answer(addr: &str, head: &str, body_bytes: usize) -> (String, bool) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let _ = s.write_all(head.as_bytes());
    let _ = s.write_all(&vec![b'x'; body_bytes]);
    let mut raw = Vec::new();
    let closed = s.read_to_end(&mut raw).is_ok();
    (String::from_utf8_lossy(&raw).into_owned(), closed)
}

#[test]
fn heads_and_bodies_over_their_limits_are_refused_unread() {
    let dir = tempfile::tempdir().unwrap();
    let venue = venue_without_boards(dir.path(), 1);
    let data = dir.path().join("data");
    let server = Server::start(&data, &["--config", venue.to_str().unwrap()]);
    let addr = server.addr.clone();
    let (_, assistant, _) = tokens(&data, "1");

    // A head of 64 KiB of headers: 431, closed.
    let big = format!(
        "GET /api/tables/1 HTTP/1.1\r\nHost: x\r\n{}\r\n",
        "X-Bomb: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n".repeat(1024)
    );
    let (head, closed) = answer(&addr, &big, 0);
    assert!(
        head.starts_with("HTTP/1.1 431"),
        "{}",
        &head[..head.len().min(200)]
    );
    assert!(closed);

    // A move announcing 1 GB: 413 at once, nothing of it read, closed.
    let (head, closed) = answer(
        &addr,
        &format!(
            "POST /api/tables/1/move HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {assistant}\r\n\
             Content-Type: application/json\r\nContent-Length: 1000000000\r\n\r\n"
        ),
        1024,
    );
    assert!(head.starts_with("HTTP/1.1 413"), "{head}");
    assert!(
        head.to_ascii_lowercase().contains("connection: close"),
        "{head}"
    );
    assert!(closed);

    // The same without a token: 401 (the token is asked first), closed.
    let (head, _) = answer(
        &addr,
        "POST /api/tables/1/move HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000000\r\n\r\n",
        0,
    );
    assert!(
        head.starts_with("HTTP/1.1 401") || head.starts_with("HTTP/1.1 413"),
        "{head}"
    );

    // A chunked body past the limit: read to the limit, then 413.
    let chunk = format!("{:x}\r\n{}\r\n", 70_000, "a".repeat(70_000));
    let (head, _) = answer(
        &addr,
        &format!(
            "POST /api/tables/1/move HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {assistant}\r\n\
             Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n{chunk}0\r\n\r\n"
        ),
        0,
    );
    assert!(head.starts_with("HTTP/1.1 413"), "{head}");

    // JSON nested 100,000 deep: refused as malformed, no crash.
    let deep = format!(
        "{{\"move\":{}{}}}",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let r = post(&addr, "/api/tables/1/move", &assistant, &deep);
    assert!(
        r.status == 400 || r.status == 422 || r.status == 413,
        "{}",
        r.status
    );
    let deep = format!("{}{}", "{\"a\":".repeat(20_000), "}".repeat(20_000));
    let r = post(&addr, "/api/tables/1/ruling", &assistant, &deep);
    assert!((400..500).contains(&r.status), "{}", r.status);

    // A round's TRF of 3 MiB is read (the docs promise 4 MiB): refused for
    // what it says, not for its size; 5 MiB is 413.
    let venue = venue_token(&data);
    let line = format!("{:<89}\n", "012 a tournament");
    let three = line.repeat(3 * 1024 * 1024 / line.len());
    let r = crate::common::request(
        &addr,
        "POST",
        "/api/rounds?round=1",
        Some(&venue),
        Some(&three),
    );
    assert_ne!(r.status, 413, "{}", r.body);
    let (head, _) = answer(
        &addr,
        &format!(
            "POST /api/rounds?round=1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {venue}\r\n\
             Content-Type: text/plain\r\nContent-Length: {}\r\n\r\n",
            5 * 1024 * 1024
        ),
        1024,
    );
    assert!(head.starts_with("HTTP/1.1 413"), "{head}");

    // The table is unharmed.
    assert_eq!(
        post(&addr, "/api/tables/1/move", &assistant, r#"{"move":"e4"}"#).status,
        200
    );
}
