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

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};
use shakmaty::Color;

use super::board_order::{BoardKey, Want};
use super::config::{PlayerConfig, TableConfig};
use super::journal::{Journal, JournalError, JournalHandle};
use super::web::api_types::{
    BlindSeat, GameListed, GameState, RoundGame, RoundSetUp, RoundView, RoundsView, Unpaired,
};
use crate::table::action::{Action, PersonRole};
use crate::table::actor::{Ranks, Setup, TableError, TableHandle};
use crate::table::id::TableId;
use crate::table::journal::Record;
use crate::table::replay::{begun, replay, setup_in};
use crate::table::view::TableView;
use tactus_rules::announce::Style;
use tactus_rules::event::GameEvent;
use tactus_rules::trf::{ResultChar, RoundEntry, Trf};
use tactus_rules::variant::{Variant, chess960_start};

/// The name the imported TRF file is kept under in the journal.
pub const TRF_DOCUMENT: &str = "trf";

/// The name the arbiter's forfeits are kept under in the journal.
pub const FORFEITS_DOCUMENT: &str = "forfeits";

/// A game the arbiter scored as not played: `absent` did not come.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Forfeit {
    table: TableId,
    game: u32,
    #[serde(with = "tactus_rules::side")]
    absent: Color,
}

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
    /// The round's games need more tables than are free (HTTP 409).
    #[error(transparent)]
    Place(#[from] super::board_order::PlaceError),
    /// A player's token of a player the venue file no longer lists, or a
    /// start rank nobody has (HTTP 403/404).
    #[error("{0}")]
    NotListed(String),
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
    /// Work off the async workers did not finish (HTTP 500).
    #[error(transparent)]
    Unfinished(#[from] super::blocking::Unfinished),
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
    /// The venue's tables in the venue file's order: boards 1, 2, ….
    boards: Vec<TableId>,
    /// The forfeits the arbiter recorded (journaled as a document).
    forfeits: Mutex<Vec<Forfeit>>,
    /// The listed players without a game in the last round set up, with
    /// why (since the last start: afterwards, "no game").
    unpaired: Mutex<(String, Vec<Unpaired>)>,
    tables: Arc<BTreeMap<TableId, TableHandle>>,
    journal: JournalHandle,
    /// A read-only connection of its own: earlier games are read while the
    /// writer thread writes. Used only off the async workers (`read`).
    reader: Arc<Mutex<Journal>>,
    /// Each table's games' first entries, as of the table's current game:
    /// they change only when a new game is set up there.
    starts: Mutex<HashMap<TableId, Starts>>,
    trf: Mutex<Option<Vec<u8>>>,
    past: Mutex<HashMap<(TableId, u32), Arc<Past>>>,
    /// One round set up at a time: two arbiters' requests never interleave.
    /// Readers of where players sit (`seat_of`) share it: they never see a
    /// round half set up (one table at the new round, another not yet).
    busy: tokio::sync::RwLock<()>,
    /// The listed players' own settings, which follow them.
    settings: super::player_settings::SettingsStore,
    /// One more at each round set up: the players may have moved.
    seating: tokio::sync::watch::Sender<u64>,
}

/// A table's games' first entries, read while its current game was the
/// number given.
type Starts = (u32, Arc<Vec<Record>>);

/// Where a listed player plays in the latest round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seat {
    pub round: String,
    pub table: TableId,
    /// The table's board number (its place in the venue file, from 1).
    pub board: usize,
    /// The table's game: a player's token acts in this game only.
    pub game: u32,
    pub colour: Color,
    /// The side the table's own tactile board (if any) follows: the
    /// player of that side acts as its `player`, the other as `opponent`.
    pub blind: Color,
    /// The opponent's start rank (if known) and name.
    pub opponent: (Option<u16>, String),
}

/// Why a listed player has no game in the latest round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoSeat {
    /// The latest round, if any has been set up.
    pub round: Option<String>,
    pub why: String,
}

/// One line of the standings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Standing {
    /// From 1; players with equal points share it.
    pub place: usize,
    pub start_rank: u16,
    pub name: String,
    /// As the TRF writes points: `2.5`.
    pub points: String,
    #[serde(skip)]
    tenths: u32,
}

