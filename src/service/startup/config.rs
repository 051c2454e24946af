//! Venue configuration: `config/*.toml`, read with serde; unknown keys are
//! rejected with their name, so a typo never silently falls back to a
//! default at a tournament.

use crate::table::id::TableId;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use tactus_rules::clock_announce::Shown;
use tactus_rules::result::FlagRule;
use tactus_rules::time_control::TimeControl;

use serde::{Deserialize, Deserializer};
use shakmaty::Color;

use tactus_board::event::Protocol;
use tactus_board::link::Port;
use tactus_rules::announce::Style;
use tactus_rules::notation::Lang;
use tactus_rules::variant::{Chess960Start, Start, Variant};

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

/// Where spoken announcements go (text always goes to the log and pages).
/// `[speech] audio` is the venue's default; a table's own `audio` key
/// overrides it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AudioOut {
    /// The ALSA `default` device, falling back to text if there is none.
    Default,
    /// Text only.
    None,
    /// One ALSA PCM (a name `tactus audio devices` lists, or any PCM name:
    /// `plughw:CARD=Headset,DEV=0`, a PCM of `~/.asoundrc`): reopened with
    /// backoff whenever it fails, never given up.
    Device(String),
    /// WAV files in this folder: one per table per server run, named by
    /// the table and the run's start time, never overwritten.
    Wav(PathBuf),
}

/// An audio output that is none of the four forms.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown audio output `{0}`: expected `default`, `none`, `device:NAME` or `wav:DIR`")]
pub struct UnknownAudioOut(pub String);

impl FromStr for AudioOut {
    type Err = UnknownAudioOut;
    fn from_str(s: &str) -> Result<AudioOut, UnknownAudioOut> {
        match s {
            "default" => Ok(AudioOut::Default),
            "none" => Ok(AudioOut::None),
            _ => match s.split_once(':') {
                Some(("wav", dir)) if !dir.is_empty() => Ok(AudioOut::Wav(dir.into())),
                Some(("device", name)) if !name.trim().is_empty() => {
                    Ok(AudioOut::Device(name.trim().to_owned()))
                }
                _ => Err(UnknownAudioOut(s.to_owned())),
            },
        }
    }
}

impl fmt::Display for AudioOut {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AudioOut::Default => f.write_str("default"),
            AudioOut::None => f.write_str("none"),
            AudioOut::Device(name) => write!(f, "device:{name}"),
            AudioOut::Wav(dir) => write!(f, "wav:{}", dir.display()),
        }
    }
}

/// The board at one side of a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BoardSpec {
    /// A pegged tactile board on a serial port (local or over the network).
    Peg { port: Port, baud: u32 },
    /// A DGT electronic board on a serial port (local or over the network).
    Dgt { port: Port, baud: u32 },
    /// A Millennium ChessLink board (eONE, Exclusive, Performance, Supreme)
    /// on a serial port (local or over the network): a sighted opponent's.
    Millennium { port: Port, baud: u32 },
    /// The built-in simulated peg board (a pseudo-terminal).
    Sim,
    /// No board: moves come from the pages and the API.
    None,
}

impl BoardSpec {
    /// The protocol, port and speed of a board on a port.
    pub fn wired(&self) -> Option<(Protocol, &Port, u32)> {
        match self {
            BoardSpec::Peg { port, baud } => Some((Protocol::Peg, port, *baud)),
            BoardSpec::Dgt { port, baud } => Some((Protocol::Dgt, port, *baud)),
            BoardSpec::Millennium { port, baud } => Some((Protocol::Millennium, port, *baud)),
            BoardSpec::Sim | BoardSpec::None => None,
        }
    }
}

/// The forms a board can take, for the messages that list them.
const BOARD_FORMS: &str = "expected `peg:PORT[@BAUD]`, `dgt:PORT[@BAUD]`, \
                           `millennium:PORT[@BAUD]`, `sim` or `none`, \
                           where PORT is a device path, `tcp://HOST:PORT` or `rfc2217://HOST:PORT`";

