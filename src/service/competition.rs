//! The competition: every round at every tactus table. A table plays one
//! game per round (a round may hold a second, a replayed or tie-break
//! game); each game is journaled under its own number, and a finished game
//! is never changed again by a new round, a restart or an edited venue
//! file.
//!
//! The venue arbiter sets up a round from the pairings (JSON, or the
//! pairing program's TRF-16 file), starts its clocks, and reads back the
//! results (every round's games, each round's PGN for broadcasts, the TRF
//! with the results written in). Finished games of earlier rounds are read
//! from the journal on demand and kept once read: start-up replays only
//! each table's current game, however long the event.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;
use std::sync::{Arc, Mutex};

use shakmaty::Color;

use super::api_types::{
    BlindSeat, GameListed, GameState, RoundGame, RoundSetUp, RoundView, RoundsView, Unpaired,
};
use super::config::{PlayerConfig, TableConfig};
use super::journal::{Journal, JournalError, JournalHandle};
use crate::table::action::{Action, PersonRole};
use crate::table::actor::{Setup, TableError, TableHandle};
use crate::table::id::TableId;
use crate::table::replay::{begun, replay, setup_in};
use crate::table::view::TableView;
use tactus_rules::announce::Style;
use tactus_rules::event::GameEvent;
use tactus_rules::trf::{ResultChar, RoundEntry, Trf};
use tactus_rules::variant::{Variant, chess960_start};

/// The name the imported TRF file is kept under in the journal.
pub const TRF_DOCUMENT: &str = "trf";

/// The most games one round may set up (the venue's tables bound it too).
pub const MAX_ROUND_GAMES: usize = 1000;

/// Why a round could not be set up or read; nothing was changed.
#[derive(Debug, thiserror::Error)]
pub enum RoundError {
    /// The request itself is wrong (HTTP 422), naming the key or line.
    #[error("{0}")]
    Invalid(String),
    /// A table named that this venue does not have (HTTP 404).
    #[error("games[{index}].table: no table `{table}` at this venue")]
    UnknownTable { index: usize, table: String },
    /// A game under way stands in the way (HTTP 409).
    #[error(transparent)]
    UnderWay(TableError),
    /// No round of that name (HTTP 404).
    #[error("no round `{0}`")]
    NoRound(String),
    /// No TRF file has been imported (HTTP 404).
    #[error("no TRF file has been imported: POST /api/rounds with one first")]
    NoTrf,
    /// A table refused or stopped (its own status).
    #[error(transparent)]
    Table(TableError),
    /// The journal could not be read or written (HTTP 503).
    #[error("journal: {0}")]
    Journal(#[from] JournalError),
}

impl From<TableError> for RoundError {
    fn from(e: TableError) -> RoundError {
        match e {
            TableError::UnderWay { .. } => RoundError::UnderWay(e),
            e => RoundError::Table(e),
        }
    }
}

/// What a table starts each new game from: its configured setup (the
/// event, the time control, the flag rule), and what it can seat.
#[derive(Debug, Clone)]
pub struct TableBase {
    pub setup: Setup,
    pub variant: Variant,
    /// Two tactile boards: both players may be blind.
    pub two_tactile: bool,
}

impl TableBase {
    /// The base of a configured table whose `setup` was made from it.
    pub fn of(t: &TableConfig, setup: Setup) -> TableBase {
        TableBase {
            setup,
            variant: t.variant,
            two_tactile: t.both_blind(),
        }
    }
}

/// A finished (or void) game of an earlier round, read once.
#[derive(Debug, Clone)]
struct Past {
    setup: Setup,
    plies: usize,
    begun: bool,
    result: Option<String>,
    pgn: String,
}

/// The competition's state, shared by the web handlers.
pub struct Competition {
    players: Vec<PlayerConfig>,
    bases: BTreeMap<TableId, TableBase>,
    tables: Arc<BTreeMap<TableId, TableHandle>>,
    journal: JournalHandle,
    /// A read-only connection of its own: earlier games are read while the
    /// writer thread writes.
    reader: Mutex<Journal>,
    trf: Mutex<Option<Vec<u8>>>,
    past: Mutex<HashMap<(TableId, u32), Arc<Past>>>,
    /// One round set up at a time: two arbiters' requests never interleave.
    busy: tokio::sync::Mutex<()>,
}

/// One game of a round, checked and ready to set up.
struct Planned {
    index: usize,
    setup: Setup,
}

impl Competition {
    /// The competition over `tables`, reading earlier games from the
    /// journal at `path` (already opened for writing by `journal`).
    pub fn new(
        players: Vec<PlayerConfig>,
        bases: BTreeMap<TableId, TableBase>,
        tables: Arc<BTreeMap<TableId, TableHandle>>,
        journal: JournalHandle,
        path: &Path,
        trf: Option<Vec<u8>>,
    ) -> Result<Competition, JournalError> {
        Ok(Competition {
            players,
            bases,
            tables,
            journal,
            reader: Mutex::new(Journal::open_reader(path)?),
            trf: Mutex::new(trf),
            past: Mutex::new(HashMap::new()),
            busy: tokio::sync::Mutex::new(()),
        })
    }

