//! A team event's standings, as FIDE's C.07 ranks teams and its own
//! checker (TieBreakServer) computes them: match points, then the `202`
//! tie-breaks in order, then the smaller team number; and the board prizes
//! (points, games and percentage of each player on each board).
//!
//! The tie-breaks (`MPTS`, `GPTS`, `BH`, `SB` with their `:MP`/`:GP`
//! and `/C1`/`/M1`, `DE`, `EDE`, `EDET`) are computed in
//! [`team_tiebreaks`](super::team_tiebreaks) as FIDE's checker computes
//! them; values are in hundredths, so that Sonneborn-Berger's products of
//! half points stay exact. A name tactus does not compute counts 0 for
//! every team, as the checker counts an unknown one.

use std::collections::BTreeMap;

use super::matches::Match;
use super::team_tiebreaks::{Rounds, played};
use super::teams::{Points, Teams, TieBreak};
use super::{RoundEntry, Trf};

/// One team's line of the standings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamStanding {
    /// The team's pairing number.
    pub number: u16,
    /// The team's name.
    pub name: String,
    /// Tenths.
    pub match_points: u32,
    /// Tenths.
    pub game_points: u32,
    /// The `202` tie-breaks in order with their values in hundredths.
    pub tiebreaks: Vec<(TieBreak, i64)>,
    /// From 1; no two teams share one (the smaller number first).
    pub rank: u16,
}

/// A player's result on one board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoardPrize {
    /// The board, from 1.
    pub board: u16,
    /// The player's start rank.
    pub rank: u16,
    /// The team's number.
    pub team: u16,
    /// Points in tenths, of games played over the board.
    pub points: u32,
    /// Games played over the board (forfeits and byes are not).
    pub games: u16,
    /// Points per game in tenths of a percent (`667` is 66.7 %).
    pub percent: u32,
}

impl Teams {
    /// The rounds a file writes anything in.
    fn rounds_in(trf: &Trf) -> u16 {
        let games = trf.players().map(|p| p.rounds.len()).max().unwrap_or(0);
        let records = self_rounds(trf);
        u16::try_from(games)
            .unwrap_or(super::MAX_ROUNDS)
            .max(records)
    }

    /// Every round's matches.
    pub fn all_matches(&self, trf: &Trf) -> Vec<Vec<Match>> {
        (1..=Teams::rounds_in(trf))
            .map(|r| self.matches(trf, r))
            .collect()
    }

    /// The standings: every team, in rank order.
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::trf::Trf;
    ///
    /// let trf = Trf::parse(tactus_rules::trf::TEAM_EXAMPLE).unwrap();
    /// let table = trf.teams().unwrap().standings(&trf);
    /// assert_eq!(table[0].number, 1);
    /// assert_eq!((table[0].match_points, table[0].game_points), (30, 25));
    /// assert_eq!((table[1].match_points, table[1].game_points), (10, 15));
    /// ```
    pub fn standings(&self, trf: &Trf) -> Vec<TeamStanding> {
        self.standings_from(trf, &self.all_matches(trf))
    }

