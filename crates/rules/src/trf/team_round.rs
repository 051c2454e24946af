//! A team pairing engine pairs teams, not players: its list is the count,
//! then one `first second` line of team numbers per match (`team 0`: a
//! bye). tactus writes the round's boards into the players' `001` lines
//! from each team's line-up and `352`'s colours (board 1's colour for the
//! first-named team), and a `300` for each line-up that is not the team's
//! first players in order, so that the file reads back as that round's
//! pairings for any program.

use std::collections::BTreeMap;

use shakmaty::Color;

use super::teams::Lineup;
use super::{FIRST_ROUND_COLUMN, MAX_ROUNDS, ROUND_WIDTH, Trf, TrfError, TrfErrorKind};

/// One match of a team engine's list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TeamPairing {
    /// The first-named team (board 1's colour of `352`).
    pub first: u16,
    /// The second team; `None` for a bye.
    pub second: Option<u16>,
}

/// Why a team engine's list does not read, naming its line (from 1).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {problem}")]
pub struct TeamPairingsError {
    /// The line, from 1.
    pub line: usize,
    /// What is wrong.
    pub problem: String,
}

/// Reads a team engine's list: the number of matches, then `first second`
/// per line (`0` for a bye, on either side).
///
/// # Examples
///
/// ```
/// use tactus_rules::trf::{TeamPairing, parse_team_pairings};
///
/// let list = parse_team_pairings("2\n3 1\n2 0\n").unwrap();
/// assert_eq!(list, [
///     TeamPairing { first: 3, second: Some(1) },
///     TeamPairing { first: 2, second: None },
/// ]);
/// assert_eq!(parse_team_pairings("2\n3 1\n").unwrap_err().to_string(), "line 1: the count says 2 matches, the list has 1");
/// ```
pub fn parse_team_pairings(text: &str) -> Result<Vec<TeamPairing>, TeamPairingsError> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty());
    let fail = |line, problem: String| TeamPairingsError { line, problem };
    let Some((first_line, count)) = lines.next() else {
        return Err(fail(
            1,
            "empty: the first line is the number of matches".into(),
        ));
    };
    let count: usize = count.parse().map_err(|_| {
        fail(
            first_line,
            format!("`{count}` is not the number of matches"),
        )
    })?;
    let mut out = Vec::new();
    let mut seen: BTreeMap<u16, usize> = BTreeMap::new();
    for (n, l) in lines {
        let teams: Vec<&str> = l.split_whitespace().collect();
        let [a, b] = teams[..] else {
            return Err(fail(n, format!("`{l}` is not two team numbers")));
        };
        let num = |s: &str| {
            s.parse::<u16>()
                .ok()
                .filter(|&t| t <= super::MAX_TEAMS)
                .ok_or_else(|| fail(n, format!("`{s}` is not a team number")))
        };
        let (a, b) = (num(a)?, num(b)?);
        let pairing = match (a, b) {
            (0, 0) => return Err(fail(n, "two byes".into())),
            (0, t) | (t, 0) => TeamPairing {
                first: t,
                second: None,
            },
            (a, b) if a == b => return Err(fail(n, format!("team {a} against itself"))),
            (a, b) => TeamPairing {
                first: a,
                second: Some(b),
            },
        };
        for t in [Some(pairing.first), pairing.second].into_iter().flatten() {
            if let Some(first) = seen.insert(t, n) {
                return Err(fail(n, format!("team {t} is also paired on line {first}")));
            }
        }
        out.push(pairing);
    }
    if out.len() != count {
        return Err(fail(
            first_line,
            format!("the count says {count} matches, the list has {}", out.len()),
        ));
    }
    Ok(out)
}

