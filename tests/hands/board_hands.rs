//! The hands suite: whole games carried out by the hands model
//! (`board::hands`) on simulated peg, DGT and Millennium boards, through
//! real pseudo-terminals and the real serial driver, read by the inference
//! engine with each kind of board's default settings (the harness is
//! `tactus_testkit::hands`, which `tactus bench hands` runs too). Real games
//! (the PGN files of `tests/pgn-corpus/` and `tests/fixtures/announcements/`)
//! and random legal games; one board where both sides play, or one
//! player's board at a table (the blind player's peg board, a sighted
//! opponent's electronic board, whose pieces slide at human speed and whose
//! DGT clock is pressed), on either colour.
//!
//! Every move must be found, in order, none invented, and every touch
//! recorded. The run prints its seed; `TACTUS_SEED=<seed>` replays it, and
//! `TACTUS_HANDS_GAME=<n>` plays only game n of it (a failure prints what
//! the host saw last). `TACTUS_HANDS_GAMES` sets how many games (default
//! 48; docs/testing.md gives the 500-game command), and `TACTUS_HANDS_JOBS` how many
//! at once (default 16: the games wait on hands moving at human speed and
//! on the blind player's replies, not on the processor; 48 games took
//! 327 s at 8 at once, at a load average under 1, in CI).

use tactus_testkit::hands::{HandsGame, HandsOptions, Mix, games_from_pgn, run_hands};

fn corpus() -> Vec<HandsGame> {
    let mut files: Vec<std::path::PathBuf> = Vec::new();
    for dir in [
        "tests/pgn-corpus/python-chess",
        "tests/fixtures/announcements",
    ] {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "pgn") {
                files.push(p);
            }
        }
    }
    files.sort();
    files
        .iter()
        .flat_map(|f| games_from_pgn(&f.display().to_string(), &std::fs::read(f).unwrap()))
        .collect()
}

fn env(name: &str) -> Option<u64> {
    std::env::var(name).ok().map(|v| {
        v.parse()
            .unwrap_or_else(|_| panic!("{name}={v:?} is not a number"))
    })
}

#[test]
fn hands_play_whole_games_on_peg_dgt_and_millennium_boards() {
    let seed = env("TACTUS_SEED").unwrap_or_else(|| {
        let mut b = [0u8; 8];
        getrandom::fill(&mut b).unwrap();
        u64::from_le_bytes(b) >> 16
    });
    let options = HandsOptions {
        seed,
        games: env("TACTUS_HANDS_GAMES").unwrap_or(48) as usize,
        only: env("TACTUS_HANDS_GAME").map(|n| n as usize),
        jobs: env("TACTUS_HANDS_JOBS").unwrap_or(16) as usize,
        settle: None,
        mix: Mix::default(),
    };
    eprintln!(
        "hands suite: seed {seed} (TACTUS_SEED={seed} replays it), {} games",
        options.games
    );
    let corpus = corpus();
    assert!(corpus.len() >= 10, "{} corpus games", corpus.len());
    let r = run_hands(&options, corpus);
    eprintln!(
        "hands suite: {} games, {} plies, {} touches, {} misses, in {:.0} s ({} at once); \
         event completing a move to the move known: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        r.games,
        r.plies,
        r.touches,
        r.failures.len(),
        r.seconds,
        r.jobs,
        r.p50_ms,
        r.p99_ms,
        r.max_ms
    );
    let failures: Vec<String> = r
        .failures
        .iter()
        .map(|f| {
            // What the host saw, whole, in a file; the end of it here.
            let file = std::env::temp_dir().join(format!("tactus-hands-{seed}-{}.log", f.game));
            let saved = match std::fs::write(&file, f.log.join("\n")) {
                Ok(()) => format!("the host's log: {}", file.display()),
                Err(e) => format!("the host's log not saved: {e}"),
            };
            format!(
                "game {} ({}, {}, {}): {}; replay: TACTUS_SEED={seed} TACTUS_HANDS_GAME={}; {saved}\n  {}",
                f.game,
                f.name,
                f.protocol,
                f.mode,
                f.error,
                f.game,
                f.log[f.log.len().saturating_sub(40)..].join("\n  ")
            )
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(r.games, options.only.map_or(options.games, |_| 1));
}
