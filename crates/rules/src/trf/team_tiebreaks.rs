//! The team tie-breaks as FIDE's own checker (TieBreakServer) computes
//! them from a TRF-26 file: what each team did in each round (its
//! opponent, whether the match was played, whether the round was
//! voluntarily unplayed), Buchholz and Sonneborn-Berger with C.07's
//! treatment of unplayed rounds, and the direct encounter family (`DE`,
//! `EDE`, `EDET`) as the recursive ranking it is.
//!
//! Why a port and not a reading of C.07: the standings a tactus arbiter
//! sees must be the ones the federation's checker finds in the file
//! tactus gives back, to the last tie. Where TieBreakServer's reading is
//! particular (a match whose boards are all double forfeits is lost by
//! both; `EDET`'s value is a place inside the tied group, `0` when the
//! group stays tied), tactus follows it, and `tests/service/team_tiebreaks.rs`
//! compares the two on generated events.

use std::collections::BTreeMap;

use super::matches::Match;
use super::teams::{Forfeited, Points, Teams, TieBreak};
use super::{ResultChar, Trf};

/// What a team did in one round, in tenths.
#[derive(Debug, Clone, Default)]
pub(super) struct TeamRound {
    /// The other team of a match, played or forfeited.
    pub opponent: Option<u16>,
    /// A board of the match (or the bye's game) was played.
    pub played: bool,
    /// The team won the round (a win over the board or by forfeit).
    pub won: bool,
    pub match_points: u32,
    pub game_points: u32,
    /// (board, game points) of each of its boards in a played match.
    pub boards: Vec<(u16, u32)>,
}

impl TeamRound {
    /// A voluntarily unplayed round (C.07 16.2.5): not played, not won.
    fn unplayed(&self) -> bool {
        !self.played && !self.won
    }

    fn points(&self, kind: Points) -> u32 {
        match kind {
            Points::Match => self.match_points,
            Points::Game => self.game_points,
        }
    }
}

/// A game played over the board (rated or not), not a forfeit or a bye.
pub(super) fn played(r: ResultChar) -> bool {
    use ResultChar::*;
    matches!(
        r,
        Win | Draw | Loss | UnratedWin | UnratedDraw | UnratedLoss
    )
}

/// Every team's rounds, 1 to `rounds`.
pub(super) struct Rounds {
    pub by_team: BTreeMap<u16, Vec<TeamRound>>,
    /// Points of a drawn round: match points, game points.
    draw: [u32; 2],
    /// Points of a won round: match points, game points; a won game.
    win: [u32; 3],
    /// A round-robin as the checker decides it.
    round_robin: bool,
    /// The 2026 rules (C.07 16.4): an unplayed round's own score is
    /// capped. The checker applies them to events from 2026-03-01.
    rules_2026: bool,
    rounds: u16,
    boards: usize,
}

impl Rounds {
    pub fn of(teams: &Teams, trf: &Trf, all: &[Vec<Match>]) -> Rounds {
        let ps = trf.point_system();
        let mut by_team = BTreeMap::new();
        for team in teams.teams() {
            let rows = all
                .iter()
                .enumerate()
                .map(|(i, matches)| {
                    let round = i as u16 + 1;
                    let mut row = team_round(teams, trf, matches, round, team.number);
                    // `299`: points given outside a game.
                    for a in teams
                        .abnormal()
                        .iter()
                        .filter(|a| a.round == round && a.teams.contains(&team.number))
                    {
                        row.match_points += a.match_points;
                        row.game_points += a.game_points;
                    }
                    row
                })
                .collect();
            by_team.insert(team.number, rows);
        }
        let kind = trf.record("092").unwrap_or_default().to_ascii_uppercase();
        let count = teams.teams().len();
        let planned = usize::from(trf.planned_rounds().unwrap_or(all.len() as u16));
        let round_robin = if kind.contains("SWISS") {
            false
        } else if kind.contains("RR") || kind.contains("ROBIN") || kind.contains("BERGER") {
            true
        } else {
            count == planned + 1
                || count == planned
                || count * 2 == planned + 1
                || count * 2 == planned
        };
        // The checker dates an event without a readable start date today:
        // the current rules.
        let rules_2026 = start_date(&trf.record("042").unwrap_or_default())
            .is_none_or(|d| d.as_str() >= "2026-03-01");
        Rounds {
            by_team,
            draw: [teams.scoring().draw, ps.draw * teams.boards() as u32],
            win: [teams.scoring().win, ps.win * teams.boards() as u32, ps.win],
            round_robin,
            rules_2026,
            rounds: all.len() as u16,
            boards: teams.boards(),
        }
    }

