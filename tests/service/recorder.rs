//! `tactus voices record`'s server through its router (`oneshot`, no
//! socket): what a PUT of a clip answers, what it keeps, and that a refused
//! body (not a WAV, another rate, stereo, silence, too long, too large, a
//! key the manifest does not have) changes nothing in the pack, not even a
//! clip recorded before.

use std::path::{Path, PathBuf};
use tactus_testkit::wav::wav;

use axum::Router;
use axum::body::{Body, to_bytes};
use axum::http::{Request, StatusCode, header};
use tactus::service::recorder::{MAX_CLIP_BYTES, prepare, router};
use tactus_speech::voice_pack::Manifest;
use tower::ServiceExt;

/// A new pack copied from the default one, its folder, its rate and its
/// router.
fn pack() -> (tempfile::TempDir, PathBuf, u32, Router) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("mine");
    let recording = prepare(&dir, "de-appendix-d", "Test").unwrap();
    let manifest =
        Manifest::parse(&std::fs::read_to_string(dir.join("voice.toml")).unwrap()).unwrap();
    (tmp, dir, manifest.sample_rate, router(recording))
}

/// `quiet` seconds of nothing, `secs` of a 220 Hz tone, `quiet` again.
fn word(rate: u32, quiet: f32, secs: f32, amplitude: f32) -> Vec<i16> {
    let q = (rate as f32 * quiet) as usize;
    let n = (rate as f32 * secs) as usize;
    let tone = (0..n).map(|i| {
        (amplitude * 32767.0 * (i as f32 * 220.0 * std::f32::consts::TAU / rate as f32).sin())
            as i16
    });
    std::iter::repeat_n(0, q)
        .chain(tone)
        .chain(std::iter::repeat_n(0, q))
        .collect()
}

async fn put(app: &Router, key: &str, body: Vec<u8>) -> (StatusCode, serde_json::Value) {
    let req = Request::builder()
        .method("PUT")
        .uri(format!("/api/record/clips/{key}"))
        .header(header::CONTENT_TYPE, "audio/wav")
        .body(Body::from(body))
        .unwrap();
    let res = app.clone().oneshot(req).await.unwrap();
    let status = res.status();
    let bytes = to_bytes(res.into_body(), usize::MAX).await.unwrap();
    let json = serde_json::from_slice(&bytes).unwrap_or(serde_json::Value::Null);
    (status, json)
}

async fn get(app: &Router, uri: &str) -> (StatusCode, Vec<u8>) {
    let req = Request::builder().uri(uri).body(Body::empty()).unwrap();
    let res = app.clone().oneshot(req).await.unwrap();
    let status = res.status();
    (
        status,
        to_bytes(res.into_body(), usize::MAX)
            .await
            .unwrap()
            .to_vec(),
    )
}

