//! The venue configuration: never a panic; a configuration that is accepted
//! keeps the promises of `Config::check`, and its boards are shown as text
//! that parses back to the same board.

use tactus::service::startup::config::{BoardSpec, Config};

pub fn check(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // A board spec on its own, as in `tactus board --board`.
    if let Ok(b) = text.parse::<BoardSpec>() {
        round_trip(&b);
    }
    let Ok(config) = Config::parse(text) else {
        return;
    };
    assert!(!config.tables.is_empty());
    assert!((0.5..=2.0).contains(&config.speech.speed));
    for (i, t) in config.tables.iter().enumerate() {
        assert!(!t.id.is_empty() && t.id.len() <= 32, "{:?}", t.id);
        assert!(
            t.id.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        );
        assert!(config.tables[..i].iter().all(|u| u.id != t.id));
        round_trip(&t.board);
        round_trip(&t.opponent_board);
    }
}

fn round_trip(b: &BoardSpec) {
    let shown = b.to_string();
    assert_eq!(shown.parse::<BoardSpec>().as_ref(), Ok(b), "{shown:?}");
}
