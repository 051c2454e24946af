//! The team records, matches and standings: read at their columns,
//! scored by `362`, ranked by `202`, refused with the line named.

use shakmaty::Color;

use super::*;

/// A `001` line: start rank, name, points, then each round's block
/// (`opponent colour result`, e.g. `   4 w 1`; empty for none).
fn player(rank: u16, name: &str, points: &str, blocks: &[&str]) -> String {
    let mut s = format!("001 {rank:>4}      {name:<33}");
    s = format!("{s:<80}{points:>4}");
    s = format!("{s:<89}");
    for b in blocks {
        s.push_str("  ");
        s.push_str(&format!("{b:<8}"));
    }
    s.trim_end().to_owned()
}

/// A `310` line at TRF-26's columns.
fn team(number: u16, name: &str, mp: &str, gp: &str, rank: &str, players: &[u16]) -> String {
    let ranks: Vec<String> = players.iter().map(|r| format!("{r:>4}")).collect();
    format!(
        "310 {number:>3} {name:<32} {:<5} {:>6} {mp:>6} {gp:>6} {rank:>3}  {}",
        "",
        "",
        ranks.join(" ")
    )
    .trim_end()
    .to_owned()
}

fn file(lines: &[String]) -> String {
    lines.iter().map(|l| format!("{l}\n")).collect()
}

/// Four teams of two (ranks 1-2, 3-4, 5-6, 7-8), two boards, two rounds:
/// round 1 1-2 (1.5-0.5) and 3-4 (1-1); round 2 1-3 (1-1) and 2-4 (2-0).
fn four_teams() -> Vec<String> {
    vec![
        "352 WB".into(),
        "202 MPTS GPTS EDET BH:MP/C1 SB".into(),
        player(1, "A1", "1.5", &["   3 w 1", "   5 w ="]),
        player(2, "A2", "1.0", &["   4 b =", "   6 b ="]),
        player(3, "B1", "0.0", &["   1 b 0", "   7 w 0"]),
        player(4, "B2", "0.5", &["   2 w =", "   8 b 0"]),
        player(5, "C1", "1.0", &["   7 w =", "   1 b ="]),
        player(6, "C2", "1.0", &["   8 b =", "   2 w ="]),
        player(7, "D1", "1.5", &["   5 b =", "   3 b 1"]),
        player(8, "D2", "1.5", &["   6 w =", "   4 w 1"]),
        team(1, "Alpha", "3.0", "2.5", "", &[1, 2]),
        team(2, "Beta", "0.0", "0.5", "", &[3, 4]),
        team(3, "Gamma", "2.0", "2.0", "", &[5, 6]),
        team(4, "Delta", "3.0", "3.0", "", &[7, 8]),
    ]
}

#[test]
fn a_team_line_is_read_at_its_columns() {
    let line = team(12, "Österreich", "11.5", "123.5", "7", &[101, 7, 9999]);
    assert_eq!(line.find("Ö"), Some(8));
    let mut lines = vec![
        player(101, "P", "", &[]),
        player(7, "Q", "", &[]),
        player(9999, "R", "", &[]),
    ];
    lines.push(line);
    let trf = Trf::parse(&file(&lines)).unwrap();
    let t = trf.teams().unwrap().team(12).unwrap();
    assert_eq!(t.name, "Österreich");
    assert_eq!(t.match_points, Some(115));
    assert_eq!(t.game_points, Some(1235));
    assert_eq!(t.rank, Some(7));
    assert_eq!(t.players, [101, 7, 9999]);
    assert_eq!(t.line, 4);
    assert_eq!(trf.teams().unwrap().team_of(7), Some(12));
}

#[test]
fn the_older_team_line_numbers_teams_in_file_order() {
    let lines = [
        player(1, "A", "", &[]),
        player(2, "B", "", &[]),
        format!("013 {:<32}{:>4} {:>4}", "Lions", 2, 1),
        format!("013 {:<32}", "Empty"),
    ];
    let trf = Trf::parse(&file(&lines)).unwrap();
    let teams = trf.teams().unwrap();
    assert_eq!(teams.team(1).unwrap().players, [2, 1]);
    assert_eq!(teams.team(2).unwrap().name, "Empty");
    // Beside a 310, an 013 is not read (as FIDE's checker reads them).
    let mut with_310 = lines.to_vec();
    with_310.push(team(5, "Five", "", "", "", &[1]));
    let trf = Trf::parse(&file(&with_310)).unwrap();
    assert_eq!(trf.teams().unwrap().teams().len(), 1);
}

