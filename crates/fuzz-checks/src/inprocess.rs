//! The web layer in-process, shared by the tests that drive it: axum's
//! router through tower's `oneshot`, over real table actors (a real SQLite
//! journal in a temporary folder, tokens made as `tactus serve` makes
//! them, the German voice pack, silent speakers, the voice routes for the
//! player's browser), with the table's time given by the test.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, to_bytes};
use axum::http::{Request, StatusCode};
use shakmaty::Color;
use tactus::service::competition::{Competition, TableBase};
use tactus::service::security::access::{Seats, Tokens};
use tactus::service::startup::config::PlayerConfig;
use tactus::service::store::journal::{Durability, Journal, JournalHandle};
use tactus::service::web::{AppState, guarded, router};
use tactus::table::actions::PersonRole;
use tactus::table::actor::TableActor;
use tactus::table::boards::BoardLink;
use tactus::table::handle::TableHandle;
use tactus::table::id::TableId;
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
use tower::ServiceExt;

/// The tables to serve. Every table has Black as its blind player, 90+30,
/// claimed flags.
pub struct Tables<'a> {
    pub ids: &'a [&'a str],
    /// The start position (standard if `None`).
    pub fen: Option<&'a str>,
    /// White is a second blind player (with an `opponent` token).
    pub second_blind: bool,
    /// Simulated peg boards for the first table: Black's, then White's.
    pub boards: Option<(&'a Simulator, Option<&'a Simulator>)>,
    /// The `event` of every table.
    pub event: &'a str,
    pub time: Timebase,
    /// Players listed by the venue (start ranks 1..=n, none seated): each
    /// has a token and a `/p/` code.
    pub players: u16,
}

impl<'a> Tables<'a> {
    /// `ids`, standard start, one blind player, no boards, manual time at
    /// 1000 s.
    pub fn new(ids: &'a [&'a str]) -> Tables<'a> {
        Tables {
            ids,
            fen: None,
            second_blind: false,
            boards: None,
            event: "in-process",
            time: Timebase::manual(Duration::from_secs(1_000)),
            players: 0,
        }
    }
}

pub struct App {
    pub router: axum::Router,
    /// The whole web edge as `tactus serve` answers (`web::app`): the
    /// router above with the hall check, the cards and axum's own errors
    /// made `{"error": …}`.
    pub edge: axum::Router,
    pub tokens: Arc<Tokens>,
    pub time: Timebase,
    _dir: tempfile::TempDir,
}

/// The German pack, loaded once: a pack takes most of a table's start.
fn voice() -> Arc<VoicePack> {
    static VOICE: std::sync::OnceLock<Arc<VoicePack>> = std::sync::OnceLock::new();
    VOICE
        .get_or_init(|| {
            // This crate is crates/fuzz-checks, wherever it is built
            // from (fuzz/ too): the voices are the repository's.
            let here = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
            let pack = here
                .ancestors()
                .nth(2)
                .map(|root| root.join("voices/de-appendix-d"))
                .filter(|d| d.is_dir())
                .expect("the German voice pack");
            Arc::new(VoicePack::load(pack, &LoadOptions::default()).unwrap())
        })
        .clone()
}

/// A peg board's link to the simulator `sim`, settling at once.
fn link(sim: &Simulator) -> BoardLink {
    let mut config = DriverConfig::new(sim.path(), Protocol::Peg);
    config.retry_min = Duration::from_millis(20);
    BoardLink {
        driver: Driver::spawn(config).unwrap(),
        protocol: Protocol::Peg,
        settings: Settings {
            settle: Duration::ZERO,
            auto_correct: false,
        },
        mirror: None,
        pin: None,
        settle_chosen: true,
    }
}

/// The router over `tables`, each table's actor running.
pub async fn app(tables: Tables<'_>) -> App {
    let dir = tempfile::tempdir().unwrap();
    let journal = JournalHandle::spawn(
        Journal::open(&dir.path().join("journal.sqlite"), Durability::Full).unwrap(),
    );
    let (players, tokens) = tables.roster(dir.path());
    let (bases, handles) = tables.start_all(&journal).await;
    let state = AppState {
        streams: Default::default(),
        braille: Default::default(),
        player_displays: Default::default(),
        rates: std::sync::Arc::new(tactus::service::store::table_rates::table_rates(None, None)),
        competition: Arc::new(
            Competition::new(
                players.clone(),
                bases,
                tables.ids.iter().map(|id| id.parse().unwrap()).collect(),
                handles.clone(),
                journal.clone(),
                &dir.path().join("journal.sqlite"),
                None,
            )
            .unwrap(),
        ),
        tables: handles,
        tokens: tokens.clone(),
    };
    let (router, edge) = tables.routes(state, players);
    App {
        router,
        edge,
        tokens,
        time: tables.time,
        _dir: dir,
    }
}