impl Trf {
    /// The file with round `round` paired from a team engine's list: each
    /// match's boards from the two teams' line-ups (`lineups`, or the
    /// team's first players in order), board `i`'s first-team player with
    /// `352`'s colour `i`; a team's bye gets a `320` (a drawn match: `TD`
    /// match points, half the boards' points), its players and every
    /// player who sits out a zero-point bye (`Z`). A line-up that is not
    /// the team's first players gets a `300`.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::collections::BTreeMap;
    /// use tactus_rules::trf::{TeamPairing, Trf};
    ///
    /// let trf = Trf::parse(tactus_rules::trf::TEAM_EXAMPLE).unwrap();
    /// // Round 3: Tigers first; Lions rest board 1 (start rank 1).
    /// let lineups = BTreeMap::from([(1, vec![2, 3])]);
    /// let paired = trf
    ///     .with_team_round(3, &[TeamPairing { first: 2, second: Some(1) }], &lineups)
    ///     .unwrap();
    /// let m = &paired.teams().unwrap().matches(&paired, 3)[0];
    /// assert_eq!((m.first, m.boards[0].first, m.boards[0].second), (2, 4, 2));
    /// assert!(paired.to_string().ends_with("300   3   1   2    2    3\n"));
    /// ```
    pub fn with_team_round(
        &self,
        round: u16,
        pairings: &[TeamPairing],
        lineups: &BTreeMap<u16, Vec<u16>>,
    ) -> Result<Trf, TrfError> {
        let fail = |kind| Err(TrfError { line: 0, kind });
        if round == 0 || round > MAX_ROUNDS {
            return fail(TrfErrorKind::BadRound(round));
        }
        let Some(teams) = self.teams() else {
            return fail(TrfErrorKind::NotATeamEvent);
        };
        let boards = teams.boards();
        let planned = plan_round(teams, round, boards, pairings, lineups)?;
        let mut out = self.clone();
        self.write_blocks(&mut out, round, &planned.blocks)?;
        out.append_records(
            round,
            planned.records,
            &planned.byes,
            teams.scoring().draw,
            self.point_system().draw * boards as u32,
        )?;
        Trf::from_bytes(&out.to_bytes())
    }

    /// Each planned block written into its player's line at round
    /// `round`'s columns (a player already paired that round refused).
    fn write_blocks(&self, out: &mut Trf, round: u16, blocks: &[Block]) -> Result<(), TrfError> {
        let fail = |kind| Err(TrfError { line: 0, kind });
        for &(rank, opponent, colour, result) in blocks {
            let Some(player) = self.player(rank) else {
                return fail(TrfErrorKind::UnknownPlayer(rank));
            };
            if player.round(round) != super::RoundEntry::NotPaired {
                return Err(TrfError {
                    line: player.line,
                    kind: TrfErrorKind::AlreadyPaired { round, rank },
                });
            }
            let opponent = if opponent == 0 {
                "0000".to_owned()
            } else {
                format!("{opponent:>4}")
            };
            let text = format!("{opponent} {colour} {result}");
            let start = FIRST_ROUND_COLUMN + ROUND_WIDTH * usize::from(round - 1);
            let line = &mut out.lines[player.line - 1];
            for (i, b) in text.bytes().enumerate() {
                super::write_column(&mut line.text, out.utf8, start + i, b);
            }
            // A result column left blank is no trailing space.
            while line.text.last() == Some(&b' ') {
                line.text.pop();
            }
        }
        Ok(())
    }

    /// The `300` line-ups and the `320` byes appended, the file's line
    /// ending kept.
    fn append_records(
        &mut self,
        round: u16,
        records: Vec<Lineup>,
        byes: &[u16],
        bye_match_points: u32,
        bye_game_points: u32,
    ) -> Result<(), TrfError> {
        let out = self;
        let ending = out
            .lines
            .last()
            .map_or(super::Ending::Lf, |l| match l.ending {
                super::Ending::None => super::Ending::Lf,
                e => e,
            });
        let adds = !records.is_empty() || !byes.is_empty();
        if let Some(last) = out.lines.last_mut()
            && last.ending == super::Ending::None
            && adds
        {
            last.ending = ending;
        }
        for r in records {
            out.lines.push(super::Line {
                text: r.to_record().into_bytes(),
                ending,
            });
        }
        for &team in byes {
            out.write_bye(round, team, bye_match_points, bye_game_points, ending)?;
        }
        Ok(())
    }
}

/// One player's block of a round: (start rank, opponent or 0, colour
/// letter, result letter).
type Block = (u16, u16, char, char);

/// What a team engine's list makes of a round: every player's block, the
/// `300` line-ups out of the default order, the teams with a bye.
struct Planned {
    blocks: Vec<Block>,
    records: Vec<Lineup>,
    byes: Vec<u16>,
}

