//! The tokens file, `<data>/tokens.toml`: its shape, read and checked
//! (tokens too short or padded refused, naming them), the tokens that are
//! missing added, and written back through a rename, owner-only.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::service::security::codes::{CODE_LEN, code_of, normalise_code};
use crate::service::security::secret::Secret;

use crate::table::actions::PersonRole;
use crate::table::id::TableId;

use super::players::{CodeChange, Departed, Person, PersonEntry, bind_players, departed_of};
use super::{Seats, TableTokens, Tokens};

/// The file's shape: `[venue]` with `arbiter` (the chief arbiter's, valid
/// at every table and for the competition's rounds), then
/// `[tables.<id>]` with `player`, `assistant`, `arbiter`. Files written
/// before the venue token existed read without it; one is added.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct TokensFile {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    venue: Option<VenueTokens>,
    /// By table id: a key that is no table id makes the file unreadable.
    #[serde(default)]
    tables: BTreeMap<TableId, TableTokens>,
    /// Each listed player's own token, by start rank.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    players: BTreeMap<String, Secret>,
    /// The person each code in `players` was made for, by the same rank:
    /// their name and FIDE id. A code without one (a file from before)
    /// is bound to whoever the venue lists at its rank at the next start.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    people: BTreeMap<String, PersonEntry>,
    /// Codes of players no longer listed, by code: refused, with a reason
    /// that names them.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    departed: BTreeMap<String, Departed>,
    /// Each team captain's token, by team number (a team event's).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    captains: BTreeMap<String, Secret>,
}

/// The venue's own token: the arbiter who runs the competition (starts
/// rounds, reads and corrects every table).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct VenueTokens {
    arbiter: Secret,
}

/// Errors reading or writing the tokens file.
#[derive(Debug, thiserror::Error)]
pub enum TokenError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: {source}")]
    Malformed {
        path: PathBuf,
        #[source]
        source: BadTokens,
    },
    #[error("{path}: {source}")]
    Unwritable {
        path: PathBuf,
        #[source]
        source: toml::ser::Error,
    },
    #[error("no random source for tokens: {0}")]
    Random(getrandom::Error),
}

/// The text of a tokens file that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadTokens {
    /// Not TOML, or not a tokens file (TOML's message names the key).
    #[error("{0}")]
    Toml(#[from] toml::de::Error),
    /// A token that could never be presented or is too short to be secret.
    #[error(
        "{place}: the {role} token must be at least {MIN_TOKEN_LEN} characters without \
         spaces around it"
    )]
    Unusable { place: TokenPlace, role: PersonRole },
    /// A player's token that is not 16 symbols of Crockford's base 32, or
    /// keyed by something that is not a start rank.
    #[error(
        "[players] `{0}`: a player's token is keyed by their start rank and is 16 \
         letters and digits (0-9, a-z without i, l, o, u)"
    )]
    UnusablePlayer(String),
    /// A captain's token that is not a player's kind of code, or keyed by
    /// something that is not a team number.
    #[error(
        "[captains] `{0}`: a captain's token is keyed by their team's number and is 16 \
         letters and digits (0-9, a-z without i, l, o, u)"
    )]
    UnusableCaptain(String),
}

/// Where in a tokens file a token stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TokenPlace {
    /// `[venue]`: the venue arbiter's.
    Venue,
    /// `[tables.<id>]`.
    Table(TableId),
}

impl fmt::Display for TokenPlace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TokenPlace::Venue => f.write_str("[venue]"),
            TokenPlace::Table(id) => write!(f, "table `{id}`"),
        }
    }
}

