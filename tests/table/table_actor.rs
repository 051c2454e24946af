//! The table actor in-process: a manual time, a real SQLite journal in a
//! temporary folder, and a sink whose playing time the test controls. No
//! process, no wall-clock deadlines: each test runs in milliseconds.

use std::sync::{Arc, mpsc};
use std::time::Duration;

use shakmaty::Color;
use tactus::service::store::journal::{Durability, Journal, JournalHandle};
use tactus::table::actions::Action;
use tactus::table::actions::PersonRole;
use tactus::table::actor::TableActor;
use tactus::table::error::{Forbidden, TableError, Unprocessable};
use tactus::table::handle::{Reply, TableHandle};
use tactus::table::parts::TableParts;
use tactus::table::setup::Setup;
use tactus::table::speaker::Speaker;
use tactus::table::timebase::Timebase;
use tactus::table::view::TableView;
use tactus_rules::clock_announce::Shown;
use tactus_rules::game::GameError;
use tactus_rules::notation::Lang;
use tactus_rules::result::FlagRule;
use tactus_rules::token::Token;
use tactus_speech::sink::{Sink, SinkError};
use tactus_speech::voice_pack::{LoadOptions, VoicePack};

/// A sound output that "plays" each announcement until the test lets it
/// finish, as a real device plays for as long as the words last.
struct GatedSink {
    started: mpsc::Sender<String>,
    finish: mpsc::Receiver<()>,
}

impl Sink for GatedSink {
    fn say(&mut self, _tokens: &[Token], text: &str) -> Result<(), SinkError> {
        let _ = self.started.send(text.to_string());
        let _ = self.finish.recv();
        Ok(())
    }
}

struct Table {
    handle: TableHandle,
    time: Timebase,
    _dir: tempfile::TempDir,
}

struct Gate {
    started: mpsc::Receiver<String>,
    finish: mpsc::Sender<()>,
}

fn voice() -> Arc<VoicePack> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/voices/de-appendix-d");
    Arc::new(VoicePack::load(dir, &LoadOptions::default()).unwrap())
}

fn setup(control: &str, flag: FlagRule) -> Setup {
    Setup {
        id: "1".parse().unwrap(),
        blind: Color::Black,
        control: control.parse().unwrap(),
        white: "W".into(),
        black: "B".into(),
        event: "test".into(),
        round: "1".parse().unwrap(),
        fen: None,
        flag,
        ranks: Default::default(),
        held_for_start: false,
    }
}

async fn start(setup: Setup, speaker: Speaker) -> Table {
    let dir = tempfile::tempdir().unwrap();
    let journal = Journal::open(&dir.path().join("journal.sqlite"), Durability::Full).unwrap();
    let time = Timebase::manual(Duration::from_secs(1_000));
    let (actor, handle) = TableActor::start(TableParts::new(
        setup,
        voice(),
        speaker,
        Arc::new(JournalHandle::spawn(journal)),
        time.clone(),
    ))
    .await
    .unwrap();
    tokio::spawn(actor.run());
    Table {
        handle,
        time,
        _dir: dir,
    }
}

fn gated() -> (Speaker, Gate) {
    let (started_tx, started) = mpsc::channel();
    let (finish, finish_rx) = mpsc::channel();
    let sink = GatedSink {
        started: started_tx,
        finish: finish_rx,
    };
    (
        Speaker::spawn("1", Box::new(sink)).unwrap(),
        Gate { started, finish },
    )
}

async fn act(t: &Table, role: PersonRole, action: Action) -> Result<Reply, TableError> {
    t.handle.act(role, action).await
}

fn mv(text: &str) -> Action {
    Action::Move {
        text: text.into(),
        lang: Some(Lang::Auto),
        page_lang: None,
    }
}

async fn view(t: &Table) -> TableView {
    t.handle.view().await.unwrap()
}

/// Lets the speaker thread finish `n` announcements, in order.
fn let_play(gate: &Gate, n: usize) -> Vec<String> {
    (0..n)
        .map(|_| {
            let said = gate.started.recv_timeout(Duration::from_secs(10)).unwrap();
            gate.finish.send(()).unwrap();
            said
        })
        .collect()
}

