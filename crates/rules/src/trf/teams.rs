//! TRF-26's team records: which players make a team, in which board order,
//! how matches are scored, and what a pairing program or the arbiter wrote
//! outside the players' games. Read when the file is read (a bad record
//! refuses the file, naming its line); every line is still given back as
//! it was, except the columns tactus writes (a team's points and rank).
//!
//! | record | columns (1-based) | what tactus reads |
//! |--------|-------------------|-------------------|
//! | `310`  | number 5–7, name 9–40, short name 42–46, strength 48–53, match points 55–60, game points 62–67, rank 69–71, players 74–77, 79–82, … | a team and its players in board order |
//! | `013`  | name 5–36, players 37–40, 42–45, … | a team, numbered in file order (only when there is no `310`) |
//! | `352`  | letters from 5 (`WBWB`) | the colour of each board for the first-named team |
//! | `362`  | `TW 2 TD 1 TL 0` (a code and its points, in any spacing) | match points of a won, drawn, lost match |
//! | `300`  | round 5–7, team 9–11, opponent 13–15, players 17–20, 22–25, … (`0000` an empty board) | a line-up out of the default order |
//! | `320`  | match points 5–8, game points 10–13, then the team of round 1 at 15–17, round 2 at 19–21, … | a team's pairing-allocated bye |
//! | `330`  | `+-` `-+` `--` 5–6, round 8–10, first team 12–14, second team 16–18 | a forfeited match |
//! | `299`  | kind 5, match points 8–11, game points 14–17, round 19–21, teams 24–27, 29–32, … | points given outside a game |
//! | `202`  | FIDE's tie-break names (C.07), comma or space separated, modifiers after `/` | the order of the team standings |
//!
//! The column positions of `310`, `300` and `330` are TRF-26's and FIDE's
//! own checker's (TieBreakServer); `320` and `299` as TieBreakServer reads
//! their points.

use std::collections::BTreeMap;

use shakmaty::Color;

use super::{RoundEntry, Trf, TrfError, TrfErrorKind, columns, field, tenths};

/// The most teams a file may hold (`310`'s number has three columns).
pub const MAX_TEAMS: u16 = 999;

/// One team (`310`, or the older `013`).
///
/// # Examples
///
/// ```
/// use tactus_rules::trf::Trf;
///
/// let file = "001    1      Ana\n001    2      Bea\n\
/// 310   1 Lions                            LIO             2.0    1.5   1     2    1\n";
/// let trf = Trf::parse(file).unwrap();
/// let lions = trf.teams().unwrap().team(1).unwrap();
/// assert_eq!(lions.name, "Lions");
/// assert_eq!(lions.short, "LIO");
/// assert_eq!(lions.players, [2, 1]);
/// assert_eq!(lions.match_points, Some(20));
/// assert_eq!(lions.rank, Some(1));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Team {
    /// The team's pairing number (`310` columns 5–7; an `013` line's
    /// place among the `013` lines).
    pub number: u16,
    /// Columns 9–40 (`013`: 5–36).
    pub name: String,
    /// Columns 42–46 (empty for `013`).
    pub short: String,
    /// Columns 48–53 as written (an average rating, or empty).
    pub strength: String,
    /// Columns 55–60 in tenths.
    pub match_points: Option<u32>,
    /// Columns 62–67 in tenths.
    pub game_points: Option<u32>,
    /// Columns 69–71.
    pub rank: Option<u16>,
    /// Its players' start ranks in the fixed board order (reserves last).
    pub players: Vec<u16>,
    /// The line, from 1.
    pub line: usize,
    /// `310` (true) or `013`.
    pub extended: bool,
}

