//! Access tokens: per table one for the player, one for the assistant and one
//! for the arbiter, generated at first start and kept in
//! `<data>/tokens.toml`; they last the whole event. When both players are
//! blind the second blind player is a different person each round, so
//! their token belongs to one game: it is derived from a secret key of the
//! table (kept in the file, never shown) and the number of the table's
//! game, HMAC-SHA-256 of `opponent/<table>/<game>` cut to 32 hex digits.
//! Nothing is stored per game and nothing is rewritten when a game starts:
//! the next game's number gives the next token, and the last one stops
//! working. Reads are open; every write names its role's token.
//!
//! Each listed player of a competition (`[[player]]`) has a token of their
//! own for the whole event (`[players]`, keyed by start rank): it follows
//! them from board to board. It is 16 letters and digits of Crockford's
//! base 32 (no `i`, `l`, `o`, `u`), read in any case and with any dashes,
//! so that a braille reader can type the link on their card as they read
//! it (BRF has no capitals): `/p/7k3m-q9xa-2bcd-efgh`. A team event's
//! captains have one each, of the same kind (`[captains]`, keyed by team
//! number): `/c/…`.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::service::security::codes::{CODE_LEN, card_code, code_of, normalise_code};
use crate::service::security::secret::Secret;

use crate::table::actions::PersonRole;
use crate::table::id::TableId;

/// The tokens of one table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableTokens {
    pub player: Secret,
    pub assistant: Secret,
    pub arbiter: Secret,
    /// The key the second blind player's token of each game is derived
    /// from ([`opponent_token`]), made once a table has two tactile boards.
    /// A secret that is never a token itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    opponent_key: Option<Secret>,
    /// The one lasting opponent's token files held before tokens were per
    /// game: read, never honoured (it was handed out, so it cannot be the
    /// key either), and dropped when the file is next written.
    #[serde(default, rename = "opponent", skip_serializing)]
    former_opponent: Option<Secret>,
}

impl TableTokens {
    fn generate() -> Result<TableTokens, TokenError> {
        Ok(TableTokens {
            player: random_token()?,
            assistant: random_token()?,
            arbiter: random_token()?,
            opponent_key: None,
            former_opponent: None,
        })
    }

    /// Every lasting role's token.
    fn all(&self) -> impl Iterator<Item = (PersonRole, &Secret)> {
        [
            (PersonRole::Player, &self.player),
            (PersonRole::Assistant, &self.assistant),
            (PersonRole::Arbiter, &self.arbiter),
        ]
        .into_iter()
    }

    /// The lasting role whose token `presented` is (the opponent's is per
    /// game: [`Tokens::opponent_at`]). Every token is compared in constant
    /// time and all are always compared, so the time taken says nothing
    /// about how much of a guess was right.
    pub fn role_of(&self, presented: &str) -> Option<PersonRole> {
        let mut found = None;
        for (role, token) in self.all() {
            if token.matches(presented) {
                found = Some(role);
            }
        }
        found
    }
}

/// A table that needs tokens, and whether it has two tactile boards (both
/// players may be blind: the second has a token of each game).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seats {
    pub id: TableId,
    pub second_blind: bool,
}

/// A table with one blind player.
impl From<TableId> for Seats {
    fn from(id: TableId) -> Seats {
        Seats {
            id,
            second_blind: false,
        }
    }
}

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

/// A player no longer listed, as their code last knew them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Departed {
    name: String,
    start_rank: u16,
}

/// Who a player's code was made for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PersonEntry {
    name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    fide_id: Option<u64>,
}

impl PersonEntry {
    fn identity(&self) -> Identity {
        Identity::of(&self.name, self.fide_id)
    }
}

/// A listed player as the venue file lists them: who a code belongs to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Person {
    pub start_rank: u16,
    pub name: String,
    pub fide_id: Option<u64>,
}

/// Who a person is, for their code: their FIDE id where the venue gives
/// one, else their name (letters' case and spacing aside).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Identity {
    Fide(u64),
    Name(String),
}

impl Identity {
    fn of(name: &str, fide_id: Option<u64>) -> Identity {
        match fide_id {
            Some(id) => Identity::Fide(id),
            None => Identity::Name(
                name.split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ")
                    .to_lowercase(),
            ),
        }
    }
}

/// What changed in the players' codes at this start, for the venue
/// arbiter's page and the log: new cards are printed for these.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "change", rename_all = "snake_case")]
pub enum CodeChange {
    /// The pairing program renumbered them: their code follows them.
    Moved { name: String, from: u16, to: u16 },
    /// Their rank was another person's: a new code for them, and the
    /// other person's is refused from now on.
    Replaced {
        rank: u16,
        name: String,
        before: String,
    },
    /// Newly listed: a new code.
    New { rank: u16, name: String },
}