    /// The listed players.
    pub fn players(&self) -> &[PlayerConfig] {
        &self.players
    }

    /// Sets up round `round`'s games (each table's next game). Every game
    /// is checked first, every table asked whether its game is under way,
    /// and only then is any table changed.
    /// With `trf`, the file the pairings came from (and the instant), kept
    /// once the round is checked.
    pub async fn set_up(
        &self,
        round: &str,
        games: &[RoundGame],
        unpaired: Vec<Unpaired>,
        trf: Option<(Vec<u8>, i64)>,
    ) -> Result<RoundSetUp, RoundError> {
        let _one_at_a_time = self.busy.lock().await;
        let planned = self.plan(round, games)?;
        for p in &planned {
            let view = self.tables[&p.setup.id].view().await?;
            if view.begun && view.result.is_none() {
                return Err(RoundError::UnderWay(TableError::UnderWay {
                    table: p.setup.id.clone(),
                    round: view.round,
                }));
            }
        }
        if let Some((text, at_ms)) = trf {
            self.keep_trf(text, at_ms).await?;
        }
        let mut listed = Vec::new();
        for p in planned {
            let handle = &self.tables[&p.setup.id];
            let game = handle.new_game(p.setup.clone()).await?;
            listed.push(listed_of(&p.setup, game, GameState::NotBegun, None, 0));
        }
        Ok(RoundSetUp {
            round: round.to_owned(),
            games: listed,
            unpaired,
        })
    }