/// Match points of a won, drawn and lost match (`362`), in tenths:
/// FIDE's 2/1/0 unless the file says otherwise.
///
/// # Examples
///
/// ```
/// use tactus_rules::trf::{MatchScoring, Trf};
///
/// assert_eq!(MatchScoring::default(), MatchScoring { win: 20, draw: 10, loss: 0 });
/// let trf = Trf::parse("362 TW 3 TD 1 TL 0\n001    1      Ana\n310   1 A\n").unwrap();
/// assert_eq!(trf.teams().unwrap().scoring().win, 30);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MatchScoring {
    /// A won match.
    pub win: u32,
    /// A drawn match.
    pub draw: u32,
    /// A lost match.
    pub loss: u32,
}

impl Default for MatchScoring {
    fn default() -> MatchScoring {
        MatchScoring {
            win: 20,
            draw: 10,
            loss: 0,
        }
    }
}

/// A line-up out of the default order (`300`): who plays which board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lineup {
    /// The round, from 1.
    pub round: u16,
    /// The team's number.
    pub team: u16,
    /// The opponent team (0 when not known: written before the pairing).
    pub opponent: u16,
    /// Start ranks for boards 1, 2, …; 0 an empty board.
    pub boards: Vec<u16>,
    /// The line, from 1 (0: not from a file).
    pub line: usize,
}

impl Lineup {
    /// The record as TRF-26 writes it.
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::trf::Lineup;
    ///
    /// let l = Lineup { round: 2, team: 3, opponent: 5, boards: vec![11, 13, 0], line: 0 };
    /// assert_eq!(l.to_record(), "300   2   3   5   11   13    0");
    /// ```
    pub fn to_record(&self) -> String {
        let mut s = format!(
            "300 {:>3} {:>3} {:>3}",
            self.round, self.team, self.opponent
        );
        for b in &self.boards {
            s.push_str(&format!(" {b:>4}"));
        }
        s
    }
}

/// How a match was forfeited (`330`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Forfeited {
    /// `+-`: the first team wins.
    FirstWins,
    /// `-+`: the second team wins.
    SecondWins,
    /// `--`: both lose.
    BothLose,
}

/// A forfeited match (`330`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ForfeitedMatch {
    /// The round, from 1.
    pub round: u16,
    /// The first-named team.
    pub first: u16,
    /// The second team.
    pub second: u16,
    /// How it was forfeited.
    pub kind: Forfeited,
    /// The line, from 1.
    pub line: usize,
}

/// A team's pairing-allocated bye (`320`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TeamBye {
    /// The round, from 1.
    pub round: u16,
    /// The team's number.
    pub team: u16,
    /// Tenths, as the record gives them.
    pub match_points: u32,
    /// Game points, in tenths.
    pub game_points: u32,
    /// The line, from 1.
    pub line: usize,
}

/// Points given outside a game (`299`): added to each team named, in the
/// round named.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AbnormalPoints {
    /// The round, from 1.
    pub round: u16,
    /// The teams given the points.
    pub teams: Vec<u16>,
    /// Match points, in tenths.
    pub match_points: u32,
    /// Game points, in tenths.
    pub game_points: u32,
    /// The line, from 1.
    pub line: usize,
}

/// Which score a tie-break counts (`:MP`, `:GP`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Points {
    /// Match points (`:MP`).
    Match,
    /// Game points (`:GP`).
    Game,
}

/// One tie-break of `202`, as FIDE's C.07 names it: `MPTS`, `GPTS`,
/// `EDET`, `BH:MP/C1`, `SB`, ….
///
/// # Examples
///
/// ```
/// use tactus_rules::trf::{Points, TieBreak};
///
/// let bh = TieBreak::parse("BH:MP/C1/P");
/// assert_eq!(bh.name, "BH");
/// assert_eq!(bh.points, Some(Points::Match));
/// assert_eq!((bh.cut_low, bh.cut_high), (1, 0));
/// assert_eq!(bh.to_string(), "BH:MP/C1/P");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TieBreak {
    /// The name, upper case, without its point kind and modifiers.
    pub name: String,
    /// `:MP` or `:GP`, if written.
    pub points: Option<Points>,
    /// `/C1`: the lowest n cut; `/M1`: the lowest and highest n.
    pub cut_low: u8,
    /// `/M1`: the highest n cut too.
    pub cut_high: u8,
    /// As written.
    pub text: String,
}