impl fmt::Display for CodeChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CodeChange::Moved { name, from, to } => write!(
                f,
                "{name}: start rank {from} is now {to}; their code follows them (reprint their card)"
            ),
            CodeChange::Replaced { rank, name, before } => write!(
                f,
                "start rank {rank} is now {name}, not {before}: {name} has a new code, \
                 {before}'s is refused (print {name}'s card)"
            ),
            CodeChange::New { rank, name } => {
                write!(
                    f,
                    "{name} (start rank {rank}) is newly listed: print their card"
                )
            }
        }
    }
}

/// The players' codes and their people for `listed`, from the file's
/// `codes` and `people`: each person keeps their code whatever their rank;
/// a code bound to nobody (an older file) goes to whoever holds its rank
/// now; anyone else gets a new code. Codes of people no longer listed are
/// dropped: they are refused.
#[allow(clippy::type_complexity)]
fn bind_players(
    codes: &BTreeMap<String, Secret>,
    people: &BTreeMap<String, PersonEntry>,
    listed: &[Person],
) -> Result<
    (
        BTreeMap<String, Secret>,
        BTreeMap<String, PersonEntry>,
        Vec<CodeChange>,
    ),
    TokenError,
> {
    let (mut out_codes, mut out_people) = (BTreeMap::new(), BTreeMap::new());
    let mut changes = Vec::new();
    // The old ranks already given to someone: two people listed under one
    // name never share a code.
    let mut used = BTreeSet::new();
    for p in listed {
        let me = Identity::of(&p.name, p.fide_id);
        let rank_key = p.start_rank.to_string();
        let theirs = people
            .iter()
            .find(|(r, e)| !used.contains(*r) && e.identity() == me && codes.contains_key(*r))
            .map(|(r, _)| r.clone());
        let code = if let Some(r) = theirs {
            if r != rank_key {
                changes.push(CodeChange::Moved {
                    name: p.name.clone(),
                    from: r.parse().unwrap_or(0),
                    to: p.start_rank,
                });
            }
            used.insert(r.clone());
            codes[&r].clone()
        } else {
            match (codes.get(&rank_key), people.get(&rank_key)) {
                (Some(code), None) if !used.contains(&rank_key) => {
                    used.insert(rank_key.clone());
                    code.clone()
                }
                (Some(_), Some(before)) => {
                    changes.push(CodeChange::Replaced {
                        rank: p.start_rank,
                        name: p.name.clone(),
                        before: before.name.clone(),
                    });
                    random_code()?
                }
                _ => {
                    if !codes.is_empty() {
                        changes.push(CodeChange::New {
                            rank: p.start_rank,
                            name: p.name.clone(),
                        });
                    }
                    random_code()?
                }
            }
        };
        out_codes.insert(rank_key.clone(), code);
        out_people.insert(
            rank_key,
            PersonEntry {
                name: p.name.clone(),
                fide_id: p.fide_id,
            },
        );
    }
    Ok((out_codes, out_people, changes))
}