impl Tables<'_> {
    /// The venue's players and every token, in `dir` as `tactus serve`
    /// keeps them.
    fn roster(&self, dir: &std::path::Path) -> (Vec<PlayerConfig>, Arc<Tokens>) {
        let seats: Vec<Seats> = self
            .ids
            .iter()
            .map(|id| Seats {
                id: id.parse().unwrap(),
                second_blind: self.second_blind,
            })
            .collect();
        let ranks: Vec<u16> = (1..=self.players).collect();
        let players: Vec<PlayerConfig> = ranks
            .iter()
            .map(|r| toml::from_str(&format!("name = \"Player {r}\"\nstart_rank = {r}")).unwrap())
            .collect();
        let people: Vec<tactus::service::security::access::Person> = players
            .iter()
            .map(|p| tactus::service::security::access::Person {
                start_rank: p.start_rank,
                name: p.name.clone(),
                fide_id: p.fide_id,
            })
            .collect();
        let tokens =
            Arc::new(Tokens::load_or_create(&dir.join("tokens.toml"), &seats, &people).unwrap());
        (players, tokens)
    }

    /// Every table started: their bases for the competition and their
    /// handles, each actor running.
    async fn start_all(
        &self,
        journal: &JournalHandle,
    ) -> (
        BTreeMap<TableId, TableBase>,
        Arc<BTreeMap<TableId, TableHandle>>,
    ) {
        let mut handles = BTreeMap::new();
        let mut bases = BTreeMap::new();
        for (i, id) in self.ids.iter().enumerate() {
            let (board, opponent_board) = match self.boards.filter(|_| i == 0) {
                Some((black, white)) => (Some(link(black)), white.map(link)),
                None => (None, None),
            };
            let setup = self.setup(id);
            bases.insert(setup.id.clone(), self.base(&setup));
            let (actor, handle) = TableActor::start(TableParts {
                board,
                opponent_board,
                ..TableParts::new(
                    setup,
                    voice(),
                    Speaker::silent(),
                    Arc::new(journal.clone()),
                    self.time.clone(),
                )
            })
            .await
            .unwrap();
            tokio::spawn(actor.run());
            handles.insert(id.parse().unwrap(), handle);
        }
        (bases, Arc::new(handles))
    }

    /// Table `id`'s setup: Black blind, 90+30, claimed flags.
    fn setup(&self, id: &str) -> Setup {
        Setup {
            id: id.parse().unwrap(),
            blind: Color::Black,
            control: "90+30".parse().unwrap(),
            white: "White player".into(),
            black: "Black player".into(),
            event: self.event.into(),
            round: "1".parse().unwrap(),
            fen: self.fen.map(|f| f.parse().unwrap()),
            flag: FlagRule::Claim,
            ranks: Default::default(),
            held_for_start: false,
        }
    }

    /// What the competition knows of a table set up as `setup`.
    fn base(&self, setup: &Setup) -> TableBase {
        TableBase {
            setup: setup.clone(),
            variant: if self.fen.is_some() {
                tactus_rules::variant::Variant::Chess960
            } else {
                tactus_rules::variant::Variant::Standard
            },
            two_tactile: self.second_blind,
        }
    }

    /// The guarded router and the whole web edge over `state`.
    fn routes(&self, state: AppState, players: Vec<PlayerConfig>) -> (axum::Router, axum::Router) {
        // As `tactus serve` has it: the voice packs for the player's browser
        // beside the pages and the API.
        let voices: BTreeMap<TableId, Arc<VoicePack>> = self
            .ids
            .iter()
            .map(|id| (id.parse().unwrap(), voice()))
            .collect();
        // As `tactus serve` has it: every route behind the guards.
        let app = router(state.clone())
            .merge(tactus::service::web::clips::routes(voice(), voices.clone()));
        let cards = tactus::service::web::cards::CardsState {
            tokens: state.tokens.clone(),
            tables: state.tables.clone(),
            base: "http://127.0.0.1:8080".into(),
            lang: tactus::service::i18n::pages_for(voice().language()),
            players,
            teams: Vec::new(),
        };
        let edge = tactus::service::web::app(state.clone(), (voice(), voices), cards);
        (guarded(app, state), edge)
    }
}

impl App {
    /// `role`'s token at `table`.
    pub fn token(&self, table: &str, role: PersonRole) -> String {
        let table: tactus::table::id::TableId = table.parse().expect("a table id");
        let table = &table;
        let t = self.tokens.table(table).unwrap();
        match role {
            PersonRole::Player => t.player.expose().to_owned(),
            // The second blind player's token of the table's first game.
            PersonRole::Opponent => self.tokens.opponent_token(table, 1).unwrap(),
            PersonRole::Assistant => t.assistant.expose().to_owned(),
            PersonRole::Arbiter => t.arbiter.expose().to_owned(),
        }
    }

    /// One request; the answer's status and JSON (`null` if not JSON).
    pub async fn call(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&str>,
    ) -> (StatusCode, serde_json::Value) {
        let mut req = Request::builder().method(method).uri(path);
        if let Some(t) = token {
            req = req.header("Authorization", format!("Bearer {t}"));
        }
        if body.is_some() {
            req = req.header("Content-Type", "application/json");
        }
        let req = req
            .body(body.map_or_else(Body::empty, |b| Body::from(b.to_string())))
            .unwrap();
        let res = self.router.clone().oneshot(req).await.unwrap();
        let status = res.status();
        let bytes = to_bytes(res.into_body(), 4 << 20).await.unwrap();
        (
            status,
            serde_json::from_slice(&bytes).unwrap_or(serde_json::Value::Null),
        )
    }

    /// A write to table 1 as `role`, with `body` as JSON.
    pub async fn post(
        &self,
        path: &str,
        role: PersonRole,
        body: &str,
    ) -> (StatusCode, serde_json::Value) {
        let token = self.token("1", role);
        self.call("POST", path, Some(&token), Some(body)).await
    }

    /// Waits (20 s at most) until table 1's state passes `ok`: what a
    /// board driver does arrives in its own time.
    pub async fn wait_for(&self, what: &str, ok: impl Fn(&serde_json::Value) -> bool) {
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        loop {
            let t = self.table("1").await;
            if ok(&t) {
                return;
            }
            assert!(std::time::Instant::now() < deadline, "{what}: {t}");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// `GET /api/tables/{id}`.
    pub async fn table(&self, id: &str) -> serde_json::Value {
        self.call("GET", &format!("/api/tables/{id}"), None, None)
            .await
            .1
    }
}
