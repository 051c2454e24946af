//! Issue 43, item 7: the HTTP surface fuzzed. Random requests through the
//! whole web edge in process (`tactus::service::web::app`, every route
//! behind its guards, over real table actors): random methods; paths built
//! from the router's own routes (read from its source, so a new route is
//! fuzzed too) with random segments (table ids, `/t/` and `/p/` codes,
//! long and odd bytes) or no route at all; query strings; headers
//! (`Authorization` with no token, garbage, or a real one of every kind,
//! `Content-Type`, `Content-Length` that matches or not); bodies (random
//! JSON, JSON for the routes' own fields, truncated, deeply nested, random
//! bytes, over the limits). Every answer: no panic, no 500, every error
//! `{"error": …}`, a write answered 2xx only when it carried a real token
//! (`tactus_fuzz_checks::http_router`, the fuzz target `http_router`'s
//! check).
//!
//! 500 cases by default; `PROPTEST_CASES=N` for more, `HTTP_FUZZ_SEED=S`
//! to replay a run (the seed is printed), `HTTP_FUZZ_SHOW=404,405` to see
//! the requests answered with those statuses.

use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};

use tactus::service::web::access_table::ROUTES;
use tactus_fuzz_checks::http_router;

/// Every route the edge serves (`/api/tables/{id}/move`), with the methods
/// it is routed for: the access table's, which `access_walk` holds to the
/// modules' route lists (HEAD is GET's).
fn routes() -> Vec<(String, Vec<&'static str>)> {
    let mut routes: Vec<(String, Vec<&'static str>)> = Vec::new();
    for &(method, route, _) in ROUTES.iter().filter(|(m, ..)| *m != "HEAD") {
        match routes.iter_mut().find(|(r, _)| r == route) {
            Some((_, methods)) => methods.push(method),
            None => routes.push((route.to_owned(), vec![method])),
        }
    }
    routes.sort();
    assert!(routes.len() > 40, "the router's routes: {routes:?}");
    routes
}

/// Bytes as a path segment or query value: every byte that is not
/// unreserved percent-encoded (what reaches the router after a client
/// encodes whatever it was given).
fn encoded(bytes: &[u8]) -> String {
    let mut s = String::new();
    for &b in bytes {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            s.push(b as char);
        } else {
            s.push_str(&format!("%{b:02X}"));
        }
    }
    s
}

/// What may fill a `{…}` of a route.
fn segment() -> impl Strategy<Value = String> {
    prop_oneof![
        8 => prop::sample::select(vec!["1", "1", "1", "2"]).prop_map(str::to_owned),
        4 => prop::sample::select(vec![
            "3", "0", "01", "-1", "+1", "999", "a", "1.5", "%20", "%2F", "..", ".",
            "%00", "%FF", "18446744073709551616", "4294967296", "65536", "1e3",
            "{p1}", "{p2}", "{p1-grouped}", "{card-player}", "{card-assistant}",
            "{card-arbiter}", "{player}", "{opponent}", "{venue}",
            "player.brf", "index.html", "app.js", "cards.css", "manifest.json",
            "e4.ogg", "..%2F..%2Fetc%2Fpasswd",
        ])
        .prop_map(str::to_owned),
        2 => "[a-zA-Z0-9_-]{0,24}",
        1 => prop::collection::vec(any::<u8>(), 0..48).prop_map(|b| encoded(&b)),
        1 => (1usize..6000).prop_map(|n| "9".repeat(n)),
        1 => (1usize..6000).prop_map(|n| "x".repeat(n)),
    ]
}

/// A path, and the methods its route is for (none off the routes).
fn path() -> impl Strategy<Value = (String, Vec<&'static str>)> {
    let from_route = (
        prop::sample::select(routes()),
        prop::collection::vec(segment(), 3),
        prop_oneof![
            16 => Just(String::new()),
            1 => Just("/".to_owned()),
            1 => segment().prop_map(|s| format!("/{s}")),
        ],
        prop::bool::weighted(0.05),
    )
        .prop_map(|((route, methods), segments, tail, upper)| {
            let mut path = String::new();
            let mut segments = segments.into_iter();
            let mut rest = route.as_str();
            while let Some(open) = rest.find('{') {
                path.push_str(&rest[..open]);
                let close = rest[open..].find('}').map_or(rest.len(), |c| open + c + 1);
                path.push_str(&segments.next().unwrap_or_default());
                rest = &rest[close..];
            }
            path.push_str(rest);
            path.push_str(&tail);
            // As a braille reader types a card's link: upper case.
            if upper && !path.contains('{') {
                path = path.to_ascii_uppercase();
            }
            (path, methods)
        });
    prop_oneof![
        16 => from_route,
        1 => prop::collection::vec(any::<u8>(), 0..80)
            .prop_map(|b| (format!("/{}", encoded(&b)), Vec::new())),
        1 => "/[a-z/]{0,40}".prop_map(|p| (p, Vec::new())),
    ]
}

