//! A team event's standings, as FIDE's C.07 ranks teams and its own
//! checker (TieBreakServer) computes them: match points, then the `202`
//! tie-breaks in order, then the smaller team number; and the board prizes
//! (points, games and percentage of each player on each board).
//!
//! The tie-breaks computed (values in hundredths, so that Sonneborn-Berger's
//! products of half points stay exact):
//!
//! | name | value |
//! |------|-------|
//! | `PTS`, `MPTS` | match points |
//! | `GPTS` | game points |
//! | `DE`, `EDE`, `EDET` | among the teams tied so far, when each has met each: the match points scored against the others (0 when some have not met) |
//! | `BH` (`:MP`, `:GP`) | the sum of the opponents' scores, a round without a played match counted as a draw for them; a round of one's own without a played match counts one's own score, at most a draw in every round (C.07, 2026); `/C1` cuts the lowest, `/M1` the lowest and the highest |
//! | `SB` (`:MP`, `:GP`) | each opponent's score (as for `BH`) times one's own score in that match; cut as `BH` |
//! | anything else | 0 for every team |

use std::collections::BTreeMap;

use super::matches::Match;
use super::teams::{Points, Teams, TieBreak};
use super::{ResultChar, RoundEntry, Trf};

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

/// What a team did in one round.
#[derive(Debug, Clone, Copy, Default)]
struct Row {
    /// The opponent of a match played (at least one board over the board).
    opponent: Option<u16>,
    match_points: u32,
    game_points: u32,
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

