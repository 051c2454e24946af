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

/// Every pack in `voices/` passes `tactus voices check`, and says the spec's
/// three example times in its own language and grammar ("una hora", "un
/// minuto", "treinta y un segundos", "cuarenta y una jugadas").
#[test]
fn every_pack_checks_clean_and_says_the_examples_in_its_language() {
    let examples = [
        ("1:12:05", "0:58:40", "23"),
        ("540", "31", "41"),
        ("3600", "5400", "1"),
        ("21:00", "0:21", "121"),
    ];
    let expected: [(&str, [&str; 4]); 4] = [
        (
            "de-appendix-d",
            [
                "Weiß eine Stunde zwölf Minuten Schwarz achtundfünfzig Minuten dreiundzwanzig Züge",
                "Weiß neun Minuten null Sekunden Schwarz einunddreißig Sekunden einundvierzig Züge",
                "Weiß eine Stunde Schwarz eine Stunde dreißig Minuten ein Zug",
                "Weiß einundzwanzig Minuten Schwarz einundzwanzig Sekunden hundert einundzwanzig Züge",
            ],
        ),
        (
            "es-apendice-d",
            [
                "Blancas una hora doce minutos Negras cincuenta y ocho minutos veintitrés jugadas",
                "Blancas nueve minutos cero segundos Negras treinta y un segundos cuarenta y una jugadas",
                "Blancas una hora Negras una hora treinta minutos una jugada",
                "Blancas veintiún minutos Negras veintiún segundos ciento veintiuna jugadas",
            ],
        ),
        (
            "es-nativo",
            [
                "Blancas una hora doce minutos Negras cincuenta y ocho minutos veintitrés jugadas",
                "Blancas nueve minutos cero segundos Negras treinta y un segundos cuarenta y una jugadas",
                "Blancas una hora Negras una hora treinta minutos una jugada",
                "Blancas veintiún minutos Negras veintiún segundos ciento veintiuna jugadas",
            ],
        ),
        (
            "en-appendix-d",
            [
                "White one hour twelve minutes Black fifty-eight minutes twenty-three moves",
                "White nine minutes zero seconds Black thirty-one seconds forty-one moves",
                "White one hour Black one hour thirty minutes one move",
                "White twenty-one minutes Black twenty-one seconds one hundred twenty-one moves",
            ],
        ),
    ];
    let root = env!("CARGO_MANIFEST_DIR");
    let mut packs: Vec<String> = std::fs::read_dir(format!("{root}/voices"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    packs.sort();
    let mut named: Vec<&str> = expected.iter().map(|(p, _)| *p).collect();
    named.sort();
    assert_eq!(packs, named, "a pack without its examples here");
    for (pack, texts) in expected {
        let dir = format!("{root}/voices/{pack}");
        let check = tactus(&["voices", "check", &dir]);
        assert!(
            check.status.success(),
            "{pack}: {}",
            String::from_utf8_lossy(&check.stderr)
        );
        for ((white, black, moves), text) in examples.iter().zip(texts) {
            let out = tactus(&[
                "say", "clock", "--white", white, "--black", black, "--moves", moves, "--voice",
                pack,
            ]);
            assert!(out.status.success(), "{pack}");
            assert_eq!(
                String::from_utf8_lossy(&out.stdout).trim_end(),
                text,
                "{pack}"
            );
        }
    }
}

#[test]
fn es_nativo_says_moves_in_spanish_words_and_es_apendice_d_in_appendix_d_words() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    for (pack, text) in [
        ("es-nativo", "1. Nf3: caballo efe tres"),
        ("es-apendice-d", "1. Nf3: Springer Felix drei"),
        ("en-appendix-d", "1. Nf3: Springer Felix drei"),
    ] {
        let out = tactus(&["say", "move", "--fen", start, "Nf3", "--voice", pack]);
        assert!(out.status.success(), "{pack}");
        assert_eq!(
            String::from_utf8_lossy(&out.stdout).trim_end(),
            text,
            "{pack}"
        );
    }
}