    fn draw(&self, kind: Points) -> u32 {
        match kind {
            Points::Match => self.draw[0],
            Points::Game => self.draw[1],
        }
    }

    pub fn total(&self, team: u16, kind: Points) -> u32 {
        self.by_team[&team].iter().map(|r| r.points(kind)).sum()
    }

    /// A team's score as its opponents' Buchholz counts it: its rounds up
    /// to its last one not voluntarily unplayed as they were, a later
    /// round without an opponent as a draw (C.07 16.3).
    fn adjusted(&self, team: u16, kind: Points) -> u32 {
        let rows = &self.by_team[&team];
        let last = rows
            .iter()
            .rposition(|r| !r.unplayed())
            .map_or(0, |i| i + 1);
        rows.iter()
            .enumerate()
            .map(|(i, r)| {
                if i < last || r.opponent.is_some() {
                    r.points(kind)
                } else if self.round_robin {
                    0
                } else {
                    self.draw(kind)
                }
            })
            .sum()
    }

    /// `BH` or `SB` in hundredths, cut as `t` says.
    pub fn buchholz(&self, t: &TieBreak, team: u16) -> i64 {
        let kind = t.points.unwrap_or(Points::Match);
        let sb = t.name == "SB";
        let own = self.total(team, kind);
        // (unplayed, score counted, value) per round.
        let mut values: Vec<(bool, i64, i64)> = Vec::new();
        for r in &self.by_team[&team] {
            // In a round-robin every round with an opponent counts as
            // played (the checker's default there: "predetermined").
            let score = match r.opponent {
                Some(o) if r.played || self.round_robin => self.adjusted(o, kind),
                _ if self.round_robin => 0,
                Some(o) if self.rules_2026 => own.min(self.adjusted(o, kind)),
                None if self.rules_2026 => own.min(self.draw(kind) * u32::from(self.rounds)),
                _ => own,
            };
            if self.round_robin && r.opponent.is_none() {
                continue;
            }
            let score = i64::from(score);
            let value = if sb {
                score * i64::from(r.points(kind))
            } else {
                score * 10
            };
            let counted_played = (r.played || self.round_robin) && r.opponent.is_some();
            let unplayed = !counted_played && r.unplayed();
            values.push((unplayed, score, value));
        }
        for _ in 0..usize::from(t.cut_low).min(usize::from(self.rounds)) {
            if values.is_empty() {
                break;
            }
            // The lowest; on a tie of value, a voluntarily unplayed round
            // goes first (C.07 16.5).
            let lowest = (0..values.len())
                .min_by_key(|&i| (values[i].1, values[i].2))
                .unwrap_or(0);
            let unplayed = (0..values.len())
                .min_by_key(|&i| (!values[i].0, values[i].1, values[i].2))
                .unwrap_or(0);
            let cut = if values[lowest].2 > values[unplayed].2 {
                lowest
            } else {
                unplayed
            };
            values.remove(cut);
        }
        let high = usize::from(t.cut_high)
            .min(usize::from(self.rounds).saturating_sub(usize::from(t.cut_low)));
        for _ in 0..high {
            let Some(highest) =
                (0..values.len()).max_by_key(|&i| (values[i].1, values[i].2, usize::MAX - i))
            else {
                break;
            };
            values.remove(highest);
        }
        values.iter().map(|v| v.2).sum()
    }

