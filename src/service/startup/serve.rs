//! `tactus serve`: start-up from configuration, every table's actor, the
//! web server, and a clean shutdown on Ctrl-C or SIGTERM.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use shakmaty::{Board, Chess, Position};

use crate::service::competition::{Competition, TableBase};
use crate::service::security::access::{Seats, Tokens};
use crate::service::security::data_lock::DataLock;
use crate::service::startup::config::{AudioOut, BoardSpec, Config, ConfigError, TableConfig};
use crate::service::startup::serve_error::{ServeError, VoiceError};
use crate::service::store::journal::{Durability, Journal, JournalHandle};
use crate::service::web::AppState;
use crate::table::actor::TableActor;
use crate::table::boards::BoardLink;
use crate::table::handle::TableHandle;
use crate::table::id::TableId;
use crate::table::parts::TableParts;
use crate::table::round::Round;
use crate::table::setup::Setup;
use crate::table::speaker::Speaker;
use crate::table::timebase::Timebase;
use tactus_board::event::Protocol;
use tactus_board::infer::{Settings, default_settle};
use tactus_board::serial::{Driver, DriverConfig};
use tactus_board::sim::Simulator;
use tactus_rules::language::Language;
use tactus_rules::pgn::fen_of;
use tactus_rules::variant::Start;
use tactus_speech::device::{AudioState, AudioStatus, AudioView};
use tactus_speech::sink::{Sink, TextSink, WavSink};
use tactus_speech::sink_alsa::{DeviceSink, Persistence};
use tactus_speech::voice_pack::{LoadOptions, VoicePack, find_pack};

// Each table started: its setup, boards, voice, speaker, display and actor.
mod tables;
pub use tables::load_voice;
use tables::{Started, Voices, start_tables};

/// A running server (for tests and benchmarks that start one in-process).
pub struct Running {
    pub addr: SocketAddr,
    /// The certificate's SHA-256 fingerprint when serving HTTPS.
    pub tls_fingerprint: Option<String>,
    pub tables: Arc<BTreeMap<TableId, TableHandle>>,
    pub tokens: Arc<Tokens>,
    /// Each table's current game as it started: the second blind player's
    /// token is that game's, and they play the side not blind.
    pub current: BTreeMap<TableId, CurrentGame>,
    /// The listed players: each has a link of their own.
    pub players: Vec<crate::service::startup::config::PlayerConfig>,
    /// A team event's teams: each captain has a link of their own.
    pub teams: Vec<crate::service::startup::config::TeamConfig>,
}

/// A table's current game, as the start-up text names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CurrentGame {
    /// The game's number at its table (1, 2, …).
    pub game: u32,
    /// Its round, as set up (may be none).
    pub round: crate::table::round::Round,
    /// The (first) blind player's side.
    pub blind: shakmaty::Color,
}

/// Starts everything `config` describes and serves until `shutdown`
/// resolves; `ready` hears the running server once it listens.
pub async fn serve(
    config: Config,
    ready: impl FnOnce(&Running),
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    let Opened {
        tls,
        listener,
        lock: _lock,
        journal,
        tokens,
        kept,
    } = Opened::open(&config)?;
    let journal = JournalHandle::spawn(journal);
    // The rates the arbiter set, read once: the tables start at them and
    // the arbiter's page changes them.
    let rates = Arc::new(crate::service::store::table_rates::table_rates(
        kept.rates,
        Some(journal.clone()),
    ));
    let mut voices = Voices::new(&config, Arc::clone(&rates))?;
    let started = start_tables(&config, kept.tables, &journal, &mut voices).await?;
    let Started {
        tables,
        bases,
        actors,
        speakers,
        voices: table_voices,
    } = started;
    let tables = Arc::new(tables);

    let addr = listener.local_addr().map_err(ServeError::Address)?;
    warn_if_plain_http(addr, tls.is_some());
    let running = Running {
        players: config.players.clone(),
        teams: config.teams.clone(),
        addr,
        tls_fingerprint: tls.as_ref().map(|t| t.fingerprint.clone()),
        tables: tables.clone(),
        tokens: tokens.clone(),
        current: current_games(&tables).await,
    };
    ready(&running);
    // The player's browser plays the pack its table speaks with.
    let venue_voice = voices.venue();
    // The table cards print links to this machine's LAN address, in the
    // venue's language (its voice's, if the pages have it).
    let cards = crate::service::web::cards::CardsState {
        tokens: tokens.clone(),
        tables: tables.clone(),
        base: crate::service::startup::addresses::link_base(addr, tls.is_some()),
        lang: crate::service::i18n::pages_for(venue_voice.language()),
        players: config.players.clone(),
        teams: config.teams.clone(),
    };
    let state = app_state(&config, bases, kept.trf, tables, tokens, rates, &journal).await?;
    let app = crate::service::web::app(state, (venue_voice, table_voices), cards);
    let acceptor = tls.map(|t| t.acceptor);
    let served = crate::service::web::listener::serve(
        listener,
        app,
        crate::service::web::listener::Limits::of(&config.server),
        acceptor,
        shutdown,
    )
    .await
    .map_err(ServeError::Web);
    finish_speaking(actors, speakers).await;
    served
}

