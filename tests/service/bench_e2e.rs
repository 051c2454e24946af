//! `tactus bench e2e` runs real tables with simulated boards and reports one
//! JSON object. Speed is measured, never asserted: this checks the report's
//! shape and that board events were announced.

use std::process::Command;

#[test]
fn bench_e2e_reports_json_with_announced_board_events() {
    reports_json_with_announced_board_events("pty");
}

/// The boards behind Debian's ser2net (which `scripts/test` installs), over
/// both of its accepters: every board event still announced, and the relay's
/// CPU time reported.
#[test]
fn bench_e2e_over_ser2net_raw_tcp() {
    let v = reports_json_with_announced_board_events("tcp");
    assert!(v["relay_cpu_s"].as_f64().unwrap() >= 0.0, "{v}");
}

#[test]
fn bench_e2e_over_ser2net_rfc2217() {
    reports_json_with_announced_board_events("rfc2217");
}

#[test]
fn bench_e2e_refuses_an_unknown_board_transport() {
    let out = Command::new(env!("CARGO_BIN_EXE_tactus"))
        .args(["bench", "e2e", "--board", "usb", "--seconds", "1"])
        .output()
        .expect("run tactus bench e2e");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("pty, tcp or rfc2217"), "{stderr}");
}

/// Runs `tactus bench <args> --json` from the repository: it must succeed
/// and print one JSON value on one line, which is returned.
fn bench_json(args: &[&str]) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_tactus"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .arg("bench")
        .args(args)
        .arg("--json")
        .output()
        .expect("run tactus bench");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "bench {args:?}: status {}\nstdout: {stdout}\nstderr: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 1, "one JSON value on one line: {stdout}");
    serde_json::from_str(lines[0]).expect("JSON")
}

fn reports_json_with_announced_board_events(board: &str) -> serde_json::Value {
    let v = bench_json(&["e2e", "--tables", "2", "--seconds", "2", "--board", board]);
    assert_eq!(v["tables"], 2);
    for key in ["p50_ms", "p99_ms", "max_ms", "rss_mb", "cpu_s"] {
        let x = v[key]
            .as_f64()
            .unwrap_or_else(|| panic!("{key} is no number: {v}"));
        assert!(x.is_finite() && x >= 0.0, "{key} = {x}");
    }
    let events = v["events"].as_u64().expect("events");
    assert!(events > 0, "no board event was announced: {v}");
    assert!(v["p50_ms"].as_f64() <= v["p99_ms"].as_f64());
    assert!(v["p99_ms"].as_f64() <= v["max_ms"].as_f64());
    assert!(v["rss_mb"].as_f64().unwrap() > 0.0);
    // Every board event written was announced.
    assert_eq!(v["lost"], 0, "{v}");
    assert_eq!(v["transport"], board, "{v}");
    v
}

#[test]
fn bench_e2e_refuses_zero_tables_with_a_clear_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_tactus"))
        .args(["bench", "e2e", "--tables", "0", "--seconds", "1"])
        .output()
        .expect("run tactus bench e2e");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--tables must be at least 1"), "{stderr}");
}

/// `tactus bench readers` against a real server: every move answered 200
/// alone and with the readers, and the readers' reads answered.
#[test]
fn bench_readers_reports_both_spreads_and_the_reads() {
    let v = bench_json(&["readers", "--readers", "8", "--plies", "6"]);
    assert_eq!(v["readers"], 8);
    for spread in ["alone", "with_readers"] {
        assert_eq!(v[spread]["n"], 6, "{v}");
        assert!(v[spread]["p50_ms"].as_f64() <= v[spread]["max_ms"].as_f64());
    }
    // Each reader had an answer before the moves with readers began; none
    // was refused or cut meanwhile.
    assert!(v["reads_ok"].as_u64().is_some(), "{v}");
    assert_eq!(v["reads_refused"], 0, "{v}");
}

