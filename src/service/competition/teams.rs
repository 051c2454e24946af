//! A team event: a round's TRF-26 file checked against the venue's
//! `[[team]]`s and its games ordered by matches (the higher match points
//! of the two teams, then their sum, then the smaller team number; a
//! match's boards at consecutive tables, board 1 first), a team engine's
//! list turned into the round's boards from the line-ups, and the teams'
//! names for the broadcast's `WhiteTeam`/`BlackTeam`.

use super::*;
use crate::service::startup::config::TeamConfig;
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
    /// into the file as given back now (the last imported TRF with every
    /// result since written in).
    pub async fn trf_from_team_pairings(
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
        if self.imported_trf().is_none() {
            return Err(RoundError::NoTrf);
        }
        let trf = self.trf_now().await?;
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
/// a TRF file: its first line that is not blank is a number alone, and no
/// line is a player's (`001`), so a TRF whose first record is a bare `012`
/// stays a TRF.
///
/// # Examples
///
/// ```
/// use tactus::service::competition::is_team_pairings;
///
/// assert!(is_team_pairings(b"2\n1 3\n2 4\n"));
/// assert!(!is_team_pairings(b"012\n001    1      Ana\n"));
/// ```
pub fn is_team_pairings(body: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(body) else {
        return false;
    };
    let numbered = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .is_some_and(|l| l.bytes().all(|b| b.is_ascii_digit()));
    numbered && !text.lines().any(|l| l.starts_with("001"))
}

/// One team's line of a team event's standings.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TeamStandingView {
    pub number: u16,
    pub name: String,
    pub match_points: f64,
    pub game_points: f64,
    /// The `202` tie-breaks in order (match points first), FIDE's names.
    pub tiebreaks: Vec<TieBreakValue>,
    /// From 1; equal teams are ranked by the smaller number.
    pub rank: u16,
}

/// A tie-break's value.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TieBreakValue {
    pub name: String,
    pub value: f64,
}

/// A player's board prize line: points, games and percentage on a board.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BoardPrizeView {
    pub board: u16,
    pub start_rank: u16,
    pub name: String,
    pub team: u16,
    pub points: f64,
    pub games: u16,
    pub percent: f64,
}

/// `GET /api/standings` of a team event.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TeamStandings {
    pub teams: Vec<TeamStandingView>,
    pub boards: Vec<BoardPrizeView>,
}

impl Competition {
    /// The file given back, read: the imported TRF with every result
    /// since written in (and a team event's totals).
    pub async fn trf_now(&self) -> Result<Trf, RoundError> {
        let text = self.trf_with_results().await?;
        Trf::from_bytes(&text).map_err(|e| RoundError::Invalid(format!("TRF: {e}")))
    }

    /// A team event's standings (match points, the `202` tie-breaks, the
    /// team number) and board prizes, from the file with every result
    /// written in; `None` when the imported file has no teams.
    pub async fn team_standings(&self) -> Result<Option<TeamStandings>, RoundError> {
        if self.imported_trf().is_none() {
            return Ok(None);
        }
        let trf = self.trf_now().await?;
        let Some(teams) = trf.teams() else {
            return Ok(None);
        };
        let tenths = |t: u32| f64::from(t) / 10.0;
        let list = teams
            .standings(&trf)
            .into_iter()
            .map(|s| TeamStandingView {
                number: s.number,
                name: s.name,
                match_points: tenths(s.match_points),
                game_points: tenths(s.game_points),
                tiebreaks: s
                    .tiebreaks
                    .into_iter()
                    .map(|(t, v)| TieBreakValue {
                        name: t.text,
                        value: v as f64 / 100.0,
                    })
                    .collect(),
                rank: s.rank,
            })
            .collect();
        let boards = teams
            .board_prizes(&trf)
            .into_iter()
            .map(|b| BoardPrizeView {
                board: b.board,
                start_rank: b.rank,
                name: trf
                    .player(b.rank)
                    .map(|p| p.name.clone())
                    .unwrap_or_default(),
                team: b.team,
                points: tenths(b.points),
                games: b.games,
                percent: f64::from(b.percent) / 10.0,
            })
            .collect();
        Ok(Some(TeamStandings {
            teams: list,
            boards,
        }))
    }

