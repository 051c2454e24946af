//! Issue 15, points 2, 5 and 6: replay that refuses an entry that does not
//! apply (and `tactus journal check` saying the same), `tactus journal
//! backup` of a live journal, a configuration that disagrees with the
//! journal, no "resumed" for a finished game, and the simulated board
//! resuming at the game's position.

use crate::common;

use std::path::Path;
use std::process::{Command, Output};
use std::time::Duration;

use common::{Server, post, table, tokens, wait_for};

fn tactus(args: &[&str], data: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tactus"))
        .args(args)
        .arg(data)
        .output()
        .unwrap()
}

fn play(addr: &str, token: &str, moves: &[&str]) {
    for m in moves {
        let r = post(
            addr,
            "/api/tables/1/move",
            token,
            &format!(r#"{{"move":"{m}"}}"#),
        );
        assert_eq!(r.status, 200, "{m}: {}", r.body);
    }
}

fn event_rows(data: &Path) -> Vec<(i64, String)> {
    let conn = rusqlite::Connection::open(data.join("journal.sqlite")).unwrap();
    let mut stmt = conn
        .prepare("SELECT seq, payload FROM events ORDER BY seq")
        .unwrap();
    stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

#[test]
fn an_event_that_no_longer_applies_stops_the_start_and_the_check() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let server = Server::start(&data, &["--board", "none"]);
    let (_, assistant, _) = tokens(&data, "1");
    play(&server.addr, &assistant, &["e4", "e5", "Nf3", "Nc6", "Bc4"]);
    server.kill9();
    let ok = tactus(&["journal", "check"], &data);
    assert_eq!(ok.status.code(), Some(0), "{ok:?}");
    assert!(String::from_utf8_lossy(&ok.stdout).contains("table 1 game 1 (round "));

    // One byte changed inside an event: g1f3 becomes g1g3.
    let conn = rusqlite::Connection::open(data.join("journal.sqlite")).unwrap();
    let seq: i64 = conn
        .query_row(
            "SELECT seq FROM events WHERE payload LIKE '%g1f3%'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    conn.execute(
        "UPDATE events SET payload = replace(payload, 'g1f3', 'g1g3') WHERE seq = ?1",
        [seq],
    )
    .unwrap();
    drop(conn);
    let before = event_rows(&data);

    let out = common::serve_refused(
        &data,
        &format!("127.0.0.1:{}", common::free_port()),
        &["--board", "none"],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("table 1") && stderr.contains(&format!("entry {seq}")),
        "{stderr}"
    );
    assert!(stderr.contains("g1g3"), "{stderr}");
    assert!(!String::from_utf8_lossy(&out.stdout).contains("fortgesetzt"));
    assert_eq!(
        event_rows(&data),
        before,
        "a refused start wrote to the journal"
    );

    let check = tactus(&["journal", "check"], &data);
    let stderr = String::from_utf8_lossy(&check.stderr);
    assert_eq!(check.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!("table 1: journal entry {seq}")),
        "{stderr}"
    );
    assert_eq!(event_rows(&data), before);
}