    /// Checks a round's games and makes each table's setup.
    fn plan(&self, round: &str, games: &[RoundGame]) -> Result<Vec<Planned>, RoundError> {
        let invalid = |s: String| Err(RoundError::Invalid(s));
        if round.trim().is_empty() || round.chars().count() > 32 || round.trim() != round {
            return invalid(format!(
                "round: `{round}` is not a round: 1 to 32 characters, no spaces around"
            ));
        }
        if games.is_empty() {
            return invalid("games: no game to set up".into());
        }
        if games.len() > MAX_ROUND_GAMES {
            return invalid(format!(
                "games: {} games, at most {MAX_ROUND_GAMES}",
                games.len()
            ));
        }
        let mut tables = BTreeSet::new();
        let mut names: BTreeMap<&str, usize> = BTreeMap::new();
        let mut planned = Vec::new();
        for (index, g) in games.iter().enumerate() {
            let id: TableId = g.table.parse().map_err(|_| RoundError::UnknownTable {
                index,
                table: g.table.chars().take(40).collect(),
            })?;
            let Some(base) = self.bases.get(&id) else {
                return Err(RoundError::UnknownTable {
                    index,
                    table: g.table.clone(),
                });
            };
            if !tables.insert(id.clone()) {
                return invalid(format!(
                    "games[{index}].table: table `{id}` has two games in this round"
                ));
            }
            for (key, name) in [("white", &g.white), ("black", &g.black)] {
                if name.chars().count() > 100 {
                    return invalid(format!("games[{index}].{key}: at most 100 characters"));
                }
                let name = name.trim();
                if name.is_empty() {
                    continue;
                }
                if let Some(other) = names.insert(name, index) {
                    return invalid(format!(
                        "games[{index}].{key}: `{name}` is paired twice (also in games[{other}])"
                    ));
                }
            }
            let seat = match g.blind {
                Some(seat) => seat,
                None => self.listed_seat(&id, g).ok_or_else(|| {
                    RoundError::Invalid(format!(
                        "games[{index}].blind: neither `{}` nor `{}` is a listed player at \
                         table `{id}`: say `white`, `black` or `both`",
                        g.white, g.black
                    ))
                })?,
            };
            let mut setup = base.setup.clone();
            setup.blind = match seat {
                BlindSeat::White => Color::White,
                BlindSeat::Black => Color::Black,
                BlindSeat::Both if base.two_tactile => base.setup.blind,
                BlindSeat::Both => {
                    return invalid(format!(
                        "games[{index}].blind: both players blind needs two tactile boards, \
                         and table `{id}` has one"
                    ));
                }
            };
            setup.white = g.white.trim().to_owned();
            setup.black = g.black.trim().to_owned();
            setup.round = round.to_owned();
            if let Some(control) = &g.control {
                setup.control = control
                    .parse()
                    .map_err(|e| RoundError::Invalid(format!("games[{index}].control: {e}")))?;
            }
            if let Some(n) = g.start_position {
                if base.variant != Variant::Chess960 {
                    return invalid(format!(
                        "games[{index}].start_position: table `{id}` does not play Chess960"
                    ));
                }
                let start = chess960_start(n).map_err(|e| {
                    RoundError::Invalid(format!("games[{index}].start_position: {e}"))
                })?;
                setup.fen = Some(tactus_rules::pgn::fen_of(&start));
            }
            planned.push(Planned { index, setup });
        }
        planned.sort_by_key(|p| p.index);
        Ok(planned)
    }

    /// The blind seat a listed player at table `id` has in `g`.
    fn listed_seat(&self, id: &TableId, g: &RoundGame) -> Option<BlindSeat> {
        let listed = |name: &str| {
            self.players
                .iter()
                .any(|p| p.name.trim() == name.trim() && &p.table == id)
        };
        match (listed(&g.white), listed(&g.black)) {
            (true, true) => Some(BlindSeat::Both),
            (true, false) => Some(BlindSeat::White),
            (false, true) => Some(BlindSeat::Black),
            (false, false) => None,
        }
    }

    /// Starts the clock of every game of round `round` that has not begun;
    /// the tables whose clocks were started.
    pub async fn start(&self, round: &str) -> Result<Vec<String>, RoundError> {
        let mut started = Vec::new();
        let mut found = false;
        for (id, handle) in self.tables.iter() {
            let view = handle.view().await?;
            // A table nobody is paired at is not in the round.
            if view.round != round || (view.white.is_empty() && view.black.is_empty()) {
                continue;
            }
            found = true;
            if !view.begun {
                handle.act(PersonRole::Arbiter, Action::StartClock).await?;
                started.push(id.to_string());
            }
        }
        if !found {
            return Err(RoundError::NoRound(round.to_owned()));
        }
        Ok(started)
    }

    /// Every round with its games, rounds in order (numbers by value),
    /// games in the venue's order of tables.
    pub async fn rounds(&self) -> Result<RoundsView, RoundError> {
        let mut rounds: Vec<RoundView> = Vec::new();
        for (game, _) in self.games(None).await? {
            match rounds.iter_mut().find(|r| r.round == game.round) {
                Some(r) => r.games.push(game),
                None => rounds.push(RoundView {
                    round: game.round.clone(),
                    games: vec![game],
                }),
            }
        }
        rounds.sort_by(|a, b| round_order(&a.round, &b.round));
        Ok(RoundsView { rounds })
    }