#[test]
fn matches_are_scored_by_362_from_their_boards() {
    let trf = Trf::parse(&file(&four_teams())).unwrap();
    let teams = trf.teams().unwrap();
    let round1 = teams.matches(&trf, 1);
    assert_eq!(round1.len(), 2);
    assert_eq!((round1[0].first, round1[0].second), (1, Some(2)));
    assert_eq!(round1[0].game_points, [15, 5]);
    assert_eq!(round1[0].match_points, Some([20, 0]));
    assert_eq!(round1[0].boards[0].board, 1);
    assert_eq!(round1[0].boards[0].first_colour, Some(Color::White));
    // Gamma's board 1 has White: Gamma is named first.
    assert_eq!((round1[1].first, round1[1].second), (3, Some(4)));
    assert_eq!(round1[1].match_points, Some([10, 10]));
    trf.check_team_points().unwrap();
    // 3/1/0 scoring.
    let mut lines = four_teams();
    lines.insert(0, "362 TW 3 TD 1 TL 0".into());
    let trf = Trf::parse(&file(&lines)).unwrap();
    let teams = trf.teams().unwrap();
    assert_eq!(teams.matches(&trf, 1)[0].match_points, Some([30, 0]));
    let err = trf.check_team_points().unwrap_err();
    assert_eq!(err.line, 12, "{err}");
}

#[test]
fn a_match_not_finished_gives_no_match_points_yet() {
    let mut lines = four_teams();
    lines[2] = player(1, "A1", "1.0", &["   3 w 1", "   5 w"]);
    lines[6] = player(5, "C1", "1.0", &["   7 w =", "   1 b"]);
    let trf = Trf::parse(&file(&lines)).unwrap();
    let teams = trf.teams().unwrap();
    let m = &teams.matches(&trf, 2)[0];
    assert!(!m.finished());
    assert_eq!(m.game_points, [5, 5]);
}

#[test]
fn a_forfeited_match_a_bye_and_abnormal_points() {
    // Round 3: Alpha wins against Beta by forfeit (both boards `+`/`-`
    // and a 330); Gamma has the bye (320: 2 match points, 1 game point);
    // Delta is given 1 match point by a 299.
    let lines = vec![
        player(1, "A1", "1.0", &["   3 w +"]),
        player(2, "A2", "1.0", &["   4 b +"]),
        player(3, "B1", "0.0", &["   1 b -"]),
        player(4, "B2", "0.0", &["   2 w -"]),
        player(5, "C1", "1.0", &["0000 - U"]),
        player(6, "C2", "0.0", &["0000 - Z"]),
        player(7, "D1", "0.0", &[]),
        player(8, "D2", "0.0", &[]),
        team(1, "Alpha", "2.0", "2.0", "", &[1, 2]),
        team(2, "Beta", "0.0", "0.0", "", &[3, 4]),
        team(3, "Gamma", "2.0", "1.0", "", &[5, 6]),
        team(4, "Delta", "1.0", "0.5", "", &[7, 8]),
        "330 +-   1   1   2".into(),
        "320  2.0  1.0   3".into(),
        "299 +   1.0   0.5   1   4".into(),
    ];
    let trf = Trf::parse(&file(&lines)).unwrap();
    let teams = trf.teams().unwrap();
    assert_eq!(teams.forfeits()[0].kind, Forfeited::FirstWins);
    assert_eq!(teams.byes()[0].team, 3);
    assert_eq!(teams.abnormal()[0].teams, [4]);
    let m = teams.matches(&trf, 1);
    assert_eq!(m[0].forfeited, Some(Forfeited::FirstWins));
    assert_eq!(m[0].match_points, Some([20, 0]));
    assert_eq!(m[1].second, None);
    assert_eq!(m[1].match_points, Some([20, 0]));
    assert_eq!(teams.round_score(&trf, 1, 4), (Some(10), 5));
    trf.check_team_points().unwrap();
    // Forfeits and byes are no board prize games.
    assert!(teams.board_prizes(&trf).is_empty());
    // Unplayed rounds are no opponents for BH: each counts its own score,
    // at most a draw (1 match point in one round).
    let table = teams.standings(&trf);
    assert_eq!(table[0].number, 1);
}