/// Every file under `dir`, relative, sorted, with its bytes.
fn tree(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    fn walk(base: &Path, dir: &Path, out: &mut Vec<(PathBuf, Vec<u8>)>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(base, &p, out);
            } else {
                out.push((
                    p.strip_prefix(base).unwrap().to_owned(),
                    std::fs::read(&p).unwrap(),
                ));
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

fn recorded(state: &serde_json::Value) -> Vec<&str> {
    state["tokens"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["recorded"] == true)
        .map(|t| t["key"].as_str().unwrap())
        .collect()
}

#[tokio::test]
async fn a_clip_is_kept_trimmed_and_levelled_and_every_refusal_changes_nothing() {
    let (tmp, dir, rate, app) = pack();

    // The pack as the page reads it: the manifest's order, nothing recorded.
    let (status, body) = get(&app, "/api/record").await;
    assert_eq!(status, StatusCode::OK);
    let state: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(state["name"], "mine");
    assert_eq!(state["sample_rate"], rate);
    assert_eq!(state["tokens"][0]["key"], "file.a");
    assert!(state["tokens"].as_array().unwrap().len() > 150);
    assert!(recorded(&state).is_empty());
    assert_eq!(
        get(&app, "/api/record/clips/file.e").await.0,
        StatusCode::NOT_FOUND
    );

    // A quiet word between half seconds of silence: kept with at most
    // 30 ms of quiet either side, levelled, where the manifest says.
    let (status, stored) = put(&app, "file.e", wav(rate, 1, &word(rate, 0.5, 0.4, 0.05))).await;
    assert_eq!(status, StatusCode::OK, "{stored}");
    assert_eq!(stored["key"], "file.e");
    let seconds = stored["seconds"].as_f64().unwrap();
    assert!((0.4..0.46).contains(&seconds), "{seconds} s kept");
    let before = stored["loudness_db"].as_f64().unwrap();
    assert!((-31.0..-27.0).contains(&before), "{before} dBFS as sent");
    let path = dir.join("clips/file.e.wav");
    let mut reader = hound::WavReader::open(&path).unwrap();
    assert_eq!(
        (reader.spec().channels, reader.spec().sample_rate),
        (1, rate)
    );
    let kept: Vec<f32> = reader
        .samples::<i16>()
        .map(|s| f32::from(s.unwrap()) / 32768.0)
        .collect();
    let loud = |s: &&f32| s.abs() > 0.01;
    let lead = kept.iter().position(|s| loud(&s)).unwrap();
    let trail = kept.len() - 1 - kept.iter().rposition(|s| loud(&s)).unwrap();
    let ms = |n: usize| n as f64 * 1000.0 / f64::from(rate);
    assert!(
        ms(lead) < 30.0 && ms(trail) < 30.0,
        "{} ms before, {} ms after",
        ms(lead),
        ms(trail)
    );
    let after = tactus_speech::loudness::loudness_db(&kept, rate).unwrap();
    assert!(
        (after - tactus_speech::loudness::TARGET_DB).abs() < 0.5,
        "{after} dBFS kept"
    );
    let (status, served) = get(&app, "/api/record/clips/file.e").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(served, std::fs::read(&path).unwrap());
    let state: serde_json::Value =
        serde_json::from_slice(&get(&app, "/api/record").await.1).unwrap();
    assert_eq!(recorded(&state), ["file.e"]);

    // Every refusal, to the clip already kept and to one not yet recorded.
    let everything = tree(tmp.path());
    let good = wav(rate, 1, &word(rate, 0.1, 0.4, 0.3));
    let too_big = {
        let mut b = good.clone();
        b.resize(MAX_CLIP_BYTES + 1, 0);
        b
    };
    let cases: Vec<(&str, Vec<u8>, StatusCode, &str)> = vec![
        (
            "file.e",
            b"RIFF\x10\0\0\0WAVEnonsense".to_vec(),
            StatusCode::UNPROCESSABLE_ENTITY,
            "not a WAV",
        ),
        (
            "file.e",
            Vec::new(),
            StatusCode::UNPROCESSABLE_ENTITY,
            "not a WAV",
        ),
        (
            "file.e",
            b"<html>hello</html>".to_vec(),
            StatusCode::UNPROCESSABLE_ENTITY,
            "not a WAV",
        ),
        (
            "file.e",
            wav(48_000, 1, &word(48_000, 0.1, 0.4, 0.3)),
            StatusCode::UNPROCESSABLE_ENTITY,
            "Hz",
        ),
        (
            "file.f",
            wav(rate / 2, 1, &word(rate / 2, 0.1, 0.4, 0.3)),
            StatusCode::UNPROCESSABLE_ENTITY,
            "Hz",
        ),
        (
            "file.e",
            wav(rate, 2, &word(rate, 0.1, 0.4, 0.3)),
            StatusCode::UNPROCESSABLE_ENTITY,
            "mono",
        ),
        (
            "file.f",
            wav(rate, 1, &vec![0; rate as usize]),
            StatusCode::UNPROCESSABLE_ENTITY,
            "nothing was heard",
        ),
        (
            "file.f",
            wav(rate, 1, &word(rate, 0.1, 5.5, 0.3)),
            StatusCode::UNPROCESSABLE_ENTITY,
            "at most",
        ),
        ("file.e", too_big.clone(), StatusCode::PAYLOAD_TOO_LARGE, ""),
        ("file.f", too_big, StatusCode::PAYLOAD_TOO_LARGE, ""),
        ("no.such.token", good.clone(), StatusCode::NOT_FOUND, ""),
        (
            "..%2F..%2Fvoice.toml",
            good.clone(),
            StatusCode::NOT_FOUND,
            "",
        ),
        (
            "..%2F..%2F..%2Fescaped",
            good.clone(),
            StatusCode::NOT_FOUND,
            "",
        ),
        (
            "clips%2Ffile.e.wav",
            good.clone(),
            StatusCode::NOT_FOUND,
            "",
        ),
    ];
    for (key, body, status, says) in cases {
        let (got, answer) = put(&app, key, body).await;
        assert_eq!(got, status, "{key}: {answer}");
        if !says.is_empty() {
            let error = answer["error"].as_str().unwrap_or_default();
            assert!(error.contains(says), "{key}: {error}");
        }
        assert!(
            tree(tmp.path()) == everything,
            "{key}: the refused body changed the pack"
        );
    }
    let state: serde_json::Value =
        serde_json::from_slice(&get(&app, "/api/record").await.1).unwrap();
    assert_eq!(recorded(&state), ["file.e"]);

    // Recorded again, the clip is replaced, and nothing else is left.
    let (status, _) = put(&app, "file.e", good).await;
    assert_eq!(status, StatusCode::OK);
    assert_ne!(tree(tmp.path()), everything);
    let files: Vec<PathBuf> = tree(tmp.path()).into_iter().map(|f| f.0).collect();
    assert_eq!(
        files,
        [
            PathBuf::from("mine/clips/file.e.wav"),
            PathBuf::from("mine/voice.toml")
        ]
    );
}

#[tokio::test]
async fn the_page_its_script_and_style_are_served_under_the_venue_policy() {
    let (_tmp, _dir, _rate, app) = pack();
    for (uri, kind) in [
        ("/?lang=en", "text/html"),
        ("/static/recorder.js", "text/javascript"),
        ("/static/style.css", "text/css"),
    ] {
        let req = Request::builder().uri(uri).body(Body::empty()).unwrap();
        let res = app.clone().oneshot(req).await.unwrap();
        assert_eq!(res.status(), StatusCode::OK, "{uri}");
        let content_type = res.headers()[header::CONTENT_TYPE].to_str().unwrap();
        assert!(content_type.starts_with(kind), "{uri}: {content_type}");
        let csp = res.headers()["content-security-policy"].to_str().unwrap();
        assert!(csp.contains("script-src 'self'"), "{uri}: {csp}");
        if kind == "text/html" {
            let html = String::from_utf8(
                to_bytes(res.into_body(), usize::MAX)
                    .await
                    .unwrap()
                    .to_vec(),
            )
            .unwrap();
            assert!(html.contains("<script type=\"module\" src=\"/static/recorder.js\">"));
            assert!(!html.contains("{{"), "an unfilled placeholder");
        }
    }
}