    /// Every game of round `round` as one PGN file, live games as they
    /// stand.
    pub async fn round_pgn(&self, round: &str) -> Result<String, RoundError> {
        let games = self.games(Some(round)).await?;
        if games.is_empty() {
            return Err(RoundError::NoRound(round.to_owned()));
        }
        let mut out = String::new();
        for (_, pgn) in games {
            out.push_str(&pgn);
            out.push('\n');
        }
        Ok(out)
    }

    /// The games of every table (of round `only`, if given), with their
    /// PGN when a round is asked for. Void games (never begun, replaced by
    /// a later one) and tables with no one paired yet are left out.
    async fn games(&self, only: Option<&str>) -> Result<Vec<(GameListed, String)>, RoundError> {
        let mut out = Vec::new();
        for (id, handle) in self.tables.iter() {
            let view = handle.view().await?;
            let starts = {
                let reader = self.reader.lock().unwrap_or_else(|e| e.into_inner());
                reader.game_starts(id)?
            };
            for start in &starts {
                let Some(setup) = setup_in(start) else {
                    continue;
                };
                if start.game == view.game {
                    // A table nobody has been paired at yet (no names, no
                    // move) has no game to show.
                    let unnamed = view.white.is_empty() && view.black.is_empty();
                    if only.is_some_and(|r| r != view.round) || (unnamed && !view.begun) {
                        continue;
                    }
                    let pgn = match only {
                        Some(_) => handle.pgn().await?,
                        None => String::new(),
                    };
                    out.push((listed_of_view(&view), pgn));
                } else if start.game < view.game {
                    if only.is_some_and(|r| r != setup.round) {
                        continue;
                    }
                    let past = self.past(id, start.game)?;
                    if !past.begun {
                        continue;
                    }
                    let state = if past.result.is_some() {
                        GameState::Finished
                    } else {
                        GameState::UnderWay
                    };
                    out.push((
                        listed_of(
                            &past.setup,
                            start.game,
                            state,
                            past.result.clone(),
                            past.plies,
                        ),
                        past.pgn.clone(),
                    ));
                }
            }
        }
        Ok(out)
    }

    /// An earlier game of table `id`, replayed from the journal once.
    fn past(&self, id: &TableId, game: u32) -> Result<Arc<Past>, RoundError> {
        let key = (id.clone(), game);
        if let Some(p) = self
            .past
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&key)
        {
            return Ok(Arc::clone(p));
        }
        let records = {
            let reader = self.reader.lock().unwrap_or_else(|e| e.into_inner());
            reader.game_events(id, game)?
        };
        let r = replay(id, &records, Style::default())
            .map_err(|e| RoundError::Invalid(e.to_string()))?;
        let past = Arc::new(Past {
            plies: r.game.plies().len(),
            begun: begun(&r.game),
            result: r.game.result().map(|res| res.score()),
            pgn: crate::table::pgn::game_pgn(&r.setup, &r.game),
            setup: r.setup,
        });
        self.past
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(key, Arc::clone(&past));
        Ok(past)
    }

