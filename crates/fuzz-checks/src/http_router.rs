//! The whole web edge (`tactus::service::web::app`: every page and API
//! route behind its guards) in process, sent one request: never a panic,
//! never a 500, every error answered `{"error": …}`, and a write answered
//! 2xx only when it carried a real token (issue 43, item 7).
//!
//! The input is a request as text, close to HTTP/1.1's:
//!
//! ```text
//! POST /api/tables/{id}/move?lang=en
//! Authorization: Bearer {assistant}
//! Content-Type: application/json
//! Content-Length: {len}
//!
//! {"move":"e4"}
//! ```
//!
//! The first line is the method and the target, then headers up to an
//! empty line, then the body (every byte that is left). Placeholders are
//! replaced before the request is made, so that a fuzzer (and a corpus)
//! can name the venue's real tokens, which are drawn anew at each start:
//! `{player}`, `{assistant}`, `{arbiter}`, `{opponent}` (table 1's),
//! `{t2-player}`, `{t2-assistant}`, `{t2-arbiter}`, `{t2-opponent}`
//! (table 2's), `{venue}` (the venue arbiter's), `{p1}`, `{p2}` (listed
//! players' own tokens, which are their `/p/` codes), `{p1-grouped}` (the
//! code as a card prints it), `{card-player}`, `{card-assistant}`,
//! `{card-arbiter}` (table 1's `/t/` codes); `{len}` is the body's length;
//! in the body, `{nest:N}` is N `[` (deeply nested JSON) and `{big:N}` N
//! bytes of `a` (N at most 8 MiB). A method or a target that is not valid
//! HTTP, or a header that is not, is left out (a parser before the router
//! refuses those).
//!
//! Shared by the fuzz target `http_router` and, through `tests/rules/fuzz_corpora.rs`
//! and `tests/service/http_fuzz.rs`, by the normal test suite.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use axum::body::{Body, to_bytes};
use axum::http::{HeaderName, HeaderValue, Method, Request, StatusCode, header};
use tower::ServiceExt;

// The web edge in process as the crate's tests build it.
use crate::inprocess;
pub use crate::inprocess::App;
use tactus::table::actions::PersonRole;

/// The venue the requests are sent to and its secrets by placeholder.
pub struct Venue {
    pub runtime: tokio::runtime::Runtime,
    pub app: App,
    /// `("{player}", token)`, …
    pub secrets: Vec<(&'static str, String)>,
}

/// The runtime's threads, where the table actors run: a panic there
/// (which tokio would keep from the request) is counted.
const WORKER: &str = "http-router-worker";

/// Panics on the venue's runtime threads so far.
static WORKER_PANICS: AtomicUsize = AtomicUsize::new(0);

/// Two tables (`1`, `2`), each with two blind players, and two listed
/// players, on a runtime of its own, made once per process.
pub fn venue() -> &'static Venue {
    static VENUE: OnceLock<Venue> = OnceLock::new();
    VENUE.get_or_init(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if std::thread::current().name() == Some(WORKER) {
                WORKER_PANICS.fetch_add(1, Ordering::SeqCst);
            }
            previous(info);
        }));
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name(WORKER)
            .enable_all()
            .build()
            .unwrap();
        let app = runtime.block_on(inprocess::app(inprocess::Tables {
            second_blind: true,
            players: 2,
            event: "fuzzed",
            ..inprocess::Tables::new(&["1", "2"])
        }));
        let t = |id: &str| app.tokens.table(&id.parse().unwrap()).unwrap();
        let card = |s: &tactus::service::security::secret::Secret| {
            tactus::service::security::codes::card_code(s)
        };
        let p1 = app.tokens.player_token(1).unwrap().to_owned();
        let secrets = vec![
            ("{player}", app.token("1", PersonRole::Player)),
            ("{assistant}", app.token("1", PersonRole::Assistant)),
            ("{arbiter}", app.token("1", PersonRole::Arbiter)),
            ("{opponent}", app.token("1", PersonRole::Opponent)),
            ("{t2-player}", app.token("2", PersonRole::Player)),
            ("{t2-assistant}", app.token("2", PersonRole::Assistant)),
            ("{t2-arbiter}", app.token("2", PersonRole::Arbiter)),
            ("{t2-opponent}", app.token("2", PersonRole::Opponent)),
            ("{venue}", app.tokens.venue_arbiter().unwrap().to_owned()),
            (
                "{p1-grouped}",
                tactus::service::security::codes::grouped_code(&p1),
            ),
            ("{p1}", p1),
            ("{p2}", app.tokens.player_token(2).unwrap().to_owned()),
            ("{card-player}", card(&t("1").player)),
            ("{card-assistant}", card(&t("1").assistant)),
            ("{card-arbiter}", card(&t("1").arbiter)),
        ];
        Venue {
            runtime,
            app,
            secrets,
        }
    })
}

