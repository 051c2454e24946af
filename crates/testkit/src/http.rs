//! A minimal HTTP/1.1 client over a TCP stream, for loopback requests to a
//! `tactus serve` of our own: the benchmarks and the process tests share it
//! (no client crate is needed to talk to ourselves on 127.0.0.1).

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

/// An answer: its status (0 when the connection was cut before one) and
/// body, de-chunked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    pub status: u16,
    pub body: String,
}

impl Response {
    /// The body as JSON (`Null` if it is not JSON).
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or(serde_json::Value::Null)
    }
}

/// One request on a fresh connection (`Connection: close`), with a bearer
/// token and a JSON body if given; an error only if the server cannot be
/// reached. A write or read cut short is an answer never received: status 0.
///
/// ```no_run
/// use std::time::Duration;
/// use tactus_testkit::http::request;
///
/// let r = request("127.0.0.1:8080", "GET", "/api/tables", None, None, Duration::from_secs(5)).unwrap();
/// assert_eq!(r.status, 200);
/// ```
pub fn request(
    addr: &str,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&str>,
    timeout: Duration,
) -> std::io::Result<Response> {
    let mut stream = TcpStream::connect(addr)?;
    stream.set_read_timeout(Some(timeout))?;
    let mut req = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    if let Some(t) = token {
        req.push_str(&format!("Authorization: Bearer {t}\r\n"));
    }
    let body = body.unwrap_or("");
    if !body.is_empty() || method == "POST" {
        req.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            body.len()
        ));
    }
    req.push_str("\r\n");
    req.push_str(body);
    let mut raw = Vec::new();
    if stream.write_all(req.as_bytes()).is_ok() {
        let _ = stream.read_to_end(&mut raw);
    }
    Ok(parse_response(&raw))
}

/// Sends `bytes` as they are on a fresh connection, then half-closes if
/// `close_write`; the status of the answer, or `None` if the server closed
/// the connection without one.
pub fn raw_request(
    addr: &str,
    bytes: &[u8],
    close_write: bool,
    timeout: Duration,
) -> std::io::Result<Option<u16>> {
    let mut stream = TcpStream::connect(addr)?;
    stream.set_read_timeout(Some(timeout))?;
    // The server may answer and close before reading everything.
    let _ = stream.write_all(bytes);
    if close_write {
        let _ = stream.shutdown(std::net::Shutdown::Write);
    }
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw);
    let status = parse_response(&raw).status;
    Ok((status != 0).then_some(status))
}

/// Status and body of a raw answer.
pub fn parse_response(raw: &[u8]) -> Response {
    let text = String::from_utf8_lossy(raw).to_string();
    let (head, rest) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let chunked = head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked");
    let body = if chunked {
        dechunk(rest)
    } else {
        rest.to_owned()
    };
    Response { status, body }
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(rest.get(..n).unwrap_or(""));
        s = rest.get(n..).unwrap_or("").trim_start_matches("\r\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunked_and_plain_answers_are_read() {
        let r = parse_response(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nWiki\r\n5\r\npedia\r\n0\r\n\r\n");
        assert_eq!((r.status, r.body.as_str()), (200, "Wikipedia"));
        let r = parse_response(b"HTTP/1.1 404 Not Found\r\n\r\n{\"error\":\"x\"}");
        assert_eq!(r.status, 404);
        assert_eq!(r.json()["error"], "x");
        // Cut before any answer; a chunk size larger than what came.
        assert_eq!(parse_response(b"").status, 0);
        let r = parse_response(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nff\r\nab");
        assert_eq!(r.body, "");
    }
}
