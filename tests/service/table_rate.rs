//! Issue 35: the arbiter sets a table's speaking rate. The table's pack is
//! loaded again at that rate and its next announcement is exactly that
//! pack's rendering (measured in the table's own WAV output); a rate out of
//! range or from another role changes nothing; a restart keeps it.

use std::path::Path;
use std::time::{Duration, Instant};

use tactus_rules::token::Token;
use tactus_speech::voice_pack::{LoadOptions, VoicePack};

use crate::common::{Server, get, post, tokens};

/// The frames of the one WAV file in `dir` once it has stopped growing
/// beyond `before` (the speaker has written the announcement).
fn frames_after(dir: &Path, before: u32) -> (u32, u32) {
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut last = (before, 0, Instant::now());
    loop {
        assert!(
            Instant::now() < deadline,
            "no new announcement in {}",
            dir.display()
        );
        let file = std::fs::read_dir(dir)
            .ok()
            .and_then(|mut d| d.next())
            .and_then(|e| e.ok())
            .map(|e| e.path());
        if let Some(r) = file.and_then(|f| hound::WavReader::open(f).ok()) {
            let (frames, rate) = (r.duration(), r.spec().sample_rate);
            if frames != last.0 {
                last = (frames, rate, Instant::now());
            } else if frames > before && last.2.elapsed() > Duration::from_millis(700) {
                return (frames, rate);
            }
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn the_arbiter_sets_a_tables_rate_and_its_next_words_are_said_at_it() {
    let dir = tempfile::tempdir().unwrap();
    let wav = dir.path().join("wav");
    let config = dir.path().join("venue.toml");
    std::fs::write(
        &config,
        format!(
            "[[table]]\nid = \"1\"\nblind = \"black\"\nboard = \"none\"\naudio = \"wav:{}\"\n",
            wav.display()
        ),
    )
    .unwrap();
    let data = dir.path().join("data");
    let server = Server::start(&data, &["--config", config.to_str().unwrap()]);
    let (player, assistant, arbiter) = tokens(&data, "1");
    assert_eq!(get(&server.addr, "/api/tables/1").json()["rate"], 1.0);
    let r = post(
        &server.addr,
        "/api/tables/1/move",
        &assistant,
        r#"{"move":"e4"}"#,
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let (before, rate) = frames_after(&wav, 0);

    // Refused, and nothing changes.
    for (token, body, status) in [
        (&arbiter, r#"{"rate":2.0}"#, 422),
        (&arbiter, r#"{"rate":0.5}"#, 422),
        (&arbiter, r#"{"speed":1.2}"#, 422),
        (&player, r#"{"rate":1.2}"#, 403),
        (&assistant, r#"{"rate":1.2}"#, 403),
    ] {
        let r = post(&server.addr, "/api/tables/1/rate", token, body);
        assert_eq!(r.status, status, "{body}: {}", r.body);
    }
    assert_eq!(get(&server.addr, "/api/tables/1").json()["rate"], 1.0);

    let r = post(
        &server.addr,
        "/api/tables/1/rate",
        &arbiter,
        r#"{"rate":1.6}"#,
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let rate_now = r.json()["rate"].as_f64().unwrap();
    assert!((rate_now - 1.6).abs() < 1e-6, "{rate_now}");
    // The blind player's reply, said at 1.6: the pause between two
    // announcements, then the pack's own rendering at 1.6, to the sample.
    let r = post(
        &server.addr,
        "/api/tables/1/move",
        &player,
        r#"{"move":"e5"}"#,
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let (after, _) = frames_after(&wav, before);
    let voice = Path::new(env!("CARGO_MANIFEST_DIR")).join("voices/de-appendix-d");
    let said = |speed: f32| {
        let pack = VoicePack::load(
            &voice,
            &LoadOptions {
                speed,
                lenient: false,
            },
        )
        .unwrap();
        let words = ["file.e", "rank.5"].map(|k| Token::from_key(k).unwrap());
        pack.at_rate(rate).unwrap().rendered_len(&words) as u32
    };
    let pause = rate * tactus_speech::sink::DEFAULT_PAUSE_MS / 1000;
    assert_eq!(after - before, pause + said(1.6));
    assert!(
        said(1.6) < said(1.0) * 7 / 10,
        "{} vs {}",
        said(1.6),
        said(1.0)
    );

    // A restart keeps the table's rate.
    server.kill9();
    let server = Server::start(&data, &["--config", config.to_str().unwrap()]);
    let rate_back = get(&server.addr, "/api/tables/1").json()["rate"]
        .as_f64()
        .unwrap();
    assert!((rate_back - 1.6).abs() < 1e-6, "{rate_back}");
}