/// Why a board (`peg:/dev/ttyUSB0@9600`, …) cannot be read; each names
/// the board as written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardSpecError {
    /// No protocol this service speaks.
    #[error("unknown board `{0}`: {BOARD_FORMS}")]
    Unknown(String),
    /// What follows `@` is not a positive number.
    #[error("board `{spec}`: `{baud}` is not a baud rate")]
    Baud { spec: String, baud: String },
    /// A protocol and nothing after it.
    #[error("board `{0}` names no port: {BOARD_FORMS}")]
    NoPort(String),
    /// The port does not read (the port's own reason).
    #[error("board `{spec}`: {reason}")]
    Port { spec: String, reason: String },
    /// A speed given for a raw TCP port, where ser2net sets it.
    #[error(
        "board `{0}`: over raw tcp the far end sets the speed (in ser2net's \
         configuration); drop `@BAUD`, or use rfc2217:// to set it from here"
    )]
    BaudOverTcp(String),
}

impl FromStr for BoardSpec {
    type Err = BoardSpecError;
    fn from_str(s: &str) -> Result<BoardSpec, BoardSpecError> {
        match s {
            "sim" => return Ok(BoardSpec::Sim),
            "none" => return Ok(BoardSpec::None),
            _ => {}
        }
        let (kind, rest) = s
            .split_once(':')
            .ok_or_else(|| BoardSpecError::Unknown(s.to_owned()))?;
        let protocol = match kind {
            "peg" => Protocol::Peg,
            "dgt" => Protocol::Dgt,
            "millennium" => Protocol::Millennium,
            _ => return Err(BoardSpecError::Unknown(s.to_owned())),
        };
        // `@` never occurs in a network port; in a path it is the speed.
        let (port, baud) = match rest.rsplit_once('@') {
            Some((port, baud)) => (
                port,
                Some(baud.parse::<u32>().ok().filter(|b| *b > 0).ok_or_else(|| {
                    BoardSpecError::Baud {
                        spec: s.to_owned(),
                        baud: baud.to_owned(),
                    }
                })?),
            ),
            None => (rest, None),
        };
        if port.is_empty() {
            return Err(BoardSpecError::NoPort(s.to_owned()));
        }
        let port: Port = port.parse::<Port>().map_err(|e| BoardSpecError::Port {
            spec: s.to_owned(),
            reason: e.to_string(),
        })?;
        if matches!(port, Port::Tcp { .. }) && baud.is_some() {
            return Err(BoardSpecError::BaudOverTcp(s.to_owned()));
        }
        let baud = baud.unwrap_or(protocol.default_baud());
        Ok(match protocol {
            Protocol::Peg => BoardSpec::Peg { port, baud },
            Protocol::Dgt => BoardSpec::Dgt { port, baud },
            Protocol::Millennium => BoardSpec::Millennium { port, baud },
        })
    }
}

impl fmt::Display for BoardSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.wired() {
            Some((p, port @ Port::Tcp { .. }, _)) => write!(f, "{}:{port}", p.name()),
            Some((p, port, baud)) => write!(f, "{}:{port}@{baud}", p.name()),
            None if *self == BoardSpec::Sim => f.write_str("sim"),
            None => f.write_str("none"),
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
    /// `brlapi:HOST:PORT` (`table/display.rs`).
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
    /// The table's start from its keys `variant` and `start_position`:
    /// a Chess960 table names its position (0 to 959), a standard one none.
    fn start_from_keys(&self) -> Result<Start, CheckError> {
        match (self.variant, self.start_position) {
            (Variant::Chess960, None) => Err(CheckError::NoStartPosition(self.id.to_string())),
            (Variant::Chess960, Some(number)) => Chess960Start::new(number)
                .map(Start::Chess960)
                .map_err(|_| CheckError::StartPosition {
                    table: self.id.to_string(),
                    number,
                }),
            (Variant::Standard, Some(_)) => {
                Err(CheckError::StartPositionNotChess960(self.id.to_string()))
            }
            (Variant::Standard, None) => Ok(Start::Standard),
        }
    }

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

/// A configuration that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("{path}: {source}")]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: {source}")]
    Invalid {
        path: PathBuf,
        #[source]
        source: Invalid,
    },
}

