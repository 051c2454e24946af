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
use shakmaty::{Color, KnownOutcome};

use super::startup::config::{PlayerConfig, TableConfig, TeamConfig};
use super::store::journal::{Journal, JournalError, JournalHandle};
use crate::table::actions::{Action, PersonRole};
use crate::table::error::TableError;
use crate::table::handle::TableHandle;
use crate::table::id::TableId;
use crate::table::journal::Record;
use crate::table::replay::{begun, replay, setup_in};
use crate::table::round::Round;
use crate::table::setup::{Ranks, Setup};
use crate::table::view::TableView;
use board_order::{BoardKey, Want};
use tactus_rules::announce::Style;
use tactus_rules::event::GameEvent;
use tactus_rules::trf::{ResultChar, RoundEntry, Trf};
use tactus_rules::variant::{Variant, chess960_start};
use views::{
    BlindSeat, GameListed, GameState, RoundGame, RoundSetUp, RoundView, RoundsView, Unpaired,
};

pub mod board_order;
mod history;
mod lineups;
pub mod player_display;
mod public_reads;
mod rounds;
mod teams;
mod trf;
pub mod views;

pub use lineups::{LINEUPS_DOCUMENT, LineupRefused};
pub use teams::{BoardPrizeView, TeamStandingView, TeamStandings, TieBreakValue, is_team_pairings};

use history::{Past, Starts, listed_of, listed_of_view};

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
    Place(#[from] board_order::PlaceError),
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
            variant: t.start.variant(),
            two_tactile: t.both_blind(),
        }
    }
}

/// The competition's state, shared by the web handlers.
pub struct Competition {
    players: Vec<PlayerConfig>,
    /// The venue's `[[team]]`s: empty for an individual event.
    teams: Vec<TeamConfig>,
    /// `[team_match] boards`, if the venue file says.
    team_boards: Option<usize>,
    /// The captains' line-ups (journaled as a document).
    lineups: Mutex<lineups::Lineups>,
    bases: BTreeMap<TableId, TableBase>,
    /// The venue's tables in the venue file's order: boards 1, 2, ….
    boards: Vec<TableId>,
    /// The forfeits the arbiter recorded (journaled as a document).
    forfeits: Mutex<Vec<Forfeit>>,
    /// The listed players without a game in the last round set up, with
    /// why (since the last start: afterwards, "no game").
    unpaired: Mutex<LastUnpaired>,
    tables: Arc<BTreeMap<TableId, TableHandle>>,
    journal: JournalHandle,
    /// A read-only connection of its own: earlier games are read while the
    /// writer thread writes. Used only off the async workers (`read`).
    reader: Arc<Mutex<Journal>>,
    /// Each table's games' first entries, as of the table's current game:
    /// they change only when a new game is set up there.
    starts: Mutex<HashMap<TableId, Starts>>,
    trf: Mutex<Option<Vec<u8>>>,
    /// One more at each import of a TRF file (the public reads' cache).
    trf_generation: std::sync::atomic::AtomicU64,
    /// The TRF with results and the standings, per change (`public_reads`).
    public: public_reads::PublicReads,
    /// The imported file as read, by generation (a round's PGN reads its
    /// event, site and date).
    parsed_trf: tokio::sync::Mutex<Option<(u64, Arc<Trf>)>>,
    past: Mutex<HashMap<(TableId, u32), Arc<Past>>>,
    /// One round set up at a time: two arbiters' requests never interleave.
    /// Readers of where players sit (`seat_of`) share it: they never see a
    /// round half set up (one table at the new round, another not yet).
    busy: tokio::sync::RwLock<()>,
    /// The listed players' own settings, which follow them.
    settings: super::store::player_settings::SettingsStore,
    /// One more at each round set up: the players may have moved.
    seating: tokio::sync::watch::Sender<u64>,
}

/// Where a listed player plays in the latest round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seat {
    pub round: Round,
    pub table: TableId,
    /// The table's board number (its place in the venue file, from 1).
    pub board: usize,
    /// The table's game: a player's token acts in this game only.
    pub game: u32,
    pub colour: Color,
    /// The side the table's own tactile board (if any) follows: the
    /// player of that side acts as its `player`, the other as `opponent`.
    pub blind: Color,
    pub opponent: SeatOpponent,
}

/// Who a listed player plays in the latest round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatOpponent {
    /// Their start rank, if the pairing gave it.
    pub rank: Option<u16>,
    pub name: String,
}

/// The listed players without a game in the last round set up, with why.
#[derive(Debug, Default)]
struct LastUnpaired {
    round: Round,
    unpaired: Vec<Unpaired>,
}

/// Why a listed player has no game in the latest round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoSeat {
    /// The latest round, if any has been set up.
    pub round: Option<Round>,
    pub why: String,
}