impl TieBreak {
    /// Reads one name as `202` writes it (never fails: an unknown name
    /// counts as 0 for every team, as FIDE's checker counts it).
    pub fn parse(text: &str) -> TieBreak {
        let upper = text.trim().to_ascii_uppercase();
        let mut parts = upper.split(['/', '!', '#']);
        let head = parts.next().unwrap_or_default();
        let (name, kind) = head.split_once(':').unwrap_or((head, ""));
        let name = name.split('@').next().unwrap_or_default().to_owned();
        let points = match kind {
            "MP" => Some(Points::Match),
            "GP" => Some(Points::Game),
            _ => None,
        };
        let (mut cut_low, mut cut_high) = (0, 0);
        for m in parts {
            let n = m.get(1..).and_then(|d| d.parse::<u8>().ok());
            match (m.chars().next(), n) {
                (Some('C'), Some(n)) => cut_low = n,
                (Some('M'), Some(n)) => (cut_low, cut_high) = (n, n),
                _ => {}
            }
        }
        TieBreak {
            name,
            points,
            cut_low,
            cut_high,
            text: text.trim().to_owned(),
        }
    }
}

impl std::fmt::Display for TieBreak {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

/// Everything a file says about its teams.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Teams {
    teams: Vec<Team>,
    /// Player's start rank to (team number, index in its board order).
    of_player: BTreeMap<u16, (u16, usize)>,
    colours: Vec<Color>,
    scoring: MatchScoring,
    lineups: Vec<Lineup>,
    byes: Vec<TeamBye>,
    forfeits: Vec<ForfeitedMatch>,
    abnormal: Vec<AbnormalPoints>,
    tiebreaks: Vec<TieBreak>,
}

impl Teams {
    /// The teams in the file's order.
    pub fn teams(&self) -> &[Team] {
        &self.teams
    }

    /// The team numbered `number`.
    pub fn team(&self, number: u16) -> Option<&Team> {
        self.teams.iter().find(|t| t.number == number)
    }

    /// The team of player `rank`, if any.
    pub fn team_of(&self, rank: u16) -> Option<u16> {
        self.of_player.get(&rank).map(|&(t, _)| t)
    }

    /// `352`'s colours, board 1 first, for the first-named team of a
    /// match; `WBWB…` (as long as the largest team) when there is none.
    pub fn colours(&self) -> Vec<Color> {
        if !self.colours.is_empty() {
            return self.colours.clone();
        }
        let len = self
            .teams
            .iter()
            .map(|t| t.players.len())
            .max()
            .unwrap_or(0);
        (0..len)
            .map(|i| {
                if i % 2 == 0 {
                    Color::White
                } else {
                    Color::Black
                }
            })
            .collect()
    }

    /// How many boards a match has: `352`'s length, or the smallest
    /// team's size when there is no `352`.
    pub fn boards(&self) -> usize {
        if !self.colours.is_empty() {
            return self.colours.len();
        }
        self.teams
            .iter()
            .map(|t| t.players.len())
            .min()
            .unwrap_or(0)
    }

    /// `362`, or 2/1/0.
    pub fn scoring(&self) -> MatchScoring {
        self.scoring
    }

    /// The `300` records.
    pub fn lineups(&self) -> &[Lineup] {
        &self.lineups
    }

    /// The `320` records, one per team and round.
    pub fn byes(&self) -> &[TeamBye] {
        &self.byes
    }

    /// The `330` records.
    pub fn forfeits(&self) -> &[ForfeitedMatch] {
        &self.forfeits
    }

    /// The `299` records.
    pub fn abnormal(&self) -> &[AbnormalPoints] {
        &self.abnormal
    }