/// Configuration text that cannot be used: what TOML and serde refuse
/// (syntax, unknown keys, bad values, each named), or what [`Config::check`]
/// refuses.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Invalid {
    /// The TOML parser's or serde's message, which names the key.
    #[error("{0}")]
    Toml(#[from] toml::de::Error),
    /// Values that are each fine but not together.
    #[error(transparent)]
    Check(#[from] CheckError),
}

/// What serde cannot see: each names the table and the key.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CheckError {
    #[error("no tables: add at least one [[table]]")]
    NoTables,
    #[error("[[player]] `{name}`: table `{table}` is not a [[table]] of this venue")]
    PlayerTable { name: String, table: String },
    #[error(
        "[[table]] `{table}`: {key} pins a peg board's hello (its `H` line, 1 to 100 printable \
         ASCII characters, no spaces around): only a peg board on a port says one"
    )]
    Hello { table: String, key: &'static str },
    #[error("[[player]] `{0}` is listed twice")]
    PlayerTwice(String),
    #[error("[[player]] start_rank = {0}: name is empty")]
    PlayerName(u16),
    #[error("[[player]] start_rank = {0} is given twice")]
    RankTwice(u16),
    #[error("[[player]] `{name}`: start_rank = 0: ranks start at 1")]
    RankZero { name: String },
    #[error("[[team]] number = {0}: team numbers are 1 to 999")]
    TeamNumber(u16),
    #[error("[[team]] number = {0} is given twice")]
    TeamTwice(u16),
    #[error("[[team]] number = {0}: name is empty")]
    TeamName(u16),
    #[error("[[team]] `{0}` is listed twice")]
    TeamNameTwice(String),
    #[error("[[team]] number = {0}: players is empty")]
    TeamEmpty(u16),
    #[error("[[team]] number = {team}: players: {rank} is not a [[player]] start_rank")]
    TeamPlayer { team: u16, rank: u16 },
    #[error("[[team]] number = {team}: players: {rank} is also in team {other}")]
    TeamPlayerTwice { team: u16, rank: u16, other: u16 },
    #[error("[team_match] boards = {0} is out of range: 1 to 99")]
    TeamMatchBoards(usize),
    #[error("[team_match] without any [[team]]: it is for a team event")]
    TeamMatchWithoutTeams,
    #[error("speech.speed = {0} is out of range: 0.5 to 2.0")]
    Speed(f32),
    #[error("table `{table}`: settle_ms = {settle_ms} is out of range: 0 to 1000")]
    SettleMs { table: String, settle_ms: u32 },
    #[error("table `{0}`: variant = \"chess960\" needs start_position = 0 to 959")]
    NoStartPosition(String),
    #[error("table `{table}`: start_position = {number} is out of range: 0 to 959")]
    StartPosition { table: String, number: u32 },
    #[error("table `{0}`: start_position is for variant = \"chess960\"")]
    StartPositionNotChess960(String),
    #[error("table id `{0}` is used twice")]
    TableTwice(String),
    /// `key` is `board` or `opponent_board`.
    #[error("table `{table}`: {key}: port {port} is given to two boards")]
    PortTwice {
        table: String,
        key: &'static str,
        port: String,
    },
}