    /// The standings from every round's matches (`all`, as
    /// [`Teams::all_matches`] gives them), for a caller that has them.
    fn standings_from(&self, trf: &Trf, all: &[Vec<Match>]) -> Vec<TeamStanding> {
        let rounds = Rounds::of(self, trf, all);
        let mut tiebreaks = self.tiebreaks().to_vec();
        // FIDE's checker ranks by the primary score first (`PTS`, match
        // points in a team event), whatever `202` lists after it.
        if !tiebreaks
            .first()
            .is_some_and(|t| matches!(t.name.as_str(), "PTS" | "MPTS"))
        {
            tiebreaks.insert(0, TieBreak::parse("PTS"));
        }
        let fixed = |t: &TieBreak, team: u16| -> i64 {
            let kind = t.points.unwrap_or(Points::Match);
            match t.name.as_str() {
                "PTS" => i64::from(rounds.total(team, kind)) * 10,
                "MPTS" => i64::from(rounds.total(team, Points::Match)) * 10,
                "GPTS" => i64::from(rounds.total(team, Points::Game)) * 10,
                "BH" | "SB" => rounds.buchholz(t, team),
                _ => 0,
            }
        };
        let numbers: Vec<u16> = self.teams().iter().map(|t| t.number).collect();
        let mut values: BTreeMap<u16, Vec<i64>> =
            numbers.iter().map(|&n| (n, Vec::new())).collect();
        // The ranking so far: (team, shared rank), best first; all tied
        // at 1 before the first tie-break.
        let mut ranked: Vec<(u16, u16)> = numbers.iter().map(|&n| (n, 1)).collect();
        for t in &tiebreaks {
            // The direct encounter family gives places (smaller is
            // better); the others scores (larger is better).
            let direct = matches!(t.name.as_str(), "DE" | "EDE" | "EDET");
            let these: BTreeMap<u16, i64> = if direct {
                rounds.direct_encounter(t, &ranked)
            } else {
                numbers.iter().map(|&n| (n, fixed(t, n))).collect()
            };
            for (team, v) in &these {
                if let Some(vs) = values.get_mut(team) {
                    vs.push(*v);
                }
            }
            let key = |team: u16| if direct { these[&team] } else { -these[&team] };
            ranked.sort_by_key(|&(team, rank)| (rank, key(team), team));
            // Shared ranks: equal on everything so far.
            let before = ranked.clone();
            for i in 1..ranked.len() {
                let (prev, prev_rank) = before[i - 1];
                let (team, rank) = before[i];
                ranked[i].1 = if rank == prev_rank && key(team) == key(prev) {
                    ranked[i - 1].1
                } else {
                    i as u16 + 1
                };
            }
        }
        ranked
            .iter()
            .enumerate()
            .map(|(i, &(number, _))| {
                let team = self.team(number).expect("a team of this file");
                TeamStanding {
                    number,
                    name: team.name.clone(),
                    match_points: rounds.total(number, Points::Match),
                    game_points: rounds.total(number, Points::Game),
                    tiebreaks: tiebreaks
                        .iter()
                        .cloned()
                        .zip(values[&number].iter().copied())
                        .collect(),
                    rank: i as u16 + 1,
                }
            })
            .collect()
    }

    /// The board prizes: each player's points, games and percentage on
    /// each board played, board 1 first, then the best percentage, the
    /// most games, the most points, the smaller start rank.
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::trf::Trf;
    ///
    /// let trf = Trf::parse(tactus_rules::trf::TEAM_EXAMPLE).unwrap();
    /// let prizes = trf.teams().unwrap().board_prizes(&trf);
    /// let first = prizes[0];
    /// assert_eq!((first.board, first.rank, first.points, first.games, first.percent), (1, 1, 10, 2, 500));
    /// ```
    pub fn board_prizes(&self, trf: &Trf) -> Vec<BoardPrize> {
        let ps = trf.point_system();
        let mut by: BTreeMap<(u16, u16), (u32, u16)> = BTreeMap::new();
        for matches in self.all_matches(trf) {
            for m in matches {
                for b in &m.boards {
                    for (rank, result) in [(b.first, b.first_result), (b.second, b.second_result)] {
                        let Some(result) = result.filter(|&r| played(r)) else {
                            continue;
                        };
                        let e = by.entry((b.board, rank)).or_default();
                        e.0 += ps.of(result);
                        e.1 += 1;
                    }
                }
            }
        }
        let mut prizes: Vec<BoardPrize> = by
            .into_iter()
            .map(|((board, rank), (points, games))| BoardPrize {
                board,
                rank,
                team: self.team_of(rank).unwrap_or(0),
                points,
                games,
                // Points are tenths: tenths of a percent is points × 100 / games.
                percent: (points * 100 + u32::from(games) / 2) / u32::from(games),
            })
            .collect();
        prizes.sort_by(|a, b| {
            a.board
                .cmp(&b.board)
                .then(b.percent.cmp(&a.percent))
                .then(b.games.cmp(&a.games))
                .then(b.points.cmp(&a.points))
                .then(a.rank.cmp(&b.rank))
        });
        prizes
    }
}

/// The last round a `320`, `330` or `299` names (a round whose match was
/// only forfeited still counts).
fn self_rounds(trf: &Trf) -> u16 {
    let Some(t) = trf.teams() else { return 0 };
    let byes = t.byes().iter().map(|b| b.round);
    let forfeits = t.forfeits().iter().map(|f| f.round);
    let abnormal = t.abnormal().iter().map(|a| a.round);
    byes.chain(forfeits).chain(abnormal).max().unwrap_or(0)
}