    /// `202`'s tie-breaks in order, as written.
    pub fn tiebreaks(&self) -> &[TieBreak] {
        &self.tiebreaks
    }

    /// The `300` line-up of `team` in `round`, if the file has one.
    pub fn lineup(&self, round: u16, team: u16) -> Option<&Lineup> {
        self.lineups
            .iter()
            .find(|l| l.round == round && l.team == team)
    }

    /// Reads the team records of `trf`; `None` when it has neither `310`
    /// nor `013` (an individual event).
    pub(super) fn read(trf: &Trf) -> Result<Option<Teams>, TrfError> {
        let has_310 = trf.lines.iter().any(|l| l.text.starts_with(b"310"));
        let mut section = Teams {
            teams: Vec::new(),
            of_player: BTreeMap::new(),
            colours: Vec::new(),
            scoring: MatchScoring::default(),
            lineups: Vec::new(),
            byes: Vec::new(),
            forfeits: Vec::new(),
            abnormal: Vec::new(),
            tiebreaks: Vec::new(),
        };
        let mut old_teams = 0u16;
        for (i, line) in trf.lines.iter().enumerate() {
            let n = i + 1;
            let code = match line.text.get(..3) {
                Some(c) => c,
                None => continue,
            };
            let cols = columns(&line.text, trf.utf8);
            let fail = |kind| TrfError { line: n, kind };
            match code {
                b"310" | b"013" => {
                    let extended = code == b"310";
                    if !extended && has_310 {
                        // The older line beside a `310`: FIDE's checker reads
                        // only the `310`s, so does tactus.
                        continue;
                    }
                    old_teams += 1;
                    let team = read_team(&cols, n, extended, old_teams).map_err(fail)?;
                    section.add_team(team, trf).map_err(fail)?;
                }
                _ => section.read_record(code, &cols, n).map_err(fail)?,
            }
        }
        if section.teams.is_empty() {
            return Ok(None);
        }
        section.check_references()?;
        section.check_games(trf)?;
        Ok(Some(section))
    }

    /// Adds a team read from a `310` or `013`: its number not taken yet,
    /// each of its players one of `trf`'s and of no other team.
    fn add_team(&mut self, team: Team, trf: &Trf) -> Result<(), TrfErrorKind> {
        if let Some(first) = self.teams.iter().find(|t| t.number == team.number) {
            return Err(TrfErrorKind::TeamTwice {
                team: team.number,
                first: first.line,
            });
        }
        for (board, &rank) in team.players.iter().enumerate() {
            if trf.player(rank).is_none() {
                return Err(TrfErrorKind::TeamPlayerUnknown {
                    team: team.number,
                    rank,
                });
            }
            if let Some(&(other, _)) = self.of_player.get(&rank) {
                return Err(TrfErrorKind::PlayerInTwoTeams {
                    rank,
                    team: team.number,
                    other,
                });
            }
            self.of_player.insert(rank, (team.number, board));
        }
        self.teams.push(team);
        Ok(())
    }

    /// Reads one record other than a team's (`352`, `362`, `300`, `320`,
    /// `330`, `299`, `202`) at line `n`; other codes are not the teams'.
    fn read_record(&mut self, code: &[u8], cols: &[char], n: usize) -> Result<(), TrfErrorKind> {
        match code {
            b"352" => {
                self.colours = read_colours(cols)?;
            }
            b"362" => self.scoring = read_scoring(cols)?,
            b"300" => self.lineups.push(read_lineup(cols, n)?),
            b"320" => self.byes.extend(read_byes(cols, n)?),
            b"330" => self.forfeits.push(read_forfeit(cols, n)?),
            b"299" => self.abnormal.push(read_abnormal(cols, n)?),
            b"202" => {
                let text: String = cols.iter().skip(4).collect();
                self.tiebreaks = text
                    .split([',', ' '])
                    .filter(|t| !t.trim().is_empty())
                    .map(TieBreak::parse)
                    .collect();
            }
            _ => {}
        }
        Ok(())
    }