/// What start-up opens before any table starts, in the order a second
/// server or a bad file is stopped at, having written nothing.
struct Opened {
    tls: Option<crate::service::security::tls::Tls>,
    listener: tokio::net::TcpListener,
    /// Held until the server stops: one server per data folder.
    lock: DataLock,
    journal: Journal,
    tokens: Arc<Tokens>,
    kept: Kept,
}

impl Opened {
    /// The certificate first (a bad file is named before anything starts),
    /// then the port, then the folder's lock, then the journal: a second
    /// server (same port or same folder) stops here having written nothing.
    fn open(config: &Config) -> Result<Opened, ServeError> {
        let tls = crate::service::security::tls::from_config(&config.server)?;
        let listener =
            crate::service::web::listener::bind(config.server.listen).map_err(|error| {
                ServeError::Listen {
                    addr: config.server.listen,
                    error,
                }
            })?;
        if let Some((before, after)) = crate::service::web::listener::raise_descriptor_limit()
            && before != after
        {
            tracing::info!("open descriptors: soft limit raised from {before} to {after}");
        }
        let data = &config.server.data;
        let lock = DataLock::acquire(data)?;
        let journal = Journal::open(&data.join("journal.sqlite"), Durability::Full)?;
        let mut tokens = load_tokens(config)?.in_journal(journal.birth()?);
        // A team event's captains: one link each for the whole event.
        if !config.teams.is_empty() {
            let numbers: Vec<u16> = config.teams.iter().map(|t| t.number).collect();
            tokens.add_captains(&data.join("tokens.toml"), &numbers)?;
        }
        let kept = Kept::read(&journal, config)?;
        Ok(Opened {
            tls,
            listener,
            lock,
            journal,
            tokens: Arc::new(tokens),
            kept,
        })
    }
}

/// A warning when the tokens would cross the hall's network in clear.
fn warn_if_plain_http(addr: SocketAddr, tls: bool) {
    if !addr.ip().is_loopback() && !tls {
        tracing::warn!(
            "serving plain HTTP on {addr}: every token crosses the hall's network in clear; \
             the venue arbiter's token is accepted only on this computer. Serve HTTPS: \
             tactus tls self-signed --out DIR, then tls_cert and tls_key (docs/https.md)"
        );
    }
}

/// The web pages' shared state: the competition over the started
/// tables (with the TRF the journal kept), the players' settings moved
/// where the pairing program renumbered them, and each listed player's
/// own display.
async fn app_state(
    config: &Config,
    bases: BTreeMap<TableId, TableBase>,
    trf: Option<Vec<u8>>,
    tables: Arc<BTreeMap<TableId, TableHandle>>,
    tokens: Arc<Tokens>,
    rates: Arc<crate::service::store::table_rates::TableRates>,
    journal: &JournalHandle,
) -> Result<AppState, ServeError> {
    let ids: Vec<TableId> = config.tables.iter().map(|t| t.id.clone()).collect();
    let competition = Arc::new(
        Competition::new(
            config.players.clone(),
            bases,
            ids.clone(),
            tables.clone(),
            journal.clone(),
            &config.server.data.join("journal.sqlite"),
            trf,
        )?
        .with_teams(config.teams.clone(), config.team_match.map(|m| m.boards)),
    );
    // The players' settings follow them where the pairing program
    // renumbered them (their codes do: `access::players::bind_players`).
    competition
        .settings()
        .follow(tokens.code_changes())
        .await
        .map_err(ServeError::from)?;
    // Each listed player's own display, which follows them.
    let player_displays = Arc::new(
        crate::service::competition::player_display::attach_all(
            &config.players,
            &ids,
            &competition,
            &tables,
        )
        .map_err(ServeError::Braille)?,
    );
    Ok(AppState {
        rates,
        tables,
        tokens,
        competition,
        player_displays,
        streams: Default::default(),
        braille: Default::default(),
    })
}

