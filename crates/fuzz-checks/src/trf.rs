//! TRF-16 reading: never a panic, on any bytes; a file that is read is
//! written back byte for byte; a result written into any round of any
//! player either is refused (and changes nothing) or gives a file that
//! reads back as the same record, one line longer at most by its padding;
//! a file whose points agree with its results still does after a result
//! is written (the points move with it); the TRF-26 records read without
//! a panic, and a team event's totals written agree with its games.

use tactus_rules::trf::{ResultChar, Trf};

const LETTERS: [ResultChar; 4] = [
    ResultChar::Win,
    ResultChar::Draw,
    ResultChar::ForfeitLoss,
    ResultChar::ZeroPointBye,
];

pub fn check(data: &[u8]) {
    let Ok(trf) = Trf::from_bytes(data) else {
        return;
    };
    assert_eq!(trf.to_bytes(), data, "not written back byte for byte");
    if let Ok(text) = std::str::from_utf8(data) {
        assert_eq!(Trf::parse(text).as_ref(), Ok(&trf));
        assert_eq!(trf.to_string(), text);
    }
    let _ = (
        trf.planned_rounds(),
        trf.initial_colour(),
        trf.city(),
        trf.event_name(),
    );
    let _ = trf.time_control();
    // A team event's records: matches, standings and board prizes never
    // panic; the totals written read back and agree with the games.
    if let Some(teams) = trf.teams() {
        let table = teams.standings(&trf);
        assert_eq!(table.len(), teams.teams().len());
        let _ = teams.board_prizes(&trf);
        let _ = trf.check_team_points();
        if let Ok(written) = trf.with_team_totals() {
            assert_eq!(written.check_team_points(), Ok(()));
        }
    }
    let consistent = trf.check_points().is_ok();
    let rounds = trf.players().map(|p| p.rounds.len()).max().unwrap_or(0);
    let ranks: Vec<u16> = trf.players().map(|p| p.start_rank).take(8).collect();
    for round in 0..=(rounds.min(20) as u16 + 1) {
        let _ = trf.round_date(round);
        let pairings = trf.pairings(round);
        assert_eq!(pairings.len(), trf.players().count());
        for &rank in &ranks {
            for letter in LETTERS {
                let Ok(written) = trf.with_result(round, rank, letter) else {
                    continue;
                };
                let bytes = written.to_bytes();
                assert!(bytes.len() >= data.len());
                assert_eq!(
                    Trf::from_bytes(&bytes).as_ref(),
                    Ok(&written),
                    "round {round}, rank {rank}, {letter}: written as {bytes:?}"
                );
                if consistent {
                    assert_eq!(
                        written.check_points(),
                        Ok(()),
                        "round {round}, rank {rank}, {letter}: the points no longer add up"
                    );
                }
            }
        }
    }
}