#[test]
fn a_backup_of_a_live_journal_holds_every_acknowledged_move() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let server = Server::start(&data, &["--board", "none"]);
    let (_, assistant, _) = tokens(&data, "1");
    play(
        &server.addr,
        &assistant,
        &[
            "e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "c3", "Nf6", "d4", "exd4",
        ],
    );
    let copy = dir.path().join("copy");
    std::fs::create_dir(&copy).unwrap();
    let out = tactus(&["journal", "backup"], &data);
    // (no OUT: a usage error, status 2, nothing written)
    assert_eq!(out.status.code(), Some(2));
    let out = Command::new(env!("CARGO_BIN_EXE_tactus"))
        .args(["journal", "backup"])
        .arg(&data)
        .arg(copy.join("journal.sqlite"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let check = tactus(&["journal", "check"], &copy);
    assert!(
        String::from_utf8_lossy(&check.stdout).contains("10 plies"),
        "{check:?}"
    );
    // The copy starts a server with the game as it was.
    drop(server);
    let again = Server::start(&copy, &["--board", "none"]);
    assert_eq!(table(&again.addr)["moves"].as_array().unwrap().len(), 10);
}

fn venue(dir: &Path, control: &str, white: &str, board: &str) -> std::path::PathBuf {
    let path = dir.join("venue.toml");
    std::fs::write(
        &path,
        format!(
            "[[table]]\nid = \"1\"\nboard = \"{board}\"\ncontrol = \"{control}\"\nwhite = \"{white}\"\nround = \"3\"\n"
        ),
    )
    .unwrap();
    path
}

#[test]
fn a_config_that_disagrees_stops_the_start_and_edited_names_wait_for_the_next_game() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let config = venue(dir.path(), "90+30", "Réti", "none");
    let server = Server::start(&data, &["--config", config.to_str().unwrap()]);
    let (_, assistant, _) = tokens(&data, "1");
    play(&server.addr, &assistant, &["e4", "e5"]);
    server.kill9();
    let before = event_rows(&data);

    let config = venue(dir.path(), "15+10", "Réti", "none");
    let out = common::serve_refused(
        &data,
        &format!("127.0.0.1:{}", common::free_port()),
        &["--config", config.to_str().unwrap()],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("table 1") && stderr.contains("`control`"),
        "{stderr}"
    );
    assert_eq!(event_rows(&data), before);

    // Names edited between starts never rename the game under way: they
    // are for the table's next game (issue 24: starting round 2 by an
    // edited venue file once rewrote round 1's game).
    let config = venue(dir.path(), "90+30", "Richard Réti", "none");
    let server = Server::start(&data, &["--config", config.to_str().unwrap()]);
    let view = table(&server.addr);
    assert_eq!(view["white"], "Réti");
    assert_eq!(view["moves"].as_array().unwrap().len(), 2);
    let pgn = common::get(&server.addr, "/api/tables/1/pgn").body;
    assert!(pgn.contains("[White \"Réti\"]"), "{pgn}");
    let r = post(
        &server.addr,
        "/api/tables/1/resign",
        &assistant,
        r#"{"side":"black"}"#,
    );
    assert_eq!(r.status, 200, "{}", r.body);
    server.kill9();
    assert!(
        !event_rows(&data)
            .iter()
            .any(|(_, p)| p.contains("Richard Réti")),
        "the game under way was renamed"
    );
    // Started again with the same round: the finished game stays as it is.
    let server = Server::start(&data, &["--config", config.to_str().unwrap()]);
    let view = table(&server.addr);
    assert_eq!(view["white"], "Réti");
    let finished = common::get(&server.addr, "/api/rounds/3/pgn").body;
    assert!(
        finished.contains("[White \"Réti\"]") && finished.contains("1-0"),
        "{finished}"
    );
    server.kill9();

    // The organiser's round 4 by an edited venue file: a new game; the
    // finished one is kept as it was.
    std::fs::write(
        &config,
        "[[table]]\nid = \"1\"\nboard = \"none\"\ncontrol = \"90+30\"\nwhite = \"Carla\"\nround = \"4\"\n",
    )
    .unwrap();
    let server = Server::start(&data, &["--config", config.to_str().unwrap()]);
    let view = table(&server.addr);
    assert_eq!(view["white"], "Carla");
    assert_eq!(view["round"], "4");
    assert_eq!(view["moves"].as_array().unwrap().len(), 0);
    let round3 = common::get(&server.addr, "/api/rounds/3/pgn").body;
    assert_eq!(round3, finished, "round 3's game changed");
    server.kill9();
    let check = tactus(&["journal", "check"], &data);
    assert!(check.status.success(), "{check:?}");
    let listed = String::from_utf8_lossy(&check.stdout);
    assert!(
        listed.contains("table 1 game 1 (round 3, Réti - ") && listed.contains("finished 1-0"),
        "{listed}"
    );
    assert!(
        listed.contains("table 1 game 2 (round 4, Carla - ") && listed.contains("not begun"),
        "{listed}"
    );
}

#[test]
fn a_finished_game_is_not_resumed_and_the_simulated_board_resumes_at_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    // The default table: blind Black on the simulated board.
    let server = Server::start(&data, &[]);
    let (player, assistant, _) = tokens(&data, "1");
    play(&server.addr, &assistant, &["e4"]);
    play(&server.addr, &player, &["e5"]);
    play(&server.addr, &assistant, &["Nf3"]);
    server.kill9();

    let server = Server::start(&data, &[]);
    let board = wait_for("the board in step", Duration::from_secs(20), || {
        let b = table(&server.addr)["board"].clone();
        (b["connected"] == true && (b["in_sync"] == true || !b["differs"].as_array()?.is_empty()))
            .then_some(b)
    });
    assert_eq!(board["differs"], serde_json::json!([]), "{board}");

    let r = post(
        &server.addr,
        "/api/tables/1/resign",
        &player,
        r#"{"side":"black"}"#,
    );
    assert_eq!(r.status, 200, "{}", r.body);
    server.kill9();
    let restarts = |data: &Path| {
        event_rows(data)
            .iter()
            .filter(|(_, p)| p.contains("service_restarted"))
            .count()
    };
    let before = restarts(&data);
    let server = Server::start(&data, &[]);
    let view = table(&server.addr);
    // "Partie fortgesetzt Uhr angehalten" is the service_restarted event's
    // announcement: a finished game has none.
    assert_eq!(restarts(&data), before, "a finished game was resumed");
    assert_ne!(
        view["last_announcement"].as_str().unwrap_or(""),
        "Partie fortgesetzt Uhr angehalten"
    );
    assert!(view["result"].to_string().contains("1-0"), "{view}");
}
