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

use serde::{Deserialize, Serialize};

use crate::service::security::codes::{CODE_LEN, card_code, code_of, normalise_code};
use crate::service::security::secret::Secret;

use crate::table::actions::PersonRole;
use crate::table::id::TableId;

// The tokens file on disk (read, checked, written owner-only), and the
// binding of the players' codes to the people the venue lists.
mod file;
mod players;

pub use file::{BadTokens, MIN_TOKEN_LEN, TokenError, TokenPlace};
pub use players::{CodeChange, Person};

use file::random_token;

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

impl Tokens {
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

#[cfg(test)]
mod tests;