    /// Every team a `300`, `320`, `330` or `299` names has a record, and a
    /// `300` names only its own team's players.
    fn check_references(&self) -> Result<(), TrfError> {
        let known = |code: &'static str, team: u16, line: usize| {
            if team == 0 || self.team(team).is_some() {
                Ok(())
            } else {
                Err(TrfError {
                    line,
                    kind: TrfErrorKind::UnknownTeam { code, team },
                })
            }
        };
        for l in &self.lineups {
            known("300", l.team, l.line)?;
            known("300", l.opponent, l.line)?;
            for &rank in l.boards.iter().filter(|&&r| r != 0) {
                if self.team_of(rank) != Some(l.team) {
                    return Err(TrfError {
                        line: l.line,
                        kind: TrfErrorKind::NotOfTeam { rank, team: l.team },
                    });
                }
            }
        }
        for b in &self.byes {
            known("320", b.team, b.line)?;
        }
        for f in &self.forfeits {
            known("330", f.first, f.line)?;
            known("330", f.second, f.line)?;
        }
        for a in &self.abnormal {
            for &t in &a.teams {
                known("299", t, a.line)?;
            }
        }
        Ok(())
    }

    /// No game pairs two players of one team, and in each round a team's
    /// players meet the players of one other team only.
    fn check_games(&self, trf: &Trf) -> Result<(), TrfError> {
        let mut against: BTreeMap<(u16, u16), (u16, usize)> = BTreeMap::new();
        for p in trf.players() {
            let Some(team) = self.team_of(p.start_rank) else {
                continue;
            };
            for (i, entry) in p.rounds.iter().enumerate() {
                let RoundEntry::Game { opponent, .. } = *entry else {
                    continue;
                };
                let round = u16::try_from(i + 1).unwrap_or(super::MAX_ROUNDS);
                let Some(other) = self.team_of(opponent) else {
                    continue;
                };
                if other == team {
                    return Err(TrfError {
                        line: p.line,
                        kind: TrfErrorKind::SameTeam {
                            round,
                            rank: p.start_rank,
                            opponent,
                            team,
                        },
                    });
                }
                match against.get(&(round, team)) {
                    Some(&(first, _)) if first != other => {
                        return Err(TrfError {
                            line: p.line,
                            kind: TrfErrorKind::TeamPlaysTwo {
                                round,
                                team,
                                first,
                                second: other,
                            },
                        });
                    }
                    Some(_) => {}
                    None => {
                        against.insert((round, team), (other, p.line));
                    }
                }
            }
        }
        Ok(())
    }
}

/// A number field of a team record: blank is `None`.
fn number(
    cols: &[char],
    code: &'static str,
    what: &'static str,
    first: usize,
    last: usize,
    max: u32,
) -> Result<Option<u32>, TrfErrorKind> {
    let value = field(cols, first, last);
    if value.is_empty() {
        return Ok(None);
    }
    match value.parse::<u32>() {
        Ok(n) if n <= max && value.bytes().all(|b| b.is_ascii_digit()) => Ok(Some(n)),
        _ => Err(TrfErrorKind::TeamField {
            code,
            field: what,
            columns: format!("{first}-{last}"),
            value,
            expected: "not a whole number",
        }),
    }
}

/// A points field (`1111.5`) of a team record, in tenths: blank is `None`.
fn points(
    cols: &[char],
    code: &'static str,
    what: &'static str,
    first: usize,
    last: usize,
) -> Result<Option<u32>, TrfErrorKind> {
    let value = field(cols, first, last);
    if value.is_empty() {
        return Ok(None);
    }
    tenths(&value).map(Some).ok_or(TrfErrorKind::TeamField {
        code,
        field: what,
        columns: format!("{first}-{last}"),
        value,
        expected: "not points such as 12.5",
    })
}