/// D.2.3.3 and D.2.4: the blind player's move is made when its announcement
/// has been spoken; only then is the opponent's clock started, and the
/// journal holds that instant. The sighted player's move is made at once.
#[tokio::test]
async fn the_blind_players_move_is_made_when_its_announcement_ends() {
    let (speaker, gate) = gated();
    let t = start(setup("90+30", FlagRule::Claim), speaker).await;
    act(&t, PersonRole::Assistant, Action::StartClock)
        .await
        .unwrap();
    // White (sighted) moves at +10 s: made at once, announced on the side.
    t.time.advance(Duration::from_secs(10));
    act(&t, PersonRole::Assistant, mv("e4")).await.unwrap();
    assert_eq!(view(&t).await.moves, ["e4"]);
    let_play(&gate, 1);

    // Black (blind) types e5 at +15 s; the announcement plays for 2 s.
    t.time.advance(Duration::from_secs(15));
    let request = {
        let h = t.handle.clone();
        tokio::spawn(async move { h.act(PersonRole::Player, mv("e5")).await })
    };
    let said = tokio::task::spawn_blocking({
        let started = gate.started;
        move || {
            (
                started.recv_timeout(Duration::from_secs(10)).unwrap(),
                started,
            )
        }
    })
    .await
    .unwrap();
    assert_eq!(said.0, "Eva fünf");
    t.time.advance(Duration::from_secs(2));
    // Still being said: not made, Black's clock still runs, no reply yet.
    let v = view(&t).await;
    assert_eq!(v.moves, ["e4"]);
    assert_eq!(v.turn, Color::Black);
    assert_eq!(v.clock.black_ms, (90 * 60 - 17) * 1000);
    assert!(!request.is_finished());
    // Another move meanwhile is refused.
    let err = act(&t, PersonRole::Assistant, mv("Nf6")).await.unwrap_err();
    assert!(
        matches!(err, TableError::Unprocessable(Unprocessable::Announcing)),
        "{err}"
    );

    gate.finish.send(()).unwrap();
    let reply = request.await.unwrap().unwrap();
    assert_eq!(reply.text.as_deref(), Some("Eva fünf"));
    let v = view(&t).await;
    assert_eq!(v.moves, ["e4", "e5"]);
    // Made at +17 s: 17 s used, 30 s back; White's clock runs from there.
    assert_eq!(v.clock.black_ms, (90 * 60 - 17 + 30) * 1000);
    t.time.advance(Duration::from_secs(3));
    assert_eq!(
        view(&t).await.clock.white_ms,
        (90 * 60 - 10 + 30 - 3) * 1000
    );
}

/// Without audio the move is made at once.
#[tokio::test]
async fn without_audio_the_blind_players_move_is_made_at_once() {
    let t = start(setup("90+30", FlagRule::Claim), Speaker::silent()).await;
    act(&t, PersonRole::Assistant, mv("e4")).await.unwrap();
    t.time.advance(Duration::from_secs(5));
    act(&t, PersonRole::Player, mv("e5")).await.unwrap();
    let v = view(&t).await;
    assert_eq!(v.moves, ["e4", "e5"]);
    assert_eq!(v.clock.black_ms, (90 * 60 - 5 + 30) * 1000);
}

/// A request granted in one game only (the second blind player's token) is
/// refused once the table has its next game, however late it arrives:
/// nothing changes in the new game.
#[tokio::test]
async fn a_request_for_one_game_is_refused_in_the_next() {
    let t = start(setup("90+30", FlagRule::Claim), Speaker::silent()).await;
    let game = view(&t).await.game;
    t.handle
        .act_in(Some(game), PersonRole::Opponent, mv("e4"))
        .await
        .unwrap();
    t.handle
        .act_in(
            Some(game),
            PersonRole::Opponent,
            Action::Resign { side: Color::White },
        )
        .await
        .unwrap();
    let mut next = setup("90+30", FlagRule::Claim);
    next.round = "2".parse().unwrap();
    assert_eq!(t.handle.new_game(next).await.unwrap(), game + 1);
    let stale = t
        .handle
        .act_in(Some(game), PersonRole::Opponent, mv("e4"))
        .await;
    assert!(matches!(stale, Err(TableError::Forbidden(_))), "{stale:?}");
    assert!(view(&t).await.moves.is_empty());
    t.handle
        .act_in(Some(game + 1), PersonRole::Opponent, mv("e4"))
        .await
        .unwrap();
    assert_eq!(view(&t).await.moves, ["e4"]);
}