/// Every table's and listed player's tokens, from `tokens.toml` in the
/// data folder (made and kept there on first start).
fn load_tokens(config: &Config) -> Result<Tokens, ServeError> {
    let seats: Vec<Seats> = config
        .tables
        .iter()
        .map(|t| Seats {
            id: t.id.clone(),
            second_blind: t.both_blind(),
        })
        .collect();
    let people: Vec<crate::service::security::access::Person> = config
        .players
        .iter()
        .map(|p| crate::service::security::access::Person {
            start_rank: p.start_rank,
            name: p.name.clone(),
            fide_id: p.fide_id,
        })
        .collect();
    let tokens = Tokens::load_or_create(&config.server.data.join("tokens.toml"), &seats, &people)?;
    for change in tokens.code_changes() {
        tracing::warn!("players' codes: {change}");
    }
    Ok(tokens)
}

/// What the journal keeps of one table, for its start.
#[derive(Default)]
struct TableKept {
    /// The records of its current game (none for a new table).
    records: Vec<crate::table::journal::Record>,
    /// The last instant it was seen alive, if ever.
    last_alive_ms: Option<i64>,
    /// The rounds of its earlier games.
    earlier_rounds: Vec<Round>,
}

/// What the journal keeps for start-up, read before the writer thread
/// takes the file.
struct Kept {
    /// Each table's current game, its earlier games' rounds and when it
    /// was last alive.
    tables: BTreeMap<TableId, TableKept>,
    /// The imported TRF file, if any.
    trf: Option<Vec<u8>>,
    /// The voice rates the arbiter set per table.
    rates: Option<Vec<u8>>,
}

impl Kept {
    /// Only each table's current game is replayed, so start-up does not
    /// grow with the event's history; of the earlier games, only their
    /// rounds (a configuration never starts one of them again).
    fn read(journal: &Journal, config: &Config) -> Result<Kept, ServeError> {
        let mut tables = BTreeMap::new();
        for t in &config.tables {
            let (records, earlier_rounds) = match journal.current_game(&t.id)? {
                None => (Vec::new(), Vec::new()),
                Some(game) => {
                    let rounds = journal
                        .game_starts(&t.id)?
                        .iter()
                        .filter(|r| r.game < game)
                        .filter_map(crate::table::replay::setup_in)
                        .map(|s| s.round)
                        .collect();
                    (journal.game_events(&t.id, game)?, rounds)
                }
            };
            let kept = TableKept {
                records,
                last_alive_ms: journal.last_alive(&t.id)?,
                earlier_rounds,
            };
            tables.insert(t.id.clone(), kept);
        }
        Ok(Kept {
            tables,
            trf: journal.document(crate::service::competition::TRF_DOCUMENT)?,
            rates: journal.document(crate::service::store::table_rates::RATES_DOCUMENT)?,
        })
    }
}

/// Each table's current game as it started (a table that stopped already
/// has no game to name).
async fn current_games(tables: &BTreeMap<TableId, TableHandle>) -> BTreeMap<TableId, CurrentGame> {
    let mut current = BTreeMap::new();
    for (id, handle) in tables.iter() {
        if let Ok(v) = handle.view().await {
            let game = CurrentGame {
                game: v.game,
                round: v.round,
                blind: v.blind,
            };
            current.insert(id.clone(), game);
        }
    }
    current
}

/// The longest a shutdown waits for the speakers: what they were given is
/// a few announcements of a few seconds each.
const SPEAKERS_DRAIN: Duration = Duration::from_secs(30);