/// Start ranks every 5 columns from `first` (4 columns each) to the line's
/// end; `0000` or blank is an empty place, left out unless `keep_empty`.
fn ranks_from(
    cols: &[char],
    code: &'static str,
    first: usize,
    keep_empty: bool,
) -> Result<Vec<u16>, TrfErrorKind> {
    let mut ranks = Vec::new();
    let mut at = first;
    while at <= cols.len() {
        // The one column between two ranks must be blank: a misaligned
        // list would otherwise read as other players.
        if at > first && cols.get(at - 2).is_some_and(|c| *c != ' ') {
            return Err(TrfErrorKind::TeamField {
                code,
                field: "player",
                columns: format!("{}", at - 1),
                value: cols[at - 2].to_string(),
                expected: "not blank (start ranks are 4 columns, one blank between)",
            });
        }
        let rank = number(cols, code, "player", at, at + 3, 9999)?;
        match rank {
            Some(r @ 1..) => ranks.push(r as u16),
            _ if keep_empty => ranks.push(0),
            _ => {}
        }
        at += 5;
    }
    if keep_empty {
        while ranks.last() == Some(&0) {
            ranks.pop();
        }
    }
    Ok(ranks)
}

fn read_team(cols: &[char], line: usize, extended: bool, place: u16) -> Result<Team, TrfErrorKind> {
    if !extended {
        return Ok(Team {
            number: place,
            name: field(cols, 5, 36),
            short: String::new(),
            strength: String::new(),
            match_points: None,
            game_points: None,
            rank: None,
            players: ranks_from(cols, "013", 37, false)?,
            line,
            extended,
        });
    }
    let team_number = match number(cols, "310", "team number", 5, 7, u32::from(MAX_TEAMS))? {
        Some(n @ 1..) => n as u16,
        _ => {
            return Err(TrfErrorKind::TeamField {
                code: "310",
                field: "team number",
                columns: "5-7".into(),
                value: field(cols, 5, 7),
                expected: "not a number from 1 to 999",
            });
        }
    };
    Ok(Team {
        number: team_number,
        name: field(cols, 9, 40),
        short: field(cols, 42, 46),
        strength: field(cols, 48, 53),
        match_points: points(cols, "310", "match points", 55, 60)?,
        game_points: points(cols, "310", "game points", 62, 67)?,
        rank: number(cols, "310", "rank", 69, 71, 999)?.map(|n| n as u16),
        players: ranks_from(cols, "310", 74, false)?,
        line,
        extended,
    })
}

fn read_colours(cols: &[char]) -> Result<Vec<Color>, TrfErrorKind> {
    let text = field(cols, 5, cols.len().max(5));
    text.chars()
        .map(|c| match c {
            'W' | 'w' => Ok(Color::White),
            'B' | 'b' => Ok(Color::Black),
            _ => Err(TrfErrorKind::TeamField {
                code: "352",
                field: "colours",
                columns: "5-".into(),
                value: text.clone(),
                expected: "not a sequence of W and B",
            }),
        })
        .collect()
}

fn read_scoring(cols: &[char]) -> Result<MatchScoring, TrfErrorKind> {
    let text: String = cols.iter().skip(3).collect();
    let fail = || TrfErrorKind::TeamField {
        code: "362",
        field: "match scoring",
        columns: "5-".into(),
        value: text.trim().to_owned(),
        expected: "not codes TW, TD, TL each followed by its points",
    };
    let mut scoring = MatchScoring::default();
    let mut words = text.split_whitespace();
    while let Some(code) = words.next() {
        let value = words.next().and_then(tenths).ok_or_else(fail)?;
        match code {
            "TW" | "W" => scoring.win = value,
            "TD" | "D" => scoring.draw = value,
            "TL" | "L" => scoring.loss = value,
            // The byes' codes FIDE's checker knows: kept, not used here.
            "TP" | "P" | "TZ" | "Z" | "TA" | "A" | "TX" | "X" => {}
            _ => return Err(fail()),
        }
    }
    Ok(scoring)
}