/// One game of a round, checked and ready to set up.
struct Planned {
    index: usize,
    setup: Setup,
}

impl Competition {
    /// The competition over `tables` (`boards`: their ids in the venue
    /// file's order), reading earlier games from the journal at `path`
    /// (already opened for writing by `journal`).
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        players: Vec<PlayerConfig>,
        bases: BTreeMap<TableId, TableBase>,
        boards: Vec<TableId>,
        tables: Arc<BTreeMap<TableId, TableHandle>>,
        journal: JournalHandle,
        path: &Path,
        trf: Option<Vec<u8>>,
    ) -> Result<Competition, JournalError> {
        let reader = Journal::open_reader(path)?;
        let forfeits = reader
            .document(FORFEITS_DOCUMENT)?
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_default();
        let settings = super::player_settings::SettingsStore::new(
            reader.document(super::player_settings::SETTINGS_DOCUMENT)?,
            journal.clone(),
        );
        Ok(Competition {
            players,
            bases,
            boards,
            forfeits: Mutex::new(forfeits),
            unpaired: Mutex::new((String::new(), Vec::new())),
            tables,
            journal,
            reader: Arc::new(Mutex::new(reader)),
            starts: Mutex::new(HashMap::new()),
            trf: Mutex::new(trf),
            past: Mutex::new(HashMap::new()),
            busy: tokio::sync::RwLock::new(()),
            settings,
            seating: tokio::sync::watch::Sender::new(0),
        })
    }

    /// Changes at each round set up (the players may have moved).
    pub fn seating(&self) -> tokio::sync::watch::Receiver<u64> {
        self.seating.subscribe()
    }

    /// The listed players' own settings.
    pub fn settings(&self) -> &super::player_settings::SettingsStore {
        &self.settings
    }

    /// The listed players.
    pub fn players(&self) -> &[PlayerConfig] {
        &self.players
    }

    /// The listed player with start rank `rank`, or why a token of theirs
    /// is not valid (the venue file no longer lists them).
    pub fn listed(&self, rank: u16) -> Result<&PlayerConfig, RoundError> {
        self.players
            .iter()
            .find(|p| p.start_rank == rank)
            .ok_or_else(|| {
                RoundError::NotListed(format!(
                    "[[player]] start_rank = {rank} is not listed in the venue file: a token of \
                     theirs is no longer valid"
                ))
            })
    }

    /// Where listed player `rank` plays in the latest round set up, or why
    /// they have no game there (a bye, not paired, between rounds).
    pub async fn seat_of(&self, rank: u16) -> Result<Result<Seat, NoSeat>, RoundError> {
        // Not while a round is being set up: a player whose old table has
        // its new game and whose new table not yet would be told they have
        // none, and their page would not follow them.
        let _whole_rounds = self.busy.read().await;
        let mut views = Vec::new();
        for (board, id) in self.boards.iter().enumerate() {
            views.push((board + 1, self.tables[id].view().await?));
        }
        let latest = views
            .iter()
            .filter(|(_, v)| !v.ranks.is_empty())
            .map(|(_, v)| v.round.clone())
            .max_by(|a, b| round_order(a, b));
        let Some(latest) = latest else {
            return Ok(Err(NoSeat {
                round: None,
                why: "no round has been set up yet".into(),
            }));
        };
        for (board, v) in views {
            if v.round != latest {
                continue;
            }
            let Some(colour) = v.ranks.side_of(rank) else {
                continue;
            };
            let (their_name, their_rank) = match colour {
                Color::White => (v.black.clone(), v.ranks.black),
                Color::Black => (v.white.clone(), v.ranks.white),
            };
            return Ok(Ok(Seat {
                round: v.round,
                table: v.id,
                board,
                game: v.game,
                colour,
                blind: v.blind,
                opponent: (their_rank, their_name),
            }));
        }
        let why = {
            let (round, unpaired) = &*self.unpaired.lock().unwrap_or_else(|e| e.into_inner());
            (round == &latest)
                .then(|| unpaired.iter().find(|u| u.start_rank == rank))
                .flatten()
                .map(|u| u.why.clone())
        };
        Ok(Err(NoSeat {
            why: why.unwrap_or_else(|| format!("no game in round {latest}")),
            round: Some(latest),
        }))
    }

    /// The standings: every player of the imported TRF by points (the
    /// file's, with every result since written in), ties sharing a place
    /// and listed by start rank; without a TRF, the listed players by
    /// their results at tactus tables.
    pub async fn standings(&self) -> Result<Vec<Standing>, RoundError> {
        let mut rows: Vec<(u32, u16, String)> = match self.imported_trf() {
            Some(_) => {
                let text = self.trf_with_results().await?;
                let trf =
                    Trf::from_bytes(&text).map_err(|e| RoundError::Invalid(format!("TRF: {e}")))?;
                trf.players()
                    .map(|p| {
                        let points = p
                            .points_tenths
                            .unwrap_or_else(|| trf.results_points(p.start_rank).unwrap_or(0));
                        (points, p.start_rank, p.name.clone())
                    })
                    .collect()
            }
            None => {
                let games = self.games(None).await?;
                self.players
                    .iter()
                    .map(|p| {
                        let points = games
                            .iter()
                            .filter(|(g, _)| g.state == GameState::Finished)
                            .filter_map(|(g, _)| {
                                let side = g.ranks.side_of(p.start_rank)?;
                                Some(match g.result.as_deref()? {
                                    "1/2-1/2" => 5,
                                    "1-0" if side == Color::White => 10,
                                    "0-1" if side == Color::Black => 10,
                                    _ => 0,
                                })
                            })
                            .sum();
                        (points, p.start_rank, p.name.clone())
                    })
                    .collect()
            }
        };
        rows.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let mut out: Vec<Standing> = Vec::with_capacity(rows.len());
        for (i, (points, rank, name)) in rows.into_iter().enumerate() {
            let place = match out.last() {
                Some(prev) if prev.tenths == points => prev.place,
                _ => i + 1,
            };
            out.push(Standing {
                place,
                start_rank: rank,
                name,
                points: format!("{}.{}", points / 10, points % 10),
                tenths: points,
            });
        }
        Ok(out)
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
        let _one_at_a_time = self.busy.write().await;
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
        *self.unpaired.lock().unwrap_or_else(|e| e.into_inner()) =
            (round.to_owned(), unpaired.clone());
        // Whoever follows the players (their own displays) looks again now.
        self.seating.send_modify(|n| *n += 1);
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
        let mut names: BTreeMap<&str, usize> = BTreeMap::new();
        let mut ranks_seen: BTreeMap<u16, usize> = BTreeMap::new();
        let mut wants = Vec::new();
        let mut pending = Vec::new();
        for (index, g) in games.iter().enumerate() {
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
            // Each side's start rank: given, or the listed player's of that
            // name.
            let rank_of = |given: Option<u16>, name: &str| {
                given.or_else(|| {
                    self.players
                        .iter()
                        .find(|p| p.name.trim() == name.trim() && !name.trim().is_empty())
                        .map(|p| p.start_rank)
                })
            };
            let ranks = Ranks {
                white: rank_of(g.white_rank, &g.white),
                black: rank_of(g.black_rank, &g.black),
            };
            for (key, rank) in [("white_rank", ranks.white), ("black_rank", ranks.black)] {
                if let Some(r) = rank
                    && let Some(other) = ranks_seen.insert(r, index)
                {
                    return invalid(format!(
                        "games[{index}].{key}: start rank {r} is paired twice (also in \
                         games[{other}])"
                    ));
                }
            }
            let listed = |rank: Option<u16>| {
                rank.and_then(|r| self.players.iter().find(|p| p.start_rank == r))
            };
            let (lw, lb) = (listed(ranks.white), listed(ranks.black));
            let want = if !g.table.is_empty() {
                let id: TableId = g.table.parse().map_err(|_| RoundError::UnknownTable {
                    index,
                    table: g.table.chars().take(40).collect(),
                })?;
                if !self.bases.contains_key(&id) {
                    return Err(RoundError::UnknownTable {
                        index,
                        table: g.table.clone(),
                    });
                }
                Want::Table(id)
            } else {
                let own: Vec<&TableId> = [lw, lb]
                    .into_iter()
                    .flatten()
                    .filter_map(|p| p.table.as_ref())
                    .collect();
                // Two listed players who each keep a table play at White's.
                match own.first() {
                    None => Want::Board(g.board.unwrap_or(index as u32 + 1)),
                    Some(t) => Want::Table((*t).clone()),
                }
            };
            let seat = match g.blind {
                Some(seat) => seat,
                None => match (lw.is_some(), lb.is_some()) {
                    (true, true) => BlindSeat::Both,
                    (true, false) => BlindSeat::White,
                    (false, true) => BlindSeat::Black,
                    (false, false) => {
                        return invalid(format!(
                            "games[{index}].blind: neither `{}` nor `{}` is a listed player: \
                             say `white`, `black` or `both`",
                            g.white, g.black
                        ));
                    }
                },
            };
            wants.push(want);
            pending.push((index, g, seat, ranks));
        }
        let placed = super::board_order::place(&wants, &self.boards)?;
        let mut planned = Vec::new();
        for ((index, g, seat, ranks), id) in pending.into_iter().zip(placed) {
            let base = &self.bases[&id];
            let mut setup = base.setup.clone();
            setup.blind = match seat {
                BlindSeat::White => Color::White,
                BlindSeat::Black => Color::Black,
                // Both blind: the table's tactile board (if any) follows
                // its configured side; a player without one enters their
                // moves on their own page.
                BlindSeat::Both => base.setup.blind,
            };
            setup.ranks = ranks;
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
        // As broadcasters read a round: the event, site and date the
        // pairing program's file gives, and each player's FIDE id.
        let trf = self.imported_trf().and_then(|t| Trf::from_bytes(&t).ok());
        let number = round.parse::<u16>().ok();
        let mut out = String::new();
        for (g, pgn) in games {
            let mut tags: Vec<(&str, String)> = Vec::new();
            // The file speaks for the games it paired (both players named by
            // start rank): a round set up otherwise keeps its PGN as it was
            // when a file is imported later.
            let paired = g.ranks.white.is_some() && g.ranks.black.is_some();
            let trf = trf.as_ref().filter(|_| paired);
            if let Some(trf) = trf {
                if let Some(event) = trf.event_name() {
                    tags.push(("Event", event));
                }
                if let Some(city) = trf.city() {
                    tags.push(("Site", city));
                }
                if let Some(date) = number.and_then(|r| trf.round_date(r)) {
                    tags.push(("Date", date));
                }
            }
            for (tag, rank) in [
                ("WhiteFideId", g.ranks.white),
                ("BlackFideId", g.ranks.black),
            ] {
                let Some(rank) = rank else { continue };
                // The venue file's id first: the organiser listed it.
                let id = self
                    .listed(rank)
                    .ok()
                    .and_then(|p| p.fide_id)
                    .or_else(|| trf?.player(rank)?.fide_id);
                if let Some(id) = id.filter(|id| *id > 0) {
                    tags.push((tag, id.to_string()));
                }
            }
            out.push_str(&with_tags(&pgn, &tags));
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
            let starts = self.starts(id, view.game).await?;
            for start in starts.iter() {
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
                    let past = self.past(id, start.game).await?;
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
        for (g, _) in &mut out {
            g.forfeit = self.forfeit_of(&g.table, g.game);
        }
        Ok(out)
    }

    /// The side that did not come to game `game` of table `table`, if the
    /// arbiter recorded a forfeit.
    fn forfeit_of(&self, table: &str, game: u32) -> Option<Color> {
        self.forfeits
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .find(|f| f.table.as_str() == table && f.game == game)
            .map(|f| f.absent)
    }

    /// Records (or, with `None`, clears) a forfeit of game `game` of table
    /// `table`, journaled before it takes effect.
    async fn set_forfeit(
        &self,
        table: &TableId,
        game: u32,
        absent: Option<Color>,
    ) -> Result<(), RoundError> {
        let mut next = self
            .forfeits
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        let before = next.len();
        next.retain(|f| !(&f.table == table && f.game == game));
        if let Some(absent) = absent {
            next.push(Forfeit {
                table: table.clone(),
                game,
                absent,
            });
        } else if next.len() == before {
            return Ok(());
        }
        let bytes = serde_json::to_vec(&next).map_err(|e| RoundError::Invalid(e.to_string()))?;
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as i64);
        self.journal
            .put_document(FORFEITS_DOCUMENT, now, bytes)
            .await?;
        *self.forfeits.lock().unwrap_or_else(|e| e.into_inner()) = next;
        Ok(())
    }

    /// Runs `read` on the journal's reader connection, off the async
    /// workers.
    async fn read<T: Send + 'static>(
        &self,
        read: impl FnOnce(&Journal) -> Result<T, RoundError> + Send + 'static,
    ) -> Result<T, RoundError> {
        let reader = Arc::clone(&self.reader);
        super::blocking::run(move || read(&reader.lock().unwrap_or_else(|e| e.into_inner())))
            .await?
    }

    /// The first entry of each of table `id`'s games, while its current
    /// game is `current`: read from the journal once per game set up.
    async fn starts(&self, id: &TableId, current: u32) -> Result<Arc<Vec<Record>>, RoundError> {
        if let Some((game, starts)) = self
            .starts
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(id)
            && *game == current
        {
            return Ok(Arc::clone(starts));
        }
        let table = id.clone();
        let starts = Arc::new(
            self.read(move |reader| Ok(reader.game_starts(&table)?))
                .await?,
        );
        self.starts
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id.clone(), (current, Arc::clone(&starts)));
        Ok(starts)
    }

    /// An earlier game of table `id`, replayed from the journal once.
    async fn past(&self, id: &TableId, game: u32) -> Result<Arc<Past>, RoundError> {
        let key = (id.clone(), game);
        if let Some(p) = self
            .past
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&key)
        {
            return Ok(Arc::clone(p));
        }
        let table = id.clone();
        let past = self
            .read(move |reader| {
                let records = reader.game_events(&table, game)?;
                let r = replay(&table, &records, Style::default())
                    .map_err(|e| RoundError::Invalid(e.to_string()))?;
                Ok(Arc::new(Past {
                    plies: r.game.plies().len(),
                    begun: begun(&r.game),
                    result: r.game.result().map(|res| res.score()),
                    pgn: crate::table::pgn::game_pgn(&r.setup, &r.game),
                    setup: r.setup,
                }))
            })
            .await?;
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
        forfeit: Option<Color>,
    ) -> Result<GameListed, RoundError> {
        let _one_at_a_time = self.busy.write().await;
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
        // A forfeit: the side that came wins, and nothing was played.
        let reason = match forfeit {
            Some(absent) => {
                if result != (shakmaty::KnownOutcome::Decisive { winner: !absent }) {
                    return Err(RoundError::Invalid(format!(
                        "forfeit: {} did not come, so the result is {}",
                        tactus_rules::side::name(absent),
                        if absent == Color::White { "0-1" } else { "1-0" }
                    )));
                }
                if reason.trim().is_empty() {
                    format!("forfeit: {} did not come", tactus_rules::side::name(absent))
                } else {
                    reason.to_owned()
                }
            }
            None => reason.to_owned(),
        };
        let reason = reason.as_str();
        let event = GameEvent::ResultSet {
            result,
            reason: reason.to_owned(),
        };
        let view = handle.view().await?;
        if view.round == round && (view.begun || forfeit.is_some()) {
            if forfeit.is_some() && !view.moves.is_empty() {
                return Err(RoundError::Invalid(format!(
                    "forfeit: the game at table `{id}` has moves: it was played"
                )));
            }
            self.set_forfeit(&id, view.game, forfeit).await?;
            handle
                .act(
                    PersonRole::Arbiter,
                    Action::SetResult {
                        result,
                        reason: reason.to_owned(),
                    },
                )
                .await?;
            let mut listed = listed_of_view(&handle.view().await?);
            listed.forfeit = forfeit;
            return Ok(listed);
        }
        // The round's latest game at the table before the current one.
        let starts = self.starts(&id, view.game).await?;
        let mut game = None;
        for s in starts.iter().filter(|s| s.game < view.game) {
            if setup_in(s).is_some_and(|setup| setup.round == round)
                && self.past(&id, s.game).await.is_ok_and(|p| p.begun)
            {
                game = game.max(Some(s.game));
            }
        }
        let game = game.ok_or_else(|| RoundError::NoRound(format!("{round}` at table `{id}")))?;
        let table = id.clone();
        let mut r = self
            .read(move |reader| {
                let records = reader.game_events(&table, game)?;
                replay(&table, &records, Style::default())
                    .map_err(|e| RoundError::Invalid(e.to_string()))
            })
            .await?;
        let at = std::time::Duration::from_millis(r.last_ms);
        r.game
            .apply(at, &event)
            .map_err(|e| RoundError::Invalid(e.to_string()))?;
        let payload = serde_json::to_string(&crate::table::replay::Entry::Game(event))
            .map_err(|e| RoundError::Invalid(e.to_string()))?;
        if forfeit.is_some() && !r.game.plies().is_empty() {
            return Err(RoundError::Invalid(format!(
                "forfeit: the game at table `{id}` has moves: it was played"
            )));
        }
        self.set_forfeit(&id, game, forfeit).await?;
        self.journal
            .append(&id, game, r.last_ms as i64, payload)
            .await?;
        self.past
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&(id.clone(), game));
        let past = self.past(&id, game).await?;
        let mut listed = listed_of(
            &past.setup,
            game,
            GameState::Finished,
            past.result.clone(),
            past.plies,
        );
        listed.forfeit = forfeit;
        Ok(listed)
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
    /// Round `round`'s games at tactus tables, from a TRF file (TRF-16 or
    /// TRF-26) as the pairing program writes it before the round's results:
    /// each listed player's opponent and colour, the games in FIDE's board
    /// order (by the scores before the round), a listed player's own table
    /// kept, and the time control of the file's `222` when it has one.
    /// Listed players without a game (a bye, not paired, a game not to be
    /// played) are told, with why. A file whose points disagree with its
    /// own results is refused, naming the line: the pairing engine would
    /// refuse what tactus gives back.
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
        trf.check_points()
            .map_err(|e| invalid(format!("TRF: {e}")))?;
        let control = match trf.time_control() {
            None => None,
            Some(Ok(tc)) => Some(tc.to_string()),
            Some(Err(e)) => return Err(invalid(format!("TRF: {e}"))),
        };
        if self.players.is_empty() {
            return Err(invalid(
                "no [[player]] is listed in the venue file: tactus cannot tell whose tables \
                 the TRF's pairings are for"
                    .into(),
            ));
        }
        // Each player's score before the round, for the board order.
        let ps = trf.point_system();
        let before = |rank: u16| -> u32 {
            trf.player(rank).map_or(0, |p| {
                p.rounds
                    .iter()
                    .take(usize::from(r - 1))
                    .filter_map(|e| match *e {
                        RoundEntry::Game { result, .. } | RoundEntry::Bye { result } => result,
                        RoundEntry::NotPaired => None,
                    })
                    .map(|res| ps.of(res))
                    .sum()
            })
        };
        let mut games: Vec<(BoardKey, RoundGame)> = Vec::new();
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
                    // Read already: every game is on both lines, with two
                    // colours.
                    let Some(them) = trf.player(opponent) else {
                        return Err(invalid(format!(
                            "TRF line {}: round {r}: opponent {opponent} is not in the file",
                            me.line
                        )));
                    };
                    // Two listed players paired together: one game, set up
                    // from White's entry.
                    let other = self.players.iter().find(|q| q.start_rank == opponent);
                    if other.is_some() && colour == Color::Black {
                        continue;
                    }
                    let (white, black) = match colour {
                        Color::White => (me, them),
                        Color::Black => (them, me),
                    };
                    let key = BoardKey::of(
                        (before(white.start_rank), white.start_rank),
                        (before(black.start_rank), black.start_rank),
                    );
                    games.push((
                        key,
                        RoundGame {
                            table: String::new(),
                            board: None,
                            white: white.name.clone(),
                            black: black.name.clone(),
                            white_rank: Some(white.start_rank),
                            black_rank: Some(black.start_rank),
                            blind: Some(match (other.is_some(), colour) {
                                (true, _) => BlindSeat::Both,
                                (false, Color::White) => BlindSeat::White,
                                (false, Color::Black) => BlindSeat::Black,
                            }),
                            control: control.clone(),
                            start_position: None,
                        },
                    ));
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
        games.sort_by_key(|(key, _)| *key);
        let games = games
            .into_iter()
            .enumerate()
            .map(|(i, (_, mut g))| {
                g.board = Some(i as u32 + 1);
                g
            })
            .collect();
        Ok((games, unpaired))
    }

    /// The imported TRF file with the result of every game finished at a
    /// tactus table written into its round's column, for both players, and
    /// their points (columns 81–84) brought up to date by the file's point
    /// system; every other byte as imported. A game decided before a move
    /// is `W`/`D`/`L`; `+`/`-` only where the arbiter recorded a forfeit.
    pub async fn trf_with_results(&self) -> Result<Vec<u8>, RoundError> {
        let text = self.imported_trf().ok_or(RoundError::NoTrf)?;
        let mut trf =
            Trf::from_bytes(&text).map_err(|e| RoundError::Invalid(format!("TRF: {e}")))?;
        let games = self.games(None).await?;
        // The round's latest finished game per pair (a replayed game
        // counts, not the one it replaced): games are listed in order.
        let mut written: BTreeMap<(u16, u16), (ResultChar, ResultChar)> = BTreeMap::new();
        for (g, _) in &games {
            if g.state != GameState::Finished {
                continue;
            }
            let Ok(r) = g.round.parse::<u16>() else {
                continue;
            };
            let Some(score) = g.result.as_deref() else {
                continue;
            };
            let ranks = self.ranks_of_game(&trf, g, r);
            let (Some(white), Some(black)) = (ranks.white, ranks.black) else {
                continue;
            };
            let how = match g.forfeit {
                Some(absent) => Played::Forfeit { absent },
                None if g.plies == 0 => Played::NoMove,
                None => Played::OverTheBoard,
            };
            if let Some(chars) = result_chars(score, Color::White, how) {
                written.insert((r, white), chars);
                written.insert((r, black), (chars.1, chars.0));
            }
        }
        for ((r, rank), (mine, _)) in written {
            // Only where the file pairs them so.
            if matches!(
                trf.player(rank).map(|p| p.round(r)),
                Some(RoundEntry::Game { .. })
            ) {
                trf = trf
                    .with_result(r, rank, mine)
                    .map_err(|e| RoundError::Invalid(format!("TRF: {e}")))?;
            }
        }
        Ok(trf.to_bytes())
    }

    /// The start ranks of a game's players: as its pairing gave them, or
    /// (a round set up by JSON without ranks) the listed player's and the
    /// opponent the TRF pairs them with in that round.
    fn ranks_of_game(&self, trf: &Trf, g: &GameListed, r: u16) -> Ranks {
        if g.ranks.white.is_some() && g.ranks.black.is_some() {
            return g.ranks;
        }
        for p in &self.players {
            let side = if p.name.trim() == g.white {
                Color::White
            } else if p.name.trim() == g.black {
                Color::Black
            } else {
                continue;
            };
            if let Some(RoundEntry::Game {
                opponent,
                colour: Some(c),
                ..
            }) = trf.player(p.start_rank).map(|me| me.round(r))
                && c == side
            {
                return match side {
                    Color::White => Ranks {
                        white: Some(p.start_rank),
                        black: Some(opponent),
                    },
                    Color::Black => Ranks {
                        white: Some(opponent),
                        black: Some(p.start_rank),
                    },
                };
            }
        }
        g.ranks
    }
}

