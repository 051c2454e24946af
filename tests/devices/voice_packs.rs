//! Voice packs built in temporary directories: rendering to WAV checked
//! sample by sample, and broken packs reported with every problem at once.

use std::path::Path;
use std::process::Command;

use shakmaty::{File, Rank};
use tactus_rules::token::Token;
use tactus_speech::render::Part;
use tactus_speech::sink::{Sink, WavSink};
use tactus_speech::voice_pack::{LoadOptions, Problem, VoicePack};

fn tone(freq: f32, rate: u32, ms: u32, amp: f32) -> Vec<f32> {
    let n = (rate * ms / 1000) as usize;
    (0..n)
        .map(|i| amp * (std::f32::consts::TAU * freq * i as f32 / rate as f32).sin())
        .collect()
}

/// `ms_before` and `ms_after` of silence around a tone.
fn padded(freq: f32, rate: u32, ms: u32, ms_before: u32, ms_after: u32) -> Vec<f32> {
    let mut x = vec![0.0; (rate * ms_before / 1000) as usize];
    x.extend(tone(freq, rate, ms, 0.5));
    x.extend(vec![0.0; (rate * ms_after / 1000) as usize]);
    x
}

fn write_wav(path: &Path, rate: u32, samples: &[f32]) {
    let spec = hound::WavSpec {
        channels: 1,
        sample_rate: rate,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    let mut w = hound::WavWriter::create(path, spec).unwrap();
    for &s in samples {
        w.write_sample((s * 32767.0) as i16).unwrap();
    }
    w.finalize().unwrap();
}

/// A complete pack in `dir` at `rate`: every token's clip is
/// `clips/<key>.wav` (a 1 kHz tone of 60 ms with silence around), texts
/// are `t:<key>`. `extra` lines are added to the manifest.
fn make_pack(dir: &Path, rate: u32, gap_ms: u32, extra_top: &str) {
    std::fs::create_dir_all(dir.join("clips")).unwrap();
    let mut manifest = format!(
        "name = \"test\"\nlanguage = \"de\"\nsample_rate = {rate}\ngap_ms = {gap_ms}\n{extra_top}\n[tokens]\n"
    );
    let clip = padded(1000.0, rate, 60, 30, 30);
    for token in Token::all() {
        let key = token.key();
        write_wav(&dir.join(format!("clips/{key}.wav")), rate, &clip);
        manifest.push_str(&format!(
            "\"{key}\" = {{ clip = \"clips/{key}.wav\", text = \"t:{key}\" }}\n"
        ));
    }
    std::fs::write(dir.join("voice.toml"), manifest).unwrap();
}

fn clip_path(dir: &Path, token: Token) -> std::path::PathBuf {
    dir.join(format!("clips/{}.wav", token.key()))
}

/// Runs of near-silence at least `min` samples long, as (start, length).
fn silent_runs(x: &[f32], min: usize) -> Vec<(usize, usize)> {
    let mut runs = Vec::new();
    let mut start = None;
    for (i, s) in x.iter().chain(std::iter::once(&1.0)).enumerate() {
        match (s.abs() < 2e-3, start) {
            (true, None) => start = Some(i),
            (false, Some(st)) => {
                if i - st >= min {
                    runs.push((st, i - st));
                }
                start = None;
            }
            _ => {}
        }
    }
    runs
}

fn crossing_rate(x: &[f32], rate: u32) -> f32 {
    let n = x
        .windows(2)
        .filter(|w| (w[0] < 0.0) != (w[1] < 0.0))
        .count();
    n as f32 * rate as f32 / x.len() as f32
}

#[test]
fn an_announcement_renders_to_wav_with_order_gaps_trimming_and_rate() {
    let dir = tempfile::tempdir().unwrap();
    let (rate, out_rate, gap_ms) = (16_000, 48_000, 50);
    make_pack(dir.path(), rate, gap_ms, "");
    // Eva: 200 Hz, 100 ms, with 80 ms / 120 ms of silence to be trimmed.
    // vier: 1 kHz, 150 ms, with 200 ms / 40 ms.
    let e = Token::File(File::E);
    let four = Token::Rank(Rank::Fourth);
    write_wav(
        &clip_path(dir.path(), e),
        rate,
        &padded(200.0, rate, 100, 80, 120),
    );
    write_wav(
        &clip_path(dir.path(), four),
        rate,
        &padded(1000.0, rate, 150, 200, 40),
    );
    let pack = VoicePack::load(dir.path(), &LoadOptions::default()).unwrap();

    let wav = dir.path().join("out.wav");
    let mut sink = WavSink::create(&wav, &pack, Some(out_rate), 600).unwrap();
    sink.say(&[e, four, e], "t:file.e t:rank.4 t:file.e")
        .unwrap();
    sink.finish().unwrap();

    let mut reader = hound::WavReader::open(&wav).unwrap();
    let spec = reader.spec();
    assert_eq!(
        (spec.sample_rate, spec.channels, spec.bits_per_sample),
        (out_rate, 1, 16)
    );
    let x: Vec<f32> = reader
        .samples::<i16>()
        .map(|s| f32::from(s.unwrap()) / 32768.0)
        .collect();
    let ms = |n: usize| n as f64 * 1000.0 / f64::from(out_rate);

    // Trimmed clips keep 5 ms before and 15 ms after the sound: Eva is
    // 120 ms, vier 170 ms; Eva vier Eva with two gaps of 50 ms is 510 ms
    // (the padding, 520 ms of it, is gone).
    assert!((ms(x.len()) - 510.0).abs() < 2.0, "{} ms", ms(x.len()));

    // Silence between words: margin after + gap + margin before = 70 ms.
    // (The last clip's trailing 15 ms margin is silent too, at the end.)
    let runs: Vec<_> = silent_runs(&x, (out_rate / 100) as usize)
        .into_iter()
        .filter(|&(start, len)| start > 0 && start + len < x.len())
        .collect();
    assert_eq!(runs.len(), 2, "{runs:?}");
    for &(_, len) in &runs {
        assert!((ms(len) - 70.0).abs() < 2.0, "gap of {} ms", ms(len));
    }

    // The words in order, told apart by pitch (over their sounding part:
    // the near-silent margins would add stray zero crossings).
    let sounding = |w: &[f32]| -> (usize, usize) {
        let first = w.iter().position(|s| s.abs() > 0.05).unwrap();
        let last = w.iter().rposition(|s| s.abs() > 0.05).unwrap();
        (first, last + 1)
    };
    let spans = [
        (0, runs[0].0),
        (runs[0].0 + runs[0].1, runs[1].0),
        (runs[1].0 + runs[1].1, x.len()),
    ];
    let words: Vec<&[f32]> = spans
        .iter()
        .map(|&(a, b)| {
            let (f, l) = sounding(&x[a..b]);
            &x[a + f..a + l]
        })
        .collect();
    let rates: Vec<f32> = words.iter().map(|w| crossing_rate(w, out_rate)).collect();
    for (got, want) in rates.iter().zip([400.0, 2000.0, 400.0]) {
        assert!((got - want).abs() / want < 0.05, "{rates:?}");
    }
    assert!(
        (ms(words[0].len()) - 100.0).abs() < 2.0,
        "{}",
        ms(words[0].len())
    );
    assert!(
        (ms(words[1].len()) - 150.0).abs() < 2.0,
        "{}",
        ms(words[1].len())
    );
}

#[test]
fn speed_is_applied_at_load_and_keeps_pitch() {
    let dir = tempfile::tempdir().unwrap();
    let rate = 16_000;
    make_pack(dir.path(), rate, 40, "");
    let e = Token::File(File::E);
    write_wav(
        &clip_path(dir.path(), e),
        rate,
        &padded(200.0, rate, 400, 0, 0),
    );
    let normal = VoicePack::load(dir.path(), &LoadOptions::default()).unwrap();
    let fast = VoicePack::load(
        dir.path(),
        &LoadOptions {
            speed: 2.0,
            lenient: false,
        },
    )
    .unwrap();
    let (a, b) = (normal.clip(e).unwrap(), fast.clip(e).unwrap());
    assert_eq!(b.len(), (a.len() as f64 / 2.0).round() as usize);
    let (ra, rb) = (crossing_rate(a, rate), crossing_rate(b, rate));
    assert!((ra - rb).abs() / ra < 0.05, "{ra} vs {rb}");
}

#[test]
fn a_broken_pack_reports_every_problem_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let rate = 16_000;
    make_pack(d, rate, 40, "");
    let manifest = std::fs::read_to_string(d.join("voice.toml")).unwrap();
    // An unknown key and a missing token.
    let manifest = manifest.replace(
        "\"num.42\" = { clip = \"clips/num.42.wav\", text = \"t:num.42\" }\n",
        "",
    ) + "\"file.z\" = { clip = \"clips/file.a.wav\", text = \"Zeta\" }\n";
    std::fs::write(d.join("voice.toml"), manifest).unwrap();
    let n = |k: u16| clip_path(d, Token::Number(k));
    std::fs::remove_file(n(1)).unwrap();
    std::fs::write(n(2), b"not a wav file").unwrap();
    let stereo = hound::WavSpec {
        channels: 2,
        sample_rate: rate,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    let mut w = hound::WavWriter::create(n(3), stereo).unwrap();
    for _ in 0..200 {
        w.write_sample(1000i16).unwrap();
    }
    w.finalize().unwrap();
    let float = hound::WavSpec {
        channels: 1,
        sample_rate: rate,
        bits_per_sample: 32,
        sample_format: hound::SampleFormat::Float,
    };
    let mut w = hound::WavWriter::create(n(4), float).unwrap();
    for s in tone(300.0, rate, 50, 0.5) {
        w.write_sample(s).unwrap();
    }
    w.finalize().unwrap();
    write_wav(&n(5), 22_050, &tone(300.0, 22_050, 50, 0.5));
    write_wav(&n(6), rate, &[]);
    write_wav(&n(7), rate, &[0.0; 800]);

    let err = VoicePack::load(d, &LoadOptions::default()).unwrap_err();
    let has = |f: &dyn Fn(&Problem) -> bool| err.problems.iter().any(f);
    assert!(has(
        &|p| matches!(p, Problem::UnknownToken(k) if k == "file.z")
    ));
    assert!(has(
        &|p| matches!(p, Problem::MissingToken(k) if k == "num.42")
    ));
    assert!(has(
        &|p| matches!(p, Problem::MissingFile { key, .. } if key == "num.1")
    ));
    assert!(has(
        &|p| matches!(p, Problem::Unreadable { key, .. } if key == "num.2")
    ));
    assert!(has(
        &|p| matches!(p, Problem::WrongFormat { key, reason, .. } if key == "num.3" && reason.contains("2 channels"))
    ));
    assert!(has(
        &|p| matches!(p, Problem::WrongFormat { key, reason, .. } if key == "num.4" && reason.contains("32-bit float"))
    ));
    assert!(has(
        &|p| matches!(p, Problem::WrongFormat { key, reason, .. } if key == "num.5" && reason.contains("22050 Hz"))
    ));
    assert!(has(
        &|p| matches!(p, Problem::Empty { key, silent: false, .. } if key == "num.6")
    ));
    assert!(has(
        &|p| matches!(p, Problem::Empty { key, silent: true, .. } if key == "num.7")
    ));
    assert_eq!(err.problems.len(), 9, "{err}");

    // The report names every file; the CLI prints it and exits 2.
    let report = err.to_string();
    for k in 1..=7 {
        assert!(report.contains(&format!("num.{k}.wav")), "{report}");
    }
    let out = Command::new(env!("CARGO_BIN_EXE_tactus"))
        .args(["voices", "check"])
        .arg(d)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let printed = String::from_utf8_lossy(&out.stdout);
    assert!(printed.contains("9 problems"), "{printed}");
    for k in 1..=7 {
        assert!(printed.contains(&format!("num.{k}.wav")), "{printed}");
    }
}

#[test]
fn unknown_manifest_keys_are_rejected_by_name() {
    let dir = tempfile::tempdir().unwrap();
    make_pack(dir.path(), 16_000, 40, "tempo = 3");
    let err = VoicePack::load(dir.path(), &LoadOptions::default()).unwrap_err();
    assert_eq!(err.problems.len(), 1);
    assert!(
        matches!(&err.problems[0], Problem::Manifest(m) if m.contains("tempo")),
        "{err}"
    );
}

#[test]
fn a_lenient_load_leaves_clipless_tokens_to_synthesis() {
    let dir = tempfile::tempdir().unwrap();
    let rate = 16_000;
    make_pack(dir.path(), rate, 40, "");
    let e = Token::File(File::E);
    std::fs::remove_file(clip_path(dir.path(), e)).unwrap();
    assert!(VoicePack::load(dir.path(), &LoadOptions::default()).is_err());
    let pack = VoicePack::load(
        dir.path(),
        &LoadOptions {
            speed: 1.0,
            lenient: true,
        },
    )
    .unwrap();
    assert_eq!(pack.problems().len(), 1);
    assert!(pack.clip(e).is_none());
    let four = Token::Rank(Rank::Fourth);
    let parts = pack
        .at_rate(rate)
        .unwrap()
        .parts(&pack, &[Token::Piece(shakmaty::Role::Knight), e, four]);
    assert_eq!(parts.len(), 3);
    assert!(matches!(&parts[0], Part::Samples(s) if !s.is_empty()));
    assert_eq!(parts[1], Part::Speak("t:file.e".into()));
    assert!(matches!(&parts[2], Part::Samples(_)));
}

#[test]
fn the_default_pack_checks_clean() {
    let out = Command::new(env!("CARGO_BIN_EXE_tactus"))
        .args(["voices", "check"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains(": ok:"));
}

#[test]
fn play_falls_back_to_text_when_the_card_is_missing_or_unusable() {
    // Works with or without a sound card: the announcement is printed and
    // the exit status is success; a card that cannot play is one warning.
    let out = Command::new(env!("CARGO_BIN_EXE_tactus"))
        .args([
            "say",
            "move",
            "--fen",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "e2e4",
            "--play",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "1. e4: Eva vier\n");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.lines().filter(|l| l.starts_with("warning:")).count() <= 1,
        "{stderr}"
    );
    assert!(!stderr.contains("ALSA lib"), "{stderr}");
}

#[test]
fn voices_check_reports_a_clip_far_off_in_loudness_and_load_levels_it() {
    let dir = tempfile::tempdir().unwrap();
    let rate = 22_050;
    make_pack(dir.path(), rate, 40, "");
    // One word recorded 20 dB quieter than the rest (a tone of 0.05
    // against 0.5).
    let quiet = Token::File(File::C);
    let mut clip = vec![0.0; (rate * 30 / 1000) as usize];
    clip.extend(tone(1000.0, rate, 60, 0.05));
    clip.extend(vec![0.0; (rate * 30 / 1000) as usize]);
    write_wav(&clip_path(dir.path(), quiet), rate, &clip);
    let out = Command::new(env!("CARGO_BIN_EXE_tactus"))
        .args(["voices", "check"])
        .arg(dir.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    let reported: Vec<&str> = stdout
        .lines()
        .filter(|l| l.contains("off the pack's median"))
        .collect();
    assert_eq!(reported.len(), 1, "{stdout}");
    assert!(
        reported[0].starts_with(&format!("loudness: `{quiet}`")),
        "{stdout}"
    );
    assert!(reported[0].contains("-20.0 dB off"), "{stdout}");
    // Played, it is as loud as the others.
    let pack = VoicePack::load(dir.path(), &LoadOptions::default()).unwrap();
    let level =
        |t: Token| tactus_speech::loudness::loudness_db(pack.clip(t).unwrap(), rate).unwrap();
    let other = level(Token::File(File::D));
    assert!(
        (level(quiet) - other).abs() < 0.5,
        "{} vs {other}",
        level(quiet)
    );
}
