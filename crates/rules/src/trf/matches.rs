//! A team event's matches, read from the players' games: in one round,
//! the games between the players of two teams are one match. Its game
//! points are its boards' points in the file's point system (`162`), its
//! match points follow `362` (2/1/0 by default) from who scored more game
//! points; a `330` decides a forfeited match's match points, a `320` gives
//! a team's bye its points, a `299` adds points outside any game.

use std::collections::BTreeMap;

use shakmaty::Color;

use super::teams::{Forfeited, Teams};
use super::{ResultChar, RoundEntry, Trf};

/// One board of a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MatchBoard {
    /// 1 for the first board.
    pub board: u16,
    /// The first-named team's player.
    pub first: u16,
    /// The second team's player.
    pub second: u16,
    /// The first team's player's colour, if written.
    pub first_colour: Option<Color>,
    /// The first team's player's result, if written.
    pub first_result: Option<ResultChar>,
    /// The second team's player's result, if written.
    pub second_result: Option<ResultChar>,
}

/// One match of a round: two teams (the first named is the one whose
/// board 1 has White, as `352` gives the first team board 1's colour), or
/// a team's bye.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Match {
    /// The round, from 1.
    pub round: u16,
    /// The first-named team.
    pub first: u16,
    /// `None`: the first team has a bye (`320`) or no opponent.
    pub second: Option<u16>,
    /// Its boards, board 1 first.
    pub boards: Vec<MatchBoard>,
    /// Game points in tenths, first team then second.
    pub game_points: [u32; 2],
    /// Match points in tenths; `None` while a board has no result.
    pub match_points: Option<[u32; 2]>,
    /// A `330` decided it.
    pub forfeited: Option<Forfeited>,
}

impl Match {
    /// Whether every board has both results (or a `330` decided it).
    pub fn finished(&self) -> bool {
        self.match_points.is_some()
    }
}

