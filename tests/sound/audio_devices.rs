//! Sound on real devices: a private PulseAudio with one null sink per
//! table, tactus playing through ALSA PCMs that point at them, each sink's
//! monitor recorded with `parec`.
//!
//! - `say --play` plays the announcement to its last sample (the last 20 ms
//!   heard sample for sample as the device was given them)
//!   and returns only once it has been played;
//! - three tables speaking at once are each heard on their own sink only,
//!   unclipped;
//! - repeated starts of a three-table venue leave no table silent;
//! - the sound server killed and restarted, and a sink unloaded and loaded
//!   again, under a running table: the table shows "no sound" meanwhile and
//!   plays again by itself.

use crate::common;
use crate::pulse;

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use common::{Server, get, post, tokens, wait_for};
use pulse::{Pulse, RATE, Recording, spans, wav_span};
use tactus_rules::token::Token;
use tactus_speech::sink::to_i16;
use tactus_speech::voice_pack::{LoadOptions, VoicePack};

const LIMIT: Duration = Duration::from_secs(20);
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

fn voice() -> &'static str {
    concat!(env!("CARGO_MANIFEST_DIR"), "/voices/de-appendix-d")
}

/// Waits until `rec` has heard something and then 500 ms of silence (what
/// was just said is whole in it).
fn settle(rec: &Recording) {
    let ok = wait_until(Duration::from_secs(10), || {
        let samples = rec.samples();
        let quiet = (RATE / 2) as usize;
        match spans(&samples, 400).last() {
            Some(&(_, end)) => samples.len() > end + quiet,
            None => false,
        }
    });
    assert!(ok, "nothing heard, or no end to it");
}

/// The heard index of `given`'s last loud sample, found where the last
/// 20 ms of `given` up to it are heard sample for sample (the end of the
/// last word, whole); and how much longer (+) or shorter (-) the heard
/// announcement is, in samples (silence an underrun inserted; samples
/// PulseAudio skipped after one).
fn heard_end(heard: &[i16], given: &[i16]) -> Result<(usize, i64), String> {
    let loud = |s: &i16| s.unsigned_abs() > pulse::LOUD.unsigned_abs();
    let (Some(first), Some(last)) = (given.iter().position(loud), given.iter().rposition(loud))
    else {
        return Err("nothing loud given".into());
    };
    let found = |ms: usize| {
        let n = RATE as usize * ms / 1000;
        let tail = &given[last + 1 - n..=last];
        heard
            .windows(n)
            .position(|w| w == tail)
            .map(|at| at + n - 1)
    };
    let Some(end) = found(20) else {
        let whole: Vec<usize> = [10, 5, 2, 1]
            .into_iter()
            .filter(|&ms| found(ms).is_some())
            .collect();
        return Err(format!(
            "the announcement's last 20 ms were not heard as given (of its last 10, 5, 2, 1 ms, \
             heard whole: {whole:?})"
        ));
    };
    let start = heard.iter().position(loud).ok_or("nothing heard")?;
    Ok((end, (end - start) as i64 - (last - first) as i64))
}

