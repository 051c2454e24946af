//! The pages' contract with the API: every field the pages' scripts read
//! is in what a real table answers, every body they send is read by its
//! type, and `docs/api.md` names every endpoint and every field.
//!
//! The answers are those of real tables in-process (router, actors, SQLite
//! journal, two simulated peg boards), taken through a game that fills
//! every part of the state: boards, a touched piece, an illegal attempt, a
//! draw offer, a fallen flag, a ruling, a result.

use crate::inprocess;

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{Request, StatusCode};
use futures_util::StreamExt;
use serde::de::{DeserializeOwned, Visitor};
use tactus::service::competition::views::RoundGame;
use tactus::service::web::api_types::{
    AdjustBody, BrfQuery, ClaimBody, ErrorBody, LineupBody, MoveBody, PromotionBody, ResultBody,
    RoundBody, RoundQuery, RulingBody, SayClockBody, SideBody, TouchBody,
};
use tactus::table::actions::PersonRole::{Arbiter, Assistant, Opponent, Player};
use tactus_board::event::Protocol;
use tactus_board::sim::Simulator;
use tower::ServiceExt;

use inprocess::{Tables, app};

/// What the pages read from a table's state (`GET /api/tables/{id}`, the
/// live `state` event), as paths: `a.b` a field of an object, `a[].b` a
/// field of every element of an array. From src/service/pages/*.js; the
/// reads through `s.` and `state.` are also found by
/// [`the_list_holds_every_state_read_in_the_scripts`].
const STATE_READS: &[&str] = &[
    "id",
    "white",
    "black",
    "event",
    "round",
    "game",
    "blind",
    "turn",
    "fen",
    "moves",
    "moves_uci",
    "legal_moves",
    "kind",
    "flag_rule",
    "voice_lang",
    "rate",
    "last_announcement",
    "draw_offer",
    "result",
    "result.result",
    "result.reason",
    "result.ending",
    "clock",
    "clock.white_ms",
    "clock.black_ms",
    "clock.running",
    "clock.flag",
    "clock.running_side",
    "clock.as_of_ms",
    "illegal_completed.white",
    "illegal_completed.black",
    "board",
    "board.connected",
    "board.in_sync",
    "board.differs",
    "board.fen",
    "board.occupied",
    "opponent_board",
    "opponent_board.connected",
    "opponent_board.in_sync",
    "touched",
    "touched[].side",
    "touched[].square",
    "illegal",
    "illegal[].side",
    "illegal[].text",
    "alerts",
    "alerts[].text",
    "alerts[].key",
    "alerts[].args",
    "audio",
    "audio.state",
];

/// What the pages read from a live `announcement` event.
const ANNOUNCEMENT_READS: &[&str] = &["seq", "kind", "text", "tokens"];

/// What the pages read from the answer to a write (`r.data.text`).
const REPLY_READS: &[&str] = &["text"];

/// What the arbiter's page reads from a ruling (`showRuling`).
const RULING_READS: &[&str] = &[
    "case",
    "agreed_plies",
    "first_difference",
    "first_difference.ply",
    "first_difference.white",
    "first_difference.black",
    "position",
    "clock",
    "clock.white_ms",
    "clock.black_ms",
    "clock.proposal",
];

/// What the player's page reads from its table's voice pack (player.js).
const VOICE_READS: &[&str] = &["gap_ms", "clips"];

/// What the pages read from an error answer (common.js `api`).
const ERROR_READS: &[&str] = &["error"];

/// Names the scripts call on a state's values that are JavaScript's own
/// (an array's `length`, `map`), not the API's.
const JS_OWN: &[&str] = &[
    "length", "slice", "map", "join", "filter", "includes", "split", "indexOf", "some", "every",
    "find", "forEach",
];

/// The paths in `v`: `prefix.key` per field, `prefix[]` into arrays; a
/// `null` field gives its own path only.
fn paths(v: &serde_json::Value, prefix: &str, out: &mut BTreeSet<String>) {
    match v {
        serde_json::Value::Object(map) => {
            for (k, v) in map {
                let p = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                out.insert(p.clone());
                paths(v, &p, out);
            }
        }
        serde_json::Value::Array(items) => {
            for item in items {
                paths(item, &format!("{prefix}[]"), out);
            }
        }
        _ => {}
    }
}

fn paths_of(v: &serde_json::Value) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    paths(v, "", &mut out);
    out
}

/// Every answer of a game that fills every part of a table's state.
struct Answers {
    states: BTreeSet<String>,
    announcements: BTreeSet<String>,
    replies: BTreeSet<String>,
    rulings: BTreeSet<String>,
    errors: BTreeSet<String>,
    voices: BTreeSet<String>,
}