#[test]
fn standings_follow_the_202_tie_breaks_then_the_team_number() {
    let trf = Trf::parse(&file(&four_teams())).unwrap();
    let teams = trf.teams().unwrap();
    let table = teams.standings(&trf);
    let order: Vec<u16> = table.iter().map(|s| s.number).collect();
    // Alpha and Delta: 3 MP; Delta 3.0 GP against Alpha's 2.5.
    assert_eq!(order, [4, 1, 3, 2]);
    let names: Vec<&str> = table[0]
        .tiebreaks
        .iter()
        .map(|(t, _)| t.name.as_str())
        .collect();
    assert_eq!(names, ["MPTS", "GPTS", "EDET", "BH", "SB"]);
    assert_eq!(table[0].tiebreaks[0].1, 300);
    assert_eq!(table[0].tiebreaks[1].1, 300);
    // Delta met Gamma (2 MP) and Beta (0 MP): BH 2, cut the lowest: 2.
    assert_eq!(table[0].tiebreaks[3].1, 200);
    // SB: Gamma's 2 MP times Delta's 1, Beta's 0 times 2.
    assert_eq!(table[0].tiebreaks[4].1, 200);
    assert_eq!(
        table.iter().map(|s| s.rank).collect::<Vec<_>>(),
        [1, 2, 3, 4]
    );
    // Equal on everything: the smaller team number first.
    let lines: Vec<String> = four_teams()
        .into_iter()
        .filter(|l| !l.starts_with("202"))
        .map(|l| l.replace("   3.0    3.0", "   3.0    2.5"))
        .collect();
    let trf = Trf::parse(&file(&lines)).unwrap();
    let table = trf.teams().unwrap().standings(&trf);
    assert_eq!(table[0].number, 1);
    assert_eq!(table[1].number, 4);
}

#[test]
fn direct_encounter_counts_only_among_teams_that_all_met() {
    // Alpha and Delta both have 3 match points and never met: EDET is 0
    // for both, the smaller number goes first.
    let lines: Vec<String> = four_teams()
        .into_iter()
        .map(|l| {
            if l.starts_with("202") {
                "202 MPTS EDET".into()
            } else {
                l
            }
        })
        .collect();
    let trf = Trf::parse(&file(&lines)).unwrap();
    let table = trf.teams().unwrap().standings(&trf);
    assert_eq!(
        table.iter().map(|s| s.number).collect::<Vec<_>>(),
        [1, 4, 3, 2]
    );
    assert_eq!(table[0].tiebreaks[1].1, 0);
    // The example's two teams met twice: Lions 3 MP against Tigers' 1.
    let trf = Trf::parse(&TEAM_EXAMPLE.replace("202 MPTS GPTS", "202 GPTS")).unwrap();
    let table = trf.teams().unwrap().standings(&trf);
    assert_eq!(table[0].tiebreaks[0].0.name, "PTS");
}

#[test]
fn board_prizes_count_points_games_and_percentage_per_board() {
    let trf = Trf::parse(&file(&four_teams())).unwrap();
    let prizes = trf.teams().unwrap().board_prizes(&trf);
    let board1: Vec<(u16, u32, u16, u32)> = prizes
        .iter()
        .filter(|p| p.board == 1)
        .map(|p| (p.rank, p.points, p.games, p.percent))
        .collect();
    assert_eq!(
        board1,
        [
            (1, 15, 2, 750),
            (7, 15, 2, 750),
            (5, 10, 2, 500),
            (3, 0, 2, 0)
        ]
    );
}

#[test]
fn a_lineup_out_of_order_places_its_boards() {
    // Alpha plays A2 on board 1, A1 on board 2 in round 1 (a 300 says so).
    let mut lines = four_teams();
    lines.push("300   1   1   2    2    1".into());
    let trf = Trf::parse(&file(&lines)).unwrap();
    let teams = trf.teams().unwrap();
    assert_eq!(teams.lineup(1, 1).unwrap().boards, [2, 1]);
    assert_eq!(
        teams.lineup(1, 1).unwrap().to_record(),
        "300   1   1   2    2    1"
    );
    // Board 1 is A2 against B2 (the file's colours give Beta White on it).
    let m = &teams.matches(&trf, 1)[0];
    assert_eq!((m.first, m.boards[0].first, m.boards[0].second), (2, 4, 2));
    assert_eq!(trf.team_board(1, 1), Some((2, 2)));
}

#[test]
fn totals_are_written_into_the_team_lines() {
    let blank: Vec<String> = four_teams()
        .into_iter()
        .map(|l| {
            if l.starts_with("310") {
                let mut l = l;
                l.replace_range(54..71, &" ".repeat(17));
                l
            } else {
                l
            }
        })
        .collect();
    let trf = Trf::parse(&file(&blank)).unwrap();
    let written = trf.with_team_totals().unwrap();
    let text = written.to_string();
    let delta = text.lines().find(|l| l.starts_with("310   4")).unwrap();
    assert_eq!(&delta[54..71], "   3.0    3.0   1");
    written.check_team_points().unwrap();
    // Everything else as it was.
    assert_eq!(text.lines().count(), blank.len());
}

