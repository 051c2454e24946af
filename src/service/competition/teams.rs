//! A team event: a round's TRF-26 file checked against the venue's
//! `[[team]]`s and its games ordered by matches (the higher match points
//! of the two teams, then their sum, then the smaller team number; a
//! match's boards at consecutive tables, board 1 first), a team engine's
//! list turned into the round's boards from the line-ups, and the teams'
//! names for the broadcast's `WhiteTeam`/`BlackTeam`.

use super::*;
use crate::service::config::TeamConfig;
use tactus_rules::trf::{TeamPairing, Teams};

impl Competition {
    /// The venue's teams (empty for an individual event).
    pub fn teams(&self) -> &[TeamConfig] {
        &self.teams
    }

    /// The team of listed player `rank`.
    pub fn team_of(&self, rank: u16) -> Option<&TeamConfig> {
        self.teams.iter().find(|t| t.players.contains(&rank))
    }

    /// A round's file's teams agree with the venue's: each `310`/`013`
    /// names a venue team's number with its players in its order.
    pub(super) fn check_teams_agree(&self, trf: &Trf) -> Result<(), RoundError> {
        let Some(teams) = trf.teams() else {
            if self.teams.is_empty() {
                return Ok(());
            }
            return Err(RoundError::Invalid(
                "TRF: no team record (`310` or `013`), but the venue file lists [[team]]s: a \
                 team round's file carries its teams"
                    .into(),
            ));
        };
        if self.teams.is_empty() {
            // The venue lists none: the file's teams are taken as they are.
            return Ok(());
        }
        for t in teams.teams() {
            let line = t.line;
            let Some(venue) = self.teams.iter().find(|v| v.number == t.number) else {
                return Err(RoundError::Invalid(format!(
                    "TRF: line {line}: team {} `{}` is not a [[team]] of the venue file",
                    t.number, t.name
                )));
            };
            if venue.players != t.players {
                return Err(RoundError::Invalid(format!(
                    "TRF: line {line}: team {} has players {:?}, the venue file's [[team]] \
                     number = {} has {:?}",
                    t.number, t.players, venue.number, venue.players
                )));
            }
        }
        if let Some(missing) = self.teams.iter().find(|v| teams.team(v.number).is_none()) {
            return Err(RoundError::Invalid(format!(
                "TRF: the venue file's [[team]] number = {} `{}` has no team record in the file",
                missing.number, missing.name
            )));
        }
        Ok(())
    }

    /// A team round's board order: each game's key is its match's (the
    /// higher match points of the two teams before round `r`, then their
    /// sum, then the smaller team number) and then its board.
    pub(super) fn team_board_key(
        teams: &Teams,
        trf: &Trf,
        r: u16,
        white: u16,
        black: u16,
    ) -> Option<(BoardKey, u16)> {
        let (a, b) = (teams.team_of(white)?, teams.team_of(black)?);
        let before = |team: u16| -> u32 {
            (1..r)
                .map(|k| teams.round_score(trf, k, team).0.unwrap_or(0))
                .sum()
        };
        let board = trf.team_board(r, white).map_or(u16::MAX, |(_, b)| b);
        Some((BoardKey::of((before(a), a), (before(b), b)), board))
    }

    /// Round `r`'s file from a team engine's list (`count`, then `first
    /// second` per match, `0` a bye) and the captains' line-ups, written
    /// into the last imported TRF file.
    pub fn trf_from_team_pairings(
        &self,
        text: &str,
        round: &Round,
        lineups: &BTreeMap<u16, Vec<u16>>,
    ) -> Result<Vec<u8>, RoundError> {
        let invalid = |s: String| RoundError::Invalid(s);
        let r = round
            .number()
            .ok_or_else(|| invalid(format!("round: `{round}` is not a round number (1, 2, …)")))?;
        let list: Vec<TeamPairing> = tactus_rules::trf::parse_team_pairings(text)
            .map_err(|e| invalid(format!("team pairings: {e}")))?;
        let kept = self.imported_trf().ok_or(RoundError::NoTrf)?;
        let trf = Trf::from_bytes(&kept).map_err(|e| invalid(format!("TRF: {e}")))?;
        let paired = trf
            .with_team_round(r, &list, lineups)
            .map_err(|e| invalid(format!("team pairings: {e}")))?;
        Ok(paired.to_bytes())
    }

    /// The teams of a game's two players, as the broadcast names them.
    pub(super) fn team_names(
        &self,
        white: Option<u16>,
        black: Option<u16>,
    ) -> Option<(String, String)> {
        let name = |r: Option<u16>| self.team_of(r?).map(|t| t.name.clone());
        Some((name(white)?, name(black)?))
    }
}

/// Whether a `text/plain` round body is a team engine's list rather than
/// a TRF file: its first line that is not blank is a number alone.
pub fn is_team_pairings(body: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(body) else {
        return false;
    };
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .is_some_and(|l| l.bytes().all(|b| b.is_ascii_digit()))
}