/// 6.8: under the default rule the fall is shown at once (clock.flag, an
/// alert, said once) and the game ends on the claim; a whole 3-minute game
/// of waiting runs in milliseconds on the manual time.
#[tokio::test]
async fn a_fallen_flag_is_shown_at_once_and_ends_the_game_on_a_claim() {
    let t = start(setup("3+0", FlagRule::Claim), Speaker::silent()).await;
    let mut live = t.handle.subscribe();
    act(&t, PersonRole::Assistant, mv("e4")).await.unwrap();
    t.time.advance(Duration::from_secs(181));
    // The table wakes by itself at the fall.
    let said = loop {
        match tokio::time::timeout(Duration::from_secs(10), live.recv()).await {
            Ok(Ok(tactus::table::view::LiveEvent::Announcement(a)))
                if a.kind == tactus_rules::game::NoticeKind::Clock =>
            {
                break a.text;
            }
            Ok(Ok(_)) => {}
            other => panic!("no flag announcement: {other:?}"),
        }
    };
    assert_eq!(said, "Schwarz Zeit überschritten");
    let v = view(&t).await;
    assert_eq!(v.clock.flag, Some(Color::Black));
    assert!(v.result.is_none());
    assert!(
        v.alerts
            .iter()
            .any(|a| a.kind == tactus::table::view::AlertKind::Flag),
        "{:?}",
        v.alerts
    );
    // The assistant claims it (D.2.10.5): White wins.
    act(&t, PersonRole::Assistant, Action::ClaimFlag)
        .await
        .unwrap();
    let v = view(&t).await;
    assert_eq!(v.result.unwrap().score(), "1-0");

    // Under flag = "auto" the game ends at the fall.
    let t = start(setup("3+0", FlagRule::Auto), Speaker::silent()).await;
    act(&t, PersonRole::Assistant, mv("e4")).await.unwrap();
    t.time.advance(Duration::from_secs(181));
    let mut tries = 0;
    while view(&t).await.result.is_none() {
        tries += 1;
        assert!(tries < 1000, "the flag did not end the game");
        tokio::task::yield_now().await;
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
}

/// A claim with a declared move and the time told either way.
#[tokio::test]
async fn claims_and_the_clock_said_either_way() {
    let t = start(setup("15+10", FlagRule::Claim), Speaker::silent()).await;
    act(&t, PersonRole::Assistant, mv("Nf3")).await.unwrap();
    // The blind player may not claim for White, nor when not on move.
    let claim = |side, declared: Option<&str>| Action::ClaimDraw {
        side,
        claim: tactus_rules::event::DrawClaim::Threefold,
        declared: declared.map(str::to_string),
        lang: Some(Lang::Auto),
        page_lang: None,
    };
    assert!(matches!(
        act(&t, PersonRole::Player, claim(Color::White, None)).await,
        Err(TableError::Forbidden(Forbidden::Role {
            role: PersonRole::Player
        }))
    ));
    assert!(matches!(
        act(&t, PersonRole::Assistant, claim(Color::White, None)).await,
        Err(TableError::Unprocessable(Unprocessable::Game(
            GameError::ClaimNotOnMove {
                on_move: Color::Black
            }
        )))
    ));
    // Black claims, declaring Sf6 (German letters): wrong, so White gets one
    // minute (rapid) and the move is made.
    let white_before = view(&t).await.clock.white_ms;
    act(&t, PersonRole::Player, claim(Color::Black, Some("Sf6")))
        .await
        .unwrap();
    let v = view(&t).await;
    assert_eq!(v.moves, ["Nf3", "Nf6"]);
    assert_eq!(v.clock.white_ms, white_before + 60_000);
    assert_eq!(v.kind.name(), "rapid");

    let left = act(&t, PersonRole::Player, Action::SayClock { time: None })
        .await
        .unwrap();
    let used = act(
        &t,
        PersonRole::Player,
        Action::SayClock {
            time: Some(Shown::Used),
        },
    )
    .await
    .unwrap();
    assert!(!left.text.unwrap().contains("verbraucht"));
    assert!(used.text.unwrap().contains("verbraucht"));
}

/// A whole game of more than 90 minutes on the manual time, in
/// milliseconds: the sample game's 21 plies, each player thinking 4 to 9
/// minutes a move, every figure exact.
#[tokio::test]
async fn a_ninety_minute_game_runs_in_milliseconds() {
    const GAME: [&str; 21] = [
        "e2e4", "c7c6", "d2d4", "d7d5", "b1c3", "d5e4", "c3e4", "g8f6", "d1d3", "e7e5", "d4e5",
        "d8a5", "c1d2", "a5e5", "e1c1", "f6e4", "d3d8", "e8d8", "d2g5", "d8c7", "g5d8",
    ];
    let t = start(setup("90+30", FlagRule::Claim), Speaker::silent()).await;
    act(&t, PersonRole::Assistant, Action::StartClock)
        .await
        .unwrap();
    let mut used = [0u64; 2];
    for (i, uci) in GAME.iter().enumerate() {
        let think = 240 + (i as u64 * 97) % 300;
        used[i % 2] += think;
        t.time.advance(Duration::from_secs(think));
        let role = if i % 2 == 0 {
            PersonRole::Assistant
        } else {
            PersonRole::Player
        };
        act(&t, role, mv(uci)).await.unwrap();
    }
    let v = view(&t).await;
    assert_eq!(v.moves.len(), 21);
    assert_eq!(v.result.as_ref().unwrap().score(), "1-0");
    assert!(used[0] + used[1] > 90 * 60, "{used:?}");
    // White made 11 moves, Black 10, each with 30 s back.
    assert_eq!(v.clock.white_ms, (90 * 60 - used[0] + 11 * 30) * 1000);
    assert_eq!(v.clock.black_ms, (90 * 60 - used[1] + 10 * 30) * 1000);
}

/// A journal that holds every append while the test holds its gate: the
/// table's actor stands still in the middle of a request, as it does while
/// a slow disk commits.
struct HeldJournal {
    inner: JournalHandle,
    gate: Arc<tokio::sync::Semaphore>,
}

impl tactus::table::journal::TableJournal for HeldJournal {
    fn append<'a>(
        &'a self,
        table: &'a tactus::table::id::TableId,
        game: u32,
        at_ms: i64,
        payload: String,
    ) -> futures_util::future::BoxFuture<'a, Result<i64, tactus::table::journal::NotJournaled>>
    {
        Box::pin(async move {
            let _pass = self.gate.acquire().await;
            tactus::table::journal::TableJournal::append(&self.inner, table, game, at_ms, payload)
                .await
        })
    }

    fn alive(&self, table: &tactus::table::id::TableId, at_ms: i64) {
        tactus::table::journal::TableJournal::alive(&self.inner, table, at_ms);
    }

    fn failing(&self) -> Option<String> {
        tactus::table::journal::TableJournal::failing(&self.inner)
    }
}