#[test]
fn bad_team_records_are_refused_naming_the_line() {
    let base = four_teams();
    let cases: Vec<(Vec<String>, usize, &str)> = vec![
        {
            let mut l = base.clone();
            l[10] = team(1, "Alpha", "", "", "", &[1, 3]);
            (l, 12, "player 3 is in team 2 and in team 1")
        },
        {
            let mut l = base.clone();
            l[10] = team(1, "Alpha", "", "", "", &[1, 2, 9]);
            (l, 11, "team 1: player 9 has no player line")
        },
        {
            let mut l = base.clone();
            l[11] = team(1, "Beta", "", "", "", &[3, 4]);
            (l, 12, "team 1 is also on line 11")
        },
        {
            let mut l = base.clone();
            l[10] = team(1, "Alpha", "x", "", "", &[1, 2]);
            (l, 11, "310 match points (columns 55-60) `x`")
        },
        {
            let mut l = base.clone();
            l[10] = team(1, "Alpha", "", "", "", &[1, 2, 3, 4]);
            l.remove(11);
            (l, 3, "round 1: 1 and 3 are both of team 1")
        },
        {
            let mut l = base.clone();
            l.push("330 +-   1   1   9".into());
            (l, 15, "330: team 9 has no team record")
        },
        {
            let mut l = base.clone();
            l.push("330 ?-   1   1   2".into());
            (l, 15, "330 forfeit (columns 5-6) `?-`")
        },
        {
            let mut l = base.clone();
            l.push("300   1   1   2    3    1".into());
            (l, 15, "300: player 3 is not of team 1")
        },
        {
            let mut l = base.clone();
            l.push("352 WBX".into());
            (l, 15, "not a sequence of W and B")
        },
        {
            let mut l = base.clone();
            l.push("362 TW two".into());
            (l, 15, "362 match scoring")
        },
        {
            let mut l = base.clone();
            l[10].push_str("x   5");
            (l, 11, "start ranks are 4 columns")
        },
    ];
    for (lines, line, want) in cases {
        let err = Trf::parse(&file(&lines)).unwrap_err();
        assert_eq!(err.line, line, "{err}");
        assert!(err.to_string().contains(want), "{err} lacks {want}");
    }
    // Points that disagree with the games: a check of its own.
    let mut l = base.clone();
    l[11] = team(2, "Beta", "1.0", "0.5", "", &[3, 4]);
    let err = Trf::parse(&file(&l))
        .unwrap()
        .check_team_points()
        .unwrap_err();
    assert_eq!(err.line, 12);
    assert!(err.to_string().contains("team 2's match points"), "{err}");
}

#[test]
fn a_team_playing_two_teams_in_one_round_is_refused() {
    // Round 1: A1 meets Beta's B1, A2 meets Gamma's C2.
    let mut l = vec![
        player(1, "A1", "", &["   3 w 1"]),
        player(2, "A2", "", &["   6 b ="]),
        player(3, "B1", "", &["   1 b 0"]),
        player(4, "B2", "", &["   8 w ="]),
        player(5, "C1", "", &["   7 w ="]),
        player(6, "C2", "", &["   2 w ="]),
        player(7, "D1", "", &["   5 b ="]),
        player(8, "D2", "", &["   4 b ="]),
    ];
    l.extend(four_teams().into_iter().filter(|l| l.starts_with("310")));
    let err = Trf::parse(&file(&l)).unwrap_err();
    assert_eq!(
        err.kind,
        TrfErrorKind::TeamPlaysTwo {
            round: 1,
            team: 1,
            first: 2,
            second: 3
        }
    );
    assert_eq!(err.line, 2);
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Any line among a team file's lines: reading never panics, a
        /// refusal names a line of the file, a file read is given back as
        /// it was, its standings rank every team once.
        #[test]
        fn any_team_record_reads_or_is_refused_naming_its_line(
            code in prop::sample::select(vec!["310", "013", "352", "362", "300", "320", "330", "299", "202"]),
            rest in "[ 0-9A-Za-z.+\\-:/,]{0,90}",
            at in 0usize..15,
        ) {
            let mut lines = four_teams();
            let line = format!("{code}{rest}");
            let at = at.min(lines.len());
            lines.insert(at, line);
            let text = file(&lines);
            match Trf::parse(&text) {
                Ok(trf) => {
                    prop_assert_eq!(trf.to_string(), text);
                    if let Some(teams) = trf.teams() {
                        let table = teams.standings(&trf);
                        prop_assert_eq!(table.len(), teams.teams().len());
                        let _ = teams.board_prizes(&trf);
                        if let Ok(written) = trf.with_team_totals() {
                            prop_assert!(written.check_team_points().is_ok());
                        }
                    }
                }
                Err(e) => {
                    prop_assert!(e.line >= 1 && e.line <= lines.len(), "{}", e);
                }
            }
        }
    }
}