#[test]
fn say_play_returns_after_the_whole_announcement_has_played() {
    let pulse = Pulse::start(&["t1"]);
    let dir = tempfile::tempdir().unwrap();
    let wav = dir.path().join("say.wav");
    let rec = pulse.record("t1");
    // The monitor sends silence as soon as it records: recording.
    assert!(
        wait_until(Duration::from_secs(20), || rec.len() > (RATE / 10) as usize),
        "parec records nothing"
    );
    let out = Command::new(env!("CARGO_BIN_EXE_tactus"))
        .envs(pulse.env())
        .args(["say", "move", "--fen", START, "Nf3", "--voice", voice()])
        .args(["--play", "--device", "t1", "--wav"])
        .arg(&wav)
        .output()
        .unwrap();
    let returned = Instant::now();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("no sound"), "{stderr}");
    settle(&rec);
    // What the device was given: the announcement rendered at the sink's
    // rate as 16-bit samples (the WAV file holds it at the pack's rate).
    // PulseAudio at full volume passes samples through unchanged, so the
    // end of the last word must be heard sample for sample.
    let pack = VoicePack::load(voice(), &LoadOptions::default()).unwrap();
    let tokens = ["piece.knight", "file.f", "rank.3"].map(|k| Token::from_key(k).unwrap());
    let given: Vec<i16> = pack
        .at_rate(RATE)
        .unwrap()
        .render(&tokens)
        .into_iter()
        .map(to_i16)
        .collect();
    let (wav_len, _, _) = wav_span(&wav);
    let given_len = {
        let s = pulse::spans(&given, 10_000);
        (s[0].1 - s[0].0) as f64 / f64::from(RATE)
    };
    assert!(
        (given_len - wav_len).abs() < 0.005,
        "rendered {given_len:.4} s, the WAV file holds {wav_len:.4} s"
    );
    let (b, longer) = heard_end(&rec.samples(), &given).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        rec.first_loud(b + 1),
        None,
        "one announcement on t1, nothing after it"
    );
    if longer != 0 {
        // A loaded machine: the stream underran (PulseAudio inserts
        // silence, and skips what was late); the end is still whole.
        eprintln!(
            "heard {:+.1} ms against what was given",
            longer as f64 * 1000.0 / f64::from(RATE)
        );
    }
    // It returned only after the last sample reached the sink.
    let last = rec.time_of(b).expect("the last sample's time");
    assert!(
        returned + Duration::from_millis(10) >= last,
        "returned {:?} before the last sample was played",
        last - returned
    );
    assert!(rec.peak() < i16::MAX as u16, "clipped");
}

/// A venue of `n` tables, table `i` on device `t<i>`, the blind player
/// White (their moves are announced before they are made) and no boards.
fn venue(dir: &Path, n: usize) -> std::path::PathBuf {
    let mut text = String::new();
    for id in 1..=n {
        text.push_str(&format!(
            "[[table]]\nid = \"{id}\"\nboard = \"none\"\nblind = \"white\"\naudio = \"device:t{id}\"\n\n"
        ));
    }
    let path = dir.join("venue.toml");
    std::fs::write(&path, text).unwrap();
    path
}

fn serve(pulse: &Pulse, data: &Path, config: &Path) -> Server {
    let env: Vec<(String, String)> = pulse.env();
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    Server::start_with_env(data, &["--config", config.to_str().unwrap()], &env)
}

fn audio_state(addr: &str, id: usize) -> String {
    get(addr, &format!("/api/tables/{id}")).json()["audio"]["state"]
        .as_str()
        .unwrap_or("")
        .to_owned()
}