/// Standings lines from (points in tenths, start rank, name): by points,
/// ties sharing a place and listed by start rank.
fn ranked(mut rows: Vec<(u32, u16, String)>) -> Vec<Standing> {
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
    out
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
        let lineups = reader
            .document(LINEUPS_DOCUMENT)?
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_default();
        let settings = super::store::player_settings::SettingsStore::new(
            reader.document(super::store::player_settings::SETTINGS_DOCUMENT)?,
            journal.clone(),
        );
        Ok(Competition {
            players,
            teams: Vec::new(),
            team_boards: None,
            lineups: Mutex::new(lineups),
            bases,
            boards,
            forfeits: Mutex::new(forfeits),
            unpaired: Mutex::default(),
            tables,
            journal,
            reader: Arc::new(Mutex::new(reader)),
            starts: Mutex::new(HashMap::new()),
            trf: Mutex::new(trf),
            trf_generation: std::sync::atomic::AtomicU64::new(0),
            public: Default::default(),
            parsed_trf: Default::default(),
            past: Mutex::new(HashMap::new()),
            busy: tokio::sync::RwLock::new(()),
            settings,
            seating: tokio::sync::watch::Sender::new(0),
        })
    }

    /// The competition of a team event: the venue's `[[team]]`s and, if
    /// it says, how many boards a match has.
    pub fn with_teams(mut self, teams: Vec<TeamConfig>, boards: Option<usize>) -> Competition {
        self.teams = teams;
        self.team_boards = boards;
        self
    }

    /// Changes at each round set up (the players may have moved).
    pub fn seating(&self) -> tokio::sync::watch::Receiver<u64> {
        self.seating.subscribe()
    }

    /// The listed players' own settings.
    pub fn settings(&self) -> &super::store::player_settings::SettingsStore {
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
            .filter(|(_, v)| !crate::table::setup::unnamed(&v.ranks))
            .map(|(_, v)| v.round.clone())
            .max();
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
            let Some(colour) = v.ranks.find(|r| *r == Some(rank)) else {
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
                opponent: SeatOpponent {
                    rank: their_rank,
                    name: their_name,
                },
            }));
        }
        let why = {
            let last = &*self.unpaired.lock().unwrap_or_else(|e| e.into_inner());
            (last.round == latest)
                .then(|| last.unpaired.iter().find(|u| u.start_rank == rank))
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
        let games = self.games(None).await?;
        let key = public_reads::fingerprint(self.trf_generation(), &games);
        let mut reads = self.public.at(key).await;
        if let Some(s) = &reads.1.standings {
            return Ok(s.as_ref().clone());
        }
        let rows: Vec<(u32, u16, String)> = match self.imported_trf() {
            Some(_) => {
                let text = self.trf_with_results_in(&games, &mut reads.1).await?;
                super::blocking::run(move || {
                    let trf = Trf::from_bytes(&text)
                        .map_err(|e| RoundError::Invalid(format!("TRF: {e}")))?;
                    Ok::<_, RoundError>(
                        trf.players()
                            .map(|p| {
                                let points = p.points_tenths.unwrap_or_else(|| {
                                    trf.results_points(p.start_rank).unwrap_or(0)
                                });
                                (points, p.start_rank, p.name.clone())
                            })
                            .collect(),
                    )
                })
                .await??
            }
            None => self
                .players
                .iter()
                .map(|p| {
                    let points = games
                        .iter()
                        .filter(|(g, _)| g.state == GameState::Finished)
                        .filter_map(|(g, _)| {
                            let side = g.ranks.find(|r| *r == Some(p.start_rank))?;
                            Some(match g.result? {
                                KnownOutcome::Draw => 5,
                                KnownOutcome::Decisive { winner } if winner == side => 10,
                                KnownOutcome::Decisive { .. } => 0,
                            })
                        })
                        .sum();
                    (points, p.start_rank, p.name.clone())
                })
                .collect(),
        };
        let out = Arc::new(ranked(rows));
        reads.1.standings = Some(out.clone());
        Ok(out.as_ref().clone())
    }

    /// The imported file's generation: one more at each import.
    fn trf_generation(&self) -> u64 {
        self.trf_generation
            .load(std::sync::atomic::Ordering::Acquire)
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
}

/// Every `Unpaired::key`: the catalogues' test holds each to a message.
pub const UNPAIRED_KEYS: &[&str] = &["not-paired", "bye", "bye-letter", "no-colour"];

#[cfg(test)]
mod tests {
    use super::rounds::with_tags;
    use super::trf::{Played, result_chars};
    use super::*;

    /// A game's score as each player's TRF letter: `1`/`0`/`=` for a game
    /// played, `W`/`D`/`L` for one decided before a move, `+`/`-` only for
    /// a forfeit; a score that is not a result is never one (the arbiter's
    /// typed score is read once, at the edge).
    #[test]
    fn a_score_is_written_as_each_player_s_letter() {
        use ResultChar::*;
        use tactus_rules::result::parse_score;
        let score = |s: &str| parse_score(s).unwrap();
        let played = Played::OverTheBoard;
        assert_eq!(
            result_chars(score("1-0"), Color::White, played),
            (Win, Loss)
        );
        assert_eq!(
            result_chars(score("1-0"), Color::Black, played),
            (Loss, Win)
        );
        assert_eq!(
            result_chars(score("0-1"), Color::Black, played),
            (Win, Loss)
        );
        assert_eq!(
            result_chars(score("1/2-1/2"), Color::White, played),
            (Draw, Draw)
        );
        let no_move = Played::NoMove;
        assert_eq!(
            result_chars(score("1-0"), Color::White, no_move),
            (UnratedWin, UnratedLoss)
        );
        assert_eq!(
            result_chars(score("1/2-1/2"), Color::Black, no_move),
            (UnratedDraw, UnratedDraw)
        );
        let forfeit = Played::Forfeit {
            absent: Color::Black,
        };
        assert_eq!(
            result_chars(score("1-0"), Color::White, forfeit),
            (ForfeitWin, ForfeitLoss)
        );
        assert!(parse_score("*").is_err());
        assert!(parse_score("1-1").is_err());
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
        let mut r: Vec<Round> = ["10", "2", "final", "1", "a"]
            .iter()
            .map(|r| r.parse().unwrap())
            .collect();
        r.sort();
        assert_eq!(r, ["1", "2", "10", "a", "final"]);
    }
}