/// The round's blocks from the engine's `pairings` and the captains'
/// `lineups` (board `i`: the two line-ups' `i`-th players, the first
/// team's with `352`'s colour `i`).
fn plan_round(
    teams: &super::teams::Teams,
    round: u16,
    boards: usize,
    pairings: &[TeamPairing],
    lineups: &BTreeMap<u16, Vec<u16>>,
) -> Result<Planned, TrfError> {
    let colours = teams.colours();
    let lineup_of = |team: u16| team_lineup(teams, team, boards, lineups);
    // (rank, opponent, colour char, result char)
    let mut blocks: Vec<Block> = Vec::new();
    let mut records: Vec<Lineup> = Vec::new();
    let mut byes: Vec<u16> = Vec::new();
    let resting = |team: u16, lineup: &[u16]| resting_blocks(teams, team, lineup);
    for p in pairings {
        let (first, own_first) = lineup_of(p.first)?;
        blocks.extend(resting(p.first, &first));
        let Some(second_team) = p.second else {
            // The team's bye: its points are the `320`'s (a drawn
            // match, as FIDE's checker scores a bye by default); its
            // players play no game.
            blocks.extend(first.iter().map(|&r| (r, 0, '-', 'Z')));
            byes.push(p.first);
            continue;
        };
        let (second, own_second) = lineup_of(second_team)?;
        blocks.extend(resting(second_team, &second));
        for (i, (&a, &b)) in first.iter().zip(&second).enumerate() {
            let c = colours.get(i).copied().unwrap_or(if i % 2 == 0 {
                Color::White
            } else {
                Color::Black
            });
            let letter = |c: Color| if c == Color::White { 'w' } else { 'b' };
            blocks.push((a, b, letter(c), ' '));
            blocks.push((b, a, letter(!c), ' '));
        }
        for (team, opponent, lineup, own) in [
            (p.first, second_team, &first, own_first),
            (second_team, p.first, &second, own_second),
        ] {
            if own {
                records.push(Lineup {
                    round,
                    team,
                    opponent,
                    boards: lineup.clone(),
                    line: 0,
                });
            }
        }
    }
    Ok(Planned {
        blocks,
        records,
        byes,
    })
}

/// Team `team`'s line-up of `boards` players (the captain's, checked, or
/// its first players) and whether it is out of the default order.
fn team_lineup(
    teams: &super::teams::Teams,
    team: u16,
    boards: usize,
    lineups: &BTreeMap<u16, Vec<u16>>,
) -> Result<(Vec<u16>, bool), TrfError> {
    let Some(t) = teams.team(team) else {
        return Err(TrfError {
            line: 0,
            kind: TrfErrorKind::UnknownTeam {
                code: "pairing",
                team,
            },
        });
    };
    let default = t.default_lineup(boards, &[]);
    let lineup = lineups
        .get(&team)
        .cloned()
        .unwrap_or_else(|| default.clone());
    t.check_lineup(&lineup, boards).map_err(|e| TrfError {
        line: t.line,
        kind: TrfErrorKind::Lineup {
            team,
            problem: e.to_string(),
        },
    })?;
    let lineup: Vec<u16> = lineup.into_iter().take(boards).collect();
    let own = lineup != default;
    Ok((lineup, own))
}

/// The blocks of team `team`'s players who sit out (not in `lineup`):
/// `0000 - Z` (absent, no point), since FIDE's checker and chesspairing
/// read no blank block between two rounds played.
fn resting_blocks(teams: &super::teams::Teams, team: u16, lineup: &[u16]) -> Vec<Block> {
    teams
        .team(team)
        .map(|t| {
            t.players
                .iter()
                .filter(|r| !lineup.contains(r))
                .map(|&r| (r, 0, '-', 'Z'))
                .collect()
        })
        .unwrap_or_default()
}

impl Trf {
    /// Writes team `team`'s bye in round `round` into the `320` line of
    /// these points (TieBreakServer's columns: match points 5–8, game
    /// points 10–13, the team of round `r` at 15 + 4(r − 1)), adding one
    /// if the file has none.
    fn write_bye(
        &mut self,
        round: u16,
        team: u16,
        match_points: u32,
        game_points: u32,
        ending: super::Ending,
    ) -> Result<(), TrfError> {
        let too_wide = || TrfError {
            line: 0,
            kind: TrfErrorKind::TeamField {
                code: "320",
                field: "points",
                columns: "5-13".into(),
                value: String::new(),
                expected: "past what its columns hold",
            },
        };
        let mp = super::teams::points_text(match_points, 4).ok_or_else(too_wide)?;
        let gp = super::teams::points_text(game_points, 4).ok_or_else(too_wide)?;
        let head = format!("320 {mp} {gp}");
        let at = self
            .lines
            .iter()
            .position(|l| l.text.starts_with(head.as_bytes()));
        let index = match at {
            Some(i) => i,
            None => {
                self.lines.push(super::Line {
                    text: head.into_bytes(),
                    ending,
                });
                self.lines.len() - 1
            }
        };
        let column = 14 + 4 * usize::from(round - 1);
        let text = format!("{team:>3}");
        let utf8 = self.utf8;
        let line = &mut self.lines[index];
        for (i, b) in text.bytes().enumerate() {
            super::write_column(&mut line.text, utf8, column + i, b);
        }
        Ok(())
    }
}