#[test]
fn a_team_engine_s_list_is_written_as_the_round_s_boards() {
    let trf = Trf::parse(&file(&four_teams())).unwrap();
    let list = parse_team_pairings("2\n4 1\n3 2\n").unwrap();
    let paired = trf
        .with_team_round(3, &list, &std::collections::BTreeMap::new())
        .unwrap();
    let teams = paired.teams().unwrap();
    let m = teams.matches(&paired, 3);
    assert_eq!((m[0].first, m[0].second), (4, Some(1)));
    assert_eq!(m[0].boards[0].first, 7);
    assert_eq!(m[0].boards[0].first_colour, Some(Color::White));
    assert_eq!(m[0].boards[1].first_colour, Some(Color::Black));
    // No line-up out of order: no 300.
    assert!(!paired.to_string().contains("\n300"));
    // Results written: the totals follow.
    let mut done = paired.clone();
    for (rank, r) in [
        (7, ResultChar::Win),
        (1, ResultChar::Loss),
        (8, ResultChar::Draw),
        (2, ResultChar::Draw),
    ] {
        done = done.with_result(3, rank, r).unwrap();
    }
    let done = done.with_team_totals().unwrap();
    done.check_team_points().unwrap();
    done.check_points().unwrap();
    assert_eq!(done.teams().unwrap().standings(&done)[0].number, 4);
    // A second list for the same round is refused; so is a team twice.
    assert!(matches!(
        paired
            .with_team_round(3, &list, &Default::default())
            .unwrap_err()
            .kind,
        TrfErrorKind::AlreadyPaired { round: 3, .. }
    ));
    assert_eq!(
        parse_team_pairings("2\n4 1\n1 2\n")
            .unwrap_err()
            .to_string(),
        "line 3: team 1 is also paired on line 2"
    );
    // A line-up out of the team's order is refused, naming the team.
    let bad = std::collections::BTreeMap::from([(1, vec![2, 1])]);
    let err = trf.with_team_round(3, &list, &bad).unwrap_err();
    assert!(err.to_string().contains("team 1's line-up"), "{err}");
}

#[test]
fn a_team_s_bye_is_a_320_and_scores_a_drawn_match() {
    let trf = Trf::parse(&file(&four_teams())).unwrap();
    let list = parse_team_pairings("2\n2 1\n3 0\n").unwrap();
    let paired = trf
        .with_team_round(3, &list, &std::collections::BTreeMap::new())
        .unwrap();
    let text = paired.to_string();
    // TieBreakServer's columns: round 3's team at 23-25.
    assert!(
        text.ends_with(&format!("320  1.0  1.0{:9}  3\n", "")),
        "{text}"
    );
    let teams = paired.teams().unwrap();
    let bye = teams
        .matches(&paired, 3)
        .into_iter()
        .find(|m| m.first == 3)
        .unwrap();
    assert_eq!(bye.second, None);
    assert_eq!(bye.match_points, Some([10, 0]));
    assert_eq!(bye.game_points, [10, 0]);
    // Its players play no game; team 4, not paired, scores nothing.
    assert_eq!(
        paired.player(5).unwrap().round(3),
        RoundEntry::Bye {
            result: Some(ResultChar::ZeroPointBye)
        }
    );
    assert_eq!(teams.round_score(&paired, 3, 4), (Some(0), 0));
    let mut done = paired.clone();
    for (rank, r) in [
        (3, ResultChar::Win),
        (1, ResultChar::Loss),
        (4, ResultChar::Draw),
        (2, ResultChar::Draw),
    ] {
        done = done.with_result(3, rank, r).unwrap();
    }
    let done = done.with_team_totals().unwrap();
    done.check_team_points().unwrap();
    let gamma = done.teams().unwrap().team(3).unwrap();
    assert_eq!(
        (gamma.match_points, gamma.game_points),
        (Some(30), Some(30))
    );
}
