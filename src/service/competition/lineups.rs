//! The captains' line-ups: who of a team plays which board in a round,
//! set before the round is set up, journaled as a document so that a
//! restart keeps them. The team's fixed order is kept: a player may sit
//! out and the ones below move up, never change places. No line-up: the
//! team's first players in order.

use super::*;
use tactus_rules::trf::LineupError;

/// The name the line-ups are kept under in the journal.
pub const LINEUPS_DOCUMENT: &str = "lineups";

/// Round number to team number to the start ranks of boards 1, 2, ….
pub(super) type Lineups = BTreeMap<u16, BTreeMap<u16, Vec<u16>>>;

/// Why a line-up was not taken; nothing changed.
#[derive(Debug, thiserror::Error)]
pub enum LineupRefused {
    /// No `[[team]]` of that number (HTTP 404).
    #[error("no [[team]] number = {0} in the venue file")]
    NoTeam(u16),
    /// Not a round number (HTTP 422).
    #[error("round: {0} is not a round number from 1")]
    BadRound(u16),
    /// The round is set up already (HTTP 409).
    #[error("round {0} is set up already: its line-ups can no longer change")]
    SetUp(u16),
    /// Against the team's order, another team's player, too short (422).
    #[error(transparent)]
    Lineup(#[from] LineupError),
    /// The journal (or the tables) could not be read or written.
    #[error(transparent)]
    Round(#[from] RoundError),
}

impl Competition {
    /// The boards a match has: the imported file's `352` (or its smallest
    /// team), else the venue's `[team_match] boards`, else 1 (nothing
    /// known yet: any line-up of one player or more).
    pub fn boards_per_match(&self) -> usize {
        self.imported_trf()
            .and_then(|t| Trf::from_bytes(&t).ok())
            .and_then(|t| t.teams().map(|teams| teams.boards()))
            .filter(|&n| n > 0)
            .or(self.team_boards)
            .unwrap_or(1)
    }

    /// The line-ups set for round `round` (team number to boards).
    pub fn lineups_for(&self, round: &Round) -> BTreeMap<u16, Vec<u16>> {
        round
            .number()
            .map_or_else(BTreeMap::new, |r| self.lineups_for_number(r))
    }

    /// Team `team`'s line-up for round `r`: the one set, or its first
    /// players in order.
    pub fn lineup_of(&self, r: u16, team: u16) -> Option<Vec<u16>> {
        let t = self.teams.iter().find(|t| t.number == team)?;
        let set = self
            .lineups
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&r)
            .and_then(|m| m.get(&team))
            .cloned();
        Some(set.unwrap_or_else(|| {
            t.players
                .iter()
                .copied()
                .take(self.boards_per_match())
                .collect()
        }))
    }

    /// Whether any game of round `r` has been set up.
    pub async fn round_is_set_up(&self, r: u16) -> Result<bool, RoundError> {
        let round: Round = r
            .to_string()
            .parse()
            .map_err(|e: crate::table::round::BadRound| RoundError::Invalid(e.to_string()))?;
        Ok(!self.games(Some(&round)).await?.is_empty())
    }

    /// Sets team `team`'s line-up for round `r` (journaled first): its own
    /// players in its fixed order, one per board at least; refused once
    /// the round is set up.
    pub async fn set_lineup(
        &self,
        r: u16,
        team: u16,
        boards: Vec<u16>,
    ) -> Result<Vec<u16>, LineupRefused> {
        if r == 0 || r > tactus_rules::trf::MAX_ROUNDS {
            return Err(LineupRefused::BadRound(r));
        }
        let t = self
            .teams
            .iter()
            .find(|t| t.number == team)
            .ok_or(LineupRefused::NoTeam(team))?;
        // The checks of a TRF team (fixed order, own players, enough).
        let as_trf = tactus_rules::trf::Team {
            number: t.number,
            name: t.name.clone(),
            short: String::new(),
            strength: String::new(),
            match_points: None,
            game_points: None,
            rank: None,
            players: t.players.clone(),
            line: 0,
            extended: true,
        };
        as_trf.check_lineup(&boards, self.boards_per_match())?;
        // One round set up at a time: a line-up never lands while its round
        // is being set up.
        let _one_at_a_time = self.busy.write().await;
        if self.round_is_set_up(r).await? {
            return Err(LineupRefused::SetUp(r));
        }
        let mut next = self
            .lineups
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        next.entry(r).or_default().insert(team, boards.clone());
        let bytes = serde_json::to_vec(&next).map_err(|e| RoundError::Invalid(e.to_string()))?;
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as i64);
        self.journal
            .put_document(LINEUPS_DOCUMENT, now, bytes)
            .await
            .map_err(RoundError::from)?;
        *self.lineups.lock().unwrap_or_else(|e| e.into_inner()) = next;
        Ok(boards)
    }
}