/// A request made from the text, and what the check needs to know of it.
pub struct Made {
    pub request: Request<Body>,
    /// Its `Authorization` holds one of the venue's real tokens.
    pub carried_token: bool,
    /// What it was, for a failure's message.
    pub shown: String,
}

/// Letters and digits only, upper case: a code or token as the server
/// may read it (any case, dashes or not).
fn plain(s: &str) -> String {
    s.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_uppercase())
        .collect()
}

fn replace_secrets(text: &[u8], secrets: &[(&'static str, String)]) -> Vec<u8> {
    let mut out = text.to_vec();
    for (name, value) in secrets {
        out = replace(&out, name.as_bytes(), value.as_bytes());
    }
    out
}

fn replace(haystack: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(haystack.len());
    let mut i = 0;
    while i < haystack.len() {
        if haystack[i..].starts_with(from) {
            out.extend_from_slice(to);
            i += from.len();
        } else {
            out.push(haystack[i]);
            i += 1;
        }
    }
    out
}

/// `{nest:N}` and `{big:N}` in a body, expanded.
fn expand_body(body: &[u8]) -> Vec<u8> {
    const MOST: usize = 8 << 20;
    let mut out = Vec::new();
    let mut i = 0;
    while i < body.len() {
        let rest = &body[i..];
        let (what, fill) = if rest.starts_with(b"{nest:") {
            (6, b'[')
        } else if rest.starts_with(b"{big:") {
            (5, b'a')
        } else {
            out.push(body[i]);
            i += 1;
            continue;
        };
        let digits: Vec<u8> = rest[what..]
            .iter()
            .copied()
            .take_while(u8::is_ascii_digit)
            .take(8)
            .collect();
        let after = what + digits.len();
        if !digits.is_empty() && rest.get(after) == Some(&b'}') {
            let n: usize = std::str::from_utf8(&digits).unwrap().parse().unwrap();
            let n = n.min(MOST.saturating_sub(out.len()));
            out.resize(out.len() + n, fill);
            i += after + 1;
        } else {
            out.push(body[i]);
            i += 1;
        }
    }
    out
}

/// The request `data` describes, or `None` if its method or target is not
/// valid HTTP.
pub fn make(data: &[u8], secrets: &[(&'static str, String)]) -> Option<Made> {
    // The head ends at the first empty line; the body is the rest.
    let (head, body) = match find(data, b"\n\n") {
        Some(at) => (&data[..at], &data[at + 2..]),
        None => (data, &data[data.len()..]),
    };
    let body = expand_body(&replace_secrets(body, secrets));
    let head = replace_secrets(head, secrets);
    let mut lines = head.split(|&b| b == b'\n');
    let first = lines.next()?;
    let first = first.strip_suffix(b"\r").unwrap_or(first);
    let space = first.iter().position(|&b| b == b' ')?;
    let method = Method::from_bytes(&first[..space]).ok()?;
    let target = std::str::from_utf8(&first[space + 1..]).ok()?;
    let mut request = Request::builder().method(method).uri(target);
    let mut carried_token = false;
    let real: Vec<String> = secrets.iter().map(|(_, v)| plain(v)).collect();
    for line in lines {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let Some(colon) = line.iter().position(|&b| b == b':') else {
            continue;
        };
        let Ok(name) = HeaderName::from_bytes(&line[..colon]) else {
            continue;
        };
        let value = line[colon + 1..].trim_ascii();
        let value = if value == b"{len}" {
            body.len().to_string().into_bytes()
        } else {
            value.to_vec()
        };
        let Ok(value) = HeaderValue::from_bytes(&value) else {
            continue;
        };
        if name == header::AUTHORIZATION
            && let Ok(v) = value.to_str()
            && real
                .iter()
                .any(|r| v.len() < 256 && plain(v).contains(r.as_str()))
        {
            carried_token = true;
        }
        request = request.header(name, value);
    }
    let shown = format!(
        "{}\n[{} bytes of body: {:?}…]",
        String::from_utf8_lossy(&head),
        body.len(),
        String::from_utf8_lossy(&body[..body.len().min(200)])
    );
    let request = request.body(Body::from(body)).ok()?;
    Some(Made {
        request,
        carried_token,
        shown,
    })
}

fn find(data: &[u8], what: &[u8]) -> Option<usize> {
    data.windows(what.len()).position(|w| w == what)
}

/// What the edge answered: its status and, unless it is a live stream,
/// its body.
pub struct Answer {
    pub status: StatusCode,
    pub body: Option<Vec<u8>>,
}

/// Sends `made` through the whole edge and checks its answer; the answer.
pub async fn send_and_check(app: &App, made: Made) -> Answer {
    let Made {
        request,
        carried_token,
        shown,
    } = made;
    let method = request.method().clone();
    let panics = WORKER_PANICS.load(Ordering::SeqCst);
    let response = app.edge.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let stream = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/event-stream"));
    let body = if stream {
        None
    } else {
        let read = tokio::time::timeout(
            Duration::from_secs(20),
            to_bytes(response.into_body(), 16 << 20),
        )
        .await;
        let read = read.unwrap_or_else(|_| panic!("{status}: the body never ended\n{shown}"));
        Some(
            read.unwrap_or_else(|e| panic!("{status}: the body cannot be read: {e}\n{shown}"))
                .to_vec(),
        )
    };
    let text = || {
        body.as_deref()
            .map(|b| String::from_utf8_lossy(&b[..b.len().min(300)]).into_owned())
            .unwrap_or_default()
    };
    assert!(
        !status.is_server_error() || status == StatusCode::SERVICE_UNAVAILABLE,
        "{status}: {}\n{shown}",
        text()
    );
    if (status.is_client_error() || status.is_server_error()) && method != Method::HEAD {
        let json: Option<serde_json::Value> =
            body.as_deref().and_then(|b| serde_json::from_slice(b).ok());
        assert!(
            json.as_ref()
                .and_then(|j| j.as_object())
                .is_some_and(|o| o.get("error").is_some_and(serde_json::Value::is_string)),
            "{status} is not {{\"error\": …}}: {}\n{shown}",
            text()
        );
    }
    assert_eq!(
        WORKER_PANICS.load(Ordering::SeqCst),
        panics,
        "a panic on the server's threads (a table actor's?)\n{shown}"
    );
    let write = !matches!(method, Method::GET | Method::HEAD | Method::OPTIONS);
    if write && status.is_success() {
        assert!(
            carried_token,
            "{status} to a write without a real token: {}\n{shown}",
            text()
        );
    }
    Answer { status, body }
}

/// The fuzz target's check: one request, as the module's comment describes.
pub fn check(data: &[u8]) {
    let venue = venue();
    let Some(made) = make(data, &venue.secrets) else {
        return;
    };
    venue.runtime.block_on(send_and_check(&venue.app, made));
}