/// The codes of `codes` that no listed person kept (`kept`): their people
/// are no longer listed.
fn departed_of(
    codes: &BTreeMap<String, Secret>,
    people: &BTreeMap<String, PersonEntry>,
    kept: &BTreeMap<String, Secret>,
) -> Vec<(String, Departed)> {
    codes
        .iter()
        .filter(|(_, code)| !kept.values().any(|k| k == *code))
        .map(|(rank, code)| {
            (
                code.expose().to_owned(),
                Departed {
                    name: people.get(rank).map(|p| p.name.clone()).unwrap_or_default(),
                    start_rank: rank.parse().unwrap_or(0),
                },
            )
        })
        .collect()
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

/// Every table's tokens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tokens {
    /// The venue arbiter's token (absent only in a file read with
    /// [`Tokens::parse`] that has none).
    venue_arbiter: Option<Secret>,
    tables: BTreeMap<TableId, TableTokens>,
    /// The tables with two tactile boards now: only there is a second
    /// blind player's token valid.
    second_blind: BTreeSet<TableId>,
    /// The players' own tokens, by start rank, each bound to the person
    /// the venue lists there (`bind_players`).
    players: BTreeMap<u16, Secret>,
    /// What changed in the players' codes at this start.
    changes: Vec<CodeChange>,
    /// The codes of players no longer listed: (code, last start rank, name).
    departed: Vec<(Secret, u16, String)>,
    /// The birth of the journal the tables' game numbers count in (see
    /// [`Tokens::in_journal`]); 0 until it is set.
    journal: u64,
    /// The team captains' tokens, by team number.
    captains: BTreeMap<u16, Secret>,
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
        Ok(Tokens {
            venue_arbiter: file.venue.map(|v| v.arbiter),
            tables: file.tables,
            second_blind: tables
                .iter()
                .filter(|s| s.second_blind)
                .map(|s| s.id.clone())
                .collect(),
            players: file
                .players
                .iter()
                .filter_map(|(r, t)| Some((r.parse().ok()?, t.clone())))
                .collect(),
            changes,
            departed: file
                .departed
                .iter()
                .map(|(code, d)| (Secret::new(code.clone()), d.start_rank, d.name.clone()))
                .collect(),
            journal: 0,
            captains: by_number(&file.captains),
        })
    }

    /// The player no longer listed whose code `presented` was, as (their
    /// last start rank, their name); every code compared in constant time.
    pub fn departed(&self, presented: &str) -> Option<(u16, &str)> {
        let presented = normalise_code(presented)?;
        let mut found = None;
        for (code, rank, name) in &self.departed {
            if code.matches(&presented) {
                found = Some((*rank, name.as_str()));
            }
        }
        found
    }

    /// What changed in the players' codes at this start (a renumbering, a
    /// rank given to another person, a new player): new cards to print.
    pub fn code_changes(&self) -> &[CodeChange] {
        &self.changes
    }

    /// These tokens for the games of the journal born `birth`
    /// (`Journal::birth`): the second blind player's tokens are that
    /// journal's games'.
    pub fn in_journal(mut self, birth: u64) -> Tokens {
        self.journal = birth;
        self
    }

    /// The table and lasting role whose card code `typed` is (as a braille
    /// reader may type it: [`normalise_code`]); every code compared, in
    /// constant time.
    pub fn card_holder(&self, typed: &str) -> Option<(TableId, PersonRole)> {
        let typed = Secret::new(normalise_code(typed)?);
        let mut found = None;
        for (id, t) in &self.tables {
            for (role, token) in t.all() {
                if typed.matches(&card_code(token)) {
                    found = Some((id.clone(), role));
                }
            }
        }
        found
    }

    /// Reads the text of a tokens file (no file is touched). Tokens that
    /// could never be presented (blank, or with spaces around them, which the
    /// `Authorization` header trims) or that are too short to be secret are
    /// refused: a hand-edited `player = ""` must not open a table to anyone.
    /// No table is known to have two blind players: no opponent's token is
    /// valid in what is read here.
    pub fn parse(text: &str) -> Result<Tokens, BadTokens> {
        let file = parse_file(text)?;
        Ok(Tokens {
            venue_arbiter: file.venue.map(|v| v.arbiter),
            tables: file.tables,
            second_blind: BTreeSet::new(),
            players: file
                .players
                .iter()
                .filter_map(|(r, t)| Some((r.parse().ok()?, t.clone())))
                .collect(),
            changes: Vec::new(),
            departed: Vec::new(),
            journal: 0,
            captains: by_number(&file.captains),
        })
    }

    /// The ids of the tables that have tokens, in order.
    pub fn table_ids(&self) -> impl Iterator<Item = &TableId> {
        self.tables.keys()
    }

    /// The tokens of one table.
    pub fn table(&self, id: &TableId) -> Option<&TableTokens> {
        self.tables.get(id)
    }

    /// The lasting role `presented` grants at table `id`, if any: the
    /// player's, the assistant's, the arbiter's (the venue arbiter's token
    /// included). The second blind player's token is per game: see
    /// [`Tokens::opponent_at`].
    pub fn role_of(&self, id: &TableId, presented: &str) -> Option<PersonRole> {
        let tokens = self.tables.get(id)?;
        // The venue arbiter is the arbiter at every table.
        if self.is_venue_arbiter(presented) {
            return Some(PersonRole::Arbiter);
        }
        tokens.role_of(presented)
    }

    /// Whether table `id` has a second blind player (two tactile boards),
    /// whose token is then per game.
    pub fn has_second_blind(&self, id: &TableId) -> bool {
        self.opponent_key(id).is_some()
    }

    /// Whether `presented` is the second blind player's token of game
    /// `game` at table `id` (compared in constant time). Only the table's
    /// current game must be asked: a token of an earlier game is then
    /// refused like any wrong token.
    pub fn opponent_at(&self, id: &TableId, game: u32, presented: &str) -> bool {
        let Some(presented) = normalise_code(presented) else {
            return false;
        };
        self.opponent_token(id, game)
            .is_some_and(|t| Secret::new(t).matches(&presented))
    }

    /// The second blind player's token of game `game` at table `id`, if it
    /// has two tactile boards: for the start-up text, the cards and the
    /// arbiter, who hands it to that game's player.
    pub fn opponent_token(&self, id: &TableId, game: u32) -> Option<String> {
        Some(opponent_token(
            self.opponent_key(id)?,
            id,
            self.journal,
            game,
        ))
    }

    fn opponent_key(&self, id: &TableId) -> Option<&str> {
        if !self.second_blind.contains(id) {
            return None;
        }
        self.tables
            .get(id)?
            .opponent_key
            .as_ref()
            .map(Secret::expose)
    }

    /// Whether `presented` is the venue arbiter's token (compared in
    /// constant time).
    pub fn is_venue_arbiter(&self, presented: &str) -> bool {
        self.venue_arbiter
            .as_ref()
            .is_some_and(|t| t.matches(presented))
    }

    /// Listed player `rank`'s own token, for the start-up text and their
    /// card.
    pub fn player_token(&self, rank: u16) -> Option<&str> {
        self.players.get(&rank).map(Secret::expose)
    }

    /// The listed player whose own token `presented` is, read as a braille
    /// reader may type it ([`normalise_code`]); every token compared, in
    /// constant time.
    pub fn player_of(&self, presented: &str) -> Option<u16> {
        let presented = normalise_code(presented)?;
        let mut found = None;
        for (rank, token) in &self.players {
            if token.matches(&presented) {
                found = Some(*rank);
            }
        }
        found
    }

    /// Whether `presented` is any lasting token this venue knows: the venue
    /// arbiter's, a table's (player, assistant, arbiter) or a listed
    /// player's own. Every one is compared, in constant time. A crowded
    /// server serves these first.
    pub fn knows(&self, presented: &str) -> bool {
        let mut known = self.is_venue_arbiter(presented);
        for t in self.tables.values() {
            known |= t.role_of(presented).is_some();
        }
        known |= self.player_of(presented).is_some();
        known |= self.captain_of(presented).is_some();
        known
    }

    /// The venue arbiter's token, for the start-up text.
    pub fn venue_arbiter(&self) -> Option<&str> {
        self.venue_arbiter.as_ref().map(Secret::expose)
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

    /// Team `team`'s captain's token, for the start-up text and the card.
    pub fn captain_token(&self, team: u16) -> Option<&str> {
        self.captains.get(&team).map(Secret::expose)
    }

    /// The team whose captain's token `presented` is, read as a braille
    /// reader may type it; every token compared, in constant time.
    pub fn captain_of(&self, presented: &str) -> Option<u16> {
        let presented = normalise_code(presented)?;
        let mut found = None;
        for (team, token) in &self.captains {
            if token.matches(&presented) {
                found = Some(*team);
            }
        }
        found
    }
}