    /// The arbiter's correction of a result in round `round` at table
    /// `id`: the table's current game through the table, an earlier one
    /// journaled under its own number (checked on the replayed game
    /// first). The only way a finished game changes.
    pub async fn correct_result(
        &self,
        round: &str,
        id: &str,
        result: &str,
        reason: &str,
    ) -> Result<GameListed, RoundError> {
        let _one_at_a_time = self.busy.lock().await;
        let id: TableId = id.parse().map_err(|_| RoundError::UnknownTable {
            index: 0,
            table: id.chars().take(40).collect(),
        })?;
        let Some(handle) = self.tables.get(&id) else {
            return Err(RoundError::UnknownTable {
                index: 0,
                table: id.to_string(),
            });
        };
        let result = tactus_rules::result::parse_score(result)
            .map_err(|e| RoundError::Invalid(e.to_string()))?;
        let event = GameEvent::ResultSet {
            result,
            reason: reason.to_owned(),
        };
        let view = handle.view().await?;
        if view.round == round && view.begun {
            handle
                .act(
                    PersonRole::Arbiter,
                    Action::SetResult {
                        result,
                        reason: reason.to_owned(),
                    },
                )
                .await?;
            return Ok(listed_of_view(&handle.view().await?));
        }
        // The round's latest game at the table before the current one.
        let starts = {
            let reader = self.reader.lock().unwrap_or_else(|e| e.into_inner());
            reader.game_starts(&id)?
        };
        let game = starts
            .iter()
            .filter(|s| s.game < view.game)
            .filter(|s| setup_in(s).is_some_and(|setup| setup.round == round))
            .map(|s| s.game)
            .filter(|g| self.past(&id, *g).is_ok_and(|p| p.begun))
            .max()
            .ok_or_else(|| RoundError::NoRound(format!("{round}` at table `{id}")))?;
        let records = {
            let reader = self.reader.lock().unwrap_or_else(|e| e.into_inner());
            reader.game_events(&id, game)?
        };
        let mut r = replay(&id, &records, Style::default())
            .map_err(|e| RoundError::Invalid(e.to_string()))?;
        let at = std::time::Duration::from_millis(r.last_ms);
        r.game
            .apply(at, &event)
            .map_err(|e| RoundError::Invalid(e.to_string()))?;
        let payload = serde_json::to_string(&crate::table::replay::Entry::Game(event))
            .map_err(|e| RoundError::Invalid(e.to_string()))?;
        self.journal
            .append(&id, game, r.last_ms as i64, payload)
            .await?;
        self.past
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&(id.clone(), game));
        let past = self.past(&id, game)?;
        Ok(listed_of(
            &past.setup,
            game,
            GameState::Finished,
            past.result.clone(),
            past.plies,
        ))
    }

    /// The imported TRF file as it was imported.
    pub fn imported_trf(&self) -> Option<Vec<u8>> {
        self.trf.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Keeps `text` as the imported TRF file (journaled first).
    async fn keep_trf(&self, text: Vec<u8>, at_ms: i64) -> Result<(), RoundError> {
        self.journal
            .put_document(TRF_DOCUMENT, at_ms, text.clone())
            .await?;
        *self.trf.lock().unwrap_or_else(|e| e.into_inner()) = Some(text);
        Ok(())
    }
}

