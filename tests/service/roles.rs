//! Roles to the letter, in-process through the router (tower `oneshot`)
//! over real table actors and a real SQLite journal: every write endpoint
//! tried with every other role's token and every other table's tokens
//! (403, nothing changed), with none (401); and, with two blind players, a
//! promotion pending on one player's board named only by that player, the
//! assistant or the arbiter.

use crate::inprocess;

use std::time::Duration;

use axum::http::StatusCode;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position, Square};
use tactus::table::actions::PersonRole;
use tactus::table::timebase::Timebase;
use tactus_board::event::Protocol;
use tactus_board::sim::Simulator;

use inprocess::{Tables, app};

const ROLES: [PersonRole; 4] = [
    PersonRole::Player,
    PersonRole::Opponent,
    PersonRole::Assistant,
    PersonRole::Arbiter,
];

/// Tables "1" and "2", both with two blind players (Black the table's
/// `blind`, White the second).
fn tables() -> Tables<'static> {
    Tables {
        second_blind: true,
        event: "roles",
        ..Tables::new(&["1", "2"])
    }
}

use PersonRole::{Arbiter, Assistant, Opponent, Player};

/// Every write endpoint, a body that fits it at the start (White to move;
/// Black is the table's blind player, White the second blind player), and
/// the roles that may ask for it there.
const WRITES: &[(&str, &str, &[PersonRole])] = &[
    ("move", r#"{"move":"e4"}"#, &[Opponent, Assistant, Arbiter]),
    ("clock/say", "", &[Player, Opponent, Assistant, Arbiter]),
    ("repeat", "", &[Player, Opponent, Assistant, Arbiter]),
    (
        "board/differences",
        "",
        &[Player, Opponent, Assistant, Arbiter],
    ),
    ("clock/start", "", &[Assistant, Arbiter]),
    ("clock/pause", "", &[Assistant, Arbiter]),
    ("clock/resume", "", &[Assistant, Arbiter]),
    (
        "clock/adjust",
        r#"{"side":"white","seconds":60,"reason":"test"}"#,
        &[Arbiter],
    ),
    (
        "touched",
        r#"{"side":"white","square":"e2"}"#,
        &[Assistant, Arbiter],
    ),
    (
        "draw/offer",
        r#"{"side":"black"}"#,
        &[Player, Assistant, Arbiter],
    ),
    (
        "draw/offer",
        r#"{"side":"white"}"#,
        &[Opponent, Assistant, Arbiter],
    ),
    (
        "draw/decline",
        r#"{"side":"black"}"#,
        &[Player, Assistant, Arbiter],
    ),
    (
        "draw/decline",
        r#"{"side":"white"}"#,
        &[Opponent, Assistant, Arbiter],
    ),
    // A ticket for a live stream: any role at the table, nobody else.
    ("stream-ticket", "", &[Player, Opponent, Assistant, Arbiter]),
    // A player accepts an offer made to them (the table checks whose it
    // is: with none made, 422).
    ("draw/accept", "", &[Player, Opponent, Assistant, Arbiter]),
    (
        "draw/claim/threefold",
        r#"{"side":"white"}"#,
        &[Opponent, Assistant, Arbiter],
    ),
    (
        "draw/claim/fifty",
        r#"{"side":"white"}"#,
        &[Opponent, Assistant, Arbiter],
    ),
    (
        "draw/claim/threefold",
        r#"{"side":"black"}"#,
        &[Player, Assistant, Arbiter],
    ),
    (
        "resign",
        r#"{"side":"black"}"#,
        &[Player, Assistant, Arbiter],
    ),
    (
        "resign",
        r#"{"side":"white"}"#,
        &[Opponent, Assistant, Arbiter],
    ),
    ("flag", "", &[Player, Opponent, Assistant, Arbiter]),
    ("result", r#"{"result":"1-0","reason":"test"}"#, &[Arbiter]),
    ("illegal/completed", r#"{"side":"white"}"#, &[Arbiter]),
    (
        "ruling",
        r#"{"white_sheet":"1. e4","black_sheet":"1. e4","apply":true}"#,
        &[Arbiter],
    ),
    (
        "promotion",
        r#"{"piece":"q"}"#,
        &[Player, Opponent, Assistant, Arbiter],
    ),
    ("rate", r#"{"rate":1.2}"#, &[Arbiter]),
];

/// Every write endpoint of the router is in [`WRITES`]: a route added
/// without a line here fails this test.
#[test]
fn the_table_lists_every_write_endpoint() {
    // The access table's (access_walk holds it to the modules' route
    // lists): only routes served by POST write.
    let mut routes: Vec<String> = tactus::service::web::access_table::ROUTES
        .iter()
        .filter(|(m, ..)| *m == "POST")
        .filter_map(|(_, r, _)| r.strip_prefix("/api/tables/{id}/"))
        .map(str::to_owned)
        .collect();
    routes.sort();
    routes.dedup();
    assert!(routes.len() >= 20, "{routes:?}");
    for r in &routes {
        assert!(
            WRITES.iter().any(|(p, ..)| p == r),
            "write endpoint `{r}` is not tried by roles.rs"
        );
    }
}

#[tokio::test]
async fn every_write_refuses_every_other_role_and_table_and_changes_nothing() {
    for &(path, body, allowed) in WRITES {
        // A fresh pair of tables per endpoint: the allowed roles' tries
        // below change the game.
        let app = app(tables()).await;
        let url = format!("/api/tables/1/{path}");
        let body = (!body.is_empty()).then_some(body);
        let before = (app.table("1").await, app.table("2").await);
        let mut refused = Vec::new();
        for role in ROLES.iter().filter(|r| !allowed.contains(r)) {
            refused.push((
                format!("table 1's {role}"),
                app.token("1", *role),
                StatusCode::FORBIDDEN,
            ));
        }
        for role in ROLES {
            refused.push((
                format!("table 2's {role}"),
                app.token("2", role),
                StatusCode::FORBIDDEN,
            ));
        }
        refused.push((
            "a made-up token".into(),
            "0123456789abcdef0123456789abcdef".into(),
            StatusCode::FORBIDDEN,
        ));
        for (who, token, want) in &refused {
            let (s, v) = app.call("POST", &url, Some(token), body).await;
            assert_eq!(s, *want, "{path} {body:?} by {who}: {v}");
            assert!(v["error"].is_string(), "{path} by {who}: {v}");
        }
        let (s, v) = app.call("POST", &url, None, body).await;
        assert_eq!(s, StatusCode::UNAUTHORIZED, "{path} without a token: {v}");
        assert_eq!(
            (app.table("1").await, app.table("2").await),
            before,
            "{path}: a refused request changed a table"
        );
        // The roles it is meant for are not refused (the game may still
        // say no: 422).
        for role in allowed {
            let (s, v) = app
                .call("POST", &url, Some(&app.token("1", *role)), body)
                .await;
            assert!(
                s != StatusCode::FORBIDDEN && s != StatusCode::UNAUTHORIZED,
                "{path} {body:?} by table 1's {role}: {s} {v}"
            );
        }
    }
}

fn position(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap()
}

/// Both players blind, each on a pegged board: White's promotion on White's
/// board is White's to name (or the assistant's, or the arbiter's), never
/// Black's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pending_promotion_is_named_by_its_own_player_only() {
    let fen = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1";
    let start = position(fen);
    let black = Simulator::new(Protocol::Peg, start.board().clone(), None).unwrap();
    let mut white = Simulator::new(Protocol::Peg, start.board().clone(), None).unwrap();
    let app = app(Tables {
        fen: Some(fen),
        // Table 1's boards: Black's, and White's (the second blind player).
        boards: Some((&black, Some(&white))),
        time: Timebase::monotonic(Duration::from_secs(1_000)),
        ..tables()
    })
    .await;
    app.wait_for("both boards connected", |t| {
        t["board"]["connected"] == true && t["opponent_board"]["connected"] == true
    })
    .await;
    // The second blind player (White) pushes a7 to a8 on their board.
    white.lift(Square::A7).unwrap();
    white.put(Square::A8, None).unwrap();
    app.wait_for("the promotion pending on White's board", |t| {
        t["opponent_board"]["promotion_pending"] == true
    })
    .await;
    let before = app.table("1").await;
    let (s, v) = app
        .call(
            "POST",
            "/api/tables/1/promotion",
            Some(&app.token("1", Player)),
            Some(r#"{"piece":"n"}"#),
        )
        .await;
    assert_eq!(
        s,
        StatusCode::FORBIDDEN,
        "Black named White's promotion: {v}"
    );
    assert_eq!(
        without_reading_time(app.table("1").await),
        without_reading_time(before),
        "nothing changed"
    );
    let (s, v) = app
        .call(
            "POST",
            "/api/tables/1/promotion",
            Some(&app.token("1", Opponent)),
            Some(r#"{"piece":"q"}"#),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let t = app.table("1").await;
    assert_eq!(t["moves"], serde_json::json!(["a8=Q+"]), "{t}");
    drop((black, white));
}

/// A table's state without the instant its clocks were read (`as_of_ms`),
/// which moves on with the table's time while nothing changes.
fn without_reading_time(mut v: serde_json::Value) -> serde_json::Value {
    if let Some(clock) = v["clock"].as_object_mut() {
        clock.remove("as_of_ms");
    }
    v
}