/// The tokens file at `path`, or an empty one where there is none yet.
fn read_tokens_file(path: &Path) -> Result<TokensFile, TokenError> {
    match std::fs::read_to_string(path) {
        Ok(text) => parse_file(&text).map_err(|source| TokenError::Malformed {
            path: path.to_path_buf(),
            source,
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(TokensFile::default()),
        Err(source) => Err(TokenError::Io {
            path: path.to_path_buf(),
            source,
        }),
    }
}

impl TokensFile {
    /// Adds the venue's token, a token for every table in `tables` that
    /// has none and the opponent's key where both players may be blind,
    /// and drops any former lasting opponent's token: whether anything
    /// changed.
    fn add_missing(&mut self, tables: &[Seats]) -> Result<bool, TokenError> {
        let mut added = false;
        if self.venue.is_none() {
            self.venue = Some(VenueTokens {
                arbiter: random_token()?,
            });
            added = true;
        }
        for seats in tables {
            if !self.tables.contains_key(&seats.id) {
                self.tables
                    .insert(seats.id.clone(), TableTokens::generate()?);
                added = true;
            }
            if let Some(t) = self.tables.get_mut(&seats.id)
                && seats.second_blind
                && t.opponent_key.is_none()
            {
                t.opponent_key = Some(random_token()?);
                added = true;
            }
        }
        for t in self.tables.values_mut() {
            if t.former_opponent.take().is_some() {
                added = true;
            }
        }
        Ok(added)
    }

    /// Binds the players' codes to the people the venue lists
    /// (`bind_players`), keeping the codes of those no longer listed as
    /// departed: whether anything changed, and what changed in the codes.
    fn bind(&mut self, players: &[Person]) -> Result<(bool, Vec<CodeChange>), TokenError> {
        let (codes, people, changes) = bind_players(&self.players, &self.people, players)?;
        for (code, who) in departed_of(&self.players, &self.people, &codes) {
            self.departed.insert(code, who);
        }
        // A code given out again (an older file's, to whoever holds its
        // rank) is no longer a departed one's.
        self.departed
            .retain(|code, _| !codes.values().any(|c| c.expose() == code));
        if codes != self.players || people != self.people {
            self.players = codes;
            self.people = people;
            return Ok((true, changes));
        }
        Ok((false, changes))
    }
}

impl Tokens {
    /// Loads `path`, adds tokens for every table in `tables` that has none
    /// (and the opponent's key where both players may be blind), and writes
    /// the file back (owner-only) if anything was added or a former lasting
    /// opponent's token is to be dropped. Tokens of tables no
    /// longer configured are kept: their games may be resumed.
    pub fn load_or_create(
        path: &Path,
        tables: &[Seats],
        players: &[Person],
    ) -> Result<Tokens, TokenError> {
        let mut file = read_tokens_file(path)?;
        let added = file.add_missing(tables)?;
        let (rebound, changes) = file.bind(players)?;
        if added || rebound {
            write_private(path, &file)?;
        } else {
            keep_private(path).map_err(|source| TokenError::Io {
                path: path.to_path_buf(),
                source,
            })?;
        }
        let second_blind = tables
            .iter()
            .filter(|s| s.second_blind)
            .map(|s| s.id.clone())
            .collect();
        let departed = file
            .departed
            .iter()
            .map(|(code, d)| (Secret::new(code.clone()), d.start_rank, d.name.clone()))
            .collect();
        Ok(Tokens::of_file(file, second_blind, changes, departed))
    }

    /// The tokens a file holds, with what the venue adds to them: the
    /// tables where both players may be blind, what changed in the
    /// players' codes at this start, and the codes of players no longer
    /// listed. The journal's birth is set later (`in_journal`).
    fn of_file(
        file: TokensFile,
        second_blind: BTreeSet<TableId>,
        changes: Vec<CodeChange>,
        departed: Vec<(Secret, u16, String)>,
    ) -> Tokens {
        Tokens {
            venue_arbiter: file.venue.map(|v| v.arbiter),
            tables: file.tables,
            second_blind,
            players: file
                .players
                .iter()
                .filter_map(|(r, t)| Some((r.parse().ok()?, t.clone())))
                .collect(),
            changes,
            departed,
            journal: 0,
            captains: by_number(&file.captains),
        }
    }

    /// Reads the text of a tokens file (no file is touched). Tokens that
    /// could never be presented (blank, or with spaces around them, which the
    /// `Authorization` header trims) or that are too short to be secret are
    /// refused: a hand-edited `player = ""` must not open a table to anyone.
    /// No table is known to have two blind players: no opponent's token is
    /// valid in what is read here.
    pub fn parse(text: &str) -> Result<Tokens, BadTokens> {
        let file = parse_file(text)?;
        Ok(Tokens::of_file(
            file,
            BTreeSet::new(),
            Vec::new(),
            Vec::new(),
        ))
    }

    /// Adds a captain's token (`[captains]`, keyed by team number; a
    /// player's kind of code, typable from a braille card) for every team
    /// in `teams` that has none, writing the file at `path` back
    /// (owner-only) if any was added. A team event's only.
    pub fn add_captains(&mut self, path: &Path, teams: &[u16]) -> Result<(), TokenError> {
        if teams.iter().all(|t| self.captains.contains_key(t)) {
            return Ok(());
        }
        let text = std::fs::read_to_string(path).map_err(|source| TokenError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        let mut file = parse_file(&text).map_err(|source| TokenError::Malformed {
            path: path.to_path_buf(),
            source,
        })?;
        for team in teams {
            if let std::collections::btree_map::Entry::Vacant(e) =
                file.captains.entry(team.to_string())
            {
                e.insert(random_code()?);
            }
        }
        write_private(path, &file)?;
        self.captains = by_number(&file.captains);
        Ok(())
    }
}

/// Tokens keyed by a number in the file (checked when read).
fn by_number(keyed: &BTreeMap<String, Secret>) -> BTreeMap<u16, Secret> {
    keyed
        .iter()
        .filter_map(|(n, t)| Some((n.parse().ok()?, t.clone())))
        .collect()
}

/// The shortest token accepted from the file; generated ones have 32 hex
/// digits.
pub const MIN_TOKEN_LEN: usize = 16;

fn parse_file(text: &str) -> Result<TokensFile, BadTokens> {
    let file: TokensFile = toml::from_str(text)?;
    if let Some(v) = &file.venue
        && (v.arbiter.expose().trim() != v.arbiter.expose()
            || v.arbiter.expose().len() < MIN_TOKEN_LEN)
    {
        return Err(BadTokens::Unusable {
            place: TokenPlace::Venue,
            role: PersonRole::Arbiter,
        });
    }
    for (rank, token) in &file.players {
        let rank_ok = rank.parse::<u16>().is_ok_and(|r| r > 0);
        if !rank_ok || normalise_code(token.expose()).as_deref() != Some(token.expose()) {
            return Err(BadTokens::UnusablePlayer(rank.clone()));
        }
    }
    for (team, token) in &file.captains {
        let team_ok = team.parse::<u16>().is_ok_and(|t| t > 0);
        if !team_ok || normalise_code(token.expose()).as_deref() != Some(token.expose()) {
            return Err(BadTokens::UnusableCaptain(team.clone()));
        }
    }
    for (id, t) in &file.tables {
        let key = t.opponent_key.as_ref().map(|k| (PersonRole::Opponent, k));
        for (role, token) in t.all().chain(key) {
            let token = token.expose();
            if token.trim() != token || token.len() < MIN_TOKEN_LEN {
                return Err(BadTokens::Unusable {
                    place: TokenPlace::Table(id.clone()),
                    role,
                });
            }
        }
    }
    Ok(file)
}

/// A player's own token: 16 symbols of the codes' alphabet (80 bits).
pub(super) fn random_code() -> Result<Secret, TokenError> {
    let mut bytes = [0u8; CODE_LEN];
    getrandom::fill(&mut bytes).map_err(TokenError::Random)?;
    Ok(Secret::new(code_of(&bytes)))
}

pub(super) fn random_token() -> Result<Secret, TokenError> {
    Secret::generate().map_err(TokenError::Random)
}

/// Writes the file through a temporary and a rename so a crash never leaves
/// half a tokens file, readable by its owner only.
fn write_private(path: &Path, file: &TokensFile) -> Result<(), TokenError> {
    let io = |source| TokenError::Io {
        path: path.to_path_buf(),
        source,
    };
    let text = toml::to_string(file).map_err(|source| TokenError::Unwritable {
        path: path.to_path_buf(),
        source,
    })?;
    crate::service::security::private_file::write(
        path,
        &[
            b"# Access tokens of every table: give each person only their own.\n\
              # Delete a table's entry to have new tokens made at the next start.\n\n",
            text.as_bytes(),
        ],
    )
    .map_err(io)
}

/// Makes an existing tokens file owner-only if it is not, with a warning.
fn keep_private(path: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let meta = match std::fs::symlink_metadata(path) {
            Ok(m) => m,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(e),
        };
        let mode = meta.permissions().mode() & 0o777;
        if meta.is_file() && mode & 0o077 != 0 {
            tracing::warn!(
                "{} was readable by others (mode {mode:o}): made owner-only (0600)",
                path.display()
            );
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))?;
        }
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}