/// The events of a live stream's bytes so far: (event, JSON data).
fn sse_events(text: &str) -> Vec<(String, serde_json::Value)> {
    text.split("\n\n")
        .filter_map(|block| {
            let event = block.lines().find_map(|l| l.strip_prefix("event: "))?;
            let data: String = block
                .lines()
                .filter_map(|l| l.strip_prefix("data: "))
                .collect();
            Some((event.to_owned(), serde_json::from_str(&data).ok()?))
        })
        .collect()
}

async fn a_full_game() -> Answers {
    let start = shakmaty::Chess::default();
    use shakmaty::Position;
    let black = Simulator::new(Protocol::Peg, start.board().clone(), None).unwrap();
    let white = Simulator::new(Protocol::Peg, start.board().clone(), None).unwrap();
    let mut tables = Tables::new(&["1"]);
    tables.second_blind = true;
    tables.boards = Some((&black, Some(&white)));
    let app = app(tables).await;
    app.wait_for("both boards connected", |t| {
        t["board"]["connected"] == true && t["opponent_board"]["connected"] == true
    })
    .await;
    let live = app
        .router
        .clone()
        .oneshot(
            Request::builder()
                .uri("/api/tables/1/events")
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(live.status(), StatusCode::OK);
    let mut live = live.into_body().into_data_stream();

    let mut answers = Answers {
        states: BTreeSet::new(),
        announcements: BTreeSet::new(),
        replies: BTreeSet::new(),
        rulings: BTreeSet::new(),
        errors: BTreeSet::new(),
        voices: BTreeSet::new(),
    };
    let mut ok = async |path: &str, role, body: &str| {
        let (s, v) = app.post(path, role, body).await;
        assert_eq!(s, StatusCode::OK, "{path} {body}: {v}");
        answers.replies.extend(paths_of(&v));
        v
    };
    ok(
        "/api/tables/1/touched",
        Assistant,
        r#"{"side":"white","square":"e2"}"#,
    )
    .await;
    ok("/api/tables/1/move", Opponent, r#"{"move":"e4"}"#).await;
    ok("/api/tables/1/draw/offer", Player, r#"{"side":"black"}"#).await;
    let (s, v) = app
        .post("/api/tables/1/move", Player, r#"{"move":"Ke7"}"#)
        .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    answers.errors.extend(paths_of(&v));
    answers.states.extend(paths_of(&app.table("1").await));
    // Black's 90 minutes run out.
    app.time.advance(Duration::from_secs(2 * 3600));
    let t = app.table("1").await;
    assert_eq!(t["clock"]["flag"], "black", "{t}");
    answers.states.extend(paths_of(&t));
    let (s, v) = app
        .post(
            "/api/tables/1/ruling",
            Arbiter,
            r#"{"white_sheet":"1. e4","black_sheet":"1. d4"}"#,
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    answers.rulings.extend(paths_of(&v));
    ok("/api/tables/1/flag", Opponent, "").await;
    let t = app.table("1").await;
    assert!(t["result"].is_object(), "{t}");
    answers.states.extend(paths_of(&t));
    // The live stream had the state first, then announcements and states.
    let mut text = String::new();
    let deadline = Instant::now() + Duration::from_secs(20);
    while !text.contains("event: announcement") {
        let left = deadline.saturating_duration_since(Instant::now());
        let chunk = tokio::time::timeout(left, live.next())
            .await
            .expect("no announcement on the live stream")
            .expect("the live stream ended")
            .unwrap();
        text.push_str(&String::from_utf8_lossy(&chunk));
    }
    for (event, data) in sse_events(&text) {
        match event.as_str() {
            "state" => answers.states.extend(paths_of(&data)),
            "announcement" => answers.announcements.extend(paths_of(&data)),
            // Where a new page is: the number it comes back from.
            "at" => assert!(data["seq"].is_u64(), "{data}"),
            other => panic!("unknown live event `{other}`"),
        }
    }
    // The pack the player's page fetches, and one clip it names.
    let (s, voice) = app.call("GET", "/api/tables/1/voice", None, None).await;
    assert_eq!(s, StatusCode::OK, "{voice}");
    let clip = voice["clips"]["piece.knight"].as_str().unwrap();
    let (s, _) = app.call("GET", clip, None, None).await;
    assert_eq!(s, StatusCode::OK, "{clip}");
    // The clips' keys are the pack's, not fields of the API.
    answers.voices.extend(
        paths_of(&voice)
            .into_iter()
            .filter(|p| !p.starts_with("clips.")),
    );
    drop((black, white));
    answers
}

fn missing(reads: &[&str], have: &BTreeSet<String>) -> Vec<String> {
    reads
        .iter()
        .filter(|r| !have.contains(**r))
        .map(|r| r.to_string())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_field_the_pages_read_is_in_a_real_answer() {
    let a = a_full_game().await;
    let mut gaps = Vec::new();
    for (what, reads, have) in [
        ("state", STATE_READS, &a.states),
        ("announcement", ANNOUNCEMENT_READS, &a.announcements),
        ("reply", REPLY_READS, &a.replies),
        ("ruling", RULING_READS, &a.rulings),
        ("error", ERROR_READS, &a.errors),
        ("voice", VOICE_READS, &a.voices),
    ] {
        for m in missing(reads, have) {
            gaps.push(format!("{what}: `{m}`"));
        }
    }
    assert!(
        gaps.is_empty(),
        "the pages read fields the API does not send: {gaps:?}\nstate has: {:?}",
        a.states
    );
    // And every field of every answer has a row of its own in a table of
    // docs/api.md (`| `name` | meaning |`).
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/api.md")).unwrap();
    let mut undocumented = BTreeSet::new();
    for path in a
        .states
        .iter()
        .chain(&a.announcements)
        .chain(&a.replies)
        .chain(&a.rulings)
        .chain(&a.errors)
        .chain(&a.voices)
    {
        let name = path.rsplit(['.', ']']).next().unwrap();
        if !doc.contains(&format!("| `{name}` |")) {
            undocumented.insert(path.clone());
        }
    }
    assert!(
        undocumented.is_empty(),
        "fields not in docs/api.md: {undocumented:?}"
    );
}

/// The reads through `s.` and `state.` in the pages' scripts, as paths
/// (`s.result.result` → `result.result`, `s.moves.length` → `moves`).
fn state_reads_in_scripts() -> BTreeSet<String> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/service/pages");
    let mut out = BTreeSet::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "js") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let bytes = text.as_bytes();
        for var in ["s.", "state."] {
            let mut from = 0;
            while let Some(at) = text[from..].find(var) {
                let start = from + at;
                from = start + var.len();
                // A whole name: not `xs.` nor `.state.`.
                if start > 0
                    && (bytes[start - 1].is_ascii_alphanumeric()
                        || b"_.$".contains(&bytes[start - 1]))
                {
                    continue;
                }
                let chain: String = text[from..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '.')
                    .collect();
                let parts: Vec<&str> = chain
                    .split('.')
                    .take_while(|p| !p.is_empty() && !JS_OWN.contains(p))
                    .collect();
                if !parts.is_empty() {
                    out.insert(parts.join("."));
                }
            }
        }
    }
    out
}

/// A read added to a script without a line in [`STATE_READS`] fails here,
/// so the list the first test checks stays the pages' own.
#[test]
fn the_list_holds_every_state_read_in_the_scripts() {
    let reads = state_reads_in_scripts();
    assert!(reads.len() >= 20, "{reads:?}");
    let unlisted: Vec<_> = reads
        .iter()
        .filter(|r| !STATE_READS.contains(&r.as_str()))
        .collect();
    assert!(
        unlisted.is_empty(),
        "reads not in STATE_READS: {unlisted:?}"
    );
}

/// The field names a request body's type reads, from its `Deserialize`
/// (serde hands them to `deserialize_struct`).
fn fields_of<T: DeserializeOwned>() -> Vec<&'static str> {
    struct Grab<'a>(&'a mut Vec<&'static str>);
    impl<'de> serde::Deserializer<'de> for Grab<'_> {
        type Error = serde::de::value::Error;
        fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
            Err(serde::de::Error::custom("not a struct"))
        }
        fn deserialize_struct<V: Visitor<'de>>(
            self,
            _: &'static str,
            fields: &'static [&'static str],
            _: V,
        ) -> Result<V::Value, Self::Error> {
            self.0.extend(fields);
            Err(serde::de::Error::custom("fields taken"))
        }
        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
            bytes byte_buf option unit unit_struct newtype_struct seq tuple
            tuple_struct map enum identifier ignored_any
        }
    }
    let mut fields = Vec::new();
    let _ = T::deserialize(Grab(&mut fields));
    assert!(!fields.is_empty(), "{}", std::any::type_name::<T>());
    fields
}