impl Config {
    /// Reads and checks a configuration file.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        Config::parse(&text).map_err(|source| ConfigError::Invalid {
            path: path.to_path_buf(),
            source,
        })
    }

    /// Parses and checks configuration text.
    pub fn parse(text: &str) -> Result<Config, Invalid> {
        let mut config: Config = toml::from_str(text)?;
        config.check()?;
        for t in &mut config.tables {
            t.start = t.start_from_keys()?;
        }
        Ok(config)
    }

    /// What serde cannot say: ids unique and URL-safe, a sane speed, no two
    /// tables on one serial port.
    pub fn check(&self) -> Result<(), CheckError> {
        if self.tables.is_empty() {
            return Err(CheckError::NoTables);
        }
        if !(0.5..=2.0).contains(&self.speech.speed) {
            return Err(CheckError::Speed(self.speech.speed));
        }
        let mut ids = BTreeSet::new();
        let mut ports = BTreeSet::new();
        for t in &self.tables {
            for (key, hello, board) in [
                ("board_hello", &t.board_hello, &t.board),
                (
                    "opponent_board_hello",
                    &t.opponent_board_hello,
                    &t.opponent_board,
                ),
            ] {
                let Some(hello) = hello else { continue };
                let fits = !hello.trim().is_empty()
                    && hello.trim() == hello
                    && hello.len() <= 100
                    && hello.chars().all(|c| c.is_ascii_graphic() || c == ' ');
                if !fits || !matches!(board, BoardSpec::Peg { .. }) {
                    return Err(CheckError::Hello {
                        table: t.id.to_string(),
                        key,
                    });
                }
            }
            if let Some(settle_ms) = t.settle_ms.filter(|&ms| ms > 1000) {
                return Err(CheckError::SettleMs {
                    table: t.id.to_string(),
                    settle_ms,
                });
            }
            t.start_from_keys()?;
            if !ids.insert(t.id.as_str()) {
                return Err(CheckError::TableTwice(t.id.to_string()));
            }
            for (key, board) in [("board", &t.board), ("opponent_board", &t.opponent_board)] {
                if let Some((_, port, _)) = board.wired()
                    && !ports.insert(port.clone())
                {
                    return Err(CheckError::PortTwice {
                        table: t.id.to_string(),
                        key,
                        port: port.to_string(),
                    });
                }
            }
        }
        let mut ranks = BTreeSet::new();
        let mut names = BTreeSet::new();
        for p in &self.players {
            if p.start_rank == 0 {
                return Err(CheckError::RankZero {
                    name: p.name.clone(),
                });
            }
            if !ranks.insert(p.start_rank) {
                return Err(CheckError::RankTwice(p.start_rank));
            }
            if let Some(table) = &p.table
                && !ids.contains(table.as_str())
            {
                return Err(CheckError::PlayerTable {
                    name: p.name.clone(),
                    table: table.to_string(),
                });
            }
            if p.name.trim().is_empty() {
                return Err(CheckError::PlayerName(p.start_rank));
            }
            if !names.insert(p.name.trim().to_lowercase()) {
                return Err(CheckError::PlayerTwice(p.name.clone()));
            }
        }
        self.check_teams(&ranks)
    }

    /// Teams: numbered 1 to 999 once each, named, each player a listed
    /// `[[player]]` in one team only.
    fn check_teams(&self, ranks: &BTreeSet<u16>) -> Result<(), CheckError> {
        let mut numbers = BTreeSet::new();
        let mut names = BTreeSet::new();
        let mut of_player: BTreeMap<u16, u16> = BTreeMap::new();
        if let Some(m) = self.team_match {
            if !(1..=99).contains(&m.boards) {
                return Err(CheckError::TeamMatchBoards(m.boards));
            }
            if self.teams.is_empty() {
                return Err(CheckError::TeamMatchWithoutTeams);
            }
        }
        for t in &self.teams {
            if !(1..=tactus_rules::trf::MAX_TEAMS).contains(&t.number) {
                return Err(CheckError::TeamNumber(t.number));
            }
            if !numbers.insert(t.number) {
                return Err(CheckError::TeamTwice(t.number));
            }
            if t.name.trim().is_empty() {
                return Err(CheckError::TeamName(t.number));
            }
            if !names.insert(t.name.trim().to_lowercase()) {
                return Err(CheckError::TeamNameTwice(t.name.clone()));
            }
            if t.players.is_empty() {
                return Err(CheckError::TeamEmpty(t.number));
            }
            for &rank in &t.players {
                if !ranks.contains(&rank) {
                    return Err(CheckError::TeamPlayer {
                        team: t.number,
                        rank,
                    });
                }
                if let Some(other) = of_player.insert(rank, t.number) {
                    return Err(CheckError::TeamPlayerTwice {
                        team: t.number,
                        rank,
                        other,
                    });
                }
            }
        }
        Ok(())
    }

    /// The team of player `rank`, if the venue has teams.
    pub fn team_of(&self, rank: u16) -> Option<&TeamConfig> {
        self.teams.iter().find(|t| t.players.contains(&rank))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_table_has_its_own_audio_or_the_venues() {
        let c = Config::parse(
            "[speech]\naudio = \"wav:out\"\n\
             [[table]]\nid = \"1\"\naudio = \"device:plughw:CARD=Headset,DEV=0\"\n\
             [[table]]\nid = \"2\"\n",
        )
        .unwrap();
        let venue = &c.speech.audio;
        assert_eq!(
            c.tables[0].audio_or(venue),
            &AudioOut::Device("plughw:CARD=Headset,DEV=0".into())
        );
        assert_eq!(c.tables[1].audio_or(venue), &AudioOut::Wav("out".into()));
        assert_eq!(
            c.tables[0].audio_or(venue).to_string(),
            "device:plughw:CARD=Headset,DEV=0"
        );
        let e = Config::parse("[[table]]\nid = \"1\"\naudio = \"device:\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("device:NAME"), "{e}");
    }

    #[test]
    fn a_bad_time_control_is_refused_when_the_file_is_read_naming_the_key() {
        let e = Config::parse("[[table]]\nid = \"1\"\ncontrol = \"90+\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("control"), "{e}");
        assert!(e.contains("90+"), "{e}");
        let c = Config::parse("[[table]]\nid = \"1\"\ncontrol = \"40/90+30, 30+30\"\n").unwrap();
        assert_eq!(c.tables[0].control, "40/90+30,30+30".parse().unwrap());
    }

    #[test]
    fn teams_are_checked_against_the_players() {
        let venue = "[[table]]\nid = \"1\"\n\
                     [[player]]\nname = \"Ana\"\nstart_rank = 1\n\
                     [[player]]\nname = \"Bea\"\nstart_rank = 2\n\
                     [[player]]\nname = \"Cid\"\nstart_rank = 3\n";
        let ok = Config::parse(&format!(
            "{venue}[[team]]\nnumber = 4\nname = \"Lions\"\nshort = \"LIO\"\nplayers = [2, 1]\n"
        ))
        .unwrap();
        assert_eq!(ok.teams[0].players, [2, 1]);
        assert_eq!(ok.team_match, None);
        let boards = Config::parse(&format!(
            "{venue}[[team]]\nnumber = 4\nname = \"Lions\"\nplayers = [2, 1]\n[team_match]\nboards = 4\n"
        ))
        .unwrap();
        assert_eq!(boards.team_match, Some(TeamMatchConfig { boards: 4 }));
        let lone = Config::parse(&format!("{venue}[team_match]\nboards = 4\n")).unwrap_err();
        assert!(
            lone.to_string()
                .contains("[team_match] without any [[team]]"),
            "{lone}"
        );
        assert_eq!(ok.team_of(1).unwrap().number, 4);
        assert!(ok.team_of(3).is_none());
        let cases = [
            (
                "number = 0\nname = \"A\"\nplayers = [1]",
                "team numbers are 1 to 999",
            ),
            ("number = 1\nname = \" \"\nplayers = [1]", "name is empty"),
            ("number = 1\nname = \"A\"\nplayers = []", "players is empty"),
            (
                "number = 1\nname = \"A\"\nplayers = [9]",
                "players: 9 is not a [[player]] start_rank",
            ),
            (
                "number = 1\nname = \"A\"\nplayers = [1]\n[[team]]\nnumber = 2\nname = \"B\"\nplayers = [1]",
                "players: 1 is also in team 1",
            ),
            (
                "number = 1\nname = \"A\"\nplayers = [1]\n[[team]]\nnumber = 1\nname = \"B\"\nplayers = [2]",
                "number = 1 is given twice",
            ),
            (
                "number = 1\nname = \"A\"\nplayers = [1]\n[[team]]\nnumber = 2\nname = \"a\"\nplayers = [2]",
                "`a` is listed twice",
            ),
            (
                "number = 1\nname = \"A\"\nplayers = [1]\ncaptain = 1",
                "unknown field `captain`",
            ),
            (
                "number = 1\nname = \"A\"\nplayers = [1]\n[team_match]\nboards = 0",
                "[team_match] boards = 0 is out of range: 1 to 99",
            ),
            (
                "number = 1\nname = \"A\"\nplayers = [1]\n[team_match]\nboards = 4\ncolours = \"WB\"",
                "unknown field `colours`",
            ),
        ];
        for (team, want) in cases {
            let err = Config::parse(&format!("{venue}[[team]]\n{team}\n")).unwrap_err();
            assert!(err.to_string().contains(want), "{err} lacks {want}");
        }
    }

    /// Players may leave out their table (they move from board to board);
    /// a name or a start rank listed twice, or a table the venue does not
    /// have, is refused naming it.
    #[test]
    fn players_without_tables_and_players_listed_twice() {
        let venue = "[[table]]\nid = \"1\"\n";
        let ok = Config::parse(&format!(
            "{venue}[[player]]\nname = \"Ana\"\nstart_rank = 1\n\
             [[player]]\nname = \"Bea\"\nstart_rank = 2\ntable = \"1\"\n"
        ))
        .unwrap();
        assert_eq!(ok.players[0].table, None);
        ok.check().unwrap();
        let twice = Config::parse(&format!(
            "{venue}[[player]]\nname = \"Ana\"\nstart_rank = 1\n\
             [[player]]\nname = \"ana \"\nstart_rank = 2\n"
        ))
        .unwrap_err();
        assert!(
            twice
                .to_string()
                .contains("[[player]] `ana ` is listed twice"),
            "{twice}"
        );
        let elsewhere = Config::parse(&format!(
            "{venue}[[player]]\nname = \"Ana\"\nstart_rank = 1\ntable = \"9\"\n"
        ))
        .unwrap_err();
        assert!(elsewhere.to_string().contains("`9`"), "{elsewhere}");
    }

    /// A pinned hello is a peg board's only, and must be one it can say.
    #[test]
    fn a_pinned_hello_is_for_a_peg_board() {
        let ok = Config::parse(
            "[[table]]\nid = \"1\"\nboard = \"peg:/dev/ttyACM0\"\nboard_hello = \"tactus-peg 0.1 E661\"\n",
        )
        .unwrap();
        assert_eq!(
            ok.tables[0].board_hello.as_deref(),
            Some("tactus-peg 0.1 E661")
        );
        for bad in [
            "board = \"dgt:/dev/ttyUSB0\"\nboard_hello = \"DGT\"",
            "board = \"peg:/dev/ttyACM0\"\nboard_hello = \" padded \"",
            "board = \"peg:/dev/ttyACM0\"\nboard_hello = \"\"",
            "opponent_board_hello = \"x\"",
        ] {
            let e = Config::parse(&format!("[[table]]\nid = \"1\"\n{bad}\n")).unwrap_err();
            assert!(
                e.to_string().contains("_hello pins a peg board"),
                "{bad}: {e}"
            );
        }
    }

    #[test]
    fn an_empty_file_is_the_embedded_defaults() {
        let c = Config::parse("").unwrap();
        assert_eq!(c, Config::default());
        assert_eq!(c.tables.len(), 1);
        assert_eq!(c.tables[0].blind, Color::Black);
        assert_eq!(c.tables[0].board, BoardSpec::Sim);
        assert_eq!(c.tables[0].control.to_string(), "90+30");
        assert_eq!(c.server.listen.to_string(), "127.0.0.1:8080");
    }

    #[test]
    fn the_example_venue_parses() {
        let text = include_str!("../../../config/venue.example.toml");
        let c = Config::parse(text).unwrap();
        assert!(c.tables.len() >= 3);
        assert!(
            c.tables
                .iter()
                .any(|t| matches!(t.opponent_board, BoardSpec::Dgt { .. }))
        );
        assert!(c.tables.iter().any(|t| matches!(
            &t.opponent_board,
            BoardSpec::Millennium {
                port: Port::Rfc2217 { .. },
                baud: 38400
            }
        )));
    }

    #[test]
    fn unknown_keys_are_named() {
        for (text, key) in [
            ("[server]\nlisten = \"127.0.0.1:1\"\nlisen = 1\n", "lisen"),
            ("[[table]]\nid = \"1\"\nblnd = \"white\"\n", "blnd"),
            ("colour = 1\n", "colour"),
        ] {
            let err = Config::parse(text).unwrap_err().to_string();
            assert!(err.contains(key), "{err}");
        }
    }

    #[test]
    fn bad_values_say_what_was_expected() {
        for (text, needle) in [
            (
                "[[table]]\nid = \"1\"\nblind = \"green\"\n",
                "white` or `black",
            ),
            ("[[table]]\nid = \"1\"\nboard = \"usb\"\n", "peg:PORT"),
            (
                "[[table]]\nid = \"1\"\nboard = \"peg:/dev/x@fast\"\n",
                "baud",
            ),
            ("[[table]]\nid = \"a b\"\n", "table id"),
            ("[[table]]\nid = \"1\"\n[[table]]\nid = \"1\"\n", "twice"),
            ("[speech]\naudio = \"loud\"\n", "wav:DIR"),
            ("[speech]\nspeed = 9.0\n", "speed"),
            ("[[table]]\nid = \"1\"\nsettle_ms = 5000\n", "settle_ms"),
            ("[speech]\nstyle = \"short\"\n", "standard"),
            ("[server]\nlisten = \"nowhere\"\n", "listen"),
            (
                "[[table]]\nid = \"1\"\nboard = \"peg:/dev/ttyUSB0\"\n[[table]]\nid = \"2\"\nboard = \"dgt:/dev/ttyUSB0\"\n",
                "two boards",
            ),
            ("[[table]\n", "table"),
            (
                "[[table]]\nid = \"1\"\nvariant = \"chess960\"\n",
                "start_position",
            ),
            (
                "[[table]]\nid = \"1\"\nvariant = \"chess960\"\nstart_position = 960\n",
                "0 to 959",
            ),
            ("[[table]]\nid = \"1\"\nstart_position = 3\n", "chess960"),
            ("[[table]]\nid = \"1\"\nvariant = \"atomic\"\n", "chess960"),
        ] {
            let err = Config::parse(text).unwrap_err().to_string();
            assert!(err.contains(needle), "{text:?}: {err}");
        }
    }

    #[test]
    fn a_chess960_table_names_its_start_position() {
        let c =
            Config::parse("[[table]]\nid = \"1\"\nvariant = \"chess960\"\nstart_position = 0\n")
                .unwrap();
        assert_eq!(c.tables[0].variant, Variant::Chess960);
        assert_eq!(c.tables[0].start_position, Some(0));
        // Read into the table's start: the position is the number's.
        assert_eq!(
            c.tables[0].start,
            Start::Chess960(Chess960Start::new(0).unwrap())
        );
        assert_eq!(c.tables[0].start.variant(), Variant::Chess960);
    }

    #[test]
    fn board_specs_round_trip() {
        for s in [
            "peg:/dev/ttyUSB0@9600",
            "dgt:/dev/ttyACM1@19200",
            "sim",
            "none",
        ] {
            assert_eq!(s.parse::<BoardSpec>().unwrap().to_string(), s);
        }
        assert_eq!(
            "peg:/dev/ttyUSB0".parse::<BoardSpec>().unwrap(),
            BoardSpec::Peg {
                port: Port::Serial("/dev/ttyUSB0".into()),
                baud: Protocol::Peg.default_baud()
            }
        );
        for s in [
            "peg:tcp://table3.local:3001",
            "dgt:rfc2217://10.0.0.7:3002@9600",
            "dgt:rfc2217://[::1]:3002@19200",
            "millennium:/dev/ttyACM0@38400",
            "millennium:tcp://pi:3003",
            "millennium:rfc2217://pi:3004@38400",
        ] {
            assert_eq!(s.parse::<BoardSpec>().unwrap().to_string(), s);
        }
        assert_eq!(
            "millennium:/dev/ttyUSB3".parse::<BoardSpec>().unwrap(),
            BoardSpec::Millennium {
                port: Port::Serial("/dev/ttyUSB3".into()),
                baud: 38400
            }
        );
        assert_eq!(
            "dgt:rfc2217://pi:7000".parse::<BoardSpec>().unwrap(),
            BoardSpec::Dgt {
                port: Port::Rfc2217 {
                    host: "pi".into(),
                    port: 7000
                },
                baud: Protocol::Dgt.default_baud()
            }
        );
    }

    #[test]
    fn bad_network_boards_name_the_key_and_the_fault() {
        for (board, needle) in [
            ("peg:tcp://pi", "tcp://HOST:PORT"),
            ("peg:tcp://pi:0", "tcp://HOST:PORT"),
            ("dgt:rfc2217://:3000", "rfc2217://HOST:PORT"),
            ("dgt:tcp://pi:3000@9600", "far end sets the speed"),
            ("dgt:telnet://pi:3000", "unknown scheme"),
            ("dgt:rfc2217://pi:3000@x", "baud"),
        ] {
            let text = format!("[[table]]\nid = \"1\"\nopponent_board = \"{board}\"\n");
            let err = Config::parse(&text).unwrap_err().to_string();
            assert!(
                err.contains(needle) && err.contains("opponent_board"),
                "{board}: {err}"
            );
        }
        let two = "[[table]]\nid = \"1\"\nboard = \"peg:tcp://pi:3000\"\n\
                   [[table]]\nid = \"2\"\nopponent_board = \"dgt:tcp://pi:3000\"\n";
        let err = Config::parse(two).unwrap_err().to_string();
        assert!(
            err.contains("two boards") && err.contains("opponent_board"),
            "{err}"
        );
    }
}