impl Trf {
    /// Each `310`'s match points and game points agree with its games, as
    /// a pairing engine checks them: the first team that does not, named
    /// by its line. Blank columns say nothing.
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::trf::Trf;
    ///
    /// let trf = Trf::parse(tactus_rules::trf::TEAM_EXAMPLE).unwrap();
    /// trf.check_team_points().unwrap();
    /// let stale = tactus_rules::trf::TEAM_EXAMPLE.replace("   3.0    2.5", "   2.0    2.5");
    /// let err = Trf::parse(&stale).unwrap().check_team_points().unwrap_err();
    /// assert!(err.to_string().contains("team 1's match points (columns 55-60) are 2.0, but its matches add up to 3.0"), "{err}");
    /// ```
    pub fn check_team_points(&self) -> Result<(), super::TrfError> {
        let Some(teams) = self.teams() else {
            return Ok(());
        };
        let all = teams.all_matches(self);
        let table = teams.standings_from(self, &all);
        // A bye (`320`) of a round not played yet (no board has a result):
        // a pairing program's file of that round may count it already or
        // not yet; either is right.
        let pending = |team: u16| -> [u32; 2] {
            let mut points = [0, 0];
            for bye in teams.byes().iter().filter(|b| b.team == team) {
                let unplayed = all.get(usize::from(bye.round) - 1).is_none_or(|round| {
                    round.iter().all(|m| {
                        m.boards
                            .iter()
                            .all(|b| b.first_result.is_none() && b.second_result.is_none())
                    })
                });
                if unplayed {
                    points[0] += bye.match_points;
                    points[1] += bye.game_points;
                }
            }
            points
        };
        for team in teams.teams() {
            let Some(s) = table.iter().find(|s| s.number == team.number) else {
                continue;
            };
            let [pending_mp, pending_gp] = pending(team.number);
            for (what, columns, written, computed, pending) in [
                (
                    "match points",
                    "55-60",
                    team.match_points,
                    s.match_points,
                    pending_mp,
                ),
                (
                    "game points",
                    "62-67",
                    team.game_points,
                    s.game_points,
                    pending_gp,
                ),
            ] {
                if let Some(w) = written
                    && w != computed
                    && w + pending != computed
                {
                    return Err(super::TrfError {
                        line: team.line,
                        kind: super::TrfErrorKind::TeamPointsDisagree {
                            team: team.number,
                            what,
                            columns,
                            written: super::records::tenths_text(w),
                            results: super::records::tenths_text(computed),
                        },
                    });
                }
            }
        }
        Ok(())
    }

    /// The file with every `310`'s match points, game points and rank
    /// written (columns 55–60, 62–67, 69–71) from its games, each other
    /// byte as it was; an `013`-only file is given back as it is.
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::trf::Trf;
    ///
    /// let blank = tactus_rules::trf::TEAM_EXAMPLE
    ///     .replace("   3.0    2.5   1", "                 ")
    ///     .replace("   1.0    1.5   2", "                 ");
    /// let trf = Trf::parse(&blank).unwrap().with_team_totals().unwrap();
    /// assert_eq!(trf.to_string(), tactus_rules::trf::TEAM_EXAMPLE);
    /// ```
    pub fn with_team_totals(&self) -> Result<Trf, super::TrfError> {
        let Some(teams) = self.teams() else {
            return Ok(self.clone());
        };
        let table = teams.standings(self);
        let mut out = self.clone();
        for team in teams.teams().iter().filter(|t| t.extended) {
            let Some(s) = table.iter().find(|s| s.number == team.number) else {
                continue;
            };
            let too_many = |what: &'static str| super::TrfError {
                line: team.line,
                kind: super::TrfErrorKind::TeamField {
                    code: "310",
                    field: what,
                    columns: String::new(),
                    value: String::new(),
                    expected: "past what its columns hold",
                },
            };
            let mp = super::teams::points_text(s.match_points, 6)
                .ok_or_else(|| too_many("match points"))?;
            let gp = super::teams::points_text(s.game_points, 6)
                .ok_or_else(|| too_many("game points"))?;
            let rank = format!("{:>3}", s.rank);
            let line = &mut out.lines[team.line - 1];
            for (start, text) in [(54, mp), (61, gp), (68, rank)] {
                for (i, b) in text.bytes().enumerate() {
                    super::write_column(&mut line.text, out.utf8, start + i, b);
                }
            }
        }
        // Read again: the teams' points as now written.
        Trf::from_bytes(&out.to_bytes())
    }

    /// What the file says about round `round` of the team of player
    /// `rank`: its opponent team and the player's board, if paired.
    pub fn team_board(&self, round: u16, rank: u16) -> Option<(u16, u16)> {
        let teams = self.teams()?;
        let team = teams.team_of(rank)?;
        let m = teams
            .matches(self, round)
            .into_iter()
            .find(|m| m.first == team || m.second == Some(team))?;
        let b = m
            .boards
            .iter()
            .find(|b| b.first == rank || b.second == rank)?;
        let opponent = if m.first == team { m.second? } else { m.first };
        matches!(self.player(rank)?.round(round), RoundEntry::Game { .. })
            .then_some((opponent, b.board))
    }
}