impl Teams {
    /// The board each player of `team` plays in `round`: the `300`
    /// line-up if the file has one, else the team's players in their fixed
    /// order who have a game that round.
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::trf::Trf;
    ///
    /// let trf = Trf::parse(tactus_rules::trf::TEAM_EXAMPLE).unwrap();
    /// let teams = trf.teams().unwrap();
    /// // Team 1 rests its board 2 (start rank 2) in round 1: 3 moves up.
    /// assert_eq!(teams.lineup_of(&trf, 1, 1), [1, 3]);
    /// ```
    pub fn lineup_of(&self, trf: &Trf, round: u16, team: u16) -> Vec<u16> {
        if let Some(l) = self.lineup(round, team) {
            return l.boards.clone();
        }
        self.team(team)
            .map(|t| {
                t.players
                    .iter()
                    .copied()
                    .filter(|&r| {
                        trf.player(r)
                            .is_some_and(|p| matches!(p.round(round), RoundEntry::Game { .. }))
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Round `round`'s matches, in the order of their first team's number.
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::trf::Trf;
    ///
    /// let trf = Trf::parse(tactus_rules::trf::TEAM_EXAMPLE).unwrap();
    /// let m = &trf.teams().unwrap().matches(&trf, 1)[0];
    /// assert_eq!((m.first, m.second), (1, Some(2)));
    /// assert_eq!(m.game_points, [15, 5]);
    /// assert_eq!(m.match_points, Some([20, 0]));
    /// ```
    pub fn matches(&self, trf: &Trf, round: u16) -> Vec<Match> {
        // (smaller team, larger team) to its boards.
        let mut games: BTreeMap<(u16, u16), Vec<(u16, u16)>> = BTreeMap::new();
        for p in trf.players() {
            let RoundEntry::Game { opponent, .. } = p.round(round) else {
                continue;
            };
            let (Some(a), Some(b)) = (self.team_of(p.start_rank), self.team_of(opponent)) else {
                continue;
            };
            if a < b {
                games
                    .entry((a, b))
                    .or_default()
                    .push((p.start_rank, opponent));
            }
        }
        let mut out: Vec<Match> = games
            .into_iter()
            .map(|((a, b), pairs)| self.match_of(trf, round, a, b, pairs))
            .collect();
        // A forfeited match no board of which is in the `001`s.
        for f in self.forfeits().iter().filter(|f| f.round == round) {
            let known = out.iter().any(|m| {
                (m.first, m.second) == (f.first, Some(f.second))
                    || (m.first, m.second) == (f.second, Some(f.first))
            });
            if !known {
                out.push(Match {
                    round,
                    first: f.first,
                    second: Some(f.second),
                    boards: Vec::new(),
                    game_points: [0, 0],
                    match_points: Some(self.forfeit_points(f.kind)),
                    forfeited: Some(f.kind),
                });
            }
        }
        for bye in self.byes().iter().filter(|b| b.round == round) {
            out.push(Match {
                round,
                first: bye.team,
                second: None,
                boards: Vec::new(),
                game_points: [bye.game_points, 0],
                match_points: Some([bye.match_points, 0]),
                forfeited: None,
            });
        }
        out.sort_by_key(|m| m.first.min(m.second.unwrap_or(u16::MAX)));
        out
    }

    /// The match of teams `a` and `b` (`a` < `b`) in `round` from their
    /// players' games `pairs` (`a`'s player, `b`'s): boards numbered by the
    /// line-up, the first-named team the one with `352`'s colour on board
    /// 1, game points, and match points once every board has a result (or
    /// as a `330` decides).
    fn match_of(&self, trf: &Trf, round: u16, a: u16, b: u16, pairs: Vec<(u16, u16)>) -> Match {
        let ps = trf.point_system();
        let mut boards = self.boards_of(trf, round, a, pairs);
        // The first-named team gets board 1 the colour `352` gives it.
        let first_colour = self.colours().first().copied().unwrap_or(Color::White);
        let swap = boards
            .first()
            .and_then(|b| b.first_colour)
            .is_some_and(|c| c != first_colour);
        let (first, second) = if swap { (b, a) } else { (a, b) };
        if swap {
            for board in &mut boards {
                *board = MatchBoard {
                    first: board.second,
                    second: board.first,
                    first_colour: board.first_colour.map(|c| !c),
                    first_result: board.second_result,
                    second_result: board.first_result,
                    ..*board
                };
            }
        }
        let worth = |r: Option<ResultChar>| r.map_or(0, |r| ps.of(r));
        let game_points = [
            boards.iter().map(|b| worth(b.first_result)).sum(),
            boards.iter().map(|b| worth(b.second_result)).sum(),
        ];
        let forfeited = self.forfeit_of(round, first, second);
        let done = boards
            .iter()
            .all(|b| b.first_result.is_some() && b.second_result.is_some());
        let match_points = match forfeited {
            Some(kind) => Some(self.forfeit_points(kind)),
            None if done => Some(self.match_points_of(game_points)),
            None => None,
        };
        Match {
            round,
            first,
            second: Some(second),
            boards,
            game_points,
            match_points,
            forfeited,
        }
    }

    /// The boards of team `a`'s games `pairs` in `round` (`a`'s player
    /// first), numbered by `a`'s line-up (or as played, when the line-up
    /// does not name a player), board 1 first.
    fn boards_of(&self, trf: &Trf, round: u16, a: u16, pairs: Vec<(u16, u16)>) -> Vec<MatchBoard> {
        let lineup_a = self.lineup_of(trf, round, a);
        let board_of = |rank: u16| {
            lineup_a
                .iter()
                .position(|&r| r == rank)
                .map_or(u16::MAX, |i| i as u16 + 1)
        };
        let entry = |rank: u16| match trf.player(rank).map(|p| p.round(round)) {
            Some(RoundEntry::Game { colour, result, .. }) => (colour, result),
            _ => (None, None),
        };
        let mut boards: Vec<MatchBoard> = pairs
            .into_iter()
            .map(|(ra, rb)| {
                let (colour, result_a) = entry(ra);
                let (_, result_b) = entry(rb);
                MatchBoard {
                    board: board_of(ra),
                    first: ra,
                    second: rb,
                    first_colour: colour,
                    first_result: result_a,
                    second_result: result_b,
                }
            })
            .collect();
        boards.sort_by_key(|b| (b.board, b.first));
        // Boards numbered as played: a line-up that does not name a
        // player (a file without `300`s) still counts 1, 2, ….
        for (i, board) in boards.iter_mut().enumerate() {
            if board.board == u16::MAX {
                board.board = i as u16 + 1;
            }
        }
        boards
    }

    /// How a `330` decided the match of `first` and `second` in `round`,
    /// seen from `first` (the record names the teams in its own order).
    fn forfeit_of(&self, round: u16, first: u16, second: u16) -> Option<Forfeited> {
        self.forfeits()
            .iter()
            .find(|f| {
                f.round == round
                    && ((f.first, f.second) == (first, second)
                        || (f.first, f.second) == (second, first))
            })
            .map(|f| match (f.kind, f.first == first) {
                (Forfeited::FirstWins, false) => Forfeited::SecondWins,
                (Forfeited::SecondWins, false) => Forfeited::FirstWins,
                (kind, _) => kind,
            })
    }

    /// What team `team`'s players' byes are worth in `round` when the team
    /// has no match (a half-point bye of a whole team), in tenths.
    pub(super) fn unpaired_game_points(&self, trf: &Trf, round: u16, team: u16) -> u32 {
        let ps = trf.point_system();
        self.team(team)
            .map(|t| {
                t.players
                    .iter()
                    .filter_map(|&r| match trf.player(r)?.round(round) {
                        RoundEntry::Bye { result: Some(r) } => Some(ps.of(r)),
                        _ => None,
                    })
                    .sum()
            })
            .unwrap_or(0)
    }

    /// Match points of a match whose teams scored `game_points`.
    ///
    /// # Examples
    ///
    /// ```
    /// use tactus_rules::trf::Trf;
    ///
    /// let trf = Trf::parse(tactus_rules::trf::TEAM_EXAMPLE).unwrap();
    /// let teams = trf.teams().unwrap();
    /// assert_eq!(teams.match_points_of([20, 20]), [10, 10]);
    /// assert_eq!(teams.match_points_of([15, 25]), [0, 20]);
    /// ```
    pub fn match_points_of(&self, game_points: [u32; 2]) -> [u32; 2] {
        let s = self.scoring();
        match game_points[0].cmp(&game_points[1]) {
            std::cmp::Ordering::Greater => [s.win, s.loss],
            // Nothing scored on either side (every board a double
            // forfeit): both lose, as FIDE's checker scores it.
            std::cmp::Ordering::Equal if game_points[0] == 0 => [s.loss, s.loss],
            std::cmp::Ordering::Equal => [s.draw, s.draw],
            std::cmp::Ordering::Less => [s.loss, s.win],
        }
    }

    fn forfeit_points(&self, kind: Forfeited) -> [u32; 2] {
        let s = self.scoring();
        match kind {
            Forfeited::FirstWins => [s.win, s.loss],
            Forfeited::SecondWins => [s.loss, s.win],
            // Both lose: neither gets anything, whatever a loss is worth.
            Forfeited::BothLose => [0, 0],
        }
    }

    /// What team `team` scored in round `round`, in tenths: match points
    /// (finished matches only) and game points (every result written:
    /// the `001` points include them too), with `299`'s points added.
    /// `None` for match points while its match is not finished.
    pub fn round_score(&self, trf: &Trf, round: u16, team: u16) -> (Option<u32>, u32) {
        self.round_score_in(&self.matches(trf, round), trf, round, team)
    }

    pub(super) fn round_score_in(
        &self,
        matches: &[Match],
        trf: &Trf,
        round: u16,
        team: u16,
    ) -> (Option<u32>, u32) {
        let (mut mp, mut gp) = match matches
            .iter()
            .find(|m| m.first == team || m.second == Some(team))
        {
            Some(m) => {
                let side = usize::from(m.first != team);
                (m.match_points.map(|p| p[side]), m.game_points[side])
            }
            // No match: what its players' byes are worth (a half-point bye
            // of a whole team), no match points.
            None => (Some(0), self.unpaired_game_points(trf, round, team)),
        };
        for a in self
            .abnormal()
            .iter()
            .filter(|a| a.round == round && a.teams.contains(&team))
        {
            mp = mp.map(|p| p + a.match_points);
            gp += a.game_points;
        }
        (mp, gp)
    }
}
