//! A noisy board is summarised in the log, not told line by line: a
//! simulated peg board at full speed sends nothing but unreadable lines (as
//! a board at the wrong baud rate does) to a real table; the log, caught by
//! a subscriber of this test, holds one warning per interval with counts.

// Alone in its binary: it installs the process-wide `tracing` subscriber
// (once per process) and counts every log line the process writes, so
// another test's board or table in the same process would be counted too.
use tactus_testkit::caught;

use std::sync::Arc;
use std::time::{Duration, Instant};

use shakmaty::{Board, Color};
use tactus::service::store::journal::{Durability, Journal, JournalHandle};
use tactus::table::actor::TableActor;
use tactus::table::boards::BoardLink;
use tactus::table::parts::TableParts;
use tactus::table::setup::Setup;
use tactus::table::speaker::Speaker;
use tactus::table::timebase::Timebase;
use tactus_board::event::Protocol;
use tactus_board::infer::Settings;
use tactus_board::serial::{Driver, DriverConfig};
use tactus_board::sim::Simulator;
use tactus_rules::result::FlagRule;
use tactus_speech::voice_pack::{LoadOptions, VoicePack};

use caught::Caught;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_board_sending_garbage_at_full_speed_is_one_warning_an_interval() {
    let caught = Caught::install();

    let dir = tempfile::tempdir().unwrap();
    let mut sim = Simulator::new(Protocol::Peg, Board::default(), None).unwrap();
    let every = Duration::from_millis(500);
    let mut config = DriverConfig::new(sim.path(), Protocol::Peg);
    config.noise_every = every;
    let driver = Driver::spawn(config).unwrap();
    let voice = Arc::new(
        VoicePack::load(
            concat!(env!("CARGO_MANIFEST_DIR"), "/voices/de-appendix-d"),
            &LoadOptions::default(),
        )
        .unwrap(),
    );
    let journal = JournalHandle::spawn(
        Journal::open(&dir.path().join("journal.sqlite"), Durability::Full).unwrap(),
    );
    let (actor, handle) = TableActor::start(TableParts {
        board: Some(BoardLink {
            driver,
            protocol: Protocol::Peg,
            settings: Settings::default(),
            mirror: None,
            pin: None,
            settle_chosen: false,
        }),
        ..TableParts::new(
            Setup {
                id: "1".parse().unwrap(),
                blind: Color::Black,
                control: "90+30".parse().unwrap(),
                white: String::new(),
                black: String::new(),
                event: String::new(),
                round: Default::default(),
                fen: None,
                flag: FlagRule::Claim,
                ranks: Default::default(),
                held_for_start: false,
            },
            voice,
            Speaker::silent(),
            Arc::new(journal),
            Timebase::manual(Duration::from_secs(1)),
        )
    })
    .await
    .unwrap();
    tokio::spawn(actor.run());
    let deadline = Instant::now() + Duration::from_secs(20);
    while handle
        .view()
        .await
        .unwrap()
        .board
        .is_some_and(|b| !b.connected)
    {
        assert!(Instant::now() < deadline, "the board never connected");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }

    // Unreadable lines as fast as the terminal takes them: for three
    // seconds and 4,096 lines at least (a loaded machine's reader takes
    // fewer a second; the flood is then longer, never smaller).
    let (sim, sent, flood) = tokio::task::spawn_blocking(move || {
        let line = b"X \x01\x02 no such line\n".repeat(64);
        let start = Instant::now();
        let mut sent = 0u64;
        while start.elapsed() < Duration::from_secs(3) || sent < 4096 {
            sim.send_raw(&line);
            sent += 64;
        }
        (sim, sent, start.elapsed())
    })
    .await
    .unwrap();
    // What the log's warnings tell: each connection's first at once, then
    // its summaries. Under load the flood has made the driver reconnect
    // (the count since the board connected started again), which the sum
    // must not take for a lost line.
    let warnings = || -> Vec<String> {
        caught
            .lines()
            .into_iter()
            .filter(|l| l.contains("unreadable"))
            .collect()
    };
    let told = |lines: &[String]| -> u64 {
        let firsts = lines
            .iter()
            .filter(|l| l.contains("unreadable board input ("))
            .count() as u64;
        firsts
            + lines
                .iter()
                .filter_map(|l| {
                    l.split(" more unreadable")
                        .next()?
                        .rsplit(' ')
                        .next()?
                        .parse::<u64>()
                        .ok()
                })
                .sum::<u64>()
    };
    // Every line read and told: the table's count and the log's agree (a
    // pause of the flood, such as a reconnection, is not taken for the
    // end: the two are compared, not the count's stillness).
    let settle = Instant::now() + Duration::from_secs(30);
    let (unreadable, lines) = loop {
        tokio::time::sleep(every).await;
        let now = handle.view().await.unwrap().board.unwrap().unreadable;
        let lines = warnings();
        if (now > 0 && told(&lines) == now) || Instant::now() > settle {
            break (now, lines);
        }
    };
    drop(sim);
    assert!(unreadable >= 1000, "only {unreadable} of {sent} lines read");

    // One at once, then at most one per interval (with slack for the
    // driver's polling and a reconnection's first).
    let most = (flood.as_millis() / every.as_millis()) as usize + 4;
    assert!(
        !lines.is_empty() && lines.len() <= most,
        "{} warnings for {unreadable} unreadable lines (at most {most}):\n{}",
        lines.len(),
        lines
            .iter()
            .take(10)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    // The summaries add up to what the board sent.
    assert_eq!(told(&lines), unreadable, "{lines:#?}");
}
