//! A step of the system time changes no clock: `tactus serve` runs under
//! libfaketime (Debian's `faketime`), which moves the wall clock (as an NTP
//! correction or an organiser setting the time would) but, with
//! `FAKETIME_DONT_FAKE_MONOTONIC=1`, leaves the monotonic clock alone, as the
//! kernel does. The table lives by the monotonic clock, so a game's clocks
//! must run on as if nothing happened.

use crate::common;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use common::{Server, post, table, tokens};

const LIBFAKETIME: &str = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1";

fn faked_env(file: &Path) -> Vec<(&'static str, String)> {
    vec![
        ("LD_PRELOAD", LIBFAKETIME.to_string()),
        ("FAKETIME_TIMESTAMP_FILE", file.display().to_string()),
        // Read the file on every call, so a step takes effect at once.
        ("FAKETIME_NO_CACHE", "1".to_string()),
        ("FAKETIME_DONT_FAKE_MONOTONIC", "1".to_string()),
        ("RUST_LOG", "error".to_string()),
    ]
}

fn ms(v: &serde_json::Value, side: &str) -> i64 {
    v["clock"][format!("{side}_ms")].as_i64().unwrap()
}

/// The wall time a process sees under `env`, in seconds.
fn faked_date(env: &[(&'static str, String)]) -> i64 {
    let out = Command::new("date")
        .arg("+%s")
        .envs(env.iter().map(|(k, v)| (*k, v.as_str())))
        .output()
        .unwrap();
    String::from_utf8(out.stdout)
        .unwrap()
        .trim()
        .parse()
        .unwrap()
}

#[test]
fn stepping_the_system_time_two_hours_either_way_changes_no_clock() {
    assert!(
        Path::new(LIBFAKETIME).exists(),
        "{LIBFAKETIME} is missing: install Debian's faketime (scripts/test does)"
    );
    let dir = tempfile::tempdir().unwrap();
    let step = dir.path().join("faketime");
    std::fs::write(&step, "+0\n").unwrap();
    let env = faked_env(&step);
    let real = faked_date(&env);

    // The preload works: a step shows in what a process reads as the date.
    std::fs::write(&step, "+2h\n").unwrap();
    assert!(
        (faked_date(&env) - real - 7200).abs() < 5,
        "libfaketime did not step the time"
    );
    std::fs::write(&step, "+0\n").unwrap();

    let data = dir.path().join("data");
    let env_ref: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let server = Server::start_with_env(&data, &["--board", "none", "--control", "3+0"], &env_ref);
    let addr = server.addr.clone();
    let (_, assistant, _) = tokens(&data, "1");
    assert_eq!(
        post(&addr, "/api/tables/1/clock/start", &assistant, "{}").status,
        200
    );
    assert_eq!(
        post(&addr, "/api/tables/1/move", &assistant, r#"{"move":"e4"}"#).status,
        200
    );

    // Black's clock runs. Forward two hours, then back two hours from the
    // real time (four hours back from the time just set).
    for shift in ["+2h", "-2h", "+0"] {
        let before = table(&addr);
        std::fs::write(&step, format!("{shift}\n")).unwrap();
        std::thread::sleep(Duration::from_millis(1500));
        let after = table(&addr);
        assert!(after["result"].is_null(), "after {shift}: {after}");
        let ran = ms(&before, "black") - ms(&after, "black");
        assert!(
            (1000..=4000).contains(&ran),
            "after a step of {shift} Black's clock ran {ran} ms in 1.5 s: {after}"
        );
        assert_eq!(ms(&before, "white"), ms(&after, "white"), "after {shift}");
    }

    // Play goes on normally: Black's move is charged its real time only.
    assert_eq!(
        post(&addr, "/api/tables/1/move", &assistant, r#"{"move":"e5"}"#).status,
        200
    );
    let t = table(&addr);
    assert!(ms(&t, "black") > 170_000, "{t}");
    assert_eq!(t["moves"], serde_json::json!(["e4", "e5"]));
    drop(server);
}