/// How a game with a result came about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Played {
    /// At least one move.
    OverTheBoard,
    /// Decided before a move (a resignation, a flag, an agreement).
    NoMove,
    /// Not played: `absent` did not come (the arbiter said so).
    Forfeit { absent: Color },
}

/// The TRF result letters of a score for the player of `colour` and their
/// opponent: `1`/`0`/`=` for a game played, `W`/`D`/`L` for one decided
/// before a move (TRF-16 and TRF-26 alike), `+`/`-` for a forfeit the
/// arbiter recorded.
fn result_chars(score: &str, colour: Color, how: Played) -> Option<(ResultChar, ResultChar)> {
    use ResultChar::*;
    let winner = match score {
        "1-0" => Some(Color::White),
        "0-1" => Some(Color::Black),
        "1/2-1/2" => None,
        _ => return None,
    };
    let mine = |won: bool| match (how, won) {
        (Played::OverTheBoard, true) => Win,
        (Played::OverTheBoard, false) => Loss,
        (Played::NoMove, true) => UnratedWin,
        (Played::NoMove, false) => UnratedLoss,
        (Played::Forfeit { .. }, true) => ForfeitWin,
        (Played::Forfeit { .. }, false) => ForfeitLoss,
    };
    Some(match winner {
        None if how == Played::NoMove => (UnratedDraw, UnratedDraw),
        None => (Draw, Draw),
        Some(w) => (mine(w == colour), mine(w != colour)),
    })
}