#[test]
fn three_tables_at_once_each_on_its_own_sink() {
    let pulse = Pulse::start(&["t1", "t2", "t3"]);
    let data = tempfile::tempdir().unwrap();
    let config = venue(data.path(), 3);
    let server = serve(&pulse, data.path(), &config);
    let addr = server.addr.clone();
    for id in 1..=3 {
        wait_for("the table's sound to play", LIMIT, || {
            (audio_state(&addr, id) == "playing").then_some(())
        });
    }
    let recs: Vec<Recording> = (1..=3).map(|i| pulse.record(&format!("t{i}"))).collect();
    std::thread::sleep(Duration::from_millis(300));
    // Table 1 alone (its clock said): heard on t1, nowhere else.
    let (player, _, _) = tokens(data.path(), "1");
    let r = post(&addr, "/api/tables/1/clock/say", &player, "");
    assert_eq!(r.status, 200, "{}", r.body);
    settle(&recs[0]);
    assert_eq!(recs[0].spans(400).len(), 1, "table 1's clock on t1");
    assert!(recs[1].spans(400).is_empty(), "table 1 heard on t2");
    assert!(recs[2].spans(400).is_empty(), "table 1 heard on t3");
    let before: Vec<usize> = recs.iter().map(Recording::len).collect();
    // Then all three move at once, each a move of its own.
    let moves = ["e4", "Nf3", "d4"];
    let handles: Vec<_> = (1..=3)
        .map(|id| {
            let addr = addr.clone();
            let (player, _, _) = tokens(data.path(), &id.to_string());
            let mv = moves[id - 1];
            std::thread::spawn(move || {
                post(
                    &addr,
                    &format!("/api/tables/{id}/move"),
                    &player,
                    &format!(r#"{{"move":"{mv}"}}"#),
                )
            })
        })
        .collect();
    for h in handles {
        let r = h.join().unwrap();
        assert_eq!(r.status, 200, "{}", r.body);
    }
    recs.iter().for_each(settle);
    let dir = tempfile::tempdir().unwrap();
    for (i, rec) in recs.iter().enumerate() {
        let samples = rec.samples();
        let heard = spans(&samples[before[i]..], 400);
        assert_eq!(heard.len(), 1, "sink t{}: {heard:?}", i + 1);
        assert!(rec.peak() < i16::MAX as u16, "t{} clipped", i + 1);
        // The very words of this table's move: as long as `say --wav`.
        let wav = dir.path().join(format!("{i}.wav"));
        let ok = Command::new(env!("CARGO_BIN_EXE_tactus"))
            .args([
                "say",
                "move",
                "--fen",
                START,
                moves[i],
                "--voice",
                voice(),
                "--wav",
            ])
            .arg(&wav)
            .output()
            .unwrap();
        assert!(ok.status.success());
        let (wav_len, _, _) = wav_span(&wav);
        let (a, b) = heard[0];
        let heard_len = (b - a) as f64 / f64::from(RATE);
        assert!(
            (heard_len - wav_len).abs() < 0.005,
            "t{}: heard {heard_len:.4} s of {}, its WAV holds {wav_len:.4} s",
            i + 1,
            moves[i]
        );
    }
}

/// The length of the loud span of `say move --fen FEN MOVE --wav`, in
/// seconds: what the table's device must play for that move.
fn said_length(fen: &str, mv: &str) -> f64 {
    let dir = tempfile::tempdir().unwrap();
    let wav = dir.path().join("move.wav");
    let out = Command::new(env!("CARGO_BIN_EXE_tactus"))
        .args(["say", "move", "--fen", fen, mv, "--voice", voice(), "--wav"])
        .arg(&wav)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    wav_span(&wav).0
}

#[test]
fn a_server_stopped_by_sigterm_first_plays_everything_it_was_given() {
    let pulse = Pulse::start(&["t1"]);
    let data = tempfile::tempdir().unwrap();
    let config = venue(data.path(), 1);
    let server = serve(&pulse, data.path(), &config);
    let addr = server.addr.clone();
    wait_for("sound", LIMIT, || {
        (audio_state(&addr, 1) == "playing").then_some(())
    });
    let (player, assistant, _) = tokens(data.path(), "1");
    let rec = pulse.record("t1");
    std::thread::sleep(Duration::from_millis(300));
    // White (blind) moves: made once announced.
    let r = post(&addr, "/api/tables/1/move", &player, r#"{"move":"e4"}"#);
    assert_eq!(r.status, 200, "{}", r.body);
    settle(&rec);
    let before = rec.len();
    // Black's reply is announced to the blind player without holding up
    // the request; the server is stopped at once, mid-announcement.
    let r = post(&addr, "/api/tables/1/move", &assistant, r#"{"move":"Nc6"}"#);
    assert_eq!(r.status, 200, "{}", r.body);
    let status = server
        .terminate(Duration::from_secs(30))
        .expect("the server ended after SIGTERM");
    let ended = Instant::now();
    assert!(status.success(), "{status:?}");
    settle(&rec);
    let samples = rec.samples();
    let heard = spans(&samples[before..], 400);
    assert_eq!(heard.len(), 1, "Black's move once: {heard:?}");
    let (a, b) = heard[0];
    let heard_len = (b - a) as f64 / f64::from(RATE);
    let after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    let whole = said_length(after_e4, "Nc6");
    assert!(
        (heard_len - whole).abs() < 0.005,
        "heard {heard_len:.4} s of Black's move, the whole of it is {whole:.4} s"
    );
    // The process ended only after its last sample was played.
    let last = rec.time_of(before + b).expect("the last sample's time");
    assert!(
        ended + Duration::from_millis(10) >= last,
        "ended {:?} before the last sample was played",
        last - ended
    );
    // No click: what follows the announcement on the sink is silence.
    let tail = &samples[before + b + 1..];
    assert!(
        tail.iter()
            .all(|s| s.unsigned_abs() <= pulse::LOUD.unsigned_abs()),
        "sound after the announcement"
    );
}

/// Starts a three-table venue `n` times; every table's sound must be proven
/// playing and heard on its own sink.
fn starts(n: usize) {
    let pulse = Pulse::start(&["t1", "t2", "t3"]);
    let data = tempfile::tempdir().unwrap();
    let config = venue(data.path(), 3);
    let mut silent = 0;
    for run in 0..n {
        let recs: Vec<Recording> = (1..=3).map(|i| pulse.record(&format!("t{i}"))).collect();
        let server = serve(&pulse, data.path(), &config);
        for id in 1..=3 {
            let playing = wait_until(Duration::from_secs(10), || {
                audio_state(&server.addr, id) == "playing"
            });
            // Heard: the clock said at the table reaches its sink.
            let (player, _, _) = tokens(data.path(), &id.to_string());
            let r = post(
                &server.addr,
                &format!("/api/tables/{id}/clock/say"),
                &player,
                "",
            );
            assert_eq!(r.status, 200, "{}", r.body);
            let heard = wait_until(Duration::from_secs(10), || {
                !recs[id - 1].spans(400).is_empty()
            });
            if !(playing && heard) {
                silent += 1;
                eprintln!("run {run}: table {id} silent (playing {playing}, heard {heard})");
            }
        }
        drop(server);
    }
    eprintln!("{n} starts of a 3-table venue: {silent} silent tables");
    assert_eq!(silent, 0);
}

fn wait_until(limit: Duration, mut f: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + limit;
    while Instant::now() < deadline {
        if f() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

#[test]
fn three_starts_of_a_three_table_venue_leave_no_table_silent() {
    starts(3);
}

#[test]
#[ignore = "fifty starts, about five minutes in a debug build: scripts/test runs it"]
fn fifty_starts_of_a_three_table_venue_leave_no_table_silent() {
    starts(50);
}

fn alert_texts(addr: &str, id: usize) -> Vec<String> {
    get(addr, &format!("/api/tables/{id}")).json()["alerts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["text"].as_str().unwrap().to_owned())
        .collect()
}

/// Says the clock at table 1 and waits until it is heard on `rec`. The
/// `n`th call (0 to 5) asks as a role and a reading (left, used) of its
/// own: the same request from the same role while its last reading is
/// still being said is answered, not said again (it is paced), and this
/// test's rounds may come quicker than a reading.
fn heard_after_saying(addr: &str, data: &Path, rec: &Recording, n: usize) -> bool {
    let before = rec.spans(400).len();
    let (player, assistant, arbiter) = tokens(data, "1");
    let token = [player, assistant, arbiter][n % 3].clone();
    let body = if n < 3 { "" } else { r#"{"time":"used"}"# };
    let r = post(addr, "/api/tables/1/clock/say", &token, body);
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(!r.body.contains("paced"), "{}", r.body);
    wait_until(Duration::from_secs(10), || rec.spans(400).len() > before)
}

#[test]
fn a_table_comes_back_after_the_sound_server_dies_and_its_sink_is_pulled() {
    let mut pulse = Pulse::start(&["t1"]);
    let data = tempfile::tempdir().unwrap();
    let config = venue(data.path(), 1);
    let server = serve(&pulse, data.path(), &config);
    let addr = server.addr.clone();
    wait_for("sound", LIMIT, || {
        (audio_state(&addr, 1) == "playing").then_some(())
    });
    let reopened = |addr: &str| {
        get(addr, "/api/tables/1").json()["audio"]["reopened"]
            .as_u64()
            .unwrap()
    };
    let mut downs = 0;
    for round in 0..3 {
        // The server killed: the table says it has no sound.
        pulse.kill();
        wait_for("the table to say it has no sound", LIMIT, || {
            (audio_state(&addr, 1) == "failed").then_some(())
        });
        let alerts = alert_texts(&addr, 1);
        assert!(
            alerts.iter().any(|a| a.starts_with("no sound at table 1")),
            "{alerts:?}"
        );
        downs += 1;
        // A move meanwhile is made at once (its words shown as text).
        std::thread::sleep(Duration::from_millis(300));
        pulse.restart();
        wait_for("the table to play again", LIMIT, || {
            (audio_state(&addr, 1) == "playing").then_some(())
        });
        assert!(
            alert_texts(&addr, 1)
                .iter()
                .all(|a| !a.starts_with("no sound"))
        );
        let rec = pulse.record("t1");
        std::thread::sleep(Duration::from_millis(200));
        assert!(
            heard_after_saying(&addr, data.path(), &rec, round),
            "round {round}: not heard"
        );
    }
    // The sink pulled and put back (a headset unplugged and replugged).
    for round in 0..3 {
        pulse.unload("t1");
        wait_for("the table to say it has no sound", LIMIT, || {
            (audio_state(&addr, 1) == "failed").then_some(())
        });
        downs += 1;
        pulse.load("t1");
        wait_for("the table to play again", LIMIT, || {
            (audio_state(&addr, 1) == "playing").then_some(())
        });
        let rec = pulse.record("t1");
        std::thread::sleep(Duration::from_millis(200));
        assert!(
            heard_after_saying(&addr, data.path(), &rec, 3 + round),
            "sink round {round}: not heard"
        );
    }
    let view = get(&addr, "/api/tables/1").json()["audio"].clone();
    eprintln!("{downs} outages, all recovered: {view}");
    assert!(reopened(&addr) >= downs);
}

/// `tactus bench sound` (a move to the first sample of its announcement at
/// the table's device, `src/bench/sound.rs`) on a few moves: every move
/// heard and timed, to its first sound and to its first loud sample, with
/// its two parts, and the count of moves found sample for sample. The
/// figures are the benchmark's to report (`docs/performance.md`), not this
/// test's to judge.
#[test]
fn bench_sound_times_every_move_to_its_first_sample() {
    let out = Command::new(env!("CARGO_BIN_EXE_tactus"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["bench", "sound", "--moves", "4", "--json"])
        .output()
        .expect("run tactus bench sound");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "status {}\nstdout: {stdout}\nstderr: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_str(stdout.trim()).expect("one JSON object");
    for figure in [
        "move_to_first_sample",
        "move_to_first_loud",
        "move_to_event",
        "event_to_first_sample",
    ] {
        assert_eq!(v[figure]["n"], 4, "{figure}: {v}");
        for key in ["min_ms", "p50_ms", "p99_ms", "max_ms"] {
            let x = v[figure][key].as_f64().expect("a number");
            assert!(x.is_finite() && x >= 0.0, "{figure}.{key}: {v}");
        }
    }
    assert!(v["retried"].as_u64().is_some(), "{v}");
    let matched = v["matched"].as_u64().expect("a count of matched moves");
    let skipped = v["onset_skipped"]
        .as_u64()
        .expect("a count of skipped onsets");
    assert!(skipped <= matched && matched <= 4, "{v}");
}