    /// Player `rank`'s match in round `round`: the opponent team and their
    /// board, as the imported file pairs them.
    pub fn match_of(&self, round: &Round, rank: u16) -> Option<(u16, u16)> {
        let r = round.number()?;
        let trf = Trf::from_bytes(&self.imported_trf()?).ok()?;
        trf.team_board(r, rank)
    }
}

/// One board of a team's match, as its captain follows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamMatchBoard {
    pub board: u16,
    /// The table, once the round is set up at tactus tables.
    pub table: Option<String>,
    /// The team's player and their colour.
    pub player: u16,
    pub colour: Option<Color>,
    pub opponent: u16,
    /// `1-0`, `0-1`, `1/2-1/2` once finished.
    pub result: Option<String>,
}

/// A team's match in a round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamMatch {
    pub opponent: u16,
    pub boards: Vec<TeamMatchBoard>,
    /// Game points in tenths, the team's then the opponent's.
    pub score: [u32; 2],
}

impl Competition {
    /// The line-ups set for round `r` (team number to boards).
    pub fn lineups_for_number(&self, r: u16) -> BTreeMap<u16, Vec<u16>> {
        self.lineups
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&r)
            .cloned()
            .unwrap_or_default()
    }

    /// Team `team`'s match in round `round`, board by board, with the
    /// results written so far.
    pub async fn team_match(
        &self,
        round: &Round,
        team: u16,
    ) -> Result<Option<TeamMatch>, RoundError> {
        let Some(r) = round.number() else {
            return Ok(None);
        };
        if self.imported_trf().is_none() {
            return Ok(None);
        }
        let trf = self.trf_now().await?;
        let Some(teams) = trf.teams() else {
            return Ok(None);
        };
        let Some(m) = teams
            .matches(&trf, r)
            .into_iter()
            .find(|m| m.first == team || m.second == Some(team))
        else {
            return Ok(None);
        };
        let Some(second) = m.second else {
            return Ok(None);
        };
        let first = m.first == team;
        let games = self.games(Some(round)).await?;
        let boards = m
            .boards
            .iter()
            .map(|b| {
                let (player, opponent, colour) = if first {
                    (b.first, b.second, b.first_colour)
                } else {
                    (b.second, b.first, b.first_colour.map(|c| !c))
                };
                let game = games
                    .iter()
                    .map(|(g, _)| g)
                    .find(|g| g.ranks.find(|r| *r == Some(player)).is_some());
                TeamMatchBoard {
                    board: b.board,
                    table: game.map(|g| g.table.to_string()),
                    player,
                    colour,
                    opponent,
                    result: game.and_then(|g| g.result).map(|o| o.to_string()),
                }
            })
            .collect();
        let score = if first {
            m.game_points
        } else {
            [m.game_points[1], m.game_points[0]]
        };
        Ok(Some(TeamMatch {
            opponent: if first { second } else { m.first },
            boards,
            score,
        }))
    }
}

impl Competition {
    /// A team event's matches of each round in `rounds` with their scores
    /// so far (from the file with every finished game written in, read
    /// once); all empty in an individual event.
    pub async fn match_scores(
        &self,
        rounds: &[Round],
    ) -> Result<Vec<Vec<crate::service::competition::views::MatchScore>>, RoundError> {
        use crate::service::competition::views::{MatchScore, TeamRef};
        let none = || vec![Vec::new(); rounds.len()];
        if self.imported_trf().is_none() {
            return Ok(none());
        }
        let trf = self.trf_now().await?;
        let Some(teams) = trf.teams() else {
            return Ok(none());
        };
        let named = |n: u16| TeamRef {
            number: n,
            name: teams.team(n).map_or_else(String::new, |t| t.name.clone()),
        };
        Ok(rounds
            .iter()
            .map(|round| {
                let Some(r) = round.number() else {
                    return Vec::new();
                };
                teams
                    .matches(&trf, r)
                    .into_iter()
                    .map(|m| MatchScore {
                        first: named(m.first),
                        second: m.second.map(named),
                        score: m.game_points.map(|p| format!("{}.{}", p / 10, p % 10)),
                        finished: m.finished(),
                    })
                    .collect()
            })
            .collect())
    }
}