/// A game's PGN with each of `tags` set: its value replaced where the tag
/// is, added after the last tag where it is not (values escaped as PGN
/// escapes them).
fn with_tags(pgn: &str, tags: &[(&str, String)]) -> String {
    let mut lines: Vec<String> = pgn.lines().map(str::to_owned).collect();
    for (name, value) in tags {
        let value = value.replace('\\', "\\\\").replace('"', "\\\"");
        let line = format!("[{name} \"{value}\"]");
        let prefix = format!("[{name} \"");
        let tag_lines = lines.iter().take_while(|l| l.starts_with('[')).count();
        match lines[..tag_lines]
            .iter()
            .position(|l| l.starts_with(&prefix))
        {
            Some(i) => lines[i] = line,
            None => lines.insert(tag_lines, line),
        }
    }
    let mut out = lines.join("\n");
    if pgn.ends_with('\n') {
        out.push('\n');
    }
    out
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
        ranks: view.ranks,
        forfeit: None,
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
        ranks: setup.ranks,
        forfeit: None,
    }
}

/// Every `Unpaired::key`: the catalogues' test holds each to a message.
pub const UNPAIRED_KEYS: &[&str] = &["not-paired", "bye", "bye-letter", "no-colour"];

#[cfg(test)]
mod tests {
    use super::*;

