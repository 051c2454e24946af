//! PGN reading: never a panic; a record that is read is written back as
//! PGN that reads as the same record, and as a scoresheet.

use tactus::rules::pgn::read_pgn;
use tactus::rules::sheet::Lang;

pub fn check(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(record) = read_pgn(text) else {
        return;
    };
    let written = match record.to_pgn() {
        Ok(w) => w,
        Err(e) => panic!("{text:?} was read but cannot be written: {e}"),
    };
    assert_eq!(
        read_pgn(&written).as_ref(),
        Ok(&record),
        "written as {written:?}"
    );
    let _ = record.to_sheet_text(Lang::De);
}