/// `tactus bench voice`: every rate of a pack, each announcement shorter
/// as the rate rises, in proportion.
#[test]
fn bench_voice_reports_every_rate_shorter_as_it_rises() {
    let rows = bench_json(&["voice", "--voice", "de-appendix-d"]);
    let rows = rows.as_array().expect("one row per rate");
    assert_eq!(rows.len(), 10);
    let median = |r: &serde_json::Value| r["median_s"].as_f64().unwrap();
    for pair in rows.windows(2) {
        assert!(median(&pair[1]) < median(&pair[0]), "{pair:?}");
    }
    // 0.7 and 1.6 against 1.0: the lengths go as 1/rate (the gaps too),
    // within the stretch's own rounding.
    let at_one = median(&rows[3]);
    for (i, rate) in [(0, 0.7), (9, 1.6)] {
        let ratio = median(&rows[i]) / at_one;
        assert!((ratio - 1.0 / rate).abs() < 0.05, "rate {rate}: {ratio}");
    }
}

/// `tactus bench serve` starts the real server and plays a game against it
/// on a simulated peg board: every board move and every clock button press
/// reaches the SSE stream (a press is made once the last one of its kind
/// has been said: the table paces a player's repeated requests).
#[test]
fn bench_serve_reports_moves_and_clock_presses_on_the_stream() {
    let v = bench_json(&["serve", "--runs", "1", "--plies", "8"]);
    assert_eq!(v["startup"]["n"], 1, "{v}");
    // Eight plies, the blind player's four on the board, each followed by
    // a clock press: none refused, none lost.
    assert_eq!(v["button_to_sse"]["n"], 4, "{v}");
    let moves = v["move_to_sse"]["n"].as_u64().expect("n");
    assert!(
        moves >= 3,
        "a promotion's move is not timed, the rest are: {v}"
    );
    // A figure is there and is a time; its size is the benchmark's to
    // report, not this test's to judge (under load an announcement can
    // come within a clock tick of the write).
    for figure in ["move_to_sse", "button_to_sse"] {
        for key in ["min_ms", "p50_ms", "p99_ms", "max_ms"] {
            let x = v[figure][key].as_f64().expect("a number");
            assert!(x.is_finite() && x >= 0.0, "{figure}.{key} = {x}: {v}");
        }
    }
}

/// `tactus bench gate` against real servers: the four conditions, each
/// with its moves counted by answer, and the figures of the answered ones.
/// Small floods (4 × 16): the figures' presence and count, never their
/// size; `gate_floods.rs` holds the answers at the size.
#[test]
fn bench_gate_reports_every_condition_and_its_moves() {
    let v = bench_json(&["gate", "--moves", "4", "--per-address", "16"]);
    assert_eq!(v["addresses"], 4, "{v}");
    assert_eq!(v["per_address"], 16, "{v}");
    let conditions = v["conditions"].as_array().expect("conditions");
    let names: Vec<&str> = conditions
        .iter()
        .map(|c| c["condition"].as_str().expect("a name"))
        .collect();
    assert_eq!(names, ["quiet", "streams", "idle", "slow_heads"], "{v}");
    for c in conditions {
        assert_eq!(c["moves"], 4, "{c}");
        let count = |k: &str| c[k].as_u64().unwrap_or_else(|| panic!("{k}: {c}"));
        assert_eq!(
            count("answered_200")
                + count("answered_503")
                + count("answered_other")
                + count("no_answer"),
            4,
            "{c}"
        );
        // Every move answered 200 behind the gate, each timed.
        assert_eq!(count("answered_200"), 4, "{c}");
        assert_eq!(c["answer"]["n"], 4, "{c}");
        for key in ["min_ms", "p50_ms", "p99_ms", "max_ms"] {
            let x = c["answer"][key].as_f64().expect("a number");
            assert!(x.is_finite() && x >= 0.0, "{key} = {x}: {c}");
        }
        let flood = if c["condition"] == "quiet" { 0 } else { 64 };
        assert_eq!(c["flood"], flood, "{c}");
        assert!(c["share_503"].as_f64().is_some(), "{c}");
    }
}
