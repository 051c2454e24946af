//! A journal that cannot write (here a real SQLite journal whose inserts a
//! trigger aborts, as a full disk would) is seen once and retried with
//! backoff: a flag falling meanwhile is shown as fallen but not recorded,
//! the arbiter's alerts say "journal failing", the log tells it once, and
//! the flag is recorded once the journal works again. In-process through
//! the table actor on a manual clock; the log caught by this test.

// Alone in its binary: it installs the process-wide `tracing` subscriber
// (once per process) and counts every log line the process writes, so
// another test's board or table in the same process would be counted too.
use tactus_testkit::caught;

use std::sync::Arc;
use std::time::{Duration, Instant};

use shakmaty::Color;
use tactus::service::store::journal::{Durability, Journal, JournalHandle};
use tactus::table::actions::Action;
use tactus::table::actions::PersonRole;
use tactus::table::actor::TableActor;
use tactus::table::error::TableError;
use tactus::table::parts::TableParts;
use tactus::table::setup::Setup;
use tactus::table::speaker::Speaker;
use tactus::table::timebase::Timebase;
use tactus_rules::result::FlagRule;
use tactus_speech::voice_pack::{LoadOptions, VoicePack};

use caught::Caught;

const FAIL: &str = "CREATE TRIGGER full_events BEFORE INSERT ON events
                      BEGIN SELECT RAISE(ABORT, 'database or disk is full (test)'); END;
                    CREATE TRIGGER full_alive BEFORE INSERT ON alive
                      BEGIN SELECT RAISE(ABORT, 'database or disk is full (test)'); END;";
const WORK: &str = "DROP TRIGGER full_events; DROP TRIGGER full_alive;";

fn alerts(view: &serde_json::Value) -> Vec<(String, String)> {
    view["alerts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                a["kind"].as_str().unwrap().to_owned(),
                a["text"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flag_falling_while_the_journal_fails_is_shown_retried_and_recorded_later() {
    let caught = Caught::install();

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("journal.sqlite");
    let journal = JournalHandle::spawn(Journal::open(&path, Durability::Full).unwrap());
    let voice = Arc::new(
        VoicePack::load(
            concat!(env!("CARGO_MANIFEST_DIR"), "/voices/de-appendix-d"),
            &LoadOptions::default(),
        )
        .unwrap(),
    );
    let time = Timebase::manual(Duration::from_secs(1_000));
    let (actor, table) = TableActor::start(TableParts {
        ..TableParts::new(
            Setup {
                id: "1".parse().unwrap(),
                blind: Color::Black,
                control: "1+0".parse().unwrap(),
                white: String::new(),
                black: String::new(),
                event: String::new(),
                round: Default::default(),
                fen: None,
                flag: FlagRule::Auto,
                ranks: Default::default(),
                held_for_start: false,
            },
            voice,
            Speaker::silent(),
            Arc::new(journal),
            time.clone(),
        )
    })
    .await
    .unwrap();
    tokio::spawn(actor.run());
    table
        .act(PersonRole::Assistant, Action::StartClock)
        .await
        .unwrap();
    let view = || async { serde_json::to_value(table.view().await.unwrap()).unwrap() };

    // The disk is full.
    let other = rusqlite::Connection::open(&path).unwrap();
    other.execute_batch(FAIL).unwrap();
    time.advance(Duration::from_secs(61));
    // A second of real time for a loop to show itself.
    tokio::time::sleep(Duration::from_secs(1)).await;
    let v = view().await;
    assert_eq!(v["result"], serde_json::Value::Null, "{v}");
    assert_eq!(v["clock"]["flag"], "white", "{v}");
    assert_eq!(v["clock"]["white_ms"], 0, "{v}");
    let a = alerts(&v);
    assert!(
        a.iter()
            .any(|(k, t)| k == "journal" && t.starts_with("journal failing")),
        "{a:?}"
    );
    assert!(
        a.iter()
            .any(|(k, t)| k == "flag" && t.contains("not yet recorded")),
        "{a:?}"
    );
    // A request meanwhile is refused as not recorded, changing nothing.
    let refused = table
        .act(
            PersonRole::Arbiter,
            Action::SetResult {
                result: shakmaty::KnownOutcome::Decisive {
                    winner: shakmaty::Color::White,
                },
                reason: "test".into(),
            },
        )
        .await;
    assert!(
        matches!(&refused, Err(TableError::Journal(cause))
            if matches!(**cause, tactus::table::error::RecordError::Journal(_))),
        "{refused:?}"
    );
    // Retried with backoff on the table's time: a few tries over 20 s.
    for _ in 0..20 {
        time.advance(Duration::from_secs(1));
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let failures: Vec<String> = caught
        .lines()
        .into_iter()
        .filter(|l| l.contains("ERROR") || l.contains("WARN"))
        .collect();
    assert!(
        (1..=4).contains(&failures.len()),
        "{} error lines while the journal failed:\n{}",
        failures.len(),
        failures
            .iter()
            .take(8)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );

    // The disk has room again: the fall is recorded at the next try.
    other.execute_batch(WORK).unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    let v = loop {
        time.advance(Duration::from_secs(1));
        let v = view().await;
        if !v["result"].is_null() || Instant::now() > deadline {
            break v;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert_eq!(v["result"]["result"], "0-1", "{v}");
    assert!(
        !alerts(&v).iter().any(|(k, _)| k == "journal"),
        "{:?}",
        alerts(&v)
    );
    let journaled: Vec<String> = other
        .prepare("SELECT payload FROM events ORDER BY seq")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert!(
        journaled.last().unwrap().contains("FlagFell")
            || journaled.last().unwrap().contains("flag_fell"),
        "{journaled:#?}"
    );
}