    /// `DE`, `EDE`, `EDET` over the ranking so far (`ranked`: each team
    /// with its shared rank, best first): each team's place inside its
    /// tied group from 1, or 0 when the group stays tied (or is one team).
    pub fn direct_encounter(&self, t: &TieBreak, ranked: &[(u16, u16)]) -> BTreeMap<u16, i64> {
        let primary = t.points.unwrap_or(Points::Match);
        let secondary = match primary {
            Points::Match => Points::Game,
            Points::Game => Points::Match,
        };
        let steps: Vec<Step> = match t.name.as_str() {
            "DE" => vec![Step::Score(primary)],
            "EDE" => vec![Step::Score(primary), Step::Score(secondary)],
            _ => [Step::Score(primary), Step::Score(secondary)]
                .into_iter()
                .chain((0..self.boards).map(Step::TopBoard))
                .collect(),
        };
        let mut de = DirectEncounter {
            rounds: self,
            val: ranked.iter().map(|&(t, r)| (t, i64::from(r))).collect(),
            more: ranked.iter().map(|&(t, _)| (t, true)).collect(),
            order: ranked.to_vec(),
            steps,
            step: 0,
            changed: Vec::new(),
            pass_changes: 0,
        };
        de.changed = vec![true; de.steps.len()];
        de.run();
        // Each group of the ranking so far: places from 1, or 0 when the
        // group ends tied.
        let mut out = BTreeMap::new();
        let mut start = 0;
        let order = &de.order;
        while start < order.len() {
            let rank = order[start].1;
            let stop = order[start..]
                .iter()
                .position(|o| o.1 != rank)
                .map_or(order.len(), |n| start + n);
            let first = de.val[&order[start].0];
            let last = de.val[&order[stop - 1].0];
            let offset = if first != last { first - 1 } else { first };
            for o in &order[start..stop] {
                out.insert(o.0, (de.val[&o.0] - offset) * 100);
            }
            start = stop;
        }
        out
    }
}

/// What one team did in `round`, as the checker reads the file.
fn team_round(teams: &Teams, trf: &Trf, matches: &[Match], round: u16, team: u16) -> TeamRound {
    let ps = trf.point_system();
    let Some(m) = matches
        .iter()
        .find(|m| m.first == team || m.second == Some(team))
    else {
        // Not paired: its players' byes, no match.
        let gp = teams.unpaired_game_points(trf, round, team);
        return TeamRound {
            game_points: gp,
            ..TeamRound::default()
        };
    };
    let side = usize::from(m.first != team);
    let Some(second) = m.second else {
        // A pairing-allocated bye (`320`): a round played for the
        // tie-breaks (C.07 16.2.1), whatever its players' entries say.
        return TeamRound {
            played: true,
            won: false,
            match_points: m.match_points.map_or(0, |p| p[0]),
            game_points: m.game_points[0],
            ..TeamRound::default()
        };
    };
    let opponent = if m.first == team { second } else { m.first };
    let played = m
        .boards
        .iter()
        .any(|b| b.first_result.is_some_and(played) || b.second_result.is_some_and(played));
    let won = match m.forfeited {
        Some(Forfeited::FirstWins) => side == 0,
        Some(Forfeited::SecondWins) => side == 1,
        Some(Forfeited::BothLose) => false,
        None => m.game_points[side] > m.game_points[1 - side],
    };
    let boards = if played {
        m.boards
            .iter()
            .map(|b| {
                let result = if side == 0 {
                    b.first_result
                } else {
                    b.second_result
                };
                (b.board, result.map_or(0, |r| ps.of(r)))
            })
            .collect()
    } else {
        Vec::new()
    };
    TeamRound {
        opponent: Some(opponent),
        played,
        won,
        match_points: m.match_points.map_or(0, |p| p[side]),
        game_points: m.game_points[side],
        boards,
    }
}