fn query() -> impl Strategy<Value = String> {
    let key = prop::sample::select(vec![
        "lang",
        "ticket",
        "token",
        "plays",
        "page_lang",
        "game",
        "round",
        "side",
        "x",
        "",
    ]);
    let value = prop_oneof![
        prop::sample::select(vec![
            "en", "de", "es", "fr", "auto", "white", "black", "1", "0", "-1", "{p1}", "{player}",
            "{venue}", "zz-ZZ", "",
        ])
        .prop_map(str::to_owned),
        prop::collection::vec(any::<u8>(), 0..40).prop_map(|b| encoded(&b)),
    ];
    prop_oneof![
        3 => Just(String::new()),
        2 => prop::collection::vec((key, value), 1..4).prop_map(|pairs| {
            let pairs: Vec<String> = pairs.iter().map(|(k, v)| format!("{k}={v}")).collect();
            format!("?{}", pairs.join("&"))
        }),
        1 => "\\?[a-zA-Z0-9=&%;+]{0,30}",
    ]
}

fn method() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => Just("GET".to_owned()),
        4 => Just("POST".to_owned()),
        1 => prop::sample::select(vec!["PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "TRACE", "CONNECT", "BREW"])
            .prop_map(str::to_owned),
    ]
}

fn authorization() -> impl Strategy<Value = Option<String>> {
    let token = prop::sample::select(vec![
        "{player}",
        "{assistant}",
        "{arbiter}",
        "{opponent}",
        "{t2-player}",
        "{t2-assistant}",
        "{t2-arbiter}",
        "{t2-opponent}",
        "{venue}",
        "{p1}",
        "{p2}",
        "{p1-grouped}",
        "{card-player}",
        "{card-assistant}",
    ]);
    prop_oneof![
        2 => Just(None),
        4 => token.clone().prop_map(|t| Some(format!("Bearer {t}"))),
        1 => token.clone().prop_map(|t| Some(format!("bearer {t}"))),
        1 => token.prop_map(|t| Some(format!("Bearer  {t} "))),
        1 => "[ -~]{0,60}".prop_map(|g| Some(format!("Bearer {g}"))),
        1 => "[ -~]{0,60}".prop_map(Some),
        1 => Just(Some("Basic dXNlcjpwYXNz".to_owned())),
        1 => Just(Some("Bearer ".to_owned())),
    ]
}

/// JSON of any shape.
fn json() -> impl Strategy<Value = serde_json::Value> {
    use serde_json::Value;
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        field_value(),
    ];
    leaf.prop_recursive(4, 24, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((field_name(), inner), 0..6)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

/// The routes' own field names, and a few others.
fn field_name() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::sample::select(vec![
            "move", "lang", "page_lang", "square", "squares", "piece", "result", "side", "colour",
            "seconds", "ms", "rate", "round", "tables", "table", "trf", "white", "black", "text",
            "game", "kind", "claim", "ruling", "promotion", "role", "start", "braille",
            "braille_shows", "speed", "voice", "pairings", "n", "id", "time", "declared",
            "reason", "forfeit", "white_sheet", "black_sheet", "apply", "games", "board",
            "white_rank", "black_rank", "blind", "control", "start_position", "format", "clock",
        ])
        .prop_map(str::to_owned),
        1 => "[a-z_]{0,12}",
    ]
}

fn field_value() -> impl Strategy<Value = serde_json::Value> {
    prop_oneof![
        prop::sample::select(vec![
            "e4", "e2e4", "Nf3", "Sf3", "O-O", "e8=Q", "e1", "a9", "z0", "white", "black", "1-0",
            "0-1", "1/2-1/2", "*", "q", "Q", "knight", "en", "de", "auto", "1", "", "\u{0}",
            "\u{202E}", "ééé",
        ])
        .prop_map(serde_json::Value::from),
        "[ -~]{0,40}".prop_map(serde_json::Value::from),
        (0usize..20_000).prop_map(|n| serde_json::Value::from("e".repeat(n))),
    ]
}