/// Issue 36: readers of a table (its state, its PGN) never wait in the
/// table's mailbox. With the actor held in the middle of a move (the
/// journal not yet committing it), a crowd of readers is answered at once
/// with the table as it stands, and the move, once committed, is what the
/// next reader sees. Before, each read was a message to the actor and
/// waited behind the move.
#[tokio::test]
async fn readers_are_answered_while_the_table_is_busy_with_a_move() {
    let dir = tempfile::tempdir().unwrap();
    let journal = Journal::open(&dir.path().join("journal.sqlite"), Durability::Full).unwrap();
    let gate = Arc::new(tokio::sync::Semaphore::new(1_000));
    let time = Timebase::manual(Duration::from_secs(1_000));
    let (speaker, _sound) = gated();
    let journal = Arc::new(HeldJournal {
        inner: JournalHandle::spawn(journal),
        gate: Arc::clone(&gate),
    });
    let (actor, handle) = TableActor::start(TableParts::new(
        setup("90+30", FlagRule::Claim),
        voice(),
        speaker,
        journal,
        time.clone(),
    ))
    .await
    .unwrap();
    tokio::spawn(actor.run());
    handle
        .act(PersonRole::Assistant, Action::StartClock)
        .await
        .unwrap();
    time.advance(Duration::from_secs(5));

    // Hold the journal, then send White's move: the actor waits on it.
    let held = gate.acquire_many(1_000).await.unwrap();
    let request = {
        let h = handle.clone();
        tokio::spawn(async move { h.act(PersonRole::Assistant, mv("e4")).await })
    };
    tokio::task::yield_now().await;
    // More readers than the mailbox holds (64), each answered while the
    // move waits; a read that queued behind it would never be answered
    // (the guard below only stops a hung test).
    let readers: Vec<_> = (0..500)
        .map(|_| {
            let h = handle.clone();
            tokio::spawn(async move { (h.view().await.unwrap(), h.pgn().await.unwrap()) })
        })
        .collect();
    for reader in readers {
        let (v, pgn) = tokio::time::timeout(Duration::from_secs(30), reader)
            .await
            .expect("a reader answered while the table is busy")
            .unwrap();
        assert!(v.moves.is_empty(), "{:?}", v.moves);
        // White's clock runs on in the view as it stood.
        assert_eq!(v.clock.white_ms, (90 * 60 - 5) * 1000);
        assert!(!pgn.contains("e4"), "{pgn}");
    }
    assert!(!request.is_finished());

    drop(held);
    request.await.unwrap().unwrap();
    let v = handle.view().await.unwrap();
    assert_eq!(v.moves, ["e4"]);
    assert!(handle.pgn().await.unwrap().contains("1. e4"));
}