fn read_lineup(cols: &[char], line: usize) -> Result<Lineup, TrfErrorKind> {
    let need = |what, first, last, max| {
        number(cols, "300", what, first, last, max)?.ok_or(TrfErrorKind::TeamField {
            code: "300",
            field: what,
            columns: format!("{first}-{last}"),
            value: String::new(),
            expected: "blank: it is required",
        })
    };
    let round = need("round", 5, 7, u32::from(super::MAX_ROUNDS))?;
    let team = need("team", 9, 11, u32::from(MAX_TEAMS))?;
    let opponent = number(cols, "300", "opponent", 13, 15, u32::from(MAX_TEAMS))?.unwrap_or(0);
    Ok(Lineup {
        round: round as u16,
        team: team as u16,
        opponent: opponent as u16,
        boards: ranks_from(cols, "300", 17, true)?,
        line,
    })
}

fn read_byes(cols: &[char], line: usize) -> Result<Vec<TeamBye>, TrfErrorKind> {
    let match_points = points(cols, "320", "match points", 5, 8)?.unwrap_or(0);
    let game_points = points(cols, "320", "game points", 10, 13)?.unwrap_or(0);
    let mut byes = Vec::new();
    let mut at = 15;
    let mut round = 1u16;
    while at <= cols.len() && round <= super::MAX_ROUNDS {
        if let Some(team @ 1..) = number(cols, "320", "team", at, at + 2, u32::from(MAX_TEAMS))? {
            byes.push(TeamBye {
                round,
                team: team as u16,
                match_points,
                game_points,
                line,
            });
        }
        at += 4;
        round += 1;
    }
    Ok(byes)
}

fn read_forfeit(cols: &[char], line: usize) -> Result<ForfeitedMatch, TrfErrorKind> {
    let code = field(cols, 5, 6);
    let kind = match code.to_ascii_uppercase().as_str() {
        "+-" | "10" | "WL" | "WZ" => Forfeited::FirstWins,
        "-+" | "01" | "LW" | "ZW" => Forfeited::SecondWins,
        "--" | "00" | "LL" | "ZZ" => Forfeited::BothLose,
        _ => {
            return Err(TrfErrorKind::TeamField {
                code: "330",
                field: "forfeit",
                columns: "5-6".into(),
                value: code,
                expected: "not +-, -+ or --",
            });
        }
    };
    let need = |what, first, last, max| {
        number(cols, "330", what, first, last, max)?
            .filter(|&n| n > 0)
            .ok_or(TrfErrorKind::TeamField {
                code: "330",
                field: what,
                columns: format!("{first}-{last}"),
                value: field(cols, first, last),
                expected: "not a number from 1",
            })
    };
    Ok(ForfeitedMatch {
        round: need("round", 8, 10, u32::from(super::MAX_ROUNDS))? as u16,
        first: need("first team", 12, 14, u32::from(MAX_TEAMS))? as u16,
        second: need("second team", 16, 18, u32::from(MAX_TEAMS))? as u16,
        kind,
        line,
    })
}

fn read_abnormal(cols: &[char], line: usize) -> Result<AbnormalPoints, TrfErrorKind> {
    let round = number(cols, "299", "round", 19, 21, u32::from(super::MAX_ROUNDS))?.unwrap_or(0);
    let teams: Vec<u16> = ranks_from(cols, "299", 24, false)?;
    if let Some(&t) = teams.iter().find(|&&t| t > MAX_TEAMS) {
        return Err(TrfErrorKind::TeamField {
            code: "299",
            field: "team",
            columns: "24-".into(),
            value: t.to_string(),
            expected: "not a team number from 1 to 999",
        });
    }
    Ok(AbnormalPoints {
        round: round as u16,
        teams,
        match_points: points(cols, "299", "match points", 8, 11)?.unwrap_or(0),
        game_points: points(cols, "299", "game points", 14, 17)?.unwrap_or(0),
        line,
    })
}

