//! Issue 15, point 1: one server per data folder. A second `tactus serve`
//! on a folder in use (or on a port in use) exits with status 2, names the
//! folder and the other process, and writes nothing.

use crate::common;

use std::collections::BTreeMap;
use std::path::Path;

use common::{Server, free_port, post, table, tokens};

/// Every file of `dir` with its bytes.
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            out.insert(
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap_or_default(),
            );
        }
    }
    out
}

#[test]
fn a_second_server_on_the_folder_exits_2_naming_it_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let first = Server::start(&data, &["--board", "none"]);
    let (_, assistant, _) = tokens(&data, "1");
    for m in ["e4", "e5"] {
        assert_eq!(
            post(
                &first.addr,
                "/api/tables/1/move",
                &assistant,
                &format!(r#"{{"move":"{m}"}}"#)
            )
            .status,
            200
        );
    }
    let before = snapshot(&data);

    // Same folder, another port.
    let out = common::serve_refused(&data, &format!("127.0.0.1:{}", free_port()), &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(&data.display().to_string()), "{stderr}");
    assert!(
        stderr.contains(&format!("pid {}", first.child.id())),
        "{stderr}"
    );
    assert!(!String::from_utf8_lossy(&out.stdout).contains("tactus is serving"));
    assert_eq!(
        snapshot(&data),
        before,
        "the second server wrote into the folder"
    );

    // Same port, another folder: refused before the folder is made.
    let other = dir.path().join("other");
    let out = common::serve_refused(&other, &first.addr, &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains(&first.addr));
    assert!(!other.exists(), "a refused server made its data folder");

    // The first server goes on, and its game is whole after a restart.
    for m in ["Nf3", "Nc6"] {
        assert_eq!(
            post(
                &first.addr,
                "/api/tables/1/move",
                &assistant,
                &format!(r#"{{"move":"{m}"}}"#)
            )
            .status,
            200
        );
    }
    first.kill9();
    let again = Server::start(&data, &["--board", "none"]);
    let moves = table(&again.addr)["moves"].clone();
    assert_eq!(moves, serde_json::json!(["e4", "e5", "Nf3", "Nc6"]));
}