impl Competition {
    /// Round `round`'s games at tactus tables, from a TRF-16 file as the
    /// pairing program writes it before the round's results: each listed
    /// player's opponent and colour. Listed players without a game (a
    /// bye, not paired, a game not to be played) are told, with why.
    pub fn pairings_from_trf(
        &self,
        text: &[u8],
        round: &str,
    ) -> Result<(Vec<RoundGame>, Vec<Unpaired>), RoundError> {
        let invalid = |s: String| RoundError::Invalid(s);
        let r: u16 =
            round.parse().ok().filter(|r| *r > 0).ok_or_else(|| {
                invalid(format!("round: `{round}` is not a round number (1, 2, …)"))
            })?;
        let trf = Trf::from_bytes(text).map_err(|e| invalid(format!("TRF: {e}")))?;
        if self.players.is_empty() {
            return Err(invalid(
                "no [[player]] is listed in the venue file: tactus cannot tell whose tables \
                 the TRF's pairings are for"
                    .into(),
            ));
        }
        let mut games: Vec<RoundGame> = Vec::new();
        let mut unpaired = Vec::new();
        for p in &self.players {
            let Some(me) = trf.player(p.start_rank) else {
                return Err(invalid(format!(
                    "[[player]] `{}`: start rank {} is not in the TRF file",
                    p.name, p.start_rank
                )));
            };
            // Why, in English, and as the pages' message with its arguments
            // (one of UNPAIRED_KEYS).
            let round = || ("round".to_owned(), r.to_string());
            let why = match me.round(r) {
                RoundEntry::NotPaired => Some((
                    format!("not paired in round {r}"),
                    "not-paired",
                    BTreeMap::from([round()]),
                )),
                RoundEntry::Bye { result } => Some(match result {
                    Some(c) => (
                        format!("bye ({c})"),
                        "bye-letter",
                        BTreeMap::from([("letter".to_owned(), c.to_string())]),
                    ),
                    None => ("bye".into(), "bye", BTreeMap::new()),
                }),
                RoundEntry::Game { colour: None, .. } => Some((
                    format!("paired without a colour in round {r}: a game not played"),
                    "no-colour",
                    BTreeMap::from([round()]),
                )),
                RoundEntry::Game {
                    opponent,
                    colour: Some(colour),
                    ..
                } => {
                    let Some(them) = trf.player(opponent) else {
                        return Err(invalid(format!(
                            "TRF line {}: round {r}: opponent {opponent} is not in the file",
                            me.line
                        )));
                    };
                    match them.round(r) {
                        RoundEntry::Game {
                            opponent: back,
                            colour: Some(c),
                            ..
                        } if back == p.start_rank && c == !colour => {}
                        _ => {
                            return Err(invalid(format!(
                                "TRF lines {} and {}: round {r}: {} plays {} with {}, but the \
                                 other line does not say so",
                                me.line,
                                them.line,
                                p.start_rank,
                                opponent,
                                tactus_rules::side::name(colour)
                            )));
                        }
                    }
                    // Two listed players paired together play at White's
                    // table, both blind.
                    let other = self.players.iter().find(|q| q.start_rank == opponent);
                    if other.is_some() && colour == Color::Black {
                        // Set up from White's entry.
                        continue;
                    }
                    let (white, black) = match colour {
                        Color::White => (&me.name, &them.name),
                        Color::Black => (&them.name, &me.name),
                    };
                    games.push(RoundGame {
                        table: p.table.to_string(),
                        white: white.clone(),
                        black: black.clone(),
                        blind: Some(match (other.is_some(), colour) {
                            (true, _) => BlindSeat::Both,
                            (false, Color::White) => BlindSeat::White,
                            (false, Color::Black) => BlindSeat::Black,
                        }),
                        control: None,
                        start_position: None,
                    });
                    None
                }
            };
            if let Some((why, key, args)) = why {
                unpaired.push(Unpaired {
                    name: p.name.clone(),
                    start_rank: p.start_rank,
                    why,
                    key: key.to_owned(),
                    args,
                });
            }
        }
        Ok((games, unpaired))
    }

    /// The imported TRF file with the result of every game finished at a
    /// tactus table written into its round's column, for both players;
    /// every other byte as imported.
    pub async fn trf_with_results(&self) -> Result<Vec<u8>, RoundError> {
        let text = self.imported_trf().ok_or(RoundError::NoTrf)?;
        let mut trf =
            Trf::from_bytes(&text).map_err(|e| RoundError::Invalid(format!("TRF: {e}")))?;
        let games = self.games(None).await?;
        for p in &self.players {
            let Some(me) = trf.player(p.start_rank).cloned() else {
                continue;
            };
            for r in 1..=u16::try_from(me.rounds.len()).unwrap_or(u16::MAX) {
                let RoundEntry::Game {
                    opponent,
                    colour: Some(colour),
                    ..
                } = me.round(r)
                else {
                    continue;
                };
                // The round's latest finished game at the player's table
                // (a replayed game counts, not the one it replaced).
                let Some((game, _)) = games.iter().rev().find(|(g, _)| {
                    g.table == p.table.as_str()
                        && g.round == r.to_string()
                        && g.state == GameState::Finished
                }) else {
                    continue;
                };
                let Some(score) = game.result.as_deref() else {
                    continue;
                };
                let Some((mine, theirs)) = result_chars(score, colour, game.plies == 0) else {
                    continue;
                };
                let line =
                    |e: tactus_rules::trf::TrfError| RoundError::Invalid(format!("TRF: {e}"));
                trf = trf.with_result(r, p.start_rank, mine).map_err(line)?;
                trf = trf.with_result(r, opponent, theirs).map_err(line)?;
            }
        }
        Ok(trf.to_bytes())
    }
}