/// Stops every table's actor (dropping its speaker, which closes the
/// speaker's queue) and waits until each speaker has said everything it
/// was given and its device has played the last sample: the process then
/// ends without cutting a word off.
async fn finish_speaking(
    actors: Vec<tokio::task::JoinHandle<()>>,
    speakers: Vec<crate::table::speaker::Finished>,
) {
    for actor in &actors {
        actor.abort();
    }
    for actor in actors {
        let _ = actor.await;
    }
    let waited = tokio::task::spawn_blocking(move || {
        let deadline = std::time::Instant::now() + SPEAKERS_DRAIN;
        speakers
            .iter()
            .all(|f| f.wait(deadline.saturating_duration_since(std::time::Instant::now())))
    })
    .await;
    if !matches!(waited, Ok(true)) {
        tracing::warn!(
            "not every table finished speaking within {} s",
            SPEAKERS_DRAIN.as_secs()
        );
    }
}

/// What a braille display says at a new game: the player page's words in
/// the table's language (its voice's, if the pages have it): "A new game.
/// Round 2. You play Black against Carla (White)." Without a round or an
/// opponent's name, what there is.
pub fn new_game_line(v: &crate::table::view::TableView) -> String {
    let lang = crate::service::i18n::pages_for(Language::from_tag(&v.voice_lang));
    let opponent = match v.blind {
        shakmaty::Color::White => &v.black,
        shakmaty::Color::Black => &v.white,
    };
    new_game_words(lang, &v.round, v.blind, opponent)
}

/// The words of [`new_game_line`] in `lang`, for the blind player of
/// `blind` against `opponent` in round `round`.
fn new_game_words(lang: Language, round: &str, blind: shakmaty::Color, opponent: &str) -> String {
    use crate::service::i18n::message;
    let side = |c: shakmaty::Color| message(lang, tactus_rules::side::name(c), &[]);
    let (round, opponent) = (round.trim(), opponent.trim());
    let mut out = message(lang, "js-new-game", &[]);
    if !round.is_empty() {
        out.push(' ');
        out.push_str(&message(lang, "js-round-is", &[("round", round)]));
    }
    out.push(' ');
    out.push_str(&if opponent.is_empty() {
        message(lang, "js-you-play", &[("side", &side(blind))])
    } else {
        message(
            lang,
            "js-you-play-against",
            &[
                ("side", &side(blind)),
                ("name", opponent),
                ("other", &side(!blind)),
            ],
        )
    });
    out
}

/// Resolves when the process is asked to stop (Ctrl-C or SIGTERM).
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
}

/// Reads the configuration file if given, else the embedded defaults.
pub fn load_config(path: Option<&Path>) -> Result<Config, ConfigError> {
    match path {
        Some(p) => Config::load(p),
        None => Ok(Config::default()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_games_braille_line_has_the_round_the_colour_and_the_opponent() {
        use shakmaty::Color;
        assert_eq!(
            new_game_words(Language::En, "2", Color::Black, "Carla"),
            "A new game. Round 2. You play Black against Carla (White)."
        );
        assert_eq!(
            new_game_words(Language::De, " 3 ", Color::White, " Ana "),
            "Eine neue Partie. Runde 3. Sie spielen Weiß gegen Ana (Schwarz)."
        );
        // No round, no name: what there is.
        assert_eq!(
            new_game_words(Language::Es, "", Color::White, " "),
            "Una partida nueva. Juega con Blancas."
        );
    }

    /// A port already taken: the error says which step failed and keeps
    /// the system's reason as its cause, which the CLI prints after it.
    #[tokio::test]
    async fn a_taken_port_is_named_with_its_cause() {
        let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = taken.local_addr().unwrap();
        let dir = tempfile::tempdir().unwrap();
        let mut config = Config::default();
        config.server.listen = addr;
        config.server.data = dir.path().to_owned();
        let e = serve(config, |_| {}, std::future::pending())
            .await
            .unwrap_err();
        assert!(
            matches!(&e, ServeError::Listen { addr: a, .. } if *a == addr),
            "{e:?}"
        );
        let chain = std::error::Error::source(&e).map(|c| c.to_string());
        assert_eq!(
            format!("{e}: {}", chain.unwrap()),
            format!("cannot listen on {addr}: {}", taken_reason(addr))
        );
        // Nothing was written: the data folder is still empty.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    /// What the system says when `addr` is bound a second time.
    fn taken_reason(addr: SocketAddr) -> String {
        crate::service::web::listener::bind(addr)
            .unwrap_err()
            .to_string()
    }
}