/// Tenths as `1111.5` right-aligned in `width` columns; `None` if wider.
pub(super) fn points_text(tenths: u32, width: usize) -> Option<String> {
    let text = format!("{}.{}", tenths / 10, tenths % 10);
    (text.len() <= width).then(|| format!("{text:>width$}"))
}

/// Why a line-up cannot stand: the team's fixed order is kept (a player
/// may sit out and the ones below move up, never change places), only its
/// own players, enough of them for every board.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LineupError {
    /// A player not of this team.
    #[error("boards[{index}]: player {rank} is not of team {team}")]
    NotOfTeam {
        /// The place in the line-up, from 0.
        index: usize,
        /// The player.
        rank: u16,
        /// The team.
        team: u16,
    },
    /// A player placed above one who comes before them in the fixed order.
    #[error(
        "boards[{index}]: player {rank} comes before player {above} in the team's order, \
         so cannot play below them"
    )]
    OutOfOrder {
        /// The place in the line-up, from 0.
        index: usize,
        /// The player placed too low.
        rank: u16,
        /// The player placed above them.
        above: u16,
    },
    /// A player named twice.
    #[error("boards[{index}]: player {rank} is named twice")]
    Twice {
        /// The second place, from 0.
        index: usize,
        /// The player.
        rank: u16,
    },
    /// Fewer players than boards.
    #[error("boards: {given} players for {boards} boards")]
    TooShort {
        /// Players named.
        given: usize,
        /// Boards of a match.
        boards: usize,
    },
}

impl Team {
    /// Checks a line-up for `boards` boards: the team's own players, each
    /// once, in the team's fixed order, at least one per board.
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::trf::{LineupError, Trf};
    ///
    /// let trf = Trf::parse(tactus_rules::trf::TEAM_EXAMPLE).unwrap();
    /// let lions = trf.teams().unwrap().team(1).unwrap(); // players 1, 2, 3
    /// assert_eq!(lions.check_lineup(&[1, 3], 2), Ok(()));
    /// assert!(matches!(lions.check_lineup(&[3, 1], 2), Err(LineupError::OutOfOrder { rank: 1, above: 3, .. })));
    /// assert!(matches!(lions.check_lineup(&[1, 4], 2), Err(LineupError::NotOfTeam { rank: 4, .. })));
    /// assert!(matches!(lions.check_lineup(&[1], 2), Err(LineupError::TooShort { given: 1, boards: 2 })));
    /// ```
    pub fn check_lineup(&self, lineup: &[u16], boards: usize) -> Result<(), LineupError> {
        let mut last: Option<(usize, u16)> = None;
        for (index, &rank) in lineup.iter().enumerate() {
            let Some(place) = self.players.iter().position(|&r| r == rank) else {
                return Err(LineupError::NotOfTeam {
                    index,
                    rank,
                    team: self.number,
                });
            };
            if lineup[..index].contains(&rank) {
                return Err(LineupError::Twice { index, rank });
            }
            if let Some((above_place, above)) = last
                && place < above_place
            {
                return Err(LineupError::OutOfOrder { index, rank, above });
            }
            last = Some((place, rank));
        }
        if lineup.len() < boards {
            return Err(LineupError::TooShort {
                given: lineup.len(),
                boards,
            });
        }
        Ok(())
    }

    /// The default line-up: the first `boards` players in order, leaving
    /// out those in `resting`.
    pub fn default_lineup(&self, boards: usize, resting: &[u16]) -> Vec<u16> {
        self.players
            .iter()
            .copied()
            .filter(|r| !resting.contains(r))
            .take(boards)
            .collect()
    }
}
