//! PGN reading: never a panic, on any bytes; every game that is read is
//! written back as PGN that reads as the same record, and as a scoresheet.

use tactus_rules::language::Language;
use tactus_rules::notation::Lang;
use tactus_rules::pgn::{read_games, read_pgn};

pub fn check(data: &[u8]) {
    for record in read_games(data).into_iter().flatten() {
        let written = match record.to_pgn() {
            Ok(w) => w,
            Err(e) => panic!("{data:?} was read but cannot be written: {e}"),
        };
        assert_eq!(
            read_pgn(&written).as_ref(),
            Ok(&record),
            "written as {written:?}"
        );
        let _ = record.to_sheet_text(Lang::Of(Language::De));
    }
}
