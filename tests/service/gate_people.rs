//! Issue 43, item 6: a token belongs to a person, and the round's
//! boundaries hold. Each case is the one the issue reports, through a real
//! `tactus serve`:
//!
//! - the pairing program renumbers Ana and Bea (ranks 1 and 2 swap) and
//!   the server restarts: each code still leads to its own player, with
//!   their own settings, and the cards page names the change;
//! - a new player given a dropped player's rank gets a new code, and the
//!   dropped player's is refused, naming them;
//! - round 2 set up at one table leaves the players of a round-1 game
//!   still being played elsewhere their access;
//! - a round the arbiter set up takes no move before the arbiter starts
//!   it, and the refusal says why.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

use crate::common::{Server, request, tokens_file, venue_token};

fn codes(data: &Path) -> BTreeMap<u16, String> {
    tokens_file(data)["players"]
        .as_table()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.parse().unwrap(), v.as_str().unwrap().to_owned()))
        .collect()
}

fn venue(players: &[(&str, u16)]) -> String {
    let mut v = String::from(
        "[[table]]\nid = \"1\"\nboard = \"none\"\n\n[[table]]\nid = \"2\"\nboard = \"none\"\n\n",
    );
    for (name, rank) in players {
        v.push_str(&format!(
            "[[player]]\nname = \"{name}\"\nstart_rank = {rank}\n\n"
        ));
    }
    v
}

fn me(addr: &str, code: &str) -> (u16, Value) {
    let r = request(addr, "GET", "/api/players/me", Some(code), None);
    let v = serde_json::from_str(&r.body).unwrap_or(Value::Null);
    (r.status, v)
}

#[test]
fn a_player_s_code_follows_the_person_when_ranks_are_renumbered() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    let server = Server::with_venue(&data, &venue(&[("Ana", 1), ("Bea", 2)]));
    let before = codes(&data);
    let (ana, bea) = (before[&1].clone(), before[&2].clone());
    // Ana sets her speaking rate.
    let r = request(
        &server.addr,
        "PUT",
        "/api/players/me/settings",
        Some(&ana),
        Some(r#"{"rate":1.3}"#),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    server.kill9();

    // A late entry re-sorts the start ranks: Ana and Bea swap.
    let server = Server::with_venue(&data, &venue(&[("Bea", 1), ("Ana", 2)]));
    let addr = server.addr.clone();
    let (status, v) = me(&addr, &ana);
    assert_eq!(status, 200, "{v}");
    assert_eq!(
        (v["name"].as_str(), v["start_rank"].as_u64()),
        (Some("Ana"), Some(2))
    );
    assert_eq!(me(&addr, &bea).1["name"], "Bea");
    let r = request(&addr, "GET", "/api/players/me/settings", Some(&ana), None);
    assert_eq!(
        r.json()["rate"],
        1.3,
        "Ana's settings are Ana's: {}",
        r.body
    );
    let r = request(&addr, "GET", "/api/players/me/settings", Some(&bea), None);
    assert!(r.json()["rate"].is_null(), "Bea's are her own: {}", r.body);
    // The venue arbiter's cards page names the change.
    let cards = request(&addr, "GET", "/api/cards", Some(&venue_token(&data)), None).json();
    let changes = cards["code_changes"].as_array().unwrap();
    assert_eq!(changes.len(), 2, "{cards}");
    assert!(
        changes
            .iter()
            .any(|c| c["change"] == "moved" && c["name"] == "Ana")
    );
    server.kill9();

    // Bea leaves; Carl is given rank 1: a new code for him, and Bea's is
    // refused, naming her.
    let server = Server::with_venue(&data, &venue(&[("Carl", 1), ("Ana", 2)]));
    let addr = server.addr.clone();
    let carl = codes(&data)[&1].clone();
    assert_ne!(carl, bea);
    let (status, v) = me(&addr, &bea);
    assert_eq!(status, 403, "{v}");
    assert!(v["error"].as_str().unwrap().contains("Bea"), "{v}");
    assert_eq!(me(&addr, &carl).1["name"], "Carl");
    assert_eq!(me(&addr, &ana).1["name"], "Ana");
    let cards = request(&addr, "GET", "/api/cards", Some(&venue_token(&data)), None).json();
    assert!(
        cards["code_changes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["change"] == "replaced" && c["before"] == "Bea" && c["name"] == "Carl"),
        "{cards}"
    );
}

#[test]
fn the_rounds_boundaries_hold() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    let server = Server::with_venue(
        &data,
        &venue(&[("Ana", 1), ("Bea", 2), ("Carl", 3), ("Dora", 4)]),
    );
    let addr = server.addr.clone();
    let venue = venue_token(&data);
    let c = codes(&data);
    let round = |n: u8, games: &str| {
        let r = request(
            &addr,
            "POST",
            "/api/rounds",
            Some(&venue),
            Some(&format!(r#"{{"round":"{n}","games":[{games}]}}"#)),
        );
        assert_eq!(r.status, 200, "{}", r.body);
    };
    let mv = |table: &str, code: &str, m: &str| {
        request(
            &addr,
            "POST",
            &format!("/api/tables/{table}/move"),
            Some(code),
            Some(&format!(r#"{{"move":"{m}"}}"#)),
        )
    };
    round(
        1,
        r#"{"table":"1","white":"Ana","black":"Bea"},{"table":"2","white":"Carl","black":"Dora"}"#,
    );
    // Before the arbiter starts the round: no move, and the refusal says
    // why; the round can still be paired again.
    let r = mv("1", &c[&1], "e4");
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(
        r.body.contains("round 1 has not been started"),
        "{}",
        r.body
    );
    round(
        1,
        r#"{"table":"1","white":"Ana","black":"Bea"},{"table":"2","white":"Carl","black":"Dora"}"#,
    );
    let r = request(&addr, "POST", "/api/rounds/1/start", Some(&venue), Some(""));
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(mv("1", &c[&1], "e4").status, 200);
    assert_eq!(mv("2", &c[&3], "d4").status, 200);
    // Table 1's game ends; round 2 is set up there while table 2's round-1
    // game is still being played.
    let r = request(
        &addr,
        "POST",
        "/api/tables/1/resign",
        Some(&c[&2]),
        Some(r#"{"side":"black"}"#),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    round(2, r#"{"table":"1","white":"Bea","black":"Ana"}"#);
    // Dora and Carl keep their game: its moves are theirs to make.
    let r = mv("2", &c[&4], "d5");
    assert_eq!(r.status, 200, "Dora's round-1 game: {}", r.body);
    assert_eq!(mv("2", &c[&3], "c4").status, 200);
    // And the new round's game waits for its start.
    let r = mv("1", &c[&2], "e4");
    assert_eq!(r.status, 422, "{}", r.body);
}