/// Every request body's fields have a row in a table of docs/api.md, and
/// every route is named there.
#[test]
fn the_document_names_every_route_and_every_request_field() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/api.md")).unwrap();
    let bodies = [
        ("MoveBody", fields_of::<MoveBody>()),
        ("SayClockBody", fields_of::<SayClockBody>()),
        ("SideBody", fields_of::<SideBody>()),
        ("ClaimBody", fields_of::<ClaimBody>()),
        ("AdjustBody", fields_of::<AdjustBody>()),
        ("TouchBody", fields_of::<TouchBody>()),
        ("ResultBody", fields_of::<ResultBody>()),
        ("RulingBody", fields_of::<RulingBody>()),
        ("PromotionBody", fields_of::<PromotionBody>()),
        ("BrfQuery", fields_of::<BrfQuery>()),
        ("RoundBody", fields_of::<RoundBody>()),
        ("RoundGame", fields_of::<RoundGame>()),
        ("RoundQuery", fields_of::<RoundQuery>()),
        ("LineupBody", fields_of::<LineupBody>()),
        ("ErrorBody", fields_of::<ErrorBody>()),
    ];
    let mut missing = Vec::new();
    for (name, fields) in &bodies {
        if !doc.contains(name) {
            missing.push(name.to_string());
        }
        for f in fields {
            if !doc.contains(&format!("| `{f}` |")) {
                missing.push(format!("{name}.{f}"));
            }
        }
    }
    // The routes, as the access table names them (access_walk holds it to
    // the modules' route lists).
    let mut routes = 0;
    for &(_, route, _) in tactus::service::web::access_table::ROUTES {
        routes += 1;
        if !doc.contains(&format!("`{route}`")) {
            missing.push(format!("route {route}"));
        }
    }
    assert!(routes >= 30, "{routes} routes found");
    assert!(missing.is_empty(), "not in docs/api.md: {missing:?}");
}