    /// A game's score as each player's TRF letter: `1`/`0`/`=` for a game
    /// played, `W`/`D`/`L` for one decided before a move, `+`/`-` only for
    /// a forfeit; a score that is not a result writes nothing.
    #[test]
    fn a_score_is_written_as_each_player_s_letter() {
        use ResultChar::*;
        let played = Played::OverTheBoard;
        assert_eq!(result_chars("1-0", Color::White, played), Some((Win, Loss)));
        assert_eq!(result_chars("1-0", Color::Black, played), Some((Loss, Win)));
        assert_eq!(result_chars("0-1", Color::Black, played), Some((Win, Loss)));
        assert_eq!(
            result_chars("1/2-1/2", Color::White, played),
            Some((Draw, Draw))
        );
        let no_move = Played::NoMove;
        assert_eq!(
            result_chars("1-0", Color::White, no_move),
            Some((UnratedWin, UnratedLoss))
        );
        assert_eq!(
            result_chars("1/2-1/2", Color::Black, no_move),
            Some((UnratedDraw, UnratedDraw))
        );
        let forfeit = Played::Forfeit {
            absent: Color::Black,
        };
        assert_eq!(
            result_chars("1-0", Color::White, forfeit),
            Some((ForfeitWin, ForfeitLoss))
        );
        assert_eq!(result_chars("*", Color::White, played), None);
        assert_eq!(result_chars("1-1", Color::White, played), None);
    }

    #[test]
    fn broadcast_tags_replace_or_join_the_game_s_tags() {
        let pgn = "[Event \"Open\"]\n[White \"A\"]\n\n1. e4 *\n";
        let out = with_tags(
            pgn,
            &[
                ("Event", "Blind \"Ch\"".into()),
                ("WhiteFideId", "4100001".into()),
            ],
        );
        assert_eq!(
            out,
            "[Event \"Blind \\\"Ch\\\"\"]\n[White \"A\"]\n[WhiteFideId \"4100001\"]\n\n1. e4 *\n"
        );
    }

    #[test]
    fn rounds_are_ordered_by_number_then_by_name() {
        let mut r = vec!["10", "2", "final", "1", "a"];
        r.sort_by(|a, b| round_order(a, b));
        assert_eq!(r, ["1", "2", "10", "a", "final"]);
    }
}
