//! Venue configuration: `config/*.toml`, read with serde; unknown keys are
//! rejected with their name, so a typo never silently falls back to a
//! default at a tournament.

use crate::table::id::TableId;
use std::fmt;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::str::FromStr;
use tactus_rules::clock_announce::Shown;
use tactus_rules::result::FlagRule;
use tactus_rules::time_control::TimeControl;

use serde::{Deserialize, Deserializer};
use shakmaty::Color;

use tactus_rules::announce::Style;
use tactus_rules::notation::Lang;
use tactus_rules::variant::{Start, Variant};

// A sound output and a board as the file writes them, each read from its
// text (`audio_out`, `board_spec`), and reading a file with the checks
// serde cannot make (`checks`).
mod audio_out;
mod board_spec;
mod checks;

pub use audio_out::{AudioOut, UnknownAudioOut};
pub use board_spec::{BoardSpec, BoardSpecError};
pub use checks::{CheckError, ConfigError, Invalid};

/// A whole venue: the server, the speech and every table.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// The piece letters of moves typed on the pages or posted without
    /// `lang`, unless a table says otherwise: `auto` (the default), `en`,
    /// `de`, `es`, `fr`, `nl`, `pt`, `pl`, `cs`.
    #[serde(default, deserialize_with = "from_str")]
    pub notation: Lang,
    #[serde(default)]
    pub server: ServerConfig,
    #[serde(default)]
    pub speech: SpeechConfig,
    /// The tables, in the order the arbiter sees them.
    #[serde(default = "default_tables", rename = "table")]
    pub tables: Vec<TableConfig>,
    /// The event's players who need a tactus table (sighted players need
    /// no entry): how a round's pairings find their tables.
    #[serde(default, rename = "player")]
    pub players: Vec<PlayerConfig>,
    /// A team event's teams (TRF-26's `310`): each with its players in
    /// the fixed board order. Empty for an individual event.
    #[serde(default, rename = "team")]
    pub teams: Vec<TeamConfig>,
    /// A team event's matches: how many boards each has (`[team_match]`,
    /// written by `tactus venue from-trf` from the export's `352`), so
    /// that a line-up too short is refused before any round's file says
    /// it. Without it, a round's file decides.
    #[serde(default)]
    pub team_match: Option<TeamMatchConfig>,
}

/// `[team_match]`: what every match of a team event has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TeamMatchConfig {
    /// Boards per match, 1 to 99 (the IBCA Olympiad: 4).
    pub boards: usize,
}

/// A team of a team event: the pairing program's team number, and its
/// players (their start ranks, each a `[[player]]`) in the fixed board
/// order, reserves last.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TeamConfig {
    /// TRF-26's team pairing number (`310` columns 5-7), 1 to 999.
    pub number: u16,
    pub name: String,
    /// The short name (`310` columns 42-46), as the pages show it.
    #[serde(default)]
    pub short: Option<String>,
    /// Start ranks in the fixed board order.
    pub players: Vec<u16>,
}

/// A player who plays at a tactus table in every round.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerConfig {
    pub name: String,
    /// Their number in the pairing program's file (TRF-16's start rank).
    pub start_rank: u16,
    #[serde(default)]
    pub fide_id: Option<u64>,
    /// The table where their equipment stands, if they keep one table all
    /// event (special equipment); left out, they play wherever the round's
    /// board order puts their game.
    #[serde(default)]
    pub table: Option<TableId>,
    /// Their own braille display (`brlapi:HOST:PORT`: a brltty on their
    /// own computer), which follows them from board to board.
    #[serde(default, deserialize_with = "from_str")]
    pub braille: crate::table::display::BrailleSpec,
    /// What it shows of a move: `words` or `notation`.
    #[serde(default)]
    pub braille_shows: crate::table::display::BrailleShows,
}

impl Default for Config {
    /// The embedded defaults: one table, the blind player Black, a simulated
    /// board, 90+30, the default voice, data in `./data`, web on loopback.
    fn default() -> Config {
        Config {
            notation: Lang::Auto,
            server: ServerConfig::default(),
            speech: SpeechConfig::default(),
            tables: default_tables(),
            players: Vec::new(),
            teams: Vec::new(),
            team_match: None,
        }
    }
}

