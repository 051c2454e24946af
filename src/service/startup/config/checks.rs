//! Reading a venue file: TOML and serde first, then what serde cannot
//! see (ids unique, no two boards on one port, a sane speed, the players
//! and teams consistent), each refusal naming the table and the key.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use tactus_rules::variant::{Chess960Start, Start, Variant};

use super::{BoardSpec, Config, TableConfig};

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
}