/// Bodies that fit a write route or nearly (the body structs refuse an
/// unknown field): they reach the table's rules more often than random
/// JSON does.
fn shaped() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        r#"{"move":"e4"}"#,
        r#"{"move":"e5"}"#,
        r#"{"move":"Nf3","lang":"en"}"#,
        r#"{"move":"Sf3","lang":"de","page_lang":"de"}"#,
        r#"{"move":"O-O"}"#,
        r#"{"move":"e8=Q"}"#,
        r#"{"move":"xx","lang":"zz"}"#,
        r#"{"side":"white"}"#,
        r#"{"side":"black"}"#,
        r#"{"side":"green"}"#,
        r#"{"side":"white","seconds":30,"reason":"fuzzed"}"#,
        r#"{"side":"black","seconds":-1e300,"reason":""}"#,
        r#"{"side":"white","seconds":1e300,"reason":"x"}"#,
        r#"{"side":"white","square":"e2"}"#,
        r#"{"side":"black","square":"i9"}"#,
        r#"{"side":"white","declared":"e4"}"#,
        r#"{"side":"black","declared":"Nf6","lang":"en"}"#,
        r#"{"result":"1-0","reason":"fuzzed"}"#,
        r#"{"result":"2-0","reason":"x"}"#,
        r#"{"result":"1/2-1/2","reason":"","forfeit":"white"}"#,
        r#"{"white_sheet":"e4","black_sheet":"e5","apply":true}"#,
        r#"{"white_sheet":"","black_sheet":"","apply":false}"#,
        r#"{"rate":1.6}"#,
        r#"{"rate":-1}"#,
        r#"{"rate":1e308}"#,
        r#"{"piece":"q"}"#,
        r#"{"piece":"king"}"#,
        r#"{"time":"both"}"#,
        r#"{"braille_shows":"notation"}"#,
        r#"{"round":2,"games":[{"table":"1","white":"A","black":"B"}]}"#,
        r#"{"round":1,"games":[{"table":"2","white":"A","black":"B","white_rank":1,"black_rank":1}]}"#,
        r#"{}"#,
    ])
    .prop_map(str::to_owned)
}

fn body() -> impl Strategy<Value = Option<String>> {
    prop_oneof![
        3 => Just(None),
        4 => shaped().prop_map(Some),
        4 => json().prop_map(|j| Some(j.to_string())),
        3 => prop::collection::vec((field_name(), json()), 1..4)
            .prop_map(|kv| Some(serde_json::Value::Object(kv.into_iter().collect()).to_string())),
        1 => (json(), any::<prop::sample::Index>()).prop_map(|(j, at)| {
            let text = j.to_string();
            let cut = at.index(text.len() + 1);
            // Truncated, on a character's boundary.
            let cut = (0..=cut).rev().find(|&c| text.is_char_boundary(c)).unwrap_or(0);
            Some(text[..cut].to_owned())
        }),
        1 => (1usize..200_000).prop_map(|n| Some(format!("{{nest:{n}}}"))),
        1 => (1usize..2_000).prop_map(|n| Some(format!("{{\"move\":{}\"e4\"{}}}", "[".repeat(n), "]".repeat(n)))),
        1 => prop::collection::vec(any::<u8>(), 0..200)
            .prop_map(|b| Some(String::from_utf8_lossy(&b).into_owned())),
        1 => prop::sample::select(vec![16_000usize, 65_537, 70_000, 4 << 20, (4 << 20) + 1])
            .prop_map(|n| Some(format!("{{big:{n}}}"))),
    ]
}

fn content_length() -> impl Strategy<Value = Option<String>> {
    prop_oneof![
        4 => Just(Some("{len}".to_owned())),
        2 => Just(None),
        1 => prop::sample::select(vec!["0", "1", "-1", "abc", "99999999999999999999", "4194305", "65537", " 5"])
            .prop_map(|s| Some(s.to_owned())),
        1 => (0u64..100_000).prop_map(|n| Some(n.to_string())),
    ]
}