impl Config {
    /// The team of player `rank`, if the venue has teams.
    pub fn team_of(&self, rank: u16) -> Option<&TeamConfig> {
        self.teams.iter().find(|t| t.players.contains(&rank))
    }
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ServerConfig {
    /// Where the web pages and the API listen. Loopback unless told otherwise.
    pub listen: SocketAddr,
    /// The data folder: journal and tokens.
    pub data: PathBuf,
    /// Seconds a request's head may take to arrive (also how long an idle
    /// connection is kept).
    pub header_timeout: u64,
    /// Open connections at most, in total and from one client address;
    /// beyond them a connection is answered 503.
    pub max_connections: usize,
    pub max_per_address: usize,
    /// Seconds a client may leave the server's writes unread (a page that
    /// stopped reading its live stream) before it is disconnected.
    pub write_stall: u64,
    /// HTTPS: the PEM certificate (chain) and its private key; both or
    /// neither (plain HTTP). See `service::security::tls`.
    pub tls_cert: Option<PathBuf>,
    pub tls_key: Option<PathBuf>,
}

/// `[server] max_connections` unless set: the connections served at once.
pub const DEFAULT_MAX_CONNECTIONS: usize = 1024;
/// `[server] max_per_address` unless set: one client address's share.
pub const DEFAULT_MAX_PER_ADDRESS: usize = 256;
/// `[server] write_stall` unless set, in seconds: a client that takes no
/// answer for this long is let go.
pub const DEFAULT_WRITE_STALL_SECS: u64 = 30;

impl Default for ServerConfig {
    fn default() -> ServerConfig {
        ServerConfig {
            listen: SocketAddr::from(([127, 0, 0, 1], 8080)),
            data: PathBuf::from("data"),
            header_timeout: 5,
            max_connections: DEFAULT_MAX_CONNECTIONS,
            max_per_address: DEFAULT_MAX_PER_ADDRESS,
            write_stall: DEFAULT_WRITE_STALL_SECS,
            tls_cert: None,
            tls_key: None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SpeechConfig {
    /// A pack name under `voices/` or a path to a pack folder.
    pub voice: String,
    #[serde(deserialize_with = "from_str")]
    pub style: Style,
    #[serde(deserialize_with = "from_str")]
    pub audio: AudioOut,
    /// Speaking rate; 1.0 is the clips as recorded. Pitch is kept.
    pub speed: f32,
}

impl Default for SpeechConfig {
    fn default() -> SpeechConfig {
        SpeechConfig {
            voice: "de-appendix-d".into(),
            style: Style::Standard,
            audio: AudioOut::Default,
            speed: 1.0,
        }
    }
}

/// One table.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableConfig {
    /// Short and URL-safe: letters, digits, `-` and `_`.
    pub id: TableId,
    /// The side of the blind player.
    #[serde(default = "default_blind", deserialize_with = "color")]
    pub blind: Color,
    /// The blind player's tactile board.
    #[serde(default = "default_board", deserialize_with = "from_str")]
    pub board: BoardSpec,
    /// The opponent's board: electronic for a sighted opponent, tactile when
    /// both players are blind, `none` when the assistant enters the moves.
    #[serde(default = "no_board", deserialize_with = "from_str")]
    pub opponent_board: BoardSpec,
    /// The peg board's hello (`H` line: firmware and serial number) the
    /// table follows: a board that answers with another, or not at all,
    /// is not followed, and is named. For a board across the hall.
    #[serde(default)]
    pub board_hello: Option<String>,
    /// The same for a second peg board (both players blind).
    #[serde(default)]
    pub opponent_board_hello: Option<String>,
    /// The time control, e.g. `90+30` or `40/90+30,30+30`: read when the
    /// file is, so a bad one is an error naming the key.
    #[serde(default = "default_control")]
    pub control: TimeControl,
    #[serde(default)]
    pub white: String,
    #[serde(default)]
    pub black: String,
    #[serde(default)]
    pub event: String,
    #[serde(default)]
    pub round: crate::table::round::Round,
    /// How long a board must be still before it is read, in milliseconds
    /// (0 to 1000); unset, each board's kind decides
    /// (`board::infer::default_settle`: bouncing contacts on a peg board,
    /// pieces slid by hand on an electronic one).
    #[serde(default)]
    pub settle_ms: Option<u32>,
    /// Say the corrections for a wrong board by themselves, as soon as it
    /// has been still and wrong for the settling time (otherwise on request).
    #[serde(default)]
    pub auto_correct: bool,
    /// A clock reaching zero: `claim` (shown and said at once, the game ends
    /// when the fall is claimed, 6.8; the default) or `auto` (ends at once).
    #[serde(default)]
    pub flag: FlagRule,
    /// What the clock announcement tells unless asked otherwise: `left` (the
    /// default) or `used` (D.2.6.1, D.2.10.4).
    #[serde(default)]
    pub clock_says: Shown,
    /// `standard`, or `chess960` (FIDE Laws, Guidelines III) from
    /// `start_position`: the file's keys, read into `start` once checked.
    #[serde(default, deserialize_with = "from_str")]
    variant: Variant,
    /// The Chess960 start position's number, 0 to 959 (518 is the
    /// standard position), as drawn for the round; only with
    /// `variant = "chess960"`, and needed there.
    #[serde(default)]
    start_position: Option<u32>,
    /// Where the table's games start, from `variant` and `start_position`
    /// (`Config::parse` sets it; a table made in code starts standard).
    #[serde(skip)]
    pub start: Start,
    /// This table's sound output (`default`, `none`, `device:NAME`,
    /// `wav:DIR`); `[speech] audio` if not given.
    #[serde(default, deserialize_with = "some_from_str")]
    pub audio: Option<AudioOut>,
    /// A braille display: `none` (the default), `brlapi` or
    /// `brlapi:HOST:PORT` (`table/display/settings.rs`).
    #[serde(default, deserialize_with = "from_str")]
    pub braille: crate::table::display::BrailleSpec,
    /// What the display shows of a move: `words` or `notation`.
    #[serde(default)]
    pub braille_shows: crate::table::display::BrailleShows,
    /// This table's voice pack (a name under `voices/` or a path), when it
    /// is not the venue's `speech.voice`: the language its players hear.
    #[serde(default)]
    pub voice: Option<String>,
    /// This table's `notation`, when it is not the venue's.
    #[serde(default, deserialize_with = "some_from_str")]
    pub notation: Option<Lang>,
}

impl TableConfig {
    /// Whether both players are blind: the opponent's board is tactile too.
    pub fn both_blind(&self) -> bool {
        matches!(self.opponent_board, BoardSpec::Peg { .. })
    }

    /// A table with the embedded defaults and this id.
    pub fn with_id(id: TableId) -> TableConfig {
        TableConfig {
            id,
            blind: default_blind(),
            board: default_board(),
            opponent_board: no_board(),
            board_hello: None,
            opponent_board_hello: None,
            control: default_control(),
            white: String::new(),
            black: String::new(),
            event: String::new(),
            round: crate::table::round::Round::none(),
            settle_ms: None,
            auto_correct: false,
            flag: FlagRule::default(),
            clock_says: Shown::default(),
            variant: Variant::Standard,
            start_position: None,
            start: Start::Standard,
            audio: None,
            braille: Default::default(),
            braille_shows: Default::default(),
            voice: None,
            notation: None,
        }
    }

    /// The table's sound output: its own, else the venue's.
    pub fn audio_or<'a>(&'a self, venue: &'a AudioOut) -> &'a AudioOut {
        self.audio.as_ref().unwrap_or(venue)
    }
}

fn default_tables() -> Vec<TableConfig> {
    vec![TableConfig::with_id(
        "1".parse().expect("`1` is a table id"),
    )]
}
fn default_blind() -> Color {
    Color::Black
}
fn default_board() -> BoardSpec {
    BoardSpec::Sim
}
fn no_board() -> BoardSpec {
    BoardSpec::None
}
fn default_control() -> TimeControl {
    "90+30".parse().expect("`90+30` is a time control")
}

fn from_str<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: FromStr,
    T::Err: fmt::Display,
{
    let s = String::deserialize(d)?;
    s.parse().map_err(serde::de::Error::custom)
}

fn some_from_str<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: FromStr,
    T::Err: fmt::Display,
{
    from_str(d).map(Some)
}

fn color<'de, D: Deserializer<'de>>(d: D) -> Result<Color, D::Error> {
    tactus_rules::side::deserialize(d)
}

#[cfg(test)]
mod tests;