/// A start date as the checker reads it: `YYYY-MM-DD` from `2026/03/01`,
/// `2026.03.01`, `01.03.2026` or `26/03/01`; `None` when it is not ten
/// characters then (the checker then takes today's date).
fn start_date(text: &str) -> Option<String> {
    let day = text.trim().split(' ').next().unwrap_or_default();
    let dotted: Vec<&str> = day.split('.').collect();
    let slashed: Vec<&str> = day.split('/').collect();
    let date = if dotted.len() == 3 {
        if dotted[0].len() == 4 {
            day.replace('.', "-")
        } else {
            format!("{}-{}-{}", dotted[2], dotted[1], dotted[0])
        }
    } else if slashed.len() == 3 {
        if slashed[0].len() == 4 {
            day.replace('/', "-")
        } else {
            format!("20{}", day.replace('/', "-"))
        }
    } else {
        day.to_owned()
    };
    (date.len() == 10).then_some(date)
}

/// One step of the extended direct encounter.
#[derive(Debug, Clone, Copy)]
enum Step {
    /// Scores against the others tied (primary, then secondary points).
    Score(Points),
    /// Between exactly two teams: the game points of board `n` (from 0).
    TopBoard(usize),
}

/// The checker's recursive ranking of tied groups: passes over every group
/// still tied, each pass one step; a pass that changes nothing moves to the
/// next step, one that changes something starts the steps' round again.
struct DirectEncounter<'a> {
    rounds: &'a Rounds,
    /// Each team's place so far (starts as its shared rank).
    val: BTreeMap<u16, i64>,
    /// Whether a team's group may still split.
    more: BTreeMap<u16, bool>,
    /// (team, shared rank) in the order of (rank, place, team).
    order: Vec<(u16, u16)>,
    steps: Vec<Step>,
    step: usize,
    changed: Vec<bool>,
    pass_changes: usize,
}

/// At most this many passes, as the checker.
const PASSES: usize = 30;

