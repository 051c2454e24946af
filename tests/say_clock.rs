//! `tactus say clock`: the clock announcement from the command line, as
//! text, JSON and a WAV file, with the examples of announcements.md.

use std::process::Command;

fn tactus(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_tactus"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn the_spec_examples_are_said_exactly() {
    for (white, black, moves, text) in [
        (
            "1:12:05",
            "0:58:40",
            "23",
            "Weiß eine Stunde zwölf Minuten Schwarz achtundfünfzig Minuten dreiundzwanzig Züge",
        ),
        (
            "540",
            "31",
            "41",
            "Weiß neun Minuten null Sekunden Schwarz einunddreißig Sekunden einundvierzig Züge",
        ),
        (
            "3600",
            "5400",
            "1",
            "Weiß eine Stunde Schwarz eine Stunde dreißig Minuten ein Zug",
        ),
    ] {
        let out = tactus(&[
            "say", "clock", "--white", white, "--black", black, "--moves", moves, "--json",
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(json["text"], text);
    }
}

#[test]
fn time_used_is_said_as_such() {
    let out = tactus(&[
        "say", "clock", "--white", "600", "--black", "0", "--moves", "0", "--used",
    ]);
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "Weiß verbraucht zehn Minuten Schwarz verbraucht null Sekunden null Züge"
    );
}

#[test]
fn the_wav_holds_the_spoken_announcement() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("clock.wav");
    let out = tactus(&[
        "say",
        "clock",
        "--white",
        "3600",
        "--black",
        "5400",
        "--moves",
        "1",
        "--wav",
        path.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let reader = hound::WavReader::open(&path).unwrap();
    let spec = reader.spec();
    assert_eq!((spec.channels, spec.bits_per_sample), (1, 16));
    let samples: Vec<i16> = reader.into_samples().map(Result::unwrap).collect();
    let secs = samples.len() as f64 / f64::from(spec.sample_rate);
    // Eleven words at a brisk pace: more than a second and a half, less than six.
    assert!((1.5..6.0).contains(&secs), "{secs} s");
    assert!(
        samples.iter().any(|s| s.unsigned_abs() > 3000),
        "no speech in the file"
    );
}

#[test]
fn bad_times_are_refused_with_status_2_and_no_output() {
    for args in [
        ["--white", "soon", "--black", "1", "--moves", "1"],
        ["--white", "1", "--black", "-5", "--moves", "1"],
        ["--white", "1:99:00", "--black", "1", "--moves", "1"],
        ["--white", "1", "--black", "1", "--moves", "many"],
    ] {
        let mut all = vec!["say", "clock"];
        all.extend(args);
        let out = tactus(&all);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty());
        assert!(!out.stderr.is_empty());
    }
}