    fn rows(&self, trf: &Trf) -> BTreeMap<u16, Vec<Row>> {
        let all = self.all_matches(trf);
        let mut rows: BTreeMap<u16, Vec<Row>> = BTreeMap::new();
        for team in self.teams() {
            let mut mine = Vec::new();
            for (i, matches) in all.iter().enumerate() {
                let round = i as u16 + 1;
                let (mp, gp) = self.round_score_in(matches, trf, round, team.number);
                let opponent = matches
                    .iter()
                    .find(|m| {
                        (m.first == team.number || m.second == Some(team.number))
                            && m.forfeited.is_none()
                            && m.boards.iter().any(|b| {
                                b.first_result.is_some_and(played)
                                    || b.second_result.is_some_and(played)
                            })
                    })
                    .and_then(|m| {
                        if m.first == team.number {
                            m.second
                        } else {
                            Some(m.first)
                        }
                    });
                mine.push(Row {
                    opponent,
                    match_points: mp.unwrap_or(0),
                    game_points: gp,
                });
            }
            rows.insert(team.number, mine);
        }
        rows
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
        let rows = self.rows(trf);
        let rounds = Teams::rounds_in(trf);
        let ps = trf.point_system();
        let draw_of = |kind: Points| match kind {
            Points::Match => self.scoring().draw,
            Points::Game => ps.draw * self.boards() as u32,
        };
        let total = |team: u16, kind: Points| -> u32 {
            rows[&team]
                .iter()
                .map(|r| match kind {
                    Points::Match => r.match_points,
                    Points::Game => r.game_points,
                })
                .sum()
        };
        // A team's score with its rounds without a played match counted
        // as draws: what it is worth to its opponents (C.07 16.3).
        let adjusted = |team: u16, kind: Points| -> u32 {
            rows[&team]
                .iter()
                .map(|r| match (r.opponent, kind) {
                    (None, k) => draw_of(k),
                    (Some(_), Points::Match) => r.match_points,
                    (Some(_), Points::Game) => r.game_points,
                })
                .sum()
        };
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
                "PTS" => i64::from(total(team, kind)) * 10,
                "MPTS" => i64::from(total(team, Points::Match)) * 10,
                "GPTS" => i64::from(total(team, Points::Game)) * 10,
                "BH" | "SB" => {
                    let own = total(team, kind);
                    let cap = draw_of(kind) * u32::from(rounds);
                    // (the score counted, the value) per round.
                    let mut values: Vec<(i64, i64)> = rows[&team]
                        .iter()
                        .map(|r| {
                            let score = i64::from(match r.opponent {
                                Some(o) => adjusted(o, kind),
                                None => own.min(cap),
                            });
                            let mine = i64::from(match kind {
                                Points::Match => r.match_points,
                                Points::Game => r.game_points,
                            });
                            let value = if t.name == "SB" {
                                score * mine
                            } else {
                                score * 10
                            };
                            (score, value)
                        })
                        .collect();
                    values.sort();
                    let low = usize::from(t.cut_low).min(values.len());
                    let high = usize::from(t.cut_high).min(values.len() - low);
                    values[low..values.len() - high]
                        .iter()
                        .map(|&(_, v)| v)
                        .sum()
                }
                _ => 0,
            }
        };
        let numbers: Vec<u16> = self.teams().iter().map(|t| t.number).collect();
        let mut values: BTreeMap<u16, Vec<i64>> =
            numbers.iter().map(|&n| (n, Vec::new())).collect();
        // Groups of teams tied so far, best first.
        let mut groups: Vec<Vec<u16>> = vec![numbers.clone()];
        for t in &tiebreaks {
            let direct = matches!(t.name.as_str(), "DE" | "EDE" | "EDET");
            let mut next = Vec::new();
            for group in groups {
                let mut scored: Vec<(i64, u16)> = group
                    .iter()
                    .map(|&team| {
                        let v = if direct {
                            self.direct_encounter(&rows, &group, team)
                        } else {
                            fixed(t, team)
                        };
                        (v, team)
                    })
                    .collect();
                for &(v, team) in &scored {
                    if let Some(vs) = values.get_mut(&team) {
                        vs.push(v);
                    }
                }
                scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
                let mut at = 0;
                while at < scored.len() {
                    let end = scored[at..]
                        .iter()
                        .position(|s| s.0 != scored[at].0)
                        .map_or(scored.len(), |n| at + n);
                    next.push(scored[at..end].iter().map(|s| s.1).collect());
                    at = end;
                }
            }
            groups = next;
        }
        let order: Vec<u16> = groups
            .into_iter()
            .flat_map(|mut g| {
                g.sort();
                g
            })
            .collect();
        order
            .iter()
            .enumerate()
            .map(|(i, &number)| {
                let team = self.team(number).expect("a team of this file");
                TeamStanding {
                    number,
                    name: team.name.clone(),
                    match_points: total(number, Points::Match),
                    game_points: total(number, Points::Game),
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

    /// Direct encounter among `group`: `team`'s match points against the
    /// others, in hundredths, when every two of them have met; else 0.
    fn direct_encounter(&self, rows: &BTreeMap<u16, Vec<Row>>, group: &[u16], team: u16) -> i64 {
        if group.len() < 2 {
            return 0;
        }
        let met = |a: u16, b: u16| rows[&a].iter().any(|r| r.opponent == Some(b));
        let all_met = group
            .iter()
            .all(|&a| group.iter().all(|&b| a == b || met(a, b)));
        if !all_met {
            return 0;
        }
        rows[&team]
            .iter()
            .filter(|r| r.opponent.is_some_and(|o| group.contains(&o)))
            .map(|r| i64::from(r.match_points) * 10)
            .sum()
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

/// A game played over the board (rated or not), not a forfeit or a bye.
fn played(r: ResultChar) -> bool {
    use ResultChar::*;
    matches!(
        r,
        Win | Draw | Loss | UnratedWin | UnratedDraw | UnratedLoss
    )
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
        let table = teams.standings(self);
        for team in teams.teams() {
            let Some(s) = table.iter().find(|s| s.number == team.number) else {
                continue;
            };
            for (what, columns, written, computed) in [
                ("match points", "55-60", team.match_points, s.match_points),
                ("game points", "62-67", team.game_points, s.game_points),
            ] {
                if let Some(w) = written
                    && w != computed
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