/// The TRF result letters of a score for the player of `colour` and their
/// opponent; a game decided without a move is a forfeit (`+`, `-`).
fn result_chars(score: &str, colour: Color, unplayed: bool) -> Option<(ResultChar, ResultChar)> {
    let white_won = match score {
        "1-0" => Some(true),
        "0-1" => Some(false),
        "1/2-1/2" => None,
        _ => return None,
    };
    Some(match white_won {
        None => (ResultChar::Draw, ResultChar::Draw),
        Some(w) => {
            let won = w == (colour == Color::White);
            match (won, unplayed) {
                (true, false) => (ResultChar::Win, ResultChar::Loss),
                (false, false) => (ResultChar::Loss, ResultChar::Win),
                (true, true) => (ResultChar::ForfeitWin, ResultChar::ForfeitLoss),
                (false, true) => (ResultChar::ForfeitLoss, ResultChar::ForfeitWin),
            }
        }
    })
}

/// Rounds by number where they are numbers, then by name.
fn round_order(a: &str, b: &str) -> std::cmp::Ordering {
    match (a.parse::<u64>(), b.parse::<u64>()) {
        (Ok(x), Ok(y)) => x.cmp(&y),
        (Ok(_), Err(_)) => std::cmp::Ordering::Less,
        (Err(_), Ok(_)) => std::cmp::Ordering::Greater,
        (Err(_), Err(_)) => a.cmp(b),
    }
}

/// A table's current game as its state shows it.
fn listed_of_view(view: &TableView) -> GameListed {
    GameListed {
        table: view.id.to_string(),
        game: view.game,
        round: view.round.clone(),
        white: view.white.clone(),
        black: view.black.clone(),
        blind: view.blind,
        state: match (&view.result, view.begun) {
            (Some(_), _) => GameState::Finished,
            (None, true) => GameState::UnderWay,
            (None, false) => GameState::NotBegun,
        },
        result: view.result.as_ref().map(|r| r.score()),
        plies: u32::try_from(view.moves.len()).unwrap_or(u32::MAX),
    }
}

fn listed_of(
    setup: &Setup,
    game: u32,
    state: GameState,
    result: Option<String>,
    plies: usize,
) -> GameListed {
    GameListed {
        plies: u32::try_from(plies).unwrap_or(u32::MAX),
        table: setup.id.to_string(),
        game,
        round: setup.round.clone(),
        white: setup.white.clone(),
        black: setup.black.clone(),
        blind: setup.blind,
        state,
        result,
    }
}

/// Every `Unpaired::key`: the catalogues' test holds each to a message.
pub const UNPAIRED_KEYS: &[&str] = &["not-paired", "bye", "bye-letter", "no-colour"];

#[cfg(test)]
mod tests {
    use super::*;

    /// A game's score as each player's TRF-16 letter: `1`/`0`/`=` for a
    /// game played, `+`/`-` for one the arbiter scored unplayed; a score
    /// that is not a result writes nothing.
    #[test]
    fn a_score_is_written_as_each_player_s_letter() {
        use ResultChar::*;
        assert_eq!(result_chars("1-0", Color::White, false), Some((Win, Loss)));
        assert_eq!(result_chars("1-0", Color::Black, false), Some((Loss, Win)));
        assert_eq!(result_chars("0-1", Color::Black, false), Some((Win, Loss)));
        assert_eq!(
            result_chars("1/2-1/2", Color::White, false),
            Some((Draw, Draw))
        );
        assert_eq!(
            result_chars("1-0", Color::White, true),
            Some((ForfeitWin, ForfeitLoss))
        );
        assert_eq!(
            result_chars("0-1", Color::White, true),
            Some((ForfeitLoss, ForfeitWin))
        );
        assert_eq!(result_chars("*", Color::White, false), None);
        assert_eq!(result_chars("1-1", Color::White, false), None);
    }

    #[test]
    fn rounds_are_ordered_by_number_then_by_name() {
        let mut r = vec!["10", "2", "final", "1", "a"];
        r.sort_by(|a, b| round_order(a, b));
        assert_eq!(r, ["1", "2", "10", "a", "final"]);
    }
}