fn headers() -> impl Strategy<Value = Vec<String>> {
    let content_type = prop_oneof![
        3 => Just(Some("application/json")),
        1 => Just(None),
        1 => prop::sample::select(vec![
            "text/plain", "application/json; charset=utf-8", "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=x", "application/JSON", "",
        ])
        .prop_map(Some),
    ];
    let other = prop::collection::vec(
        prop_oneof![
            prop::sample::select(vec![
                "Accept: text/event-stream",
                "Accept: */*",
                "Accept-Language: de-DE,de;q=0.9",
                "Accept-Language: zz",
                "Transfer-Encoding: chunked",
                "Host: 192.168.1.20",
                "Origin: http://evil.example",
                "Cookie: token={player}",
                "Expect: 100-continue",
                "Content-Encoding: gzip",
                "Connection: close",
                "Range: bytes=0-1",
                "If-None-Match: *",
                "X-Forwarded-For: 10.0.0.1",
            ])
            .prop_map(str::to_owned),
            "[A-Za-z-]{1,16}: [ -~]{0,40}",
        ],
        0..3,
    );
    (authorization(), content_type, content_length(), other).prop_map(|(auth, ct, cl, other)| {
        let mut h = Vec::new();
        if let Some(a) = auth {
            h.push(format!("Authorization: {a}"));
        }
        if let Some(c) = ct {
            h.push(format!("Content-Type: {c}"));
        }
        if let Some(l) = cl {
            h.push(format!("Content-Length: {l}"));
        }
        h.extend(other);
        h
    })
}

/// One request in the check's text form.
fn request() -> impl Strategy<Value = Vec<u8>> {
    (
        method(),
        path(),
        any::<prop::sample::Index>(),
        prop::bool::weighted(0.7),
        query(),
        headers(),
        body(),
    )
        .prop_map(|(m, (p, methods), which, routed, q, h, b)| {
            // Mostly a method the route is for.
            let m = if routed && !methods.is_empty() {
                methods[which.index(methods.len())].to_owned()
            } else {
                m
            };
            let mut text = format!("{m} {p}{q}\n");
            for line in h {
                text.push_str(&line);
                text.push('\n');
            }
            if let Some(b) = b {
                text.push('\n');
                text.push_str(&b);
            }
            text.into_bytes()
        })
}

#[test]
fn random_requests_through_the_whole_edge_are_answered_without_a_500() {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(500);
    let seed = crate::common::Rng::from_env("HTTP_FUZZ_SEED").next_u64();
    let mut key = [0u8; 32];
    key[..8].copy_from_slice(&seed.to_le_bytes());
    eprintln!("http_fuzz: {cases} cases (PROPTEST_CASES)");
    let config = Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    };
    let mut runner =
        TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &key));
    let venue = http_router::venue();
    let statuses = std::sync::Mutex::new(std::collections::BTreeMap::<u16, usize>::new());
    let made = std::sync::atomic::AtomicUsize::new(0);
    // HTTP_FUZZ_SHOW=404,405: the requests answered so, shown.
    let show: Vec<u16> = std::env::var("HTTP_FUZZ_SHOW")
        .unwrap_or_default()
        .split(',')
        .filter_map(|s| s.trim().parse().ok())
        .collect();
    let result = runner.run(&request(), |text| {
        let Some(req) = http_router::make(&text, &venue.secrets) else {
            return Ok(());
        };
        made.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let first = String::from_utf8_lossy(&text[..text.len().min(160)])
            .lines()
            .next()
            .unwrap_or_default()
            .to_owned();
        let answer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            venue
                .runtime
                .block_on(http_router::send_and_check(&venue.app, req))
        }))
        .map_err(|e| {
            let why = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                .unwrap_or_else(|| "a panic".to_owned());
            TestCaseError::fail(why)
        })?;
        if show.contains(&answer.status.as_u16()) {
            let body = answer.body.as_deref().unwrap_or_default();
            let body = String::from_utf8_lossy(&body[..body.len().min(160)]).into_owned();
            eprintln!("{}: {first} -> {body}", answer.status);
        }
        *statuses
            .lock()
            .unwrap()
            .entry(answer.status.as_u16())
            .or_default() += 1;
        Ok(())
    });
    let made = made.into_inner();
    eprintln!(
        "http_fuzz: {made} requests made, answers by status: {:?}",
        statuses.lock().unwrap()
    );
    if let Err(e) = result {
        panic!("{e}");
    }
    // The tables are still there: no actor was brought down.
    let (status, table) =
        venue
            .runtime
            .block_on(venue.app.call("GET", "/api/tables/1", None, None));
    assert_eq!(status, 200, "{table}");
    assert!(
        made * 2 > cases as usize,
        "most cases were requests: {made} of {cases}"
    );
}