/// The bodies the pages send are read by their types (a field the page
/// sends that the type does not know is refused with 400).
#[test]
fn the_bodies_the_pages_send_are_read() {
    fn reads<T: DeserializeOwned>(json: &str) {
        if let Err(e) = serde_json::from_str::<T>(json) {
            panic!("{} does not read {json}: {e}", std::any::type_name::<T>());
        }
    }
    // player.js, assistant.js, opponent.js: moves with the page's language.
    reads::<MoveBody>(r#"{"move":"Sf3","lang":"auto","page_lang":"de"}"#);
    // assistant.js: side buttons, claims with a declared move.
    reads::<SideBody>(r#"{"side":"white"}"#);
    reads::<ClaimBody>(r#"{"side":"black","move":"Nf3","lang":"auto","page_lang":"en"}"#);
    reads::<TouchBody>(r#"{"side":"white","square":"e2"}"#);
    // arbiter.js: adjust, ruling, result, completed illegal move.
    reads::<AdjustBody>(r#"{"side":"black","seconds":-60,"reason":"7.5.5"}"#);
    reads::<RulingBody>(r#"{"white_sheet":"1. e4","black_sheet":"1. e4","apply":false}"#);
    reads::<ResultBody>(r#"{"result":"1-0","reason":"arbiter"}"#);
    // player.js, assistant.js: the clock in the other reading.
    reads::<SayClockBody>(r#"{"time":"used"}"#);
    // No page sends this one (a tactile board's promotion is named on the
    // board or by a client of the API), but it is the same contract.
    reads::<PromotionBody>(r#"{"piece":"q"}"#);
}

/// The example bodies in docs/api.md (`` `MoveBody`, e.g. `{…}`: ``) are
/// read by their types: an example cannot keep a field the type lost.
#[test]
fn the_document_s_example_bodies_are_read_by_their_types() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/api.md")).unwrap();
    fn check<T: DeserializeOwned>(json: &str) -> Result<(), String> {
        serde_json::from_str::<T>(json)
            .map(drop)
            .map_err(|e| e.to_string())
    }
    let mut read = 0;
    for line in doc.lines() {
        let Some((name, rest)) = line
            .strip_prefix('`')
            .and_then(|l| l.split_once("`, e.g. `"))
        else {
            continue;
        };
        let json = rest.strip_suffix("`:").expect("an example ends with `:");
        let result = match name {
            "MoveBody" => check::<MoveBody>(json),
            "SayClockBody" => check::<SayClockBody>(json),
            "SideBody" => check::<SideBody>(json),
            "ClaimBody" => check::<ClaimBody>(json),
            "AdjustBody" => check::<AdjustBody>(json),
            "TouchBody" => check::<TouchBody>(json),
            "ResultBody" => check::<ResultBody>(json),
            "RulingBody" => check::<RulingBody>(json),
            "PromotionBody" => check::<PromotionBody>(json),
            "RoundBody" => check::<RoundBody>(json),
            "LineupBody" => check::<LineupBody>(json),
            other => Err(format!("no type `{other}` in this test")),
        };
        if let Err(e) = result {
            panic!("docs/api.md's example of {name}, {json}: {e}");
        }
        read += 1;
    }
    assert_eq!(read, 11, "every request body has one example");
}