/// Tokens keyed by a number in the file (checked when read).
fn by_number(keyed: &BTreeMap<String, Secret>) -> BTreeMap<u16, Secret> {
    keyed
        .iter()
        .filter_map(|(n, t)| Some((n.parse().ok()?, t.clone())))
        .collect()
}

/// The second blind player's token of game `game` at table `table` in
/// the journal born `journal`: HMAC-SHA-256 keyed with the table's
/// opponent key over `opponent/<table>/<journal>/<game>`, as a 16-symbol
/// code a braille reader can type (the players' codes' alphabet). Whoever
/// holds one game's token learns nothing of another's; game numbers start
/// again in a new journal (a rehearsal, a restored backup: each has a
/// birth of its own), and its tokens are new.
fn opponent_token(key: &str, table: &TableId, journal: u64, game: u32) -> String {
    let key = ring::hmac::Key::new(ring::hmac::HMAC_SHA256, key.as_bytes());
    let tag = ring::hmac::sign(
        &key,
        format!("opponent/{table}/{journal:016x}/{game}").as_bytes(),
    );
    code_of(&tag.as_ref()[..CODE_LEN])
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
fn random_code() -> Result<Secret, TokenError> {
    let mut bytes = [0u8; CODE_LEN];
    getrandom::fill(&mut bytes).map_err(TokenError::Random)?;
    Ok(Secret::new(code_of(&bytes)))
}

fn random_token() -> Result<Secret, TokenError> {
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

#[cfg(test)]
mod tests {
    /// A table id for the tests.
    fn tid(text: &str) -> TableId {
        text.parse().unwrap()
    }

    use super::*;
    use crate::service::security::codes::grouped_code;

    /// Listed players by (start rank, name).
    fn people(list: &[(u16, &str)]) -> Vec<Person> {
        list.iter()
            .map(|(rank, name)| Person {
                start_rank: *rank,
                name: (*name).to_owned(),
                fide_id: None,
            })
            .collect()
    }

    #[test]
    fn a_player_s_code_belongs_to_the_person_not_the_rank() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.toml");
        // An older file: codes by rank alone. Bound at this start to whoever
        // the venue lists there.
        std::fs::write(
            &path,
            "[players]\n1 = \"aaaaaaaaaaaaaaaa\"\n2 = \"bbbbbbbbbbbbbbbb\"\n",
        )
        .unwrap();
        let t = Tokens::load_or_create(&path, &[], &people(&[(1, "Ana"), (2, "Bea")])).unwrap();
        assert_eq!(t.player_of("aaaaaaaaaaaaaaaa"), Some(1));
        assert!(t.code_changes().is_empty());
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("name = \"Ana\""), "{text}");
        assert!(
            text.contains("1 = \"aaaaaaaaaaaaaaaa\""),
            "the codes as before: {text}"
        );
        // The pairing program renumbers: Ana and Bea swap ranks 1 and 2.
        let t = Tokens::load_or_create(&path, &[], &people(&[(1, "Bea"), (2, "Ana")])).unwrap();
        assert_eq!(
            t.player_of("aaaaaaaaaaaaaaaa"),
            Some(2),
            "Ana's code is Ana's"
        );
        assert_eq!(t.player_of("bbbbbbbbbbbbbbbb"), Some(1));
        assert_eq!(t.code_changes().len(), 2);
        assert!(
            t.code_changes()[0].to_string().contains("Bea"),
            "{:?}",
            t.code_changes()
        );
        // Bea drops out and Carl is given rank 1: a new code for Carl, and
        // Bea's is refused.
        let t = Tokens::load_or_create(&path, &[], &people(&[(1, "Carl"), (2, "Ana")])).unwrap();
        assert_eq!(
            t.player_of("bbbbbbbbbbbbbbbb"),
            None,
            "a dropped player's code"
        );
        assert_eq!(
            t.departed("BBBB-BBBB-BBBB-BBBB"),
            Some((1, "Bea")),
            "named when refused"
        );
        let carl = t.player_token(1).unwrap().to_owned();
        assert_ne!(carl, "bbbbbbbbbbbbbbbb");
        assert!(matches!(
            &t.code_changes()[0],
            CodeChange::Replaced { rank: 1, name, before } if name == "Carl" && before == "Bea"
        ));
        // A FIDE id decides over the name (a spelling corrected).
        let fide = |name: &str| Person {
            start_rank: 1,
            name: name.into(),
            fide_id: Some(4_100_018),
        };
        let t = Tokens::load_or_create(&path, &[], &[fide("Carl")]).unwrap();
        let code = t.player_token(1).unwrap().to_owned();
        assert_ne!(
            code, carl,
            "bound now to the FIDE id, a new person to the file"
        );
        let t = Tokens::load_or_create(&path, &[], &[fide("Karl")]).unwrap();
        assert_eq!(t.player_token(1), Some(code.as_str()));
        assert!(t.code_changes().is_empty());
    }

    /// Tables with one blind player each.
    fn seats(ids: &[&str]) -> Vec<Seats> {
        ids.iter()
            .map(|id| Seats::from(id.parse::<TableId>().unwrap()))
            .collect()
    }

    #[test]
    fn tokens_are_made_once_and_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tokens.toml");
        let a = Tokens::load_or_create(&path, &seats(&["1"]), &[]).unwrap();
        let t1 = a.table(&tid("1")).unwrap().clone();
        assert_eq!(t1.player.expose().len(), 32);
        assert_ne!(t1.player, t1.assistant);
        assert_ne!(t1.assistant, t1.arbiter);
        let b = Tokens::load_or_create(&path, &seats(&["1", "2"]), &[]).unwrap();
        assert_eq!(b.table(&tid("1")), Some(&t1));
        assert!(b.table(&tid("2")).is_some());
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.contains("[tables.1]") || text.contains("[tables.\"1\"]"),
            "{text}"
        );
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }

    #[cfg(unix)]
    #[test]
    fn an_open_tokens_file_and_a_leftover_temporary_end_owner_only() {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tokens.toml");
        Tokens::load_or_create(&path, &seats(&["1"]), &[]).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        Tokens::load_or_create(&path, &seats(&["1"]), &[]).unwrap();
        assert_eq!(mode(&path), 0o600, "an existing file is fixed");
        // A leftover temporary, readable by all, and one that is a link.
        let tmp = path.with_extension("toml.tmp");
        std::fs::write(&tmp, "old").unwrap();
        std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o644)).unwrap();
        Tokens::load_or_create(&path, &seats(&["1", "2"]), &[]).unwrap();
        assert_eq!(mode(&path), 0o600, "written through a leftover temporary");
        let target = dir.path().join("elsewhere");
        std::fs::write(&target, "keep").unwrap();
        std::os::unix::fs::symlink(&target, &tmp).unwrap();
        Tokens::load_or_create(&path, &seats(&["1", "2", "3"]), &[]).unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep");
        assert_eq!(mode(&path), 0o600);
        assert!(
            Tokens::load_or_create(&path, &[], &[])
                .unwrap()
                .table(&tid("3"))
                .is_some()
        );
    }

    #[test]
    fn the_venue_arbiter_token_is_made_once_added_to_old_files_and_is_arbiter_everywhere() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tokens.toml");
        // A file written before the venue token existed keeps its tables'
        // tokens and gains a venue token.
        let old = "[tables.1]\nplayer = \"pppppppppppppppppppp\"\n\
                   assistant = \"aaaaaaaaaaaaaaaaaaaa\"\narbiter = \"rrrrrrrrrrrrrrrrrrrr\"\n";
        std::fs::write(&path, old).unwrap();
        let a = Tokens::load_or_create(&path, &seats(&["1", "2"]), &[]).unwrap();
        assert_eq!(
            a.table(&tid("1")).unwrap().player.expose(),
            "pppppppppppppppppppp"
        );
        let venue = a.venue_arbiter().expect("a venue token").to_owned();
        assert_eq!(venue.len(), 32);
        let b = Tokens::load_or_create(&path, &seats(&["1", "2"]), &[]).unwrap();
        assert_eq!(b.venue_arbiter(), Some(venue.as_str()), "kept");
        assert!(b.is_venue_arbiter(&venue));
        assert!(!b.is_venue_arbiter(&venue[..31]));
        assert!(!b.is_venue_arbiter(b.table(&tid("1")).unwrap().arbiter.expose()));
        for id in ["1", "2"] {
            assert_eq!(
                b.role_of(&tid(id), &venue),
                Some(PersonRole::Arbiter),
                "{id}"
            );
        }
        assert_eq!(b.role_of(&tid("3"), &venue), None, "no such table");
        // A short hand-edited venue token is refused, naming it.
        let err = Tokens::parse("[venue]\narbiter = \"short\"\n").unwrap_err();
        assert!(err.to_string().contains("[venue]"), "{err}");
    }

    #[test]
    fn roles_are_told_apart_and_wrong_tokens_refused() {
        let dir = tempfile::tempdir().unwrap();
        let tokens =
            Tokens::load_or_create(&dir.path().join("t.toml"), &seats(&["a"]), &[]).unwrap();
        let t = tokens.table(&tid("a")).unwrap().clone();
        assert_eq!(
            tokens.role_of(&tid("a"), t.player.expose()),
            Some(PersonRole::Player)
        );
        assert_eq!(
            tokens.role_of(&tid("a"), t.assistant.expose()),
            Some(PersonRole::Assistant)
        );
        assert_eq!(
            tokens.role_of(&tid("a"), t.arbiter.expose()),
            Some(PersonRole::Arbiter)
        );
        assert_eq!(tokens.role_of(&tid("a"), ""), None);
        assert_eq!(tokens.role_of(&tid("a"), &t.arbiter.expose()[..31]), None);
        assert_eq!(tokens.role_of(&tid("b"), t.arbiter.expose()), None);
        // Secrets: never in a log or a panic.
        let shown = format!("{t:?} {tokens:?}");
        for secret in [&t.player, &t.assistant, &t.arbiter] {
            assert!(!shown.contains(secret.expose()), "{shown}");
        }
    }

    #[test]
    fn the_second_blind_players_token_belongs_to_one_game_only() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tokens.toml");
        let two = |second_blind: bool| {
            [Seats {
                id: "1".parse().unwrap(),
                second_blind,
            }]
        };
        let one = Tokens::load_or_create(&path, &two(false), &[]).unwrap();
        assert!(!one.has_second_blind(&tid("1")));
        assert_eq!(one.opponent_token(&tid("1"), 1), None);
        let both = Tokens::load_or_create(&path, &two(true), &[]).unwrap();
        let t = both.table(&tid("1")).unwrap().clone();
        assert_eq!(t.player, one.table(&tid("1")).unwrap().player, "kept");
        let g1 = both
            .opponent_token(&tid("1"), 1)
            .expect("two tactile boards");
        let g2 = both.opponent_token(&tid("1"), 2).unwrap();
        assert_eq!(normalise_code(&g1).as_deref(), Some(g1.as_str()), "a code");
        assert_ne!(g1, g2, "a token for each game");
        // As a braille reader types it from a card: capitals, dashes.
        assert!(both.opponent_at(&tid("1"), 1, &grouped_code(&g1).to_uppercase()));
        // Another journal (a rehearsal, a restored backup) numbers its
        // games from 1 again: its tokens are others.
        let reborn = Tokens::load_or_create(&path, &two(true), &[])
            .unwrap()
            .in_journal(7);
        assert!(!reborn.opponent_at(&tid("1"), 1, &g1));
        assert_ne!(reborn.opponent_token(&tid("1"), 1), Some(g1.clone()));
        for lasting in [&t.player, &t.assistant, &t.arbiter] {
            assert!(!lasting.matches(&g1));
        }
        // Each game's token in its game only, never as a lasting role.
        assert!(both.opponent_at(&tid("1"), 1, &g1));
        assert!(!both.opponent_at(&tid("1"), 2, &g1), "round 1's, in game 2");
        assert!(both.opponent_at(&tid("1"), 2, &g2));
        assert!(!both.opponent_at(&tid("1"), 1, &g2));
        assert!(!both.opponent_at(&tid("1"), 1, &g1[..15]));
        assert!(!both.opponent_at(&tid("2"), 1, &g1), "no such table");
        assert_eq!(both.role_of(&tid("1"), &g1), None);
        assert_eq!(
            both.role_of(&tid("1"), t.player.expose()),
            Some(PersonRole::Player)
        );
        // The key is a secret, never a token; the file keeps it, so a
        // restart gives the same tokens.
        let key = t.opponent_key.clone().expect("a key");
        assert!(!both.opponent_at(&tid("1"), 1, key.expose()));
        let again = Tokens::load_or_create(&path, &two(true), &[]).unwrap();
        assert_eq!(again.opponent_token(&tid("1"), 1), Some(g1.clone()));
        assert_eq!(again.opponent_token(&tid("1"), 2), Some(g2));
        // Another table's key gives other tokens.
        let other = dir.path().join("other.toml");
        let elsewhere = Tokens::load_or_create(&other, &two(true), &[]).unwrap();
        assert_ne!(elsewhere.opponent_token(&tid("1"), 1), Some(g1.clone()));
        // The table has one blind player again: no opponent's token at all.
        let back = Tokens::load_or_create(&path, &two(false), &[]).unwrap();
        assert!(!back.opponent_at(&tid("1"), 1, &g1));
        assert_eq!(back.opponent_token(&tid("1"), 1), None);
        assert_eq!(back.table(&tid("1")).unwrap().opponent_key, Some(key));
    }

    #[test]
    fn captains_get_a_typable_token_each_kept_across_starts() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tokens.toml");
        let mut t =
            Tokens::load_or_create(&path, &seats(&["1"]), &people(&[(1, "Ana"), (2, "Bea")]))
                .unwrap();
        assert_eq!(t.captain_token(1), None);
        t.add_captains(&path, &[1, 7]).unwrap();
        let one = t.captain_token(1).unwrap().to_owned();
        let seven = t.captain_token(7).unwrap().to_owned();
        assert_ne!(one, seven);
        assert_eq!(one.len(), CODE_LEN);
        // As a braille reader types the card: capitals, dashes.
        assert_eq!(t.captain_of(&grouped_code(&one).to_uppercase()), Some(1));
        assert_eq!(t.captain_of(&seven), Some(7));
        assert!(t.knows(&seven));
        // A captain's token is no player's, and the reverse.
        assert_eq!(t.player_of(&seven), None);
        assert_eq!(t.captain_of(t.player_token(1).unwrap()), None);
        // The next start keeps them; the players' tokens are kept too.
        let mut again =
            Tokens::load_or_create(&path, &seats(&["1"]), &people(&[(1, "Ana"), (2, "Bea")]))
                .unwrap();
        again.add_captains(&path, &[1, 7]).unwrap();
        assert_eq!(again.captain_token(1), Some(one.as_str()));
        assert_eq!(again.player_token(1), t.player_token(1));
        // A hand-edited file with a captain's token that is not a code.
        assert_eq!(
            Tokens::parse("[captains]\n3 = \"short\"\n").unwrap_err(),
            BadTokens::UnusableCaptain("3".into())
        );
    }

    #[test]
    fn a_lasting_opponent_token_from_an_older_file_is_dropped_never_honoured() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tokens.toml");
        let old = "[venue]\narbiter = \"vvvvvvvvvvvvvvvvvvvv\"\n[tables.1]\n\
                   player = \"pppppppppppppppppppp\"\nassistant = \"aaaaaaaaaaaaaaaaaaaa\"\n\
                   arbiter = \"rrrrrrrrrrrrrrrrrrrr\"\nopponent = \"oooooooooooooooooooo\"\n";
        std::fs::write(&path, old).unwrap();
        let seats = [Seats {
            id: "1".parse().unwrap(),
            second_blind: true,
        }];
        let t = Tokens::load_or_create(&path, &seats, &[]).unwrap();
        assert_eq!(
            t.role_of(&tid("1"), "pppppppppppppppppppp"),
            Some(PersonRole::Player)
        );
        for game in 1..=3 {
            assert!(!t.opponent_at(&tid("1"), game, "oooooooooooooooooooo"));
        }
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(!text.contains("oooo"), "{text}");
        assert!(text.contains("opponent_key"), "{text}");
    }

    #[test]
    fn blank_short_or_padded_tokens_are_refused() {
        let good = "0123456789abcdef0123456789abcdef";
        let file = |player: &str| {
            format!(
                "[tables.1]\nplayer = \"{player}\"\nassistant = \"{good}a\"\narbiter = \"{good}b\"\n"
            )
        };
        let t = Tokens::parse(&file(good)).unwrap();
        assert_eq!(t.role_of(&tid("1"), good), Some(PersonRole::Player));
        assert_eq!(
            t.table_ids().map(TableId::as_str).collect::<Vec<_>>(),
            ["1"]
        );
        for bad in ["", "short", " 0123456789abcdef", "0123456789abcdef "] {
            let err = Tokens::parse(&file(bad)).unwrap_err().to_string();
            assert!(err.contains("player token"), "{bad:?}: {err}");
        }
        // A table that no id names: the file is refused, naming it.
        let err = Tokens::parse(&file(good).replace("[tables.1]", "[tables.\"a b\"]"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("a b"), "{err}");
    }

    #[test]
    fn a_malformed_file_is_an_error_naming_it_and_is_not_overwritten() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tokens.toml");
        std::fs::write(&path, "[tables.1]\nplayer = \"x\"\nwizard = \"y\"\n").unwrap();
        let err = Tokens::load_or_create(&path, &seats(&["1"]), &[]).unwrap_err();
        let msg = err.to_string();
        assert!(
            msg.contains("tokens.toml") && msg.contains("wizard"),
            "{msg}"
        );
        assert!(std::fs::read_to_string(&path).unwrap().contains("wizard"));
    }

    #[test]
    fn a_table_card_s_code_reads_as_typed_and_names_its_table_and_role() {
        let dir = tempfile::tempdir().unwrap();
        let tokens =
            Tokens::load_or_create(&dir.path().join("t.toml"), &seats(&["1", "2"]), &[]).unwrap();
        let t = tokens.table(&tid("2")).unwrap().clone();
        let codes: Vec<String> = t.all().map(|(_, s)| card_code(s)).collect();
        assert_eq!(codes.len(), 3);
        assert!(codes.iter().all(|c| c.len() == CODE_LEN));
        assert_ne!(codes[0], codes[1]);
        let printed = grouped_code(&card_code(&t.assistant)).to_uppercase();
        assert_eq!(
            tokens.card_holder(&printed),
            Some((tid("2"), PersonRole::Assistant))
        );
        assert_eq!(
            tokens.card_holder(&card_code(&t.player)),
            Some((tid("2"), PersonRole::Player))
        );
        assert_eq!(tokens.card_holder(&codes[0][1..]), None);
        assert_eq!(
            tokens.card_holder(t.player.expose()),
            None,
            "the token is not its code"
        );
    }

    #[test]
    fn a_player_s_code_reads_as_a_braille_reader_types_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.toml");
        let tokens =
            Tokens::load_or_create(&path, &[], &people(&[(3, "Ana"), (7, "Bea")])).unwrap();
        let code = tokens.player_token(3).unwrap().to_owned();
        assert_eq!(code.len(), CODE_LEN);
        assert_ne!(tokens.player_token(7), Some(code.as_str()));
        // As printed, in capitals (BRF), with the dashes, with i/l/o typed
        // for 1/0.
        let grouped = grouped_code(&code);
        assert_eq!(tokens.player_of(&grouped), Some(3));
        assert_eq!(tokens.player_of(&grouped.to_uppercase()), Some(3));
        let typed = code.replace('1', "l").replace('0', "O");
        assert_eq!(tokens.player_of(&typed), Some(3));
        assert_eq!(tokens.player_of(&code[1..]), None);
        assert_eq!(tokens.player_of("not a code at all!"), None);
        // Kept across starts.
        let again = Tokens::load_or_create(&path, &[], &people(&[(3, "Ana"), (7, "Bea")])).unwrap();
        assert_eq!(again.player_token(3), Some(code.as_str()));
        assert!(matches!(
            Tokens::parse("[players]\n3 = \"short\"\n"),
            Err(BadTokens::UnusablePlayer(_))
        ));
    }
}