impl DirectEncounter<'_> {
    fn run(&mut self) {
        let mut pass = 0;
        let mut more = true;
        while more {
            more = false;
            pass += 1;
            self.pass_changes = 0;
            let mut start = 0;
            while start < self.order.len() {
                let v = self.val[&self.order[start].0];
                let stop = self.order[start..]
                    .iter()
                    .position(|o| self.val[&o.0] != v)
                    .map_or(self.order.len(), |n| start + n);
                let group: Vec<u16> = self.order[start..stop].iter().map(|o| o.0).collect();
                if self.more[&group[0]] {
                    let again = if group.len() == 1 {
                        false
                    } else {
                        let changes = self.single(&group);
                        changes > 0 && pass < PASSES
                    };
                    for t in &group {
                        self.more.insert(*t, again);
                    }
                    more |= again;
                }
                start = stop;
            }
            // The pass's end: a step that changed nothing hands over to the
            // next; one that changed something wakes every step.
            let changes = self.pass_changes;
            self.changed[self.step] = changes > 0;
            let left = self.changed.iter().any(|&c| c);
            if changes == 0 {
                self.step = (self.step + 1) % self.steps.len();
                for m in self.more.values_mut() {
                    *m = true;
                }
            } else {
                self.changed.iter_mut().for_each(|c| *c = true);
            }
            more |= left && pass < PASSES;
            let val = &self.val;
            self.order.sort_by_key(|&(t, rank)| (rank, val[&t], t));
        }
    }

    /// One step over one tied group: the changes it counts.
    fn single(&mut self, group: &[u16]) -> usize {
        match self.steps[self.step] {
            Step::Score(kind) => {
                let changes = self.basic(group, |r| f64::from(r.points(kind)), kind.into());
                self.pass_changes += changes;
                changes
            }
            Step::TopBoard(n) => {
                if group.len() == 2 {
                    // The checker does not count these changes.
                    self.basic(
                        group,
                        |r| {
                            f64::from(
                                r.boards
                                    .iter()
                                    .filter(|b| usize::from(b.0) == n + 1)
                                    .map(|b| b.1)
                                    .sum::<u32>(),
                            )
                        },
                        Kind::Board,
                    );
                }
                0
            }
        }
    }

    /// The direct encounter among `group` (all at one place) on the
    /// points `of` each round gives: places by the score against the
    /// others, or, while not all have met, only where a score beats every
    /// lower team's best possible.
    fn basic(&mut self, group: &[u16], of: impl Fn(&TeamRound) -> f64, kind: Kind) -> usize {
        let current = self.val[&group[0]];
        let met_max = group.len() - 1;
        let win = f64::from(match kind {
            Kind::Points(Points::Match) => self.rounds.win[0],
            Kind::Points(Points::Game) => self.rounds.win[1],
            Kind::Board => self.rounds.win[2],
        });
        let mut all_met = true;
        // (team, score, best possible)
        let mut scored: Vec<(u16, f64, f64)> = Vec::new();
        for &team in group {
            let (score, count) = self.score_against(team, group, &of);
            let best = if !self.rounds.round_robin && count < met_max {
                all_met = false;
                score + (met_max - count) as f64 * win
            } else {
                score
            };
            scored.push((team, score, best));
        }
        if all_met {
            self.place_by_score(scored, current)
        } else {
            self.place_where_sure(scored, current)
        }
    }

    /// What `team` scored against the others of `group` (all at one
    /// place), and how many of them it met.
    fn score_against(
        &self,
        team: u16,
        group: &[u16],
        of: &impl Fn(&TeamRound) -> f64,
    ) -> (f64, usize) {
        let current = self.val[&group[0]];
        let mut count = 0usize;
        let mut score = 0.0;
        let mut seen: BTreeMap<u16, f64> = BTreeMap::new();
        for r in &self.rounds.by_team[&team] {
            let Some(o) = r.opponent else { continue };
            let played = r.played || self.rounds.round_robin;
            if !played || self.val.get(&o) != Some(&current) || !group.contains(&o) {
                continue;
            }
            let p = of(r);
            if let Some(old) = seen.get_mut(&o) {
                // A rematch: the average of the two, and (as the
                // checker) one opponent counted.
                score -= *old;
                *old = (*old + p) / 2.0;
                score += *old;
                count = 1;
            } else {
                count += 1;
                score += p;
                seen.insert(o, p);
            }
        }
        (score, count)
    }

    /// All have met: places from `current` on by the score against the
    /// others, equal scores sharing one. The changes it counts.
    fn place_by_score(&mut self, mut scored: Vec<(u16, f64, f64)>, current: i64) -> usize {
        let mut changes = 0;
        scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        let mut rank = current;
        let mut place = current;
        let mut val = scored[0].1;
        for s in &scored[1..] {
            rank += 1;
            if s.1 != val {
                place = rank;
                val = s.1;
                changes += 1;
            }
            self.val.insert(s.0, place);
        }
        changes
    }

    /// Not all have met: a team moves to its own place only while each
    /// score above beats every lower team's best possible. The changes it
    /// counts.
    fn place_where_sure(&mut self, mut scored: Vec<(u16, f64, f64)>, current: i64) -> usize {
        let mut changes = 0;
        scored.sort_by(|a, b| {
            b.1.total_cmp(&a.1)
                .then(b.2.total_cmp(&a.2))
                .then(a.0.cmp(&b.0))
        });
        let mut rank = current;
        let mut place = current;
        let mut val = scored[0].1;
        let mut unique = true;
        for i in 1..scored.len() {
            rank += 1;
            let best_below = scored[i..].iter().map(|s| s.2).fold(f64::MIN, f64::max);
            if unique && val > best_below {
                place = rank;
                changes += 1;
            } else {
                unique = false;
            }
            val = scored[i].1;
            self.val.insert(scored[i].0, place);
        }
        changes
    }
}

/// What a direct encounter step counts: match or game points, or a
/// board's points (a win 1.0, in tenths).
#[derive(Debug, Clone, Copy)]
enum Kind {
    Points(Points),
    Board,
}

impl From<Points> for Kind {
    fn from(p: Points) -> Kind {
        Kind::Points(p)
    }
}
